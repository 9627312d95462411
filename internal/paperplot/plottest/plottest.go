// Package plottest compares rendered figures with golden images, for the tests of the
// packages that draw with internal/paperplot.
package plottest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// Tolerance is the colour distance (gonum's cmpimg.EqualApprox, YIQ space) within which
// two images are the same figure: it absorbs anti-aliasing differences across platforms
// and nothing a reader would see.
const Tolerance = 0.01

// CheckPNG compares the PNG got with the golden image at path, pixel by pixel within
// Tolerance; with update it rewrites the golden image instead. A rendered image that
// differs is kept in a new temporary folder, named in the failure.
func CheckPNG(t *testing.T, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	ok, err := cmpimg.EqualApprox("png", got, want, Tolerance)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		bad := "(not kept)"
		if d, err := os.MkdirTemp("", "nagc-golden-"); err == nil {
			bad = filepath.Join(d, filepath.Base(path))
			os.WriteFile(bad, got, 0o644)
		}
		t.Errorf("%s differs beyond the tolerance; rendered image: %s", path, bad)
	}
}
