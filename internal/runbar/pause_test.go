package runbar

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// TestPauseAfter checks that PauseAfter leaves the progress as it is unless PauseEnv
// holds a positive count, and that with one the record of that count, not an earlier
// one, writes PausedLine and waits for the context (done here, so it returns at once).
func TestPauseAfter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		env   string
		pause int // 0: not wrapped
	}{{"", 0}, {"x", 0}, {"0", 0}, {"-2", 0}, {"1", 1}, {"3", 3}} {
		t.Run(tc.env, func(t *testing.T) {
			var line, pauses bytes.Buffer
			inner := &lineProgress{w: &line, every: Every, now: clockAt(0)}
			p := PauseAfter(ctx, inner, func(k string) string {
				if k != PauseEnv {
					t.Errorf("read %s", k)
				}
				return tc.env
			}, &pauses)
			if wrapped := p != inner; wrapped != (tc.pause > 0) {
				t.Fatalf("wrapped %v, want %v", wrapped, tc.pause > 0)
			}
			p.Start(5, 0)
			for i := 1; i <= 5; i++ {
				p.Finished(&results.Record{Status: results.StatusDone})
				want := ""
				if tc.pause > 0 && i >= tc.pause {
					want = fmt.Sprintf(PausedLine, tc.pause)
				}
				if pauses.String() != want {
					t.Fatalf("after %d records: %q, want %q", i, pauses.String(), want)
				}
			}
			if inner.done != 5 {
				t.Errorf("the wrapped progress saw %d records, want 5", inner.done)
			}
		})
	}
}
