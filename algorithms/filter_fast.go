package algorithms

import (
	"context"
	"fmt"

	"github.com/nagc-harness/nagc/attr"
	"github.com/nagc-harness/nagc/dense"
	"github.com/nagc-harness/nagc/dense/f32"
	"github.com/nagc-harness/nagc/memory"
	"github.com/nagc-harness/nagc/sparse"
)

// fastFilterBlock is the most columns of X the fast filter smooths at a time: the columns
// are cut into ⌈m/64⌉ blocks of equal width, so that each pass over Â serves as many
// columns as two n×64 float32 buffers hold (1.25 GB at ogbn-products' 2.4 M vertices).
const fastFilterBlock = 64

// withFilteredAttributesFast is Input.WithFilteredAttributesContext at PrecisionFast,
// for methods whose filtered attributes feed float32 compute only (sgc-kmeans): where
// the default stores Z densely (dense attributes, or n·m at most the implicit products'
// cost), Z is formed in float32 by filteredDense32 and cached under a key of its own;
// elsewhere (Z kept implicit) the default's filter. Cost O(p·(nnz(Â) + n)·m).
func withFilteredAttributesFast(ctx context.Context, in Input, o GraphFilterOptions) (Input, error) {
	if err := o.validate(); err != nil {
		return in, err
	}
	if o.P == 0 || !InputShape(in, 0).storesFiltered(o) {
		return in.WithFilteredAttributesContext(ctx, o)
	}
	key := in.xKey + o.key() + "/fast"
	v, err := in.Cache.Do("op/"+key, func() (any, error) {
		f, err := sparse.NewLowPassFilter(in.Adj, o.P, o.selfLoop())
		if err != nil {
			return nil, err
		}
		var scale []float64
		if o.norm() == NormL2 {
			scale = unitRowScales(in.X)
		}
		return filteredDense32(ctx, f, in.X, scale, o.NormAfter)
	})
	if err != nil {
		return in, err
	}
	in.X, in.xKey, in.filtered = v.(*dense.Matrix), key, true
	in.explicit = nil
	return in, nil
}

// filteredDense32 is filteredDense in float32: Z = F·Xs, or R·F·Xs with unitRows, where
// Xs is x with row i scaled by rowScale[i] (x for a nil rowScale), stored as a dense
// float32 matrix. Â's values are rounded to float32 (f32.CSR), each step
// Z ← ½(Z + Â·Z) forms Â·Z by fused multiply-adds (f32.CSR.MulDense) and the half-sum in
// float32, on column blocks of at most fastFilterBlock. Cost O(p·(nnz(Â) + n)·m), a pass
// over Â per step and block; memory: Z (4·n·m bytes), Â in float32 (8 bytes an entry)
// and two n×w float32 blocks, checked against the budget first.
func filteredDense32(ctx context.Context, f *sparse.LowPassFilter, x attr.Matrix, rowScale []float64, unitRows bool) (*dense.Matrix, error) {
	n, m := x.Dims()
	nb := max(1, (m+fastFilterBlock-1)/fastFilterBlock)
	w0 := (m + nb - 1) / nb
	if err := memory.Check(fmt.Sprintf("the graph-filtered attributes (%d×%d, float32)", n, m),
		filter32Bytes(n, m, f.Normalized().NNZ(), unitRows)); err != nil {
		return nil, err
	}
	z := make([]float32, n*m)
	if n == 0 || m == 0 {
		return dense.NewMatrix32(n, m, z), nil
	}
	steps := f.Order()
	a, err := f32.FromCSR(f.Normalized()) // the float64 Â is not read again
	if err != nil {
		return nil, err
	}
	is32 := false
	if d, ok := x.(*dense.Matrix); ok {
		is32 = d.Is32()
	}
	cur, tmp := f32.NewMat(n, w0), f32.NewMat(n, w0)
	for j0 := 0; j0 < m; j0 += w0 {
		w := min(w0, m-j0)
		b := &f32.Mat{R: n, C: w, Data: cur.Data[:n*w]}
		t := &f32.Mat{R: n, C: w, Data: tmp.Data[:n*w]}
		f32.Rows(n, n*m, func(lo, hi int) {
			row := make([]float64, m)
			for i := lo; i < hi; i++ {
				src := scaledRow(row, x, is32, i, rowScale)[j0 : j0+w]
				dst := b.Row(i)
				for j, v := range src {
					dst[j] = float32(v)
				}
			}
		})
		for range steps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			lowPassStep32(t, a, b)
			b, t = t, b
		}
		f32.Rows(n, n*w, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				copy(z[i*m+j0:i*m+j0+w], b.Row(i))
			}
		})
	}
	out := dense.NewMatrix32(n, m, z)
	if unitRows {
		return out.RowNormalized(), nil
	}
	return out, nil
}

// lowPassStep32 sets dst = ½(z + a·z) for z n×w: each row of a·z by f32.AxpyRows over
// the row's entries (one chain of fused multiply-adds per column, as f32.CSR.MulDense),
// the neighbours of the row after next prefetched meanwhile, then halved with z's row in
// float32. Rows run in blocks on the kernel threads; no value depends on their number.
// Cost O((nnz(a) + n)·w).
func lowPassStep32(dst *f32.Mat, a *f32.CSR, z *f32.Mat) {
	n, w := z.R, z.C
	f32.Rows(n, (a.Ptr[n]+n)*w, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i+2 < n {
				f32.PrefetchRows(a.Ind[a.Ptr[i+2]:a.Ptr[i+3]], z.Data, w, w)
			}
			d, zi := dst.Row(i), z.Row(i)
			clear(d)
			p, q := a.Ptr[i], a.Ptr[i+1]
			f32.AxpyRows(d, a.Val[p:q], a.Ind[p:q], z.Data, w)
			for j, v := range d {
				d[j] = 0.5 * (zi[j] + v)
			}
		}
	})
}

// filter32Bytes is the memory filteredDense32 takes for n×m attributes and Â of nnzA
// entries: Z (twice with unitRows, whose unit rows are a copy), Â in float32 and the two
// column blocks.
func filter32Bytes(n, m, nnzA int, unitRows bool) uint64 {
	nb := max(1, (m+fastFilterBlock-1)/fastFilterBlock)
	w := (m + nb - 1) / nb
	z := memory.Bytes(int64(n), 4*m)
	if unitRows {
		z = memory.Add(z, z)
	}
	return memory.Add(z, memory.Bytes(int64(nnzA), 8), memory.Bytes(int64(n), 8*(w+1)))
}
