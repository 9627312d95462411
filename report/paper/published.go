package paper

import (
	"bytes"
	"errors"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Dataset is one row of the paper's dataset table.
type Dataset struct {
	N              int     `yaml:"n"`
	Edges          int     `yaml:"edges"`
	Attributes     int     `yaml:"attributes"`
	K1             int     `yaml:"k1"`
	DensityPercent float64 `yaml:"density_percent"`
}

// Published holds every number a paper publishes (for NAGC the file
// configs/published-results.yaml). Map keys are dataset names in lower case and row
// names as in Spec.Rows.
type Published struct {
	// Datasets is the dataset table (table/dataset.tex).
	Datasets map[string]Dataset `yaml:"datasets"`
	// ARI maps row → dataset → [mean, std] (table/ari.tex).
	ARI map[string]map[string][]float64 `yaml:"ari"`
	// ModularityEntropy maps row → [modularity, average entropy, ARI] on the dataset of
	// Spec.Modularity (table/modularity.tex).
	ModularityEntropy map[string][]float64 `yaml:"webkb_modularity_entropy"`
	// RhoEffect maps ρ (as written in the paper) → dataset → ARI (table/q-ari.tex).
	RhoEffect map[string]map[string]float64 `yaml:"rho_effect"`
	// Runtime maps row → dataset → seconds (table/runtime.tex).
	Runtime map[string]map[string]float64 `yaml:"runtime_seconds"`
	// Grid is the parameter grid of the paper's "Parameter Settings".
	Grid struct {
		Lambda     []float64 `yaml:"lambda"`
		K2         []any     `yaml:"k2"`
		Rho        []float64 `yaml:"rho"`
		Restarts   int       `yaml:"restarts"`
		Iterations int       `yaml:"iterations"`
	} `yaml:"grid"`
	// StatedInText lists facts the paper states in its text, as prose; Spec.Stated holds
	// each as data.
	StatedInText []string `yaml:"stated_in_text"`
}

// LoadPublished reads a published-results YAML file.
func LoadPublished(path string) (*Published, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePublished(path, b)
}

// ParsePublished parses published-results YAML (file names it in errors) and checks the
// shapes of its lists: an ARI is [mean, std], a modularity-table row [modularity,
// entropy, ARI], a ρ a number.
func ParsePublished(file string, b []byte) (*Published, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, yamlError(file, err)
	}
	var p Published
	if err := root.Decode(&p); err != nil {
		return nil, yamlError(file, err)
	}
	at := func(path ...string) int { return lineOf(&root, path...) }
	for m, byDS := range p.ARI {
		for d, v := range byDS {
			if len(v) != 2 {
				return nil, errorf(file, at("ari", m, d), "ari[%q][%q]: want [mean, std], got %d numbers", m, d, len(v))
			}
		}
	}
	for m, v := range p.ModularityEntropy {
		if len(v) != 3 {
			return nil, errorf(file, at("webkb_modularity_entropy", m),
				"webkb_modularity_entropy[%q]: want [modularity, entropy, ari], got %d numbers", m, len(v))
		}
	}
	for r := range p.RhoEffect {
		if _, err := strconv.ParseFloat(r, 64); err != nil {
			return nil, errorf(file, at("rho_effect", r), "rho_effect key %q is not a number", r)
		}
	}
	return &p, nil
}

// ARIOf returns the paper's ARI mean and std of a row on a dataset.
func (p *Published) ARIOf(row, dataset string) (mean, std float64, ok bool) {
	if p == nil {
		return 0, 0, false
	}
	v, ok := p.ARI[row][strings.ToLower(dataset)]
	if !ok {
		return 0, 0, false
	}
	return v[0], v[1], true
}

// RhoOf returns the paper's ARI of the proposed row at ρ on a dataset (table/q-ari.tex).
func (p *Published) RhoOf(rho float64, dataset string) (float64, bool) {
	if p == nil {
		return 0, false
	}
	for k, byDS := range p.RhoEffect {
		if r, err := strconv.ParseFloat(k, 64); err == nil && SameFloat(r, rho) {
			v, ok := byDS[strings.ToLower(dataset)]
			return v, ok
		}
	}
	return 0, false
}

// Rhos returns the ρ values of the paper's ρ table, ascending.
func (p *Published) Rhos() []float64 {
	if p == nil {
		return nil
	}
	var out []float64
	for k := range p.RhoEffect {
		if r, err := strconv.ParseFloat(k, 64); err == nil {
			out = append(out, r)
		}
	}
	sort.Float64s(out)
	return out
}

// RuntimeOf returns the paper's runtime in seconds of a row on a dataset.
func (p *Published) RuntimeOf(row, dataset string) (float64, bool) {
	if p == nil {
		return 0, false
	}
	v, ok := p.Runtime[row][strings.ToLower(dataset)]
	return v, ok
}

// HasRuntimeRow reports whether the paper's runtime table has a row.
func (p *Published) HasRuntimeRow(row string) bool {
	if p == nil {
		return false
	}
	_, ok := p.Runtime[row]
	return ok
}

// DatasetOf returns the paper's dataset-table row of a dataset.
func (p *Published) DatasetOf(dataset string) (Dataset, bool) {
	if p == nil {
		return Dataset{}, false
	}
	v, ok := p.Datasets[strings.ToLower(dataset)]
	return v, ok
}

// SameFloat reports whether two parameter values are equal up to rounding of their
// decimal representation (a relative 1e-9).
func SameFloat(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// yamlError turns a YAML decoding error into an *Error of file (yaml.v3 names the line
// in its messages: "yaml: line 3: …").
func yamlError(file string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return &Error{File: file, Err: errors.New(strings.Join(te.Errors, "; "))}
	}
	return &Error{File: file, Err: err}
}

// lineOf returns the line of the value at a path of mapping keys in a YAML document, or
// of the deepest key found; 0 if none is.
func lineOf(doc *yaml.Node, path ...string) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}

// strictDecode decodes b into v, refusing keys v has no field for.
func strictDecode(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	return dec.Decode(v)
}
