package algorithms

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/internal/parallel"
	"github.com/nagc-harness/nagc/sparse"
)

// orthonormaliseSeparatePasses is modified Gram–Schmidt applied twice with a separate
// pass over memory for every dot product and every update: the form the orthonormaliser
// had before its passes were fused, kept as the reference for its bits.
func orthonormaliseSeparatePasses(q *mat.Dense) { gramSchmidtTwice(q, nmfDot) }

// gramSchmidtTwice orthonormalises q's columns in place by modified Gram–Schmidt applied
// twice, column by column, with dot for every dot product; a column whose norm falls
// below 1e-10 of its original norm is zeroed.
func gramSchmidtTwice(q *mat.Dense, dot func(a, b []float64) float64) {
	r, c := q.Dims()
	col := make([][]float64, c)
	for j := range col {
		col[j] = make([]float64, r)
		mat.Col(col[j], j, q)
	}
	for j := 0; j < c; j++ {
		v := col[j]
		orig := math.Sqrt(dot(v, v))
		for pass := 0; pass < 2; pass++ {
			for l := 0; l < j; l++ {
				p := dot(col[l], v)
				for i := range v {
					v[i] -= p * col[l][i]
				}
			}
		}
		nrm := math.Sqrt(dot(v, v))
		if nrm <= 1e-10*orig || nrm == 0 {
			clear(v)
			continue
		}
		for i := range v {
			v[i] /= nrm
		}
	}
	for j := range col {
		q.SetCol(j, col[j])
	}
}

// TestOrthonormaliseSameBitsAsSeparatePasses checks that the fused orthonormalisation
// gives the bits of the separate passes, for tall, square and rank-deficient matrices
// (a repeated column is zeroed), with its buffer reused across calls of other sizes.
func TestOrthonormaliseSameBitsAsSeparatePasses(t *testing.T) {
	rng := newRand(11)
	var o orthonormaliser
	for _, c := range []struct{ r, c int }{{1, 1}, {5, 1}, {40, 7}, {7, 7}, {1000, 42}, {3, 2}} {
		a := mat.NewDense(c.r, c.c, nil)
		for i := 0; i < c.r; i++ {
			for j := 0; j < c.c; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		if c.c > 2 { // a dependent column
			for i := 0; i < c.r; i++ {
				a.Set(i, 2, 2*a.At(i, 0))
			}
		}
		want, got := mat.DenseCopyOf(a), mat.DenseCopyOf(a)
		orthonormaliseSeparatePasses(want)
		o.apply(got)
		for i := 0; i < c.r; i++ {
			for j := 0; j < c.c; j++ {
				if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
					t.Fatalf("%d×%d: entry (%d, %d) = %v, want %v (same bits)", c.r, c.c, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
		if c.r >= c.c && c.c > 2 {
			if v := got.At(0, 2); v != 0 {
				t.Errorf("%d×%d: dependent column not zeroed (%v)", c.r, c.c, v)
			}
		}
	}
}

// orthonormaliseFixedBlocks is the definition of the blocked orthonormalisation for any
// number of rows, written plainly: modified Gram–Schmidt applied twice with every dot
// product summed in row order within blocks of gsBlockRows rows, the blocks' sums added
// in block order.
func orthonormaliseFixedBlocks(q *mat.Dense) {
	r, _ := q.Dims()
	gramSchmidtTwice(q, func(a, b []float64) float64 {
		var total float64
		for lo := 0; lo < r; lo += gsBlockRows {
			var s float64
			for i := lo; i < min(lo+gsBlockRows, r); i++ {
				s += a[i] * b[i]
			}
			if lo == 0 {
				total = s
			} else {
				total += s
			}
		}
		return total
	})
}

// TestOrthonormaliseFixedBlocks checks the parallel orthonormalisation on 1, 2 and 3
// threads: for at most gsBlockRows rows (one block) it gives the bits of the serial
// separate passes, which every graph of the paper takes; above, the bits of the blocked
// definition, the same for every thread count, with orthonormal columns (a repeated
// column zeroed).
func TestOrthonormaliseFixedBlocks(t *testing.T) {
	rng := newRand(12)
	for _, c := range []struct {
		r, c int
		ref  func(*mat.Dense)
	}{
		{3312, 12, orthonormaliseSeparatePasses},
		{gsBlockRows, 5, orthonormaliseSeparatePasses},
		{gsBlockRows + 1, 5, orthonormaliseFixedBlocks},
		{2*gsBlockRows + 777, 7, orthonormaliseFixedBlocks},
		{5*gsBlockRows + 123, 6, orthonormaliseFixedBlocks}, // a group of 4 side by side, then 2
		{2 * gsGroup * gsBlockRows, 5, orthonormaliseFixedBlocks},
	} {
		a := mat.NewDense(c.r, c.c, nil)
		for i, raw := 0, a.RawMatrix().Data; i < len(raw); i++ {
			raw[i] = rng.NormFloat64()
		}
		for i := 0; i < c.r; i++ { // column 3 = 3·column 1: dependent
			a.Set(i, 3, 3*a.At(i, 1))
		}
		want := mat.DenseCopyOf(a)
		c.ref(want)
		for _, threads := range []int{1, 2, 3} {
			got := mat.DenseCopyOf(a)
			func() {
				defer parallel.SetThreads(parallel.SetThreads(threads))
				var o orthonormaliser
				o.apply(got)
			}()
			for i := 0; i < c.r; i++ {
				for j := 0; j < c.c; j++ {
					if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
						t.Fatalf("%d×%d, %d threads: entry (%d, %d) = %v, want %v (same bits)", c.r, c.c, threads, i, j, got.At(i, j), want.At(i, j))
					}
				}
			}
		}
		var g mat.Dense
		g.Mul(want.T(), want)
		for i := 0; i < c.c; i++ {
			for j := 0; j < c.c; j++ {
				w := 0.0
				if i == j && i != 3 {
					w = 1
				}
				if math.Abs(g.At(i, j)-w) > 1e-12 {
					t.Errorf("%d×%d: (QᵀQ)[%d, %d] = %v, want %v", c.r, c.c, i, j, g.At(i, j), w)
				}
			}
		}
	}
}

// TestOrthonormaliserAllocatesNothing checks that a reused orthonormaliser allocates
// nothing once its buffers have grown, on one thread.
func TestOrthonormaliserAllocatesNothing(t *testing.T) {
	q := mat.NewDense(2*gsBlockRows+5, 4, nil)
	rng := newRand(13)
	for i, raw := 0, q.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = rng.NormFloat64()
	}
	defer parallel.SetThreads(parallel.SetThreads(1))
	var o orthonormaliser
	o.apply(q)
	if n := testing.AllocsPerRun(3, func() { o.apply(q) }); n != 0 {
		t.Errorf("%v allocations per orthonormalisation, want 0", n)
	}
}

// BenchmarkOrthonormalise times one orthonormalisation of the randomised SVD's n×42 block
// (rank 32 + 10) at the ogbn-products shape's rows (1.6 GB), on 1 and 2 threads.
func BenchmarkOrthonormalise(b *testing.B) {
	const r, c = 2_449_029, 42
	a := mat.NewDense(r, c, nil)
	rng := newRand(14)
	for i, raw := 0, a.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = rng.NormFloat64()
	}
	q := mat.NewDense(r, c, nil)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			var o orthonormaliser
			for i := 0; i < b.N; i++ {
				q.Copy(a)
				o.apply(q)
			}
		})
	}
}

