package datasets

import (
	"path/filepath"
	"testing"

	"github.com/nagc-harness/nagc/internal/attrtest"
)

// BenchmarkSynthetic1M generates a graph of 10⁶ vertices, average degree 10, 1000
// attributes and 20 attribute draws per vertex.
func BenchmarkSynthetic1M(b *testing.B) {
	if testing.Short() {
		b.Skip("1M-vertex generation skipped in -short mode")
	}
	cfg := SyntheticConfig{N: 1_000_000, M: 1000, K1: 10, K2: 20, AvgDegree: 10, PIn: 0.8,
		AttrPerVertex: 20, AttrSignal: 0.7, Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Synthetic(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadLINQS reads each of the paper's datasets.
func BenchmarkLoadLINQS(b *testing.B) {
	for _, name := range PaperNames() {
		b.Run(name, func(b *testing.B) {
			dir := paperDir(b, name)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadLINQS(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// toTestGraph returns g in the form the format writers of the tests take.
func toTestGraph(g *Graph) testGraph {
	tg := testGraph{ids: g.IDs, x: make([][]float64, g.N())}
	for i := range tg.x {
		tg.x[i] = make([]float64, g.M())
		cols, vals := attrtest.Sparse(g.X).Row(i)
		for k, j := range cols {
			tg.x[i][j] = vals[k]
		}
		nb, w := g.Adj.Row(i)
		for k, j := range nb {
			if j >= i {
				tg.edges = append(tg.edges, [3]float64{float64(i), float64(j), w[k]})
			}
		}
	}
	for _, l := range g.Labels {
		tg.labels = append(tg.labels, g.ClassNames[l])
	}
	return tg
}

// BenchmarkOpen reads cora in each format Open supports: the LINQS folder, and the same
// graph written as an edge list with dense CSV features, as Matrix Market and as npz.
func BenchmarkOpen(b *testing.B) {
	dir, err := Locate("cora")
	if err != nil {
		b.Skip(err)
	}
	g, err := LoadLINQS(dir)
	if err != nil {
		b.Fatal(err)
	}
	tg := toTestGraph(g)
	root := b.TempDir()
	tg.writeEdgeList(b, filepath.Join(root, "edgelist"))
	tg.writeMTX(b, filepath.Join(root, "mtx"))
	tg.writeNPZ(b, filepath.Join(root, "cora.npz"))
	for _, c := range []struct{ name, path string }{
		{"linqs", dir},
		{"edgelist", filepath.Join(root, "edgelist")},
		{"mtx", filepath.Join(root, "mtx")},
		{"npz", filepath.Join(root, "cora.npz")},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h, _, err := Open(Spec{Path: c.path})
				if err != nil {
					b.Fatal(err)
				}
				if h.Fingerprint() != g.Fingerprint() {
					b.Fatal("read another graph")
				}
			}
		})
	}
}
