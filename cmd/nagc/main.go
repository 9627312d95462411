// Command nagc reproduces, sweeps and extends the experiments of "Non-linear Attributed
// Graph Clustering by Symmetric NMF with PU Learning" (NAGC).
//
// Usage:
//
//	nagc datasets stats [--data DIR] [NAME…]
//	nagc cluster --data NAME|DIR --method METHOD [options]
//	nagc auto --data GRAPH [--k1 K] [--budget quick|standard|thorough] [--out DIR]
//	nagc run CONFIG|NAME [--results DIR] [--workers N] [--shard I/N|auto] [--limit N]
//	nagc configs list | configs show NAME
//	nagc merge --out DIR [--config CONFIG] [--allow-incomplete] SRC…
//	nagc status CONFIG --results DIR [--tasks N]
//	nagc slurm CONFIG --results DIR --tasks N [--cpus-per-task C] [--time T] [--mem M] [--partition P] [--account A] [--submit [--hold]|--resubmit]
//	nagc results summary DIR [--rule modularity|two-view|heldout|objective|ari] [--format text|csv|json]
//	nagc results rescore DIR [--data DIR]
//
// Run `nagc help` or `nagc COMMAND -h` for the options of each command.
//
// Exit codes: 0 done; 1 error; 2 bad command line; 3 interrupted (finished runs are
// recorded: run the same command to resume); 4 finished with some runs recorded as
// failed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/nagc-harness/nagc/experiments"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nagc-harness/nagc/internal/suggest"
)

// command is one subcommand of nagc.
type command struct {
	name, usage, summary string
	run                  func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"datasets", "datasets stats|fetch|where|synth [NAME|DIR…]", "print the statistics of datasets, download them, say where they are looked up, or write a planted graph of a given shape", runDatasets},
		{"cluster", "cluster --data NAME|DIR --method METHOD [options]", "cluster one graph with one method and score it", runCluster},
		{"auto", autoUsage, "cluster a graph without its labels: a fixed candidate set chosen by held-out modularity", runAuto},
		{"run", "run CONFIG|NAME [--results DIR] [--workers N] [--shard I/N|auto] [--limit N]", "run (or resume) an experiment config file or a shipped one, recording every run", runRun},
		{"configs", "configs list | configs show NAME", "list the shipped experiment configs, or print one to copy and edit", runConfigs},
		{"merge", "merge --out DIR [--config CONFIG] [--allow-incomplete] SRC…", "join results folders (shards), refusing conflicting duplicates and missing runs", runMerge},
		{"status", statusUsage, "runs expected, done, failed and missing (per shard), and what finishes the rest", runStatus},
		{"slurm", "slurm CONFIG --results DIR --tasks N [options]", "write (and submit) a Slurm job array running a sweep in shards, then merging it", runSlurm},
		{"results", "results summary DIR [--rule R] [--format text|csv|json] | results rescore DIR", "best grid point per dataset and method; recompute recorded metrics", runResults},
		{"bench", "bench [--data …] [--sizes …] [--methods …]", "time methods on the paper's graphs and a growing synthetic series", runBench},
		{"report", "report RESULTS_DIR [--out DIR] [--rule R] [options]", "tables, figures and REPORT.md of a sweep (beside the paper's with compare: paper)", runReport},
		{"score", scoreUsage, "record clusterings made elsewhere (id<TAB>cluster files) as runs of a named row", runScore},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "nagc: reproduce and sweep the NAGC paper's attributed graph clustering experiments.")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  nagc %s\n      %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w, "\nDatasets: 'synthetic' is the built-in generator. A folder path is read as it is. The paper's")
	fmt.Fprintln(w, "webkb, citeseer, cora, polblog are looked up by name in $NAGC_DATA (or --data DIR), then in the")
	fmt.Fprintln(w, "folder `nagc datasets fetch all` downloads them into, then in ../shared/datasets beside a")
	fmt.Fprintln(w, "checkout of the nagc repository.")
	fmt.Fprintln(w, "\nConfigs: `nagc configs list` names the shipped experiment configs; `nagc run quick` runs one.")
	fmt.Fprintln(w, "\n"+exitCodes)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	returned := make(chan struct{})
	go exitAfterGrace(ctx, stop, returned, graceAfterSignal, time.After, os.Stderr, os.Exit)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	close(returned)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdout, stderr)
			code := exitCode(err)
			if errors.Is(err, context.Canceled) && !errors.Is(err, experiments.ErrInterrupted) {
				err = errors.New("interrupted (Ctrl-C or SIGTERM): the fit stopped")
			}
			if code != exitOK && code != exitUsage {
				fmt.Fprintln(stderr, "nagc "+c.name+":", err)
			}
			return code
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	fmt.Fprintf(stderr, "nagc: unknown command %q%s\n\n", args[0], suggest.DidYouMean(args[0], names))
	usage(stderr)
	return 2
}

