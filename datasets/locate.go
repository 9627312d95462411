package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// PaperNames returns the names of the four datasets of the NAGC paper, in the order of
// its tables: webkb, citeseer, cora, polblog.
func PaperNames() []string {
	return []string{"webkb", "citeseer", "cora", "polblog"}
}

// DataVar is the environment variable naming the folder that holds the datasets; the
// command line's --data sets it.
const DataVar = "NAGC_DATA"

// ModulePath is this project's module path: a go.mod declaring it marks a checkout of the
// nagc repository, beside which ../shared/datasets is looked at.
const ModulePath = "github.com/nagc-harness/nagc"

// Place is one folder where datasets are looked up, and why it is looked at.
type Place struct {
	Dir string // the folder holding dataset folders
	Why string // where it comes from, for messages: "$NAGC_DATA", "download folder", …
}

// DefaultDir returns the folder that `nagc datasets fetch` installs into when not told
// otherwise: $NAGC_DATA where it is set, else nagc/datasets in the user's cache folder
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
// %LocalAppData% on Windows). The folder need not exist.
func DefaultDir() (string, error) {
	if d := os.Getenv(DataVar); d != "" {
		return d, nil
	}
	return downloadDir()
}

// downloadDir returns nagc/datasets in the user's cache folder.
func downloadDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no folder to keep datasets in (%v): set %s to one", err, DataVar)
	}
	return filepath.Join(c, "nagc", "datasets"), nil
}

// searchOnly, when set, is the one folder SearchPath holds (see SearchOnly).
var searchOnly atomic.Pointer[string]

// SearchOnly makes dir the one place where datasets named by a bare name are looked up,
// as when a user names a folder with --data: no look-up then falls back to $NAGC_DATA,
// the download folder or the checkout's shared folder. It returns the function that
// restores the search path.
func SearchOnly(dir string) (restore func()) {
	prev := searchOnly.Swap(&dir)
	return func() { searchOnly.Store(prev) }
}

// SearchPath returns, in order, the places where a dataset named by a bare name is looked
// for: $NAGC_DATA when set; the folder `nagc datasets fetch` installs into by default
// (see DefaultDir); and, only when the working directory is inside a checkout of this
// repository, the folder shared/datasets beside the checkout. None of them need exist.
// Cost: one stat and one small read per parent folder of the working directory.
func SearchPath() []Place {
	if d := searchOnly.Load(); d != nil {
		return []Place{{*d, "--data"}}
	}
	var places []Place
	if d := os.Getenv(DataVar); d != "" {
		places = append(places, Place{d, "$" + DataVar})
	}
	if d, err := downloadDir(); err == nil {
		places = append(places, Place{d, "the download folder of `nagc datasets fetch`"})
	}
	if root, ok := CheckoutRoot(); ok {
		places = append(places, Place{filepath.Join(root, "..", "shared", "datasets"), "beside this nagc checkout"})
	}
	return places
}

