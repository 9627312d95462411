package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isolate makes the search path of this test its own: no $NAGC_DATA, a fresh cache
// folder, and a working folder outside any checkout. It returns the cache folder's
// dataset folder and the working folder.
func isolate(t *testing.T) (download, work string) {
	t.Helper()
	cache := t.TempDir()
	t.Setenv(DataVar, "")
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir())
	work = t.TempDir()
	t.Chdir(work)
	return filepath.Join(cache, "nagc", "datasets"), work
}

// writeGoMod writes a go.mod declaring module mod into dir.
func writeGoMod(t *testing.T, dir, mod string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("// a module\nmodule "+mod+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSearchPath(t *testing.T) {
	download, work := isolate(t)
	dirs := func() []string {
		var d []string
		for _, p := range SearchPath() {
			d = append(d, p.Dir)
		}
		return d
	}
	if got := dirs(); !slices.Equal(got, []string{download}) {
		t.Errorf("outside a checkout: %q, want only the download folder %q", got, download)
	}
	if got, err := DefaultDir(); err != nil || got != download {
		t.Errorf("DefaultDir() = %q, %v; want %q", got, err, download)
	}

	// Inside another Go project: still only the download folder.
	other := filepath.Join(work, "other")
	sub := filepath.Join(other, "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeGoMod(t, other, "example.com/other")
	t.Chdir(sub)
	if got := dirs(); !slices.Equal(got, []string{download}) {
		t.Errorf("inside another Go project: %q, want only %q", got, download)
	}

	// Inside a nagc checkout (a sub-folder of it): its ../shared/datasets comes last.
	checkout := filepath.Join(work, "nagc")
	sub = filepath.Join(checkout, "cmd", "nagc")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeGoMod(t, checkout, ModulePath)
	t.Chdir(sub)
	shared := filepath.Join(checkout, "..", "shared", "datasets")
	if got := dirs(); !slices.Equal(got, []string{download, shared}) {
		t.Errorf("inside a checkout: %q, want %q", got, []string{download, shared})
	}

	// $NAGC_DATA comes first, and is where fetch installs.
	t.Setenv(DataVar, "/some/where")
	if got := dirs(); !slices.Equal(got, []string{"/some/where", download, shared}) {
		t.Errorf("with %s: %q", DataVar, got)
	}
	if got, err := DefaultDir(); err != nil || got != "/some/where" {
		t.Errorf("DefaultDir() with %s = %q, %v", DataVar, got, err)
	}
}

func TestLocate(t *testing.T) {
	download, work := isolate(t)
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
	// A folder in the working folder is taken as written, before the search path.
	for _, d := range []string{"here", "webkb"} {
		if err := os.Mkdir(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "here"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NAGC_DATA", root)
	for _, test := range []struct {
		name, want string
		errHas     []string
	}{
		{name: "webkb", want: "webkb"},
		{name: "mine", want: filepath.Join(root, "mine")},
		{name: other, want: other},
		{name: "cora", errHas: []string{`"cora"`, filepath.Join(root, "cora"), filepath.Join(download, "cora"), "nagc datasets fetch cora", "NAGC_DATA", "--data"}},
		{name: "mygraph", errHas: []string{`"mygraph"`, filepath.Join(root, "mygraph"), "nagc datasets fetch all", "webkb, citeseer, cora, polblog"}},
		{name: "here", want: "here"},
		{name: "file", want: filepath.Join(root, "file")}, // a file dataset (npz, mtx, edge list)
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
		if test.name != "" && !errors.Is(err, ErrNotFound) {
			t.Errorf("Locate(%q) error %q is not ErrNotFound", test.name, err)
		}
		for _, s := range test.errHas {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Locate(%q) error %q does not mention %q", test.name, err, s)
			}
		}
	}
}

func TestLoad(t *testing.T) {
	isolate(t)
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

func TestIdentity(t *testing.T) {
	isolate(t)
	syn, err := Load("synthetic")
	if err != nil {
		t.Fatal(err)
	}
	if got := Identity(syn, ""); got != "synthetic" {
		t.Errorf("Identity(synthetic) = %q", got)
	}
	if got := Identity(syn, "mine"); got != "synthetic" {
		t.Errorf("Identity(synthetic named mine) = %q, want synthetic (recognised by content)", got)
	}
	// The same small graph in two folders with different names, and in another format:
	// one identity; a changed graph: another.
	files := map[string]string{"x.content": "a 1 0 L\nb 0 1 M\nc 1 1 L\n", "x.cites": "a b\nb c\n"}
	one, two := writeDir(t, files), writeDir(t, files)
	g1, err := Load(one)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := Load(two)
	if err != nil {
		t.Fatal(err)
	}
	el := writeDir(t, map[string]string{"edges.csv": "a,b\nb,c\n", "features.csv": "a,1,0\nb,0,1\nc,1,1\n", "labels.csv": "a,L\nb,M\nc,L\n"})
	g3, err := Load(el)
	if err != nil {
		t.Fatal(err)
	}
	id := Identity(g1, "")
	if !strings.HasPrefix(id, "sha256:") || Identity(g2, "") != id || Identity(g3, "") != id {
		t.Errorf("identities %q, %q, %q: want one sha256: identity", id, Identity(g2, ""), Identity(g3, ""))
	}
	if got := Identity(g1, "mine"); got != "mine@"+id {
		t.Errorf("named: %q", got)
	}
	files["x.cites"] = "a b\n"
	g4, err := Load(writeDir(t, files))
	if err != nil {
		t.Fatal(err)
	}
	if Identity(g4, "") == id {
		t.Error("a changed graph kept its identity")
	}
}
