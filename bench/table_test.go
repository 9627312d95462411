package bench

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
)

func TestMethods(t *testing.T) {
	ms, err := Methods("nagc, jwnmf,kmeans", 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 {
		t.Fatalf("%d methods, want 3", len(ms))
	}
	if p := ms[0].Params; ms[0].Name != "nagc" || p["init"] != "random" || p["iterations"] != 7 || p["rho"] != 0.95 || p["lambda"] != 0.01 {
		t.Errorf("nagc: %+v", ms[0])
	}
	if p := ms[1].Params; ms[1].Name != "jwnmf" || p["init"] != "random" || p["iterations"] != 7 {
		t.Errorf("jwnmf: %+v", ms[1])
	}
	if ms[2].Name != "kmeans" || len(ms[2].Params) != 0 {
		t.Errorf("kmeans: %+v", ms[2])
	}
	all, err := Methods("all", 5)
	if err != nil || len(all) != len(algorithms.Names()) {
		t.Errorf("all: %d methods, %v; want %d", len(all), err, len(algorithms.Names()))
	}
	if _, err := Methods("nagc,nope", 5); err == nil {
		t.Error("an unknown method is accepted")
	}
}

func TestTableRow(t *testing.T) {
	var b bytes.Buffer
	WriteTableHeader(&b)
	WriteTableRow(&b, Result{Case: "cora", Method: "nagc", Threads: 2, N: 2708, Work: 100, Median: 1.5, PerIteration: 0.015,
		MultiplyAdds: 2.8e6, PerNanosecond: math.NaN(), PeakHeapBytes: 3 << 20})
	WriteTableRow(&b, Result{Case: "big", Method: "nmf", N: 9, Work: 8, Err: "too big"})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %q", len(lines), b.String())
	}
	if got := strings.Fields(lines[1]); strings.Join(got, " ") != "cora nagc 2 2708 100 1.500 15.000 2.8e+06 - 3" {
		t.Errorf("row %q", lines[1])
	}
	if len(lines[1]) != len(lines[0]) {
		t.Errorf("row and header differ in width:\n%s\n%s", lines[0], lines[1])
	}
	if !strings.HasSuffix(lines[2], "error: too big") {
		t.Errorf("failed row %q", lines[2])
	}
}

func TestWriteFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	rs := []Result{{Case: "s1", Method: "m", Work: 1000, Median: 1, Synthetic: true}, {Case: "s2", Method: "m", Work: 10000, Median: 8, Synthetic: true}}
	if err := WriteFiles(dir, rs); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{CSVFile, GrowthFile + ".png", GrowthFile + ".pdf"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
