package results

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestShardCountsIgnoresOthers(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"1-of-2", "2-of-2", "3-of-5", "4-of-3", "notes", "x-of-2"} {
		if err := os.MkdirAll(filepath.Join(dir, ShardsDir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ShardsDir, "1-of-7"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// 4-of-3 is no shard, 1-of-7 is a file: counts 2 and 5.
	if n, err := ShardCounts(dir); err != nil || !reflect.DeepEqual(n, []int{2, 5}) {
		t.Errorf("ShardCounts: %v %v, want [2 5]", n, err)
	}
	if n, err := ShardCounts(t.TempDir()); err != nil || n != nil {
		t.Errorf("no shards: %v %v", n, err)
	}
}

func TestHolder(t *testing.T) {
	dir := t.TempDir()
	if h := Holder(dir); h != nil {
		t.Errorf("a folder never locked: holder %+v", h)
	}
	l, err := LockAppend(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h := Holder(dir); h == nil || h.PID != os.Getpid() {
		t.Errorf("held: holder %+v, want this process", h)
	}
	l.Unlock()
	if h := Holder(dir); h != nil {
		t.Errorf("released: holder %+v", h)
	}
}
