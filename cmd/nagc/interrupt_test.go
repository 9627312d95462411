package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestExitAfterGrace checks that after a signal (the context cancelled) a command that
// does not return is ended with exitInterrupted once the grace period has passed, and not
// before; that one that returns within the grace period, or finishes without a signal, is
// left alone. The grace period's timer is the test's: nothing depends on the clock.
func TestExitAfterGrace(t *testing.T) {
	// graceTimer returns an after function whose timer fires when fire is closed, and
	// the grace it was asked for.
	graceTimer := func(fire <-chan time.Time) (func(time.Duration) <-chan time.Time, *time.Duration) {
		var asked time.Duration
		return func(d time.Duration) <-chan time.Time { asked = d; return fire }, &asked
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	codes := make(chan int, 1)
	restored, ended := make(chan struct{}), make(chan struct{})
	fire := make(chan time.Time)
	after, asked := graceTimer(fire)
	var stderr strings.Builder
	go func() {
		defer close(ended)
		exitAfterGrace(ctx, func() { close(restored) }, make(chan struct{}), graceAfterSignal, after, &stderr, func(c int) { codes <- c })
	}()
	<-restored
	select {
	case c := <-codes:
		t.Fatalf("exit %d before the grace period ended", c)
	default:
	}
	close(fire)
	<-ended
	if c := <-codes; c != exitInterrupted || *asked != graceAfterSignal || !strings.Contains(stderr.String(), "run the same command to resume") {
		t.Errorf("exit code %d after a grace of %v, stderr %q; want %d after %v and the resume hint", c, *asked, stderr.String(), exitInterrupted, graceAfterSignal)
	}

	// The command returns within the grace period: no exit.
	returned, restored, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
	never, _ := graceTimer(nil)
	go func() {
		defer close(ended)
		exitAfterGrace(ctx, func() { close(restored) }, returned, graceAfterSignal, never, io.Discard, func(int) { t.Error("exit called for a command that returned in time") })
	}()
	<-restored
	close(returned)
	<-ended

	done := make(chan struct{})
	close(done)
	exitAfterGrace(context.Background(), func() { t.Error("restore called without a signal") }, done, 0, never, io.Discard, func(int) { t.Error("exit called without a signal") })
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
