// Package f32 holds the float32 kernels of the fast precision: row products and dot
// products with fused multiply-add, in AVX-512 or AVX2 where the processor has them.
//
// The fast precision (`precision: fast`) trades the default's bit-exact float64 for
// float32 storage and fused arithmetic: twice the lanes per instruction and half the
// bytes per factor row. Its kernels are defined by their Go forms (AxpyRowsGo, DotGo):
//
//   - AxpyRows(dst, a, idx, b, stride) adds Σₜ a[t]·b[idx[t]·stride : +len(dst)] to dst,
//     each column summed in two chains, the even t from dst and the odd t from 0, each
//     term a fused multiply-add, the chains added at the end;
//   - Mul4(dst, …) forms four rows of a product at once, each entry one chain of fused
//     multiply-adds from zero (the kernel of Mul, SigmoidMul and MulHadamard), and
//     Mul4Strided the same with the coefficients read down four columns (that of TMul
//     and Gram);
//   - Dot(x, y) sums x[j]·y[j] into 16 lanes (lane j mod 16, fused), then adds the
//     lanes pairwise: l and l+8, l and l+4, l and l+2, then 0 and 1; DotRows is Dot
//     for many rows of one matrix in one call (the edge pass's dots);
//   - MulElems(dst, x, y) sets dst to x⊙y, one rounded product each, the same bits at
//     every level;
//   - SigmoidSlope(f, fp) sets f to σ(f) and fp to σ·(1−σ), σ evaluated by Sigmoid's
//     float64 steps, 8 (AVX-512) or 4 (AVX2) lanes at once and bit for bit the Go form.
//
// The AVX-512 and AVX2 forms do exactly these operations in this order, so they give
// the same bits as each other (the tests assert it). The Go forms use math.FMA on the
// float64 widening of the operands, rounded back to float32: the product is exact, but
// the sum is rounded twice (to float64, then float32), which in rare cases differs from
// the single rounding of the hardware instruction by one ulp; the tests bound the Go
// forms against the assembly by a relative tolerance (see tolerance in f32_test.go).
// Build with the purego tag, or on another architecture, for the Go forms only.
//
// Every column of AxpyRows is independent of the others, and the split of the columns
// into the chunks each call handles changes no bit; nothing depends on the thread count.
package f32
