package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/slurm"
)

const statusUsage = "status CONFIG --results DIR [--tasks N]"

func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("status", statusUsage, stderr)
	results := fs.String("results", "", "results folder of the sweep (required)")
	tasks := fs.Int("tasks", 0, "number of shards (default: found under DIR/shards)")
	arg, err := parseOneArg(fs, args)
	if err != nil {
		return err
	}
	if *results == "" {
		fs.Usage()
		return errUsage
	}
	cfg, err := experiments.OpenConfig(arg)
	if err != nil {
		return err
	}
	n, err := shardCount(*results, *tasks)
	if err != nil {
		return err
	}
	runs, err := experiments.Plan(cfg)
	if err != nil {
		return err
	}
	st, err := experiments.StatusOf(cfg, runs, *results, n)
	if err != nil {
		return err
	}
	printStatus(stdout, arg, *results, st)
	return nil
}

// shardCount returns the shard count of the sweep in dir: tasks when positive, else the
// one count found under dir/shards (0 when none).
func shardCount(dir string, tasks int) (int, error) {
	if tasks > 0 {
		return tasks, nil
	}
	counts, err := experiments.ShardCounts(dir)
	if err != nil {
		return 0, err
	}
	switch len(counts) {
	case 0:
		return 0, nil
	case 1:
		return counts[0], nil
	}
	return 0, fmt.Errorf("%s holds shards of sweeps split %s ways: say which with --tasks N",
		filepath.Join(dir, experiments.ShardsDir), strings.Trim(strings.Join(strings.Fields(fmt.Sprint(counts)), ", "), "[]"))
}

// printStatus prints st: totals, one line per shard, failures, and the commands that
// finish the sweep. config and dir are as the user typed them.
func printStatus(w io.Writer, config, dir string, st *experiments.SweepStatus) {
	fmt.Fprintf(w, "%s into %s: %d runs: %d done, %d failed, %d missing", config, dir, st.Expected, st.Done, st.Failed, st.Missing)
	if st.Shards != nil {
		fmt.Fprintf(w, "; %d merged into %s", st.Merged, dir)
	}
	fmt.Fprintln(w)
	if st.Shards != nil {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "shard\truns\tdone\tfailed\tmissing\tstate\tfolder")
		for _, s := range st.Shards {
			fmt.Fprintf(tw, "%d/%d\t%d\t%d\t%d\t%d\t%s\t%s\n", s.Shard, s.Shards, s.Expected, s.Done, s.Failed, s.Missing, s.State(), s.Dir)
		}
		tw.Flush()
	}
	for i, r := range st.FailedRuns {
		if i == 5 {
			fmt.Fprintf(w, "  … and %d more failed runs (nagc results summary %s lists them by grid point)\n", len(st.FailedRuns)-i, dir)
			break
		}
		msg, _, _ := strings.Cut(r.Error, "\n")
		fmt.Fprintf(w, "failed: run %s (%s, %s %s, restart %d): %s\n", r.RunID, r.Dataset, r.Algorithm, r.GridPoint(), r.Restart, msg)
	}
	for _, line := range nextCommands(config, dir, st) {
		fmt.Fprintln(w, line)
	}
}

// nextCommands returns what to type to finish the sweep st of config into dir.
func nextCommands(config, dir string, st *experiments.SweepStatus) []string {
	n := len(st.Shards)
	merge := func() string {
		srcs := make([]string, n)
		for i, s := range st.Shards {
			srcs[i] = s.Dir
		}
		return fmt.Sprintf("  nagc merge --out %s --config %s %s", dir, config, strings.Join(srcs, " "))
	}
	_, err := os.Stat(filepath.Join(dir, slurm.Dir, slurm.ArrayScript))
	onSlurm := n > 0 && err == nil
	switch {
	case st.Missing == 0 && (n == 0 || st.Merged == st.Done):
		out := []string{"Complete. The report: nagc report " + dir}
		if st.Failed > 0 {
			out = append(out, fmt.Sprintf("%d runs failed (their errors are recorded); running the sweep again retries them, which helps only where the machine failed them (runs are deterministic).", st.Failed))
		}
		return out
	case st.Missing == 0:
		return []string{"Every shard is finished. To merge them:", merge()}
	case n == 0:
		return []string{"To finish the rest:", fmt.Sprintf("  nagc run %s --results %s", config, dir)}
	case onSlurm:
		return []string{"To finish the rest (resubmits only the unfinished tasks, then the merge):",
			fmt.Sprintf("  nagc slurm %s --results %s --tasks %d --resubmit", config, dir, n)}
	}
	out := []string{"To finish the rest, run the unfinished shards, then merge:"}
	for _, s := range st.Shards {
		if s.Missing > 0 && s.Holder == nil {
			out = append(out, fmt.Sprintf("  nagc run %s --results %s --shard %d/%d", config, s.Dir, s.Shard, s.Shards))
		}
	}
	return append(out, merge())
}
