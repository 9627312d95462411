package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nagc-harness/nagc/experiments"
)

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "run CONFIG [--results DIR] [--workers N] [--shard I/N] [--limit N] [--batch B]"
	fs := newFlagSet("run", usageLine, stderr)
	results := fs.String("results", "", "results folder (default results/<config name>)")
	workers := fs.Int("workers", 0, "runs executed at once (default: all cores)")
	shard := fs.String("shard", "", "run only slice I of N (1 ≤ I ≤ N), for sharing a sweep between machines")
	limit := fs.Int("limit", 0, "stop after this many runs (resume later)")
	batch := fs.Int("batch", 0, fmt.Sprintf("runs of one dataset and restart fitted together in lockstep (same records for any value; default %d)", experiments.DefaultBatch))
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	cfg, err := experiments.LoadConfig(arg)
	if err != nil {
		return err
	}
	opt := experiments.Options{ResultsDir: *results, Workers: *workers, Limit: *limit, Batch: *batch}
	if opt.ResultsDir == "" {
		name := cfg.Name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg))
		}
		opt.ResultsDir = filepath.Join("results", name)
	}
	if *shard != "" {
		var i, n int
		if _, err := fmt.Sscanf(*shard, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n {
			return fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N", *shard)
		}
		opt.Shard, opt.Shards = i-1, n
	}
	opt.Progress = newProgress(stderr)
	sum, err := experiments.Execute(ctx, cfg, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d runs in this slice, %d already recorded, %d done, %d failed, in %s → %s\n",
		cfg.File, sum.Total, sum.Skipped, sum.Done, sum.Failed, sum.Elapsed.Round(time.Millisecond), opt.ResultsDir)
	if sum.Interrupted {
		return experiments.ErrInterrupted
	}
	return nil
}

// newProgress returns a progress bar on a terminal and periodic plain lines otherwise.
func newProgress(w io.Writer) experiments.Progress {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return &barProgress{w: w}
	}
	return &lineProgress{w: w, every: 10 * time.Second}
}

// barProgress draws a progress bar with done/total, failures and ETA.
type barProgress struct {
	w      io.Writer
	bar    *progressbar.ProgressBar
	failed int
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

func (p *barProgress) Finished(r *experiments.Record) {
	if r.Status != experiments.StatusDone {
		p.failed++
		p.bar.Describe(fmt.Sprintf("runs (%d failed)", p.failed))
	}
	_ = p.bar.Add(1)
}

func (p *barProgress) Stop() { _ = p.bar.Exit() }

// lineProgress prints a line every so often: done/total, failures, rate and ETA.
type lineProgress struct {
	w                          io.Writer
	every                      time.Duration
	mu                         sync.Mutex
	total, done, failed, start int
	began, last                time.Time
}

func (p *lineProgress) Start(total, done int) {
	p.total, p.done, p.start = total, done, done
	p.began, p.last = time.Now(), time.Now()
	fmt.Fprintf(p.w, "runs: %d/%d already recorded\n", done, total)
}

func (p *lineProgress) Finished(r *experiments.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if r.Status != experiments.StatusDone {
		p.failed++
	}
	if time.Since(p.last) >= p.every || p.done == p.total {
		p.last = time.Now()
		p.print()
	}
}

func (p *lineProgress) print() {
	elapsed := time.Since(p.began)
	ran := p.done - p.start
	eta := "?"
	if ran > 0 {
		eta = (time.Duration(float64(elapsed) / float64(ran) * float64(p.total-p.done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "runs: %d/%d done, %d failed, elapsed %s, ETA %s\n",
		p.done, p.total, p.failed, elapsed.Round(time.Second), eta)
}

func (p *lineProgress) Stop() {}
