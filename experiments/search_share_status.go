package experiments

import (
	"fmt"
	"io"
)

// WriteChainStatus writes the progress of the chained sweep of cfg (`nagc slurm
// --rungs`) in the results folder dir, counting what the tasks of its running array
// recorded into their folders running too: the planned runs done, failed and missing,
// then a line per search (SearchStatus.WriteText) and one per search not started. It
// returns whether the folders hold the whole sweep. config is the config as the user
// named it. It loads cfg's datasets and reads every runs file twice.
func WriteChainStatus(w io.Writer, cfg *Config, config, dir string, running []string) (complete bool, err error) {
	runs, err := Plan(cfg)
	if err != nil {
		return false, err
	}
	dirs := append([]string{dir}, running...)
	st, err := statusIn(cfg, runs, dirs)
	if err != nil {
		return false, err
	}
	recs, err := readRecordsIn(dirs)
	if err != nil {
		return false, err
	}
	fmt.Fprintf(w, "%s into %s (a chain of arrays, %d tasks' folders not merged yet): %d runs: %d done, %d failed, %d missing\n",
		config, dir, len(running), st.Expected, st.Done, st.Failed, st.Missing)
	for _, s := range SearchStatusOf(cfg, recs) {
		if err := s.WriteText(w); err != nil {
			return false, err
		}
	}
	gaps, err := SearchGaps(cfg, dirs, 0)
	if err != nil {
		return false, err
	}
	for _, g := range gaps {
		if g.Status.Proposed == 0 {
			fmt.Fprintf(w, "search %s on %s: not started\n", g.Status.Row, g.Status.Dataset)
		}
	}
	return st.Missing == 0 && len(gaps) == 0, nil
}
