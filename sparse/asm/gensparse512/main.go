// Command gensparse512 writes the AVX-512 unit gather kernels of package sparse
// (kernels512_amd64.s, its stubs and the dispatch table). Run it with `go generate` in
// package sparse.
//
// The kernels are gensparse's unit gather kernels with 8 columns per ZMM register: each
// sums every output entry over the row's stored entries in storage order, with one IEEE
// addition per stored entry and lane, as the Go kernels do, so they give the Go kernels'
// bits. The 32 vector registers hold two rows of up to 48 columns (NAGC's k of
// ogbn-arxiv and -products in one chunk), so that a row's neighbours' rows are gathered
// in one pass where the AVX2 kernels take two. (The weighted gathers in AVX-512 measured
// slower than the AVX2 ones at degree 50 on AMD Zen 4, and are not made.)
package main

import (
	"flag"
	"fmt"

	. "github.com/mmcloughlin/avo/build"

	"github.com/nagc-harness/nagc/sparse/asm/vec"
)

// maxWidth is the widest gather kernel: two rows of 48 columns are 12 ZMM accumulators,
// beside the broadcast value and a temporary.
const maxWidth = 48

func main() {
	tables := flag.String("tables", "", "Go file for the dispatch tables")
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	for w := 1; w <= maxWidth; w++ {
		vec.GatherRows(name(w), w, false, newRow, ZMM)
	}
	Generate()
	if *tables != "" {
		vec.WriteTablesAt(*tables, "asm/gensparse512", "sparse", "AVX-512",
			fmt.Sprintf("// maxGatherAVX512 is the widest AVX-512 gather kernel.\nconst maxGatherAVX512 = %d\n", maxWidth),
			[]vec.Table{
				{Var: "gatherUnitRowsAVX512", Bound: "maxGatherAVX512", Sig: "func(out []float64, os int, ptr []int, ind []int, b []float64, bs int)", Max: maxWidth, Name: name},
			})
	}
}

func name(w int) string { return fmt.Sprintf("gatherUnitRows%dAVX512", w) }

func newRow(w int) vec.GatherRow { return vec.NewRow512(w) }
