package experiments

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/results"
)

// rowKey names a population of runs: one row of a config on one dataset. Summaries and
// reports pool the runs of a results folder by it.
type rowKey struct{ dataset, row string }

// checkPopulations refuses to record the sweep of cfg (runs: its whole plan, every
// shard's) into the results folder dir when dir already holds a run that a row of cfg
// would pool with its own but that cfg does not plan for that row: the same row name on
// the same dataset with other settings (restarts, iterations, options, grid values, k1,
// seed), written by another config or an earlier version of this one. The runs of a
// config with timing: true are a population apart from a sweep's, as reports keep them. A config that
// plans every recorded run of its rows (the same config resumed, or one whose grid or
// restarts grew) passes; with severalK1, so do runs of another k1. The error names, for each such row, what differs (key, recorded
// value, the config's value) and the config that wrote the recorded runs. Cost: reading
// dir's records and provenance once.
func checkPopulations(cfg *Config, runs []Run, dir string, severalK1 bool) error {
	recs, _, err := results.ReadRecords(filepath.Join(dir, results.RunsFile))
	if err != nil || len(recs) == 0 {
		return err
	}
	planned := make(map[string]*Run, len(runs))
	rows := map[rowKey][]*Run{}
	k1 := map[string]int{} // by dataset
	for i := range runs {
		r := &runs[i]
		planned[r.ID], k1[r.Dataset] = r, r.K1
		for _, m := range r.Methods {
			k := rowKey{r.Dataset, m}
			rows[k] = append(rows[k], r)
		}
	}
	type conflict struct {
		rec        *results.Record // a recorded run the config does not plan
		maxRestart int             // the largest restart recorded for the row
	}
	found := map[rowKey]*conflict{}
	var order []rowKey
	for i := range recs {
		rec := &recs[i]
		if rec.TimedAlone != cfg.Timing {
			continue // a timing config's runs are their own population (results.Aggregate leaves them out)
		}
		if severalK1 && rec.K1 != k1[rec.Dataset] {
			continue
		}
		for _, m := range rec.Methods {
			k := rowKey{rec.Dataset, m}
			if rows[k] == nil {
				continue // a row cfg does not have on that dataset: not pooled with cfg's
			}
			if r := planned[rec.RunID]; r != nil && slices.Contains(r.Methods, m) && (rec.Seed == 0 || rec.Seed == r.Seed) {
				continue
			}
			c := found[k]
			if c == nil {
				c = &conflict{rec: rec, maxRestart: rec.Restart}
				found[k] = c
				order = append(order, k)
			}
			c.maxRestart = max(c.maxRestart, rec.Restart)
			if c.rec.Restart >= cfg.Restarts && rec.Restart < cfg.Restarts {
				c.rec = rec // one whose other settings can be compared
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	written := map[string]string{}
	if prov, err := results.ReadProvenance(dir); err == nil {
		for _, p := range prov {
			written[p.Sweep] = p.Config
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s already holds runs that %s would pool with its own under the same row name, with other settings:", dir, cfg.File)
	for _, k := range order {
		c := found[k]
		by := written[c.rec.Sweep]
		if by == "" {
			by = "config " + c.rec.Config
		}
		diffs := rowDifferences(cfg, rows[k], c.rec, c.maxRestart)
		fmt.Fprintf(&b, "\n  row %q on %s: %s (recorded by %s, sweep %s)", k.row, k.dataset, strings.Join(diffs, ", "), by, c.rec.Sweep)
	}
	b.WriteString("\nRuns of one row are one population: record this config into another folder (--results DIR), or give its row another name.")
	return fmt.Errorf("%s", b.String())
}

// rowDifferences describes how the recorded run rec of a row (whose restarts reach
// maxRestart) differs from the runs cfg plans for the row: as "key recorded → config's"
// items.
func rowDifferences(cfg *Config, plan []*Run, rec *results.Record, maxRestart int) []string {
	var diffs []string
	if maxRestart >= cfg.Restarts {
		diffs = append(diffs, fmt.Sprintf("restarts %d → %d", maxRestart+1, cfg.Restarts))
		if rec.Restart >= cfg.Restarts {
			return diffs // no run of the same restart to compare the rest with
		}
	}
	// The planned run of the same restart whose parameters differ in the fewest keys.
	var best *Run
	var bestKeys []string
	for _, r := range plan {
		if r.Restart != rec.Restart {
			continue
		}
		keys := differingKeys(rec.Params, r.Params)
		if r.Algorithm != rec.Algorithm {
			keys = append(keys, "algorithm")
		}
		if best == nil || len(keys) < len(bestKeys) {
			best, bestKeys = r, keys
		}
	}
	if best == nil {
		return append(diffs, "runs the config does not plan")
	}
	for _, key := range bestKeys {
		if key == "algorithm" {
			diffs = append(diffs, fmt.Sprintf("algorithm %s → %s", rec.Algorithm, best.Algorithm))
			continue
		}
		if grid := gridValues(plan, key); len(grid) > 1 {
			diffs = append(diffs, fmt.Sprintf("%s %s → one of %s", key, valueText(rec.Params, key), strings.Join(grid, ", ")))
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s %s → %s", key, valueText(rec.Params, key), valueText(best.Params, key)))
	}
	switch {
	case len(bestKeys) > 0:
	case rec.K1 != best.K1:
		diffs = append(diffs, fmt.Sprintf("k1 %d → %d", rec.K1, best.K1))
	case rec.Seed != 0 && rec.Seed != best.Seed:
		diffs = append(diffs, fmt.Sprintf("seed (the run seed of restart %d is %d, the config's %d)", rec.Restart, rec.Seed, best.Seed))
	case len(diffs) == 0:
		diffs = append(diffs, "the dataset's content (another graph of the same name)")
	}
	return diffs
}

// differingKeys returns the keys whose values differ between a and b, sorted.
func differingKeys(a, b map[string]any) []string {
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if bv, ok := b[k]; !ok || fmt.Sprint(bv) != fmt.Sprint(a[k]) {
			keys = append(keys, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// gridValues returns the distinct values of key among the runs, in first-seen order.
func gridValues(runs []*Run, key string) []string {
	var vals []string
	for _, r := range runs {
		if v := valueText(r.Params, key); !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	return vals
}

// valueText formats the value of key in params, "(unset)" when it has none.
func valueText(params map[string]any, key string) string {
	v, ok := params[key]
	if !ok {
		return "(unset)"
	}
	return fmt.Sprint(v)
}
