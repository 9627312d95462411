package parallel

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// loadPeriod is the window over which the cores other processes use are measured: long
// enough for the kernel's accounting in clock ticks (10 ms on most Linux systems) to be
// within a few per cent, short enough for a fit of seconds to follow a change of load.
const loadPeriod = 200 * time.Millisecond

// load follows how many cores other processes keep busy, from the machine's CPU time in
// /proc/stat less this process's own (getrusage), over windows of loadPeriod.
var load struct {
	mu    sync.Mutex // held by the goroutine refreshing the estimate
	stat  *os.File   // /proc/stat, nil where it cannot be read
	buf   [512]byte
	tried bool
	at    time.Time // end of the last window
	busy  uint64    // the machine's busy and total clock ticks at `at`
	total uint64
	self  time.Duration // this process's CPU time at `at`
	free  atomic.Int32  // cores not used by other processes in the last window; 0: not known
}

// freeCoresHook, when set (tests), replaces the measured estimate.
var freeCoresHook func() int

// freeCores returns how many cores other processes left to this one over the last
// window, rounded, at least 1 (before the first window is over: the cores less the
// threads runnable at the first call, this one aside); 0 where it is not known (no
// /proc/stat). It refreshes the estimate when the window is over, on the
// calling goroutine (one file read, about 10 µs; nothing allocated), or leaves it to a
// goroutine already refreshing it.
func freeCores() int {
	if freeCoresHook != nil {
		return freeCoresHook()
	}
	if load.mu.TryLock() {
		if now := time.Now(); now.Sub(load.at) >= loadPeriod {
			refreshLoad(now)
		}
		load.mu.Unlock()
	}
	return int(load.free.Load())
}

// refreshLoad closes the window at now and starts the next; load.mu is held.
func refreshLoad(now time.Time) {
	if !load.tried {
		load.tried = true
		load.stat, _ = os.Open("/proc/stat")
	}
	if load.stat == nil {
		return
	}
	n, err := load.stat.ReadAt(load.buf[:], 0)
	if n == 0 && err != nil {
		return
	}
	busy, total, ok := parseCPULine(load.buf[:n])
	var ru syscall.Rusage
	if !ok || syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return
	}
	self := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	if load.at.IsZero() {
		// No window yet: the threads runnable at this instant, this one aside.
		if b, err := os.ReadFile(loadavgPath); err == nil {
			if r, ok := parseRunnable(b); ok {
				load.free.Store(int32(max(1, runtime.NumCPU()-(r-1))))
			}
		}
	} else {
		load.free.Store(int32(coresLeft(runtime.NumCPU(), busy-load.busy, total-load.total, self-load.self, now.Sub(load.at))))
	}
	load.at, load.busy, load.total, load.self = now, busy, total, self
}

// loadavgPath is the file whose fourth field, "runnable/threads", gives the first
// estimate, before a window is over (a variable for tests).
var loadavgPath = "/proc/loadavg"

// parseRunnable reads the threads runnable now from /proc/loadavg ("0.50 0.40 0.30 2/180
// 1234").
func parseRunnable(b []byte) (int, bool) {
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return 0, false
	}
	r, _, ok := strings.Cut(f[3], "/")
	n, err := strconv.Atoi(r)
	return n, ok && err == nil && n >= 0
}

// coresLeft returns the cores of a machine of cores cores that other processes left over
// a window of wall time in which the machine was busy for busy of its total clock ticks
// and this process used self of CPU time: cores less the cores the others kept busy,
// rounded, at least 1. A window without ticks gives 0 (not known).
func coresLeft(cores int, busy, total uint64, self, wall time.Duration) int {
	if total == 0 || wall <= 0 {
		return 0
	}
	used := float64(cores) * float64(busy) / float64(total)
	others := max(0, used-float64(self)/float64(wall))
	return max(1, int(float64(cores)-others+0.5))
}

// parseCPULine reads the first line of /proc/stat ("cpu  user nice system idle iowait irq
// softirq steal …", in clock ticks) and returns the ticks the machine's cores were busy
// (all but idle and iowait) and in all.
func parseCPULine(b []byte) (busy, total uint64, ok bool) {
	if len(b) < 4 || string(b[:4]) != "cpu " {
		return 0, 0, false
	}
	var field int
	var v uint64
	var in bool
	for _, c := range b[4:] {
		if c >= '0' && c <= '9' {
			v, in = v*10+uint64(c-'0'), true
			continue
		}
		if in {
			// Fields 9 and 10 (guest, guest_nice) are counted in user and nice already.
			if field < 8 {
				total += v
				if field != 3 && field != 4 { // idle, iowait
					busy += v
				}
			}
			field++
			v, in = 0, false
		}
		if c == '\n' {
			break
		}
	}
	return busy, total, field >= 4
}
