package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestExitAfterGrace checks that after a signal (the context cancelled) a command that
// does not return is ended with exitInterrupted after the grace period, within a second,
// and that one that returns in time, or finishes without a signal, is left alone.
func TestExitAfterGrace(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	codes := make(chan int, 1)
	restored := false
	start := time.Now()
	cancel()
	exitAfterGrace(ctx, func() { restored = true }, make(chan struct{}), graceAfterSignal, io.Discard, func(c int) { codes <- c })
	if took := time.Since(start); took > time.Second || took < graceAfterSignal {
		t.Errorf("exit after %v, want the grace %v and within a second", took, graceAfterSignal)
	}
	if c := <-codes; c != exitInterrupted || !restored {
		t.Errorf("exit code %d, signal handling restored %v; want %d, true", c, restored, exitInterrupted)
	}

	returned := make(chan struct{})
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	go func() { time.Sleep(10 * time.Millisecond); close(returned) }()
	exitAfterGrace(ctx, func() {}, returned, time.Minute, io.Discard, func(int) { t.Error("exit called for a command that returned in time") })

	done := make(chan struct{})
	close(done)
	exitAfterGrace(context.Background(), func() { t.Error("restore called without a signal") }, done, 0, io.Discard, func(int) { t.Error("exit called without a signal") })
}

// TestCancelledFitExitsInterrupted checks that a fit stopped by a signal (its context
// cancelled) ends nagc cluster with exit code 3 and says it was interrupted, not
// "context canceled".
func TestCancelledFitExitsInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	code := run(ctx, []string{"cluster", "--data", "synthetic", "--method", "nagc", "--iterations", "5"}, &out, &errb)
	if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted") || strings.Contains(errb.String(), "context canceled") {
		t.Errorf("exit %d, stderr %q; want %d and the word interrupted", code, errb.String(), exitInterrupted)
	}
}
