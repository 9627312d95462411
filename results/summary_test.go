package results

import (
	"math"
	"testing"
)

func TestAggregateAndBest(t *testing.T) {
	mk := func(id string, rho float64, restart int, ari, mod float64) Record {
		return Record{RunID: id, Dataset: "d", Methods: []string{"M"}, Algorithm: "nagc",
			Params: map[string]any{"rho": rho}, Restart: restart, Status: StatusDone,
			Metrics: map[string]float64{"ari": ari, "modularity": mod}}
	}
	recs := []Record{
		mk("a0", 0.5, 0, 0.2, 0.9), mk("a1", 0.5, 1, 0.4, 0.7),
		mk("b0", 0.9, 0, 0.6, 0.1), mk("b1", 0.9, 1, 0.6, 0.3),
	}
	points := Aggregate(recs)
	if len(points) != 2 {
		t.Fatalf("%d points", len(points))
	}
	if m, s := points[0].Mean["ari"], points[0].Std["ari"]; math.Abs(m-0.3) > 1e-12 || math.Abs(s-0.1) > 1e-12 {
		t.Errorf("ρ=0.5: mean %v std %v, want 0.3 ± 0.1", m, s)
	}
	byARI, _ := Best(points, SelectARI)
	byMod, _ := Best(points, SelectModularity)
	if byARI[0].Params["rho"] != 0.9 || byMod[0].Params["rho"] != 0.5 {
		t.Errorf("selection: ARI picks %v, modularity picks %v", byARI[0].Params, byMod[0].Params)
	}
	if _, err := Best(points, "purity"); err == nil {
		t.Error("unknown rule accepted")
	}

	// Two-view: ρ = 0.5 has modularity 0.8 + attribute modularity 0.05, ρ = 0.9 has
	// 0.2 + 0.7; a third point without attribute modularity is never chosen.
	for i := range recs {
		recs[i].Metrics["attr_modularity"] = map[bool]float64{true: 0.05, false: 0.7}[recs[i].Params["rho"] == 0.5]
	}
	recs = append(recs, Record{RunID: "c0", Dataset: "d", Methods: []string{"M"}, Algorithm: "nagc",
		Params: map[string]any{"rho": 0.7}, Status: StatusDone, Metrics: map[string]float64{"ari": 0, "modularity": 5}})
	byTwoView, err := Best(Aggregate(recs), SelectTwoView)
	if err != nil || byTwoView[0].Params["rho"] != 0.9 {
		t.Errorf("two-view picks %v (%v), want ρ = 0.9", byTwoView[0].Params, err)
	}
}
