package datasets

import "testing"

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
