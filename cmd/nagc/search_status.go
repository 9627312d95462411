package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nagc-harness/nagc/experiments"
)

// writeSearchStatus writes a line per search of cfg recorded in dir (trials done, cut,
// running; best so far), and the command that finishes the searches not complete.
func writeSearchStatus(w io.Writer, cfg *experiments.Config, config, dir string) error {
	recs, _, err := experiments.ReadRecords(filepath.Join(dir, experiments.RunsFile))
	if err != nil {
		return err
	}
	complete := true
	for _, s := range experiments.SearchStatusOf(cfg, recs) {
		if err := s.WriteText(w); err != nil {
			return err
		}
		complete = complete && s.Complete()
	}
	if !complete {
		_, err = fmt.Fprintf(w, "  nagc run %s --results %s   # finishes the searches (resumes where they stopped)\n", config, dir)
	}
	return err
}
