package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardDefaultFolder checks that a shard run without --results records into its own
// folder, results/<config name>/shards/I-of-N, where status and merge look for it.
func TestShardDefaultFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("km.yaml", []byte("name: km\ndatasets: [synthetic]\nrestarts: 2\nmethods:\n  - name: KM\n    algorithm: kmeans\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := nagcIn("run", "km.yaml", "--shard", "2/2"); code != exitOK || !strings.Contains(out, filepath.Join("results", "km", "shards", "2-of-2")) {
		t.Fatalf("run --shard 2/2: exit %d, %q, %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join("results", "km", "shards", "2-of-2", "runs.jsonl")); err != nil {
		t.Error(err)
	}
}
