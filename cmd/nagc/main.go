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
//	nagc slurm CONFIG --results DIR --tasks N [--cpus-per-task C] [--time T] [--mem M] [--partition P] [--account A] [--submit [--hold]|--resubmit] [--rungs [--step]]
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
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/cliflag"
	"github.com/nagc-harness/nagc/internal/fitbar"
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

// The option parsing every command shares (package internal/cliflag).
var (
	errUsage    = cliflag.ErrUsage
	parseFlags  = cliflag.Parse
	parseOneArg = cliflag.ParseOne
	splitList   = cliflag.List
)

// withFitProgress draws a fit's progress on a terminal (package internal/fitbar).
var withFitProgress = fitbar.With

// newFlagSet returns the flag set of the nagc command name (cliflag.NewSet).
func newFlagSet(name, usageLine string, stderr io.Writer) *flag.FlagSet {
	return cliflag.NewSet("nagc", name, usageLine, stderr)
}
