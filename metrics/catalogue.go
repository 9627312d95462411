package metrics

import "math"

// Direction says which way a measure improves.
type Direction int8

// Directions of a measure.
const (
	HigherIsBetter Direction = iota + 1
	LowerIsBetter
)

// Better reports whether a is strictly better than b in direction d. NaN is never
// better, and everything is better than NaN.
func (d Direction) Better(a, b float64) bool {
	switch {
	case math.IsNaN(a):
		return false
	case math.IsNaN(b):
		return true
	case d == LowerIsBetter:
		return a < b
	}
	return a > b
}

// Metric describes one measure the project records for a run: the one place that says
// what it is called, how it is shown, its range and which way it improves.
type Metric struct {
	// Name is the key in records (results.Record.Metrics, runs.jsonl) and configs.
	Name string
	// Label is how tables and axes name it ("ARI", "average entropy").
	Label string
	// Lo and Hi bound it where it is bounded on both sides (ARI in [−0.5, 1]); both NaN
	// where not (entropy, times): error bars and axes are clipped to them.
	Lo, Hi float64
	// Direction is which way it improves.
	Direction Direction
	// ReadsLabels is whether it reads the ground-truth labels: a graph without labels
	// has none of these, and a choice made by one is never label-free.
	ReadsLabels bool
	// ReadsAttributes is whether it reads the attribute matrix: a graph without
	// attributes has none of these.
	ReadsAttributes bool
	// Evaluated is whether Evaluate computes it from every clustering (a config's
	// metrics key lists these); the others are recorded beside them when a run asks for
	// them (a held-out fit, a method's flags) or are times.
	Evaluated bool
}

// Catalogue lists every measure the project records, in table order: those Evaluate
// computes (Scores' fields, in their order), then the modularity of held-out fits,
// the measures of flagged vertices, and the fit and initialisation times (seconds).
var Catalogue = []Metric{
	{Name: "ari", Label: "ARI", Lo: -0.5, Hi: 1, Direction: HigherIsBetter, ReadsLabels: true, Evaluated: true},
	{Name: "nmi", Label: "NMI", Lo: 0, Hi: 1, Direction: HigherIsBetter, ReadsLabels: true, Evaluated: true},
	{Name: "acc", Label: "accuracy", Lo: 0, Hi: 1, Direction: HigherIsBetter, ReadsLabels: true, Evaluated: true},
	{Name: "modularity", Label: "modularity", Lo: -0.5, Hi: 1, Direction: HigherIsBetter, Evaluated: true},
	{Name: "entropy", Label: "average entropy", Lo: math.NaN(), Hi: math.NaN(), Direction: LowerIsBetter, ReadsAttributes: true, Evaluated: true},
	{Name: "attr_modularity", Label: "attribute modularity", Lo: -0.5, Hi: 1, Direction: HigherIsBetter, ReadsAttributes: true, Evaluated: true},
	{Name: "ari_connected", Label: "ARI (vertices with an edge)", Lo: -0.5, Hi: 1, Direction: HigherIsBetter, ReadsLabels: true, Evaluated: true},
	{Name: "heldout_modularity", Label: "held-out modularity", Lo: -0.5, Hi: 1, Direction: HigherIsBetter},
	{Name: "ari_unflagged", Label: "ARI (unflagged vertices)", Lo: -0.5, Hi: 1, Direction: HigherIsBetter, ReadsLabels: true},
	{Name: "unflagged_share", Label: "share of unflagged vertices", Lo: 0, Hi: 1, Direction: HigherIsBetter},
	{Name: "fit_seconds", Label: "fit (s)", Lo: math.NaN(), Hi: math.NaN(), Direction: LowerIsBetter},
	{Name: "init_seconds", Label: "initialisation (s)", Lo: math.NaN(), Hi: math.NaN(), Direction: LowerIsBetter},
}

// Lookup returns the catalogue's entry of a measure by its record name. Cost
// O(len(Catalogue)).
func Lookup(name string) (Metric, bool) {
	for _, m := range Catalogue {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// DirectionOf returns the direction of a measure: the catalogue's, higher is better for
// a name it does not hold.
func DirectionOf(name string) Direction {
	if m, ok := Lookup(name); ok {
		return m.Direction
	}
	return HigherIsBetter
}

// Names returns the names of the catalogue's measures for which keep is true, in
// catalogue order.
func Names(keep func(Metric) bool) []string {
	var out []string
	for _, m := range Catalogue {
		if keep(m) {
			out = append(out, m.Name)
		}
	}
	return out
}
