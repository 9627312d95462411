package algorithms

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/internal/scratch"
	"github.com/nagc-harness/nagc/memory"
)

// METISInstallHint tells a user how to get gpmetis.
const METISInstallHint = "install METIS's command-line tools: on Debian/Ubuntu `sudo apt-get install metis`, " +
	"on macOS `brew install metis`; or set NAGC_GPMETIS to the gpmetis binary"

// METIS partitions the graph with the real METIS (Karypis & Kumar): it writes the
// adjacency in METIS's graph format (1-based, no self-loops, unit weights), runs
// `gpmetis -seed=SEED [-ptype=…] [-objtype=…] FILE k`, and reads the partition back from
// FILE.part.k. It uses topology only. METIS minimises the edge cut (or communication
// volume) under a balance constraint of 1.03 (gpmetis's default -ufactor=30) by multilevel
// coarsening, initial partitioning and refinement; it has no per-iteration objective.
//
// The binary is NAGC_GPMETIS if set, else gpmetis on PATH. The files are written in a
// folder under $TMPDIR (internal/scratch), removed on every return. Cost: O(|E|) to write the file
// plus METIS's own near-linear time. Defaults (zero values): k-way partitioning, edge-cut
// objective.
type METIS struct {
	PType   string `yaml:"ptype"`   // "kway" (default) or "rb" (recursive bisection)
	ObjType string `yaml:"objtype"` // "cut" (default) or "vol"; applies to kway only
}

// Name returns "metis".
func (METIS) Name() string { return "metis" }

// GPMetisPath returns the gpmetis binary to run, or an error saying how to install it.
func GPMetisPath() (string, error) {
	if p := os.Getenv("NAGC_GPMETIS"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("metis: NAGC_GPMETIS=%s: %w", p, err)
		}
		return p, nil
	}
	p, err := exec.LookPath("gpmetis")
	if err != nil {
		return "", fmt.Errorf("metis: gpmetis not found on PATH; %s", METISInstallHint)
	}
	return p, nil
}

// Fit partitions the graph into k parts. See the type's documentation.
func (a METIS) Fit(ctx context.Context, in Input, k int, seed uint64) (*Result, error) {
	start := time.Now()
	if err := in.validate(true, false, k); err != nil {
		return nil, fmt.Errorf("metis: %w", err)
	}
	args := []string{fmt.Sprintf("-seed=%d", seed%(1<<31))}
	switch a.PType {
	case "", "kway":
	case "rb":
		args = append(args, "-ptype=rb")
	default:
		return nil, fmt.Errorf("metis: unknown ptype %q (want kway or rb)", a.PType)
	}
	switch a.ObjType {
	case "", "cut":
	case "vol":
		if a.PType == "rb" {
			return nil, errors.New("metis: objtype vol applies to kway partitioning only")
		}
		args = append(args, "-objtype=vol")
	default:
		return nil, fmt.Errorf("metis: unknown objtype %q (want cut or vol)", a.ObjType)
	}
	n := in.N()
	info := map[string]string{"ptype": or(a.PType, "kway"), "objtype": or(a.ObjType, "cut"), "self_loops": "dropped"}
	if k == 1 {
		return &Result{Labels: make([]int, n), FitTime: time.Since(start), Info: info}, nil
	}
	bin, err := GPMetisPath()
	if err != nil {
		return nil, err
	}
	// The graph file: a line per vertex of its neighbours' numbers (at most 11 bytes each
	// with its separator); the partition gpmetis writes beside it: a line per vertex.
	dir, remove, err := scratch.Dir("", "nagc-metis-*", memory.Bytes(int64(in.Adj.NNZ())+2*int64(n)+64, 11))
	if err != nil {
		return nil, fmt.Errorf("metis: %w", err)
	}
	defer remove()
	file := filepath.Join(dir, "graph")
	if err := writeMETISGraph(file, in); err != nil {
		return nil, fmt.Errorf("metis: %w", scratch.Explain(err))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	args = append(args, file, strconv.Itoa(k))
	cmd := exec.CommandContext(ctx, bin, args...) // killed when ctx is cancelled
	cmd.WaitDelay = metisWaitDelay
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("metis: %w", ctxErr) // gpmetis was killed for ctx
		}
		return nil, fmt.Errorf("metis: %s %s: %w\n%s", bin, strings.Join(args, " "), err, out)
	}
	labels, err := readMETISPartition(fmt.Sprintf("%s.part.%d", file, k), n, k)
	if err != nil {
		return nil, fmt.Errorf("metis: %w", err)
	}
	info["gpmetis"] = bin
	return &Result{Labels: labels, FitTime: time.Since(start), Info: info}, nil
}

// metisWaitDelay bounds how long Fit waits for gpmetis's output once gpmetis is killed.
const metisWaitDelay = 200 * time.Millisecond

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// writeMETISGraph writes the adjacency, self-loops dropped, in METIS's graph format.
func writeMETISGraph(path string, in Input) error {
	adj := in.Adj.WithoutDiagonal()
	n := in.N()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "%d %d\n", n, adj.NNZ()/2)
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		cols, _ := adj.Row(i)
		buf = buf[:0]
		for p, j := range cols {
			if p > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(j+1), 10)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readMETISPartition reads one part number per line.
func readMETISPartition(path string, n, k int) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	labels := make([]int, 0, n)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		p, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil || p < 0 || p >= k {
			return nil, fmt.Errorf("%s:%d: bad part %q", path, line, sc.Text())
		}
		labels = append(labels, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(labels) != n {
		return nil, fmt.Errorf("%s: %d parts for %d vertices", path, len(labels), n)
	}
	return labels, nil
}
