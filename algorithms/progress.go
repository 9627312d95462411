package algorithms

import "context"

// Progress is told how far a fit has come: done of total steps of a phase, such as
// NAGC's iterations ("nagc iterations", 37, 100). It is called from the fitting goroutine
// after each step and must return quickly.
type Progress func(phase string, done, total int)

type progressKey struct{}

// WithProgress returns a copy of ctx that carries p to the fits it is given to (NAGC
// reports each iteration). Results do not depend on it.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// reportProgress tells ctx's Progress, if any, that done of total steps of phase are
// done.
func reportProgress(ctx context.Context, phase string, done, total int) {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		p(phase, done, total)
	}
}
