package experiments

import (
	"errors"
	"strings"
	"testing"
)

const precisionConfig = `name: p
datasets: [cora]
%s
methods:
  - {name: Prop., algorithm: nagc}
  - {name: Prop. own, algorithm: nagc, options: {precision: default, rho: 0.5}}
  - {name: k-means, algorithm: kmeans}
  - {name: SNMF, algorithm: snmf}
`

// precisions returns each run's method rows and its option precision ("-" where unset).
func precisions(t *testing.T, c *Config) map[string]string {
	t.Helper()
	runs, err := c.Expand(map[string]int{"cora": 7})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range runs {
		p, ok := r.Params["precision"].(string)
		if !ok {
			p = "-"
		}
		got[strings.Join(r.Methods, ",")] = p
	}
	return got
}

func TestConfigPrecision(t *testing.T) {
	for _, tc := range []struct {
		top, flag string
		want      map[string]string
	}{
		{"", "", map[string]string{"Prop.": "-", "Prop. own": "default", "k-means": "-", "SNMF": "-"}},
		{"precision: fast", "", map[string]string{"Prop.": "fast", "Prop. own": "default", "k-means": "fast", "SNMF": "-"}},
		{"precision: default", "", map[string]string{"Prop.": "-", "Prop. own": "default", "k-means": "-", "SNMF": "-"}},
		{"precision: fast", "default", map[string]string{"Prop.": "-", "Prop. own": "default", "k-means": "-", "SNMF": "-"}},
		{"", "fast", map[string]string{"Prop.": "fast", "Prop. own": "default", "k-means": "fast", "SNMF": "-"}},
	} {
		c, err := ParseConfig("p.yaml", []byte(strings.Replace(precisionConfig, "%s", tc.top, 1)))
		if err != nil {
			t.Fatalf("%q: %v", tc.top, err)
		}
		if tc.flag != "" {
			if err := c.SetPrecision(tc.flag); err != nil {
				t.Fatal(err)
			}
		}
		got := precisions(t, c)
		for row, want := range tc.want {
			if got[row] != want {
				t.Errorf("top %q, flag %q: row %s has precision %s, want %s", tc.top, tc.flag, row, got[row], want)
			}
		}
	}
}

func TestConfigPrecisionRefused(t *testing.T) {
	_, err := ParseConfig("p.yaml", []byte(strings.Replace(precisionConfig, "%s", "precision: quick", 1)))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Key != "precision" || ce.Line != 3 || !strings.Contains(ce.Msg, "fast") {
		t.Fatalf("got %v, want an error at p.yaml line 3 naming the key precision and its values", err)
	}
}
