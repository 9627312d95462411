package dense

import "math"

// exp returns eˣ. For |x| ≤ 700 it uses a table of 2^(j/32) and a degree-6 polynomial on
// |r| ≤ ln2/64 (x = (32m + j)·ln2/32 + r), with an error of about one ulp; elsewhere, and
// for NaN, it returns math.Exp(x). It is several times faster than math.Exp, which
// dominated the cost of the sigmoid. Every product that is added is converted with
// float64(), so that no compiler fuses the two into a multiply-add: exp (and sigmoid)
// give the same bits on every architecture and GOAMD64 level, and those of the AVX2
// kernels.
func exp(x float64) float64 {
	if !(x >= -700 && x <= 700) {
		return math.Exp(x)
	}
	kf := (float64(x*invLn2x32) + shift) - shift // round(32x/ln2), |kf| < 2¹⁵
	k := int(kf)
	r := (x - float64(kf*ln2Hi)) - float64(kf*ln2Lo)
	// p = eʳ − 1 (truncation error below r⁷/7! < 4e-18), in Estrin's form to shorten the
	// chain of dependent operations. q is (r+tiny)² rather than r²: the same number unless
	// |r| < 2⁻²⁴⁷, and never subnormal, since a subnormal result costs some processors a
	// hundred cycles (for x near 0, which is common in NAGC, r² would underflow); the
	// change to p is below 2⁻³⁰⁰.
	q := (r + tiny) * (r + tiny)
	p := r + float64(q*((1.0/2+float64(r*(1.0/6)))+float64(q*((1.0/24+float64(r*(1.0/120)))+float64(q*(1.0/720))))))
	t := exp2Table[k&31]
	y := t + float64(t*p)
	return math.Float64frombits(math.Float64bits(y) + uint64(k>>5)<<52)
}

const (
	shift     = 0x1.8p52             // adding it rounds to an integer
	invLn2x32 = 0x1.71547652b82fep+5 // 32/ln2
	// ln2/32 in two parts, the first with 32 significant bits so that k·ln2Hi is exact.
	ln2Hi = 6.93147180369123816490e-01 / 32
	ln2Lo = 1.90821492927058770002e-10 / 32
	tiny  = 0x1p-300 // keeps the square in exp's polynomial away from the subnormals
)

// exp2Table[j] is 2^(j/32) rounded to the nearest float64.
var exp2Table = [32]float64{
	0x1.0000000000000p+0, // 2^(0/32)
	0x1.059b0d3158574p+0, // 2^(1/32)
	0x1.0b5586cf9890fp+0, // 2^(2/32)
	0x1.11301d0125b51p+0, // 2^(3/32)
	0x1.172b83c7d517bp+0, // 2^(4/32)
	0x1.1d4873168b9aap+0, // 2^(5/32)
	0x1.2387a6e756238p+0, // 2^(6/32)
	0x1.29e9df51fdee1p+0, // 2^(7/32)
	0x1.306fe0a31b715p+0, // 2^(8/32)
	0x1.371a7373aa9cbp+0, // 2^(9/32)
	0x1.3dea64c123422p+0, // 2^(10/32)
	0x1.44e086061892dp+0, // 2^(11/32)
	0x1.4bfdad5362a27p+0, // 2^(12/32)
	0x1.5342b569d4f82p+0, // 2^(13/32)
	0x1.5ab07dd485429p+0, // 2^(14/32)
	0x1.6247eb03a5585p+0, // 2^(15/32)
	0x1.6a09e667f3bcdp+0, // 2^(16/32)
	0x1.71f75e8ec5f74p+0, // 2^(17/32)
	0x1.7a11473eb0187p+0, // 2^(18/32)
	0x1.82589994cce13p+0, // 2^(19/32)
	0x1.8ace5422aa0dbp+0, // 2^(20/32)
	0x1.93737b0cdc5e5p+0, // 2^(21/32)
	0x1.9c49182a3f090p+0, // 2^(22/32)
	0x1.a5503b23e255dp+0, // 2^(23/32)
	0x1.ae89f995ad3adp+0, // 2^(24/32)
	0x1.b7f76f2fb5e47p+0, // 2^(25/32)
	0x1.c199bdd85529cp+0, // 2^(26/32)
	0x1.cb720dcef9069p+0, // 2^(27/32)
	0x1.d5818dcfba487p+0, // 2^(28/32)
	0x1.dfc97337b9b5fp+0, // 2^(29/32)
	0x1.ea4afa2a490dap+0, // 2^(30/32)
	0x1.f50765b6e4540p+0, // 2^(31/32)
}

// Limits of the fast path of sigmoid, on k = round(32z/ln2): from z ≈ −350 (beyond which
// (1+e^{−z})² would come near overflow) to z ≈ 700 (beyond which e^{−z} nears the
// subnormals). NaN and ±Inf convert to the smallest int64 and so fall outside.
const (
	kMin  = -16159 // ⌊−350·32/ln2⌋
	kSpan = 32318 - kMin
)

