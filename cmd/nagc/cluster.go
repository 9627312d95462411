package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/mat"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/sparse"
)

// setDataRoot points dataset look-ups at dir: a LINQS folder itself becomes the only
// dataset when none is named; any other folder becomes the data root.
func setDataRoot(dir string, names *[]string) error {
	if m, _ := filepath.Glob(filepath.Join(dir, "*.content")); len(m) > 0 {
		if len(*names) == 0 {
			*names = []string{dir}
		}
		return nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--data %s: not a folder", dir)
	}
	return os.Setenv("NAGC_DATA", dir)
}

// kvFlag collects repeated --opt key=value flags.
type kvFlag map[string]any

func (kv kvFlag) String() string { return fmt.Sprint(map[string]any(kv)) }

func (kv kvFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	kv[k] = parseScalar(v)
	return nil
}

// parseScalar reads a command-line value as a bool, int, float or string.
func parseScalar(v string) any {
	if b, err := strconv.ParseBool(v); err == nil && (v == "true" || v == "false") {
		return b
	}
	if i, err := strconv.Atoi(v); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// clusterOutput is what `nagc cluster --json` prints.
type clusterOutput struct {
	Dataset    string             `json:"dataset"`
	Method     string             `json:"method"`
	K1         int                `json:"k1"`
	Params     map[string]any     `json:"params"`   // the options given
	Settings   map[string]any     `json:"settings"` // every option the fit used, defaults included
	Seed       uint64             `json:"seed"`
	Metrics    map[string]float64 `json:"metrics"` // label-reading measures absent for a graph without labels
	Scored     int                `json:"scored"`  // vertices the label-reading measures score: those with a label
	Iterations int                `json:"iterations"`
	Objective  *float64           `json:"final_objective,omitempty"`
	FitSeconds float64            `json:"fit_seconds"`
	Info       map[string]string  `json:"info,omitempty"`

	// FitSeconds is the fit's wall time (NAGC: the iterations alone); InitSeconds the time
	// before them, where the method times it apart, and InitCached whether the initial
	// factors came from a cache (never in a lone `nagc cluster`).
	InitSeconds float64 `json:"init_seconds,omitempty"`
	InitCached  bool    `json:"init_cached,omitempty"`

	// Load is the reader's report: sizes, dropped lines, notes and warnings.
	Load *datasets.LoadReport `json:"load_report,omitempty"`
}

func runCluster(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "cluster --data NAME|PATH [--format F] [--features FILE] [--feature-layout dense|sparse] [--labels none|column|FILE] --method METHOD [--k1 K] [--k2 K] [--lambda L] [--rho R] [--init I] [--seed S] [--iterations T] [--opt key=value]… [--json] [--labels-out FILE] [--init-u/--init-v/--init-h FILE] [--factors-out DIR]"
	fs := newFlagSet("cluster", usageLine, stderr)
	gf := addGraphFlags(fs, "synthetic", "")
	method := fs.String("method", "nagc", "method: "+strings.Join(algorithms.Names(), ", "))
	k1 := fs.Int("k1", 0, "number of clusters (default: the number of classes; required for a graph without labels)")
	fs.Int("k2", 0, "NAGC: number of attribute clusters (default: k1)")
	fs.Float64("lambda", 0, "NAGC/JWNMF: weight of the attribute term (default: NAGC 0.01; JWNMF 1e-5, 0 for 0.1·‖S‖²/‖X‖²)")
	fs.Float64("rho", 0, "NAGC: PU weight ρ, 0 < ρ ≤ 1 (default 0.75; 0.5 = the authors' w/o-PU rule)")
	fs.String("init", "", "NAGC: random, kmeans (default), kmeans-median-ari (reads the labels), sgc; JWNMF: kmeans (default), random; NMF: random (default), nndsvda")
	fs.Int("iterations", 0, "number of iterations, for methods that have the option (default: the method's)")
	seed := fs.Uint64("seed", 1, "random seed")
	opts := kvFlag{}
	fs.Var(opts, "opt", "any other method option as key=value (repeatable)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	labelsOut := fs.String("labels-out", "", "write 'id<TAB>cluster' lines to FILE")
	initU := fs.String("init-u", "", "NAGC: initial U from a CSV file (with --init-v and --init-h)")
	initV := fs.String("init-v", "", "NAGC: initial V from a CSV file")
	initH := fs.String("init-h", "", "NAGC: initial H from a CSV file")
	factorsOut := fs.String("factors-out", "", "write the learnt factors (U.csv, V.csv, H.csv, …) into DIR")
	threads := fs.Int("threads", 0, "threads of the fit's kernels (default: all cores; the records are the same bits for any count)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *threads < 0 {
		return fmt.Errorf("--threads %d: give the number of threads, or 0 for all cores", *threads)
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	params := map[string]any{}
	for k, v := range opts {
		params[k] = v
	}
	fromFlag := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "k2", "iterations":
			params[f.Name], _ = strconv.Atoi(f.Value.String())
		case "lambda", "rho":
			params[f.Name], _ = strconv.ParseFloat(f.Value.String(), 64)
		case "init":
			params[f.Name] = f.Value.String()
		default:
			return
		}
		fromFlag[f.Name] = true
	})
	m, err := algorithms.New(*method, params)
	if err != nil {
		return optionFlagError(err, fromFlag)
	}
	if *initU != "" || *initV != "" || *initH != "" {
		nm, ok := m.(algorithms.NAGC)
		if !ok {
			return errors.New("--init-u/--init-v/--init-h apply to --method nagc only")
		}
		if nm.InitU, nm.InitV, nm.InitH, err = readFactors(*initU, *initV, *initH); err != nil {
			return err
		}
		m = nm
	}
	g, rep, err := gf.load(stderr)
	if err != nil {
		return err
	}
	k := *k1
	if k == 0 {
		k = g.K()
	}
	if k == 0 {
		return fmt.Errorf("--k1 is required: %s has no labels to count classes from", g.Name)
	}
	defer sparse.SetThreads(sparse.SetThreads(*threads))
	fitCtx, clearBar := withFitProgress(ctx, stderr)
	c, err := experiments.Cluster(fitCtx, g, m, k, *seed)
	clearBar()
	if err != nil {
		return err
	}
	res := c.Result
	if *labelsOut != "" {
		if err := c.WriteLabels(*labelsOut); err != nil {
			return err
		}
	}
	if *factorsOut != "" {
		if len(res.Factors) == 0 {
			return fmt.Errorf("--factors-out: %s learns no factors to write (nagc, jwnmf, nmf, snmf, bagc and paican do)", m.Name())
		}
		if err := c.WriteFactors(*factorsOut); err != nil {
			return err
		}
	}
	if *asJSON {
		return printClusterJSON(stdout, c, params, rep)
	}
	return printCluster(stdout, c, params)
}

