package experiments

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the status for people: the totals, one line per shard, the first
// failures, and the commands that finish the sweep (nextCommands). config and dir are
// the config and results folder as the user typed them; onSlurm reports that dir holds
// the scripts of a Slurm submission.
func (s *SweepStatus) WriteText(w io.Writer, config, dir string, onSlurm bool) error {
	fmt.Fprintf(w, "%s into %s: %d runs: %d done, %d failed, %d missing", config, dir, s.Expected, s.Done, s.Failed, s.Missing)
	if s.Searches > 0 {
		fmt.Fprintf(w, ", %d searches unfinished", s.Searches)
	}
	if s.Shards != nil {
		fmt.Fprintf(w, "; %d merged into %s", s.Merged, dir)
	}
	fmt.Fprintln(w)
	if s.Shards != nil {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "shard\truns\tdone\tfailed\tmissing\tstate\tfolder")
		for _, sh := range s.Shards {
			fmt.Fprintf(tw, "%d/%d\t%d\t%d\t%d\t%d\t%s\t%s\n", sh.Shard, sh.Shards, sh.Expected, sh.Done, sh.Failed, sh.Missing, sh.State(), sh.Dir)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for i, r := range s.FailedRuns {
		if i == 5 {
			fmt.Fprintf(w, "  … and %d more failed runs (nagc results summary %s lists them by grid point)\n", len(s.FailedRuns)-i, dir)
			break
		}
		row := r.Algorithm
		if len(r.Methods) > 0 {
			row = r.Methods[0] // the config's name of the row: several command rows share an algorithm
		}
		fmt.Fprintf(w, "failed: run %s (%s, %s %s, restart %d): %s\n", r.RunID, r.Dataset, row, r.GridPoint(), r.Restart, errorLine(r.Error))
	}
	for _, line := range s.nextCommands(config, dir, onSlurm) {
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// nextCommands returns what to type to finish the sweep of config into dir (as the user
// typed them): nothing but the report when it is complete, else the merge of finished
// shards, the run of the rest, a Slurm resubmission (onSlurm: dir holds the scripts of a
// submission) or the runs of the unfinished shards and their merge.
func (s *SweepStatus) nextCommands(config, dir string, onSlurm bool) []string {
	n := len(s.Shards)
	merge := func() string {
		srcs := make([]string, n)
		for i, sh := range s.Shards {
			srcs[i] = sh.Dir
		}
		return fmt.Sprintf("  nagc merge --out %s --config %s %s", dir, config, strings.Join(srcs, " "))
	}
	switch {
	case s.Missing+s.Searches == 0 && (n == 0 || s.Merged == s.Done):
		out := []string{"Complete. The report: nagc report " + dir}
		if s.Failed > 0 {
			out = append(out, fmt.Sprintf("%d runs failed (their errors are recorded); running the sweep again retries them, which helps only where the machine failed them (runs are deterministic).", s.Failed))
		}
		return out
	case s.Missing+s.Searches == 0:
		return []string{"Every shard is finished. To merge them:", merge()}
	case n == 0:
		return []string{"To finish the rest:", fmt.Sprintf("  nagc run %s --results %s", config, dir)}
	case onSlurm:
		return []string{"To finish the rest (resubmits only the unfinished tasks, then the merge):",
			fmt.Sprintf("  nagc slurm %s --results %s --tasks %d --resubmit", config, dir, n)}
	}
	out := []string{"To finish the rest, run the unfinished shards, then merge:"}
	for _, sh := range s.Shards {
		if sh.Missing+sh.Searches > 0 && sh.Holder == nil {
			out = append(out, fmt.Sprintf("  nagc run %s --results %s --shard %d/%d", config, sh.Dir, sh.Shard, sh.Shards))
		}
	}
	return append(out, merge())
}

// errorLine returns a recorded error in one line: its first line and, when that ends
// by announcing a program's last lines of output (a colon), the last of them, which
// says what went wrong (a Python traceback ends with its exception).
func errorLine(err string) string {
	first, rest, ok := strings.Cut(err, "\n")
	if !ok || !strings.HasSuffix(first, ":") {
		return first
	}
	lines := strings.Split(strings.TrimSpace(rest), "\n")
	return first + " … " + strings.TrimSpace(lines[len(lines)-1])
}

// WriteSweepStatus writes the status of the sweep of cfg into dir and its n shard
// folders (0: none), as nagc status prints it: the planned runs' (SweepStatus.WriteText,
// left out for a config of searches alone) and the searches' (WriteSearchStatus).
// config is the config as the user named it. It plans cfg's runs, loading its datasets.
func WriteSweepStatus(w io.Writer, cfg *Config, config, dir string, n int, onSlurm bool) error {
	runs, err := Plan(cfg)
	if err != nil {
		return err
	}
	st, err := StatusOf(cfg, runs, dir, n)
	if err != nil {
		return err
	}
	if len(runs) > 0 || !cfg.HasSearch() { // a config of searches alone has no grid to report on
		if err := st.WriteText(w, config, dir, onSlurm); err != nil {
			return err
		}
	}
	return WriteSearchStatus(w, cfg, config, dir, n)
}
