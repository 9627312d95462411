package kmeans

import "github.com/nagc-harness/nagc/internal/simd"

// Level is the instruction set the generated tile kernels run with: every level gives the
// same bits (each kernel computes its Go form's operations in its order), so the level
// changes only the speed.
type Level = simd.Level

const (
	LevelGo     = simd.Go     // the Go forms, on any processor
	LevelAVX2   = simd.AVX2   // 256-bit vectors
	LevelAVX512 = simd.AVX512 // 512-bit vectors (AVX-512 F)
)

// level is the level in use: the best the processor has (bestLevel), lowered by tests
// through setLevel.
var level = bestLevel

// KernelLevel returns the instruction set FitDense's kernels use on this processor.
func KernelLevel() Level { return level }

// setLevel sets the kernels' level (at most bestLevel) and returns the former one.
func setLevel(l Level) Level {
	old := level
	level = min(l, bestLevel)
	return old
}
