package algorithms

import (
	"context"
	"fmt"
)

// oneStartWhy is why a k-means' starts (SGC k-means' n_init, NAGC's init_n_init) default
// to one from SGCLargeN vertices instead of 10.
var oneStartWhy = fmt.Sprintf(": one k-means++ start from %d vertices, as scikit-learn's n_init=\"auto\"", SGCLargeN)

// DescribeSetting names k2 = k1 as such, and the one k-means start of a large graph.
func (NAGC) DescribeSetting(st Setting, k1, n int) (value, why string) {
	if st.Key == "k2" && st.Value == k1 {
		value = fmt.Sprintf("%d (k1)", k1)
	}
	if st.Key == "init_n_init" && n >= SGCLargeN && st.Value == 1 {
		why = oneStartWhy
	}
	return value, why
}

// DescribeSetting names the one k-means start of a large graph.
func (SGCKMeans) DescribeSetting(st Setting, k1, n int) (value, why string) {
	if st.Key == "n_init" && n >= SGCLargeN && st.Value == 1 {
		why = oneStartWhy
	}
	return "", why
}

// DescribeSetting says what λ = 0 stands for: the weight the graph's norms give it.
func (JWNMF) DescribeSetting(st Setting, k1, n int) (value, why string) {
	if st.Key == "lambda" && st.Value == 0 {
		value = "0.1·‖S‖²/‖X‖² of this graph"
	}
	return value, ""
}

// PrecomputeStart computes JWNMF's default k-means start (CachedKMeansFactors at
// k1 = k2 = k1) into in.Cache, where the fit finds it; false for a start of another
// kind, a filter or a transform, which the fit computes itself.
func (j JWNMF) PrecomputeStart(ctx context.Context, in Input, k1 int, seed uint64) (bool, error) {
	if (j.Init != "" && j.Init != InitKMeans) || j.Filter.P != 0 || TransformOf(j) != "" {
		return false, nil
	}
	_, _, _, err := CachedKMeansFactorsContext(ctx, in, k1, k1, seed)
	return err == nil, err
}
