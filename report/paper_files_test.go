package report

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadPaperFiles checks each form of Options.PaperFile and Options.SpecFile: none
// given, "none", the shipped copies read from configs/, and a missing file's error.
func TestLoadPaperFiles(t *testing.T) {
	published := filepath.Join("..", "configs", "published-results.yaml")
	spec := filepath.Join("..", "configs", "paper-comparison.yaml")
	for _, tc := range []struct {
		name, paper, spec        string
		noPaper, hasPaper, hasSp bool
		err                      string
	}{
		{name: "none given"},
		{name: "none", paper: "none", noPaper: true},
		{name: "files", paper: published, spec: spec, hasPaper: true, hasSp: true},
		{name: "missing paper", paper: "no-such.yaml", err: "no-such.yaml"},
		{name: "missing spec", spec: "no-such-spec.yaml", err: "no-such-spec.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{PaperFile: tc.paper, SpecFile: tc.spec}
			err := loadPaperFiles(&opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if opt.NoPaper != tc.noPaper || (opt.Paper != nil) != tc.hasPaper || (opt.Spec != nil) != tc.hasSp {
				t.Errorf("NoPaper %v, paper %v, spec %v", opt.NoPaper, opt.Paper != nil, opt.Spec != nil)
			}
		})
	}
}
