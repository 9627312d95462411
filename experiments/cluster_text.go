package experiments

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// ClusteringJSON is what `nagc cluster --json` prints of a Clustering.
type ClusteringJSON struct {
	Dataset    string             `json:"dataset"`
	Method     string             `json:"method"`
	K1         int                `json:"k1"`
	Params     map[string]any     `json:"params"`   // the options given
	Settings   map[string]any     `json:"settings"` // every option the fit used, defaults included
	Seed       uint64             `json:"seed"`
	Metrics    map[string]float64 `json:"metrics"` // label-reading measures absent for a graph without labels
	Scored     int                `json:"scored"`  // vertices the label-reading measures score: those with a label
	Iterations int                `json:"iterations"`
	Objective  *float64           `json:"final_objective,omitempty"`
	FitSeconds float64            `json:"fit_seconds"`
	Info       map[string]string  `json:"info,omitempty"`

	// FitSeconds is the fit's wall time (NAGC: the iterations alone); InitSeconds the time
	// before them, where the method times it apart, and InitCached whether the initial
	// factors came from a cache (never in a lone `nagc cluster`).
	InitSeconds float64 `json:"init_seconds,omitempty"`
	InitCached  bool    `json:"init_cached,omitempty"`

	// Load is the reader's report: sizes, dropped lines, notes and warnings.
	Load *datasets.LoadReport `json:"load_report,omitempty"`
}

// JSON returns what `nagc cluster --json` prints of c, fitted with the options params
// given (those not given are in Settings only).
func (c *Clustering) JSON(params map[string]any) ClusteringJSON {
	res := c.Result
	used := map[string]any{}
	for _, st := range c.Settings {
		used[st.Key] = st.Value
	}
	out := ClusteringJSON{Dataset: c.Graph.Name, Method: c.Method.Name(), K1: c.K1, Params: params, Settings: used, Seed: c.Seed,
		Metrics: c.Metrics(), Scored: c.Graph.LabeledCount(), Iterations: res.Iterations, FitSeconds: res.FitTime.Seconds(),
		InitSeconds: res.InitTime.Seconds(), InitCached: res.InitCached, Info: res.Info}
	if len(res.Objective) > 0 {
		out.Objective = &res.Objective[len(res.Objective)-1]
	}
	return out
}

// WriteJSON writes c as indented JSON (ClusteringJSON), with the load report rep of its
// graph.
func (c *Clustering) WriteJSON(w io.Writer, params map[string]any, rep *datasets.LoadReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	out := c.JSON(params)
	out.Load = rep
	return enc.Encode(out)
}

// WriteText writes c for people: the graph, the method with every option it used (those
// not in params marked as defaults), the scores, the vertices flagged, the iterations,
// times and final objective.
func (c *Clustering) WriteText(w io.Writer, params map[string]any) error {
	g, m, k, res, scores := c.Graph, c.Method, c.K1, c.Result, c.Scores
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "dataset\t%s (n=%d, k1=%d)\n", g.Name, g.N(), k)
	fmt.Fprintf(tw, "method\t%s, seed %d\n", m.Name(), c.Seed)
	for _, st := range c.Settings {
		note := ""
		if _, given := params[st.Key]; !given {
			note = "  (default" + defaultWhy(m, st, g.N()) + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", st.Key, settingValue(m, st, k), note)
	}
	if scores.Labelled() {
		fmt.Fprintf(tw, "ARI\t%.4f\nNMI\t%.4f\nACC\t%.4f\n", scores.ARI, scores.NMI, scores.ACC)
		if sc := g.LabeledCount(); sc < g.N() {
			fmt.Fprintf(tw, "  scored\t%d of %d vertices (those with a label; all are clustered)\n", sc, g.N())
		}
	} else {
		fmt.Fprintf(tw, "ARI, NMI, ACC\tnone: the graph has no labels\n")
	}
	c.writeFlags(tw)
	fmt.Fprintf(tw, "modularity\t%.4f\n", scores.Modularity)
	switch {
	case scores.HasAttrModularity():
		fmt.Fprintf(tw, "entropy\t%.4f\nattribute modularity\t%.4f\n", scores.Entropy, scores.AttrModularity)
	case scores.Attributed():
		fmt.Fprintf(tw, "entropy\t%.4f\nattribute modularity\tnone: the attributes have negative values (cosine similarities are no edge weights)\n", scores.Entropy)
	default:
		fmt.Fprintf(tw, "entropy, attribute modularity\tnone: the graph has no attributes\n")
	}
	fmt.Fprintf(tw, "iterations\t%d\nfit time\t%.3fs\n", res.Iterations, res.FitTime.Seconds())
	if res.InitTime > 0 {
		fmt.Fprintf(tw, "initialisation time\t%.3fs\n", res.InitTime.Seconds())
	}
	if len(res.Objective) > 0 {
		fmt.Fprintf(tw, "objective\t%.6g\n", res.Objective[len(res.Objective)-1])
	}
	return tw.Flush()
}

// writeFlags writes, for a method that flags vertices, how many each flag marks and the
// ARI over the vertices none marks (PAICAN's protocol), labelled as such.
func (c *Clustering) writeFlags(w io.Writer) {
	flags := c.Result.Flags
	if len(flags) == 0 {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		n := 0
		for _, f := range flags[name] {
			if f {
				n++
			}
		}
		fmt.Fprintf(w, "flagged %s\t%d of %d\n", strings.ReplaceAll(name, "_", " "), n, len(flags[name]))
	}
	share := c.Flagged[results.MetricUnflaggedShare]
	if ari, ok := c.Flagged[results.MetricARIUnflagged]; ok {
		fmt.Fprintf(w, "ARI, unflagged vertices\t%.4f  (PAICAN's protocol, over %.1f%% of the vertices; ARI above is over all)\n", ari, 100*share)
	} else {
		fmt.Fprintf(w, "unflagged vertices\t%.1f%%\n", 100*share)
	}
}

// settingValue formats one option of m for the plain output, naming what its value
// stands for where the graph decides it (algorithms.SettingDescriber).
func settingValue(m algorithms.Method, st algorithms.Setting, k1 int) string {
	if d, ok := m.(algorithms.SettingDescriber); ok {
		if v, _ := d.DescribeSetting(st, k1, 0); v != "" {
			return v
		}
	}
	return fmt.Sprint(st.Value)
}

// defaultWhy says, after "default", why an option not given took its value where the
// graph's size chose it (algorithms.SettingDescriber), else "".
func defaultWhy(m algorithms.Method, st algorithms.Setting, n int) string {
	if d, ok := m.(algorithms.SettingDescriber); ok {
		_, why := d.DescribeSetting(st, 0, n)
		return why
	}
	return ""
}
