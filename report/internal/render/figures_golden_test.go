package render

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	recorded "github.com/nagc-harness/nagc/results"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
)

// reportFigureKinds names, for each kind of figure the report draws, one file of the two
// fixture reports that holds it (the search figures are TestSearchFiguresGolden's).
var reportFigureKinds = []struct{ kind, file string }{
	{"paper_sweep_log", "lambda_webkb"},            // the paper's λ sweep: log x, error bars, marks
	{"paper_sweep_int", "k2_webkb"},                // the paper's k2 sweep: integer ticks, "(k1)"
	{"sensitivity_log", "sens_own-x_nagc_lambda"},  // a row's sensitivity on a log axis
	{"sensitivity_named", "sens_own-x_my-sgc_p"},   // on a few named values
	{"sensitivity_compare", "sens_webkb_prop_rho"}, // beside the paper's rows
	{"heatmap", "heat_own-x_nagc_lambda_rho"},      // a pair of swept parameters
	{"objective_panels", "objective_own-x"},        // objective curves, one panel per row
	{"objective_paper", "objective_webkb"},         // the paper's datasets' objective curves
	{"cd_diagram", "cd_modularity_modularity"},     // average ranks and Nemenyi's CD
}

// TestReportFiguresGolden writes the report of the paper fixture (compared with the
// paper) and of the unlabeled sweep (alone) as PNG figures and compares one file of
// every figure kind with testdata/report_KIND_golden.png (plottest: gonum's
// cmpimg.EqualApprox within a colour distance of 0.01); go test -update rewrites them.
func TestReportFiguresGolden(t *testing.T) {
	noGraph := func(string) (*datasets.Graph, error) { return nil, errors.New("no data") }
	paperOut := filepath.Join(t.TempDir(), "paper")
	if _, err := Generate(Options{ResultsDir: writeFixtureDir(t, fixtureRuns()), OutDir: paperOut, Figures: []string{FormatPNG},
		Compare: recorded.ComparePaper, LoadGraph: noGraph}, Paper{}); err != nil {
		t.Fatal(err)
	}
	recs, prov := unlabeledSweep(t)
	sweepOut := filepath.Join(t.TempDir(), "sweep")
	if _, err := Generate(Options{ResultsDir: reporttest.WriteResultsDir(t, recs, prov), OutDir: sweepOut,
		Figures: []string{FormatPNG}, NoPaper: true, LoadGraph: noGraph}, nil); err != nil {
		t.Fatal(err)
	}
	for _, k := range reportFigureKinds {
		t.Run(k.kind, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(paperOut, k.file+".png"))
			if errors.Is(err, os.ErrNotExist) {
				got, err = os.ReadFile(filepath.Join(sweepOut, k.file+".png"))
			}
			if err != nil {
				t.Fatal(err)
			}
			checkGoldenPNG(t, filepath.Join("testdata", "report_"+k.kind+"_golden.png"), got)
		})
	}
}

// TestLayoutFigureGolden draws the layout figure of a tiny graph (Prop. with one vertex
// wrong, JWNMF not run) and compares it with testdata/report_layout_golden.png.
func TestLayoutFigureGolden(t *testing.T) {
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
	if _, err := layoutFigure(Paper{}.of(r), "tiny", tinyGraph(t), FigureOptions{Dir: dir, Formats: []string{FormatPNG}}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "layout_tiny.png"))
	if err != nil {
		t.Fatal(err)
	}
	checkGoldenPNG(t, filepath.Join("testdata", "report_layout_golden.png"), got)
}
