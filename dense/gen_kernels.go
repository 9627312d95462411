//go:build ignore

// gen_kernels writes kernels_gen.go: dense kernels unrolled over a fixed number w of
// output columns, so that the w partial sums live in registers. Run it with
// `go generate` in this directory. Every product is converted with float64() before it
// is added, which stops the compiler from fusing the two into a multiply-add (as it does
// on arm64, or on amd64 with GOAMD64=v3): the kernels round the same way everywhere, and
// as the AVX2 kernels do.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
)

// widest is the widest kernel: w accumulators plus the scalar and two temporaries fit in
// the 16 SSE registers of amd64.
const widest = 8

// maxInner is the largest inner dimension of the row kernels (their copy of b on the stack
// is maxInner×w).
const maxInner = 32

// A family of kernels, one per width.
type family struct {
	name, doc, params, args string
	// checks are the bounds checks that make the AVX2 kernel (which has none) safe: Go
	// statements that panic where the Go kernel would.
	checks string
	body   func(p printer, w int)
}

type printer func(format string, args ...any)

var families = []family{
	{
		name: "rowMul",
		doc: `sets, for each row i < rows, out[i·ds : i·ds+w] = Σ_{t<k} a[i·as+t]·b[t·bs : t·bs+w]:
// w columns of rows of a·b, for k ≤ maxInner. It copies the k×w block of b to the stack
// first, so that the inner loop has no bounds check and few live registers.`,
		params: "out []float64, ds int, a []float64, as int, b []float64, bs, k, rows int",
		args:   "out, ds, a, as, b, bs, k, rows",
		checks: `if rows > 0 {
			_ = out[(rows-1)*ds+w-1]
			if k > 0 {
				_ = a[(rows-1)*as+k-1]
				_ = b[(k-1)*bs+w-1]
			}
		}`,
		body: func(p printer, w int) {
			copyB(p, w, "")
			p("\tfor i := 0; i < rows; i++ {\n\t\tx := a[i*as:][:k]\n")
			p("\t\tvar %s float64\n", list("s%d", w))
			p("\t\tfor t, v := range x {\n\t\t\tr := &bb[t]\n")
			terms(p, w, "\t\t\ts%[1]d += float64(v * r[%[1]d])\n")
			p("\t\t}\n\t\to := out[i*ds : i*ds+%[1]d : i*ds+%[1]d]\n", w)
			terms(p, w, "\t\to[%[1]d] = s%[1]d\n")
			p("\t}\n")
		},
	},
	{
		name: "rowMulHadamard",
		doc: `sets, for each row i < rows, out[i·ds : i·ds+w] =
// Σ_{t<k} a[i·as+t]·c[i·cs+t]·b[t·bs : t·bs+w]: w columns of rows of (a⊙c)·b, for
// k ≤ maxInner. Like rowMul it works from a copy of b on the stack.`,
		params: "out []float64, ds int, a []float64, as int, c []float64, cs int, b []float64, bs, k, rows int",
		args:   "out, ds, a, as, c, cs, b, bs, k, rows",
		checks: `if rows > 0 {
			_ = out[(rows-1)*ds+w-1]
			if k > 0 {
				_ = a[(rows-1)*as+k-1]
				_ = c[(rows-1)*cs+k-1]
				_ = b[(k-1)*bs+w-1]
			}
		}`,
		body: func(p printer, w int) {
			copyB(p, w, "")
			p("\tfor i := 0; i < rows; i++ {\n\t\tx := a[i*as:][:k]\n\t\ty := c[i*cs:][:k]\n")
			p("\t\tvar %s float64\n", list("s%d", w))
			p("\t\tfor t, v := range x {\n\t\t\tv *= y[t]\n\t\t\tr := &bb[t]\n")
			terms(p, w, "\t\t\ts%[1]d += float64(v * r[%[1]d])\n")
			p("\t\t}\n\t\to := out[i*ds : i*ds+%[1]d : i*ds+%[1]d]\n", w)
			terms(p, w, "\t\to[%[1]d] = s%[1]d\n")
			p("\t}\n")
		},
	},
	{
		name: "colAcc",
		doc: `sets, for each p < k, out[p·ds : p·ds+w] (add: adds to it)
// Σ_{t<n} x[t·xs+p]·b[t·bs : t·bs+w]: w columns of xᵀ·b over a block of n ≤ BlockRows rows.
// It copies the n×w block of b to the stack first.`,
		params: "out []float64, ds int, x []float64, xs, k int, b []float64, bs, n int, add bool",
		args:   "out, ds, x, xs, k, b, bs, n, add",
		checks: `if k > 0 {
			_ = out[(k-1)*ds+w-1]
			if n > 0 {
				_ = x[(n-1)*xs+k-1]
				_ = b[(n-1)*bs+w-1]
			}
		}`,
		body: func(p printer, w int) {
			copyBlock(p, w, false)
			colLoop(p, w)
		},
	},
	{
		name: "colAccHadamard",
		doc: `sets, for each p < k, out[p·ds : p·ds+w] (add: adds to it)
// Σ_{t<n} x[t·xs+p]·(b[t·bs : t·bs+w] ⊙ c[t·cs : t·cs+w]): w columns of xᵀ·(b⊙c) over a
// block of n ≤ BlockRows rows. It copies the n×w block of b⊙c to the stack first.`,
		params: "out []float64, ds int, x []float64, xs, k int, b []float64, bs int, c []float64, cs, n int, add bool",
		args:   "out, ds, x, xs, k, b, bs, c, cs, n, add",
		checks: `if k > 0 {
			_ = out[(k-1)*ds+w-1]
			if n > 0 {
				_ = x[(n-1)*xs+k-1]
				_ = b[(n-1)*bs+w-1]
				_ = c[(n-1)*cs+w-1]
			}
		}`,
		body: func(p printer, w int) {
			copyBlock(p, w, true)
			colLoop(p, w)
		},
	},
}

