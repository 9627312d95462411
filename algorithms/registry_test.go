package algorithms

import (
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	m, err := New("nagc", map[string]any{"k2": 5, "lambda": 0.01, "rho": 0.95, "init": "random"})
	if err != nil {
		t.Fatal(err)
	}
	got := m.(NAGC)
	if got.K2 != 5 || got.Lambda != 0.01 || got.Rho != 0.95 || got.Init != "random" {
		t.Errorf("decoded %+v", got)
	}
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"nosuch", nil, "unknown method"},
		{"nagc", map[string]any{"lamda": 1}, "lamda"},
		{"nagc", map[string]any{"k2": "many"}, "k2"},
		{"metis", map[string]any{"ptype": []int{1}}, "ptype"},
	} {
		if _, err := New(tc.name, tc.params); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: error %v, want mention of %q", tc.name, tc.params, err, tc.want)
		}
	}
	for _, name := range Names() {
		m, err := New(name, nil)
		if err != nil || m.Name() != name {
			t.Errorf("%s: %v, name %q", name, err, m.Name())
		}
		if _, err := Params(name); err != nil {
			t.Error(err)
		}
	}
}

func TestParamsIncludeInlineOptions(t *testing.T) {
	for _, name := range []string{"nagc", "sgc-kmeans"} {
		keys, _ := Params(name)
		found := map[string]bool{}
		for _, k := range keys {
			found[k] = true
		}
		if !found["p"] || !found["norm"] || !found["self_loop"] {
			t.Errorf("%s: options %v lack the filter's", name, keys)
		}
	}
	m, err := New("nagc", map[string]any{"p": 2, "lambda": 0.1})
	if err != nil || m.(NAGC).Filter.P != 2 {
		t.Errorf("inline option not decoded: %+v %v", m, err)
	}
}

// notMethod is options whose value is not a Method.
type notMethod struct{}

func TestRegisterRefuses(t *testing.T) {
	for _, c := range []struct {
		name    string
		options func() any
		want    string
	}{
		{"", func() any { return &KMeans{} }, "non-empty"},
		{"command", func() any { return &KMeans{} }, "not \"command\""},
		{"nagc", func() any { return &NAGC{} }, "registered already"},
		{"mine", func() any { return KMeans{} }, "pointer to a struct"},
		{"mine", func() any { return (*KMeans)(nil) }, "pointer to a struct"},
		{"mine", func() any { return &notMethod{} }, "does not implement algorithms.Method"},
		{"mine", func() any { return &KMeans{} }, `Name() is "kmeans"`},
	} {
		if err := Register(c.name, c.options); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Register(%q): %v, want an error saying %s", c.name, err, c.want)
		}
	}
	if _, ok := lookup("mine"); ok {
		t.Error("a refused method was registered")
	}
}
