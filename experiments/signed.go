package experiments

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
)

// refuseSignedAttributes returns an error, before anything runs, for every row with runs
// on a dataset whose attributes hold a negative value (embeddings) that the row's method
// refuses (algorithms.NeedsNonNegativeAttributes: NAGC and NMF without a non-negative
// transform), naming the config's line of the row, the dataset, the first negative
// entry and the transforms that let the row run; nil when there is none. Each dataset's
// attributes are scanned once, and only when some run on it needs them non-negative.
// Cost O(runs) plus O(n·m) (dense) or O(nnz) (sparse) per such dataset.
func (c *Config) refuseSignedAttributes(loaded []*LoadedDataset, runs []Run) error {
	graphs := map[string]*datasets.Graph{}
	for _, ld := range loaded {
		graphs[ld.Name] = ld.Graph
	}
	needs := map[string]bool{} // by algorithm and canonical options
	signed := map[string]string{}
	type refusal struct {
		row, dataset, algorithm, where string
		transforms                     []string // the row's values of transform that fail
	}
	var refusals []*refusal
	refused := map[[2]string]*refusal{} // by dataset and row
	for _, r := range runs {
		key := r.Algorithm + "\x00" + canonicalParams(r.Params)
		need, seen := needs[key]
		if !seen {
			m, err := algorithms.New(r.Algorithm, r.Params)
			need = err == nil && algorithms.NeedsNonNegativeAttributes(m)
			needs[key] = need
		}
		if !need {
			continue
		}
		where, ok := signed[r.Dataset]
		if !ok {
			where = firstNegativeAttribute(graphs[r.Dataset])
			signed[r.Dataset] = where
		}
		if where == "" {
			continue
		}
		t, _ := r.Params["transform"].(string)
		if t == "" {
			t = algorithms.TransformNone
		}
		for _, row := range r.Methods {
			f := refused[[2]string{r.Dataset, row}]
			if f == nil {
				f = &refusal{row: row, dataset: r.Dataset, algorithm: r.Algorithm, where: where}
				refused[[2]string{r.Dataset, row}] = f
				refusals = append(refusals, f)
			}
			if !slices.Contains(f.transforms, t) {
				f.transforms = append(f.transforms, t)
			}
		}
	}
	errs := make([]error, len(refusals))
	for i, f := range refusals {
		errs[i] = c.signedRowError(f.row, f.dataset, f.algorithm, f.where, f.transforms)
	}
	return errors.Join(errs...)
}

// signedRowError is the refusal of row (of method algorithm) on dataset, whose first
// negative attribute is where, with the given values of transform.
func (c *Config) signedRowError(row, dataset, algorithm, where string, transforms []string) error {
	line := 0
	for _, m := range c.Methods {
		if m.Name.Value == row && (len(m.Datasets) == 0 || hasPos(m.Datasets, dataset)) {
			line = m.Name.Line
			break
		}
	}
	ts := algorithms.NonNegativeTransforms
	return c.errf(line, "name", "row %q cannot run on dataset %s with transform %s: its attributes have negative values (%s), which %s refuses; "+
		"give the row the option transform: %s or %s (split keeps both signs, in 2m columns), e.g. options: {transform: split} or grid: {transform: [%s]}, "+
		"or restrict the row to other datasets (datasets: […])",
		row, dataset, strings.Join(transforms, ", "), where, algorithm, strings.Join(ts[:len(ts)-1], ", "), ts[len(ts)-1], strings.Join(ts, ", "))
}

// firstNegativeAttribute describes the first negative attribute of g ("the first at
// vertex i, column j"), or returns "" when g has none.
func firstNegativeAttribute(g *datasets.Graph) string {
	if g == nil {
		return ""
	}
	switch x, d := g.StoredX(); {
	case d != nil:
		if i, j, bad := d.FirstNegative(); bad && d.At(i, j) < 0 {
			return fmt.Sprintf("the first at vertex %d, column %d", i, j)
		}
	case x != nil:
		n, _ := x.Dims()
		for i := 0; i < n; i++ {
			cols, vals := x.Row(i)
			if p := slices.IndexFunc(vals, func(v float64) bool { return v < 0 }); p >= 0 {
				return fmt.Sprintf("the first at vertex %d, column %d", i, cols[p])
			}
		}
	}
	return ""
}
