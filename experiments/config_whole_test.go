package experiments

import (
	"strings"
	"testing"
)

// TestFractionalCountsRefused checks that a number with a fractional part where a config
// takes a whole number is refused at its file, line and key (the YAML decoder would
// truncate it silently: eta 2.5 ran as 2), together with the config's other faults, and
// that a whole number written as a float (3.0) is taken.
func TestFractionalCountsRefused(t *testing.T) {
	text := "restarts: 2.5\n" + // 1
		"iterations: 30.0\n" + // 2: whole, taken
		"datasets: [{path: synthetic, k1: 3.5}]\n" + // 3
		"search: {trials: 4.9, eta: 2.5, min_iterations: 3}\n" + // 4
		"methods:\n" + // 5
		"  - name: P\n" + // 6
		"    algorithm: nagc\n" + // 7
		"    space: {lambda: {log: [1.0e-3, 1]}}\n" + // 8
		"    search: {batch: 1.5}\n" + // 9
		"  - name: Q\n" + // 10
		"    algorithm: spectral\n" // 11: another fault, reported with them
	path := writeConfig(t, text)
	_, err := LoadConfig(path)
	if err == nil {
		t.Fatal("accepted")
	}
	want := []string{
		path + ":1: restarts: want a whole number, got '2.5'",
		path + ":3: k1: want a whole number, got '3.5'",
		path + ":4: trials: want a whole number, got '4.9'",
		path + ":4: eta: want a whole number, got '2.5'",
		path + ":9: batch: want a whole number, got '1.5'",
		path + ":11: algorithm: unknown method \"spectral\"",
	}
	lines := strings.Split(err.Error(), "\n")
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(l, w)
		}
		if !found {
			t.Errorf("no line starting %q in:\n%s", w, err)
		}
	}
	if len(lines) != len(want) {
		t.Errorf("%d lines, want %d:\n%s", len(lines), len(want), err)
	}
}

// TestYAMLTypeFaultNamesItsKey checks that a value of the wrong type inside a mapping
// written on one line is named by its key.
func TestYAMLTypeFaultNamesItsKey(t *testing.T) {
	path := writeConfig(t, "datasets: [synthetic]\nsearch: {trials: ten, batch: 2}\nmethods:\n  - {name: P, algorithm: nagc, space: {lambda: [1, 2]}}\n")
	_, err := LoadConfig(path)
	if want := path + ":2: trials: want a whole number, got 'ten'"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