// CheckoutRoot returns the root of the nagc repository checkout that holds the working
// directory: the nearest folder at or above it whose go.mod declares ModulePath. ok is
// false outside such a checkout (another Go project's go.mod does not count). Cost: one
// stat and at most one small read per parent folder.
func CheckoutRoot() (root string, ok bool) {
	d, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if declaresModule(filepath.Join(d, "go.mod"), ModulePath) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// declaresModule reports whether the go.mod file at path declares module mod.
func declaresModule(path, mod string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`) == mod
		}
	}
	return false
}

// ErrNotFound is returned (wrapped) by Locate when no folder holds the dataset.
var ErrNotFound = errors.New("dataset not found")

// Locate returns the folder or file of the dataset called name. A name that exists as
// written (relative to the working directory) is that path; a path that does not is an
// error. A bare name (no path separator) that is not here is looked up in each place of
// SearchPath in turn. An error wraps ErrNotFound and lists every place looked at and how
// to get the paper's datasets.
func Locate(name string) (path string, err error) {
	if name == "" {
		return "", fmt.Errorf("empty dataset name (known: %s)", knownNames())
	}
	if exists(name) {
		return name, nil
	}
	if filepath.IsAbs(name) || strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("%w: no file or folder %s", ErrNotFound, name)
	}
	places := SearchPath()
	var tried []string
	for _, p := range places {
		d := filepath.Join(p.Dir, name)
		if exists(d) {
			return d, nil
		}
		tried = append(tried, fmt.Sprintf("  %s (%s)", d, p.Why))
	}
	tried = append(tried, fmt.Sprintf("  %s (the working folder)", name))
	how := fmt.Sprintf("the paper's datasets (%s) are downloaded by `nagc datasets fetch all`", strings.Join(PaperNames(), ", "))
	if slices.Contains(PaperNames(), name) {
		how = fmt.Sprintf("download it with `nagc datasets fetch %s`", name)
	}
	return "", fmt.Errorf("%w: no dataset %q; looked in:\n%s\n%s, or set %s (or pass --data DIR) to a folder holding it; 'synthetic' is built in",
		ErrNotFound, name, strings.Join(tried, "\n"), how, DataVar)
}

// exists reports whether path names an existing file or folder.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Load returns the dataset called name, in any format Open reads: "synthetic" gives
// Synthetic(DefaultSynthetic()), "synthetic:SHAPE[,key=value…]" gives SyntheticShape
// (see ParseShape; e.g. "synthetic:arxiv"), anything else is found by Locate and read by Open with
// the format inferred and the labels at the format's default.
func Load(name string) (*Graph, error) {
	g, _, err := LoadSpec(Spec{Path: name})
	return g, err
}

// LoadSpec is Load for a dataset described by spec: spec.Path is a name or path as Load
// takes it (found by Locate), the other fields as Open reads them. It returns Open's report
// (nil for the built-in synthetic graphs).
func LoadSpec(spec Spec) (*Graph, *LoadReport, error) {
	if spec.Path == "synthetic" {
		g, err := Synthetic(DefaultSynthetic())
		if err == nil && spec.Name != "" {
			g.Name = spec.Name
		}
		return g, nil, err
	}
	if IsShapeName(spec.Path) {
		sh, err := ParseShape(spec.Path)
		if err != nil {
			return nil, nil, err
		}
		g, err := SyntheticShape(sh)
		if err != nil {
			return nil, nil, err
		}
		g.Name = spec.Path
		if spec.Name != "" {
			g.Name = spec.Name
		}
		return g, nil, nil
	}
	path, err := Locate(spec.Path)
	if err != nil {
		return nil, nil, err
	}
	spec.Path = path
	return Open(spec)
}

// paperFingerprints maps the Fingerprint of each of the paper's graphs, as the loader
// reads the published files, to its name.
var paperFingerprints = map[string]string{
	"3869ddae71343d3262cabcbe82e2d2a99d8ec2f060dd8f977228eb5095b99e39": "webkb",
	"af4fffabd61cfd47bc23ae3e1d3f7406c2f2b0bfabb824fed127c07bacdc6ac7": "citeseer",
	"06b0746f743f8f7cb1f97d01e465a7130859dc745015bc69b857f3830a2f90fa": "cora",
	"e837acbc659bd8b181126b5d674c10a083fae123236bff7d525a3bac9ed95026": "polblog",
}

// syntheticFingerprint is the Fingerprint of Synthetic(DefaultSynthetic()).
const syntheticFingerprint = "f29d70ebdf5687542b4745c5fe1b9a922df1eb9c5ca61cb96d6f2ea2aeaa6b7a"

// Identity returns the identity experiments derive run ids and seeds from, for the graph
// g that a config names given (empty when it gives no name): the paper's graphs and the
// built-in synthetic graph are recognised by their content, wherever and however they
// are read, and keep their names (so "cora" and ../shared/datasets/cora are the same
// runs, with the seeds of every earlier sweep); any other graph is its content,
// "sha256:" + Fingerprint, behind the given name where there is one ("name@sha256:…").
// So a graph moved, renamed or converted to another format keeps its identity, and a
// changed graph gets a new one. Cost: one Fingerprint.
func Identity(g *Graph, given string) string {
	fp := g.Fingerprint()
	if name, ok := paperFingerprints[fp]; ok {
		return name
	}
	if fp == syntheticFingerprint {
		return "synthetic"
	}
	if given != "" {
		return given + "@sha256:" + fp
	}
	return "sha256:" + fp
}

// DatasetsIn returns the names of the datasets the folder dir holds, as a folder named by
// $NAGC_DATA or --data holds them: its subfolders that hold a graph (IsDataRoot false),
// the paper's four first in their order, then the others sorted. Cost: one listing of
// dir and a few globs per subfolder.
func DatasetsIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var paper, others []string
	for _, e := range entries {
		if !e.IsDir() || IsDataRoot(filepath.Join(dir, e.Name())) {
			continue
		}
		if slices.Contains(PaperNames(), e.Name()) {
			paper = append(paper, e.Name())
		} else {
			others = append(others, e.Name())
		}
	}
	slices.SortFunc(paper, func(a, b string) int {
		return slices.Index(PaperNames(), a) - slices.Index(PaperNames(), b)
	})
	return append(paper, others...)
}
