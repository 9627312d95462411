package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/nagc-harness/nagc/experiments"
)

// GridFile is the CSV file holding every grid point of the results.
const GridFile = "grid.csv"

// paramKeys returns every parameter name of the results' grid points, sorted.
func (r *Results) paramKeys() []string {
	var keys []string
	for _, p := range r.Points {
		for k := range p.Params {
			keys = appendNew(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// WriteGridCSV writes every grid point of the results as tidy CSV, one line per dataset,
// row, grid point and metric: the point's parameters (one column each, empty where a row
// has no such parameter, then all of them as text), the metric, its mean and population
// std over the finished restarts, their number n and the number of failed ones. A grid
// point whose restarts all failed has one line with an empty metric. Fit time is the
// metric "fit_seconds" and the final objective "final_objective".
func WriteGridCSV(w io.Writer, r *Results) error {
	keys := r.paramKeys()
	cw := csv.NewWriter(w)
	head := append([]string{"dataset", "method"}, keys...)
	head = append(head, "params", "metric", "mean", "std", "n", "failed")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, d := range r.Datasets {
		for _, method := range r.Methods {
			for _, p := range r.PointsOf(d, method) {
				fields := []string{d, method}
				for _, k := range keys {
					v, ok := p.Params[k]
					if !ok {
						fields = append(fields, "")
						continue
					}
					fields = append(fields, fmt.Sprint(v))
				}
				fields = append(fields, ParamString(p.Params))
				line := func(metric string, mean, std float64) error {
					return cw.Write(append(append([]string{}, fields...), metric, num(mean), num(std),
						strconv.Itoa(p.Runs), strconv.Itoa(p.Failed)))
				}
				if p.Runs == 0 {
					if err := line("", math.NaN(), math.NaN()); err != nil {
						return err
					}
					continue
				}
				names := make([]string, 0, len(p.Mean))
				for m := range p.Mean {
					names = append(names, m)
				}
				sort.Strings(names)
				for _, m := range names {
					if err := line(m, p.Mean[m], p.Std[m]); err != nil {
						return err
					}
				}
				fm, fs := experiments.MeanStd(fitTimes(p))
				if err := line("fit_seconds", fm, fs); err != nil {
					return err
				}
				if om, os, ok := ruleMeasure(experiments.SelectObjective).get(p); ok {
					if err := line("final_objective", om, os); err != nil {
						return err
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
