package datasets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"

	"github.com/nagc-harness/nagc/sparse"
)

// SyntheticConfig parameterises Synthetic, an attributed graph with k1 planted vertex
// clusters and k2 planted attribute clusters.
type SyntheticConfig struct {
	// N is the number of vertices and M the number of attribute columns.
	N, M int
	// K1 is the number of vertex clusters (the classes) and K2 the number of
	// attribute clusters (contiguous vocabularies of columns).
	K1, K2 int
	// AvgDegree is the target average degree. Each vertex makes about
	// AvgDegree/2 edge draws, so the realised average degree is slightly
	// below it after duplicate edges are merged.
	AvgDegree float64
	// PIn is the probability that an edge draw picks the other endpoint inside
	// the vertex's own cluster; otherwise it is uniform over all vertices.
	PIn float64
	// AttrPerVertex is the expected number of attribute draws per vertex (the
	// expected non-zeros of a row of X before duplicate draws are merged).
	AttrPerVertex float64
	// AttrSignal is the probability that an attribute draw comes from the
	// vocabularies AttrMap(c) of the vertex's cluster c; otherwise the column is
	// uniform over all M.
	AttrSignal float64
	// SelfLoops keeps edge draws that land on the drawing vertex as self-loops.
	// When false such draws are redrawn (at most 16 times, then skipped).
	SelfLoops bool
	// Seed determines every random draw: equal configurations give identical
	// graphs.
	Seed uint64
}

// DefaultSynthetic returns the configuration Load("synthetic") uses: 600 vertices in 4
// clusters, 300 attributes in 6 vocabularies, average degree 8 with 85 % of edges inside
// clusters, 15 attributes per vertex of which 70 % carry the cluster signal, seed 1.
func DefaultSynthetic() SyntheticConfig {
	return SyntheticConfig{
		N: 600, M: 300, K1: 4, K2: 6,
		AvgDegree:     8,
		PIn:           0.85,
		AttrPerVertex: 15,
		AttrSignal:    0.7,
		Seed:          1,
	}
}

// maxSyntheticEntries bounds the number of random draws Synthetic makes, so that a wrong
// configuration gives an error instead of exhausting memory.
const maxSyntheticEntries = 1 << 31

// Validate returns an error describing the first invalid field of cfg, or nil.
// Cost O(1).
func (cfg SyntheticConfig) Validate() error {
	switch {
	case cfg.N <= 0 || cfg.N > math.MaxInt32:
		return fmt.Errorf("datasets: synthetic N = %d, want 1 ≤ N ≤ 2³¹−1", cfg.N)
	case cfg.M <= 0 || cfg.M > math.MaxInt32:
		return fmt.Errorf("datasets: synthetic M = %d, want 1 ≤ M ≤ 2³¹−1", cfg.M)
	case cfg.K1 < 1 || cfg.K1 > cfg.N:
		return fmt.Errorf("datasets: synthetic K1 = %d, want 1 ≤ K1 ≤ N = %d", cfg.K1, cfg.N)
	case cfg.K2 < 1 || cfg.K2 > cfg.M:
		return fmt.Errorf("datasets: synthetic K2 = %d, want 1 ≤ K2 ≤ M = %d", cfg.K2, cfg.M)
	case !(cfg.AvgDegree >= 0) || cfg.AvgDegree > float64(cfg.N):
		return fmt.Errorf("datasets: synthetic AvgDegree = %v, want 0 ≤ AvgDegree ≤ N = %d", cfg.AvgDegree, cfg.N)
	case !validProb(cfg.PIn):
		return fmt.Errorf("datasets: synthetic PIn = %v, want a probability in [0, 1]", cfg.PIn)
	case !(cfg.AttrPerVertex >= 0) || cfg.AttrPerVertex > float64(cfg.M):
		return fmt.Errorf("datasets: synthetic AttrPerVertex = %v, want 0 ≤ AttrPerVertex ≤ M = %d", cfg.AttrPerVertex, cfg.M)
	case !validProb(cfg.AttrSignal):
		return fmt.Errorf("datasets: synthetic AttrSignal = %v, want a probability in [0, 1]", cfg.AttrSignal)
	}
	if float64(cfg.N)*(cfg.AvgDegree+cfg.AttrPerVertex+2) > maxSyntheticEntries {
		return errors.New("datasets: synthetic N·(AvgDegree + AttrPerVertex) exceeds 2³¹ entries")
	}
	return nil
}

