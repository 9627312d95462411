package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// corpusDir is the bad-input corpus, relative to this package.
const corpusDir = "../../testdata"

// corpusCase is one row of testdata/README.md.
type corpusCase struct {
	name     string // "linqs/ragged-row", "configs/empty", "cluster/k1-gt-n", "generated/huge-line"
	input    string // the first code span of the input column ("" for generated cases)
	accepted bool
	spec     string // the first code span of the expected column
	line     int    // line of README.md, for messages
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

// readCorpus parses the tables of testdata/README.md.
func readCorpus(t *testing.T) []corpusCase {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpusDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	seen := map[string]bool{}
	for i, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 || cells[0] == "case" {
			continue
		}
		c := corpusCase{name: cells[0], line: i + 1}
		if m := codeSpan.FindStringSubmatch(cells[1]); m != nil {
			c.input = m[1]
		}
		switch cells[2] {
		case "accepted":
			c.accepted = true
		case "rejected":
		default:
			t.Fatalf("README.md:%d: outcome %q, want accepted or rejected", c.line, cells[2])
		}
		m := codeSpan.FindStringSubmatch(cells[3])
		if m == nil {
			t.Fatalf("README.md:%d: no `expectation` in %q", c.line, cells[3])
		}
		c.spec = m[1]
		if seen[c.name] {
			t.Fatalf("README.md:%d: case %s listed twice", c.line, c.name)
		}
		seen[c.name] = true
		cases = append(cases, c)
	}
	return cases
}

// rejection is a parsed `FILE:LINE: FAULT` or `FILE: FAULT`.
type rejection struct {
	file  string
	line  int
	fault string
}

func parseRejection(t *testing.T, c corpusCase) rejection {
	t.Helper()
	loc, fault, ok := strings.Cut(c.spec, ": ")
	if !ok {
		t.Fatalf("README.md:%d: rejection %q is not FILE[:LINE]: FAULT", c.line, c.spec)
	}
	r := rejection{file: loc, fault: fault}
	if i := strings.LastIndexByte(loc, ':'); i >= 0 {
		n, err := strconv.Atoi(loc[i+1:])
		if err != nil {
			t.Fatalf("README.md:%d: bad line in %q", c.line, c.spec)
		}
		r.file, r.line = loc[:i], n
	}
	return r
}

// prefix is how an error about path starts: "path:line: " or "path: ".
func (r rejection) prefix(path string) string {
	if r.line > 0 {
		return fmt.Sprintf("%s:%d: ", path, r.line)
	}
	return path + ": "
}

// keyValues parses "n=6 edges=7 …".
func keyValues(t *testing.T, c corpusCase) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, f := range strings.Fields(c.spec) {
		k, v, ok := strings.Cut(f, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil {
			t.Fatalf("README.md:%d: %q is not key=integer", c.line, f)
		}
		out[k] = n
	}
	return out
}

// cli runs the nagc command line in-process and returns its exit code, stdout and
// stderr. A panic fails the test: none may ever reach a user.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("nagc %s panicked: %v\n%s", strings.Join(args, " "), p, debug.Stack())
			}
		}()
		code = run(context.Background(), args, &out, &errw)
	}()
	return code, out.String(), errw.String()
}

