// Package metrics scores a clustering of an attributed graph.
//
// External measures compare predicted cluster labels with ground-truth classes:
// ARI (adjusted Rand index) and NMI (normalized mutual information), both identical to
// scikit-learn's adjusted_rand_score and normalized_mutual_info_score (arithmetic mean,
// natural logarithm), and ACC, the clustering accuracy after the best one-to-one
// matching of clusters to classes (Hungarian algorithm; see Accuracy, Match and Hungarian).
//
// Internal measures score the clusters against the data: Modularity on the adjacency
// matrix and AverageEntropy on the attribute matrix, both as defined by the paper's
// authors and computed from the sparse matrices in O(nnz) time.
//
// Labels are arbitrary non-negative ints; they need not be contiguous. Every function
// works from a sparse contingency table, so no cost is quadratic in the number of
// vertices. Input mismatches (length, dimensions, negative labels) are reported as
// errors; Evaluate computes all five scores at once.
package metrics
