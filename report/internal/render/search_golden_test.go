package render

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/internal/paperplot/plottest"
	"github.com/nagc-harness/nagc/report/internal/reporttest"
	"github.com/nagc-harness/nagc/report/paper"
	recorded "github.com/nagc-harness/nagc/results"
)

// searchFixture is the records of a halving search and a grid of one method on Cora,
// written by hand: the search "S" has two batches of 9 trials (λ = 10⁻⁶·2^(2i+batch) for its i-th, ρ in
// {0.5, 0.95}), rungs of 10, 30 and 90 iterations (η = 3), 2 restarts; the top third
// of a rung goes on, continued (iterations_run is the rung's difference). Its value
// is ARI = 0.3 + 0.04·(trial mod 9) − 0.01·restart at every rung, plus 0.005 per rung.
// The grid "G" has λ ∈ {10⁻⁴, …, 10} × ρ ∈ {0.5, 0.95}, 90 iterations, 2 restarts,
// ARI 0.5 + 0.015·point (0.665 at its last). Every fit takes 0.01 s an iteration; a restart's k-means start,
// 2 s, is paid by its first fit only.
func searchFixture() []recorded.Record {
	var recs []recorded.Record
	plan, started := 0, map[string]bool{}
	add := func(rec recorded.Record) {
		plan++
		rec.Plan, rec.Config = plan, "s"
		rec.Dataset, rec.Algorithm, rec.K1, rec.Status = "cora", "nagc", 7, recorded.StatusDone
		rec.Finished = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		rec.RunID = fmt.Sprintf("%s|%v|%d", rec.Methods[0], rec.Params, rec.Restart)
		if rec.IterationsRun == 0 {
			rec.IterationsRun = rec.Iterations
		}
		rec.FitSeconds = 0.01 * float64(rec.IterationsRun)
		if k := fmt.Sprint(rec.Methods[0], rec.Restart); started[k] {
			rec.InitCached = true
		} else {
			started[k], rec.InitSeconds = true, 2
		}
		b, err := json.Marshal(rec)
		if err != nil {
			panic(err)
		}
		var back recorded.Record
		if err := json.Unmarshal(b, &back); err != nil {
			panic(err)
		}
		recs = append(recs, back)
	}
	rungs := []int{10, 30, 90}
	for batch := range 2 {
		alive := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
		for rung, its := range rungs {
			var next []int
			for _, i := range alive {
				trial := 9*batch + i
				promoted := rung < 2 && i >= 9-len(alive)/3
				cut := rung < 2 && !promoted
				if promoted {
					next = append(next, i)
				}
				for restart := range 2 {
					run := its
					if rung > 0 {
						run = its - rungs[rung-1]
					}
					add(recorded.Record{
						Methods: []string{"S"}, Restart: restart, Iterations: its, IterationsRun: run,
						Params:  map[string]any{"lambda": 1e-6 * float64(int(1)<<(2*i+batch)), "rho": []float64{0.5, 0.95}[i%2], "iterations": its},
						Metrics: map[string]float64{"ari": 0.3 + 0.04*float64(i) - 0.01*float64(restart) + 0.005*float64(rung) + 0.01*float64(batch)},
						Search:  &recorded.SearchInfo{Row: "S", Rule: "ari", Trial: trial, Batch: batch, Rung: rung, Rungs: 3, Cut: cut},
					})
				}
			}
			alive = next
		}
	}
	for p := range 12 {
		for restart := range 2 {
			add(recorded.Record{Methods: []string{"G"}, Restart: restart, Iterations: 90,
				Params:  map[string]any{"lambda": math.Pow(10, float64(p/2-4)), "rho": []float64{0.5, 0.95}[p%2]},
				Metrics: map[string]float64{"ari": 0.5 + 0.015*float64(p)}})
		}
	}
	return recs
}

// searchResults aggregates searchFixture as a report reads it.
func searchResults(t *testing.T) (*Results, *searchView) {
	t.Helper()
	pub, err := paper.DefaultPublished()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResults(searchFixture(), reporttest.Provenance(), pub, recorded.SelectModularity)
	if err != nil {
		t.Fatal(err)
	}
	views := r.Searches()
	if len(views) != 1 {
		t.Fatalf("%d searches, want 1", len(views))
	}
	return r, views[0]
}

