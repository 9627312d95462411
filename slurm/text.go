package slurm

import (
	"context"
	"fmt"
	"io"
)

// WriteWritten writes, for `nagc slurm` without --submit, where Write put the array and
// merge scripts of j and the commands that submit them; config and results are the
// config and results folder as the user named them.
func (j *Job) WriteWritten(w io.Writer, array, merge, config, results string) error {
	_, err := fmt.Fprintf(w, "wrote %s (%d tasks) and %s; submit them with\n"+
		"  nagc slurm %s --results %s --tasks %d --submit\nor by hand:\n"+
		"  jid=$(sbatch --parsable %s) && sbatch %s %s\n",
		array, j.Tasks, merge, config, results, j.Tasks, array, MergeAfter("$jid"), merge)
	return err
}

// SubmitAll submits the array script of j and, after it (MergeAfter), its merge script,
// both held (sbatch --hold) with hold, and returns their job ids.
func (j *Job) SubmitAll(ctx context.Context, array, merge string, hold bool) (arrayID, mergeID string, err error) {
	var held []string
	if hold {
		held = []string{"--hold"}
	}
	if arrayID, err = j.Submit(ctx, "array", array, held...); err != nil {
		return "", "", err
	}
	if mergeID, err = j.Submit(ctx, "merge", merge, append(held, MergeAfter(arrayID))...); err != nil {
		return "", "", err
	}
	return arrayID, mergeID, nil
}

// WriteSubmitted writes what SubmitAll submitted and how to follow it (squeue, nagc
// status); config and results are the config and results folder as the user named them.
func (j *Job) WriteSubmitted(w io.Writer, arrayID, mergeID string, hold bool, config, results string) error {
	fmt.Fprintf(w, "submitted job array %s (%d tasks) and merge job %s (runs when every task has ended: it merges a complete sweep, or says what is missing)\n", arrayID, j.Tasks, mergeID)
	if hold {
		fmt.Fprintf(w, "both are held: start them with scontrol release %s %s\n", arrayID, mergeID)
	}
	_, err := fmt.Fprintf(w, "follow it: squeue --jobs %s,%s; nagc status %s --results %s\n", arrayID, mergeID, config, results)
	return err
}

// WriteCancelled writes a line per merge job of an earlier submission that Resubmit
// cancelled.
func (r *Resubmission) WriteCancelled(w io.Writer) error {
	for _, id := range r.CancelledMerges {
		if _, err := fmt.Fprintf(w, "cancelled merge job %s of an earlier submission\n", id); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes what Resubmit did for job: the merge jobs it cancelled
// (WriteCancelled), then the runs recorded and the tasks and merge job resubmitted, the
// merge job alone when every shard is finished, or that there was nothing to resubmit.
func (r *Resubmission) WriteText(w io.Writer, job *Job) error {
	if err := r.WriteCancelled(w); err != nil {
		return err
	}
	var err error
	switch {
	case r.Tasks != "":
		unfinished := ""
		if r.Searches > 0 {
			unfinished = fmt.Sprintf(", %d searches unfinished", r.Searches)
		}
		_, err = fmt.Fprintf(w, "%d of %d runs are recorded (%d done, %d failed), %d missing%s: resubmitted tasks %s of %d as job %s, and merge job %s after them\n",
			r.Done+r.Failed, r.Expected, r.Done, r.Failed, r.Missing, unfinished, r.Tasks, job.Tasks, r.Array, r.Merge)
	case r.Merge != "":
		_, err = fmt.Fprintf(w, "every shard is finished (%d runs: %d done, %d failed), %d merged into %s: submitted merge job %s\n",
			r.Expected, r.Done, r.Failed, r.Merged, job.Results, r.Merge)
	default:
		_, err = fmt.Fprintf(w, "nothing to resubmit: all %d runs are recorded (%d done, %d failed) and merged into %s\n", r.Expected, r.Done, r.Failed, job.Results)
	}
	return err
}
