package results_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReadersImportNoMethod checks that results, and the report that reads records
// through it, depend on no method and no config: neither package experiments nor
// package algorithms (nor any package under them) is among their dependencies.
func TestReadersImportNoMethod(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	const mod = "github.com/nagc-harness/nagc/"
	out, err := exec.Command(gobin, "list", "-deps", mod+"results", mod+"report/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{mod + "experiments", mod + "algorithms"} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("results or report depends on %s", pkg)
			}
		}
	}
}
