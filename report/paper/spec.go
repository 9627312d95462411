package paper

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Spec is how a sweep is set beside a paper (for NAGC the file
// configs/paper-comparison.yaml): everything the report needs besides the numbers.
type Spec struct {
	// Name is the paper's short name ("NAGC") and Title its title.
	Name  string `yaml:"name"`
	Title string `yaml:"title"`
	// Datasets are the datasets of the paper's tables (lower case), in their order.
	Datasets []string `yaml:"datasets"`
	// Rows are the rows of the paper's tables, in their order.
	Rows []string `yaml:"rows"`
	// Proposed is the row the paper's parameter studies are about.
	Proposed string `yaml:"proposed"`
	// ComparedWith maps recorded rows that are not rows of the paper to the paper's row
	// they are compared with.
	ComparedWith map[string]string `yaml:"compared_with"`
	// Headings are the headings of the paper's tables and figures in the report, by the
	// report's name of each (layout, datasets, ari, modularity, lambda, k2, rho, runtime);
	// one not given is the table's title (Heading).
	Headings map[string]string `yaml:"headings"`
	// Layout is the paper's figure of clusterings drawn on a graph layout.
	Layout Layout `yaml:"layout"`
	// Modularity is the paper's table of modularity, entropy and ARI on one dataset.
	Modularity struct {
		Dataset string   `yaml:"dataset"`
		Metrics []string `yaml:"metrics"`
	} `yaml:"modularity"`
	// Stated are the statements of the paper's text.
	Stated []Statement `yaml:"stated"`
	// SpeedClaims are the paper's statements about the runtimes of two of its rows.
	SpeedClaims []SpeedClaim `yaml:"speed_claims"`
	// RuntimeNotes are printed under the runtime table.
	RuntimeNotes []string `yaml:"runtime_notes"`
}

// Layout is a figure of the clusterings of some rows drawn on a layout of one graph.
type Layout struct {
	// Figure names the paper's figure in notes ("Fig. 1 (WebKB layout)").
	Figure  string   `yaml:"figure"`
	Dataset string   `yaml:"dataset"`
	Rows    []string `yaml:"rows"`
	// Stated is what the paper's caption and text say about the figure.
	Stated string `yaml:"stated"`
}

// Statement is one statement of the paper's text, as data.
type Statement struct {
	// Text is the statement as written in published-results.yaml's stated_in_text.
	Text string `yaml:"text"`
	// Figure is the parameter whose figure the statement is about ("lambda", "k2"), ""
	// for a statement about no figure.
	Figure string `yaml:"figure"`
	// Marks are what it states on that figure, per dataset.
	Marks []Mark `yaml:"marks"`
	// Setting is a parameter setting it names (values as the paper writes them; "k1"
	// is the dataset's number of classes), checked against the proposed row's runs.
	Setting map[string]string `yaml:"setting"`
	// Datasets restricts the setting to these datasets (none: every dataset).
	Datasets []string `yaml:"datasets"`
	// Measured is what the paper measured at the setting ("ARI 0.994, …").
	Measured string `yaml:"measured"`
}

// Mark is a fact the paper states about one of its figures on a dataset, drawn on the
// reproduced figure: a vertical line at X (a stated peak), or a point at (X, Y) (a
// stated value), at the stated ρ if any.
type Mark struct {
	Dataset string   `yaml:"dataset"`
	X       float64  `yaml:"x"`
	Y       *float64 `yaml:"y"`
	Rho     *float64 `yaml:"rho"`
	// Label describes the mark in a legend, e.g. "paper's peak: λ = 1e-4".
	Label string `yaml:"label"`
}

// YOrNaN returns the stated value, NaN for a stated peak.
func (m Mark) YOrNaN() float64 { return orNaN(m.Y) }

// RhoOrNaN returns the stated ρ, NaN if none is stated.
func (m Mark) RhoOrNaN() float64 { return orNaN(m.Rho) }

func orNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// SpeedClaim is one of the paper's statements about the runtimes of two of its rows.
type SpeedClaim struct {
	// Claim quotes the paper.
	Claim string `yaml:"claim"`
	// Faster and Slower are the rows the claim says are faster and slower.
	Faster string `yaml:"faster"`
	Slower string `yaml:"slower"`
	// Datasets restricts the claim (none: every dataset).
	Datasets []string `yaml:"datasets"`
	// Why says why the claim holds or not with this implementation.
	Why string `yaml:"why"`
}

// LoadSpec reads a comparison spec file (ParseSpec).
func LoadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSpec(path, b)
}

