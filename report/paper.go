package report

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/configs"
)

// PaperMethods lists the rows of the paper's ARI table in its order. Tables list these
// first, then any other method of the results (marked "not in the paper").
var PaperMethods = []string{"Prop.", "Prop. (w/o PU)", "Prop.*", "JWNMF", "JWNMF*", "BAGC", "METIS", "SNMF", "NMF", "k-means"}

// PaperRows maps the rows of configs/paper.yaml that are not rows of the paper's tables
// but are compared with one of them to that row: "Prop. (authors' init)" runs Prop. with
// the authors' own initialisation (kmeans-median-ari, which reads the labels), the
// protocol behind the paper's Prop. numbers, so that initialisation effects and
// implementation effects can be told apart.
var PaperRows = map[string]string{"Prop. (authors' init)": PropMethod}

// ReadsLabels reports whether some recorded run of a method read the ground-truth labels
// to cluster (NAGC's kmeans-median-ari initialisation): whatever rule then selects its
// grid point, its numbers are not label-free.
func (r *Results) ReadsLabels(method string) bool {
	for _, d := range r.Datasets {
		for _, p := range r.PointsOf(d, method) {
			if algorithms.ReadsLabels(p.Params) {
				return true
			}
		}
	}
	return false
}

// PaperDatasets lists the datasets of the paper in the order of its tables.
var PaperDatasets = []string{"webkb", "citeseer", "cora", "polblog"}

// PropMethod is the display name of NAGC with k-means initialisation, the row the paper's
// λ, k2 and ρ studies are about.
const PropMethod = "Prop."

// PaperDataset is one row of the paper's dataset table.
type PaperDataset struct {
	N              int     `yaml:"n"`
	Edges          int     `yaml:"edges"`
	Attributes     int     `yaml:"attributes"`
	K1             int     `yaml:"k1"`
	DensityPercent float64 `yaml:"density_percent"`
}

// Published holds every number the paper publishes (the file
// configs/published-results.yaml). Map keys are dataset names in lower case and method
// display names as in PaperMethods.
type Published struct {
	// Datasets is the dataset table (table/dataset.tex).
	Datasets map[string]PaperDataset `yaml:"datasets"`
	// ARI maps method → dataset → [mean, std] (table/ari.tex).
	ARI map[string]map[string][]float64 `yaml:"ari"`
	// ModularityEntropy maps method → [modularity, average entropy, ARI] on WebKB
	// (table/modularity.tex).
	ModularityEntropy map[string][]float64 `yaml:"webkb_modularity_entropy"`
	// RhoEffect maps ρ (as written in the paper) → dataset → ARI (table/q-ari.tex).
	RhoEffect map[string]map[string]float64 `yaml:"rho_effect"`
	// Runtime maps method → dataset → seconds (table/runtime.tex).
	Runtime map[string]map[string]float64 `yaml:"runtime_seconds"`
	// Grid is the parameter grid of the paper's "Parameter Settings".
	Grid struct {
		Lambda     []float64 `yaml:"lambda"`
		K2         []any     `yaml:"k2"`
		Rho        []float64 `yaml:"rho"`
		Restarts   int       `yaml:"restarts"`
		Iterations int       `yaml:"iterations"`
	} `yaml:"grid"`
	// StatedInText lists facts the paper states in its text (mostly about its figures,
	// which are not available as images).
	StatedInText []string `yaml:"stated_in_text"`
}

// DefaultPublished returns the paper's numbers embedded in the binary (a copy of
// configs/published-results.yaml).
func DefaultPublished() (*Published, error) {
	return ParsePublished(configs.PublishedResults)
}

