package algorithms

// objectiveMaximiser is implemented by the methods whose Result.Objective is maximised
// (an ELBO or a bound on a likelihood, a similarity to the cluster centres); every other
// method's objective is a loss it minimises.
type objectiveMaximiser interface {
	MaximisesObjective() bool
}

// MaximisesObjective reports that BAGC's Result.Objective, its ELBO (or, at protocol
// reference, the lower bound of its author's code), is maximised.
func (BAGC) MaximisesObjective() bool { return true }

// MaximisesObjective reports that PAICAN's Result.Objective, its ELBO, is maximised.
func (PAICAN) MaximisesObjective() bool { return true }

// MaximisesObjective reports that SA-Cluster's Result.Objective, the walk similarity of
// every vertex to its centre (each vertex joins the centre of largest similarity), is
// maximised; Inc-Cluster, which embeds SA-Cluster, inherits it.
func (SACluster) MaximisesObjective() bool { return true }

// ObjectiveMaximised reports whether the method registered as name maximises the
// objective it records in Result.Objective (false: it minimises it, or name is not a
// registered method).
func ObjectiveMaximised(name string) bool {
	mk, ok := lookup(name)
	if !ok {
		return false
	}
	m, ok := mk().(objectiveMaximiser)
	return ok && m.MaximisesObjective()
}
