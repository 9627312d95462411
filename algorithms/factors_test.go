package algorithms

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestDenseCSVRoundTrip(t *testing.T) {
	d := mat.NewDense(2, 3, []float64{0.1, 1e-300, 3, 2.220446049250313e-16, 5, 1.0 / 3})
	path := filepath.Join(t.TempDir(), "u.csv")
	if err := WriteDenseCSV(path, d); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDenseCSV(path)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got, d) {
		t.Errorf("round trip changed the matrix:\n%v", mat.Formatted(got))
	}
}

func TestReadDenseCSVErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"ragged", "1,2\n3\n", ":2: 1 values, previous rows have 2"},
		{"nan", "1,2\n3,NaN\n", ":2: column 2"},
		{"text", "1,x\n", ":1: column 2: \"x\""},
		{"empty", "\n\n", "no rows"},
	} {
		path := filepath.Join(t.TempDir(), tc.name+".csv")
		os.WriteFile(path, []byte(tc.text), 0o644)
		_, err := ReadDenseCSV(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want file name and %q", tc.name, err, tc.want)
		}
	}
}

// TestReadInitialFactors reads U, V and H from three files and refuses a missing one.
func TestReadInitialFactors(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, body := range []string{"1,2\n3,4\n5,6\n", "1\n2\n", "0.5,0.5\n"} {
		p := filepath.Join(dir, string(rune('u'+i))+".csv")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	U, V, H, err := ReadInitialFactors(paths[0], paths[1], paths[2])
	if err != nil {
		t.Fatal(err)
	}
	if r, c := U.Dims(); r != 3 || c != 2 || V.At(1, 0) != 2 || H.At(0, 1) != 0.5 {
		t.Errorf("U %d×%d, V[1,0] %v, H[0,1] %v", r, c, V.At(1, 0), H.At(0, 1))
	}
	if _, _, _, err := ReadInitialFactors(paths[0], "", paths[2]); err == nil {
		t.Error("two factors accepted")
	}
}
