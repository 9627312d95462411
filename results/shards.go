package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ShardDir returns the folder that shard i of n (1-based, as `--shard I/N` numbers them)
// of a sweep into the results folder dir records into: dir/shards/I-of-N.
func ShardDir(dir string, i, n int) string {
	return filepath.Join(dir, ShardsDir, fmt.Sprintf("%d-of-%d", i, n))
}

var shardDirName = regexp.MustCompile(`^([0-9]+)-of-([0-9]+)$`)

// ShardCounts lists the shard counts N of the shard folders (ShardDir) found under dir,
// in increasing order.
func ShardCounts(dir string) ([]int, error) {
	ents, err := os.ReadDir(filepath.Join(dir, ShardsDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	var out []int
	for _, e := range ents {
		m := shardDirName.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if i, _ := strconv.Atoi(m[1]); i >= 1 && i <= n && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out, nil
}

// Holder returns the process holding the write lock of the results folder dir, or nil
// when none does. It creates nothing.
func Holder(dir string) *LockHolder {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	ok, err := tryLock(f, true) // held for an instant: writers retry for a moment (lockGrace)
	if err != nil {
		return nil
	}
	if ok {
		unlock(f)
		return nil
	}
	if h := readHolder(dir); h != nil {
		return h
	}
	return &LockHolder{}
}

// ShardCount returns the shard count of the sweep into the results folder dir: the one
// count of the shard folders under dir (ShardCounts), 0 when there are none, and an
// error when sweeps split different ways left shards there.
func ShardCount(dir string) (int, error) {
	counts, err := ShardCounts(dir)
	if err != nil {
		return 0, err
	}
	switch len(counts) {
	case 0:
		return 0, nil
	case 1:
		return counts[0], nil
	}
	return 0, fmt.Errorf("%s holds shards of sweeps split %s ways: say which with --tasks N",
		filepath.Join(dir, ShardsDir), strings.Trim(strings.Join(strings.Fields(fmt.Sprint(counts)), ", "), "[]"))
}
