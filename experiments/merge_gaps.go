package experiments

import (
	"fmt"

	"github.com/nagc-harness/nagc/results"
)

// MergeGaps checks that the folders dst and srcs together record every run of config
// (of every config their sweeps record when config is "") and hold its every search
// complete (SearchGaps), and describes what they lack: one line per incomplete search
// and per config with runs missing. Given a config, it refuses folders holding runs that config's rows
// would pool with other settings (checkPopulations), as nagc run does.
func MergeGaps(config, dst string, srcs []string) ([]string, error) {
	configs := []string{config}
	if config == "" {
		configs = nil
		seen := map[string]bool{}
		for _, dir := range append([]string{dst}, srcs...) {
			prov, err := results.ReadProvenance(dir)
			if err != nil {
				return nil, err
			}
			for _, p := range prov {
				if !seen[p.Config] {
					seen[p.Config] = true
					configs = append(configs, p.Config)
				}
			}
		}
	}
	dirs := append([]string{dst}, srcs...)
	var gaps []string
	for _, c := range configs {
		cfg, err := OpenConfig(c)
		if err != nil {
			return nil, fmt.Errorf("checking that the sweep is complete: %w (pass --config CONFIG, or --allow-incomplete)", err)
		}
		runs, err := Plan(cfg)
		if err != nil {
			return nil, err
		}
		if config != "" { // the folders are pieces of this config's sweep: no other population
			for _, d := range dirs {
				if err := checkPopulations(cfg, runs, d, false); err != nil {
					return nil, err
				}
			}
		}
		st, err := statusIn(cfg, runs, dirs)
		if err != nil {
			return nil, err
		}
		searches, err := SearchGaps(cfg, dirs, 0)
		if err != nil {
			return nil, err
		}
		for _, g := range searches {
			gaps = append(gaps, c+": "+g.String())
		}
		if st.Missing == 0 {
			continue
		}
		r := st.MissingRuns[0]
		gaps = append(gaps, fmt.Sprintf("%s: %d of %d runs are not recorded (%d done, %d failed), among them run %s (%s, %s %s, restart %d)",
			c, st.Missing, st.Expected, st.Done, st.Failed, r.ID, r.Dataset, r.Algorithm, r.GridPoint(), r.Restart))
	}
	return gaps, nil
}
