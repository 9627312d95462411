package paperplot

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/nagc-harness/nagc/internal/paperplot/plottest"
)

var (
	update = flag.Bool("update", false, "rewrite the golden images in testdata from the rendered ones")
	keep   = flag.String("keep", "", "write the rendered figures to this folder (to look at them) instead of a temporary one")
)

// outDir returns the folder rendered figures go to.
func outDir(t *testing.T) string {
	if *keep != "" {
		if err := os.MkdirAll(*keep, 0o755); err != nil {
			t.Fatal(err)
		}
		return *keep
	}
	return t.TempDir()
}

// sensitivity is a figure of ARI against λ (log axis) for three values of ρ with std
// error bars and a reference line: the report's sensitivity figure.
func sensitivity(s Style) (*Figure, error) {
	f := s.NewFigure("Prop. on WebKB: ARI against λ", "λ", "ARI")
	f.Grid()
	lambdas := []float64{1e-10, 1e-8, 1e-6, 1e-4, 1e-2}
	for i, rho := range []string{"0.1", "0.5", "0.9"} {
		pts := make(plotter.XYs, len(lambdas))
		sd := make([]float64, len(lambdas))
		for j, l := range lambdas {
			pts[j] = plotter.XY{X: l, Y: 0.35 + 0.1*float64(i) - 0.02*float64(j*j)*float64(i)/4}
			sd[j] = 0.01 + 0.01*float64(j%3)
		}
		if err := f.Line(i, "ρ = "+rho, pts); err != nil {
			return nil, err
		}
		if err := f.Spread(i, pts, sd, sd); err != nil {
			return nil, err
		}
	}
	f.HLine("SNMF", 0.3)
	f.Plot.X.Scale = plot.LogScale{}
	f.Plot.X.Tick.Marker = LogTicks{}
	f.Plot.X.Min, f.Plot.X.Max = 0.5e-10, 2e-2
	f.Pad(0, 1)
	return f, nil
}

// heatmap is a 5 × 4 grid of NMI over k₂ × λ.
func heatmap(s Style) *Figure {
	xt := []string{"3", "5", "7", "9", "11"}
	yt := []string{"10^{−6}", "10^{−4}", "10^{−2}", "1"}
	grid := make([][]float64, len(yt))
	for r := range grid {
		grid[r] = make([]float64, len(xt))
		for c := range grid[r] {
			grid[r][c] = 0.2 + 0.05*float64(c) + 0.04*float64(r) - 0.01*float64(c*r)
		}
	}
	grid[3][4] = math.NaN()
	return s.Heatmap("Prop. on Cora: NMI", "k_{2}", "λ", "NMI", xt, yt, grid)
}

// heatmapMany is a 6 × 12 grid of ARI over λ = 10⁻¹⁰ … 10¹ × k₂: more column names than
// fit side by side at a column's width.
func heatmapMany(s Style) *Figure {
	var xt []string
	for e := -10; e <= 1; e++ {
		xt = append(xt, PowerOfTen(e))
	}
	yt := []string{"4", "5", "7", "10", "15", "20"}
	grid := make([][]float64, len(yt))
	for r := range grid {
		grid[r] = make([]float64, len(xt))
		for c := range grid[r] {
			grid[r][c] = 0.9 + 0.007*float64(c) - 0.3*float64(c/11) + 0.002*float64(r)
		}
	}
	return s.Heatmap("", "λ", "k_{2}", "ARI", xt, yt, grid)
}

// objective is a loss curve of 5.6e6 decreasing to 5.575e6 over 60 iterations.
func objective(s Style) (*Figure, error) {
	f := s.NewFigure("objective", "iteration", "objective")
	f.Grid()
	pts := make(plotter.XYs, 60)
	for j := range pts {
		pts[j] = plotter.XY{X: float64(j + 1), Y: 5.575e6 + 2.5e4*math.Exp(-float64(j)/8)}
	}
	if err := f.Curve(0, "", pts); err != nil {
		return nil, err
	}
	ScaleAxis(&f.Plot.Y, 5.575e6, 5.6e6)
	f.Pad()
	return f, nil
}

// figureKinds are the figures the golden tests render, by name.
func figureKinds(t *testing.T) map[string]*Figure {
	s := Style{}
	sens, err := sensitivity(s)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := objective(s)
	if err != nil {
		t.Fatal(err)
	}
	band := Style{Errors: ErrorBands, Legend: LegendOutside, Width: PageWidth, Aspect: 3}
	sensBand, err := sensitivity(band)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*Figure{"sensitivity": sens, "sensitivity_band_page": sensBand, "heatmap": heatmap(s), "heatmap_many": heatmapMany(s), "objective": obj}
}

// sweepMarks is a figure of ARI against k₂ for two values of ρ with the marks a paper
// states: a dotted line at its peak and a diamond at a value it gives.
func sweepMarks(s Style) (*Figure, error) {
	f := s.NewFigure("", "k_{2}", "ARI")
	f.Grid()
	for i := range 2 {
		pts := plotter.XYs{{X: 4, Y: 0.5 + 0.1*float64(i)}, {X: 6, Y: 0.6}, {X: 8, Y: 0.55 - 0.05*float64(i)}}
		sd := []float64{0.03, 0.05, 0.02}
		if err := f.Spread(i, pts, sd, sd); err != nil {
			return nil, err
		}
		if err := f.Line(i, []string{"ρ = 0.5", "ρ = 0.95"}[i], pts); err != nil {
			return nil, err
		}
	}
	f.VLine("paper's peak: k_{2} = 6", 6)
	if err := f.Mark("paper's value", 8, 0.7); err != nil {
		return nil, err
	}
	f.Plot.X.Min, f.Plot.X.Max = 3.2, 8.8
	f.Pad(0, 1)
	return f, nil
}

