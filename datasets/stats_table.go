package datasets

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
)

// WriteStatsTable writes stats as a right-aligned text table, one row per graph: n,
// edges, m, k1, labelled vertices, nnz(X), density in %, self-loops, isolated vertices
// (without an edge to another vertex; the load report's isolated=) and dropped edges
// (edge lines naming an unknown id; the load report's "dropped N lines").
func WriteStatsTable(w io.Writer, stats []Stats) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "dataset\tn\tedges\tm\tk1\tlabelled\tnnz(X)\tdensity %\tself-loops\tisolated\tdropped edges\t")
	for _, s := range stats {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.2f\t%d\t%d\t%d\t\n",
			s.Name, s.N, s.Edges, s.M, s.K, s.Labeled, s.NNZX, 100*s.Density, s.SelfLoops, s.Isolated, s.Dangling)
	}
	return tw.Flush()
}

// IsDataRoot reports whether dir is a folder of named datasets (as $NAGC_DATA is)
// rather than one graph: a folder holding none of the files a graph folder holds (a
// LINQS .content file, edges.*, adj.mtx, adjacency.mtx, an .npz archive, an OGB raw/
// folder).
func IsDataRoot(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	for _, pat := range []string{"*.content", "edges.*", "adj.mtx", "adjacency.mtx", "*.npz"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return false
		}
	}
	return ogbRaw(dir) == ""
}

// WriteStatsJSON writes s and the load report rep (null when nil) as one line of JSON:
// the fields of Stats and "load_report".
func WriteStatsJSON(w io.Writer, s Stats, rep *LoadReport) error {
	b, err := json.Marshal(struct {
		Stats
		Load *LoadReport `json:"load_report"`
	}{s, rep})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}