// clusterJSON is what `nagc cluster --json` prints for the clustering c of the options
// params given.
func clusterJSON(c *experiments.Clustering, params map[string]any) clusterOutput {
	res := c.Result
	used := map[string]any{}
	for _, st := range c.Settings {
		used[st.Key] = st.Value
	}
	out := clusterOutput{Dataset: c.Graph.Name, Method: c.Method.Name(), K1: c.K1, Params: params, Settings: used, Seed: c.Seed,
		Metrics: c.Metrics(), Scored: c.Graph.LabeledCount(), Iterations: res.Iterations, FitSeconds: res.FitTime.Seconds(),
		InitSeconds: res.InitTime.Seconds(), InitCached: res.InitCached, Info: res.Info}
	if len(res.Objective) > 0 {
		out.Objective = &res.Objective[len(res.Objective)-1]
	}
	return out
}

// printClusterJSON prints the clustering c as indented JSON (clusterOutput), with the
// load report rep of its graph.
func printClusterJSON(w io.Writer, c *experiments.Clustering, params map[string]any, rep *datasets.LoadReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	out := clusterJSON(c, params)
	out.Load = rep
	return enc.Encode(out)
}

// printCluster prints the clustering c for people: the graph, the method with every
// option it used (those not in params marked as defaults), the scores, the iterations,
// times and final objective.
func printCluster(w io.Writer, c *experiments.Clustering, params map[string]any) error {
	g, m, k, res, scores := c.Graph, c.Method, c.K1, c.Result, c.Scores
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "dataset\t%s (n=%d, k1=%d)\n", g.Name, g.N(), k)
	fmt.Fprintf(tw, "method\t%s, seed %d\n", m.Name(), c.Seed)
	for _, st := range c.Settings {
		note := ""
		if _, given := params[st.Key]; !given {
			note = "  (default)"
		}
		fmt.Fprintf(tw, "  %s\t%s%s\n", st.Key, settingValue(m, st, k), note)
	}
	if scores.Labelled() {
		fmt.Fprintf(tw, "ARI\t%.4f\nNMI\t%.4f\nACC\t%.4f\n", scores.ARI, scores.NMI, scores.ACC)
		if sc := g.LabeledCount(); sc < g.N() {
			fmt.Fprintf(tw, "  scored\t%d of %d vertices (those with a label; all are clustered)\n", sc, g.N())
		}
	} else {
		fmt.Fprintf(tw, "ARI, NMI, ACC\tnone: the graph has no labels\n")
	}
	printFlags(tw, c)
	fmt.Fprintf(tw, "modularity\t%.4f\n", scores.Modularity)
	if scores.Attributed() {
		fmt.Fprintf(tw, "entropy\t%.4f\nattribute modularity\t%.4f\n", scores.Entropy, scores.AttrModularity)
	} else if g.XDense != nil {
		fmt.Fprintf(tw, "entropy, attribute modularity\tnone: not computed for dense attributes\n")
	} else {
		fmt.Fprintf(tw, "entropy, attribute modularity\tnone: the graph has no attributes\n")
	}
	fmt.Fprintf(tw, "iterations\t%d\nfit time\t%.3fs\n", res.Iterations, res.FitTime.Seconds())
	if res.InitTime > 0 {
		fmt.Fprintf(tw, "initialisation time\t%.3fs\n", res.InitTime.Seconds())
	}
	if len(res.Objective) > 0 {
		fmt.Fprintf(tw, "objective\t%.6g\n", res.Objective[len(res.Objective)-1])
	}
	return tw.Flush()
}

