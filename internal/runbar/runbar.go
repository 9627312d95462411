// Package runbar reports the progress of a sweep (experiments.Progress): a bar with
// its ETA on a terminal, a plain line every so often otherwise; and, for tests, pauses
// a sweep after a given number of records (PauseAfter).
package runbar

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// Every is how often the plain progress line is written, besides after the last run.
const Every = 10 * time.Second

// New returns a progress bar writing to w when w is a terminal, and otherwise a
// progress line written every Every and after the last run.
func New(w io.Writer) experiments.Progress {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &barProgress{w: w}
	}
	return &lineProgress{w: w, every: Every, now: time.Now}
}

// barProgress draws a progress bar with done/total, failures and ETA.
type barProgress struct {
	w      io.Writer
	bar    *progressbar.ProgressBar
	failed int
	best   results.SearchBest // a search's best so far
}

func (p *barProgress) Start(total, done int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("runs"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
	_ = p.bar.Set(done)
}

func (p *barProgress) Finished(r *results.Record) {
	best := p.best.Add(r)
	if r.Status != results.StatusDone {
		p.failed++
	}
	if r.Status != results.StatusDone || best != "" {
		desc := "runs"
		if p.failed > 0 {
			desc += fmt.Sprintf(" (%d failed)", p.failed)
		}
		if best != "" {
			desc += ", " + best
		}
		p.bar.Describe(desc)
	}
	_ = p.bar.Add(1)
}

func (p *barProgress) Stop() { _ = p.bar.Exit() }

// lineProgress prints a line every so often: done/total, failures, rate and ETA.
type lineProgress struct {
	w                          io.Writer
	every                      time.Duration
	now                        func() time.Time // the clock
	mu                         sync.Mutex
	total, done, failed, start int
	began, last                time.Time
	best                       results.SearchBest // a search's best so far
	bestText                   string
}

func (p *lineProgress) Start(total, done int) {
	p.total, p.done, p.start = total, done, done
	p.began, p.last = p.now(), p.now()
	fmt.Fprintf(p.w, "runs: %d/%d already recorded\n", done, total)
}

func (p *lineProgress) Finished(r *results.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if r.Status != results.StatusDone {
		p.failed++
	}
	p.bestText = p.best.Add(r)
	if p.now().Sub(p.last) >= p.every || p.done == p.total {
		p.last = p.now()
		p.print()
	}
}

func (p *lineProgress) print() {
	elapsed := p.now().Sub(p.began)
	ran := p.done - p.start
	eta := "?"
	if ran > 0 {
		eta = (time.Duration(float64(elapsed) / float64(ran) * float64(p.total-p.done))).Round(time.Second).String()
	}
	best := ""
	if p.bestText != "" {
		best = "; " + p.bestText
	}
	// done counts failed runs too: "finished", so that it reads as the summary line's
	// "done" (succeeded) plus "failed".
	fmt.Fprintf(p.w, "runs: %d/%d finished (%d failed), elapsed %s, ETA %s%s\n",
		p.done, p.total, p.failed, elapsed.Round(time.Second), eta, best)
}

func (p *lineProgress) Stop() {}
