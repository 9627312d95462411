package metrics

import (
	"math/rand/v2"
	"testing"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/sparse"
)

// attributePair returns an n×m attribute matrix with about a third of its entries zero,
// as a CSR of its non-zero entries and as dense float64 and float32 matrices of the same
// values (float32-exact), negated where signed.
func attributePair(rng *rand.Rand, n, m int, signed bool) (*sparse.CSR, *dense.Matrix, *dense.Matrix) {
	b := sparse.NewBuilder(n, m)
	d64, d32 := make([]float64, n*m), make([]float32, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if i == 0 || rng.IntN(3) == 0 { // row 0 all zero
				continue
			}
			v := float64(float32(rng.Float64() + 0.01))
			if signed && rng.IntN(2) == 0 {
				v = -v
			}
			_ = b.Add(i, j, v)
			d64[i*m+j], d32[i*m+j] = v, float32(v)
		}
	}
	return b.CSR(sparse.SumDuplicates), dense.NewMatrix64(n, m, d64), dense.NewMatrix32(n, m, d32)
}

// TestAttributeMeasuresDenseEqualSparse checks that the average entropy and the attribute
// modularity of dense attributes, float64 and float32, are those of the CSR of the same
// values, bit for bit, over random matrices and partitions (a row of zeros included).
func TestAttributeMeasuresDenseEqualSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	for trial := 0; trial < 20; trial++ {
		n, m, k := 5+rng.IntN(60), 1+rng.IntN(20), 1+rng.IntN(6)
		x, d64, d32 := attributePair(rng, n, m, false)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(k)
		}
		wantE, err := AverageEntropy(x, labels)
		if err != nil {
			t.Fatal(err)
		}
		wantQ, err := AttributeModularity(x, labels)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []*dense.Matrix{d64, d32} {
			if e, err := AverageEntropyDense(d, labels); err != nil || e != wantE {
				t.Errorf("trial %d float32 %v: entropy %v (%v), sparse %v", trial, d.Is32(), e, err, wantE)
			}
			if q, err := AttributeModularityDense(d, labels); err != nil || q != wantQ {
				t.Errorf("trial %d float32 %v: attribute modularity %v (%v), sparse %v", trial, d.Is32(), q, err, wantQ)
			}
			s, err := Evaluate(nil, labels, undirected(n, [][2]int{{0, 1}}), d)
			if err != nil || s.Entropy != wantE || s.AttrModularity != wantQ || !s.HasAttrModularity() {
				t.Errorf("trial %d: Evaluate of dense attributes %+v (%v), want entropy %v, attribute modularity %v", trial, s, err, wantE, wantQ)
			}
		}
	}
}

// TestEvaluateSignedDenseAttributes checks that Evaluate of signed dense attributes keeps
// the entropy of their zero pattern (that of the CSR of the same values) and leaves the
// attribute modularity out, which the same signed CSR refuses.
func TestEvaluateSignedDenseAttributes(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 0))
	x, d64, _ := attributePair(rng, 40, 9, true)
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = i % 3
	}
	wantE, err := AverageEntropy(x, labels)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AttributeModularity(x, labels); err == nil {
		t.Fatal("attribute modularity of signed attributes: no error")
	}
	s, err := Evaluate(labels, labels, undirected(40, [][2]int{{0, 1}}), d64)
	if err != nil {
		t.Fatal(err)
	}
	named := s.Named()
	if _, ok := named["attr_modularity"]; ok || s.HasAttrModularity() {
		t.Errorf("signed dense attributes: attribute modularity recorded: %v", named)
	}
	if e, ok := named["entropy"]; !ok || e != wantE || e <= 0 {
		t.Errorf("signed dense attributes: entropy %v (recorded %v), want %v", e, ok, wantE)
	}
	if _, err := Evaluate(labels, labels, undirected(40, [][2]int{{0, 1}}), (*dense.Matrix)(nil)); err == nil {
		t.Error("Evaluate of a nil dense matrix: no error")
	}
}
