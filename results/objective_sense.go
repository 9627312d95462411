package results

import "slices"

// ObjectiveMaximised reports whether the runs of algorithm maximise the objective they
// record (false: they minimise it), as the sweeps' provenance says; for results whose
// provenance predates Provenance.Maximises (no sweep lists one), as the methods of that
// time did (bagc, paican, sa-cluster and inc-cluster maximised theirs).
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
	return slices.Contains(maximisedBefore, algorithm)
}

// maximisedBefore lists the algorithms whose objective was maximised when sweeps did not
// yet record it (Provenance.Maximises): what results of that time are read with. A
// method registered since has its sense recorded and needs no entry.
var maximisedBefore = []string{"bagc", "inc-cluster", "paican", "sa-cluster"}

// SetObjectiveSense marks each point whose method maximises its objective, as prov
// records it (ObjectiveMaximised of the point's algorithm), so that SelectObjective
// picks the best final objective of every method, the largest where it is maximised.
func SetObjectiveSense(points []*PointStats, prov []Provenance) {
	for _, p := range points {
		if len(p.Records) > 0 {
			p.Maximised = ObjectiveMaximised(prov, p.Records[0].Algorithm)
		}
	}
}