// AttrMap returns the attribute clusters that vertex cluster c draws its signal
// attributes from. With p = (c·K2/K1 + 1) mod K2 (integer division), it is [p, (p+1) mod
// K2] when K2 > 1 and [0] when K2 = 1. A signal draw uses the first cluster with
// probability 2/3 and the second with probability 1/3. The map is deliberately not the
// identity: with K1 = K2 cluster c uses vocabularies c+1 and c+2 (mod K2), and neighbouring
// vertex clusters may share a vocabulary. Cost O(1).
func (cfg SyntheticConfig) AttrMap(c int) []int {
	if cfg.K2 <= 1 || cfg.K1 < 1 {
		return []int{0}
	}
	p := (c*cfg.K2/cfg.K1 + 1) % cfg.K2
	return []int{p, (p + 1) % cfg.K2}
}

// Vocabulary returns the columns [lo, hi) of attribute cluster a: lo = a·M/K2 and
// hi = (a+1)·M/K2 (integer division), so the K2 vocabularies partition the M columns into
// contiguous blocks whose sizes differ by at most one. Cost O(1).
func (cfg SyntheticConfig) Vocabulary(a int) (lo, hi int) {
	return a * cfg.M / cfg.K2, (a + 1) * cfg.M / cfg.K2
}

// AttrCluster returns the attribute cluster whose vocabulary holds column j, or -1 when j
// is outside [0, M). Cost O(log K2).
func (cfg SyntheticConfig) AttrCluster(j int) int {
	if j < 0 || j >= cfg.M || cfg.K2 < 1 {
		return -1
	}
	return sort.Search(cfg.K2, func(a int) bool {
		_, hi := cfg.Vocabulary(a)
		return hi > j
	})
}

// synthStream is the second PCG seed word; the first is SyntheticConfig.Seed.
const synthStream = 0x6e6167632d737974 // "nagc-syt"

// Synthetic returns a random attributed graph drawn from cfg:
//
//   - Vertex clusters: vertex i is given cluster i mod K1, then the assignment is
//     shuffled, so cluster sizes differ by at most one. Labels holds the clusters and
//     ClassNames is "c0", …, "c{K1−1}".
//   - Edges: vertex i makes ⌊AvgDegree/2⌋ edge draws, plus one with probability equal to
//     the fractional part. A draw picks the other endpoint uniformly inside i's cluster
//     with probability PIn, uniformly among all vertices otherwise. Draws landing on i are
//     redrawn unless cfg.SelfLoops. The adjacency is symmetric 0/1, duplicates merged.
//   - Attributes: vertex i of cluster c makes ⌊AttrPerVertex⌋ attribute draws, plus one
//     with probability equal to the fractional part. With probability AttrSignal a draw is
//     a uniform column of the vocabulary of an attribute cluster from AttrMap(c) (see
//     there for the weights); otherwise it is a uniform column of all M. X is 0/1.
//
// Every draw comes from one PCG generator seeded with cfg.Seed, so equal configurations
// give identical graphs. Time and memory are O(N·(AvgDegree + AttrPerVertex) + M); no
// N×N or N×M array is allocated. An invalid configuration gives an error.
func Synthetic(cfg SyntheticConfig) (*Graph, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, synthStream))
	z, members := plantClasses(rng, cfg.N, cfg.K1)
	adj, err := plantEdges(cfg, rng, z, members)
	if err != nil {
		return nil, fmt.Errorf("datasets: synthetic adjacency: %w", err)
	}
	x, err := plantAttributes(cfg, rng, z)
	if err != nil {
		return nil, fmt.Errorf("datasets: synthetic attributes: %w", err)
	}
	names := make([]string, cfg.K1)
	for c := range names {
		names[c] = "c" + strconv.Itoa(c)
	}
	return &Graph{
		Name:       "synthetic",
		IDs:        numberIDs(cfg.N),
		Labels:     z,
		ClassNames: names,
		Adj:        adj,
		X:          x,
	}, nil
}

