package render

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/report/internal/reporttest"
	recorded "github.com/nagc-harness/nagc/results"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/paperplot"
	"github.com/nagc-harness/nagc/sparse"
)

// TestSweepFigure draws the λ and k2 figures of the fixture as PNG and PDF.
func TestSweepFigure(t *testing.T) {
	r := fixturePaperResults(t, fixtureRuns())
	dir := t.TempDir()
	tests := []struct {
		param string
		n     int // number of series (ρ values)
	}{
		{"lambda", 2},
		{"k2", 2},
	}
	for _, tc := range tests {
		t.Run(tc.param, func(t *testing.T) {
			if got := len(r.propSweep("webkb", tc.param)); got != tc.n {
				t.Errorf("%d series, want %d", got, tc.n)
			}
			fig, err := sweepFigure(r, "webkb", tc.param, FigureOptions{Dir: dir, Formats: []string{FormatPNG, FormatPDF}})
			if err != nil {
				t.Fatal(err)
			}
			if fig == nil || len(fig.Files) != 2 {
				t.Fatalf("figure %+v, want two files", fig)
			}
			// paperplot's zero Style, widened to the page at aspect 2.4, 300 dpi.
			w, h := paperplot.PageWidth, paperplot.PageWidth/2.4
			reporttest.CheckPNG(t, filepath.Join(dir, tc.param+"_webkb.png"), int(math.Round(w.Dots(300))), int(math.Round(h.Dots(300))))
			reporttest.CheckPDF(t, filepath.Join(dir, tc.param+"_webkb.pdf"))
			if !strings.Contains(fig.Caption, "error bars: population std over restarts") {
				t.Errorf("caption does not explain the error bars: %s", fig.Caption)
			}
		})
	}
	if fig, err := sweepFigure(r, "cora", "lambda", FigureOptions{Dir: dir, Formats: []string{FormatPNG}}); fig != nil || err != nil {
		t.Errorf("figure without runs: %v, %v; want nil, nil", fig, err)
	}
}

// TestSweep checks the series of the λ figure: for each λ the best k2, mean and std.
func TestSweep(t *testing.T) {
	r := fixturePaperResults(t, fixtureRuns())
	s := r.propSweep("webkb", "lambda")
	if len(s) != 2 || s[0].Rho != 0.5 || s[1].Rho != 0.95 {
		t.Fatalf("series %+v", s)
	}
	want := sweepLine{Rho: 0.5, X: []float64{1e-4, 1e-2}, Mean: []float64{0.95, 0.8}, Std: []float64{0.05, 0}}
	for i := range want.X {
		if s[0].X[i] != want.X[i] || math.Abs(s[0].Mean[i]-want.Mean[i]) > 1e-12 || math.Abs(s[0].Std[i]-want.Std[i]) > 1e-12 {
			t.Errorf("point %d: (%v, %v ± %v), want (%v, %v ± %v)", i, s[0].X[i], s[0].Mean[i], s[0].Std[i], want.X[i], want.Mean[i], want.Std[i])
		}
	}
	if name, v, ok := r.bestBaseline("webkb"); !ok || name != "METIS" || v != 0.85 {
		t.Errorf("best baseline %s %v %v, want METIS 0.85", name, v, ok)
	}
}

// tinyGraph is two triangles joined by one edge: classes {0,1,2} and {3,4,5}.
func tinyGraph(t *testing.T) *datasets.Graph {
	t.Helper()
	b := sparse.NewBuilder(6, 6)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}} {
		if err := b.Add(e[0], e[1], 1); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(e[1], e[0], 1); err != nil {
			t.Fatal(err)
		}
	}
	return &datasets.Graph{Name: "tiny", IDs: []string{"a", "b", "c", "d", "e", "f"},
		Labels: []int{0, 0, 0, 1, 1, 1}, ClassNames: []string{"red", "blue"}, Adj: b.CSR(sparse.MaxDuplicates)}
}

