package algorithms

import (
	"context"
	"math"
	"slices"
	"sync"
)

// The capability questions a caller asks of a method, each an optional interface that
// the method answers for itself (beside MemoryEstimator and WorkEstimator), and a
// function giving the answer of a method that does not implement it. A method of the
// caller's own (Register) or a program (package command) answers through the same
// interfaces.

// LabelReader is a method whose settings may make its fits read the ground-truth labels
// before clustering (NAGC's kmeans-median-ari start, a program given them): its results
// are then not label-free, whatever rule selects them.
type LabelReader interface {
	// ReadsLabels reports whether a fit with the method's settings reads the labels.
	ReadsLabels() bool
}

// NonNegativityNeeder is a method that, with some settings, refuses attributes holding
// a negative value.
type NonNegativityNeeder interface {
	// NeedsNonNegativeAttributes reports whether a fit with the method's settings
	// refuses attributes holding a negative value.
	NeedsNonNegativeAttributes() bool
}

// ObjectiveMaximiser is a method that says which way its Result.Objective improves.
type ObjectiveMaximiser interface {
	// MaximisesObjective reports whether Result.Objective is maximised (an ELBO, a
	// similarity) rather than minimised (a loss).
	MaximisesObjective() bool
}

// MethodReadsLabels reports whether a fit of m reads the ground-truth labels
// (LabelReader); false for a method that does not say.
func MethodReadsLabels(m Method) bool {
	r, ok := m.(LabelReader)
	return ok && r.ReadsLabels()
}

// NeedsNonNegativeAttributes reports whether m refuses attributes holding a negative
// value (NonNegativityNeeder); false for a method that does not say. NAGC and NMF
// factorise them unless their option transform is one of NonNegativeTransforms;
// k-means, SGC k-means, METIS and SNMF take any values, and JWNMF, BAGC and the other
// baselines read sparse attributes, which the readers keep ≥ 0.
func NeedsNonNegativeAttributes(m Method) bool {
	r, ok := m.(NonNegativityNeeder)
	return ok && r.NeedsNonNegativeAttributes()
}

// MaximisesObjective reports whether m maximises the objective it records in
// Result.Objective (ObjectiveMaximiser); false, a loss it minimises, for a method that
// does not say.
func MaximisesObjective(m Method) bool {
	r, ok := m.(ObjectiveMaximiser)
	return ok && r.MaximisesObjective()
}

// ObjectiveMaximised reports whether the method registered as name, at its default
// settings, maximises the objective it records in Result.Objective (MaximisesObjective;
// false: it minimises it, or name is not a registered method).
func ObjectiveMaximised(name string) bool {
	m, err := New(name, nil)
	return err == nil && MaximisesObjective(m)
}

// ReadsLabels reports whether a run with options params reads the ground-truth labels,
// for a caller that holds a run's options but not its method: the parameter
// reads_labels: true that the runs of a program given the labels record, or a setting
// of params that alone makes a registered method read them (MethodReadsLabels of the
// method with that setting and not at its defaults: NAGC's init kmeans-median-ari). Its
// results are then not label-free, whatever rule selects them. Cost: a map look-up per
// setting, and New of the methods taking it the first time a setting is seen (the
// answers are kept until Register).
func ReadsLabels(params map[string]any) bool {
	if b, ok := params["reads_labels"].(bool); ok && b {
		return true
	}
	for key, value := range params {
		if settingReadsLabels(key, value) {
			return true
		}
	}
	return false
}

// setting is one option and its value, as a run's options hold it.
type setting struct {
	key   string
	value any
}

// labelReadingSettings holds settingReadsLabels' answers by setting, cleared by
// Register.
var labelReadingSettings sync.Map

// settingReadsLabels reports whether the setting key: value alone makes a registered
// method read the labels (see ReadsLabels).
func settingReadsLabels(key string, value any) bool {
	s := setting{key, value}
	kept := scalar(value) // a key of the map
	if kept {
		if v, ok := labelReadingSettings.Load(s); ok {
			return v.(bool)
		}
	}
	reads := false
	for _, name := range Names() {
		m, err := New(name, map[string]any{key: value}) // fails at once without the option
		if err != nil || !MethodReadsLabels(m) {
			continue
		}
		if d, err := New(name, nil); err != nil || !MethodReadsLabels(d) {
			reads = true
			break
		}
	}
	if kept {
		labelReadingSettings.Store(s, reads)
	}
	return reads
}

// scalar reports whether v is a scalar option value that a map key finds again
// (comparable, and not NaN, which equals nothing).
func scalar(v any) bool {
	switch x := v.(type) {
	case string, bool, int, int64, uint64:
		return true
	case float64:
		return !math.IsNaN(x)
	}
	return false
}

// ReadsLabels reports whether a NAGC fit reads the labels: its init kmeans-median-ari
// keeps, of its k-means starts, the one of median ARI against them.
func (a NAGC) ReadsLabels() bool { return a.Init == InitKMeansMedianARI }

// NeedsNonNegativeAttributes reports whether a NAGC fit refuses negative attributes: it
// factorises them, unless its transform makes them non-negative.
func (a NAGC) NeedsNonNegativeAttributes() bool { return !nonNegativeTransform(a) }

// NeedsNonNegativeAttributes reports whether an NMF fit refuses negative attributes: it
// factorises them, unless its transform makes them non-negative.
func (a NMF) NeedsNonNegativeAttributes() bool { return !nonNegativeTransform(a) }

// nonNegativeTransform reports whether m's attribute transform is one of
// NonNegativeTransforms.
func nonNegativeTransform(m Method) bool {
	return slices.Contains(NonNegativeTransforms, TransformOf(m))
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

// StartPrecomputer is a method that counts its initialisation in its fit time
// (Result.FitTime) but can compute it beforehand, into the input's cache where the fit
// then finds it, so that a caller timing fits can time the start apart.
type StartPrecomputer interface {
	// PrecomputeStart computes into in.Cache the initialisation that a fit on in with
	// k1 clusters and seed would compute, and reports whether the method's settings
	// have one to precompute (false: nothing was computed).
	PrecomputeStart(ctx context.Context, in Input, k1 int, seed uint64) (bool, error)
}

// SettingDescriber is a method that says what a setting's value stands for where the
// graph chose it.
type SettingDescriber interface {
	// DescribeSetting returns, for setting st of a fit with k1 clusters on n vertices,
	// the text of its value ("" for the plain value) and, when st took its default,
	// why the graph's size chose that default ("" for no reason to give).
	DescribeSetting(st Setting, k1, n int) (value, why string)
}
