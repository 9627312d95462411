package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// The progress line counts finished runs, failed ones among them, in words that do not
// call a failed run done.
func TestProgressLineCountsFinished(t *testing.T) {
	var b bytes.Buffer
	p := &lineProgress{w: &b}
	p.Start(2, 0)
	p.Finished(&results.Record{Status: results.StatusFailed})
	p.Finished(&results.Record{Status: results.StatusDone})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || lines[0] != "runs: 0/2 already recorded" ||
		!strings.HasPrefix(lines[1], "runs: 1/2 finished (1 failed), elapsed ") ||
		!strings.HasPrefix(lines[2], "runs: 2/2 finished (1 failed), elapsed ") {
		t.Errorf("progress:\n%s", b.String())
	}
}
