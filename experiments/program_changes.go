package experiments

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nagc-harness/nagc/results"
)

// WriteProgramChanges writes to w a note for each command row of cfg whose runs in recs
// were made by another version of a file its command names (a script edited since):
// such runs are recorded, so a sweep keeps them and does not start them again, which a
// user who fixed a script does not expect. It reads each file's SHA-256 once (see
// RowProgram.hashed) and writes nothing when every recorded run matches.
func WriteProgramChanges(w io.Writer, cfg *Config, recs []results.Record) error {
	for _, p := range cfg.Programs() {
		now, err := p.hashed()
		if err != nil {
			return fmt.Errorf("%s:%d: command: %w", cfg.File, p.Line, err)
		}
		sha := make(map[string]string, len(now))
		for _, f := range now {
			sha[f.Path] = f.SHA256
		}
		stale := map[string]int{} // file → recorded runs made by another version of it
		var order []string
		for _, r := range recs {
			if len(r.Methods) == 0 || r.Methods[0] != p.Row || len(r.Command) == 0 {
				continue
			}
			for _, f := range r.CommandFiles {
				if cur, ok := sha[f.Path]; ok && cur != f.SHA256 {
					if stale[f.Path] == 0 {
						order = append(order, f.Path)
					}
					stale[f.Path]++
				}
			}
		}
		for _, path := range order {
			fmt.Fprintf(w, "note: %s: %d recorded runs were made by another version of %s (its SHA-256 has changed since); "+
				"they are kept and not run again: to run the row with this version, give another --results folder\n",
				p.Row, stale[path], filepath.Base(path))
		}
	}
	return nil
}
