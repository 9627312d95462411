package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
)

// FuzzParseConfig feeds arbitrary bytes to the config parser and checks that it never
// panics, that every error is a *ConfigError naming the file and a line inside it, and
// that every accepted config expands (deterministically) into runs whose options the
// methods accept.
//
//	go test ./experiments -run '^$' -fuzz FuzzParseConfig -fuzztime 3m
func FuzzParseConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "configs", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join("..", "configs", "*.yaml"))
	if len(files) == 0 {
		f.Fatal("no corpus under ../testdata/configs")
	}
	for _, p := range append(files, more...) {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte(smallConfig))
	f.Add([]byte("datasets: [synthetic]\nmethods:\n  - &m {name: P, algorithm: kmeans}\n  - *m\n"))
	f.Add([]byte("datasets: [a, b]\nmethods:\n  - {name: P, algorithm: nagc, datasets: [b], grid: {k2: [k1, 2, k1]}}\n"))
	f.Add([]byte("datasets: [synthetic]\nmethods:\n  - {name: P, algorithm: nagc, options: {lambda: '1e-4', init: kmeans-median-ari}}\n"))
	f.Add([]byte("\"\r0")) // a lone CR is a line break to YAML: the error is on line 2
	f.Fuzz(func(t *testing.T, raw []byte) {
		const file = "fz/config.yaml"
		cfg, err := ParseConfig(file, raw)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *ConfigError", err, err)
			}
			if ce.File != file || !strings.HasPrefix(err.Error(), file) {
				t.Errorf("error %q does not name the file", err)
			}
			if lines := yamlLines(raw); ce.Line < 0 || ce.Line > lines {
				t.Errorf("error at line %d of a %d-line file: %v", ce.Line, lines, err)
			}
			return
		}
		if cfg.Restarts < 1 || cfg.Restarts > MaxRestarts || len(cfg.Datasets) == 0 || len(cfg.Methods) == 0 {
			t.Fatalf("accepted restarts %d, %d datasets, %d methods", cfg.Restarts, len(cfg.Datasets), len(cfg.Methods))
		}
		// Expand on a declared size a fuzzer iteration can afford.
		declared := 0
		for _, m := range cfg.Methods {
			row := cfg.Restarts * len(cfg.Datasets)
			for _, n := range m.Grid {
				row *= len(n.Content)
			}
			declared += row
		}
		if declared > MaxRuns {
			t.Fatalf("accepted a config of %d runs, more than MaxRuns", declared)
		}
		if declared > 5000 {
			return
		}
		k1 := map[string]int{}
		for i, d := range cfg.DatasetNames() {
			k1[d] = 2 + i%5
		}
		runs, err := cfg.Expand(k1)
		if err != nil {
			t.Fatalf("accepted config does not expand: %v", err)
		}
		again, _ := cfg.Expand(k1)
		if !reflect.DeepEqual(runs, again) {
			t.Fatal("Expand is not deterministic")
		}
		ids := map[string]bool{}
		for _, r := range runs {
			if ids[r.ID] {
				t.Errorf("run %s listed twice", r.ID)
			}
			ids[r.ID] = true
			if _, err := algorithms.New(r.Algorithm, r.Params); err != nil {
				t.Errorf("run %s (%s %v): %v", r.ID, r.Algorithm, r.Params, err)
			}
		}
	})
}

// yamlLines returns the number of lines of raw as YAML counts them: CRLF, CR, LF and the
// Unicode breaks NEL, LS and PS each end a line; one more is allowed for an error at the
// end of the stream.
func yamlLines(raw []byte) int {
	s := strings.ReplaceAll(string(raw), "\r\n", "\n")
	n := 2
	for _, r := range s {
		switch r {
		case '\n', '\r', '\u0085', '\u2028', '\u2029':
			n++
		}
	}
	return n
}
