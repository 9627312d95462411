package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
)

// Name is the algorithm name of a config row that runs a program.
const Name = "command"

// Method is a Program with the settings of one grid point: an algorithms.Method whose
// fits start the program (see the package documentation).
type Method struct {
	Program
	// Params are the row's options at this grid point, passed to the program as they are.
	Params map[string]any
	// GraphDir is the folder the graph files are written to (GraphFile); "" writes each
	// fit's graph to a temporary folder of its own, removed after the fit.
	GraphDir string
	// Dataset names the graph in its file's name.
	Dataset string
	// Threads is the number of threads the program may use (Job.Threads; at least 1).
	Threads int
}

// Job is the JSON object a program reads on its standard input, once per fit.
type Job struct {
	Graph     string         `json:"graph"`      // the .npz file of the graph (GraphFile)
	K1        int            `json:"k1"`         // the number of clusters to find
	Seed      uint64         `json:"seed"`       // the fit's seed: draw every random number from it
	Params    map[string]any `json:"params"`     // the row's options at this grid point
	Threads   int            `json:"threads"`    // threads the program may use
	LabelsOut string         `json:"labels_out"` // where to write one integer cluster id a line
	InfoOut   string         `json:"info_out"`   // where it may write a JSON object of extra information
}

// Name returns "command".
func (m *Method) Name() string { return Name }

// ReadsLabels reports whether the program is given the ground-truth labels
// (Program.ReadsLabels): its fits then read them (algorithms.LabelReader).
func (m *Method) ReadsLabels() bool { return m.Program.ReadsLabels }

// Fit writes in's graph (once per in.Cache and GraphDir; see GraphFile), starts the
// program with the Job of this fit on its standard input, waits for it (at most Timeout)
// and reads its labels back, renumbered 0, 1, … in the order of the ids it wrote (ids
// 0…k−1 stay as they are). Result.FitTime is the program's wall time; Result.Info holds
// what it wrote to InfoOut, each value as text. Every failure of the program is an error
// naming it, with the last lines it printed; a cancelled ctx kills it and returns ctx's
// error.
func (m *Method) Fit(ctx context.Context, in algorithms.Input, k int, seed uint64) (*algorithms.Result, error) {
	n := in.N()
	if in.Adj == nil {
		return nil, errors.New("input has no adjacency matrix")
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("k = %d clusters for %d vertices: the number of clusters must be from 1 to the number of vertices", k, n)
	}
	prog, err := m.Path()
	if err != nil {
		return nil, err
	}
	graph, cleanup, err := m.graph(in)
	if err != nil {
		return nil, fmt.Errorf("writing the graph for the program: %w", err)
	}
	defer cleanup()
	work, err := os.MkdirTemp("", "nagc-command-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	job := Job{Graph: graph, K1: k, Seed: seed, Params: m.Params, Threads: max(m.Threads, 1),
		LabelsOut: filepath.Join(work, "labels.txt"), InfoOut: filepath.Join(work, "info.json")}
	if job.Params == nil {
		job.Params = map[string]any{}
	}
	stdin, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	elapsed, err := m.run(ctx, prog, append(stdin, '\n'), job.Threads)
	if err != nil {
		return nil, err
	}
	labels, err := readLabels(job.LabelsOut, n)
	if err != nil {
		return nil, err
	}
	info, err := readInfo(job.InfoOut)
	if err != nil {
		return nil, err
	}
	return &algorithms.Result{Labels: labels, FitTime: elapsed, Info: info}, nil
}

// graph returns the graph file of in and what removes it after the fit (nothing, when
// it is kept in GraphDir).
func (m *Method) graph(in algorithms.Input) (string, func(), error) {
	if m.GraphDir == "" {
		dir, err := os.MkdirTemp("", "nagc-graph-*")
		if err != nil {
			return "", nil, err
		}
		path, err := GraphFile(in, dir, m.Dataset, m.Program.ReadsLabels)
		return path, func() { os.RemoveAll(dir) }, err
	}
	write := func() (any, error) { return GraphFile(in, m.GraphDir, m.Dataset, m.Program.ReadsLabels) }
	if in.Cache == nil {
		path, err := write()
		return path.(string), func() {}, err
	}
	path, err := in.Cache.Do(fmt.Sprintf("command-graph\x00%s\x00%s\x00%t", m.GraphDir, m.Dataset, m.Program.ReadsLabels), write)
	if err != nil {
		return "", nil, err
	}
	return path.(string), func() {}, nil
}

// tailLines is how many of the last lines a program printed an error quotes.
const tailLines = 10

// run starts the program at prog with stdin and waits for it, killing its process group
// when Timeout passes or ctx is cancelled. It returns the program's wall time.
func (m *Method) run(ctx context.Context, prog string, stdin []byte, threads int) (time.Duration, error) {
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if m.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, m.Timeout)
	}
	defer cancel()
	out := &tail{max: tailBytes}
	cmd := exec.CommandContext(runCtx, prog, m.Argv[1:]...)
	cmd.Args[0] = m.Argv[0]
	cmd.Dir = m.Dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = threadEnv(os.Environ(), threads)
	killGroup(cmd)
	// A child that keeps the output pipes open after the program is killed must not hold
	// the fit: stop reading them this long after the kill.
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	switch {
	case ctx.Err() != nil:
		return 0, ctx.Err()
	case runCtx.Err() != nil:
		return 0, fmt.Errorf("the program timed out after %v and was killed, with its children%s", m.Timeout, out.quote(tailLines))
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return 0, fmt.Errorf("the program failed (%v)%s", exit.ProcessState, out.quote(tailLines))
		}
		return 0, fmt.Errorf("the program could not be started: %v", err)
	}
	return elapsed, nil
}

// threadEnv returns env with the thread counts of the common numeric libraries (OpenMP,
// OpenBLAS, MKL) set to threads, where env does not set them already.
func threadEnv(env []string, threads int) []string {
	for _, key := range []string{"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"} {
		if _, set := os.LookupEnv(key); !set {
			env = append(env, fmt.Sprintf("%s=%d", key, threads))
		}
	}
	return env
}
