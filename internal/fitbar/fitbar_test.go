package fitbar

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestFitBar checks that a fit shorter than Delay draws nothing, that a longer one
// draws a bar of its iterations with their count, and that the next fit (its iterations
// starting again) waits for its own delay. The bar's clock is the test's.
func TestFitBar(t *testing.T) {
	var w bytes.Buffer
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	b := &fitBar{w: &w, start: now, now: clock}
	for it := 1; it <= 10; it++ {
		now = now.Add(Delay / 20)
		b.report("nagc iterations", it, 10)
	}
	b.finish()
	if w.Len() != 0 {
		t.Fatalf("a short fit drew %q", w.String())
	}
	b = &fitBar{w: &w, start: now, now: clock}
	for it := 1; it <= 40; it++ {
		now = now.Add(Delay / 10)
		b.report("nagc iterations", it, 100)
	}
	b.finish()
	if out := w.String(); !strings.Contains(out, "nagc iterations") || !strings.Contains(out, "/100)") {
		t.Fatalf("a long fit drew %q, want a bar of its iterations", out)
	}
	w.Reset()
	b.report("nagc iterations", 1, 100) // the next fit, at once: no bar yet
	b.finish()
	if w.Len() != 0 {
		t.Errorf("the next fit drew %q before its delay", w.String())
	}
}