// plantClasses draws the classes z of n vertices, k1 of them as equal in size as n
// allows (vertex i gets i mod k1, then the assignment is shuffled with rng), and each
// class's vertices in increasing order.
func plantClasses(rng *rand.Rand, n, k1 int) (z []int, members [][]int32) {
	z = make([]int, n)
	for i := range z {
		z[i] = i % k1
	}
	rng.Shuffle(n, func(i, j int) { z[i], z[j] = z[j], z[i] })
	sizes := make([]int, k1)
	for _, c := range z {
		sizes[c]++
	}
	members = make([][]int32, k1)
	for c := range members {
		members[c] = make([]int32, 0, sizes[c])
	}
	for i, c := range z {
		members[c] = append(members[c], int32(i))
	}
	return z, members
}

// plantEdges draws the edges of the planted graph: each vertex i starts AvgDegree/2
// edges on average (the fraction by a coin), each to a random member of its class with
// probability PIn, else to a random vertex (redrawn, up to 16 times, when it hits i
// itself without SelfLoops), stored symmetrically.
func plantEdges(cfg SyntheticConfig, rng *rand.Rand, z []int, members [][]int32) (*sparse.CSR, error) {
	n := cfg.N
	half := cfg.AvgDegree / 2
	dBase := int(half)
	dFrac := half - float64(dBase)
	est := int(float64(n)*(half+1)) * 2
	src := make([]int32, 0, est)
	dst := make([]int32, 0, est)
	for i := 0; i < n; i++ {
		d := dBase
		if rng.Float64() < dFrac {
			d++
		}
		mem := members[z[i]]
		for e := 0; e < d; e++ {
			j, ok := -1, false
			for try := 0; try < 16; try++ {
				if rng.Float64() < cfg.PIn {
					j = int(mem[rng.IntN(len(mem))])
				} else {
					j = rng.IntN(n)
				}
				if j != i || cfg.SelfLoops {
					ok = true
					break
				}
			}
			if !ok {
				continue
			}
			src = append(src, int32(i))
			dst = append(dst, int32(j))
			if j != i {
				src = append(src, int32(j))
				dst = append(dst, int32(i))
			}
		}
	}
	return patternCSR(n, n, src, dst)
}

// plantAttributes draws the 0/1 attributes, row by row: AttrPerVertex draws a vertex on
// average, each from its class's vocabularies (AttrMap, the first with probability 2/3
// when there are two) with probability AttrSignal, else from all M columns; columns come
// out sorted and deduplicated directly.
func plantAttributes(cfg SyntheticConfig, rng *rand.Rand, z []int) (*sparse.CSR, error) {
	n, m, k1 := cfg.N, cfg.M, cfg.K1
	// vocab[c] lists [lo, hi) of the vocabularies of AttrMap(c), flattened.
	vocab := make([][]int, k1)
	for c := range vocab {
		for _, a := range cfg.AttrMap(c) {
			lo, hi := cfg.Vocabulary(a)
			vocab[c] = append(vocab[c], lo, hi)
		}
	}
	aBase := int(cfg.AttrPerVertex)
	aFrac := cfg.AttrPerVertex - float64(aBase)
	xptr := make([]int, n+1)
	xind := make([]int, 0, int(float64(n)*cfg.AttrPerVertex)+n)
	row := make([]int, 0, aBase+1)
	for i := 0; i < n; i++ {
		cnt := aBase
		if rng.Float64() < aFrac {
			cnt++
		}
		voc := vocab[z[i]]
		row = row[:0]
		for a := 0; a < cnt; a++ {
			var j int
			if rng.Float64() < cfg.AttrSignal {
				lo, hi := voc[0], voc[1]
				if len(voc) > 2 && rng.Float64() >= 2.0/3 {
					lo, hi = voc[2], voc[3]
				}
				j = lo + rng.IntN(hi-lo)
			} else {
				j = rng.IntN(m)
			}
			row = append(row, j)
		}
		sortSmall(row)
		last := -1
		for _, j := range row {
			if j != last {
				xind = append(xind, j)
				last = j
			}
		}
		xptr[i+1] = len(xind)
	}
	xval := make([]float64, len(xind))
	for k := range xval {
		xval[k] = 1
	}
	return sparse.NewCSR(n, m, xptr, xind, xval)
}

// numberIDs returns the ids "0", "1", …, "n−1", sharing one backing string.
func numberIDs(n int) []string {
	buf := make([]byte, 0, n*8)
	ends := make([]int, n)
	for i := range ends {
		buf = strconv.AppendInt(buf, int64(i), 10)
		ends[i] = len(buf)
	}
	all := string(buf)
	ids := make([]string, n)
	start := 0
	for i, e := range ends {
		ids[i] = all[start:e]
		start = e
	}
	return ids
}
