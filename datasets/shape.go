package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// Shape describes a planted graph of a given size (SyntheticShape): n vertices, about
// Edges undirected edges, m attributes (dense or sparse), k classes and homophily h. Zero
// fields take the values of the named shape (Name, see Shapes). The YAML keys are those
// of a config's `synthetic:` dataset block.
type Shape struct {
	// Name is a shape of Shapes whose values the zero fields take ("" for none: then
	// N, Edges or Degree, M and K are required).
	Name string `yaml:"shape" json:"shape"`
	// N is the number of vertices.
	N int `yaml:"n" json:"n"`
	// Edges is the number of undirected edges drawn (duplicates, rare, are merged);
	// Degree, the mean degree, sets Edges = N·Degree/2 instead.
	Edges  int     `yaml:"edges" json:"edges"`
	Degree float64 `yaml:"degree" json:"degree,omitempty"`
	// M is the number of attribute columns and K the number of classes.
	M int `yaml:"m" json:"m"`
	K int `yaml:"k" json:"k"`
	// Homophily is the share of each vertex's edges drawn inside its class.
	Homophily float64 `yaml:"homophily" json:"homophily"`
	// Attributes is "dense" (float32 |class mean + Gaussian noise|), "signed" (float32
	// class mean + Gaussian noise, as embeddings are: about half the values negative) or
	// "sparse" (0/1, about 20 a vertex, half from the class's own block of columns).
	Attributes string `yaml:"attributes" json:"attributes"`
	// Noise is the standard deviation of the Gaussian noise of dense attributes, whose
	// class means have standard deviation 1 per column.
	Noise float64 `yaml:"noise" json:"noise"`
	// Seed determines every draw: equal shapes and seeds give identical graphs.
	Seed uint64 `yaml:"seed" json:"seed"`
}

// Shapes are the named shapes: the OGB node-property graphs researchers cluster today
// (vertex, edge, attribute and class counts and edge homophily of ogbn-arxiv and
// ogbn-products), Cora's, and small ones for tests and examples.
var Shapes = map[string]Shape{
	"arxiv":    {N: 169343, Edges: 1166243, M: 128, K: 40, Homophily: 0.65, Attributes: "dense", Noise: 1, Seed: 1},
	"products": {N: 2449029, Edges: 61859140, M: 100, K: 47, Homophily: 0.81, Attributes: "dense", Noise: 1, Seed: 1},
	"cora":     {N: 2708, Edges: 5278, M: 1433, K: 7, Homophily: 0.81, Attributes: "sparse", Noise: 1, Seed: 1},
	"small":    {N: 20000, Edges: 100000, M: 32, K: 10, Homophily: 0.7, Attributes: "dense", Noise: 1, Seed: 1},
	"tiny":     {N: 1000, Edges: 4000, M: 8, K: 4, Homophily: 0.8, Attributes: "dense", Noise: 1, Seed: 1},
}