// TestCorpus walks every case of testdata/README.md, through the packages' APIs and
// through the command line.
func TestCorpus(t *testing.T) {
	cases := readCorpus(t)
	if len(cases) < 30 {
		t.Fatalf("corpus has %d cases, want at least 30", len(cases))
	}
	// Every input on disk has a row, and every row's input exists.
	listed := map[string]bool{}
	for _, c := range cases {
		listed[c.name] = true
	}
	dirs, _ := filepath.Glob(filepath.Join(corpusDir, "linqs", "*"))
	files, _ := filepath.Glob(filepath.Join(corpusDir, "configs", "*"))
	for _, p := range append(dirs, files...) {
		rel, _ := filepath.Rel(corpusDir, p)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".yaml")
		if !listed[name] {
			t.Errorf("%s has no row in testdata/README.md", rel)
		}
	}
	for _, c := range cases {
		kind, _, _ := strings.Cut(c.name, "/")
		t.Run(c.name, func(t *testing.T) {
			switch kind {
			case "linqs":
				if c.input != strings.TrimSuffix(c.name, "/")+"/" {
					t.Fatalf("README.md:%d: input %q, want %s/", c.line, c.input, c.name)
				}
				dir, err := filepath.Abs(filepath.Join(corpusDir, c.input))
				if err != nil {
					t.Fatal(err)
				}
				if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
					t.Fatalf("README.md:%d: %s is not a folder", c.line, dir)
				}
				checkLINQSCase(t, c, dir)
			case "generated":
				checkLINQSCase(t, c, generateCase(t, c.name))
			case "configs":
				if c.input != c.name+".yaml" {
					t.Fatalf("README.md:%d: input %q, want %s.yaml", c.line, c.input, c.name)
				}
				path, err := filepath.Abs(filepath.Join(corpusDir, c.input))
				if err != nil {
					t.Fatal(err)
				}
				checkConfigCase(t, c, path)
			case "cluster":
				checkClusterCase(t, c)
			default:
				t.Fatalf("README.md:%d: unknown kind of case %q", c.line, c.name)
			}
		})
	}
}

// generateCase writes the generated/ cases: a folder whose first vertex line is 5 MB.
func generateCase(t *testing.T, name string) string {
	const m = 1_000_000
	dir := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	row := func(id string, cols int) {
		b.WriteString(id)
		for j := 0; j < cols; j++ {
			if j%3 == 0 {
				b.WriteString(" 0.25")
			} else {
				b.WriteString(" 0   ")
			}
		}
		b.WriteString(" label\n")
	}
	row("v1", m)
	switch name {
	case "generated/huge-line":
		row("v2", m)
	case "generated/huge-line-ragged":
		row("v2", m-1)
	default:
		t.Fatalf("unknown generated case %s", name)
	}
	if b.Len() < 9_000_000 {
		t.Fatalf("generated only %d bytes", b.Len())
	}
	if err := os.WriteFile(filepath.Join(dir, "x.content"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.cites"), []byte("v1 v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func checkLINQSCase(t *testing.T, c corpusCase, dir string) {
	g, err := datasets.LoadLINQS(dir)
	code, stdout, stderr := cli(t, "datasets", "stats", "--json", dir)
	if c.accepted {
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		want := keyValues(t, c)
		s := g.Stats()
		got := map[string]int{"n": s.N, "edges": s.Edges, "m": s.M, "k1": s.K,
			"dangling": s.Dangling, "self_loops": s.SelfLoops}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s = %d, want %d", k, got[k], v)
			}
		}
		if len(want) != len(got) {
			t.Errorf("README.md:%d: expectation %q must give all of %v", c.line, c.spec, got)
		}
		for i, l := range g.Labels {
			if l < 0 || l >= g.K() {
				t.Errorf("vertex %d: label %d of %d classes", i, l, g.K())
			}
		}
		if code != 0 {
			t.Fatalf("nagc datasets stats: exit %d: %s", code, stderr)
		}
		var js datasets.Stats
		if err := json.Unmarshal([]byte(stdout), &js); err != nil || js.N != s.N || js.Edges != s.Edges || js.M != s.M {
			t.Errorf("nagc datasets stats printed %q (%v), want the statistics %+v", stdout, err, s)
		}
		return
	}
	r := parseRejection(t, c)
	if err == nil {
		t.Fatalf("accepted (%+v), want %s", g.Stats(), c.spec)
	}
	var pe *datasets.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *datasets.ParseError", err, err)
	}
	path := filepath.Join(dir, r.file)
	if r.file == "." {
		path = dir
	}
	if pe.File != path || pe.Line != r.line {
		t.Errorf("error at %s:%d, want %s:%d", pe.File, pe.Line, path, r.line)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, r.prefix(path)) || !strings.Contains(msg, r.fault) {
		t.Errorf("error %q, want %q…%q", msg, r.prefix(path), r.fault)
	}
	if code != 1 || !strings.Contains(stderr, r.prefix(path)) || !strings.Contains(stderr, r.fault) {
		t.Errorf("nagc datasets stats: exit %d, stderr %q; want exit 1 and %q…%q", code, stderr, r.prefix(path), r.fault)
	}
}