// LoadPublished reads a published-results YAML file.
func LoadPublished(path string) (*Published, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := ParsePublished(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ParsePublished parses published-results YAML and checks the shapes of its lists.
func ParsePublished(b []byte) (*Published, error) {
	var p Published
	if err := yaml.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("published results: %w", err)
	}
	for m, byDS := range p.ARI {
		for d, v := range byDS {
			if len(v) != 2 {
				return nil, fmt.Errorf("published results: ari[%q][%q]: want [mean, std], got %d numbers", m, d, len(v))
			}
		}
	}
	for m, v := range p.ModularityEntropy {
		if len(v) != 3 {
			return nil, fmt.Errorf("published results: webkb_modularity_entropy[%q]: want [modularity, entropy, ari], got %d numbers", m, len(v))
		}
	}
	for r := range p.RhoEffect {
		if _, err := strconv.ParseFloat(r, 64); err != nil {
			return nil, fmt.Errorf("published results: rho_effect key %q is not a number", r)
		}
	}
	return &p, nil
}

// PaperARI returns the paper's ARI mean and std of a method on a dataset.
func (p *Published) PaperARI(method, dataset string) (mean, std float64, ok bool) {
	if p == nil {
		return 0, 0, false
	}
	v, ok := p.ARI[method][strings.ToLower(dataset)]
	if !ok {
		return 0, 0, false
	}
	return v[0], v[1], true
}

// PaperRho returns the paper's ARI of Prop. at ρ on a dataset (table/q-ari.tex).
func (p *Published) PaperRho(rho float64, dataset string) (float64, bool) {
	if p == nil {
		return 0, false
	}
	for k, byDS := range p.RhoEffect {
		if r, err := strconv.ParseFloat(k, 64); err == nil && sameFloat(r, rho) {
			v, ok := byDS[strings.ToLower(dataset)]
			return v, ok
		}
	}
	return 0, false
}

// PaperRhos returns the ρ values of the paper's ρ table, ascending.
func (p *Published) PaperRhos() []float64 {
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

// PaperRuntime returns the paper's runtime in seconds of a method on a dataset.
func (p *Published) PaperRuntime(method, dataset string) (float64, bool) {
	if p == nil {
		return 0, false
	}
	v, ok := p.Runtime[method][strings.ToLower(dataset)]
	return v, ok
}

// PaperDatasetRow returns the paper's dataset-table row of a dataset.
func (p *Published) PaperDatasetRow(dataset string) (PaperDataset, bool) {
	if p == nil {
		return PaperDataset{}, false
	}
	v, ok := p.Datasets[strings.ToLower(dataset)]
	return v, ok
}

// InPaper reports whether method is a row of the paper's ARI table.
func InPaper(method string) bool {
	for _, m := range PaperMethods {
		if m == method {
			return true
		}
	}
	return false
}

// Mark is a fact the paper states about one of its figures, to be drawn on the
// reproduced figure: a vertical line at X, and a point at (X, Y) when Y is not NaN.
type Mark struct {
	X, Y float64
	// Rho is the ρ the statement is about, NaN if none.
	Rho float64
	// Label describes the mark in a legend, e.g. "paper's peak: λ = 1e-4".
	Label string
}

var (
	numOnDataset = regexp.MustCompile(`([0-9][0-9.eE+-]*) on ([A-Za-z]+)`)
	k2Equals     = regexp.MustCompile(`k2\s*=\s*([0-9]+)`)
	rhoEquals    = regexp.MustCompile(`rho\s*=\s*([0-9.]+)`)
	almostValue  = regexp.MustCompile(`almost ([0-9.]+)`)
)

// StatedMarks extracts from the paper's stated facts (Published.StatedInText) the marks of
// its λ and k2 figures: param ("lambda" or "k2") → dataset (lower case) → mark. Statements
// it does not understand are ignored. For the paper's text it gives λ peaks at 1e-4
// (WebKB) and 1e-2 (Cora), "ARI ≈ 1.0 at k2 = 20" on WebKB and a k2 peak at 10 (ρ = 0.95)
// on Cora.
func StatedMarks(stated []string) map[string]map[string]Mark {
	out := map[string]map[string]Mark{"lambda": {}, "k2": {}}
	for _, s := range stated {
		head, body, ok := strings.Cut(s, ":")
		if !ok {
			continue
		}
		head = strings.ToLower(strings.TrimSpace(head))
		switch {
		case strings.HasPrefix(head, "lambda peak"):
			for _, m := range numOnDataset.FindAllStringSubmatch(body, -1) {
				x, err := strconv.ParseFloat(m[1], 64)
				if err != nil {
					continue
				}
				out["lambda"][strings.ToLower(m[2])] = Mark{X: x, Y: math.NaN(), Rho: math.NaN(),
					Label: "paper's peak: λ = " + m[1]}
			}
		case head == "k2":
			for _, clause := range strings.Split(body, ";") {
				clause = strings.TrimSpace(clause)
				k := k2Equals.FindStringSubmatch(clause)
				fields := strings.Fields(clause)
				if k == nil || len(fields) == 0 {
					continue
				}
				x, _ := strconv.ParseFloat(k[1], 64)
				mk := Mark{X: x, Y: math.NaN(), Rho: math.NaN(), Label: "paper's peak: k2 = " + k[1]}
				if r := rhoEquals.FindStringSubmatch(clause); r != nil {
					mk.Rho, _ = strconv.ParseFloat(r[1], 64)
					mk.Label += " (ρ = " + r[1] + ")"
				}
				if a := almostValue.FindStringSubmatch(clause); a != nil {
					mk.Y, _ = strconv.ParseFloat(a[1], 64)
					mk.Label = "paper: ARI ≈ " + a[1] + " at k2 = " + k[1]
				}
				out["k2"][strings.ToLower(strings.Trim(fields[0], ",.:"))] = mk
			}
		}
	}
	return out
}

// StatedFor returns the stated facts that mention a figure ("0_lambda", "0_k2") or start
// with a topic word, for printing beside a reproduced figure.
func StatedFor(stated []string, keys ...string) []string {
	var out []string
	for _, s := range stated {
		for _, k := range keys {
			if strings.Contains(s, k) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// sameFloat reports whether two parameter values are equal up to rounding of their
// decimal representation.
func sameFloat(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}
