package bench

import "math"

// NAGCMultiplyAdds returns the multiply-adds one NAGC iteration needs (NAGCSolver.Step
// and the objective after it) on a graph of n vertices and m attributes with nnzA stored
// adjacency entries and nnzX stored attributes, at k1 vertex and k2 attribute clusters;
// pu is false for the ρ = ½ rule, which skips (UUᵀ⊙W)U. It counts the matrix products
// as the update formulas need them — a symmetric Gram matrix once, an addition of a
// stored 0/1 entry as one — and leaves out the entry-wise work (the quotients of the
// multiplicative rules, NaN checks, the sigmoid's exponentials), which is O((n + m)·k):
//
//	U:  A·U                          nnzA·k1
//	    (UUᵀ⊙W)U (ρ ≠ ½)             2·nnzA·k1   one dot and one axpy per stored entry
//	    U(UᵀU), UᵀU                  n·k1² + n·k1(k1+1)/2
//	    f(UH), f'(UH)                n·k1·k2
//	V:  Xᵀf, fᵀf, V(fᵀf), VᵀV        nnzX·k2 + n·k2(k2+1)/2 + m·k2² + m·k2(k2+1)/2
//	H:  X·V                          nnzX·k2
//	    Uᵀ(f'⊙XV), Uᵀ(f'⊙f), ·VᵀV    2·n·k1·k2 + k1·k2²
//	    next U's terms: f(UH), f'(UH), ((XV)⊙f')Hᵀ, f·VᵀV, ((fVᵀV)⊙f')Hᵀ, ⟨XV, f⟩, ⟨fVᵀV, f⟩
//	                                 3·n·k1·k2 + n·k2² + 2·n·k2
//	objective: Σ_E uᵢ·uⱼ and its squares, ‖UᵀU‖²   nnzA·k1 + k1²
//
// On Citeseer at k1 = k2 = 6 (ρ ≠ ½) that is about 2.8 million.
func NAGCMultiplyAdds(n, m, nnzA, nnzX, k1, k2 int, pu bool) float64 {
	N, M, EA, EX, K1, K2 := float64(n), float64(m), float64(nnzA), float64(nnzX), float64(k1), float64(k2)
	gram := func(r, k float64) float64 { return r * k * (k + 1) / 2 }
	edges := 2.0 // A·U and the objective's pass
	if pu {
		edges += 2
	}
	return EA*K1*edges + 2*EX*K2 +
		N*K1*K1 + gram(N, K1) + gram(N, K2) + gram(M, K2) + M*K2*K2 +
		6*N*K1*K2 + N*K2*K2 + 2*N*K2 + K1*K2*K2 + K1*K1
}

// methodMultiplyAdds returns the multiply-adds per iteration of meth on g's sizes at
// k1 clusters, or NaN where they are not counted (methods other than NAGC).
func methodMultiplyAdds(meth Method, n, m, nnzA, nnzX, k1 int) float64 {
	if meth.Algo != "nagc" {
		return math.NaN()
	}
	k2 := k1
	if v, ok := meth.Params["k2"].(int); ok && v > 0 {
		k2 = v
	}
	pu := true
	if v, ok := meth.Params["rho"].(float64); ok && v == 0.5 {
		pu = false
	}
	return NAGCMultiplyAdds(n, m, nnzA, nnzX, k1, k2, pu)
}
