package dense

// The multiplicative updates of the NMF family, entry by entry: x ← x ⊙ num ⊘ den with
// a value in place of NaN (0/0, ∞/∞, 0·∞). On amd64 with AVX2 they run 4 entries per
// instruction (kernels_amd64.s); the divisions are IEEE-exact either way, so the AVX2
// and Go forms give the same bits.

// UpdateCoefficients are the scalars of NAGC's multiplicative rule for U (see PUUpdate
// and SymUpdate).
type UpdateCoefficients struct {
	Graph   float64 // weight of the graph term SU in the numerator (2ρc, or 2c at ρ = 0.5)
	Lambda  float64 // weight λ of the attribute terms
	Edge    float64 // weight of (UUᵀ⊙W)U in the denominator (2ρ), or of U(UᵀU) at ρ = 0.5
	NonEdge float64 // weight of U(UᵀU) − (UUᵀ⊙W)U in the denominator (2(1−ρ))
	NaN     float64 // the value stored where the update is NaN
}

func (c UpdateCoefficients) array() *[5]float64 {
	return &[5]float64{c.Graph, c.Lambda, c.Edge, c.NonEdge, c.NaN}
}

// RatioUpdate sets x[i] = x[i]·num[i]/den[i], or nan where that is NaN, for every i <
// len(x). num and den must be at least as long as x. Cost O(len(x)).
func RatioUpdate(x, num, den []float64, nan float64) {
	num, den = num[:len(x)], den[:len(x)]
	j := 0
	if useAVX2 {
		j = ratioUpdateAVX2(x, num, den, &[5]float64{4: nan})
	}
	ratioUpdate(x[j:], num[j:], den[j:], nan)
}

func ratioUpdate(x, num, den []float64, nan float64) {
	num, den = num[:len(x)], den[:len(x)]
	for i, v := range x {
		v = v * num[i] / den[i]
		if v != v {
			v = nan
		}
		x[i] = v
	}
}

// PUUpdate applies NAGC's multiplicative rule for U under the ρ-weighted PU loss:
//
//	u[i] ← u[i]·(c.Graph·su[i] + c.Lambda·an[i]) / (c.Edge·g[i] + c.NonEdge·(uutu[i] − g[i]) + c.Lambda·ad[i])
//
// (c.NaN where that is NaN), each product and sum rounded in that order, for every i <
// len(u), with su = SU/c, g = (UUᵀ⊙W)U, uutu = U(UᵀU) and an, ad the attribute terms.
// The other slices must be at least as long as u. Cost O(len(u)).
func PUUpdate(u, su, g, uutu, an, ad []float64, c UpdateCoefficients) {
	n := len(u)
	su, g, uutu, an, ad = su[:n], g[:n], uutu[:n], an[:n], ad[:n]
	j := 0
	if useAVX2 {
		j = puUpdateAVX2(u, su, g, uutu, an, ad, c.array())
	}
	puUpdate(u[j:], su[j:], g[j:], uutu[j:], an[j:], ad[j:], c)
}

func puUpdate(u, su, g, uutu, an, ad []float64, c UpdateCoefficients) {
	n := len(u)
	su, g, uutu, an, ad = su[:n], g[:n], uutu[:n], an[:n], ad[:n]
	for i, x := range u {
		num := c.Graph*su[i] + c.Lambda*an[i]
		den := c.Edge*g[i] + c.NonEdge*(uutu[i]-g[i]) + c.Lambda*ad[i]
		v := x * num / den
		if v != v {
			v = c.NaN
		}
		u[i] = v
	}
}

// SymUpdate applies NAGC's multiplicative rule for U at ρ = 0.5 (the authors' rule for
// ½‖S − UUᵀ‖²):
//
//	u[i] ← u[i]·(c.Graph·su[i] + c.Lambda·an[i]) / (c.Edge·uutu[i] + c.Lambda·ad[i])
//
// (c.NaN where that is NaN) for every i < len(u); c.NonEdge is not read. The other
// slices must be at least as long as u. Cost O(len(u)).
func SymUpdate(u, su, uutu, an, ad []float64, c UpdateCoefficients) {
	n := len(u)
	su, uutu, an, ad = su[:n], uutu[:n], an[:n], ad[:n]
	j := 0
	if useAVX2 {
		j = symUpdateAVX2(u, su, uutu, an, ad, c.array())
	}
	symUpdate(u[j:], su[j:], uutu[j:], an[j:], ad[j:], c)
}

func symUpdate(u, su, uutu, an, ad []float64, c UpdateCoefficients) {
	n := len(u)
	su, uutu, an, ad = su[:n], uutu[:n], an[:n], ad[:n]
	for i, x := range u {
		num := c.Graph*su[i] + c.Lambda*an[i]
		den := c.Edge*uutu[i] + c.Lambda*ad[i]
		v := x * num / den
		if v != v {
			v = c.NaN
		}
		u[i] = v
	}
}
