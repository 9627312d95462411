package dense

import "github.com/nagc-harness/nagc/internal/parallel"

// The tests of this package run every kernel split over the threads they set, however
// small its problem, so that each test on more than one thread checks the parallel path.
func init() { parallel.SetSplitAlways(true) }
