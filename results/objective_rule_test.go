package results

import (
	"testing"
)

// The objective rule picks the lowest mean final objective of a minimising method and
// the highest of a maximising one, as the provenance records the sense.
func TestObjectiveRuleFollowsSense(t *testing.T) {
	obj := func(v float64) *float64 { return &v }
	recs := func(alg string) []Record {
		var out []Record
		for i, v := range []float64{-3, 5, 1} {
			out = append(out, Record{RunID: alg + string(rune('a'+i)), Dataset: "d", Methods: []string{alg}, Algorithm: alg,
				Params: map[string]any{"lambda": float64(i)}, Status: StatusDone, FinalObjective: obj(v)})
		}
		return out
	}
	prov := []Provenance{{Maximises: []string{"bagc"}}}
	for _, c := range []struct {
		alg  string
		want float64
	}{{"nagc", -3}, {"bagc", 5}} {
		points := Aggregate(recs(c.alg))
		SetObjectiveSense(points, prov)
		best, err := Best(points, SelectObjective)
		if err != nil || len(best) != 1 {
			t.Fatalf("%s: %v, %d points", c.alg, err, len(best))
		}
		if best[0].Objective != c.want {
			t.Errorf("%s: objective rule chose %v, want %v", c.alg, best[0].Objective, c.want)
		}
	}
}