// ShapeNames returns the names of Shapes, sorted.
func ShapeNames() []string {
	names := make([]string, 0, len(Shapes))
	for n := range Shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Resolved returns s with its zero fields at the named shape's values and Edges set from
// Degree where given, or an error naming what is missing or out of range.
func (s Shape) Resolved() (Shape, error) {
	if s.Name != "" {
		base, ok := Shapes[s.Name]
		if !ok {
			return s, fmt.Errorf("unknown synthetic shape %q (known: %s)", s.Name, strings.Join(ShapeNames(), ", "))
		}
		if s.N == 0 {
			s.N = base.N
			if s.Edges == 0 && s.Degree == 0 {
				s.Edges = base.Edges
			}
		}
		if s.Edges == 0 && s.Degree == 0 {
			s.Degree = 2 * float64(base.Edges) / float64(base.N) // the shape's mean degree at the new n
		}
		if s.M == 0 {
			s.M = base.M
		}
		if s.K == 0 {
			s.K = base.K
		}
		if s.Homophily == 0 {
			s.Homophily = base.Homophily
		}
		if s.Attributes == "" {
			s.Attributes = base.Attributes
		}
		if s.Noise == 0 {
			s.Noise = base.Noise
		}
		if s.Seed == 0 {
			s.Seed = base.Seed
		}
	}
	if s.Degree != 0 {
		if !(s.Degree > 0) || math.IsInf(s.Degree, 0) {
			return s, fmt.Errorf("synthetic shape: mean degree %v; want a positive number", s.Degree)
		}
		s.Edges = int(math.Round(float64(s.N) * s.Degree / 2))
		s.Degree = 0
	}
	if s.Attributes == "" {
		s.Attributes = "dense"
	}
	if s.Noise == 0 {
		s.Noise = 1
	}
	switch {
	case s.N < 2 || s.N > math.MaxInt32:
		return s, fmt.Errorf("synthetic shape: n = %d vertices; want 2 … %d", s.N, math.MaxInt32)
	case s.Edges < 0 || s.Edges > (math.MaxInt32-1)/2*2:
		return s, fmt.Errorf("synthetic shape: %d edges; want 0 … %d", s.Edges, math.MaxInt32)
	case s.M < 1:
		return s, fmt.Errorf("synthetic shape: m = %d attributes; want at least 1", s.M)
	case s.K < 1 || s.K > s.N:
		return s, fmt.Errorf("synthetic shape: k = %d classes for %d vertices", s.K, s.N)
	case !(s.Homophily >= 0 && s.Homophily <= 1):
		return s, fmt.Errorf("synthetic shape: homophily %v; want 0 … 1", s.Homophily)
	case s.Attributes != "dense" && s.Attributes != "signed" && s.Attributes != "sparse":
		return s, fmt.Errorf("synthetic shape: attributes %q; want dense, signed or sparse", s.Attributes)
	case !(s.Noise > 0) || math.IsInf(s.Noise, 0):
		return s, fmt.Errorf("synthetic shape: noise %v; want a positive number", s.Noise)
	}
	return s, nil
}

// String returns the dataset name that LoadSpec turns into s:
// "synthetic:NAME,n=…,edges=…,m=…,k=…,homophily=…,attributes=…,noise=…,seed=…" with
// every field given.
func (s Shape) String() string {
	name := s.Name
	if name == "" {
		name = "custom"
	}
	return fmt.Sprintf("synthetic:%s,n=%d,edges=%d,m=%d,k=%d,homophily=%g,attributes=%s,noise=%g,seed=%d",
		name, s.N, s.Edges, s.M, s.K, s.Homophily, s.Attributes, s.Noise, s.Seed)
}

// IsShapeName reports whether name is a synthetic-shape dataset name, "synthetic:…".
func IsShapeName(name string) bool { return strings.HasPrefix(name, "synthetic:") }

// ParseShape reads a synthetic-shape dataset name: "synthetic:NAME" optionally followed
// by ",key=value" pairs of Shape's YAML keys (n, edges, degree, m, k, homophily,
// attributes, noise, seed), e.g. "synthetic:arxiv,n=20000". NAME "custom" starts from no
// shape. The result is not yet Resolved.
func ParseShape(name string) (Shape, error) {
	rest, ok := strings.CutPrefix(name, "synthetic:")
	if !ok {
		return Shape{}, fmt.Errorf("%q is not a synthetic shape (synthetic:NAME[,key=value…])", name)
	}
	parts := strings.Split(rest, ",")
	s := Shape{Name: strings.TrimSpace(parts[0])}
	if s.Name == "custom" {
		s.Name = ""
	}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok {
			return s, fmt.Errorf("%s: %q is not key=value", name, p)
		}
		var err error
		switch k {
		case "n":
			s.N, err = strconv.Atoi(v)
		case "edges":
			s.Edges, err = strconv.Atoi(v)
		case "degree":
			s.Degree, err = strconv.ParseFloat(v, 64)
		case "m":
			s.M, err = strconv.Atoi(v)
		case "k":
			s.K, err = strconv.Atoi(v)
		case "homophily":
			s.Homophily, err = strconv.ParseFloat(v, 64)
		case "attributes":
			s.Attributes = v
		case "noise":
			s.Noise, err = strconv.ParseFloat(v, 64)
		case "seed":
			s.Seed, err = strconv.ParseUint(v, 10, 64)
		default:
			return s, fmt.Errorf("%s: unknown key %q (keys: n, edges, degree, m, k, homophily, attributes, noise, seed)", name, k)
		}
		if err != nil {
			return s, fmt.Errorf("%s: %s=%s is not a number", name, k, v)
		}
	}
	return s, nil
}

// Streams of the shape generator (second PCG word, plus the block index).
const (
	shapeStreamLabels = 0x7368617065 << 24 // "shape"
	shapeStreamMeans  = shapeStreamLabels + 1<<20
	shapeStreamEdges  = shapeStreamLabels + 2<<20
	shapeStreamAttrs  = shapeStreamLabels + 3<<20
)

// shapeEdgeBlock and shapeRowBlock are the edges and attribute rows drawn from one
// random stream: the unit of parallel work, fixed so that the graph does not depend on
// the number of cores.
const (
	shapeEdgeBlock = 1 << 16
	shapeRowBlock  = 1 << 12
)

