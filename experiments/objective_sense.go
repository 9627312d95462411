package experiments

import (
	"slices"

	"github.com/nagc-harness/nagc/algorithms"
)

// maximisers returns the algorithms of cfg's rows whose objective is maximised, sorted,
// for the sweep's provenance (Provenance.Maximises).
func maximisers(cfg *Config) []string {
	var out []string
	for _, m := range cfg.Methods {
		if a := m.Algorithm.Value; algorithms.ObjectiveMaximised(a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}

// ObjectiveMaximised reports whether the runs of algorithm maximise the objective they
// record (false: they minimise it), as the sweeps' provenance says; for results whose
// provenance predates Provenance.Maximises (no sweep lists one), as the registered
// method says.
func ObjectiveMaximised(prov []Provenance, algorithm string) bool {
	recorded := false
	for _, p := range prov {
		if slices.Contains(p.Maximises, algorithm) {
			return true
		}
		recorded = recorded || p.Maximises != nil
	}
	if recorded {
		return false
	}
	return algorithms.ObjectiveMaximised(algorithm)
}