// spectralRowsSerial is the row loop SpectralEmbedding ran before it was split between
// threads: rows of U_r·Σ_r scaled to unit length, a zero row not stored.
func spectralRowsSerial(u *mat.Dense, sigma []float64, n, r int) (ptr, ind []int, val []float64) {
	ptr = make([]int, n+1)
	row := make([]float64, r)
	for i := 0; i < n; i++ {
		var norm float64
		for j := range row {
			row[j] = u.At(i, j) * sigma[j]
			norm += row[j] * row[j]
		}
		if norm != 0 {
			norm = math.Sqrt(norm)
			for j, x := range row {
				ind, val = append(ind, j), append(val, x/norm)
			}
		}
		ptr[i+1] = len(ind)
	}
	return ptr, ind, val
}

// TestSpectralEmbeddingRowsOnThreads checks that SpectralEmbedding (sparse) and its dense
// form, their rows split between 1, 2 or 3 threads, give the bits of the serial row loop
// on the same SVD, with zero rows (vertices without attributes) left out of the sparse
// form and zero in the dense one.
func TestSpectralEmbeddingRowsOnThreads(t *testing.T) {
	const n, m, r = 3*embeddingRowBlock + 50, 9, 4
	rng := newRand(15)
	b := sparse.NewBuilder(n, m)
	for i := 0; i < n; i++ {
		if i%7 == 3 {
			continue // a zero row
		}
		for j := 0; j < m; j++ {
			if rng.Float64() < 0.5 {
				_ = b.Add(i, j, rng.Float64())
			}
		}
	}
	z := sparse.NewCSROperator(b.CSR(sparse.SumDuplicates))
	u, _, sigma := truncatedSVD(z, r, newRand(16))
	wantPtr, wantInd, wantVal := spectralRowsSerial(u, sigma, n, r)
	for _, threads := range []int{1, 2, 3} {
		func() {
			defer parallel.SetThreads(parallel.SetThreads(threads))
			e := SpectralEmbedding(z, r, newRand(16))
			d, err := spectralEmbeddingDense(context.Background(), z, r, newRand(16))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				cols, vals := e.Row(i)
				want := wantVal[wantPtr[i]:wantPtr[i+1]]
				if len(cols) != len(want) {
					t.Fatalf("%d threads: row %d has %d entries, want %d", threads, i, len(cols), len(want))
				}
				for k, j := range cols {
					if j != wantInd[wantPtr[i]+k] || math.Float64bits(vals[k]) != math.Float64bits(want[k]) {
						t.Fatalf("%d threads: row %d entry %d = (%d, %v), want (%d, %v)", threads, i, k, j, vals[k], wantInd[wantPtr[i]+k], want[k])
					}
				}
				for j := 0; j < r; j++ {
					w := 0.0
					if len(want) > 0 {
						w = want[j]
					}
					if math.Float64bits(d.At(i, j)) != math.Float64bits(w) {
						t.Fatalf("%d threads: dense row %d, column %d = %v, want %v", threads, i, j, d.At(i, j), w)
					}
				}
			}
		}()
	}
}
