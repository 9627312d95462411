package experiments

import (
	"context"
	"reflect"
	"testing"

	"github.com/nagc-harness/nagc/results"
)

// cancelAfter cancels a sweep once it has recorded n runs.
type cancelAfter struct {
	n      *int
	cancel context.CancelFunc
}

func (c cancelAfter) Start(total, done int) {}
func (c cancelAfter) Stop()                 {}
func (c cancelAfter) Finished(r *results.Record) {
	if *c.n--; *c.n == 0 {
		c.cancel()
	}
}

// TestSplitFitsInterruptedAndResumed interrupts a sweep whose runs' own and held-out fits
// two workers make apart (splitTasks): every record written is whole (a done run has its
// held-out fit), and the resumed sweep ends with the records of one worker in plan order.
func TestSplitFitsInterruptedAndResumed(t *testing.T) {
	cfg := mustLoad(t, "holdout: 0.2\n"+batchConfig)
	ref := t.TempDir()
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: ref, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 3
	sum, err := Execute(ctx, cfg, Options{ResultsDir: dir, Workers: 2, Progress: cancelAfter{&n, cancel}})
	if err != nil || !sum.Interrupted || sum.Done+sum.Failed >= sum.Total {
		t.Fatalf("interrupted sweep: %+v, %v", sum, err)
	}
	recs, err := results.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Status == results.StatusDone && !hasHeldOut(&r, cfg.Holdout) {
			t.Errorf("run %s recorded done without its held-out fit", r.RunID)
		}
	}
	if _, err := Execute(context.Background(), cfg, Options{ResultsDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if got, want := comparable(t, dir), comparable(t, ref); !reflect.DeepEqual(got, want) {
		t.Error("interrupted and resumed with fits apart: records differ from one worker's")
	}
}