// TestForceLayout checks that the layout is deterministic, scaled into [-1, 1]² and puts
// the two triangles apart.
func TestForceLayout(t *testing.T) {
	g := tinyGraph(t)
	edges := edgesOf(g.Adj)
	if len(edges) != 7 {
		t.Fatalf("%d edges, want 7", len(edges))
	}
	a := forceLayout(6, edges, 200, 1)
	b := forceLayout(6, edges, 200, 1)
	dist := func(p, q point2) float64 { return math.Hypot(p.X-q.X, p.Y-q.Y) }
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("vertex %d: %v then %v: not deterministic", i, a[i], b[i])
		}
		if math.Abs(a[i].X) > 1+1e-12 || math.Abs(a[i].Y) > 1+1e-12 {
			t.Errorf("vertex %d at %v, outside [-1, 1]²", i, a[i])
		}
	}
	if within, across := dist(a[0], a[1]), dist(a[0], a[4]); within >= across {
		t.Errorf("triangle neighbours %.3f apart, other triangle %.3f: want closer", within, across)
	}
}

// TestClusterPanel checks the matching of clusters to classes and the misassigned count.
func TestClusterPanel(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []int
		class       []int
		wrong       int
	}{
		{"perfect, renamed", []int{0, 0, 1, 1}, []int{1, 1, 0, 0}, []int{0, 0, 1, 1}, 0},
		{"one wrong", []int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 1, 1, 1}, []int{0, 0, 1, 1, 1, 1}, 1},
	}
	for _, tc := range tests {
		p, err := clusterPanel("m", tc.truth, tc.pred)
		if err != nil {
			t.Fatal(err)
		}
		if p.Misassigned != tc.wrong {
			t.Errorf("%s: %d misassigned, want %d", tc.name, p.Misassigned, tc.wrong)
		}
		for i := range tc.class {
			if p.Class[i] != tc.class[i] {
				t.Errorf("%s: class %v, want %v", tc.name, p.Class, tc.class)
				break
			}
		}
	}
	if _, err := clusterPanel("m", []int{0}, []int{0, 1}); err == nil {
		t.Error("no error for labels of the wrong length")
	}
}

// TestLayoutFigure draws the layout figure of a tiny graph with Prop. labels (one vertex
// wrong) and no JWNMF run: the figure is drawn with an empty JWNMF panel.
func TestLayoutFigure(t *testing.T) {
	g := tinyGraph(t)
	recs := []recorded.Record{{
		RunID: "p0", Dataset: "tiny", Methods: []string{"Prop."}, Params: map[string]any{"lambda": 1e-4, "rho": 0.5},
		Status: recorded.StatusDone, Metrics: map[string]float64{"ari": 0.5},
		Labels: recorded.EncodeLabels([]int{1, 1, 0, 0, 0, 0}),
	}}
	r, err := NewResults(recs, nil, nil, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fig, err := layoutFigure(Paper{}.of(r), "tiny", g, FigureOptions{Dir: dir, Formats: []string{FormatPNG, FormatPDF}})
	if err != nil {
		t.Fatal(err)
	}
	// The graph figure's default: the page's width at aspect 2, 300 dpi.
	w, h := paperplot.PageWidth, paperplot.PageWidth/2
	reporttest.CheckPNG(t, filepath.Join(dir, "layout_tiny.png"), int(math.Round(w.Dots(300))), int(math.Round(h.Dots(300))))
	reporttest.CheckPDF(t, filepath.Join(dir, "layout_tiny.pdf"))
	facts := strings.Join(fig.Facts, "\n")
	for _, want := range []string{"Prop. (restart 0 of lambda=1e-4 rho=0.5): 1 of 6 vertices misassigned.", "JWNMF: not drawn (not run)."} {
		if !strings.Contains(facts, want) {
			t.Errorf("facts lack %q:\n%s", want, facts)
		}
	}
}

// TestSweepWithoutRho checks that Prop. runs without a recorded ρ form one series.
func TestSweepWithoutRho(t *testing.T) {
	runs := []run{
		{"webkb", "Prop.", map[string]any{"lambda": 1e-4}, 0, 0.5, 0.5, 0.1, 1, ""},
		{"webkb", "Prop.", map[string]any{"lambda": 1e-2}, 0, 0.7, 0.5, 0.1, 1, ""},
	}
	r := fixturePaperResults(t, runs)
	s := r.propSweep("webkb", "lambda")
	if len(s) != 1 || !math.IsNaN(s[0].Rho) || len(s[0].X) != 2 || s[0].Mean[1] != 0.7 {
		t.Fatalf("series %+v", s)
	}
	if fig, err := sweepFigure(r, "webkb", "lambda", FigureOptions{Dir: t.TempDir(), Formats: []string{FormatPNG}}); err != nil || fig == nil {
		t.Errorf("%v, %v", fig, err)
	}
}
