//go:build linux

package command

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProgramDiesWithNagc checks that a program started as a run is killed when the
// process that started it is killed with SIGKILL (no chance to cancel it): the test
// binary starts itself as that parent, which starts sleep 600 the way a run starts a
// program and prints its pid; the test kills the parent and waits for sleep to go.
func TestProgramDiesWithNagc(t *testing.T) {
	if os.Getenv("NAGC_TEST_PARENT") == "1" {
		cmd := exec.CommandContext(context.Background(), "sleep", "600")
		killGroup(cmd)
		if err := cmd.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(cmd.Process.Pid)
		select {} // until killed
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep program")
	}
	parent := exec.Command(os.Args[0], "-test.run=^TestProgramDiesWithNagc$")
	parent.Env = append(os.Environ(), "NAGC_TEST_PARENT=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		parent.Process.Kill()
		t.Fatalf("reading the child's pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		parent.Process.Kill()
		t.Fatalf("parent said %q", line)
	}
	defer syscall.Kill(-pid, syscall.SIGKILL) // whatever happens, no sleep is left behind
	parent.Process.Signal(syscall.SIGKILL)
	parent.Wait()
	// The kernel signals the child as the parent's thread exits; wait for it to be gone
	// (or a zombie no one reaps), however long a loaded machine takes.
	for !gone(pid) {
		time.Sleep(10 * time.Millisecond)
	}
}

// gone reports whether process pid has ended: it no longer exists or is a zombie.
func gone(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z'
	}
	return false
}
