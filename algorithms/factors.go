package algorithms

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ReadDenseCSV reads a dense matrix from a comma-separated file, one row per line, no
// header (the authors' repository ships initial U, V, H in this form). Blank lines are
// skipped. Errors name the file, line and fault. Cost O(size of the file).
func ReadDenseCSV(path string) (*mat.Dense, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var data []float64
	cols := -1
	rows := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if text == "" {
			continue
		}
		fields := strings.Split(text, ",")
		if cols >= 0 && len(fields) != cols {
			return nil, fmt.Errorf("%s:%d: %d values, previous rows have %d", path, line, len(fields), cols)
		}
		cols = len(fields)
		for c, s := range fields {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s:%d: column %d: %q is not a finite number", path, line, c+1, s)
			}
			data = append(data, v)
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if rows == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return mat.NewDense(rows, cols, data), nil
}

// ReadInitialFactors reads NAGC's initial U, V and H (NAGC.InitU, InitV, InitH) from
// the comma-separated files u, v and h (ReadDenseCSV); all three must be given.
func ReadInitialFactors(u, v, h string) (U, V, H *mat.Dense, err error) {
	if u == "" || v == "" || h == "" {
		return nil, nil, nil, errors.New("--init-u, --init-v and --init-h go together")
	}
	if U, err = ReadDenseCSV(u); err != nil {
		return nil, nil, nil, err
	}
	if V, err = ReadDenseCSV(v); err != nil {
		return nil, nil, nil, err
	}
	if H, err = ReadDenseCSV(h); err != nil {
		return nil, nil, nil, err
	}
	return U, V, H, nil
}

// WriteDenseCSV writes d to path as comma-separated rows, with every value printed in the
// shortest form that reads back exactly.
func WriteDenseCSV(path string, d mat.Matrix) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	r, c := d.Dims()
	buf := make([]byte, 0, 32*c)
	for i := 0; i < r; i++ {
		buf = buf[:0]
		for j := 0; j < c; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, d.At(i, j), 'g', -1, 64)
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