// printFlags prints, for a method that flags vertices, how many each flag marks and the
// ARI over the vertices none marks (PAICAN's protocol), labelled as such.
func printFlags(w io.Writer, c *experiments.Clustering) {
	flags := c.Result.Flags
	if len(flags) == 0 {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		n := 0
		for _, f := range flags[name] {
			if f {
				n++
			}
		}
		fmt.Fprintf(w, "flagged %s\t%d of %d\n", strings.ReplaceAll(name, "_", " "), n, len(flags[name]))
	}
	share := c.Flagged[experiments.MetricUnflaggedShare]
	if ari, ok := c.Flagged[experiments.MetricARIUnflagged]; ok {
		fmt.Fprintf(w, "ARI, unflagged vertices\t%.4f  (PAICAN's protocol, over %.1f%% of the vertices; ARI above is over all)\n", ari, 100*share)
	} else {
		fmt.Fprintf(w, "unflagged vertices\t%.1f%%\n", 100*share)
	}
}

// readFactors reads the three initial NAGC factors; all three must be given.
func readFactors(u, v, h string) (du, dv, dh *mat.Dense, err error) {
	if u == "" || v == "" || h == "" {
		return nil, nil, nil, errors.New("--init-u, --init-v and --init-h go together")
	}
	if du, err = algorithms.ReadDenseCSV(u); err != nil {
		return nil, nil, nil, err
	}
	if dv, err = algorithms.ReadDenseCSV(v); err != nil {
		return nil, nil, nil, err
	}
	if dh, err = algorithms.ReadDenseCSV(h); err != nil {
		return nil, nil, nil, err
	}
	return du, dv, dh, nil
}

// optionFlagError rewords an option error for the command line: an option given as its
// own flag is named --key, one given with --opt as --opt key=value.
func optionFlagError(err error, fromFlag map[string]bool) error {
	var oe *algorithms.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	if fromFlag[oe.Key] && oe.Value != nil {
		return fmt.Errorf("--%s %v: %s", oe.Key, oe.Value, oe.Msg)
	}
	if oe.Value == nil {
		return fmt.Errorf("%s", oe.Msg)
	}
	return fmt.Errorf("--opt %s=%v: %s", oe.Key, oe.Value, oe.Msg)
}

// settingValue formats one option of m for the plain output, naming what a zero stands
// for where the graph decides it.
func settingValue(m algorithms.Method, st algorithms.Setting, k1 int) string {
	if m.Name() == "nagc" && st.Key == "k2" && st.Value == k1 {
		return fmt.Sprintf("%d (k1)", k1)
	}
	if m.Name() == "jwnmf" && st.Key == "lambda" && st.Value == 0 {
		return "0.1·‖S‖²/‖X‖² of this graph"
	}
	return fmt.Sprint(st.Value)
}
