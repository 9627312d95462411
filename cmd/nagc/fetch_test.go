package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/internal/testenv"

	"github.com/nagc-harness/nagc/datasets"
)

// tarGz returns a gzip-compressed tar archive of the given files, in name order.
func tarGz(t *testing.T, files map[string][]byte, order ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range order {
		b := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(b))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// TestDatasetsFetchCommand runs `nagc datasets fetch` in-process against a loopback
// server standing in for LINQS: a graph that is not the paper's is refused and deleted,
// an archive escaping its folder is refused, and (where the harness's copy of cora is at
// hand) the real layout is fetched, after which `nagc datasets stats` reads it.
func TestDatasetsFetchCommand(t *testing.T) {
	archives := map[string][]byte{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := archives[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	defer srv.Close()
	const coraPath = "/public/lbc/cora.tgz"

	if code, _, stderr := cli(t, "datasets", "fetch"); code != 2 || !strings.Contains(stderr, "usage") {
		t.Errorf("no name: exit %d, %q", code, stderr)
	}

	parent := t.TempDir()
	dir := filepath.Join(parent, "data")
	archives[coraPath] = tarGz(t, map[string][]byte{
		"cora/cora.content": []byte("a 1 0 X\nb 0 1 Y\n"), "cora/cora.cites": []byte("a b\n"),
	}, "cora/cora.content", "cora/cora.cites")
	code, _, stderr := cli(t, "datasets", "fetch", "cora", "--dir", dir, "--base-url", srv.URL)
	if code != 1 || !strings.Contains(stderr, "does not match the paper") || !strings.Contains(stderr, "n = 2, want 2708") {
		t.Errorf("wrong graph: exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrong graph left %v", entries)
	}

	archives[coraPath] = tarGz(t, map[string][]byte{"../../escape.content": []byte("a 1 X\n")}, "../../escape.content")
	code, _, stderr = cli(t, "datasets", "fetch", "cora", "--dir", dir, "--base-url", srv.URL)
	if code != 1 || !strings.Contains(stderr, "unsafe archive") {
		t.Errorf("escaping archive: exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("escaping archive wrote into %s: %v", parent, entries)
	}

	code, _, stderr = cli(t, "datasets", "fetch", "pubmed", "--dir", dir, "--base-url", srv.URL)
	if code != 1 || !strings.Contains(stderr, "unknown dataset") {
		t.Errorf("unknown name: exit %d, stderr %q", code, stderr)
	}

	shared, err := datasets.Locate("cora")
	if err != nil {
		testenv.Missing(t, "the cora dataset (a copy to serve)", testenv.FetchHint)
	}
	content, err1 := os.ReadFile(filepath.Join(shared, "cora.content"))
	cites, err2 := os.ReadFile(filepath.Join(shared, "cora.cites"))
	if err1 != nil || err2 != nil {
		t.Fatalf("cora at %s is unreadable: %v, %v", shared, err1, err2)
	}
	archives[coraPath] = tarGz(t, map[string][]byte{
		"cora/README": []byte("cora\n"), "cora/cora.content": content, "cora/cora.cites": cites,
	}, "cora/README", "cora/cora.content", "cora/cora.cites")
	code, stdout, stderr := cli(t, "datasets", "fetch", "cora", "--dir", dir, "--base-url", srv.URL)
	if code != 0 || !strings.Contains(stdout, "cora: fetched") || !strings.Contains(stdout, "n=2708, edges=5278") {
		t.Fatalf("good archive: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "datasets", "fetch", "cora", "--dir", dir, "--base-url", srv.URL)
	if code != 0 || !strings.Contains(stdout, "already present") {
		t.Errorf("second fetch: exit %d, %q", code, stdout)
	}
	code, stdout, stderr = cli(t, "datasets", "stats", "--json", filepath.Join(dir, "cora"))
	if code != 0 || !strings.Contains(stdout, `"n":2708`) {
		t.Errorf("stats of the fetched folder: exit %d, %q %q", code, stdout, stderr)
	}
}
