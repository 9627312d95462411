package experiments

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/metrics"
)

// Clustering is one method fitted once to a graph and scored: what `nagc cluster` prints.
type Clustering struct {
	Graph  *datasets.Graph
	Method algorithms.Method
	K1     int
	Seed   uint64
	Result *algorithms.Result
	// Scores are every metric of the clustering (metrics.Evaluate): the label-reading
	// ones only where the graph has labels, the attribute ones where it has attributes.
	Scores metrics.Scores
	// Settings are every option the fit used, defaults included (algorithms.Effective).
	Settings []algorithms.Setting
	// Flagged holds, for a method that flags vertices (Result.Flags: PAICAN's anomalies),
	// results.MetricUnflaggedShare and, where the graph has labels,
	// results.MetricARIUnflagged, as a run records them; nil for a method that flags
	// nothing.
	Flagged map[string]float64
}

// Metrics returns every metric of the clustering by its record name: Scores.Named and
// Flagged.
func (c *Clustering) Metrics() map[string]float64 {
	named := c.Scores.Named()
	for k, v := range c.Flagged {
		named[k] = v
	}
	return named
}

// Cluster fits m to g with k1 clusters and seed (refused, before it allocates, when its estimated memory exceeds the budget: algorithms.CheckMemory) and scores the clustering with every
// metric, as a sweep's runner scores a run (the labels are handed to the method, which
// reads them only for a label-reading initialisation). Cost: one fit, plus
// metrics.Evaluate's O(|E| + nnz(X)) passes.
func Cluster(ctx context.Context, g *datasets.Graph, m algorithms.Method, k1 int, seed uint64) (*Clustering, error) {
	in := algorithms.Input{Adj: g.Adj, X: g.X, Truth: g.Labels}
	if err := algorithms.CheckMemory(m, in, k1, 1); err != nil {
		return nil, err
	}
	if est, ok := algorithms.EstimateMemory(m, in, k1); ok {
		defer memory.HoldHeapTo(est)() // the collector keeps the heap near the input plus the estimate
	}
	res, err := m.Fit(ctx, in, k1, seed)
	if err != nil {
		return nil, err
	}
	scores, err := metrics.Evaluate(g.Labels, res.Labels, g.Adj, g.X)
	if err != nil {
		return nil, err
	}
	flagged, err := flagMetrics(g.Labels, res.Labels, res.Flags, true)
	if err != nil {
		return nil, err
	}
	return &Clustering{Graph: g, Method: m, K1: k1, Seed: seed, Result: res, Scores: scores,
		Settings: algorithms.Effective(m, k1, g.N()), Flagged: flagged}, nil
}

// WriteLabels writes the clustering to path, one "id<TAB>cluster" line per vertex in the
// graph's order.
func (c *Clustering) WriteLabels(path string) error {
	var b strings.Builder
	for i, id := range c.Graph.IDs {
		fmt.Fprintf(&b, "%s\t%d\n", id, c.Result.Labels[i])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// WriteFactors writes each factor the method learnt (NAGC's U, V and H, …) to dir/NAME.csv
// (algorithms.WriteDenseCSV), creating dir. A method that learns none writes nothing.
func (c *Clustering) WriteFactors(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(c.Result.Factors))
	for name := range c.Result.Factors {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := algorithms.WriteDenseCSV(filepath.Join(dir, name+".csv"), c.Result.Factors[name]); err != nil {
			return err
		}
	}
	return nil
}
