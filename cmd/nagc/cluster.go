package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/experiments"
	"github.com/nagc-harness/nagc/internal/cliflag"
	"github.com/nagc-harness/nagc/internal/parallel"
)

// clusterFlags are the options of `nagc cluster`.
type clusterFlags struct {
	graph                                      *graphFlags
	method                                     *string
	k1, threads                                *int
	seed                                       *uint64
	opts                                       cliflag.KeyValues
	asJSON                                     *bool
	labelsOut, initU, initV, initH, factorsOut *string
	cpuProfile                                 *string
}

const clusterUsage = "cluster --data NAME|PATH [--format F] [--features FILE] [--feature-layout dense|sparse] [--labels none|column|FILE] --method METHOD [--k1 K] [--k2 K] [--lambda L] [--rho R] [--init I] [--transform T] [--precision default|fast] [--seed S] [--iterations T] [--opt key=value]… [--json] [--labels-out FILE] [--init-u/--init-v/--init-h FILE] [--factors-out DIR] [--cpuprofile FILE]"

// addClusterFlags registers the options of `nagc cluster` on fs. The method options
// (--k2, --lambda, --rho, --init, --transform, --iterations) are read by newMethod.
func addClusterFlags(fs *flag.FlagSet) *clusterFlags {
	f := &clusterFlags{graph: addGraphFlags(fs, "synthetic", ""), opts: cliflag.KeyValues{}}
	f.method = fs.String("method", "nagc", "method: "+strings.Join(algorithms.Names(), ", "))
	f.k1 = fs.Int("k1", 0, "number of clusters, at least 1 (default: the number of classes; required for a graph without labels)")
	fs.Int("k2", 0, "NAGC: number of attribute clusters (default: k1)")
	fs.Float64("lambda", 0, "NAGC/JWNMF: weight of the attribute term (default: NAGC 0.01; JWNMF 1e-5, 0 for 0.1·‖S‖²/‖X‖²)")
	fs.Float64("rho", 0, "NAGC: PU weight ρ, 0 < ρ ≤ 1 (default 0.75; 0.5 = the authors' w/o-PU rule)")
	fs.String("init", "", "NAGC: random, kmeans (default), kmeans-median-ari (reads the labels), sgc; JWNMF: kmeans (default), random; NMF: random (default), nndsvda")
	fs.Int("iterations", 0, "number of iterations, for methods that have the option (default: the method's)")
	fs.String("precision", "", "NAGC, kmeans, sgc-kmeans: default (float64, the paper's records bit for bit) or fast (float32 with FMA, about twice the speed; other methods run at their one precision)")
	fs.String("transform", "", "attribute transform before the fit, for methods that read attribute values: "+strings.Join(algorithms.Transforms, ", ")+" (default none; split, shift or minmax let NAGC and NMF take signed attributes)")
	f.seed = fs.Uint64("seed", 1, "random seed")
	fs.Var(f.opts, "opt", "any other method option as key=value (repeatable)")
	f.asJSON = fs.Bool("json", false, "print the result as JSON")
	f.labelsOut = fs.String("labels-out", "", "write 'id<TAB>cluster' lines to FILE")
	f.initU = fs.String("init-u", "", "NAGC: initial U from a CSV file (with --init-v and --init-h)")
	f.initV = fs.String("init-v", "", "NAGC: initial V from a CSV file")
	f.initH = fs.String("init-h", "", "NAGC: initial H from a CSV file")
	f.factorsOut = fs.String("factors-out", "", "write the learnt factors (U.csv, V.csv, H.csv, …) into DIR")
	f.threads = fs.Int("threads", 0, "threads of the fit's kernels (default: all cores; the records are the same bits for any count)")
	f.cpuProfile = fs.String("cpuprofile", "", "write a CPU profile of reading the graph and the fit to `FILE` (read it with: go tool pprof FILE)")
	return f
}

func runCluster(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cluster", clusterUsage, stderr)
	f := addClusterFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *f.threads < 0 {
		return fmt.Errorf("--threads %d: give the number of threads, or 0 for all cores", *f.threads)
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	if err := checkK1Flag(fs, 1, "leave --k1 out for the number of classes of a labelled graph"); err != nil {
		return err
	}
	m, params, err := f.newMethod(fs)
	if err != nil {
		return err
	}
	if *f.cpuProfile != "" {
		stop, err := startCPUProfile(*f.cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	g, rep, err := f.graph.load(stderr)
	if err != nil {
		return err
	}
	k := *f.k1
	if k == 0 {
		k = g.K()
	}
	if k == 0 {
		return fmt.Errorf("--k1 is required: %s has no labels to count classes from", g.Name)
	}
	defer parallel.SetThreads(parallel.SetThreads(*f.threads))
	fitCtx, clearBar := withFitProgress(ctx, stderr)
	c, err := experiments.Cluster(fitCtx, g, m, k, *f.seed)
	clearBar()
	if err != nil {
		return err
	}
	if err := f.writeFiles(c); err != nil {
		return err
	}
	if *f.asJSON {
		return c.WriteJSON(stdout, params, rep)
	}
	return c.WriteText(stdout, params)
}

// newMethod returns the method the flags of fs ask for and the options given (--opt
// key=value, and --k2, --lambda, --rho, --init, --transform, --iterations where given), with NAGC's
// initial factors read from --init-u, --init-v and --init-h.
func (f *clusterFlags) newMethod(fs *flag.FlagSet) (algorithms.Method, map[string]any, error) {
	params := map[string]any{}
	for k, v := range f.opts {
		params[k] = v
	}
	fromFlag := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "k2", "iterations":
			params[fl.Name], _ = strconv.Atoi(fl.Value.String())
		case "lambda", "rho":
			params[fl.Name], _ = strconv.ParseFloat(fl.Value.String(), 64)
		case "init", "transform":
			params[fl.Name] = fl.Value.String()
		case "precision": // for the methods that have the option; the others run as they are
			if keys, _ := algorithms.Params(*f.method); !slices.Contains(keys, "precision") {
				return
			}
			params[fl.Name] = fl.Value.String()
		default:
			return
		}
		fromFlag[fl.Name] = true
	})
	m, err := algorithms.New(*f.method, params)
	if err != nil {
		return nil, nil, optionFlagError(err, fromFlag)
	}
	if *f.initU != "" || *f.initV != "" || *f.initH != "" {
		nm, ok := m.(algorithms.NAGC)
		if !ok {
			return nil, nil, errors.New("--init-u/--init-v/--init-h apply to --method nagc only")
		}
		if nm.InitU, nm.InitV, nm.InitH, err = algorithms.ReadInitialFactors(*f.initU, *f.initV, *f.initH); err != nil {
			return nil, nil, err
		}
		m = nm
	}
	return m, params, nil
}

// writeFiles writes the labels (--labels-out) and factors (--factors-out) of c.
func (f *clusterFlags) writeFiles(c *experiments.Clustering) error {
	if *f.labelsOut != "" {
		if err := c.WriteLabels(*f.labelsOut); err != nil {
			return err
		}
	}
	if *f.factorsOut != "" {
		if len(c.Result.Factors) == 0 {
			return fmt.Errorf("--factors-out: %s learns no factors to write (nagc, jwnmf, nmf, snmf, bagc and paican do)", c.Method.Name())
		}
		if err := c.WriteFactors(*f.factorsOut); err != nil {
			return err
		}
	}
	return nil
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
