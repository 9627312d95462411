package experiments

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nagc-harness/nagc/results"
)

// WriteSearchStatus writes a line per search of cfg recorded in dir or in its n shard
// folders (trials done, cut, running; best so far), a line per search not started, and
// the commands that finish the searches not complete: for a sharded sweep, those of the
// shards that run them (a search goes whole to one shard). config is the config as the
// user named it, for the commands. It reads every runs file twice and loads cfg's
// datasets when cfg has a search.
func WriteSearchStatus(w io.Writer, cfg *Config, config, dir string, n int) error {
	dirs := []string{dir}
	for i := 1; i <= n; i++ {
		dirs = append(dirs, results.ShardDir(dir, i, n))
	}
	recs, err := readRecordsIn(dirs)
	if err != nil {
		return err
	}
	for _, s := range SearchStatusOf(cfg, recs) {
		if err := s.WriteText(w); err != nil {
			return err
		}
	}
	gaps, err := SearchGaps(cfg, dirs, n)
	if err != nil {
		return err
	}
	for _, g := range gaps {
		if g.Status.Proposed == 0 {
			fmt.Fprintf(w, "search %s on %s: not started\n", g.Status.Row, g.Status.Dataset)
		}
	}
	if len(gaps) == 0 {
		return nil
	}
	if n == 0 {
		_, err = fmt.Fprintf(w, "  nagc run %s --results %s   # finishes the searches (resumes where they stopped)\n", config, dir)
		return err
	}
	done := map[int]bool{}
	for _, g := range gaps {
		if !done[g.Shard] {
			done[g.Shard] = true
			if _, err := fmt.Fprintf(w, "  nagc run %s --shard %d/%d --results %s   # finishes search %s on %s (resumes where it stopped)\n",
				config, g.Shard, n, results.ShardDir(dir, g.Shard, n), g.Status.Row, g.Status.Dataset); err != nil {
				return err
			}
		}
	}
	return nil
}

// readRecordsIn returns the records of the runs files of dirs, folder after folder; a
// folder without one holds none.
func readRecordsIn(dirs []string) ([]results.Record, error) {
	var recs []results.Record
	for _, d := range dirs {
		r, _, err := results.ReadRecords(filepath.Join(d, results.RunsFile))
		if err != nil {
			return nil, err
		}
		recs = append(recs, r...)
	}
	return recs, nil
}