// TestSearchFiguresGolden draws the search figures of searchFixture to PNG and compares
// each with testdata/NAME_golden.png within gonum's cmpimg.EqualApprox colour distance
// of 0.01 (as internal/paperplot's golden tests); go test -update rewrites them.
func TestSearchFiguresGolden(t *testing.T) {
	r, v := searchResults(t)
	dir := t.TempDir()
	o := FigureOptions{Dir: dir, Formats: []string{FormatPNG}}
	for name, draw := range map[string]func(*searchView, FigureOptions) (*Figure, error){
		"search_best": r.bestSoFarFigure, "search_best_seconds": r.bestSoFarSecondsFigure, "search_rungs": r.rungFigure,
		"search_parallel": r.parallelFigure,
	} {
		t.Run(name, func(t *testing.T) {
			fig, err := draw(v, o)
			if err != nil || fig == nil {
				t.Fatalf("%v, %v", fig, err)
			}
			got, err := os.ReadFile(filepath.Join(dir, fig.Files[0]))
			if err != nil {
				t.Fatal(err)
			}
			checkGoldenPNG(t, filepath.Join("testdata", name+"_golden.png"), got)
		})
	}
	t.Run("search_slices", func(t *testing.T) {
		pub, err := paper.DefaultPublished()
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewResults(sliceFixture(t), reporttest.Provenance(), pub, recorded.SelectModularity)
		if err != nil {
			t.Fatal(err)
		}
		fig, err := r.sliceFigure(r.Searches()[0], o)
		if err != nil || fig == nil {
			t.Fatalf("%v, %v", fig, err)
		}
		if want := "Log axis for λ"; !strings.Contains(fig.Caption, want) || strings.Contains(fig.Caption, "for λ and") {
			t.Errorf("caption %q: want a log axis for λ alone", fig.Caption)
		}
		got, err := os.ReadFile(filepath.Join(dir, fig.Files[0]))
		if err != nil {
			t.Fatal(err)
		}
		checkGoldenPNG(t, filepath.Join("testdata", "search_slices_golden.png"), got)
	})
}

// sliceFixture is a random search without pruning on Cora: 16 trials, 2 restarts, λ =
// 10^(−8+0.6·i) (ten decades), ρ ∈ {0.5, 0.95}, k₂ ∈ {5, 10}, modularity 0.6 −
// 0.002·(log₁₀ λ + 2)² − 0.05·(ρ − 0.5) + 0.001·k₂ − 0.004·restart; trial 15's second
// restart is missing (it did not complete the last rung).
func sliceFixture(t *testing.T) []recorded.Record {
	var recs []recorded.Record
	for i := range 16 {
		l, rho, k2 := math.Pow(10, -8+0.6*float64(i)), []float64{0.5, 0.95}[i%2], []int{5, 10}[i/2%2]
		for restart := range 2 {
			if i == 15 && restart == 1 {
				continue
			}
			mod := 0.6 - 0.002*math.Pow(math.Log10(l)+2, 2) - 0.05*(rho-0.5) + 0.001*float64(k2) - 0.004*float64(restart)
			recs = append(recs, reporttest.Record(t, "cora", "R", map[string]any{"lambda": l, "rho": rho, "k2": k2, "iterations": 100}, restart, 0.2, mod, 0, 1, ""))
			r := &recs[len(recs)-1]
			r.RunID += fmt.Sprint("|trial ", i)
			r.Algorithm, r.Iterations, r.IterationsRun = "nagc", 100, 100
			r.Search = &recorded.SearchInfo{Row: "R", Rule: "modularity", Trial: i, Rungs: 1}
			r.Plan = len(recs)
		}
	}
	return recs
}

// checkGoldenPNG compares a rendered PNG with the golden image at path (plottest),
// rewriting it under -update (the flag reporttest defines).
func checkGoldenPNG(t *testing.T, path string, got []byte) {
	t.Helper()
	f := flag.Lookup("update")
	plottest.CheckPNG(t, path, got, f != nil && f.Value.String() == "true")
}

// TestSearchGridTable checks the table "search against grid" of searchFixture against
// golden Markdown and LaTeX, with its costs computed by hand: the search ran 2 × (9·2·10
// + 3·2·20 + 1·2·60) = 840 iterations (its best, trial 17: 0.64 − 0.005 = 0.635) in 52 fits, 8.4 s of iterations and 2 × 2 s of
// k-means starts; the grid 12·2·90 = 2160 iterations in 24 fits, 21.6 + 4 s.
func TestSearchGridTable(t *testing.T) {
	r, v := searchResults(t)
	tb := searchGridTable(r, v)
	if tb == nil {
		t.Fatal("no table")
	}
	checkTable(t, "search_grid", tb, []string{
		"| grid | G | 0.6650 | lambda=10 rho=0.95 | 24 | 2160 | 25.6 | 100.0 % | 100.0 % |",
		"| search | S | 0.6350 | trial 17: lambda=0.131072 rho=0.5 | 52 | 840 | 12.4 | 38.9 % | 48.4 % |",
	})
}