// sigmoid replaces each z of f by σ(z) = 1/(1+e^{−z}) and sets the matching entry of fp to
// σ'(z) = e^{−z}/(1+e^{−z})². For −350 ≤ z ≤ 700 it computes e = e^{−z} as exp(−z) does, and
// r = 1/(1+e), σ = r and σ' = e·r·r, which differs from e/(1+e)² by rounding only; the
// exponential is written out and interleaved over pairs of entries, so that the processor
// overlaps their long dependency chains. Elsewhere it evaluates 1/(1+e) and
// e/((1+e)·(1+e)) literally, so that where (1+e)² overflows σ' is 0 as that expression
// gives. len(fp) must be at least len(f). Where useAVX512, the AVX-512 kernel does the
// groups of 8 entries within the fast path, and where useAVX2, the AVX2 kernel the groups
// of 4 left, with the same results.
func sigmoid(f, fp []float64) {
	fp = fp[:len(f)]
	if useAVX512 {
		f, fp = sigmoidGroups(f, fp, 8, sigmoidAVX512, sigmoid4)
	}
	sigmoid4(f, fp)
}

// sigmoid4 is sigmoid by the AVX2 kernel, where useAVX2, and in Go.
func sigmoid4(f, fp []float64) {
	fp = fp[:len(f)]
	if useAVX2 {
		f, fp = sigmoidGroups(f, fp, 4, sigmoidAVX2, sigmoidGo)
	}
	sigmoidGo(f, fp)
}

// sigmoidGroups runs the sigmoid kernel over f (and fp) in groups of g entries, handing
// each group with an entry outside the kernel's fast path to other, and returns the
// entries left (fewer than g).
func sigmoidGroups(f, fp []float64, g int, kernel func(f, fp []float64, tbl *[32]float64) int, other func(f, fp []float64)) ([]float64, []float64) {
	for len(f) >= g {
		n := kernel(f, fp, &exp2Table)
		if n+g > len(f) {
			return f[n:], fp[n:]
		}
		// f[n:n+g] has an entry outside the fast path.
		other(f[n:n+g], fp[n:n+g])
		f, fp = f[n+g:], fp[n+g:]
	}
	return f, fp
}

// sigmoidGo is sigmoid in Go.
func sigmoidGo(f, fp []float64) {
	fp = fp[:len(f)]
	j := 0
	for ; j+2 <= len(f); j += 2 {
		z0, z1 := f[j], f[j+1]
		// e^{−z} = 2^(m + i/32)·e^r with 32m + i = −round(32z/ln2) (see exp).
		kf0 := (float64(z0*invLn2x32) + shift) - shift
		kf1 := (float64(z1*invLn2x32) + shift) - shift
		k0, k1 := int(kf0), int(kf1)
		if uint(k0-kMin) > kSpan || uint(k1-kMin) > kSpan {
			break
		}
		// expNeg(z0, kf0, k0) and expNeg(z1, kf1, k1), written out (the call is not inlined).
		r0 := (float64(kf0*ln2Hi) - z0) + float64(kf0*ln2Lo)
		r1 := (float64(kf1*ln2Hi) - z1) + float64(kf1*ln2Lo)
		q0, q1 := (r0+tiny)*(r0+tiny), (r1+tiny)*(r1+tiny)
		p0 := r0 + float64(q0*((1.0/2+float64(r0*(1.0/6)))+float64(q0*((1.0/24+float64(r0*(1.0/120)))+float64(q0*(1.0/720))))))
		p1 := r1 + float64(q1*((1.0/2+float64(r1*(1.0/6)))+float64(q1*((1.0/24+float64(r1*(1.0/120)))+float64(q1*(1.0/720))))))
		t0, t1 := exp2Table[(-k0)&31], exp2Table[(-k1)&31]
		y0, y1 := t0+float64(t0*p0), t1+float64(t1*p1)
		e0 := math.Float64frombits(math.Float64bits(y0) + uint64((-k0)>>5)<<52)
		e1 := math.Float64frombits(math.Float64bits(y1) + uint64((-k1)>>5)<<52)
		s0, s1 := 1/(1+e0), 1/(1+e1)
		f[j], f[j+1] = s0, s1
		fp[j], fp[j+1] = e0*s0*s0, e1*s1*s1
	}
	for ; j < len(f); j++ {
		z := f[j]
		kf := (float64(z*invLn2x32) + shift) - shift
		if k := int(kf); uint(k-kMin) <= kSpan {
			e := expNeg(z, kf, k)
			s := 1 / (1 + e)
			f[j] = s
			fp[j] = e * s * s
		} else {
			e := math.Exp(-z)
			d := 1 + e
			f[j] = 1 / d
			fp[j] = e / (d * d)
		}
	}
}

// expNeg returns e^{−z} given kf = round(32z/ln2) and k = int(kf) within the limits of
// sigmoid's fast path; it is exp(−z) without the range check, and gives the same bits.
func expNeg(z, kf float64, k int) float64 {
	r := (float64(kf*ln2Hi) - z) + float64(kf*ln2Lo)
	q := (r + tiny) * (r + tiny)
	p := r + float64(q*((1.0/2+float64(r*(1.0/6)))+float64(q*((1.0/24+float64(r*(1.0/120)))+float64(q*(1.0/720))))))
	t := exp2Table[(-k)&31]
	y := t + float64(t*p)
	return math.Float64frombits(math.Float64bits(y) + uint64((-k)>>5)<<52)
}
