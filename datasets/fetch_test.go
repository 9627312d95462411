package datasets

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// loopbackOnly is a transport that refuses every host but the loopback test server, so
// that no test of Fetch can reach the network.
type loopbackOnly struct {
	t    *testing.T
	next http.RoundTripper
}

func (l loopbackOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	host, _, _ := net.SplitHostPort(r.URL.Host)
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		l.t.Errorf("request to %s: tests may only reach the loopback server", r.URL)
		return nil, errors.New("not loopback")
	}
	return l.next.RoundTrip(r)
}

// fakeSources is a loopback HTTP server standing in for LINQS and the NAGC repository:
// it serves files by URL path and counts requests.
type fakeSources struct {
	t   *testing.T
	srv *httptest.Server
	mu  sync.Mutex
	// handlers maps a URL path to what serves it; the int is the request's number for
	// that path, from 1.
	handlers map[string]func(w http.ResponseWriter, r *http.Request, n int)
	count    map[string]int
}

func newFakeSources(t *testing.T) *fakeSources {
	f := &fakeSources{t: t, handlers: map[string]func(http.ResponseWriter, *http.Request, int){}, count: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.count[r.URL.Path]++
		n := f.count[r.URL.Path]
		h := f.handlers[r.URL.Path]
		f.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r, n)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// serve makes path answer with body every time.
func (f *fakeSources) serve(path string, body []byte) {
	f.handlers[path] = func(w http.ResponseWriter, r *http.Request, n int) { w.Write(body) }
}

func (f *fakeSources) requests(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count[path]
}

// options returns fetch options aimed at the fake server, into a fresh folder.
func (f *fakeSources) options(dir string) FetchOptions {
	client := f.srv.Client()
	client.Transport = loopbackOnly{f.t, client.Transport}
	return FetchOptions{Dir: dir, BaseURL: f.srv.URL, Client: client, Backoff: time.Millisecond, Log: testLog{f.t}}
}

// testLog writes Fetch's progress lines to the test log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// urlPath returns the path part of a source URL.
func urlPath(t *testing.T, u string) string {
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Path
}

func sourceNamed(t *testing.T, name string) FetchSource {
	for _, s := range FetchSources() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no source %s", name)
	return FetchSource{}
}

// tarEntry is one entry of a test archive.
type tarEntry struct {
	name     string
	typ      byte
	body     []byte
	linkname string
}

// tgz returns a gzip-compressed tar archive of entries.
func tgz(t *testing.T, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Linkname: e.linkname, ModTime: time.Unix(0, 0)}
		if typ == tar.TypeReg {
			hdr.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// paperFiles reads the files of the harness's copy of a paper dataset.
func paperFiles(t *testing.T, name string) map[string][]byte {
	t.Helper()
	dir := paperDir(t, name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// paperTgz returns an archive laid out as LINQS lays out name.tgz (name/name.content,
// name/name.cites, a README), from the harness's copy, with content changed by edit.
func paperTgz(t *testing.T, name string, edit func(content []byte) []byte) []byte {
	files := paperFiles(t, name)
	content := files[name+".content"]
	if edit != nil {
		content = edit(content)
	}
	return tgz(t,
		tarEntry{name: name + "/", typ: tar.TypeDir},
		tarEntry{name: name + "/README", body: []byte("The " + name + " dataset.\n")},
		tarEntry{name: name + "/" + name + ".content", body: content},
		tarEntry{name: name + "/" + name + ".cites", body: files[name+".cites"]},
	)
}

// serveFiles serves the harness's copy of a dataset published file by file.
func (f *fakeSources) serveFiles(t *testing.T, name string) {
	files := paperFiles(t, name)
	for _, sf := range sourceNamed(t, name).Files {
		f.serve(urlPath(t, sf.URL), files[sf.Name])
	}
}

// listTree returns every path under dir, relative, sorted.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if rel, _ := filepath.Rel(dir, p); rel != "." {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestFetchSourcesTable(t *testing.T) {
	srcs := FetchSources()
	if len(srcs) != 4 {
		t.Fatalf("%d sources", len(srcs))
	}
	for i, s := range srcs {
		if s.Name != PaperNames()[i] {
			t.Errorf("source %d is %s, want %s", i, s.Name, PaperNames()[i])
		}
		if (s.Archive == "") == (len(s.Files) == 0) {
			t.Errorf("%s: want an archive or files, not both", s.Name)
		}
		for _, f := range s.Files {
			if len(f.SHA256) != 64 || !strings.HasPrefix(f.URL, "https://raw.githubusercontent.com/seijimaekawa/NAGC/master/NAGC/data/") {
				t.Errorf("%s: file %+v", s.Name, f)
			}
		}
		if s.Archive != "" && s.Archive != "https://linqs-data.soe.ucsc.edu/public/lbc/"+s.Name+".tgz" {
			t.Errorf("%s: archive %s", s.Name, s.Archive)
		}
	}
	// The pinned checksums are those of the harness's copies, and the paper's statistics
	// are what the loader reads from them.
	for _, s := range srcs {
		t.Run(s.Name, func(t *testing.T) {
			dir := paperDir(t, s.Name)
			g, err := LoadLINQS(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Paper.check(g); err != nil {
				t.Errorf("the harness's copy differs from the table: %v", err)
			}
			for _, f := range s.Files {
				b, err := os.ReadFile(filepath.Join(dir, f.Name))
				if err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != f.SHA256 {
					t.Errorf("%s: SHA-256 %s, table says %s", f.Name, got, f.SHA256)
				}
			}
		})
	}
}

func TestSourceURL(t *testing.T) {
	for _, c := range []struct{ u, base, want string }{
		{linqsBase + "cora.tgz", "", linqsBase + "cora.tgz"},
		{linqsBase + "cora.tgz", "http://127.0.0.1:9", "http://127.0.0.1:9/public/lbc/cora.tgz"},
		{nagcBase + "polblog/polblog.cites", "http://[::1]:8/mirror/", "http://[::1]:8/mirror/seijimaekawa/NAGC/master/NAGC/data/polblog/polblog.cites"},
	} {
		if got := sourceURL(c.u, c.base); got != c.want {
			t.Errorf("sourceURL(%q, %q) = %q, want %q", c.u, c.base, got, c.want)
		}
	}
}

// TestFetchAllFour fetches the four datasets from the fake sources, serving the
// harness's copies: each lands verified, byte-identical where pinned; a second fetch
// downloads nothing.
func TestFetchAllFour(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses and loads all four datasets")
	}
	f := newFakeSources(t)
	f.serveFiles(t, "webkb")
	f.serveFiles(t, "polblog")
	for _, name := range []string{"cora", "citeseer"} {
		f.serve(urlPath(t, sourceNamed(t, name).Archive), paperTgz(t, name, nil))
	}
	root := filepath.Join(t.TempDir(), "data")
	opt := f.options(root)
	for _, name := range PaperNames() {
		res, err := Fetch(context.Background(), name, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := sourceNamed(t, name).Paper
		if res.Present || res.Dir != filepath.Join(root, name) || res.Stats.N != want.N || res.Stats.Edges != want.Edges {
			t.Errorf("%s: %+v", name, res)
		}
		for fname, b := range paperFiles(t, name) {
			got, err := os.ReadFile(filepath.Join(root, name, fname))
			if err != nil || !bytes.Equal(got, b) {
				t.Errorf("%s/%s differs from the served file (%v)", name, fname, err)
			}
		}
	}
	if got := listTree(t, root); len(got) != 4+8+2+2+2 {
		t.Errorf("fetched tree: %q", got)
	}
	// A second fetch finds everything in place.
	before := f.requests(urlPath(t, sourceNamed(t, "cora").Archive))
	res, err := Fetch(context.Background(), "cora", opt)
	if err != nil || !res.Present {
		t.Fatalf("second fetch: %+v, %v", res, err)
	}
	if f.requests(urlPath(t, sourceNamed(t, "cora").Archive)) != before {
		t.Error("second fetch downloaded again")
	}
}

// TestFetchRetries checks that a truncated download, a dropped connection and a server
// error are retried, and the dataset then fetched whole.
func TestFetchRetries(t *testing.T) {
	f := newFakeSources(t)
	archive := paperTgz(t, "cora", nil)
	p := urlPath(t, sourceNamed(t, "cora").Archive)
	f.handlers[p] = func(w http.ResponseWriter, r *http.Request, n int) {
		switch n {
		case 1: // announce the whole size, send half, hang up
			w.Header().Set("Content-Length", fmt.Sprint(len(archive)))
			w.Write(archive[:len(archive)/2])
		case 2:
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		default:
			w.Write(archive)
		}
	}
	root := t.TempDir()
	res, err := Fetch(context.Background(), "cora", f.options(root))
	if err != nil {
		t.Fatal(err)
	}
	if f.requests(p) != 3 || res.Stats.N != 2708 {
		t.Errorf("%d requests, %+v", f.requests(p), res.Stats)
	}
	if got := listTree(t, root); len(got) != 3 {
		t.Errorf("tree after the fetch: %q", got)
	}
}

// TestFetchRefusesCorruptDownloads checks pinned checksums and the statistics check: a
// corrupt file is retried and then refused, a graph that is not the paper's is deleted,
// and nothing is left behind.
func TestFetchRefusesCorruptDownloads(t *testing.T) {
	cases := []struct {
		name    string
		dataset string
		setup   func(t *testing.T, f *fakeSources)
		want    []string
		tries   int // requests of the broken path
	}{
		{
			name: "corrupt pinned file", dataset: "webkb",
			setup: func(t *testing.T, f *fakeSources) {
				f.serveFiles(t, "webkb")
				b := paperFiles(t, "webkb")["texas.content"]
				b = append([]byte(nil), b...)
				b[100] ^= 1
				f.serve(urlPath(t, nagcBase+"WebKB_univ/texas.content"), b)
			},
			want:  []string{"texas.content", "SHA-256", "want ba9ae10d"},
			tries: 3,
		},
		{
			name: "truncated every time", dataset: "polblog",
			setup: func(t *testing.T, f *fakeSources) {
				f.serveFiles(t, "polblog")
				b := paperFiles(t, "polblog")["polblog.cites"]
				f.handlers[urlPath(t, nagcBase+"polblog/polblog.cites")] = func(w http.ResponseWriter, r *http.Request, n int) {
					w.Header().Set("Content-Length", fmt.Sprint(len(b)))
					w.Write(b[:len(b)-10])
				}
			},
			want:  []string{"polblog.cites", "unexpected EOF"},
			tries: 3,
		},
		{
			name: "missing file", dataset: "polblog",
			setup: func(t *testing.T, f *fakeSources) {
				f.serve(urlPath(t, nagcBase+"polblog/polblog.cites"), paperFiles(t, "polblog")["polblog.cites"])
			},
			want:  []string{"polblog.content", "404"},
			tries: 1,
		},
		{
			name: "a vertex short", dataset: "cora",
			setup: func(t *testing.T, f *fakeSources) {
				f.serve(urlPath(t, linqsBase+"cora.tgz"), paperTgz(t, "cora", func(c []byte) []byte {
					return c[:bytes.LastIndexByte(c[:len(c)-1], '\n')+1]
				}))
			},
			want:  []string{"does not match the paper", "n = 2707, want 2708", "deleted"},
			tries: 1,
		},
		{
			name: "another graph", dataset: "citeseer",
			setup: func(t *testing.T, f *fakeSources) {
				f.serve(urlPath(t, linqsBase+"citeseer.tgz"), tgz(t,
					tarEntry{name: "citeseer/citeseer.content", body: []byte("a 1 0 X\nb 0 1 Y\n")},
					tarEntry{name: "citeseer/citeseer.cites", body: []byte("a b\n")}))
			},
			want:  []string{"does not match the paper", "n = 2, want 3312", "edges = 1, want 4660", "m = 2, want 3703", "class sizes [1 1], want [701 668 596 590 508 249]"},
			tries: 1,
		},
		{
			name: "not LINQS", dataset: "cora",
			setup: func(t *testing.T, f *fakeSources) {
				f.serve(urlPath(t, linqsBase+"cora.tgz"), tgz(t,
					tarEntry{name: "cora/cora.content", body: []byte("a 1 0 X\nb 0 Y\n")},
					tarEntry{name: "cora/cora.cites", body: []byte("a b\n")}))
			},
			want:  []string{"not a LINQS dataset", "cora.content:2: ragged attribute row"},
			tries: 1,
		},
		{
			name: "not gzip", dataset: "cora",
			setup: func(t *testing.T, f *fakeSources) {
				f.serve(urlPath(t, linqsBase+"cora.tgz"), []byte("<html>moved</html>"))
			},
			want:  []string{"not a gzip archive"},
			tries: 1,
		},
		{
			name: "truncated archive", dataset: "cora",
			setup: func(t *testing.T, f *fakeSources) {
				a := paperTgz(t, "cora", nil)
				f.serve(urlPath(t, linqsBase+"cora.tgz"), a[:len(a)*2/3])
			},
			want:  []string{"corrupt archive"},
			tries: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeSources(t)
			c.setup(t, f)
			parent := t.TempDir()
			root := filepath.Join(parent, "data")
			_, err := Fetch(context.Background(), c.dataset, f.options(root))
			if err == nil {
				t.Fatal("fetched")
			}
			var fe *FetchError
			if !errors.As(err, &fe) || fe.Name != c.dataset {
				t.Errorf("error %v (%T) is not a FetchError for %s", err, err, c.dataset)
			}
			for _, s := range c.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			broken := 0
			for p := range f.handlers {
				broken = max(broken, f.requests(p))
			}
			for p, n := range f.count {
				if f.handlers[p] == nil {
					broken = max(broken, n)
				}
			}
			if broken != c.tries {
				t.Errorf("the broken file was requested %d times, want %d", broken, c.tries)
			}
			if got := listTree(t, parent); len(got) != 1 || got[0] != "data" {
				t.Errorf("left behind: %q", got)
			}
		})
	}
}

// TestFetchRefusesMaliciousArchives serves archives that try to write outside the
// target folder, links, special files, duplicates and a decompression bomb: each is
// refused whole, nothing is written outside the target, and no dataset folder appears.
func TestFetchRefusesMaliciousArchives(t *testing.T) {
	ok := func(name string) tarEntry {
		return tarEntry{name: "cora/cora." + name, body: []byte("a 1 X\n")}
	}
	cases := []struct {
		name    string
		entries []tarEntry
		want    string
	}{
		{"dot-dot", []tarEntry{ok("content"), {name: "../evil.cites", body: []byte("a a\n")}}, `".." in the path`},
		{"dot-dot inside", []tarEntry{ok("content"), {name: "cora/../../evil.cites", body: []byte("a a\n")}}, `".." in the path`},
		{"dot-dot last", []tarEntry{ok("content"), {name: "cora/..", typ: tar.TypeDir}}, `".." in the path`},
		{"absolute", []tarEntry{{name: "/tmp/evil.content", body: []byte("a 1 X\n")}}, "absolute path"},
		{"backslash", []tarEntry{{name: `..\evil.content`, body: []byte("a 1 X\n")}}, "backslash"},
		{"symlink", []tarEntry{ok("content"), {name: "cora/cora.cites", typ: tar.TypeSymlink, linkname: "/etc/passwd"}}, "is a link"},
		{"symlinked folder", []tarEntry{{name: "cora", typ: tar.TypeSymlink, linkname: "/tmp"}, ok("content")}, "is a link"},
		{"hardlink", []tarEntry{ok("content"), {name: "cora/cora.cites", typ: tar.TypeLink, linkname: "cora/cora.content"}}, "is a link"},
		{"device", []tarEntry{ok("content"), {name: "cora/cora.cites", typ: tar.TypeChar}}, "not a regular file"},
		{"fifo", []tarEntry{{name: "cora/cora.cites", typ: tar.TypeFifo}, ok("content")}, "not a regular file"},
		{"duplicate", []tarEntry{ok("content"), ok("cites"), {name: "other/cora.content", body: []byte("b 1 X\n")}}, "two entries named cora.content"},
		{"bomb", []tarEntry{{name: "cora/cora.content", body: make([]byte, 3<<20)}, ok("cites")}, "expands beyond"},
		{"nothing", []tarEntry{{name: "cora/README", body: []byte("hi\n")}}, "no .content or .cites file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeSources(t)
			f.serve(urlPath(t, linqsBase+"cora.tgz"), tgz(t, c.entries...))
			parent := t.TempDir()
			root := filepath.Join(parent, "data")
			opt := f.options(root)
			opt.MaxBytes = 1 << 20
			_, err := Fetch(context.Background(), "cora", opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if !strings.Contains(err.Error(), "archive") {
				t.Errorf("error %q does not say the archive is at fault", err)
			}
			if got := listTree(t, parent); len(got) != 1 || got[0] != "data" {
				t.Errorf("left behind: %q", got)
			}
			if _, err := os.Lstat("/tmp/evil.content"); err == nil {
				t.Error("/tmp/evil.content was written")
			}
		})
	}
}

// TestFetchExistingAndInterrupted covers a folder that is already there (left alone
// when it is not the dataset), the staging folder of a killed fetch (removed), and a
// fetch cancelled mid-download (nothing left).
func TestFetchExistingAndInterrupted(t *testing.T) {
	f := newFakeSources(t)
	f.serveFiles(t, "polblog")
	root := t.TempDir()
	opt := f.options(root)

	// Not the dataset: refused, untouched.
	other := filepath.Join(root, "polblog")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(other, "mine.content"), []byte("a 1 X\n"), 0o644)
	os.WriteFile(filepath.Join(other, "mine.cites"), []byte("a a\n"), 0o644)
	_, err := Fetch(context.Background(), "polblog", opt)
	if err == nil || !strings.Contains(err.Error(), "already exists") || !strings.Contains(err.Error(), "n = 1, want 1490") {
		t.Errorf("existing folder: error %v", err)
	}
	if got := listTree(t, other); len(got) != 2 {
		t.Errorf("existing folder changed: %q", got)
	}
	if err := os.RemoveAll(other); err != nil {
		t.Fatal(err)
	}

	// A killed fetch left a staging folder with a half file: removed, never used.
	stale := filepath.Join(root, stagingPrefix("polblog")+"123")
	os.MkdirAll(filepath.Join(stale, "polblog"), 0o755)
	os.WriteFile(filepath.Join(stale, "polblog", "polblog.content.part"), []byte("half"), 0o644)
	res, err := Fetch(context.Background(), "polblog", opt)
	if err != nil || res.Stats.N != 1490 {
		t.Fatalf("fetch after a killed one: %+v, %v", res, err)
	}
	if got := listTree(t, root); strings.Join(got, " ") != "polblog polblog/polblog.cites polblog/polblog.content" {
		t.Errorf("tree: %q", got)
	}

	// Cancelled mid-download: the error says so, and nothing is left.
	root2 := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := urlPath(t, linqsBase+"cora.tgz")
	f.handlers[p] = func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Content-Length", "1000000")
		w.Write(make([]byte, 1000))
		w.(http.Flusher).Flush()
		cancel()
		<-r.Context().Done()
	}
	_, err = Fetch(ctx, "cora", f.options(root2))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fetch: error %v", err)
	}
	if got := listTree(t, root2); len(got) != 0 {
		t.Errorf("cancelled fetch left %q", got)
	}
	if f.requests(p) != 1 {
		t.Errorf("a cancelled download was retried: %d requests", f.requests(p))
	}
}

func TestFetchUnknownName(t *testing.T) {
	_, err := Fetch(context.Background(), "pubmed", FetchOptions{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "unknown dataset") || !strings.Contains(err.Error(), "cora") {
		t.Errorf("error %v", err)
	}
}

func TestCheckEntryName(t *testing.T) {
	for name, ok := range map[string]bool{
		"cora/cora.content": true, "cora.cites": true, "./cora/x.cites": true, "a..b/c": true,
		"": false, "/x": false, "../x": false, "a/../../x": false, "a/..": false, `a\b`: false, "a\x00b": false,
	} {
		if err := checkEntryName(name); (err == nil) != ok {
			t.Errorf("checkEntryName(%q) = %v", name, err)
		}
	}
}
