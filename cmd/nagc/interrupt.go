package main

import (
	"context"
	"fmt"
	"io"
	"time"
)

// graceAfterSignal is how long a command has, after Ctrl-C or SIGTERM, to stop on its
// own (the fits, their graph filters, SVDs and k-means starts, and the runner watch the
// context) before the process exits anyway: a loop that does not watch it (a reader)
// stops all the same, within a second.
const graceAfterSignal = 800 * time.Millisecond

// exitAfterGrace waits for ctx, the signal context of main, to be done; it then restores
// the default signal handling (restore: a second Ctrl-C ends the process at once), and
// if the command has not returned when after(grace) fires (main passes time.After), says
// so on stderr and calls exit with exitInterrupted. Recorded runs are complete lines (a
// torn last line is skipped when read), so the same command resumes. It returns when ctx
// is done and exit has been called, or when returned is closed.
func exitAfterGrace(ctx context.Context, restore func(), returned <-chan struct{}, grace time.Duration, after func(time.Duration) <-chan time.Time, stderr io.Writer, exit func(int)) {
	select {
	case <-returned:
		return
	case <-ctx.Done():
	}
	restore()
	select {
	case <-returned:
	case <-after(grace):
		fmt.Fprintf(stderr, "nagc: interrupted; ended %s after the signal, in the middle of a step that does not stop on its own (a sweep's recorded runs are kept: run the same command to resume it)\n", grace)
		exit(exitInterrupted)
	}
}
