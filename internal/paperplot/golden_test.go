package paperplot

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/plotter"
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
	return map[string]*Figure{"sensitivity": sens, "sensitivity_band_page": sensBand, "heatmap": heatmap(s), "objective": obj}
}

// saver is a figure that saves itself: a Figure or a CDDiagram.
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
	// Eleven rows of the paper's table, ranked over two datasets: the numbers thin out
	// on a column-wide axis, and the long labels stay on their side.
	many, err := Style{}.NewCDDiagram("", []string{"Prop.", "Prop. (authors' init)", "Prop. (w/o PU)", "Prop.*", "NMF",
		"JWNMF*", "METIS", "k-means", "JWNMF", "SNMF", "BAGC"}, []float64{1, 2.5, 3, 5.5, 6.5, 7, 7, 7, 7.5, 8, 11}, 10.68)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]saver{"cd_diagram": cdDiagram(t), "cd_diagram_wide": wide, "cd_diagram_many": many}
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
			golden := filepath.Join("testdata", name+"_golden.png")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if bytes.Equal(got, want) {
				return
			}
			ok, err := cmpimg.EqualApprox("png", got, want, 0.01)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				bad := filepath.Join(os.TempDir(), "paperplot_"+name+"_got.png")
				os.WriteFile(bad, got, 0o644)
				t.Errorf("%s differs from %s beyond the tolerance; rendered image: %s", name, golden, bad)
			}
		})
	}
}
