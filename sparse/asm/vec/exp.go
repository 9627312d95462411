package vec

// The constants of the vectorised exp and sigmoid kernels, the same values as dense's
// scalar twin (dense/exp.go): e^z = 2^(k/32)·e^r with k = round(32z/ln2), r the remainder
// reduced in two parts, and a degree-6 polynomial for e^r.
const (
	ExpInvLn2x32 = 0x1.71547652b82fep+5            // 32/ln2
	ExpShift     = 0x1.8p52                        // rounds to an integer when added
	ExpLn2Hi     = 6.93147180369123816490e-01 / 32 // ln2/32, high part
	ExpLn2Lo     = 1.90821492927058770002e-10 / 32 // ln2/32, low part
	ExpTiny      = 0x1p-300
	ExpKMin      = -16159 // the fast path's limits on k, as floats
	ExpKMax      = 32318
)
