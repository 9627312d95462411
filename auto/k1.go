package auto

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// chooseK runs cfg's rows (the k1-selection rows) on the graph for each k of the
// coarse grid within K1Min…min(K1Max, n−1), then for every integer between the
// neighbours of the k ChooseK picks there, and returns ChooseK's pick over all of them
// and the curve. entry makes the dataset entry of the graph with k clusters.
func chooseK(ctx context.Context, cfg *experiments.Config, opt experiments.Options, n int,
	entry func(name string, k int) experiments.DatasetEntry) (int, []KPoint, error) {
	hi := min(K1Max, n-1)
	if hi < K1Min {
		return 0, nil, fmt.Errorf("a graph of %d vertices is too small to choose a number of clusters from %d…%d; give --k1", n, K1Min, K1Max)
	}
	var ks []int
	for _, k := range coarseK {
		if k <= hi {
			ks = append(ks, k)
		}
	}
	if !slices.Contains(ks, hi) {
		ks = append(ks, hi)
	}
	curve, err := kCurve(ctx, cfg, opt, ks, entry)
	if err != nil {
		return 0, nil, err
	}
	best := ChooseK(curve)
	// Fine pass: every k strictly between the coarse neighbours of the pick.
	i := slices.IndexFunc(curve, func(p KPoint) bool { return p.K == best })
	lo, up := curve[max(i-1, 0)].K, curve[min(i+1, len(curve)-1)].K
	var fine []int
	for k := lo + 1; k < up; k++ {
		if !slices.Contains(ks, k) {
			fine = append(fine, k)
		}
	}
	if len(fine) > 0 {
		if curve, err = kCurve(ctx, cfg, opt, append(ks, fine...), entry); err != nil {
			return 0, nil, err
		}
	}
	return ChooseK(curve), curve, nil
}

// kName is the dataset name of the graph with k clusters in the k1 sweep.
func kName(k int) string { return fmt.Sprintf("k1=%02d", k) }

// kCurve runs cfg for every k of ks (recorded runs are reused) and returns the curve in
// increasing k: at each k, the row of cfg with the best mean held-out modularity (the
// first row on a tie), its score and standard error.
func kCurve(ctx context.Context, cfg *experiments.Config, opt experiments.Options, ks []int,
	entry func(name string, k int) experiments.DatasetEntry) ([]KPoint, error) {
	c := *cfg
	c.Datasets = nil
	for _, k := range ks {
		c.Datasets = append(c.Datasets, entry(kName(k), k))
	}
	if err := execute(ctx, &c, opt); err != nil {
		return nil, err
	}
	recs, err := results.Load(opt.ResultsDir)
	if err != nil {
		return nil, err
	}
	row := map[string]int{} // config order, for ties
	for i, m := range cfg.Methods {
		row[m.Name.Value] = i + 1
	}
	best := map[string]*results.PointStats{}
	for _, ps := range results.Aggregate(recs) {
		if row[ps.Method] == 0 || ps.Runs == 0 {
			continue
		}
		b := best[ps.Dataset]
		if b == nil || ps.Mean[results.MetricHeldOut] > b.Mean[results.MetricHeldOut] ||
			ps.Mean[results.MetricHeldOut] == b.Mean[results.MetricHeldOut] && row[ps.Method] < row[b.Method] {
			best[ps.Dataset] = ps
		}
	}
	var curve []KPoint
	for _, k := range ks {
		ps, ok := best[kName(k)]
		if !ok {
			continue
		}
		sd := ps.Std[results.MetricHeldOut]
		curve = append(curve, KPoint{K: k, Row: ps.Method, Score: ps.Mean[results.MetricHeldOut], SD: sd,
			SE: sd / math.Sqrt(float64(ps.Runs)), Runs: ps.Runs})
	}
	if len(curve) == 0 {
		return nil, fmt.Errorf("no run of the k1 range finished")
	}
	slices.SortFunc(curve, func(a, b KPoint) int { return a.K - b.K })
	return curve, nil
}

// ChooseK returns the k of the curve picked by the one-standard-error rule of
// cross-validation: the smallest k whose mean held-out modularity is within one
// standard error of the best mean. Held-out modularity can keep creeping up past the
// planted number of clusters (splitting a cluster costs held-out edges, but k-means on a
// smoothed embedding splits along lines that cost few); the rule prefers the fewest
// clusters the data cannot tell apart from the best. curve must be non-empty and sorted
// by k. Cost O(len(curve)).
func ChooseK(curve []KPoint) int {
	best := 0
	for i, p := range curve {
		if p.Score > curve[best].Score {
			best = i
		}
	}
	floor := curve[best].Score - curve[best].SE
	for _, p := range curve {
		if p.Score >= floor {
			return p.K
		}
	}
	return curve[best].K
}
