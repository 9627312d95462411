package metrics

import (
	"fmt"
	"math"
	"math/big"
)

// contingency is the sparse contingency table of two labelings: cell (i, j) counts the
// elements in class i of the truth and cluster j of the prediction. Classes and clusters
// are indexed in increasing label order; only non-zero cells are stored, row-major.
type contingency struct {
	n        int
	classes  []int // distinct truth labels, increasing
	clusters []int // distinct predicted labels, increasing
	a        []int // class sizes
	b        []int // cluster sizes
	ci       []int // class index of each non-zero cell
	cj       []int // cluster index of each non-zero cell
	nij      []int // count of each non-zero cell
}

// newContingency builds the contingency table of truth against pred.
// Cost O(n + k1 + k2) (O(n log n) when labels are much larger than n).
func newContingency(truth, pred []int) (*contingency, error) {
	if len(truth) != len(pred) {
		return nil, fmt.Errorf("metrics: truth has %d labels, pred has %d: %w", len(truth), len(pred), errLength)
	}
	truth, pred = labelled(truth, pred)
	ti, classes, err := compress(truth, "truth")
	if err != nil {
		return nil, err
	}
	pi, clusters, err := compress(pred, "pred")
	if err != nil {
		return nil, err
	}
	n := len(truth)
	c := &contingency{
		n:        n,
		classes:  classes,
		clusters: clusters,
		a:        make([]int, len(classes)),
		b:        make([]int, len(clusters)),
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
		c.a[ti[i]]++
		c.b[pi[i]]++
	}
	// Two stable counting sorts: by cluster, then by class, give row-major order.
	order = countingOrder(order, pi, len(clusters))
	order = countingOrder(order, ti, len(classes))
	for k, o := range order {
		if k > 0 && ti[o] == c.ci[len(c.ci)-1] && pi[o] == c.cj[len(c.cj)-1] {
			c.nij[len(c.nij)-1]++
			continue
		}
		c.ci = append(c.ci, ti[o])
		c.cj = append(c.cj, pi[o])
		c.nij = append(c.nij, 1)
	}
	return c, nil
}

// ARI returns the adjusted Rand index of the labeling pred against truth, identical to
// scikit-learn's adjusted_rand_score: it is computed from the pair confusion matrix in
// exact integer arithmetic and returns 1 when the two labelings agree on every pair
// (including the empty input, both labelings a single cluster, or both all singletons).
// Labels are arbitrary non-negative ints. It returns an error when the lengths differ or
// a label is negative. Cost O(n + #non-zero contingency cells).
func ARI(truth, pred []int) (float64, error) {
	c, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	n := int64(c.n)
	var sumSq, sumA, sumB int64
	for _, v := range c.nij {
		sumSq += int64(v) * int64(v)
	}
	for _, v := range c.a {
		sumA += int64(v) * int64(v)
	}
	for _, v := range c.b {
		sumB += int64(v) * int64(v)
	}
	// Ordered-pair counts, as in sklearn's pair_confusion_matrix.
	tp := big.NewInt(sumSq - n)
	fp := big.NewInt(sumB - sumSq)
	fn := big.NewInt(sumA - sumSq)
	tn := new(big.Int).Mul(big.NewInt(n), big.NewInt(n))
	tn.Sub(tn, fp).Sub(tn, fn).Sub(tn, big.NewInt(sumSq))
	if fn.Sign() == 0 && fp.Sign() == 0 {
		return 1, nil
	}
	mul := func(x, y *big.Int) *big.Int { return new(big.Int).Mul(x, y) }
	add := func(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) }
	num := new(big.Int).Sub(mul(tp, tn), mul(fn, fp))
	den := add(mul(add(tp, fn), add(fn, tn)), mul(add(tp, fp), add(fp, tn)))
	// Python evaluates 2.0*num/den as float(2*num)/float(den); so do we.
	fnum, _ := new(big.Float).SetInt(num).Float64()
	fden, _ := new(big.Float).SetInt(den).Float64()
	return 2 * fnum / fden, nil
}

// NMI returns the normalized mutual information of pred against truth with arithmetic
// mean normalisation and natural logarithm, identical to scikit-learn's
// normalized_mutual_info_score with its defaults: MI / ((H(truth) + H(pred)) / 2).
// It returns 1 when both labelings are a single cluster (or empty) and 0 when the mutual
// information is zero. It returns an error when the lengths differ or a label is negative.
// Cost O(n + #non-zero contingency cells).
func NMI(truth, pred []int) (float64, error) {
	c, err := newContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	k1, k2 := len(c.classes), len(c.clusters)
	if k1 == k2 && (k1 == 0 || k1 == 1) {
		return 1, nil
	}
	mi := c.mutualInfo()
	if mi == 0 {
		return 0, nil
	}
	norm := (labelEntropy(c.a, c.n) + labelEntropy(c.b, c.n)) / 2
	return mi / norm, nil
}

// mutualInfo returns the mutual information in nats, following sklearn's
// mutual_info_score term by term (including its flushing of terms below machine epsilon
// to zero and clipping at zero).
func (c *contingency) mutualInfo() float64 {
	if len(c.a) == 1 || len(c.b) == 1 {
		return 0
	}
	total := float64(c.n)
	logTotal := math.Log(total)
	const eps = 0x1p-52
	var mi float64
	for k, v := range c.nij {
		nm := float64(v) / total
		outer := float64(int64(c.a[c.ci[k]]) * int64(c.b[c.cj[k]]))
		logOuter := -math.Log(outer) + logTotal + logTotal
		t := nm*(math.Log(float64(v))-logTotal) + nm*logOuter
		if math.Abs(t) < eps {
			t = 0
		}
		mi += t
	}
	return max(mi, 0)
}

// labelEntropy returns the entropy in nats of a labeling with the given cluster sizes
// (all positive) summing to n, as sklearn's entropy does.
func labelEntropy(sizes []int, n int) float64 {
	if len(sizes) == 1 {
		return 0
	}
	total := float64(n)
	logTotal := math.Log(total)
	var h float64
	for _, s := range sizes {
		p := float64(s)
		h += (p / total) * (math.Log(p) - logTotal)
	}
	return -h
}
