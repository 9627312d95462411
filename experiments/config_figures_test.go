package experiments

import (
	"strings"
	"testing"
)

func TestConfigFigures(t *testing.T) {
	base := "name: f\ndatasets: [synthetic]\nmethods:\n  - {name: K, algorithm: kmeans}\n"
	for _, tc := range []struct {
		section string
		err     string // "" when valid
	}{
		{"figures:\n  width: column\n  font_size: 8\n  title: false\n  legend: inside\n  metric: nmi\n  formats: [pdf]\n", ""},
		{"figures:\n  width: 8cm\n  aspect: 1.4\n  errors: bands\n  metric: heldout_modularity\n  rows: [K]\n  params: [k]\n  dpi: 300\n", ""},
		{"figures:\n  width: 8\n", `f.yaml:5: figures: width: figure length "8"`},
		{"figures:\n  legend: left\n", "legend: legend \"left\": want inside, outside or none"},
		{"figures:\n  metric: f1\n", "metric: unknown metric \"f1\" (known: ari, nmi, acc, modularity, entropy, attr_modularity, ari_connected, heldout_modularity)"},
		{"figures:\n  formats: [svg]\n", "unknown figure format \"svg\""},
		{"figures:\n  widht: page\n", "unknown key 'widht' (did you mean 'width'?"},
	} {
		cfg, err := ParseConfig("f.yaml", []byte(base+tc.section))
		if tc.err == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.section, err)
				continue
			}
			if cfg.Figures == nil || cfg.Figures.IsZero() {
				t.Errorf("%q: figures not read", tc.section)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want one containing %q", tc.section, err, tc.err)
		}
	}
}
