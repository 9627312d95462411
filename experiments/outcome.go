package experiments

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRunsFailed is matched (errors.Is) by the error of Summary.Err when a sweep finished
// with runs recorded as failed.
var ErrRunsFailed = errors.New("runs failed")

// Err returns what the execution amounts to: nil when every run it executed is recorded
// as done, ErrInterrupted when it stopped on a signal (finished runs are recorded;
// running the same command again resumes), and an error matching ErrRunsFailed when it
// went through but some runs are recorded as failed (running it again retries them).
func (s *Summary) Err() error {
	switch {
	case s.Interrupted:
		return ErrInterrupted
	case s.Failed > 0:
		return runsFailedError{failed: s.Failed, ran: s.Done + s.Failed, failures: s.Failures}
	}
	return nil
}

// runsFailedError says how many of the runs executed failed.
type runsFailedError struct {
	failed, ran int
	failures    []Failure // the distinct errors, with an example run each
}

func (e runsFailedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d runs failed; their errors are recorded (nagc status shows them) and running the same command again retries them, which helps only where the machine failed them (a missing gpmetis, too little memory): runs are deterministic, so an error from the data, the options or a program of yours comes back until it is fixed", e.failed, e.ran)
	for _, f := range e.failures {
		// A program's last lines of output are indented under their failure.
		fmt.Fprintf(&b, "\n  %d× %s\n     e.g. %s", f.Runs, strings.ReplaceAll(f.Error, "\n", "\n       | "), f.Example)
	}
	return b.String()
}

func (e runsFailedError) Is(target error) bool { return target == ErrRunsFailed }
