package experiments

import (
	"math"
	"testing"

	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/results"
)

// TestSearchRulesMaximise checks RuleValue, which a search maximises, against the metrics
// catalogue's directions: a rule's value rises as each measure it reads gets better
// (metrics.DirectionOf), so that no search rule minimises a measure by mistake.
func TestSearchRulesMaximise(t *testing.T) {
	base := map[string]float64{}
	for _, m := range metrics.Catalogue {
		base[m.Name] = 0.25
	}
	for _, rule := range searchRules {
		v0, ok := results.RuleValue(rule, base)
		if !ok {
			t.Fatalf("rule %s: no value of %v", rule, base)
		}
		read := 0
		for _, m := range metrics.Catalogue {
			better := map[string]float64{}
			for k, v := range base {
				better[k] = v
			}
			better[m.Name] = 0.5
			if metrics.DirectionOf(m.Name) == metrics.LowerIsBetter {
				better[m.Name] = 0
			}
			v, ok := results.RuleValue(rule, better)
			if !ok || math.IsNaN(v) {
				t.Fatalf("rule %s: no value once %s improves", rule, m.Name)
			}
			if v != v0 {
				read++
				if v < v0 {
					t.Errorf("rule %s falls from %v to %v as %s gets better", rule, v0, v, m.Name)
				}
			}
		}
		if read == 0 {
			t.Errorf("rule %s reads no measure of the catalogue", rule)
		}
	}
}
