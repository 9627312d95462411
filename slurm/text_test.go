package slurm

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResubmissionWriteText checks each outcome of a resubmission as nagc slurm
// --resubmit prints it.
func TestResubmissionWriteText(t *testing.T) {
	job := &Job{Tasks: 20, Results: "res"}
	for _, tc := range []struct {
		name string
		r    Resubmission
		want string
	}{
		{"tasks", Resubmission{Tasks: "7,12", Array: "81290", Merge: "81291", Expected: 1600, Done: 1560, Failed: 2, Missing: 38},
			"1562 of 1600 runs are recorded (1560 done, 2 failed), 38 missing: resubmitted tasks 7,12 of 20 as job 81290, and merge job 81291 after them\n"},
		{"tasks with searches", Resubmission{CancelledMerges: []string{"81235"}, Tasks: "3", Array: "9", Merge: "10", Expected: 4, Done: 4, Searches: 1},
			"cancelled merge job 81235 of an earlier submission\n" +
				"4 of 4 runs are recorded (4 done, 0 failed), 0 missing, 1 searches unfinished: resubmitted tasks 3 of 20 as job 9, and merge job 10 after them\n"},
		{"merge alone", Resubmission{Merge: "11", Expected: 8, Done: 7, Failed: 1, Merged: 5},
			"every shard is finished (8 runs: 7 done, 1 failed), 5 merged into res: submitted merge job 11\n"},
		{"nothing", Resubmission{CancelledMerges: []string{"1", "2"}, Expected: 8, Done: 8, Merged: 8},
			"cancelled merge job 1 of an earlier submission\ncancelled merge job 2 of an earlier submission\n" +
				"nothing to resubmit: all 8 runs are recorded (8 done, 0 failed) and merged into res\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.r.WriteText(&b, job); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%swant\n%s", b.String(), tc.want)
			}
		})
	}
}

// TestSubmitAll checks that the array and the merge job after it are submitted, held
// when asked, and what is written about them and about scripts only written.
func TestSubmitAll(t *testing.T) {
	for _, hold := range []bool{false, true} {
		dir := t.TempDir()
		fakeSlurm(t, dir)
		job, _ := writtenJob(t, dir, "tiny", "name: tiny\nseed: 1\ndatasets: [synthetic]\nmethods:\n  - {name: k-means, algorithm: kmeans}\n", 2)
		array, merge := filepath.Join(job.Results, Dir, ArrayScript), filepath.Join(job.Results, Dir, MergeScript)
		id, mid, err := job.SubmitAll(context.Background(), array, merge, hold)
		if err != nil || id != "100" || mid != "101" {
			t.Fatalf("hold %v: ids %q %q, %v", hold, id, mid, err)
		}
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		held := map[bool]string{true: " --hold"}[hold]
		if want := "sbatch --parsable" + held + " " + array + "\nsbatch --parsable" + held + " --dependency=afterany:100 " + merge + "\n"; string(calls) != want {
			t.Errorf("hold %v: calls\n%swant\n%s", hold, calls, want)
		}
		var b bytes.Buffer
		if err := job.WriteSubmitted(&b, id, mid, hold, "c.yaml", "res"); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "both are held: start them with scontrol release 100 101\n"); got != hold {
			t.Errorf("hold %v:\n%s", hold, b.String())
		}
		if !strings.HasPrefix(b.String(), "submitted job array 100 (2 tasks) and merge job 101 ") ||
			!strings.HasSuffix(b.String(), "follow it: squeue --jobs 100,101; nagc status c.yaml --results res\n") {
			t.Errorf("hold %v:\n%s", hold, b.String())
		}
	}
	var b bytes.Buffer
	if err := (&Job{Tasks: 3}).WriteWritten(&b, "a.sh", "m.sh", "c.yaml", "res"); err != nil {
		t.Fatal(err)
	}
	want := "wrote a.sh (3 tasks) and m.sh; submit them with\n  nagc slurm c.yaml --results res --tasks 3 --submit\nor by hand:\n" +
		"  jid=$(sbatch --parsable a.sh) && sbatch --dependency=afterany:$jid m.sh\n"
	if b.String() != want {
		t.Errorf("written:\n%swant\n%s", b.String(), want)
	}
}
