package metrics_test

import (
	"fmt"
	"log"

	"github.com/nagc-harness/nagc/metrics"
	"github.com/nagc-harness/nagc/sparse"
)

func ExampleARI() {
	truth := []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 2}
	pred := []int{0, 0, 1, 1, 1, 2, 2, 2, 0, 0}
	ari, err := metrics.ARI(truth, pred)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ARI = %.6f\n", ari)

	// Renaming the clusters does not change the score.
	ari, _ = metrics.ARI([]int{0, 0, 1, 1}, []int{1, 1, 0, 0})
	fmt.Printf("ARI = %.6f\n", ari)
	// Output:
	// ARI = 0.090909
	// ARI = 1.000000
}

func ExampleNMI() {
	truth := []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 2}
	pred := []int{0, 0, 1, 1, 1, 2, 2, 2, 0, 0}
	nmi, err := metrics.NMI(truth, pred)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("NMI = %.6f\n", nmi)
	// Output:
	// NMI = 0.394648
}

func ExampleAccuracy() {
	// Four predicted clusters for two classes: the best one-to-one matching sends
	// cluster 10 to class 0 and cluster 20 to class 1; clusters 30 and 40 stay unmatched.
	truth := []int{0, 0, 0, 1, 1, 1}
	pred := []int{10, 10, 30, 20, 20, 40}
	acc, err := metrics.Accuracy(truth, pred)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ACC = %.4f\n", acc)
	// Output:
	// ACC = 0.6667
}

func ExampleMatch() {
	truth := []int{0, 0, 0, 1, 1, 1}
	pred := []int{10, 10, 30, 20, 20, 40}
	m, err := metrics.Match(truth, pred)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m)
	for v := range truth {
		if m[pred[v]] != truth[v] {
			fmt.Println("vertex", v, "misassigned")
		}
	}
	// Output:
	// map[10:0 20:1 30:-1 40:-1]
	// vertex 2 misassigned
	// vertex 5 misassigned
}

func ExampleHungarian() {
	cost := [][]float64{
		{4, 1, 3},
		{2, 0, 5},
		{3, 2, 2},
	}
	fmt.Println(metrics.Hungarian(cost))

	// More rows than columns: one row stays unassigned.
	fmt.Println(metrics.Hungarian([][]float64{{1, 9}, {0, 1}, {5, 5}}))
	// Output:
	// [1 0 2]
	// [0 1 -1]
}

func ExampleModularity() {
	// Two disjoint triangles, labelled by triangle.
	b := sparse.NewBuilder(6, 6)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}} {
		_ = b.Add(e[0], e[1], 1)
		_ = b.Add(e[1], e[0], 1)
	}
	adj := b.CSR(sparse.SumDuplicates)
	q, err := metrics.Modularity(adj, []int{0, 0, 0, 1, 1, 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Q = %.4f\n", q)
	q, _ = metrics.Modularity(adj, []int{0, 0, 0, 0, 0, 0})
	fmt.Printf("Q = %.4f\n", q)
	// Output:
	// Q = 0.5000
	// Q = 0.0000
}

func ExampleAverageEntropy() {
	// Four vertices, two binary attributes; each cluster is pure in one attribute
	// and evenly split in the other.
	b := sparse.NewBuilder(4, 2)
	_ = b.Add(0, 0, 1)
	_ = b.Add(1, 0, 1)
	_ = b.Add(1, 1, 1)
	_ = b.Add(3, 0, 1)
	x := b.CSR(sparse.SumDuplicates)
	e, err := metrics.AverageEntropy(x, []int{0, 0, 1, 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("E = %.4f (ln 2 / 2)\n", e)
	// Output:
	// E = 0.3466 (ln 2 / 2)
}

func ExampleEvaluate() {
	b := sparse.NewBuilder(6, 6)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}} {
		_ = b.Add(e[0], e[1], 1)
		_ = b.Add(e[1], e[0], 1)
	}
	adj := b.CSR(sparse.SumDuplicates)
	xb := sparse.NewBuilder(6, 2)
	for _, v := range []int{0, 1, 2} {
		_ = xb.Add(v, 0, 1)
	}
	for _, v := range []int{2, 3, 4, 5} {
		_ = xb.Add(v, 1, 1)
	}
	x := xb.CSR(sparse.SumDuplicates)

	truth := []int{0, 0, 0, 1, 1, 1}
	pred := []int{0, 0, 1, 1, 1, 1}
	s, err := metrics.Evaluate(truth, pred, adj, x)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ARI %.4f  NMI %.4f  ACC %.4f  Q %.4f  E %.4f\n", s.ARI, s.NMI, s.ACC, s.Modularity, s.Entropy)
	// Output:
	// ARI 0.3243  NMI 0.4787  ACC 0.8333  Q 0.1224  E 0.1874
}

func ExampleARIConnected() {
	// Two triangles and two isolated vertices, one of each class.
	b := sparse.NewBuilder(8, 8)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}} {
		_ = b.Add(e[0], e[1], 1)
		_ = b.Add(e[1], e[0], 1)
	}
	adj := b.CSR(sparse.SumDuplicates)
	truth := []int{0, 0, 0, 1, 1, 1, 0, 1}
	// The triangles are found; nothing tells where the isolated vertices go. By hand: the
	// contingency cells 4, 1, 3 give Σ C(n_ij, 2) = 9, classes Σ C(a, 2) = 12, clusters
	// Σ C(b, 2) = 13 over 28 pairs: ARI = (9 − 12·13/28) / (12.5 − 12·13/28) = 0.494845.
	pred := []int{0, 0, 0, 1, 1, 1, 0, 0}
	all, _ := metrics.ARI(truth, pred)
	conn, err := metrics.ARIConnected(truth, pred, adj)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ARI over all vertices = %.6f, over those with an edge = %.6f\n", all, conn)
	// Output:
	// ARI over all vertices = 0.494845, over those with an edge = 1.000000
}

// Two protocols for a method that flags vertices (PAICAN's anomalies): the ARI over all
// vertices (by hand: (2 − 0.8)/(3.5 − 0.8) = 0.4444), and the ARI over the vertices no
// mask flags, with the share kept.
func ExampleARIKept() {
	truth := []int{0, 0, 1, 1, 2, 2}
	pred := []int{0, 0, 1, 1, 2, 0}
	flags := map[string][]bool{"edge_anomalous": {false, false, false, false, false, true}}
	all, _ := metrics.ARI(truth, pred)
	keep, share, err := metrics.Unflagged(len(pred), flags)
	if err != nil {
		log.Fatal(err)
	}
	kept, err := metrics.ARIKept(truth, pred, keep)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ARI, all vertices: %.4f\nARI, unflagged:    %.4f (%.1f%% of the vertices)\n", all, kept, 100*share)
	// Output:
	// ARI, all vertices: 0.4444
	// ARI, unflagged:    1.0000 (83.3% of the vertices)
}
