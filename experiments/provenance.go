package experiments

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/results"
)

// gitCommit returns the commit of the nagc source the running binary was built from,
// for a sweep's provenance: the revision the go tool stamped into the binary (with
// "-dirty" where the tree had uncommitted changes); failing that (go test and go run
// stamp none), the HEAD of the nagc checkout holding the working folder, asked of git;
// failing that, the module version (`go install …@v1.2.3`); else "unknown". Another
// repository's commit is never taken for nagc's.
func gitCommit() string {
	bi, _ := debug.ReadBuildInfo()
	if c, ok := buildCommit(bi); ok {
		return c
	}
	if root, ok := datasets.CheckoutRoot(); ok {
		if out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output(); err == nil {
			commit := strings.TrimSpace(string(out))
			if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
				commit += "-dirty"
			}
			return commit
		}
	}
	if v := moduleVersion(bi); v != "" {
		return v
	}
	return "unknown"
}

// buildCommit returns the VCS revision recorded in bi by the go tool, "-dirty" appended
// where vcs.modified is true, and whether bi has one.
func buildCommit(bi *debug.BuildInfo) (string, bool) {
	if bi == nil {
		return "", false
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "", false
	}
	if dirty {
		rev += "-dirty"
	}
	return rev, true
}

// moduleVersion returns the main module's version recorded in bi ("v1.2.3", or a
// pseudo-version), or "" for a development build.
func moduleVersion(bi *debug.BuildInfo) string {
	if bi == nil || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return ""
	}
	return bi.Main.Version
}

// newProvenance describes the sweep sweep of cfg started at start, with toDo runs to
// execute: the config, the code, the machine and the datasets.
func newProvenance(cfg *Config, opt Options, p *sweepPlan, sweep string, start time.Time, toDo int) results.Provenance {
	shard := "1/1"
	if opt.Shards > 1 {
		shard = fmt.Sprintf("%d/%d", opt.Shard+1, opt.Shards)
	}
	prov := results.Provenance{
		Sweep: sweep, Config: cfg.File, ConfigHash: cfg.Hash, Name: cfg.Name,
		GitCommit: gitCommit(), GoVersion: runtime.Version(), Host: hostname(), CPU: cpuModel(),
		Started: start.UTC(), Workers: opt.Workers, Shard: shard, RunsTotal: p.total, RunsToDo: toDo,
		Compare: cfg.Compare, Timing: cfg.Timing, Figures: cfg.Figures, Maximises: maximisers(cfg),
	}
	for _, ld := range p.loaded {
		st := ld.Graph.Stats()
		st.Name, st.K = ld.Name, ld.K1 // for a graph without labels, the config's k1
		prov.Datasets = append(prov.Datasets, st)
		prov.Sources = append(prov.Sources, results.DatasetSource{Name: ld.Name, Identity: ld.Identity, K1: ld.K1, Spec: ld.Spec, Load: ld.Report})
	}
	return prov
}

func newSweepID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

// cpuModel returns the processor model and core count, for the runtime table.
func cpuModel() string {
	model := runtime.GOARCH
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				if _, v, ok := strings.Cut(line, ":"); ok {
					model = strings.TrimSpace(v)
				}
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores", model, runtime.NumCPU())
}

// maximisers returns the algorithms of cfg's rows whose objective is maximised, sorted,
// for the sweep's provenance (results.Provenance.Maximises).
func maximisers(cfg *Config) []string {
	var out []string
	for _, m := range cfg.Methods {
		if a := m.Algorithm.Value; algorithms.ObjectiveMaximised(a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}