// copyB copies rows t < k, columns 0…w−1 of b to bb [maxInner][w]float64.
func copyB(p printer, w int, _ string) {
	p("\tif k > maxInner {\n\t\tpanic(\"dense: inner dimension above maxInner\")\n\t}\n")
	p("\tvar bb [maxInner][%d]float64\n", w)
	p("\tfor t := range bb[:k] {\n\t\tr := b[t*bs : t*bs+%[1]d : t*bs+%[1]d]\n", w)
	terms(p, w, "\t\tbb[t][%[1]d] = r[%[1]d]\n")
	p("\t}\n")
}

// copyBlock copies rows t < n, columns 0…w−1 of b (of b⊙c) to bb [BlockRows][w]float64.
func copyBlock(p printer, w int, hadamard bool) {
	p("\tvar bb [BlockRows][%d]float64\n", w)
	p("\tfor t := range bb[:n] {\n\t\tr := b[t*bs : t*bs+%[1]d : t*bs+%[1]d]\n", w)
	if hadamard {
		p("\t\tq := c[t*cs : t*cs+%[1]d : t*cs+%[1]d]\n", w)
		terms(p, w, "\t\tbb[t][%[1]d] = r[%[1]d] * q[%[1]d]\n")
	} else {
		terms(p, w, "\t\tbb[t][%[1]d] = r[%[1]d]\n")
	}
	p("\t}\n\tbb2 := bb[:n]\n")
}

// colLoop sums x[t·xs+p]·bb[t] over t for each p and stores the sums.
func colLoop(pr printer, w int) {
	p := pr
	p("\tfor p := 0; p < k; p++ {\n")
	p("\t\tvar %s float64\n", list("s%d", w))
	p("\t\txo := p\n\t\tfor t := range bb2 {\n\t\t\tv := x[xo]\n\t\t\txo += xs\n\t\t\tr := &bb2[t]\n")
	terms(p, w, "\t\t\ts%[1]d += float64(v * r[%[1]d])\n")
	p("\t\t}\n\t\to := out[p*ds : p*ds+%[1]d : p*ds+%[1]d]\n\t\tif add {\n", w)
	terms(p, w, "\t\t\to[%[1]d] += s%[1]d\n")
	p("\t\t} else {\n")
	terms(p, w, "\t\t\to[%[1]d] = s%[1]d\n")
	p("\t\t}\n\t}\n")
}

func main() {
	var b bytes.Buffer
	p := printer(func(format string, args ...any) { fmt.Fprintf(&b, format, args...) })
	p("// Code generated by gen_kernels.go; DO NOT EDIT.\n\npackage dense\n\n")
	p("// widest is the widest kernel of each family.\nconst widest = %d\n\n", widest)
	p("// maxInner is the largest inner dimension k of the row kernels.\nconst maxInner = %d\n\n", maxInner)
	for _, f := range families {
		p("// %s %s\n// It dispatches to the AVX2 kernel (same results; 1 ≤ w ≤ widestAVX2) where\n// useAVX2, else on 1 ≤ w ≤ widest.\n", f.name, f.doc)
		p("func %s(w int, %s) {\n", f.name, f.params)
		p("\tif useAVX2 && 1 <= w && w <= widestAVX2 {\n%s\n\t\t%sAVX2[w](%s)\n\t\treturn\n\t}\n", f.checks, f.name, f.args)
		p("\tswitch w {\n")
		for w := 1; w <= widest; w++ {
			p("\tcase %d:\n\t\t%s%d(%s)\n", w, f.name, w, f.args)
		}
		p("\tdefault:\n\t\tpanic(\"dense: kernel width out of range\")\n\t}\n}\n\n")
		for w := 1; w <= widest; w++ {
			p("func %s%d(%s) {\n", f.name, w, f.params)
			f.body(p, w)
			p("}\n\n")
		}
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		os.WriteFile("kernels_gen.go.broken", b.Bytes(), 0o644)
		log.Fatal(err)
	}
	if err := os.WriteFile("kernels_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}

func terms(p printer, w int, format string) {
	for l := 0; l < w; l++ {
		p(format, l)
	}
}

func list(f string, w int) string {
	s := make([]string, w)
	for l := range s {
		s[l] = fmt.Sprintf(f, l)
	}
	return strings.Join(s, ", ")
}
