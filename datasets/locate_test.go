package datasets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDataRoot(t *testing.T) {
	t.Setenv("NAGC_DATA", "/some/where")
	if got := DataRoot(); got != "/some/where" {
		t.Errorf("DataRoot with NAGC_DATA = %q", got)
	}
	t.Setenv("NAGC_DATA", "")
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// Tests run in the package folder, one below the module root.
	want := filepath.Join(filepath.Dir(cwd), "..", "shared", "datasets")
	if got := DataRoot(); got != want {
		t.Errorf("DataRoot = %q, want %q", got, want)
	}
}

func TestLocate(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"webkb", "mine"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	t.Setenv("NAGC_DATA", root)
	for _, test := range []struct {
		name, want string
		errHas     []string
	}{
		{name: "webkb", want: filepath.Join(root, "webkb")},
		{name: "mine", want: filepath.Join(root, "mine")},
		{name: other, want: other},
		{name: "cora", errHas: []string{`"cora"`, filepath.Join(root, "cora"), "webkb, citeseer, cora, polblog", "NAGC_DATA"}},
		{name: "file", errHas: []string{filepath.Join(root, "file")}},
		{name: filepath.Join(other, "nope"), errHas: []string{filepath.Join(other, "nope")}},
		{name: "", errHas: []string{"empty"}},
	} {
		got, err := Locate(test.name)
		if test.errHas == nil {
			if err != nil || got != test.want {
				t.Errorf("Locate(%q) = %q, %v; want %q", test.name, got, err, test.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("Locate(%q) = %q, want an error", test.name, got)
			continue
		}
		for _, s := range test.errHas {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Locate(%q) error %q does not mention %q", test.name, err, s)
			}
		}
	}
}

func TestLoad(t *testing.T) {
	g, err := Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Synthetic(DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	if d := graphsEqual(g, want); d != "" {
		t.Errorf(`Load("synthetic") differs from Synthetic(DefaultSynthetic()): %s`, d)
	}

	t.Setenv("NAGC_DATA", t.TempDir())
	if _, err := Load("webkb"); err == nil {
		t.Error(`Load("webkb") with an empty data root: no error`)
	}
	dir := writeDir(t, map[string]string{"x.content": "a 1 L\nb 0 M\n", "x.cites": "a b\n"})
	g, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 2 || g.Edges() != 1 || g.Name != filepath.Base(dir) {
		t.Errorf("Load(%s): %+v", dir, g.Stats())
	}
}

func TestPaperNames(t *testing.T) {
	if got := PaperNames(); !slices.Equal(got, []string{"webkb", "citeseer", "cora", "polblog"}) {
		t.Errorf("PaperNames() = %q", got)
	}
}
