package paper

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/configs"
)

// TestPublished checks the embedded paper values.
func TestPublished(t *testing.T) {
	p, err := DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	if m, s, ok := p.ARIOf("Prop.", "Cora"); !ok || m != 0.348 || s != 0.022 {
		t.Errorf("ARI of Prop. on Cora = %v ± %v (%v)", m, s, ok)
	}
	if v, ok := p.RhoOf(0.95, "webkb"); !ok || v != 0.512 {
		t.Errorf("rho 0.95 webkb = %v (%v)", v, ok)
	}
	if got := p.Rhos(); len(got) != 5 || got[0] != 0.5 || got[4] != 0.995 {
		t.Errorf("rhos %v", got)
	}
	if v, ok := p.RuntimeOf("JWNMF", "citeseer"); !ok || v != 60.71 {
		t.Errorf("runtime = %v (%v)", v, ok)
	}
	if !p.HasRuntimeRow("BAGC") || p.HasRuntimeRow("METIS") {
		t.Error("runtime rows: want BAGC and not METIS")
	}
}

// TestParsePublishedErrors checks that a fault names the file and the line.
func TestParsePublishedErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"ari:\n  Prop.: {webkb: [1]}\n", `x.yaml:2: ari["Prop."]["webkb"]: want [mean, std], got 1 numbers`},
		{"webkb_modularity_entropy:\n  A: [1, 2]\n", `x.yaml:2: webkb_modularity_entropy["A"]: want [modularity, entropy, ari], got 2 numbers`},
		{"rho_effect:\n  high: {webkb: 1}\n", `x.yaml:2: rho_effect key "high" is not a number`},
		{"ari: [1, 2]\n", "x.yaml: line 1: cannot unmarshal"},
	}
	for _, tc := range tests {
		_, err := ParsePublished("x.yaml", []byte(tc.yaml))
		var pe *Error
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePublished(%q) = %v, want an *Error containing %q", tc.yaml, err, tc.want)
		}
	}
}

// TestDefaultSpec checks the shipped comparison: it parses, and its statements are
// those of published-results.yaml, one each, in its order.
func TestDefaultSpec(t *testing.T) {
	s, err := DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	p, err := DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Stated) != len(p.StatedInText) {
		t.Fatalf("%s has %d statements, %s %d", SpecFile, len(s.Stated), PublishedFile, len(p.StatedInText))
	}
	for i, st := range s.Stated {
		if st.Text != p.StatedInText[i] {
			t.Errorf("statement %d: %q, published-results.yaml says %q", i, st.Text, p.StatedInText[i])
		}
	}
	for _, row := range s.Rows {
		if _, ok := p.ARI[row]; !ok {
			t.Errorf("row %q has no ARI in %s", row, PublishedFile)
		}
	}
	if s.PaperRow("Prop. (authors' init)") != "Prop." || s.PaperRow("JWNMF") != "JWNMF" || !s.HasRow("BAGC") {
		t.Error("rows compared with the paper's are not as configured")
	}
	for _, c := range s.SpeedClaims {
		for _, row := range []string{c.Faster, c.Slower} {
			if !p.HasRuntimeRow(row) {
				t.Errorf("speed claim %q names %q, which has no runtime in the paper", c.Claim, row)
			}
		}
	}
	if len(configs.PaperComparison) == 0 {
		t.Error("the comparison is not embedded")
	}
}

// TestMarks checks the marks the paper states on its λ and k2 figures.
func TestMarks(t *testing.T) {
	s, err := DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		param, dataset string
		x, y, rho      float64
	}{
		{"lambda", "webkb", 1e-4, math.NaN(), math.NaN()},
		{"lambda", "cora", 1e-2, math.NaN(), math.NaN()},
		{"k2", "webkb", 20, 1.0, math.NaN()},
		{"k2", "cora", 10, math.NaN(), 0.95},
	}
	same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
	for _, tc := range tests {
		mk, ok := s.Marks(tc.param)[tc.dataset]
		if !ok {
			t.Errorf("no %s mark for %s", tc.param, tc.dataset)
			continue
		}
		if !same(mk.X, tc.x) || !same(mk.YOrNaN(), tc.y) || !same(mk.RhoOrNaN(), tc.rho) {
			t.Errorf("%s %s: %+v, want x=%v y=%v rho=%v", tc.param, tc.dataset, mk, tc.x, tc.y, tc.rho)
		}
	}
	if got := s.StatedAbout("k2"); len(got) != 1 || !strings.Contains(got[0], "0_k2") {
		t.Errorf("statements about the k2 figure: %q", got)
	}
}

// TestParseSpecErrors checks that each fault of a comparison spec is named with its line.
func TestParseSpecErrors(t *testing.T) {
	head := "name: X\ndatasets: [a]\nrows: [A, B]\nproposed: A\n"
	tests := []struct{ yaml, want string }{
		{"datasets: [a]\n", "s.yaml: no name"},
		{"name: X\nrows: [A]\n", "s.yaml: no datasets"},
		{"name: X\ndatasets: [a]\nrows: [A]\nproposed: C\n", `s.yaml:4: proposed: "C" is not one of the rows`},
		{"name: X\ndatasets: [WebKB]\nrows: [A]\nproposed: A\n", `s.yaml:2: datasets[0]: write "WebKB" in lower case`},
		{head + "compared_with:\n  A2: C\n", `s.yaml:6: compared_with["A2"]: "C" is not one of the rows`},
		{head + "stated:\n  - text: t\n  - text: u\n    marks: [{dataset: a, x: 1, label: l}]\n", "s.yaml:7: stated[1]: marks need the figure"},
		{head + "stated:\n  - text: t\n    figure: k2\n    marks: [{x: 1, label: l}]\n", "s.yaml:6: stated[0]: a mark needs a dataset and a label"},
		{head + "speed_claims:\n  - {claim: c, faster: A}\n", "s.yaml:6: speed_claims[0]: a claim needs"},
		{head + "colour: red\n", "field colour not found"},
	}
	for _, tc := range tests {
		_, err := ParseSpec("s.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSpec(%q) = %v, want an error containing %q", tc.yaml, err, tc.want)
		}
	}
}
