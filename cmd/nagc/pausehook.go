package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// pauseEnv names the environment variable, set only by tests, that makes `nagc run`
// pause after that many records until a signal arrives: a test then knows, whatever the
// machine's load, that the sweep is running with exactly that many runs recorded when
// its signal (SIGINT, SIGKILL, a Slurm time limit) lands.
const pauseEnv = "NAGC_TEST_PAUSE_AFTER"

// pausedLine is what the paused sweep writes on stderr, for tests to wait for.
const pausedLine = "nagc: paused after %d records (" + pauseEnv + "): waiting for a signal\n"

// pauseAfter wraps p so that, when getenv(pauseEnv) is a positive count n, the n-th
// record's report writes pausedLine to w and blocks until ctx is done; the runner records
// nothing more meanwhile (it hands records over one at a time). Otherwise it returns p.
func pauseAfter(ctx context.Context, p experiments.Progress, getenv func(string) string, w io.Writer) experiments.Progress {
	n, err := strconv.Atoi(getenv(pauseEnv))
	if err != nil || n < 1 {
		return p
	}
	return &pausingProgress{Progress: p, ctx: ctx, after: n, w: w}
}

// pausingProgress is a Progress that pauses after a number of records (pauseAfter).
type pausingProgress struct {
	experiments.Progress
	ctx         context.Context
	after, seen int
	w           io.Writer
}

func (p *pausingProgress) Finished(r *results.Record) {
	p.Progress.Finished(r)
	if p.seen++; p.seen == p.after {
		fmt.Fprintf(p.w, pausedLine, p.after)
		<-p.ctx.Done()
	}
}
