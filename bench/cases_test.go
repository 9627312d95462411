package bench

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
)

// TestCases checks which graphs a CaseSpec names and its errors.
func TestCases(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-graph")
	var skipped []string
	cs, err := Cases(CaseSpec{Data: missing, Sizes: "20, 40", Skipped: func(name string, err error) { skipped = append(skipped, name) },
		Loaded: func(*datasets.LoadReport) { t.Error("a report of a graph not read") }})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Graph.N() != 20 || cs[1].Graph.N() != 40 || len(skipped) != 1 || skipped[0] != missing {
		t.Errorf("%d cases, skipped %q; want the series of 20 and 40 vertices, %s skipped", len(cs), skipped, missing)
	}
	for _, tc := range []struct {
		spec CaseSpec
		want string
	}{
		{CaseSpec{Data: missing, DataGiven: true, Sizes: "none"}, "--data " + missing},
		{CaseSpec{Data: "none", Sizes: "20,x"}, `--sizes: "x" is not a vertex count ≥ 10`},
		{CaseSpec{Data: "none", Sizes: "5"}, `--sizes: "5" is not a vertex count ≥ 10`},
		{CaseSpec{Data: "none", Sizes: "none"}, "nothing to time"},
	} {
		if _, err := Cases(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.spec, err, tc.want)
		}
	}
}
