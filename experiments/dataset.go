package experiments

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/suggest"
)

// DatasetEntry is one dataset of a config: either a bare string (a name such as cora or
// synthetic, found as datasets.Locate finds it, or a path to a folder or file), or a
// mapping with the keys
//
//	name:           the dataset's name in records and reports (default: the string, or
//	                the base name of path)
//	path:           folder or file (relative paths are taken from the config's folder)
//	format:         linqs, edgelist, mtx, npz or ogb (default: from the path)
//	features:       an edge list's or Matrix Market adjacency's feature file
//	feature_layout: dense, sparse or rows (edge-list features)
//	labels:         none, column or file (default: the format's)
//	label_file:     the labels file for labels: file
//	allow_dropped:  true to read the graph even when more than 1 % of its edge or
//	                label lines name ids that are not vertices (by default an error)
//	k1:             the number of clusters, required for a graph without labels
//	synthetic:      instead of path, a planted graph of a given shape (datasets.Shape):
//	                {shape: arxiv, n: 20000, edges: …, degree: …, m: …, k: …,
//	                homophily: …, attributes: dense|sparse, noise: …, seed: …}, every key
//	                optional but shape (or n, edges, m, k); the bare string
//	                synthetic:arxiv names one too
type DatasetEntry struct {
	Name          string `yaml:"name"`
	Path          string `yaml:"path"`
	Format        string `yaml:"format"`
	Features      string `yaml:"features"`
	FeatureLayout string `yaml:"feature_layout"`
	Labels        string `yaml:"labels"`
	LabelFile     string `yaml:"label_file"`
	AllowDropped  bool   `yaml:"allow_dropped"`
	K1            int    `yaml:"k1"`
	// Synthetic, when set, is the planted graph the entry stands for (Path is then its
	// dataset name, Shape.String()).
	Synthetic *datasets.Shape `yaml:"synthetic"`

	// Line is the entry's line in the config.
	Line int `yaml:"-"`
}

// datasetKeys lists the keys of a dataset mapping.
var datasetKeys = yamlFieldNames(reflect.TypeFor[DatasetEntry]())

// UnmarshalYAML reads a bare string as a name or path, or a mapping of the keys above.
func (d *DatasetEntry) UnmarshalYAML(n *yaml.Node) error {
	d.Line = n.Line
	switch n.Kind {
	case yaml.ScalarNode:
		var s string
		if err := n.Decode(&s); err != nil {
			return err
		}
		if isPathLike(s) {
			d.Path = s
		} else {
			d.Name, d.Path = s, s
		}
		return nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i].Value; !contains(datasetKeys, k) {
				return fmt.Errorf("line %d: unknown dataset key '%s'%s (keys: %s)", n.Content[i].Line, k,
					suggest.DidYouMean(k, datasetKeys), strings.Join(datasetKeys, ", "))
			}
		}
		type plain DatasetEntry
		var p plain
		if err := n.Decode(&p); err != nil {
			return err
		}
		*d = DatasetEntry(p)
		d.Line = n.Line
		if d.Synthetic != nil {
			if d.Path != "" {
				return fmt.Errorf("line %d: a dataset has a path or a synthetic block, not both", n.Line)
			}
			s, err := d.Synthetic.Resolved()
			if err != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
			d.Path = s.String()
			if d.Name == "" {
				d.Name = "synthetic:" + s.Name
				if s.Name == "" {
					d.Name = "synthetic"
				}
			}
		}
		if d.Path == "" {
			d.Path = d.Name
		}
		if d.Name == "" && !isPathLike(d.Path) {
			d.Name = d.Path
		}
		return nil
	}
	return fmt.Errorf("line %d: a dataset is a name, a path, or a mapping with name, path, format, labels, …", n.Line)
}

