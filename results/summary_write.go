package results

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
)

// ReadsLabels reports whether the selection reads the ground-truth labels: by its rule
// (ReadsLabels) or by the point it chose (PointStats.ReadsLabels).
func (s Selection) ReadsLabels() bool {
	return ReadsLabels(s.Rule) || (s.Point != nil && s.Point.ReadsLabels())
}

// metricNames lists the metrics the point recorded, in a fixed order: those of
// AllMetrics, then MetricHeldOut, then MetricARIUnflagged and MetricUnflaggedShare (a
// method that flags vertices).
func (p *PointStats) metricNames() []string {
	var out []string
	for _, m := range append(append([]string{}, AllMetrics...), MetricHeldOut, MetricARIUnflagged, MetricUnflaggedShare) {
		if _, ok := p.Mean[m]; ok {
			out = append(out, m)
		}
	}
	return out
}

// WriteSummaryCSV writes the selections as tidy CSV: a header, then one line per
// dataset, method, rule and metric (the point's parameters, the metric's mean and
// population std, the number of finished and failed restarts, then scored and vertices:
// how many of the dataset's vertices the label-reading metrics score out of how many,
// empty where not recorded; see SetCoverage). Selections that chose no point are left
// out.
func WriteSummaryCSV(w io.Writer, sel []Selection) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"dataset", "method", "rule", "reads_labels", "params", "metric", "mean", "std", "n", "failed", "scored", "vertices"})
	for _, s := range sel {
		p := s.Point
		if p == nil {
			continue
		}
		for _, m := range p.metricNames() {
			cw.Write([]string{p.Dataset, p.Method, s.Rule, strconv.FormatBool(s.ReadsLabels()), FormatParams(p.Params), m,
				strconv.FormatFloat(p.Mean[m], 'g', -1, 64), strconv.FormatFloat(p.Std[m], 'g', -1, 64),
				strconv.Itoa(p.Runs), strconv.Itoa(p.Failed), count(s.Scored), count(s.Vertices)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSummaryJSON writes the selections as an indented JSON array, one object per
// selection: dataset, method, rule, reads_labels, scored and vertices (where recorded),
// and either the point's params, runs,
// failed and metrics (mean and std of each) or, where the rule chose nothing, missing
// (why).
func WriteSummaryJSON(w io.Writer, sel []Selection) error {
	type stat struct {
		Mean float64 `json:"mean"`
		Std  float64 `json:"std"`
	}
	type row struct {
		Dataset     string          `json:"dataset"`
		Method      string          `json:"method"`
		Rule        string          `json:"rule"`
		ReadsLabels bool            `json:"reads_labels"`
		Params      map[string]any  `json:"params,omitempty"`
		Runs        int             `json:"runs"`
		Failed      int             `json:"failed"`
		Metrics     map[string]stat `json:"metrics,omitempty"`
		Missing     string          `json:"missing,omitempty"`
		Scored      int             `json:"scored,omitempty"`
		Vertices    int             `json:"vertices,omitempty"`
	}
	rows := make([]row, 0, len(sel))
	for _, s := range sel {
		p := s.Point
		if p == nil {
			rows = append(rows, row{Dataset: s.Dataset, Method: s.Method, Rule: s.Rule, ReadsLabels: s.ReadsLabels(), Missing: s.Missing,
				Scored: s.Scored, Vertices: s.Vertices})
			continue
		}
		r := row{Dataset: p.Dataset, Method: p.Method, Rule: s.Rule, ReadsLabels: s.ReadsLabels(),
			Params: p.Params, Runs: p.Runs, Failed: p.Failed, Metrics: map[string]stat{}, Scored: s.Scored, Vertices: s.Vertices}
		for _, m := range p.metricNames() {
			r.Metrics[m] = stat{p.Mean[m], p.Std[m]}
		}
		rows = append(rows, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

// count writes a count for the CSV, empty where it is not known (0).
func count(c int) string {
	if c == 0 {
		return ""
	}
	return strconv.Itoa(c)
}
