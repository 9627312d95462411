package experiments

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/sparse"
)

// Rescore recomputes every metric of results.AllMetrics for the finished runs recorded in dir,
// from their recorded labels and the datasets (loaded by load; when nil, by sourceLoader(dir):
// as the sweep read them),
// and rewrites dir's runs file with them, atomically (temporary file, then rename). It
// lets records made before a metric existed gain it without re-running any method. A
// metric already recorded must come out the same (within 1e-9): otherwise the dataset is
// not the one the runs saw, and Rescore stops with an error naming the run, leaving the
// file as it was. A torn last line is an error (run `nagc run` to repair it first).
// results.MetricHeldOut is recomputed from the recorded held-out labels on the same split
// (HoldOutEdges with heldOutSeed of the run's seed), and results.MetricUnflaggedShare and
// results.MetricARIUnflagged from the recorded flags, and checked the same way.
// It returns the number of records rescored. Cost: one metrics.Evaluate per record, plus
// one split per dataset and restart for records with a held-out fit.
func Rescore(dir string, load func(name string) (*datasets.Graph, error)) (int, error) {
	if load == nil {
		load = sourceLoader(dir)
	}
	path := filepath.Join(dir, results.RunsFile)
	if _, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("%s: no %s to rescore (run `nagc run CONFIG --results %s` first)", dir, results.RunsFile, dir)
	}
	lock, err := results.LockRewrite(dir)
	if err != nil {
		return 0, err
	}
	defer lock.Unlock()
	recs, torn, err := results.ReadRecords(path)
	if err != nil {
		return 0, err
	}
	if torn {
		return 0, fmt.Errorf("%s: the last line is torn; resume the sweep (nagc run) to repair it first", path)
	}
	if recs == nil {
		return 0, fmt.Errorf("%s: no records", path)
	}
	graphs := map[string]*datasets.Graph{}
	splits := map[string]*sparse.CSR{} // held-out edges by dataset, fraction and seed
	n := 0
	for i := range recs {
		r := &recs[i]
		if r.Status != results.StatusDone {
			continue
		}
		g, ok := graphs[r.Dataset]
		if !ok {
			if g, err = load(r.Dataset); err != nil {
				return 0, fmt.Errorf("rescore run %s: %w", r.RunID, err)
			}
			graphs[r.Dataset] = g
		}
		if err := rescoreRecord(r, g, splits); err != nil {
			return 0, err
		}
		n++
	}
	if err := results.RewriteRecords(path, recs); err != nil {
		return 0, err
	}
	return n, nil
}

// rescoreRecord sets the metrics of the finished run r from its recorded labels on g
// (recomputed), after checking that those it recorded come out the same. splits caches
// the held-out edges.
func rescoreRecord(r *results.Record, g *datasets.Graph, splits map[string]*sparse.CSR) error {
	all, names, err := rescoredMetrics(r, g, splits)
	if err != nil {
		return err
	}
	if r.Metrics == nil {
		r.Metrics = map[string]float64{}
	}
	for _, k := range names {
		if old, ok := r.Metrics[k]; ok && math.Abs(old-all[k]) > 1e-9*math.Max(1, math.Abs(old)) {
			return fmt.Errorf("rescore run %s on %s: recorded %s %v, recomputed %v: the dataset differs from the one the run saw",
				r.RunID, r.Dataset, k, old, all[k])
		}
		r.Metrics[k] = all[k]
	}
	return nil
}

// rescoredMetrics returns the metrics of the finished run r recomputed on g, and the
// names of those rescoring sets: from its labels (recomputeMetrics), or, for a search
// rung that fitted only the held-out copy, its held-out modularity alone.
func rescoredMetrics(r *results.Record, g *datasets.Graph, splits map[string]*sparse.CSR) (map[string]float64, []string, error) {
	if r.Search != nil && r.Search.HeldOutOnly {
		q, err := heldOutScore(r, g, splits)
		if err != nil {
			return nil, nil, fmt.Errorf("rescore run %s: %w", r.RunID, err)
		}
		return map[string]float64{results.MetricHeldOut: q}, []string{results.MetricHeldOut}, nil
	}
	labels, err := results.DecodeLabels(r.Labels)
	if err != nil {
		return nil, nil, fmt.Errorf("rescore run %s: labels: %w", r.RunID, err)
	}
	if len(labels) != g.N() {
		return nil, nil, fmt.Errorf("rescore run %s: %d labels for the %d vertices of %s", r.RunID, len(labels), g.N(), r.Dataset)
	}
	all, names, err := recomputeMetrics(r, g, labels, splits)
	if err != nil {
		return nil, nil, fmt.Errorf("rescore run %s: %w", r.RunID, err)
	}
	return all, names, nil
}

