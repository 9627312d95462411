package experiments

import (
	"errors"
	"fmt"
)

// ErrRunsFailed is wrapped by Summary.Err when a sweep finished with runs recorded as
// failed.
var ErrRunsFailed = errors.New("runs failed")

// Err returns what the execution amounts to: nil when every run it executed is recorded
// as done, an error wrapping ErrInterrupted when it stopped on a signal (finished runs
// are recorded; running the same command again resumes), and an error wrapping
// ErrRunsFailed when it went through but some runs are recorded as failed (running it
// again retries them).
func (s *Summary) Err() error {
	switch {
	case s.Interrupted:
		return ErrInterrupted
	case s.Failed > 0:
		return fmt.Errorf("%w: %d of %d runs are recorded as failed, with their errors (run the same command again to retry them)", ErrRunsFailed, s.Failed, s.Done+s.Failed)
	}
	return nil
}
