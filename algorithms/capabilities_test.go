package algorithms

import (
	"context"
	"math"
	"testing"
)

// capabilities are a method's answers to the capability questions, and which of the
// cost questions it answers itself (the others take the default estimate or none).
type capabilities struct {
	readsLabels, needsNonNegative, maximises bool
	work, iterationWork, memory              bool
}

// answers returns m's answers.
func answers(m Method) capabilities {
	_, work := m.(WorkEstimator)
	_, iteration := m.(IterationWorkEstimator)
	_, mem := m.(MemoryEstimator)
	return capabilities{MethodReadsLabels(m), NeedsNonNegativeAttributes(m), MaximisesObjective(m), work, iteration, mem}
}

// TestCapabilities checks every registered method's answers at its defaults and at the
// settings that change them: NAGC reads the labels with init kmeans-median-ari; NAGC
// and NMF refuse negative attributes unless a transform makes them non-negative; the
// variational methods (an ELBO) and SA-Cluster's family (a similarity) maximise their
// objective, the factorisations and k-means minimise a loss.
func TestCapabilities(t *testing.T) {
	atDefaults := map[string]capabilities{
		"nagc":        {needsNonNegative: true, work: true, iterationWork: true, memory: true},
		"nmf":         {needsNonNegative: true},
		"kmeans":      {work: true, memory: true},
		"sgc-kmeans":  {work: true, memory: true},
		"metis":       {work: true},
		"snmf":        {},
		"jwnmf":       {},
		"bagc":        {maximises: true},
		"paican":      {maximises: true},
		"sa-cluster":  {maximises: true},
		"inc-cluster": {maximises: true},
	}
	registeredByTests := map[string]bool{"quick-kmeans": true, capsMethodName: true}
	for _, name := range Names() {
		want, ok := atDefaults[name]
		if !ok {
			if !registeredByTests[name] {
				t.Errorf("%s: no answers in the table; add them", name)
			}
			continue
		}
		m, err := New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := answers(m); got != want {
			t.Errorf("%s at its defaults: answers %+v, want %+v", name, got, want)
		}
		if ObjectiveMaximised(name) != want.maximises {
			t.Errorf("ObjectiveMaximised(%q) = %v, want %v", name, !want.maximises, want.maximises)
		}
		if w := EstimateWork(m, arxivShape); !(w > 0) || math.IsInf(w, 0) {
			t.Errorf("%s: work %v on the arxiv shape, want positive and finite", name, w)
		}
	}
	for _, c := range []struct {
		name   string
		params map[string]any
		want   capabilities
	}{
		{"nagc", map[string]any{"init": InitKMeansMedianARI}, capabilities{readsLabels: true, needsNonNegative: true}},
		{"nagc", map[string]any{"init": InitKMeans, "transform": "l2"}, capabilities{needsNonNegative: true}},
		{"nagc", map[string]any{"transform": "split"}, capabilities{}},
		{"nagc", map[string]any{"transform": "shift"}, capabilities{}},
		{"nmf", map[string]any{"transform": "minmax"}, capabilities{}},
		{"nmf", map[string]any{"transform": "none"}, capabilities{needsNonNegative: true}},
		{"kmeans", map[string]any{"transform": "split"}, capabilities{}},
	} {
		m, err := New(c.name, c.params)
		if err != nil {
			t.Fatal(err)
		}
		got := answers(m)
		got.work, got.iterationWork, got.memory = false, false, false // checked at the defaults
		if got != c.want {
			t.Errorf("%s %v: answers %+v, want %+v", c.name, c.params, got, c.want)
		}
	}
	if ObjectiveMaximised("no-such-method") {
		t.Error("an unknown method is said to maximise its objective")
	}
}

// capsMethodName is the method of the caller's own that TestRegisteredCapabilities
// registers.
const capsMethodName = "caps-test"

// capsMethod is a method of the caller's own that answers every capability question
// by its options.
type capsMethod struct {
	Labels   bool `yaml:"labels"`
	Positive bool `yaml:"positive"`
	Maximise bool `yaml:"maximise"`
}

func (capsMethod) Name() string { return capsMethodName }

func (capsMethod) Fit(context.Context, Input, int, uint64) (*Result, error) { return nil, nil }

func (c capsMethod) ReadsLabels() bool                { return c.Labels }
func (c capsMethod) NeedsNonNegativeAttributes() bool { return c.Positive }
func (c capsMethod) MaximisesObjective() bool         { return c.Maximise }

// TestRegisteredCapabilities checks that a registered method of the caller's own answers
// through the same interfaces as the built-in ones, and that a run's options alone
// (ReadsLabels) find the settings that make it read the labels once it is registered.
func TestRegisteredCapabilities(t *testing.T) {
	labels := map[string]any{"labels": true}
	if ReadsLabels(labels) {
		t.Fatalf("ReadsLabels(%v) before %s is registered: true", labels, capsMethodName)
	}
	if err := Register(capsMethodName, func() any { return &capsMethod{} }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the other tests fit every registered method
		registryMu.Lock()
		defer registryMu.Unlock()
		delete(registry, capsMethodName)
		labelReadingSettings.Clear()
	})
	for _, c := range []struct {
		params map[string]any
		want   capabilities
	}{
		{nil, capabilities{}},
		{labels, capabilities{readsLabels: true}},
		{map[string]any{"positive": true, "maximise": true}, capabilities{needsNonNegative: true, maximises: true}},
	} {
		m, err := New(capsMethodName, c.params)
		if err != nil {
			t.Fatal(err)
		}
		if got := answers(m); got != c.want {
			t.Errorf("%v: answers %+v, want %+v", c.params, got, c.want)
		}
		if got := ReadsLabels(c.params); got != c.want.readsLabels {
			t.Errorf("ReadsLabels(%v) = %v, want %v", c.params, got, c.want.readsLabels)
		}
	}
}

// TestReadsLabels checks the question asked of a run's options alone: the settings of
// a registered method that read the labels, and the parameter a program's runs record.
func TestReadsLabels(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		want   bool
	}{
		{nil, false},
		{map[string]any{"init": "kmeans"}, false},
		{map[string]any{"init": InitKMeansMedianARI, "lambda": 0.01}, true},
		{map[string]any{"init": InitKMeansMedianARI, "k2": 4.0}, true}, // as read back from JSON
		{map[string]any{"p": 2}, false},
		{map[string]any{"reads_labels": true, "alpha": 1}, true},
		{map[string]any{"reads_labels": false}, false},
		{map[string]any{"init": InitKMeansMedianARI, "weights": []any{1.0, 2.0}}, true}, // a value no map key can hold
		{map[string]any{"lambda": math.NaN()}, false},
	} {
		if got := ReadsLabels(c.params); got != c.want {
			t.Errorf("ReadsLabels(%v) = %v, want %v", c.params, got, c.want)
		}
	}
	before := 0
	labelReadingSettings.Range(func(_, _ any) bool { before++; return true })
	ReadsLabels(map[string]any{"lambda": math.NaN()})
	after := 0
	labelReadingSettings.Range(func(_, _ any) bool { after++; return true })
	if after != before {
		t.Errorf("asked of NaN, ReadsLabels keeps %d answers more", after-before)
	}
}