// recomputeMetrics returns every metric of the run r computed from labels on g
// (metrics.Evaluate; its held-out modularity and its flags' metrics where it recorded
// them), and the names of those that rescoring sets, in order.
func recomputeMetrics(r *results.Record, g *datasets.Graph, labels []int, splits map[string]*sparse.CSR) (map[string]float64, []string, error) {
	s, err := metrics.Evaluate(g.Labels, labels, g.Adj, g.X)
	if err != nil {
		return nil, nil, err
	}
	all := s.Named()
	names := results.AllMetrics
	if r.Holdout > 0 {
		if all[results.MetricHeldOut], err = heldOutScore(r, g, splits); err != nil {
			return nil, nil, err
		}
		names = append(names[:len(names):len(names)], results.MetricHeldOut)
	}
	if len(r.Flags) > 0 {
		masks := make(map[string][]bool, len(r.Flags))
		for name, enc := range r.Flags {
			if masks[name], err = results.DecodeFlags(enc); err != nil {
				return nil, nil, fmt.Errorf("flags %s: %w", name, err)
			}
		}
		flagged, err := flagMetrics(g.Labels, labels, masks, true)
		if err != nil {
			return nil, nil, err
		}
		names = names[:len(names):len(names)]
		for _, k := range []string{results.MetricUnflaggedShare, results.MetricARIUnflagged} {
			if v, ok := flagged[k]; ok {
				all[k] = v
				names = append(names, k)
			}
		}
	}
	return all, names, nil
}

// heldOutScore recomputes results.MetricHeldOut of r: the modularity of its held-out labels on
// the edges its held-out fit did not see. splits caches the held-out edges.
func heldOutScore(r *results.Record, g *datasets.Graph, splits map[string]*sparse.CSR) (float64, error) {
	labels, err := results.DecodeLabels(r.HeldOutLabels)
	if err != nil {
		return 0, fmt.Errorf("held-out labels: %w", err)
	}
	key, split := heldOutSplit(g, r.Dataset, r.Holdout, r.Seed)
	test, ok := splits[key]
	if !ok {
		if _, test, err = split(); err != nil {
			return 0, err
		}
		splits[key] = test
	}
	return metrics.Modularity(test, labels)
}

// sourceLoader returns a loader of the datasets recorded in results folder dir, by the
// name records give them: each is read as the sweeps of dir read it (their Sources:
// absolute path, format, labels), so that a config-relative path resolves as it did for
// the sweep wherever the command runs. A dataset moved or renamed since is read from where
// a later sweep found the same graph (same identity); where no recorded path exists, or
// the folder records no source (sweeps made before sources were recorded), the name is
// looked up as datasets.Load looks it up. A graph read by a recorded source must have the
// recorded identity, else the loader says the dataset differs.
func sourceLoader(dir string) func(name string) (*datasets.Graph, error) {
	var sources []results.DatasetSource
	if provs, err := results.ReadProvenance(dir); err == nil {
		for _, p := range provs {
			sources = append(sources, p.Sources...)
		}
	}
	return func(name string) (*datasets.Graph, error) {
		identity := ""
		for _, s := range sources {
			if s.Name == name {
				identity = s.Identity
			}
		}
		if identity == "" {
			return datasets.Load(name)
		}
		// The latest source of that identity whose path still exists.
		for i := len(sources) - 1; i >= 0; i-- {
			s := sources[i]
			if s.Identity != identity {
				continue
			}
			if _, err := os.Stat(s.Spec.Path); err != nil && s.Spec.Path != "synthetic" && !datasets.IsShapeName(s.Spec.Path) {
				continue
			}
			g, _, err := datasets.LoadSpec(s.Spec)
			if err != nil {
				return nil, fmt.Errorf("dataset %s (read from %s): %w", name, s.Spec.Path, err)
			}
			if id := datasets.Identity(g, ""); id != identity && !strings.HasSuffix(identity, "@"+id) {
				return nil, fmt.Errorf("dataset %s read from %s is not the graph the sweep saw (its content differs)", name, s.Spec.Path)
			}
			return g, nil
		}
		return datasets.Load(name)
	}
}
