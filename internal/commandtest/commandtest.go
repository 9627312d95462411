// Package commandtest is a user's program for the tests of command rows: the test binary
// that calls Main from its TestMain plays it, in the mode its job's "mode" parameter
// names, including the ways a program can fail.
package commandtest

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/algorithms/command"
	"github.com/nagc-harness/nagc/datasets"
)

// Arg is the argument that makes a test binary play the program: its argv is
// [os.Args[0], Arg].
const Arg = "nagc-command-test-program"

// Argv returns the argv of the program: the running test binary with Arg.
func Argv() []string { return []string{os.Args[0], Arg} }

// Modes of the program, as the "mode" parameter names them.
const (
	Good     = "good"     // labels vertex i mod k1 (shifted by the seed), info {"mode": "good", "n": n}
	Truth    = "truth"    // the labels of the graph file (reads_labels), or fails without them
	Hang     = "hang"     // never ends
	Exit1    = "exit1"    // prints to stderr and exits with status 1
	Short    = "short"    // writes n − 1 labels
	NaN      = "nan"      // writes "nan" for every label
	Big      = "big"      // writes a labels file over the size cap
	BadInfo  = "badinfo"  // good labels, an info file that is not JSON
	NoLabels = "nolabels" // exits 0 without writing labels
	Spread   = "spread"   // labels 10·(i mod k1) − 7: ids that are not 0…k−1
	Shape    = "shape"    // reads only the number of vertices (adj_shape), writes labels i mod k1 and no info
	KMeans   = "kmeans"   // nagc's k-means (algorithms.KMeans{}) of the graph file's attributes
	// Tuned is nagc's k-means of the attributes, one start, into the "clusters" parameter's
	// clusters (default k1) in at most the "iterations" parameter's iterations (default
	// k-means' own); info {"mode": "tuned", "n": n, "iterations": the parameter}. A
	// program with a budget, for searches.
	Tuned = "tuned"
)

// Main plays the program when os.Args[1] is Arg, then exits; otherwise it returns at
// once. Each start appends one line "seed params" to the file the "log" parameter names,
// if any, before acting, so that a test counts the starts.
func Main() {
	if len(os.Args) < 2 || os.Args[1] != Arg {
		return
	}
	if err := play(); err != nil {
		fmt.Fprintln(os.Stderr, "commandtest:", err)
		os.Exit(2)
	}
	os.Exit(0)
}

func play() error {
	var job command.Job
	if err := json.NewDecoder(os.Stdin).Decode(&job); err != nil {
		return err
	}
	mode, _ := job.Params["mode"].(string)
	if log, ok := job.Params["log"].(string); ok {
		f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		p, _ := json.Marshal(job.Params)
		fmt.Fprintf(f, "%d %s\n", job.Seed, p)
		f.Close()
	}
	if mode == Shape {
		return writeShape(job)
	}
	g, _, err := datasets.LoadSpec(datasets.Spec{Path: job.Graph, Format: datasets.FormatNPZ})
	if err != nil {
		return err
	}
	n, k := g.N(), job.K1
	labels := make([]string, n)
	for i := range labels {
		labels[i] = fmt.Sprint((i + int(job.Seed%uint64(k))) % k)
	}
	info := fmt.Sprintf(`{"mode": %q, "n": %d}`, mode, n)
	switch mode {
	case Good:
	case KMeans:
		in := algorithms.Input{Adj: g.Adj, X: g.X}
		res, err := algorithms.KMeans{}.Fit(context.Background(), in, k, job.Seed)
		if err != nil {
			return err
		}
		for i, l := range res.Labels {
			labels[i] = strconv.Itoa(l)
		}
		info = fmt.Sprintf(`{"mode": %q, "n": %d, "fit_seconds": %g}`, mode, n, res.FitTime.Seconds())
	case Tuned:
		if labels, err = tuned(g, job); err != nil {
			return err
		}
		info = fmt.Sprintf(`{"mode": %q, "n": %d, "iterations": %v}`, mode, n, job.Params["iterations"])
	case Truth:
		if g.Labels == nil {
			return fmt.Errorf("the graph file %s has no labels", job.Graph)
		}
		for i, l := range g.Labels {
			labels[i] = fmt.Sprint(l)
		}
	case Hang:
		fmt.Fprintln(os.Stderr, "hanging")
		time.Sleep(time.Hour)
	case Exit1:
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):\nValueError: boom")
		os.Exit(1)
	case Short:
		labels = labels[:n-1]
	case NaN:
		for i := range labels {
			labels[i] = "nan"
		}
	case Big:
		for i := range labels {
			labels[i] = strings.Repeat("0", 200) + "1"
		}
	case BadInfo:
		info = "not json"
	case NoLabels:
		return nil
	case Spread:
		for i := range labels {
			labels[i] = fmt.Sprint(10*(i%k) - 7)
		}
	default:
		return fmt.Errorf("unknown mode %q", mode)
	}
	if err := os.WriteFile(job.LabelsOut, []byte(strings.Join(labels, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(job.InfoOut, []byte(info), 0o644)
}

// tuned returns the labels of mode Tuned.
func tuned(g *datasets.Graph, job command.Job) ([]string, error) {
	k, its := job.K1, 0
	if c, ok := job.Params["clusters"].(float64); ok {
		k = int(c)
	}
	if it, ok := job.Params["iterations"].(float64); ok {
		its = int(it)
	}
	res, err := algorithms.KMeans{NInit: 1, MaxIter: its}.Fit(context.Background(), algorithms.Input{Adj: g.Adj, X: g.X}, k, job.Seed)
	if err != nil {
		return nil, err
	}
	labels := make([]string, len(res.Labels))
	for i, l := range res.Labels {
		labels[i] = strconv.Itoa(l)
	}
	return labels, nil
}

// writeShape writes labels i mod k1 for the number of vertices read from the graph
// file's adj_shape alone: a program that costs next to nothing beyond the protocol.
func writeShape(job command.Job) error {
	z, err := zip.OpenReader(job.Graph)
	if err != nil {
		return err
	}
	defer z.Close()
	f, err := z.Open("adj_shape.npy")
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(f)
	if err != nil || len(raw) < 16 {
		return fmt.Errorf("adj_shape.npy: %d bytes, %v", len(raw), err)
	}
	n := int(binary.LittleEndian.Uint64(raw[len(raw)-16:]))
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strconv.Itoa(i % job.K1))
		b.WriteByte('\n')
	}
	return os.WriteFile(job.LabelsOut, []byte(b.String()), 0o644)
}
