package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// Merge joins the results folders srcs (shards of one sweep, or resumed pieces) into dst:
// the latest record of every run, and every sweep's provenance. The same run recorded as
// done in two places must agree on its metrics and parameters, else Merge refuses with an
// error naming the run; a done record wins over a failed one. dst's own records, if any,
// take part. dst is held under its rewrite lock and every source under its read lock
// (see LockRewrite): a merge never replaces a folder that a sweep appends to and never
// reads one being rewritten; a source that a sweep still appends to is read up to its
// last whole record. It returns the number of runs written. Merge does not check that
// the runs form a whole sweep: experiments.StatusOf does.
func Merge(dst string, srcs []string) (int, error) {
	all := append([]string{dst}, srcs...)
	var merged []Record
	index := map[string]int{}
	from := map[string]string{}
	var prov []Provenance
	for _, dir := range srcs {
		if _, err := os.Stat(filepath.Join(dir, RunsFile)); err != nil {
			return 0, fmt.Errorf("merge: %s has no %s: %w", dir, RunsFile, err)
		}
	}
	lock, err := LockRewrite(dst)
	if err != nil {
		return 0, err
	}
	defer lock.Unlock()
	for _, dir := range srcs {
		if sameDir(dir, dst) {
			continue // locked already
		}
		l, err := LockRead(dir)
		if err != nil {
			return 0, err
		}
		defer l.Unlock()
	}
	for _, dir := range all {
		recs, torn, err := ReadRecords(filepath.Join(dir, RunsFile))
		if err != nil {
			return 0, err
		}
		if torn {
			fmt.Fprintf(os.Stderr, "merge: %s: discarding a torn last line\n", filepath.Join(dir, RunsFile))
		}
		for _, r := range Latest(recs) {
			i, seen := index[r.RunID]
			if !seen {
				index[r.RunID] = len(merged)
				merged = append(merged, r)
				from[r.RunID] = dir
				continue
			}
			cur := merged[i]
			switch {
			case cur.Status == StatusDone && r.Status == StatusDone:
				if !reflect.DeepEqual(cur.Metrics, r.Metrics) || gridPoint(cur.Params) != gridPoint(r.Params) {
					return 0, fmt.Errorf("run %s (%s, %s %s, restart %d) has conflicting results in %s and %s",
						r.RunID, r.Dataset, r.Algorithm, r.GridPoint(), r.Restart, from[r.RunID], dir)
				}
			case r.Status == StatusDone:
				merged[i], from[r.RunID] = r, dir
			}
		}
		p, err := ReadProvenance(dir)
		if err != nil {
			return 0, err
		}
		prov = append(prov, p...)
	}
	if err := writeLines(filepath.Join(dst, RunsFile), merged); err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	var uniq []Provenance
	for _, p := range prov {
		if !seen[p.Sweep] {
			seen[p.Sweep] = true
			uniq = append(uniq, p)
		}
	}
	if err := writeLines(filepath.Join(dst, SweepsFile), uniq); err != nil {
		return 0, err
	}
	if err := mergeSearchSettings(dst, srcs); err != nil {
		return 0, err
	}
	return len(merged), nil
}

// mergeSearchSettings copies the settings each search recorded at its first run
// (SearchDir/*.json) from srcs into dst, so that a later run into dst with other search
// settings is refused there as in the shard that ran the search. The same search's
// settings found with two contents are an error naming both files.
func mergeSearchSettings(dst string, srcs []string) error {
	for _, dir := range srcs {
		if sameDir(dir, dst) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(dir, SearchDir, "*.json"))
		if err != nil {
			return err
		}
		for _, src := range files {
			b, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			to := filepath.Join(dst, SearchDir, filepath.Base(src))
			switch have, err := os.ReadFile(to); {
			case err == nil && !bytes.Equal(have, b):
				return fmt.Errorf("merge: %s and %s record the same search with other settings", src, to)
			case err == nil:
				continue
			case !errors.Is(err, os.ErrNotExist):
				return err
			}
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			if err := WriteAtomic(to, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// RewriteRecords replaces the runs file path atomically by recs, one JSON line each.
func RewriteRecords(path string, recs []Record) error { return writeLines(path, recs) }

// writeLines replaces path atomically by one JSON line per element of items.
func writeLines[T any](path string, items []T) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	for i := range items {
		if err := AppendLine(f, &items[i]); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// sameDir reports whether the paths a and b name one folder.
func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// WriteAtomic writes data to path through a temporary file renamed into place, so that
// a kill leaves the old file or the new one whole.
func WriteAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
