package auto

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
	"github.com/nagc-harness/nagc/sparse"
)

// Output files Result.Write writes into the output folder.
const (
	ClustersFile = "clusters.tsv" // id<TAB>cluster, one line per vertex, no header
	ChoiceFile   = "choice.json"  // the Result as JSON: version, choice, scores, warnings
	ReportFile   = "report.md"    // the short report (Result.Report)
)

// WriteUnlabeled writes g without its labels as a Matrix Market folder (adj.mtx and
// features.mtx, general real coordinate, every stored entry exactly as float64 text), the
// copy of the graph that Run's sweeps read: vertex i of it is vertex i of g. Cost
// O(nnz(Adj) + nnz(X)).
//
// A graph with dense attributes is written as dir/graph.npz instead (attr_matrix, as
// stored, so nothing is rounded; see datasets.WriteNPZ): UnlabeledFormat names the format.
func WriteUnlabeled(dir string, g *datasets.Graph) error {
	if g.Adj == nil || !g.HasAttributes() {
		return fmt.Errorf("%s: the graph needs an adjacency and attributes", g.Name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	x, d := g.StoredX()
	if d != nil {
		c := *g
		c.Labels, c.ClassNames = nil, nil
		return datasets.WriteNPZ(filepath.Join(dir, "graph.npz"), &c)
	}
	if err := writeMTX(filepath.Join(dir, "adj.mtx"), g.Adj); err != nil {
		return err
	}
	return writeMTX(filepath.Join(dir, "features.mtx"), x)
}

// attributeRows returns a function giving row v of g's attributes as column indices and
// values: X's stored entries, or every column of a dense row (the slices are reused by
// the next call).
func attributeRows(g *datasets.Graph) func(v int) ([]int, []float64) {
	x, d := g.StoredX()
	if d == nil {
		return x.Row
	}
	m := g.M()
	cols, vals := make([]int, m), make([]float64, m)
	for j := range cols {
		cols[j] = j
	}
	return func(v int) ([]int, []float64) { return cols, d.RowTo(vals, v) }
}

// UnlabeledFormat returns the format WriteUnlabeled writes g in: npz for dense
// attributes, else mtx.
func UnlabeledFormat(g *datasets.Graph) string {
	if _, d := g.StoredX(); d != nil {
		return datasets.FormatNPZ
	}
	return datasets.FormatMTX
}

func writeMTX(path string, a *sparse.CSR) error {
	r, c := a.Dims()
	buf := fmt.Appendf(nil, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", r, c, a.NNZ())
	for i := range r {
		cols, vals := a.Row(i)
		for p, j := range cols {
			buf = strconv.AppendInt(buf, int64(i+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, vals[p], 'g', -1, 64)
			buf = append(buf, '\n')
		}
	}
	return os.WriteFile(path, buf, 0o644)
}

// PlaceIsolated returns a copy of clusters in which every isolated vertex of g (no edge
// to another vertex, metrics.Connected) is moved to the cluster whose centroid, among
// the connected vertices, is most cosine-similar to its attributes: each attribute row
// L2-normalised, a cluster's centroid the sum of its connected members' rows. A vertex
// without attributes, or similar to no centroid, goes to the largest cluster of the
// connected vertices; ties go to the lowest cluster index. When no vertex has an edge
// the clustering is returned as it is. It reads no labels. It also returns the number
// of isolated vertices. Cost O(nnz(Adj) + nnz(X)·… ) = O(nnz(Adj) + k·m + nnz(X) +
// (#isolated)·k·(row nnz)).
func PlaceIsolated(g *datasets.Graph, clusters []int) ([]int, int, error) {
	conn, err := metrics.Connected(g.Adj)
	if err != nil {
		return nil, 0, err
	}
	out := append([]int(nil), clusters...)
	k, isolated := 0, 0
	for v, c := range clusters {
		if c < 0 {
			return nil, 0, fmt.Errorf("vertex %d has cluster %d", v, c)
		}
		k = max(k, c+1)
		if !conn[v] {
			isolated++
		}
	}
	if isolated == 0 || isolated == len(clusters) {
		return out, isolated, nil
	}
	m, row := g.M(), attributeRows(g)
	cent := make([]float64, k*m)
	size := make([]int, k)
	for v, c := range clusters {
		if !conn[v] {
			continue
		}
		size[c]++
		cols, vals := row(v)
		norm := rowNorm(vals)
		if norm == 0 {
			continue
		}
		for p, j := range cols {
			cent[c*m+j] += vals[p] / norm
		}
	}
	largest := 0
	for c := range size {
		if size[c] > size[largest] {
			largest = c
		}
	}
	cnorm := make([]float64, k)
	for c := range k {
		cnorm[c] = rowNorm(cent[c*m : (c+1)*m])
	}
	for v := range clusters {
		if conn[v] {
			continue
		}
		cols, vals := row(v)
		best, bestSim := largest, 0.0
		if norm := rowNorm(vals); norm > 0 {
			for c := range k {
				if cnorm[c] == 0 {
					continue
				}
				dot := 0.0
				for p, j := range cols {
					dot += vals[p] * cent[c*m+j]
				}
				if sim := dot / (norm * cnorm[c]); sim > bestSim {
					best, bestSim = c, sim
				}
			}
		}
		out[v] = best
	}
	return out, isolated, nil
}

func rowNorm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// Write writes the clustering (ClustersFile, with g's vertex ids), the choice
// (ChoiceFile) and the report (ReportFile) into dir.
func (r *Result) Write(dir string, g *datasets.Graph) error {
	if len(r.Clusters) != g.N() {
		return fmt.Errorf("the clustering has %d vertices, the graph %d", len(r.Clusters), g.N())
	}
	var b strings.Builder
	for v, c := range r.Clusters {
		fmt.Fprintf(&b, "%s\t%d\n", g.IDs[v], c)
	}
	if err := os.WriteFile(filepath.Join(dir, ClustersFile), []byte(b.String()), 0o644); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ChoiceFile), append(js, '\n'), 0o644); err != nil {
		return err
	}
	b.Reset()
	r.Report(&b)
	return os.WriteFile(filepath.Join(dir, ReportFile), []byte(b.String()), 0o644)
}

// MarshalJSON adds the chosen method and settings and the runner-up to the JSON of r.
func (r *Result) MarshalJSON() ([]byte, error) {
	type plain Result
	out := struct {
		*plain
		Method   string     `json:"method"`
		Settings string     `json:"settings"`
		RunnerUp *Candidate `json:"runner_up,omitempty"`
	}{(*plain)(r), r.Chosen().Method, results.FormatParams(r.Chosen().Params), r.RunnerUp()}
	return json.Marshal(out)
}

// maxReportCandidates bounds the candidates listed in the report (choice.json has all).
const maxReportCandidates = 15

// Report writes the short Markdown report: version, choice, runner-up, agreement,
// warnings, the k1 curve where k1 was chosen, the best candidates' scores, and where the
// graph has labels, the ARI computed after the choice.
func (r *Result) Report(w io.Writer) {
	c := r.Chosen()
	fmt.Fprintf(w, "# nagc auto: %s\n\n", r.Graph)
	fmt.Fprintf(w, "%s (docs/auto.md), budget %s, seed %d, %d candidates, %d restart%s each, %.1f s.\n\n", r.Version, r.Budget, r.Seed, len(r.Candidates), r.Restarts, plural(r.Restarts), r.Seconds)
	fmt.Fprintf(w, "**Rule (label-free).** The candidate with the best mean held-out modularity over its restarts: each run is fitted again with %g %% of the edges held out, and its clustering scored by modularity on those edges alone. No label is read before the choice.\n\n", 100*r.Holdout)
	how := "given"
	if r.KChosen {
		how = fmt.Sprintf("chosen from %d…%d by the one-standard-error rule on held-out modularity", K1Min, K1Max)
	}
	fmt.Fprintf(w, "- clusters: k1 = %d (%s)\n", r.K1, how)
	fmt.Fprintf(w, "- chosen: **%s** %s: held-out modularity %.4f ± %.4f over %d restarts\n", c.Method, results.FormatParams(c.Params), c.Score, c.SD, c.Runs)
	if ru := r.RunnerUp(); ru != nil {
		fmt.Fprintf(w, "- runner-up: %s %s: %.4f ± %.4f\n", ru.Method, results.FormatParams(ru.Params), ru.Score, ru.SD)
	}
	if r.Restarts == 1 {
		fmt.Fprintf(w, "- one restart per candidate (budget %s from %d vertices): no agreement between restarts measured\n", r.Budget, QuickOneRestartN)
	} else {
		fmt.Fprintf(w, "- agreement between the restarts of the chosen point: mean pairwise ARI %.3f; the clustering written is restart %d's (the one agreeing most with the others)\n", r.Agreement, r.Restart)
	}
	fmt.Fprintf(w, "- isolated vertices: %d, each placed in the cluster whose attribute centroid (over the vertices with an edge) is most cosine-similar to its attributes\n", r.Isolated)
	if r.ARI != nil {
		over := "all vertices"
		if r.Scored > 0 && r.Scored < len(r.Clusters) {
			over = fmt.Sprintf("the %d of %d vertices that have a label", r.Scored, len(r.Clusters))
		}
		fmt.Fprintf(w, "- ARI against the graph's labels, computed after the choice (never used by it): %.3f over %s, %.3f over those with an edge\n", *r.ARI, over, *r.ARIConnected)
	}
	if l := r.LabelSelected; l != nil {
		fmt.Fprintf(w, "- the chosen point over its %d restarts: ARI %.3f ± %.3f (with an edge %.3f ± %.3f); for comparison only, the candidate with the best mean ARI (label-selected: reads the labels) is %s %s: %.3f ± %.3f (with an edge %.3f ± %.3f)\n",
			c.Runs, r.ChosenLabels.ARI, r.ChosenLabels.ARISD, r.ChosenLabels.ARIConnected, r.ChosenLabels.ARIConnectedSD,
			l.Method, results.FormatParams(l.Params), l.ARI, l.ARISD, l.ARIConnected, l.ARIConnectedSD)
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "\n**Warning:** %s\n", warn)
	}
	if r.KChosen {
		fmt.Fprintf(w, "\n## k1 curve\n\n| k1 | held-out modularity | SE | restarts |\n|---:|---:|---:|---:|\n")
		for _, p := range r.KCurve {
			mark := ""
			if p.K == r.K1 {
				mark = " ←"
			}
			fmt.Fprintf(w, "| %d%s | %.4f | %.4f | %d |\n", p.K, mark, p.Score, p.SE, p.Runs)
		}
	}
	fmt.Fprintf(w, "\n## Candidates (best %d of %d; all in %s)\n\n| rank | method | settings | held-out modularity | std |\n|---:|---|---|---:|---:|\n",
		min(maxReportCandidates, len(r.Candidates)), len(r.Candidates), ChoiceFile)
	for i, cand := range r.Candidates[:min(maxReportCandidates, len(r.Candidates))] {
		fmt.Fprintf(w, "| %d | %s | %s | %.4f | %.4f |\n", i+1, cand.Method, results.FormatParams(cand.Params), cand.Score, cand.SD)
	}
}

// plural returns "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