// ShapeBytes estimates the memory SyntheticShape takes for a resolved shape, the graph
// and its temporaries: the adjacency (16 bytes a stored entry, two a drawn edge) with
// 8 bytes an entry of temporaries, and the attributes (4 bytes a dense value).
func ShapeBytes(s Shape) uint64 {
	adj := memory.Bytes(int64(s.Edges), 2*(16+8))
	x := memory.Bytes(int64(s.N), 4*s.M)
	if s.Attributes == "sparse" {
		x = memory.Bytes(int64(s.N), 20*24)
	}
	return memory.Add(adj, x, memory.Bytes(int64(s.N), 8*3))
}

// SyntheticShape returns a planted graph of shape s (resolved first):
//
//   - Labels: each vertex's class uniform over the K classes ("c0", …).
//   - Edges: Edges draws; a draw picks a uniform vertex u and, with probability
//     Homophily, a uniform other vertex of u's class, else a uniform vertex of another
//     class. So a share Homophily of the edges, and of each vertex's edges in
//     expectation, lie inside a class. No self-loops; the rare repeated pair is stored
//     once. The adjacency is symmetric 0/1.
//   - Dense attributes (float32, dense X): X[i,j] = |μ[c,j] + Noise·ε| for i of class c,
//     μ[c,j] and ε standard normal.
//   - Signed attributes (float32, dense X): X[i,j] = μ[c,j] + Noise·ε, the same draws
//     without the absolute value.
//   - Sparse attributes (0/1, X): 20 draws a vertex (fewer for M < 20), half uniform in
//     its class's block of M/K columns, half uniform over all; repeats merged.
//
// Every draw comes from PCG streams of s.Seed, one per block of 65,536 edges or 4,096
// vertices, and the blocks run on all cores: equal shapes give identical graphs on any
// machine and core count. Time O(Edges·log(degree) + N·M), memory about ShapeBytes(s),
// checked against the budget first.
func SyntheticShape(s Shape) (*Graph, error) {
	s, err := s.Resolved()
	if err != nil {
		return nil, err
	}
	if err := memory.Check(fmt.Sprintf("generating the synthetic graph %s", s), ShapeBytes(s)); err != nil {
		return nil, err
	}
	n, k := s.N, s.K
	labels := make([]int, n)
	rng := rand.New(rand.NewPCG(s.Seed, shapeStreamLabels))
	sizes := make([]int, k)
	for i := range labels {
		labels[i] = rng.IntN(k)
		sizes[labels[i]]++
	}
	members := make([][]int32, k)
	for c := range members {
		members[c] = make([]int32, 0, sizes[c])
	}
	for i, c := range labels {
		members[c] = append(members[c], int32(i))
	}
	adj, err := shapeAdjacency(s, labels, members)
	if err != nil {
		return nil, err
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	names := make([]string, k)
	for c := range names {
		names[c] = "c" + strconv.Itoa(c)
	}
	g := &Graph{Name: s.String(), IDs: ids, Labels: labels, ClassNames: names, Adj: adj}
	if s.Attributes != "sparse" {
		g.X = shapeDense(s, labels)
		return g, nil
	}
	x, err := shapeSparse(s, labels)
	if err != nil {
		return nil, err
	}
	g.X = x
	return g, nil
}

// parallelBlocks runs fn(0) … fn(nb−1) on all cores.
func parallelBlocks(nb int, fn func(b int)) {
	t := min(runtime.GOMAXPROCS(0), nb)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < t; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := int(next.Add(1)) - 1; b < nb; b = int(next.Add(1)) - 1 {
				fn(b)
			}
		}()
	}
	wg.Wait()
}

// shapeAdjacency draws the edges of s and returns the symmetric 0/1 adjacency.
func shapeAdjacency(s Shape, labels []int, members [][]int32) (*sparse.CSR, error) {
	n, e := s.N, s.Edges
	rows, cols := make([]int32, 2*e), make([]int32, 2*e)
	nb := (e + shapeEdgeBlock - 1) / shapeEdgeBlock
	parallelBlocks(nb, func(b int) {
		rng := rand.New(rand.NewPCG(s.Seed, shapeStreamEdges+uint64(b)))
		for q := b * shapeEdgeBlock; q < min((b+1)*shapeEdgeBlock, e); q++ {
			u := rng.IntN(n)
			c := labels[u]
			v := -1
			if s.Homophily > 0 && rng.Float64() < s.Homophily && len(members[c]) > 1 {
				for v < 0 || v == u {
					v = int(members[c][rng.IntN(len(members[c]))])
				}
			} else if s.K > 1 && len(members[c]) < n {
				for v < 0 || labels[v] == c {
					v = rng.IntN(n)
				}
			} else {
				for v < 0 || v == u {
					v = rng.IntN(n)
				}
			}
			rows[2*q], cols[2*q] = int32(u), int32(v)
			rows[2*q+1], cols[2*q+1] = int32(v), int32(u)
		}
	})
	return parallelPatternCSR(n, rows, cols)
}

