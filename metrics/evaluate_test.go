package metrics

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/nagc-harness/nagc/sparse"
)

func TestEvaluate(t *testing.T) {
	adj := undirected(6, [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}})
	b := sparse.NewBuilder(6, 3)
	for _, e := range [][2]int{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {3, 1}, {4, 1}, {5, 2}} {
		_ = b.Add(e[0], e[1], 1)
	}
	x := b.CSR(sparse.SumDuplicates)
	truth := []int{0, 0, 0, 1, 1, 1}
	pred := []int{5, 5, 2, 2, 2, 2}

	s, err := Evaluate(truth, pred, adj, x)
	if err != nil {
		t.Fatal(err)
	}
	ari, _ := ARI(truth, pred)
	nmi, _ := NMI(truth, pred)
	acc, _ := Accuracy(truth, pred)
	q, _ := Modularity(adj, pred)
	e, _ := AverageEntropy(x, pred)
	qx, _ := AttributeModularity(x, pred)
	// No vertex of adj is isolated, so ARIConnected is the ARI.
	want := Scores{ARI: ari, NMI: nmi, ACC: acc, Modularity: q, Entropy: e, AttrModularity: qx, ARIConnected: ari}
	if s != want {
		t.Errorf("Evaluate = %+v, want %+v", s, want)
	}
	if math.Abs(s.ACC-5.0/6) > tol {
		t.Errorf("ACC = %v, want 5/6", s.ACC)
	}

	// Without labels: the label-reading measures are absent, the others as with labels.
	u, err := Evaluate(nil, pred, adj, x)
	if err != nil {
		t.Fatal(err)
	}
	if u.Labelled() || !s.Labelled() {
		t.Errorf("Labelled: %v without truth, %v with", u.Labelled(), s.Labelled())
	}
	named := u.Named()
	for _, m := range LabelMetrics {
		if _, ok := named[m]; ok {
			t.Errorf("unlabelled Named() has %s", m)
		}
	}
	if len(named) != 3 || named["modularity"] != q || named["entropy"] != e || named["attr_modularity"] != qx {
		t.Errorf("unlabelled Named() = %v, want modularity %v, entropy %v, attr_modularity %v", named, q, e, qx)
	}
	if len(s.Named()) != 7 {
		t.Errorf("labelled Named() = %v, want all seven", s.Named())
	}

	// Without attributes (m = 0): the measures of the attributes are absent, the others
	// as with attributes.
	none, _ := sparse.NewCSR(6, 0, make([]int, 7), nil, nil)
	a, err := Evaluate(truth, pred, adj, none)
	if err != nil {
		t.Fatal(err)
	}
	if a.Attributed() || !s.Attributed() {
		t.Errorf("Attributed: %v without attributes, %v with", a.Attributed(), s.Attributed())
	}
	named = a.Named()
	if len(named) != 5 || named["ari"] != ari || named["modularity"] != q || named["ari_connected"] != ari {
		t.Errorf("Named() without attributes = %v, want ari, nmi, acc, ari_connected and modularity", named)
	}
	for _, m := range AttributeMetrics {
		if _, ok := named[m]; ok {
			t.Errorf("Named() without attributes has %s", m)
		}
	}
	noneShort, _ := sparse.NewCSR(5, 0, make([]int, 6), nil, nil)

	got, err := json.Marshal(Scores{ARI: 1, NMI: 2, ACC: 3, Modularity: 4, Entropy: 5, AttrModularity: 6, ARIConnected: 7})
	if err != nil {
		t.Fatal(err)
	}
	if wantJSON := `{"ari":1,"nmi":2,"acc":3,"modularity":4,"entropy":5,"attr_modularity":6,"ari_connected":7}`; string(got) != wantJSON {
		t.Errorf("JSON = %s, want %s", got, wantJSON)
	}

	for _, tc := range []struct {
		name        string
		truth, pred []int
		adj, x      *sparse.CSR
	}{
		{"nil adj", truth, pred, nil, x},
		{"nil x", truth, pred, adj, nil},
		{"length", truth, pred[:5], adj, x},
		{"negative", truth, []int{0, 0, 0, 1, 1, -1}, adj, x},
		{"adj size", truth[:3], pred[:3], adj, x},
		{"x rows without attributes", truth, pred, adj, noneShort},
	} {
		if s, err := Evaluate(tc.truth, tc.pred, tc.adj, tc.x); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if s != (Scores{}) {
			t.Errorf("%s: non-zero scores %+v with error", tc.name, s)
		}
	}
}
