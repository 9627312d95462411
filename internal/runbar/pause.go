package runbar

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/results"
)

// PauseEnv names the environment variable, set only by tests, that makes `nagc run`
// pause after that many records until a signal arrives: a test then knows, whatever the
// machine's load, that the sweep is running with exactly that many runs recorded when
// its signal (SIGINT, SIGKILL, a Slurm time limit) lands.
const PauseEnv = "NAGC_TEST_PAUSE_AFTER"

// PausedLine is what the paused sweep writes on stderr, for tests to wait for.
const PausedLine = "nagc: paused after %d records (" + PauseEnv + "): waiting for a signal\n"

// PauseAfter wraps p so that, when getenv(PauseEnv) is a positive count n, the n-th
// record's report writes PausedLine to w and blocks until ctx is done; the runner records
// nothing more meanwhile (it hands records over one at a time). Otherwise it returns p.
func PauseAfter(ctx context.Context, p experiments.Progress, getenv func(string) string, w io.Writer) experiments.Progress {
	n, err := strconv.Atoi(getenv(PauseEnv))
	if err != nil || n < 1 {
		return p
	}
	return &pausingProgress{Progress: p, ctx: ctx, after: n, w: w}
}

// pausingProgress is a Progress that pauses after a number of records (PauseAfter).
type pausingProgress struct {
	experiments.Progress
	ctx         context.Context
	after, seen int
	w           io.Writer
}

func (p *pausingProgress) Finished(r *results.Record) {
	p.Progress.Finished(r)
	if p.seen++; p.seen == p.after {
		fmt.Fprintf(p.w, PausedLine, p.after)
		<-p.ctx.Done()
	}
}