func checkConfigCase(t *testing.T, c corpusCase, path string) {
	cfg, err := experiments.LoadConfig(path)
	resDir := t.TempDir()
	if c.accepted {
		if err != nil {
			t.Fatalf("rejected: %v", err)
		}
		want := keyValues(t, c)["runs"]
		k1 := map[string]int{}
		for _, d := range cfg.DatasetNames() {
			k1[d] = 4
		}
		runs, err := cfg.Expand(k1)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != want {
			t.Errorf("%d runs, want %d", len(runs), want)
		}
		for _, r := range runs {
			if _, err := algorithms.New(r.Algorithm, r.Params); err != nil {
				t.Errorf("run %s: %v", r.ID, err)
			}
		}
		code, _, stderr := cli(t, "run", path, "--results", resDir, "--workers", "1", "--limit", "1")
		if code != 0 {
			t.Fatalf("nagc run: exit %d: %s", code, stderr)
		}
		recs, err := results.Load(resDir)
		if err != nil || len(recs) != 1 || recs[0].Status != results.StatusDone {
			t.Fatalf("nagc run --limit 1 recorded %+v, %v", recs, err)
		}
		return
	}
	r := parseRejection(t, c)
	if err == nil {
		t.Fatalf("accepted, want %s", c.spec)
	}
	var ce *experiments.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *experiments.ConfigError", err, err)
	}
	if filepath.Base(path) != r.file {
		t.Fatalf("README.md:%d: rejection names %s, want %s", c.line, r.file, filepath.Base(path))
	}
	if ce.File != path || ce.Line != r.line {
		t.Errorf("error at %s:%d, want %s:%d (%v)", ce.File, ce.Line, path, r.line, err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, r.prefix(path)) || !strings.Contains(msg, r.fault) {
		t.Errorf("error %q, want %q…%q", msg, r.prefix(path), r.fault)
	}
	code, _, stderr := cli(t, "run", path, "--results", resDir)
	if code != 1 || !strings.Contains(stderr, r.prefix(path)) || !strings.Contains(stderr, r.fault) {
		t.Errorf("nagc run: exit %d, stderr %q; want exit 1 and %q…%q", code, stderr, r.prefix(path), r.fault)
	}
	if _, err := os.Stat(filepath.Join(resDir, results.RunsFile)); err == nil {
		t.Errorf("a rejected config recorded runs")
	}
}

func checkClusterCase(t *testing.T, c corpusCase) {
	args := []string{"cluster"}
	for _, a := range strings.Fields(c.input) {
		if strings.HasPrefix(a, "linqs/") {
			a = filepath.Join(corpusDir, a)
		}
		args = append(args, a)
	}
	if slices.Contains(args, "metis") {
		requireGPMetis(t)
	}
	labelsOut := filepath.Join(t.TempDir(), "labels.tsv")
	args = append(args, "--json", "--labels-out", labelsOut)
	code, stdout, stderr := cli(t, args...)
	if !c.accepted {
		if code != 1 || !strings.Contains(stderr, c.spec) {
			t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, stderr, c.spec)
		}
		if strings.Contains(stderr, "goroutine") {
			t.Errorf("stderr shows a stack trace: %s", stderr)
		}
		return
	}
	if c.spec != "exit 0" {
		t.Fatalf("README.md:%d: accepted cluster/ rows expect `exit 0`", c.line)
	}
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		K1      int                `json:"k1"`
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("output %q: %v", stdout, err)
	}
	keys := make([]string, 0, len(out.Metrics))
	for k, v := range out.Metrics {
		keys = append(keys, k)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("metric %s = %v", k, v)
		}
	}
	sort.Strings(keys)
	want := 7 // a graph without attributes has no entropy or attribute modularity
	if strings.Contains(c.input, "zero-attributes") {
		want = 5
	}
	if len(keys) != want {
		t.Errorf("metrics %v, want %d", keys, want)
	}
	raw, err := os.ReadFile(labelsOut)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		_, l, _ := strings.Cut(line, "\t")
		if v, err := strconv.Atoi(l); err != nil || v < 0 || v >= out.K1 {
			t.Errorf("labels line %d: %q is not a cluster of %d", i+1, line, out.K1)
		}
	}
}