// isHelp reports whether args asks for help: -h, --help or help.
func isHelp(args []string) bool {
	return len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help")
}

// errUsage marks an error already reported together with the usage text.
var errUsage = errors.New("usage")

// newFlagSet returns a flag set that reports errors to stderr, as every command uses.
func newFlagSet(name, usageLine string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: nagc %s\n\noptions:\n", usageLine)
		fs.PrintDefaults()
	}
	return fs
}

// parseOneArg is parseFlags for commands taking exactly one positional argument, which
// it returns; any other count prints the usage and is errUsage.
func parseOneArg(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		fs.Usage()
		return "", errUsage
	}
	return pos[0], nil
}

// parseQuietly runs fs.Parse(args), but reports a bad option in the user's words
// (flagMessage) instead of the flag package's, then the usage; it returns errUsage
// then, and flag.ErrHelp (after the usage) for -h.
func parseQuietly(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		usage()
		return err
	}
	fmt.Fprintf(out, "nagc %s: %s\n", fs.Name(), flagMessage(fs, err))
	usage()
	return errUsage
}

// flagHints maps options a user may type to the option of another name that does it,
// with the value it takes.
var flagHints = map[string][2]string{
	"label-file":  {"labels", "FILE"},
	"label_file":  {"labels", "FILE"},
	"results-dir": {"results", "DIR"},
	"out-dir":     {"out", "DIR"},
	"threads":     {"workers", "N"},
	"jobs":        {"workers", "N"},
}

// flagMessage rewrites an error of fs.Parse (the flag package's wording, such as
// "flag provided but not defined: -x") as a message naming the option as typed
// (--x) with what is wrong and, for an unknown option, the nearest known one.
func flagMessage(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimLeft(name, "-")
		if hint, ok := flagHints[name]; ok && fs.Lookup(hint[0]) != nil {
			return fmt.Sprintf("unknown option --%s (did you mean --%s %s?)", name, hint[0], hint[1])
		}
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
		if c := suggest.Closest(strings.ReplaceAll(name, "_", "-"), known); c != "" {
			return fmt.Sprintf("unknown option --%s (did you mean --%s?)", name, c)
		}
		return fmt.Sprintf("unknown option --%s (the options are listed below)", name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Sprintf("--%s needs a value (--%s VALUE)", strings.TrimLeft(name, "-"), strings.TrimLeft(name, "-"))
	}
	if rest, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return fmt.Sprintf("bad option %q: write --name or --name=value", rest)
	}
	// invalid value "V" for flag -NAME: WHY, and invalid boolean value "V" for -NAME: WHY.
	var value, name, why string
	if strings.HasPrefix(msg, "invalid ") {
		if q := strings.Index(msg, `"`); q >= 0 {
			if v, err := strconv.QuotedPrefix(msg[q:]); err == nil {
				value, _ = strconv.Unquote(v)
				rest := msg[q+len(v):]
				if i := strings.Index(rest, "-"); i >= 0 {
					name, why, _ = strings.Cut(rest[i+1:], ": ")
				}
			}
		}
	}
	f := fs.Lookup(name)
	if f == nil {
		return msg
	}
	want := ""
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case bool:
			want = "want true or false (or --" + name + " alone for true)"
		case int, int64, uint, uint64:
			want = "want a whole number"
		case float64:
			want = "want a number"
		}
	}
	if want == "" {
		want = why
	}
	return fmt.Sprintf("--%s %q: %s", name, value, want)
}

// parseFlags parses args, allowing flags after positional arguments, and returns the
// positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseQuietly(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
		if len(pos) > 0 && strings.HasPrefix(pos[len(pos)-1], "-") {
			return nil, fmt.Errorf("unexpected %q", pos[len(pos)-1])
		}
	}
}
