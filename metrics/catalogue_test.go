package metrics

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// TestCatalogueEvaluated checks that the catalogue's evaluated measures are exactly
// Scores' fields, in their order, and that the lists derived from it are the ones
// records and configs have always used.
func TestCatalogueEvaluated(t *testing.T) {
	var tags []string
	st := reflect.TypeFor[Scores]()
	for i := range st.NumField() {
		if tag := st.Field(i).Tag.Get("json"); tag != "" {
			tags = append(tags, tag)
		}
	}
	if got := Names(func(m Metric) bool { return m.Evaluated }); !slices.Equal(got, tags) {
		t.Errorf("evaluated measures %v, Scores' fields %v", got, tags)
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{
		{"LabelMetrics", LabelMetrics, []string{"ari", "nmi", "acc", "ari_connected"}},
		{"AttributeMetrics", AttributeMetrics, []string{"entropy", "attr_modularity"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestCatalogueEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Catalogue {
		if seen[m.Name] {
			t.Errorf("%s listed twice", m.Name)
		}
		seen[m.Name] = true
		if m.Label == "" || (m.Direction != HigherIsBetter && m.Direction != LowerIsBetter) {
			t.Errorf("%s: label %q, direction %d", m.Name, m.Label, m.Direction)
		}
		if math.IsNaN(m.Lo) != math.IsNaN(m.Hi) || m.Lo >= m.Hi {
			t.Errorf("%s: range [%v, %v]: bounded on both sides or neither", m.Name, m.Lo, m.Hi)
		}
	}
	for _, c := range []struct {
		name        string
		dir         Direction
		readsLabels bool
	}{
		{"ari", HigherIsBetter, true}, {"modularity", HigherIsBetter, false},
		{"entropy", LowerIsBetter, false}, {"fit_seconds", LowerIsBetter, false},
		{"heldout_modularity", HigherIsBetter, false}, {"ari_unflagged", HigherIsBetter, true},
		{"no such measure", HigherIsBetter, false},
	} {
		m, _ := Lookup(c.name)
		if DirectionOf(c.name) != c.dir || m.ReadsLabels != c.readsLabels {
			t.Errorf("%s: direction %d reads labels %v, want %d %v", c.name, DirectionOf(c.name), m.ReadsLabels, c.dir, c.readsLabels)
		}
	}
}

func TestDirectionBetter(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		d    Direction
		a, b float64
		want bool
	}{
		{HigherIsBetter, 2, 1, true}, {HigherIsBetter, 1, 2, false}, {HigherIsBetter, 1, 1, false},
		{LowerIsBetter, 1, 2, true}, {LowerIsBetter, 2, 1, false},
		{HigherIsBetter, nan, 1, false}, {HigherIsBetter, 1, nan, true}, {LowerIsBetter, nan, nan, false},
	} {
		if got := c.d.Better(c.a, c.b); got != c.want {
			t.Errorf("%d.Better(%v, %v) = %v, want %v", c.d, c.a, c.b, got, c.want)
		}
	}
}
