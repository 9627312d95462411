//go:build !unix

package command

import "os/exec"

// killGroup leaves cmd as it is: where there are no process groups, cancellation kills
// the program alone.
func killGroup(cmd *exec.Cmd) {}