// parallelPatternCSR is patternCSR with the rows sorted on all cores: the n×n 0/1 matrix
// with a one at every (rows[q], cols[q]), repeats stored once.
func parallelPatternCSR(n int, rows, cols []int32) (*sparse.CSR, error) {
	ptr := make([]int, n+1)
	for _, i := range rows {
		ptr[i+1]++
	}
	for i := 0; i < n; i++ {
		ptr[i+1] += ptr[i]
	}
	next := make([]int, n)
	copy(next, ptr[:n])
	ind := make([]int, len(rows))
	for q, i := range rows {
		ind[next[i]] = int(cols[q])
		next[i]++
	}
	// Sort and deduplicate each row in place (in parallel), then compact.
	kept := next // reused: the length of row i after deduplication
	const rowsPerBlock = 1 << 12
	parallelBlocks((n+rowsPerBlock-1)/rowsPerBlock, func(b int) {
		for i := b * rowsPerBlock; i < min((b+1)*rowsPerBlock, n); i++ {
			row := ind[ptr[i]:ptr[i+1]]
			slices.Sort(row)
			kept[i] = len(slices.Compact(row))
		}
	})
	w := 0
	for i := 0; i < n; i++ {
		lo := ptr[i]
		ptr[i] = w
		w += copy(ind[w:], ind[lo:lo+kept[i]])
	}
	ptr[n] = w
	ind = ind[:w:w]
	val := make([]float64, w)
	for q := range val {
		val[q] = 1
	}
	return sparse.NewCSR(n, n, ptr, ind, val)
}

// shapeDense draws the dense attributes of s: |μ[c] + Noise·ε| as float32, or μ[c] +
// Noise·ε for signed attributes.
func shapeDense(s Shape, labels []int) *dense.Matrix {
	n, m := s.N, s.M
	mean := make([]float64, s.K*m)
	rng := rand.New(rand.NewPCG(s.Seed, shapeStreamMeans))
	for q := range mean {
		mean[q] = rng.NormFloat64()
	}
	data := make([]float32, n*m)
	signed := s.Attributes == "signed"
	parallelBlocks((n+shapeRowBlock-1)/shapeRowBlock, func(b int) {
		rng := rand.New(rand.NewPCG(s.Seed, shapeStreamAttrs+uint64(b)))
		for i := b * shapeRowBlock; i < min((b+1)*shapeRowBlock, n); i++ {
			mu := mean[labels[i]*m : (labels[i]+1)*m]
			row := data[i*m : (i+1)*m]
			for j := range row {
				v := mu[j] + s.Noise*rng.NormFloat64()
				if !signed {
					v = math.Abs(v)
				}
				row[j] = float32(v)
			}
		}
	})
	return dense.NewMatrix32(n, m, data)
}

// shapeSparse draws the sparse 0/1 attributes of s.
func shapeSparse(s Shape, labels []int) (*sparse.CSR, error) {
	n, m := s.N, s.M
	per := min(20, m)
	block := max(m/s.K, 1)
	ind := make([]int, n*per)
	parallelBlocks((n+shapeRowBlock-1)/shapeRowBlock, func(b int) {
		rng := rand.New(rand.NewPCG(s.Seed, shapeStreamAttrs+uint64(b)))
		for i := b * shapeRowBlock; i < min((b+1)*shapeRowBlock, n); i++ {
			row := ind[i*per : (i+1)*per]
			lo := labels[i] * block % m
			for q := range row {
				if rng.IntN(2) == 0 {
					row[q] = (lo + rng.IntN(block)) % m
				} else {
					row[q] = rng.IntN(m)
				}
			}
			slices.Sort(row)
		}
	})
	ptr := make([]int, n+1)
	w := 0
	for i := 0; i < n; i++ {
		row := slices.Compact(slices.Clone(ind[i*per : (i+1)*per]))
		w += copy(ind[w:], row)
		ptr[i+1] = w
	}
	ind = ind[:w:w]
	val := make([]float64, w)
	for q := range val {
		val[q] = 1
	}
	return sparse.NewCSR(n, m, ptr, ind, val)
}
