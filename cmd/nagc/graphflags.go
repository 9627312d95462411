package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/nagc-harness/nagc/datasets"
)

// graphFlags are the flags that name a graph and say how to read it, shared by the
// commands that take one graph (cluster, auto).
type graphFlags struct {
	data, format, features, featureLayout, labels *string
}

// addGraphFlags registers --data (default defaultData), --format, --features,
// --feature-layout and --labels on fs; labelsNote is appended to --labels' help.
func addGraphFlags(fs *flag.FlagSet, defaultData, labelsNote string) *graphFlags {
	return &graphFlags{
		data:          fs.String("data", defaultData, "the graph: webkb, citeseer, cora, polblog, synthetic, or a folder or file (LINQS folder, edge list, .mtx, .npz)"),
		format:        fs.String("format", "", "the graph's format: linqs, edgelist, mtx or npz (default: from the path)"),
		features:      fs.String("features", "", "feature file of an edge list or Matrix Market adjacency (default: features.* beside it)"),
		featureLayout: fs.String("feature-layout", "", "layout of an edge list's feature file: dense (id, then one value per column; the default) or sparse (id, column, value triplets)"),
		labels:        fs.String("labels", "", "where the classes are: none, column, or a file of 'id label' lines (default: the format's)"+labelsNote),
	}
}

// load reads the graph the flags name (a --labels value other than none, column or file
// names a label file), printing the reader's warnings to stderr.
func (f *graphFlags) load(stderr io.Writer) (*datasets.Graph, error) {
	spec := datasets.Spec{Path: *f.data, Format: *f.format, Features: *f.features, FeatureLayout: *f.featureLayout, Labels: *f.labels}
	switch *f.labels {
	case "", datasets.LabelsNone, datasets.LabelsColumn, datasets.LabelsFile:
	default:
		spec.Labels, spec.LabelFile = datasets.LabelsFile, *f.labels
	}
	g, rep, err := datasets.LoadSpec(spec)
	if err != nil {
		return nil, err
	}
	if rep != nil {
		for _, w := range rep.Warnings {
			fmt.Fprintf(stderr, "warning: %s: %s\n", g.Name, w)
		}
	}
	return g, nil
}
