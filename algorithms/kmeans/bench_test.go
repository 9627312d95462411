package kmeans

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/metrics"
)

// The ogbn-arxiv shape: 169,343 rows of 128 dense attributes in 40 classes.
const arxivN, arxivM, arxivK = 169343, 128, 40

// arxivData returns arxiv-shaped attributes and their classes: those saved by
// scripts/kmeans_sklearn.py make in $KMEANS_NPY (x64.npy, x32.npy, labels.npy), so that
// scikit-learn fits the same numbers, or else planted here the same way (class means N(0, 1)
// per column, |mean + 1.55·N(0, 1)|, classes uniform).
func arxivData(b *testing.B) ([]float64, []float32, []int) {
	if dir := os.Getenv("KMEANS_NPY"); dir != "" {
		x, err := readNpy(filepath.Join(dir, "x64.npy"))
		if err != nil {
			b.Fatal(err)
		}
		lab, err := readNpy(filepath.Join(dir, "labels.npy"))
		if err != nil {
			b.Fatal(err)
		}
		x32, y := make([]float32, len(x)), make([]int, len(lab))
		for p, v := range x {
			x32[p] = float32(v)
		}
		for p, v := range lab {
			y[p] = int(v)
		}
		if len(x) != arxivN*arxivM || len(y) != arxivN {
			b.Fatalf("%s: want %d×%d attributes and %d labels", dir, arxivN, arxivM, arxivN)
		}
		return x, x32, y
	}
	rng := rand.New(rand.NewPCG(1, 1))
	means := make([]float64, arxivK*arxivM)
	for p := range means {
		means[p] = rng.NormFloat64()
	}
	x, x32, y := make([]float64, arxivN*arxivM), make([]float32, arxivN*arxivM), make([]int, arxivN)
	for i := range y {
		y[i] = rng.IntN(arxivK)
		for j := range arxivM {
			x[i*arxivM+j] = math.Abs(means[y[i]*arxivM+j] + 1.55*rng.NormFloat64())
			x32[i*arxivM+j] = float32(x[i*arxivM+j])
		}
	}
	return x, x32, y
}

// readNpy reads a little-endian float64, float32 or int64 .npy array, C order, as float64.
func readNpy(path string) ([]float64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(raw) < 10 || string(raw[1:6]) != "NUMPY" {
		return nil, fmt.Errorf("%s: not a .npy file", path)
	}
	hl := int(binary.LittleEndian.Uint16(raw[8:10]))
	if len(raw) < 10+hl {
		return nil, fmt.Errorf("%s: header cut short", path)
	}
	header, body := string(raw[10:10+hl]), raw[10+hl:]
	descr := regexp.MustCompile(`'descr': *'([^']*)'`).FindStringSubmatch(header)
	if descr == nil || regexp.MustCompile(`'fortran_order': *True`).MatchString(header) {
		return nil, fmt.Errorf("%s: want a C-order array, header %s", path, header)
	}
	size := map[string]int{"<f8": 8, "<f4": 4, "<i8": 8}[descr[1]]
	if size == 0 {
		return nil, fmt.Errorf("%s: dtype %s, want <f8, <f4 or <i8", path, descr[1])
	}
	count := 1
	for _, d := range regexp.MustCompile(`\d+`).FindAllString(regexp.MustCompile(`'shape': *\(([^)]*)\)`).FindString(header), -1) {
		v, _ := strconv.Atoi(d)
		count *= v
	}
	if len(body) != count*size {
		return nil, fmt.Errorf("%s: %d bytes of data for %d values", path, len(body), count)
	}
	out := make([]float64, count)
	for p := range out {
		switch descr[1] {
		case "<f8":
			out[p] = math.Float64frombits(binary.LittleEndian.Uint64(body[8*p:]))
		case "<f4":
			out[p] = float64(math.Float32frombits(binary.LittleEndian.Uint32(body[4*p:])))
		default:
			out[p] = float64(int64(binary.LittleEndian.Uint64(body[8*p:])))
		}
	}
	return out, nil
}

// BenchmarkFitDenseArxiv times FitDense with scikit-learn's protocol (n_init 10) on
// arxiv-shaped attributes, on every thread (parallel.Threads() as set by the caller's
// GOMAXPROCS) and on one, and reports the ARI against the planted classes.
// Compare with scripts/kmeans_sklearn.py fit on the same .npy files (docs/kmeans.md).
func BenchmarkFitDenseArxiv(b *testing.B) {
	x, x32, y := arxivData(b)
	nInit := 10
	if s := os.Getenv("KMEANS_NINIT"); s != "" {
		nInit, _ = strconv.Atoi(s)
	}
	for _, threads := range []int{0, 1} {
		for _, prec := range []string{"float32", "float64"} {
			name := fmt.Sprintf("%s/threads=%d", prec, threads)
			if threads == 0 {
				name = prec + "/threads=all"
			}
			b.Run(name, func(b *testing.B) {
				defer parallel.SetThreads(parallel.SetThreads(threads))
				var res *Result
				var err error
				for range b.N {
					cfg := Config{K: arxivK, NInit: nInit}
					if prec == "float32" {
						res, err = FitDense(context.Background(), x32, arxivN, arxivM, cfg, rand.New(rand.NewPCG(0, 0)))
					} else {
						res, err = FitDense(context.Background(), x, arxivN, arxivM, cfg, rand.New(rand.NewPCG(0, 0)))
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				ari, _ := metrics.ARI(y, res.Labels)
				b.ReportMetric(ari, "ARI")
				b.ReportMetric(res.Inertia, "inertia")
				b.ReportMetric(float64(res.Iterations), "iterations")
			})
		}
	}
}

// BenchmarkLloydStepSparse times one Lloyd step of the sparse path (labels from the
// products with the centres, then the centroid sums) on the attributes of nagc bench's
// 10⁵-vertex synthetic graph (m = 1000, 20 stored entries a row, columns divided by their
// maxima as NAGC's k-means start reads them), k = 10, on one thread and on two.
func BenchmarkLloydStepSparse(b *testing.B) {
	g, err := datasets.Synthetic(datasets.SyntheticConfig{N: 100000, M: 1000, K1: 10, K2: 10,
		AvgDegree: 10, PIn: 0.8, AttrPerVertex: 20, AttrSignal: 0.6, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	w := newWorkspace(attrtest.Sparse(g.X).ColumnMaxNormalised(), 10)
	if err := w.seed(context.Background(), rand.New(rand.NewPCG(1, 2))); err != nil {
		b.Fatal(err)
	}
	_, m := w.x.Dims()
	old := mat.NewDense(w.k, m, nil)
	defer parallel.SetSplitAlways(parallel.SetSplitAlways(false))
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			for b.Loop() {
				w.assign(true)
				w.update(old)
			}
		})
	}
}
