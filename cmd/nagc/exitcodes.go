package main

import (
	"context"
	"errors"
	"flag"

	"github.com/nagc-harness/nagc/experiments"
)

// Exit codes of nagc. Scripts (and Slurm's afterok dependencies) tell an interrupted
// sweep, which the same command resumes, and a sweep with failed runs, whose records
// are complete, from an error.
const (
	exitOK          = 0 // done
	exitError       = 1 // an error: nothing ran, or the command stopped on it
	exitUsage       = 2 // a bad command line
	exitInterrupted = 3 // stopped on a signal (Ctrl-C, SIGTERM, a job's time limit): run the same command to resume
	exitFailedRuns  = 4 // finished, but some runs are recorded as failed (run the same command to retry them)
)

// exitCodes documents the exit codes in `nagc help`.
const exitCodes = `Exit codes: 0 done; 1 error; 2 bad command line; 3 interrupted (finished runs are
recorded: run the same command to resume); 4 finished with some runs recorded as failed.`

// exitCode returns the exit code of a command that returned err.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage
	case errors.Is(err, experiments.ErrInterrupted), errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, experiments.ErrRunsFailed):
		return exitFailedRuns
	}
	return exitError
}
