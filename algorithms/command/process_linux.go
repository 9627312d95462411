//go:build linux

package command

import "syscall"

// dieWithParent asks the kernel to SIGKILL the program when the thread that started it
// exits: Go ends a thread only with its process (no goroutine here locks one), so this
// is when nagc dies.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
