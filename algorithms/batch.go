package algorithms

import "context"

// BatchFit is one fit of a batch: a method with its options fixed and the input it fits.
type BatchFit struct {
	Method Method
	In     Input
}

// BatchFitter is a Method that can advance several fits together in lockstep, so that
// one pass over the inputs they share (for NAGC, the attribute matrix X) serves them all.
// Each fit's result is exactly what Method.Fit would return for it alone, bit for bit,
// timings aside: batching changes how long a sweep takes, never what it records.
type BatchFitter interface {
	Method
	// BatchKey returns the key of the lockstep group of a fit of in into k clusters with
	// the receiver's options: fits with the same seed and equal non-empty keys gain from
	// being given to FitBatch together. "" means the fit gains nothing from a batch.
	BatchKey(in Input, k int) string
	// FitBatch fits each of fits into k clusters with seed and returns, in order, each
	// one's result or error: what fits[i].Method.Fit(ctx, fits[i].In, k, seed) returns,
	// timings aside (Result.BatchSize says how many fits shared the iterations). Fits whose
	// method is not of the receiver's kind, or that cannot share a pass with the others,
	// are fitted on their own. A fit that fails or diverges does not disturb the others.
	FitBatch(ctx context.Context, k int, seed uint64, fits []BatchFit) ([]*Result, []error)
}

// FitBatch fits every one of fits into k clusters with seed: fits whose method is a
// BatchFitter of the first such method's kind are handed to it together (it fits alone
// those it cannot batch), the others are fitted one by one with Fit. Results and errors
// come back in the order of fits and equal those of separate Fit calls, timings aside.
func FitBatch(ctx context.Context, k int, seed uint64, fits []BatchFit) ([]*Result, []error) {
	res, errs := make([]*Result, len(fits)), make([]error, len(fits))
	var batched []int
	var batcher BatchFitter
	for i, f := range fits {
		if b, ok := f.Method.(BatchFitter); ok && (batcher == nil || b.Name() == batcher.Name()) {
			batcher = b
			batched = append(batched, i)
			continue
		}
		res[i], errs[i] = f.Method.Fit(ctx, f.In, k, seed)
	}
	if batcher == nil {
		return res, errs
	}
	sub := make([]BatchFit, len(batched))
	for j, i := range batched {
		sub[j] = fits[i]
	}
	rs, es := batcher.FitBatch(ctx, k, seed, sub)
	for j, i := range batched {
		res[i], errs[i] = rs[j], es[j]
	}
	return res, errs
}
