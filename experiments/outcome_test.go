package experiments

import (
	"strings"
	"testing"
)

// TestRunsFailedErrorIndentsOutput checks that a program's last lines, quoted in a
// failure, stay indented under it instead of starting at the margin like a new message.
func TestRunsFailedErrorIndentsOutput(t *testing.T) {
	err := runsFailedError{failed: 3, ran: 4, failures: []Failure{{
		Error:   "the program failed (exit status 1); the last lines it printed:\nTraceback (most recent call last):\nModuleNotFoundError: No module named 'numpy'",
		Runs:    3,
		Example: "cora, Mine {} restart 0",
	}}}
	got := err.Error()
	for _, want := range []string{
		"3 of 4 runs failed;",
		"a program of yours comes back until it is fixed",
		"\n  3× the program failed (exit status 1); the last lines it printed:\n       | Traceback (most recent call last):\n       | ModuleNotFoundError: No module named 'numpy'\n     e.g. cora, Mine {} restart 0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("message lacks %q:\n%s", want, got)
		}
	}
}