// ParseSpec parses a comparison spec (file names it in errors) and checks it: a name,
// datasets and rows; the proposed row and every row compared with one among the rows;
// every statement with a text, its marks with a dataset, a label and a figure; every
// speed claim with a quote, two rows and a reason.
func ParseSpec(file string, b []byte) (*Spec, error) {
	var s Spec
	if err := strictDecode(b, &s); err != nil {
		return nil, yamlError(file, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, yamlError(file, err)
	}
	at := func(path ...string) int { return lineOf(&root, path...) }
	item := func(list string, i int) int { return itemLine(&root, list, i) }
	switch {
	case s.Name == "":
		return nil, errorf(file, 0, "no name")
	case len(s.Datasets) == 0:
		return nil, errorf(file, at("datasets"), "no datasets: list the datasets of the paper's tables")
	case len(s.Rows) == 0:
		return nil, errorf(file, at("rows"), "no rows: list the rows of the paper's tables")
	case !slices.Contains(s.Rows, s.Proposed):
		return nil, errorf(file, at("proposed"), "proposed: %q is not one of the rows", s.Proposed)
	}
	for i, d := range s.Datasets {
		if d != strings.ToLower(d) {
			return nil, errorf(file, at("datasets"), "datasets[%d]: write %q in lower case", i, d)
		}
	}
	for row, to := range s.ComparedWith {
		if !slices.Contains(s.Rows, to) {
			return nil, errorf(file, at("compared_with", row), "compared_with[%q]: %q is not one of the rows", row, to)
		}
		if slices.Contains(s.Rows, row) {
			return nil, errorf(file, at("compared_with", row), "compared_with[%q]: a row of the paper is compared with itself", row)
		}
	}
	for i, st := range s.Stated {
		where := fmt.Sprintf("stated[%d]", i)
		switch {
		case strings.TrimSpace(st.Text) == "":
			return nil, errorf(file, item("stated", i), "%s: no text", where)
		case len(st.Marks) > 0 && st.Figure == "":
			return nil, errorf(file, item("stated", i), "%s: marks need the figure they are drawn on (figure: lambda or k2)", where)
		}
		for _, m := range st.Marks {
			if m.Dataset == "" || m.Label == "" {
				return nil, errorf(file, item("stated", i), "%s: a mark needs a dataset and a label", where)
			}
		}
	}
	for i, c := range s.SpeedClaims {
		if c.Claim == "" || c.Faster == "" || c.Slower == "" || c.Why == "" {
			return nil, errorf(file, item("speed_claims", i), "speed_claims[%d]: a claim needs its quote (claim), faster, slower and why", i)
		}
	}
	return &s, nil
}

// itemLine returns the line of the i-th item of a top-level list, 0 if there is none.
func itemLine(doc *yaml.Node, list string, i int) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for k := 0; n.Kind == yaml.MappingNode && k+1 < len(n.Content); k += 2 {
		if n.Content[k].Value == list {
			if l := n.Content[k+1]; l.Kind == yaml.SequenceNode && i < len(l.Content) {
				return l.Content[i].Line
			}
			return n.Content[k].Line
		}
	}
	return 0
}

// HasRow reports whether row is a row of the paper's tables.
func (s *Spec) HasRow(row string) bool { return slices.Contains(s.Rows, row) }

// PaperRow returns the row of the paper's tables a recorded row is compared with: its
// own name, or the one ComparedWith maps it to.
func (s *Spec) PaperRow(row string) string {
	if pr, ok := s.ComparedWith[row]; ok {
		return pr
	}
	return row
}

// Marks returns the marks the paper states on its figure of param, by dataset (lower
// case).
func (s *Spec) Marks(param string) map[string]Mark {
	out := map[string]Mark{}
	for _, st := range s.Stated {
		if st.Figure != param {
			continue
		}
		for _, m := range st.Marks {
			out[strings.ToLower(m.Dataset)] = m
		}
	}
	return out
}

// StatedAbout returns the texts of the statements about the paper's figure of param.
func (s *Spec) StatedAbout(param string) []string {
	var out []string
	for _, st := range s.Stated {
		if st.Figure == param {
			out = append(out, st.Text)
		}
	}
	return out
}

// Heading returns the heading of one of the paper's tables or figures, def if the spec
// gives none.
func (s *Spec) Heading(name, def string) string {
	if h, ok := s.Headings[name]; ok {
		return h
	}
	return def
}
