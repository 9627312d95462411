package runbar

import (
	"bytes"
	"testing"
	"time"

	"github.com/nagc-harness/nagc/results"
)

// TestLineProgress checks the plain progress lines on the test's clock: a line after
// Every has passed since the last and after the last run, counting failed runs as
// finished, with the ETA from the runs made in this execution.
func TestLineProgress(t *testing.T) {
	done := &results.Record{Status: results.StatusDone}
	failed := &results.Record{Status: results.StatusFailed}
	type step struct {
		after time.Duration // since the start
		rec   *results.Record
	}
	for _, tc := range []struct {
		name        string
		total, done int
		steps       []step
		want        string
	}{
		{
			name: "failed runs are finished", total: 2,
			steps: []step{{time.Second, failed}, {2 * time.Second, done}},
			want: "runs: 0/2 already recorded\n" +
				"runs: 2/2 finished (1 failed), elapsed 2s, ETA 0s\n",
		},
		{
			name: "a line every 10 s, ETA from this execution's runs", total: 5, done: 1,
			steps: []step{{4 * time.Second, done}, {10 * time.Second, done}, {12 * time.Second, failed}, {30 * time.Second, done}},
			want: "runs: 1/5 already recorded\n" +
				"runs: 3/5 finished (0 failed), elapsed 10s, ETA 10s\n" +
				"runs: 5/5 finished (1 failed), elapsed 30s, ETA 0s\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			now := start
			p := &lineProgress{w: &b, every: Every, now: func() time.Time { return now }}
			p.Start(tc.total, tc.done)
			for _, s := range tc.steps {
				now = start.Add(s.after)
				p.Finished(s.rec)
			}
			p.Stop()
			if got := b.String(); got != tc.want {
				t.Errorf("progress:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestNewPlainLines checks that a writer that is not a terminal gets the plain lines.
func TestNewPlainLines(t *testing.T) {
	if _, ok := New(&bytes.Buffer{}).(*lineProgress); !ok {
		t.Error("New(buffer) is not the plain progress line")
	}
}

// clockAt returns a clock stopped at the given seconds after a fixed time.
func clockAt(s int) func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, s, 0, time.UTC)
	return func() time.Time { return t }
}
