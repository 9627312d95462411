package experiments

import (
	"strings"
	"testing"
)

// TestConfigErrorsAllAtOnce checks that every fault of a config's validation is reported
// in one error, each on a line of its own with the file, line and key, and that the error
// is a *ConfigError locating the first.
func TestConfigErrorsAllAtOnce(t *testing.T) {
	text := "restarts: -1\n" + // 1
		"metrics: [purity]\n" + // 2
		"datasets:\n" + // 3
		"  - {path: synthetic, labels: maybe}\n" + // 4
		"methods:\n" + // 5
		"  - name: P\n" + // 6
		"    algorithm: nagc\n" + // 7
		"    options: {lamda: 1}\n" + // 8
		"    grid:\n" + // 9
		"      rho: [0.5, 1.5]\n" + // 10
		"  - name: Q\n" + // 11
		"    algorithm: spectral\n" // 12
	path := writeConfig(t, text)
	_, err := LoadConfig(path)
	ce, ok := err.(*ConfigError)
	if !ok || ce.Line != 1 {
		t.Fatalf("got %v (%T), want a *ConfigError at line 1", err, err)
	}
	lines := strings.Split(err.Error(), "\n")
	for _, want := range []string{
		path + ":1: restarts: must be in 1…",
		path + ":2: metrics: unknown metric \"purity\"",
		path + ":4: datasets: synthetic: labels \"maybe\"",
		path + ":8: lamda: nagc has no option lamda",
		path + ":10: rho: ρ must be a number in [0, 1]",
		path + ":12: algorithm: unknown method \"spectral\"",
	} {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(l, want)
		}
		if !found {
			t.Errorf("no line starting %q in:\n%s", want, err)
		}
	}
	if len(lines) != 6 {
		t.Errorf("%d lines, want the 6 faults:\n%s", len(lines), err)
	}
}
