package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
)

// CaseSpec says which graphs nagc bench times.
type CaseSpec struct {
	// Data names graphs, comma-separated (names, or files and folders as datasets.Spec
	// reads them); "none" for none.
	Data string
	// DataGiven makes a graph of Data that cannot be read an error; otherwise it is
	// skipped (the default list, the paper's four, where some are missing).
	DataGiven bool
	// Sizes are the vertex counts of the synthetic growth series, comma-separated; "none"
	// for none.
	Sizes string
	// Shape is a planted graph's shape (ShapeCase); "" for none.
	Shape string
	// AllowDropped reads graphs whose files drop more lines than datasets allows.
	AllowDropped bool
	// Read, when set, says how to read the graph of Data at path (its format, feature
	// and label files); by default only the path and AllowDropped are given.
	Read func(path string) datasets.Spec
	// Loaded is given the load report of each graph of Data read, Skipped each one
	// skipped and why; either may be nil.
	Loaded  func(*datasets.LoadReport)
	Skipped func(name string, err error)
}

// Cases returns the graphs s names: the datasets of Data, the synthetic series of Sizes
// (SyntheticSeries, seed 1) and the planted graph of Shape, in that order. It is an error
// when none is left.
func Cases(s CaseSpec) ([]Case, error) {
	var cases []Case
	if s.Data != "none" {
		for _, name := range strings.Split(s.Data, ",") {
			spec := datasets.Spec{Path: strings.TrimSpace(name), AllowDropped: s.AllowDropped}
			if s.Read != nil {
				spec = s.Read(spec.Path)
			}
			g, rep, err := datasets.LoadSpec(spec)
			if err != nil && s.DataGiven {
				return nil, fmt.Errorf("--data %s: %w", name, err)
			}
			if err != nil {
				if s.Skipped != nil {
					s.Skipped(name, err)
				}
				continue
			}
			if s.Loaded != nil && rep != nil {
				s.Loaded(rep)
			}
			cases = append(cases, Case{Name: g.Name, Graph: g})
		}
	}
	if s.Sizes != "none" {
		var ns []int
		for _, f := range strings.Split(s.Sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 10 {
				return nil, fmt.Errorf("--sizes: %q is not a vertex count ≥ 10", f)
			}
			ns = append(ns, n)
		}
		series, err := SyntheticSeries(ns, 1)
		if err != nil {
			return nil, err
		}
		cases = append(cases, series...)
	}
	if s.Shape != "" {
		c, err := ShapeCase(s.Shape)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("nothing to time")
	}
	return cases, nil
}
