// Package fitbar draws the progress of a fit (algorithms.Progress: NAGC's iterations)
// as a bar with its ETA on a terminal, once the fit has run for Delay.
package fitbar

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nagc-harness/nagc/algorithms"
)

// Delay is how long a fit runs before its progress bar appears: short fits print
// nothing.
const Delay = 2 * time.Second

// fitBar draws the progress of the fit under way (algorithms.Progress: NAGC's
// iterations) with its ETA on a terminal, once the fit has run for Delay; a report
// that goes back (the next fit of nagc bench) starts a new fit.
type fitBar struct {
	w     io.Writer
	start time.Time
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	phase string
	last  int
	now   func() time.Time // the clock (nil: time.Now)
}

// clock returns the time now by b's clock.
func (b *fitBar) clock() time.Time {
	if b.now == nil {
		return time.Now()
	}
	return b.now()
}

// With returns ctx carrying a progress bar of the fit on w when w is a terminal (ctx
// itself otherwise), and the function that clears the bar when the fit returns.
func With(ctx context.Context, w io.Writer) (context.Context, func()) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return ctx, func() {}
	}
	b := &fitBar{w: w, start: time.Now()}
	return algorithms.WithProgress(ctx, b.report), b.finish
}

func (b *fitBar) report(phase string, done, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.phase != "" && (done < b.last || phase != b.phase) { // another fit
		b.finishLocked()
		b.start = b.clock()
	}
	b.phase, b.last = phase, done
	if b.bar == nil {
		if b.clock().Sub(b.start) < Delay {
			return
		}
		b.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(phase),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(b.w) }),
		)
	}
	_ = b.bar.Set(done)
}

func (b *fitBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.finishLocked()
}

func (b *fitBar) finishLocked() {
	if b.bar != nil && !b.bar.IsFinished() {
		_ = b.bar.Exit()
		fmt.Fprintln(b.w)
	}
	b.bar = nil
}