// isPathLike reports whether s names a file or folder rather than a dataset name: it has
// a path separator or a file extension of a format Open reads.
func isPathLike(s string) bool {
	if datasets.IsShapeName(s) {
		return false
	}
	if strings.ContainsAny(s, `/\`) || filepath.IsAbs(s) {
		return true
	}
	return datasets.FileFormat(s) != ""
}

// displayName returns the dataset's name in records and reports: Name, else the base name
// of Path (a file's without its extension).
func (d DatasetEntry) displayName() string {
	if d.Name != "" {
		return d.Name
	}
	base := filepath.Base(filepath.Clean(d.Path))
	if ext := filepath.Ext(strings.TrimSuffix(base, ".gz")); ext != "" && isPathLike(base) {
		base = strings.TrimSuffix(strings.TrimSuffix(base, ".gz"), ext)
	}
	return base
}

// Spec returns the entry as datasets.LoadSpec reads it, with relative paths taken from
// the folder of configFile: a path that exists there is that file or folder; a bare name
// that does not is left for datasets.Locate (the paper's graphs, $NAGC_DATA, …).
func (d DatasetEntry) Spec(configFile string) datasets.Spec {
	dir := filepath.Dir(configFile)
	resolve := func(p string) string {
		if p == "" || filepath.IsAbs(p) || p == "synthetic" || datasets.IsShapeName(p) {
			return p
		}
		if q := filepath.Join(dir, p); isPathLike(p) || exists(q) {
			return q
		}
		return p
	}
	return datasets.Spec{
		Name: d.displayName(), Path: resolve(d.Path), Format: d.Format,
		Features: resolve(d.Features), FeatureLayout: d.FeatureLayout,
		Labels: d.Labels, LabelFile: resolve(d.LabelFile), AllowDropped: d.AllowDropped,
	}
}

// LoadedDataset is a config's dataset read from disk.
type LoadedDataset struct {
	Name     string          // display name (DatasetEntry.displayName)
	Identity string          // what run ids and seeds derive from (datasets.Identity)
	K1       int             // number of clusters: the entry's k1, else the number of classes
	Graph    *datasets.Graph // the graph
	Report   *datasets.LoadReport
	Spec     datasets.Spec // how it was read, paths resolved
}

// loadDataset reads dataset entry d of the config read from configFile: its graph, its
// identity (the name a config gives it enters only when the entry has a name key of its
// own, see datasets.Identity) and its number of clusters (a missing or impossible k1 is
// a *ConfigError naming the entry's line). Cost: reading the files, plus
// one fingerprint of the graph.
func loadDataset(d DatasetEntry, configFile string) (*LoadedDataset, error) {
	spec := d.Spec(configFile)
	g, rep, err := datasets.LoadSpec(spec)
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(spec.Path); err == nil && spec.Path != "synthetic" && !datasets.IsShapeName(spec.Path) && isPathLike(spec.Path) {
		spec.Path = abs
	}
	given := ""
	if d.Name != "" && d.Name != d.Path {
		given = d.Name
	}
	ld := &LoadedDataset{Name: d.displayName(), Identity: datasets.Identity(g, given), K1: d.K1,
		Graph: g, Report: rep, Spec: spec}
	if ld.K1 == 0 {
		ld.K1 = g.K()
	}
	if ld.K1 == 0 {
		return nil, &ConfigError{File: configFile, Line: d.Line, Key: "k1",
			Msg: fmt.Sprintf("dataset %s has no labels to count its classes from: give its number of clusters in its entry, as {path: %s, k1: 5}", ld.Name, d.Path)}
	}
	if ld.K1 > g.N() {
		return nil, &ConfigError{File: configFile, Line: d.Line, Key: "k1",
			Msg: fmt.Sprintf("dataset %s: k1 = %d clusters for its %d vertices: the number of clusters must be at most the number of vertices", ld.Name, ld.K1, g.N())}
	}
	return ld, nil
}

// exists reports whether path names an existing file or folder.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// loadDatasets reads every dataset of cfg (see loadDataset), in config order. A dataset
// that cannot be read does not stop the others: the error holds every dataset's fault.
func loadDatasets(cfg *Config) ([]*LoadedDataset, error) {
	var loaded []*LoadedDataset
	var errs []error
	for _, d := range cfg.Datasets {
		ld, err := loadDataset(d, cfg.File)
		var ce *ConfigError
		switch {
		case errors.As(err, &ce):
			errs = append(errs, err) // it names the file, line and dataset
		case err != nil:
			errs = append(errs, fmt.Errorf("dataset %s: %w", d.displayName(), err))
		default:
			loaded = append(loaded, ld)
		}
	}
	if err := joinConfigErrors(errs...); err != nil {
		return nil, err
	}
	return loaded, nil
}
