// Package sparse holds the compressed sparse row (CSR) matrix used for graphs and attribute
// matrices, and every sparse kernel the clustering methods need: sparse×dense products,
// the edge-masked Gram product (UUᵀ⊙W)U, and reductions over stored entries.
//
// All kernels are dst-first: the caller owns the output and may reuse it across iterations.
// No kernel allocates an n×n dense matrix. Results do not depend on the number of threads:
// every output row is computed by one goroutine in a fixed order.
//
// On amd64 processors with AVX2 the sparse×dense products and the edge-masked kernels run
// in assembly (kernels_amd64.s, generated with avo by asm/gensparse): 4 output columns
// per instruction, and two rows in flight. Each output entry is summed in the same order
// with the same IEEE operations as in the Go kernels (no fused multiply-add), so the
// results are the same bits; the purego build tag, or another architecture, runs the Go
// kernels.
package sparse