// growth is fit time against input size on log-log axes: two methods' series as lines
// and their times on other graphs as points (nagc bench's figure).
func growth(s Style) (*Figure, error) {
	f := s.NewFigure("", "|E| + nnz(X)", "median fit time (s)")
	f.Grid()
	for i, slope := range []float64{1, 1.4} {
		var pts plotter.XYs
		for _, w := range []float64{1e4, 1e5, 1e6} {
			pts = append(pts, plotter.XY{X: w, Y: 1e-3 * math.Pow(w/1e4, slope) * float64(i+1)})
		}
		if err := f.Line(i, []string{"nagc (slope 1.00)", "snmf (slope 1.40)"}[i], pts); err != nil {
			return nil, err
		}
		if err := f.Points(i, []string{"nagc (paper's graphs)", "snmf (paper's graphs)"}[i], plotter.XYs{{X: 5e4, Y: 1e-2 * float64(i+1)}}); err != nil {
			return nil, err
		}
	}
	for _, a := range []*plot.Axis{&f.Plot.X, &f.Plot.Y} {
		a.Scale, a.Tick.Marker = plot.LogScale{}, LogTicks{}
	}
	f.Pad()
	return f, nil
}

// panels are three objective curves, two to a row, each panel titled.
func panels(t *testing.T) *Panels {
	var figs []*Figure
	for i := range 3 {
		f, err := objective(Style{})
		if err != nil {
			t.Fatal(err)
		}
		f.Plot.Title.Text = []string{"NAGC", "NMF", "SNMF"}[i]
		figs = append(figs, f)
	}
	p, err := Style{}.NewPanels(2, figs...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// graph is a 6-cycle with a chord in two classes, drawn twice: every vertex right, and
// two misassigned.
func graph(t *testing.T) *GraphFigure {
	var pos [][2]float64
	for i := range 6 {
		a := 2 * math.Pi * float64(i) / 6
		pos = append(pos, [2]float64{0.9 * math.Cos(a), 0.9 * math.Sin(a)})
	}
	edges := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}}
	class := []int{0, 0, 0, 1, 1, 1}
	g, err := Style{}.NewGraphFigure(pos, edges, []string{"left", "right"},
		GraphPanel{Title: "right", Class: class, Wrong: make([]bool, 6)},
		GraphPanel{Title: "two wrong", Class: []int{0, 0, 1, 1, 1, 0}, Wrong: []bool{false, false, true, false, false, true}},
		GraphPanel{Title: "not run"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// saver is a figure that saves itself: a Figure, Panels, a GraphFigure or a CDDiagram.
type saver interface {
	Save(stem string, formats ...string) ([]string, error)
}

// cdDiagram is the critical-difference diagram of Demšar's (2006) figure 1(a): four
// C4.5 variants at his average ranks, CD = 1.12 at α = 0.10.
func cdDiagram(t *testing.T) *CDDiagram {
	d, err := Style{}.NewCDDiagram("Nemenyi, α = 0.10", []string{"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"},
		[]float64{3.143, 2.000, 2.893, 1.964}, 1.12)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestGolden renders each figure kind to PNG and compares it with
// testdata/NAME_golden.png, pixel by pixel within a colour distance of 0.01 (gonum's
// cmpimg.EqualApprox, YIQ space), which absorbs anti-aliasing differences across
// platforms and nothing a reader would see; -update rewrites the golden images.
func TestGolden(t *testing.T) {
	dir := outDir(t)
	wide, err := Style{}.NewCDDiagram("", []string{"A", "B", "C"}, []float64{1.25, 2, 2.75}, 2.34)
	if err != nil {
		t.Fatal(err)
	}
	marks, err := sweepMarks(Style{})
	if err != nil {
		t.Fatal(err)
	}
	grow, err := growth(Style{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var ranks []float64
	for i := range 11 {
		names = append(names, fmt.Sprintf("method %c", 'A'+i))
		ranks = append(ranks, 1+float64(i)*0.95)
	}
	many, err := Style{}.NewCDDiagram("", names, ranks, 4.5)
	if err != nil {
		t.Fatal(err)
	}
	// Eleven rows of the paper's table, ranked over two datasets: the numbers thin out
	// on a column-wide axis, and the long labels stay on their side.
	paperRows, err := Style{}.NewCDDiagram("", []string{"Prop.", "Prop. (authors' init)", "Prop. (w/o PU)", "Prop.*", "NMF",
		"JWNMF*", "METIS", "k-means", "JWNMF", "SNMF", "BAGC"}, []float64{1, 2.5, 3, 5.5, 6.5, 7, 7, 7, 7.5, 8, 11}, 10.68)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]saver{"cd_diagram": cdDiagram(t), "cd_diagram_wide": wide, "cd_diagram_many": many,
		"cd_diagram_paper_rows": paperRows, "sweep_marks": marks, "growth": grow, "panels": panels(t), "graph": graph(t)}
	for name, f := range figureKinds(t) {
		kinds[name] = f
	}
	for name, f := range kinds {
		t.Run(name, func(t *testing.T) {
			files, err := f.Save(filepath.Join(dir, name), PNG)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			plottest.CheckPNG(t, filepath.Join("testdata", name+"_golden.png"), got, *update)
		})
	}
}
