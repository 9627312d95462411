// Package parallel runs the fixed tasks of a kernel on the goroutines the thread setting
// allows, and only where the work outweighs the cost of starting them.
//
// The thread setting (SetThreads, Threads) is one per process: the command line sets it
// for a fit, the experiment runner sets it to 1 because it parallelises across runs.
// Every kernel splits its work into tasks fixed by the problem's size alone (blocks of
// rows, clusters) and sums across tasks in task order, so what it computes does not
// depend on how many goroutines run the tasks: the thread setting and the measured grain
// change the time a kernel takes, never a bit of its result.
//
// A Grain is the least work, in a kernel's own units (multiply-adds, say), that pays for
// handing a task to another goroutine on the machine the process runs on: forkFactor
// times the measured cost of a fork and join of two goroutines, divided by the measured
// time of one unit of the kernel's work. It is measured once per process, the first time
// a kernel asks, in about a millisecond. Grain.Workers then gives a call as many
// goroutines as its work pays for, at most Threads(), so that a small problem runs on the
// calling goroutine and the default thread count is not slower than one thread. Nor more
// than the cores other processes leave free: every fifth of a second the machine's CPU
// time (/proc/stat) less this process's own tells how many cores others keep busy, and a
// split takes at most the rest (at least one). A split waits for its slowest goroutine,
// so on a machine whose cores are all taken a second goroutine, descheduled in turn with
// the other processes, makes every split wait.
//
// Where a call's work is within a few dozen grains of that least, the measured grain is
// least sure (it times a small kernel on data in the cache, not a split of the caller's
// own data), and Grain.Split learns from the calls themselves: the first calls of each
// amount of work alternate between one goroutine and the split, timed, and the faster
// way is kept for the next thousand calls. The kernels of an iteration repeat their work
// every iteration, so a fit soon runs each the faster way.
//
// Pool keeps a fit's goroutines running between the phases of an iteration, so that an
// iteration starts no goroutine and allocates nothing.
package parallel
