package experiments

import (
	"context"
	"strings"
	"testing"
)

// A search refused for a changed space names the parameters that changed as a config
// writes them, not as Go holds them.
func TestSearchSpaceChangedRefusedInConfigWords(t *testing.T) {
	dir := t.TempDir()
	executeSearch(t, mustLoad(t, searchConfig), Options{ResultsDir: dir, Workers: 2, Limit: 3})
	text := strings.Replace(searchConfig, "      rho: {uniform: [0.5, 0.99]}\n", "      rho: [0.5, 0.9]\n      p: {int: [1, 4]}\n", 1)
	text = strings.Replace(text, "lambda: {log: [1.0e-4, 10]}\n      k2", "lambda: {log: [1.0e-3, 10]}\n      k2", 1)
	_, err := Execute(context.Background(), mustLoad(t, text), Options{ResultsDir: dir, Workers: 2})
	want := "(space lambda {log: [0.0001, 10]} → {log: [0.001, 10]}; space p (not searched) → {int: [1, 4]}; space rho {uniform: [0.5, 0.99]} → [0.5, 0.9])"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("changed space: %v\nwant it to say %s", err, want)
	}
}

func TestSpaceText(t *testing.T) {
	for _, c := range []struct {
		param map[string]any
		want  string
	}{
		{map[string]any{"Name": "k2", "Kind": 0.0, "Choices": []any{"k1", 5.0, 7.0}}, "[k1, 5, 7]"},
		{map[string]any{"Name": "lambda", "Kind": 1.0, "Lo": 1e-10, "Hi": 100.0, "Log": true}, "{log: [1e-10, 100]}"},
		{map[string]any{"Name": "rho", "Kind": 1.0, "Lo": 0.5, "Hi": 0.995}, "{uniform: [0.5, 0.995]}"},
		{map[string]any{"Name": "n", "Kind": 2.0, "Lo": 1.0, "Hi": 16.0}, "{int: [1, 16]}"},
		{map[string]any{"Name": "n", "Kind": 2.0, "Lo": 1.0, "Hi": 16.0, "Log": true}, "{int: [1, 16], log: true}"},
		{nil, "(not searched)"},
	} {
		var v any
		if c.param != nil {
			v = c.param
		}
		if got := spaceText(v); got != c.want {
			t.Errorf("spaceText(%v) = %q, want %q", c.param, got, c.want)
		}
	}
}
