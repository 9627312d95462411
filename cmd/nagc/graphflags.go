package main

import (
	"flag"
	"io"

	"github.com/nagc-harness/nagc/datasets"
)

// graphFlags are the flags that name a graph and say how to read it, shared by the
// commands that take one graph (cluster, auto).
type graphFlags struct {
	data *string
	readFlags
	*inputFlags
}

// readFlags say how to read a graph's files: --format, --features, --feature-layout
// and --labels.
type readFlags struct {
	format, features, featureLayout, labels *string
}

// addGraphFlags registers --data (default defaultData), the read flags (addReadFlags)
// and the input flags on fs; labelsNote is appended to --labels' help.
func addGraphFlags(fs *flag.FlagSet, defaultData, labelsNote string) *graphFlags {
	return &graphFlags{
		data:       fs.String("data", defaultData, "the graph: webkb, citeseer, cora, polblog, synthetic, synthetic:SHAPE (arxiv, products, …; see nagc datasets synth), or a folder or file (LINQS folder, edge list, .mtx, .npz, OGB dataset folder)"),
		readFlags:  addReadFlags(fs, labelsNote),
		inputFlags: addInputFlags(fs),
	}
}

// addReadFlags registers --format, --features, --feature-layout and --labels on fs;
// labelsNote is appended to --labels' help.
func addReadFlags(fs *flag.FlagSet, labelsNote string) readFlags {
	return readFlags{
		format:        fs.String("format", "", "the graph's format: linqs, edgelist, mtx, npz (attr_matrix dense or attr_* sparse) or ogb (an OGB dataset folder with raw/edge.csv.gz, node-feat.csv.gz, …) (default: from the path)"),
		features:      fs.String("features", "", "feature file of an edge list (text, or a NumPy .npy array whose row i is vertex i, kept dense) or of a Matrix Market adjacency (default: features.* in the folder --data names; none for an edge or .mtx file named itself)"),
		featureLayout: fs.String("feature-layout", "", "layout of an edge list's feature file: dense (id, then one value per column; the default), sparse (id, column, value triplets) or rows (no id column: line i is vertex i−1, as np.savetxt(X) writes)"),
		labels:        fs.String("labels", "", "where the classes are: none, column, or a file of 'id label' lines (default: the format's)"+labelsNote),
	}
}

// spec returns the dataset the flags name (a --labels value other than none, column or
// file names a label file).
func (f *graphFlags) spec() datasets.Spec { return f.readFlags.spec(*f.data, *f.allowDropped) }

// spec returns how to read the graph at path.
func (f readFlags) spec(path string, allowDropped bool) datasets.Spec {
	spec := datasets.Spec{Path: path, Format: *f.format, Features: *f.features, FeatureLayout: *f.featureLayout,
		Labels: *f.labels, AllowDropped: allowDropped}
	switch *f.labels {
	case "", datasets.LabelsNone, datasets.LabelsColumn, datasets.LabelsFile:
	default:
		spec.Labels, spec.LabelFile = datasets.LabelsFile, *f.labels
	}
	return spec
}

// given reports whether any read flag was set.
func (f readFlags) given() bool {
	return *f.format != "" || *f.features != "" || *f.featureLayout != "" || *f.labels != ""
}

// load reads the graph the flags name, after applying --max-memory, and prints the
// reader's report on stderr (unless --quiet).
func (f *graphFlags) load(stderr io.Writer) (*datasets.Graph, *datasets.LoadReport, error) {
	if err := f.apply(); err != nil {
		return nil, nil, err
	}
	g, rep, err := datasets.LoadSpec(f.spec())
	if err != nil {
		return nil, nil, err
	}
	if rep == nil {
		rep = datasets.NewLoadReport(g, "synthetic")
	}
	f.report(stderr, rep)
	return g, rep, nil
}
