package experiments

import (
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/nagc-harness/nagc/datasets"
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
