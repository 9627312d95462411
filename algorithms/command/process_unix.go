//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// killGroup starts cmd in a process group of its own and makes its cancellation kill
// the whole group, so that a program's children die with it. Where the system can
// (Linux), the program is also killed when nagc itself dies unwarned (kill -9, the OOM
// killer), instead of running on, past its time-out, with no one to read its labels.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
