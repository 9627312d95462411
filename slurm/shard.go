package slurm

import (
	"fmt"
	"strconv"
)

// ParseShard reads a --shard value: "I/N" (1 ≤ I ≤ N), or "auto", which takes I and N
// from the Slurm job array the process runs in (getenv reads the environment). It returns
// the 0-based shard and the shard count.
//
// Under "auto", N is SLURM_ARRAY_TASK_COUNT and I follows SLURM_ARRAY_TASK_ID: arrays
// numbered 1…N (as `nagc slurm` writes them) give task i shard i, arrays numbered
// 0…N-1 (Slurm's common convention) give task i shard i+1. Any other array (a stride,
// or a resubmission of some tasks only) is refused: pass --shard I/N there.
func ParseShard(spec string, getenv func(string) string) (shard, shards int, err error) {
	if spec != "auto" {
		var i, n int
		if _, err := fmt.Sscanf(spec, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != spec {
			return 0, 0, fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N, or auto in a Slurm job array", spec)
		}
		return i - 1, n, nil
	}
	env := map[string]int{}
	for _, k := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX"} {
		v := getenv(k)
		if v == "" {
			return 0, 0, fmt.Errorf("--shard auto: %s is not set: this is not a task of a Slurm job array (submit with sbatch --array=1-N, or pass --shard I/N)", k)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, 0, fmt.Errorf("--shard auto: %s=%q is not a task number", k, v)
		}
		env[k] = n
	}
	id, count, lo, hi := env["SLURM_ARRAY_TASK_ID"], env["SLURM_ARRAY_TASK_COUNT"], env["SLURM_ARRAY_TASK_MIN"], env["SLURM_ARRAY_TASK_MAX"]
	if (lo != 0 && lo != 1) || hi-lo+1 != count || id < lo || id > hi {
		return 0, 0, fmt.Errorf("--shard auto: the job array runs tasks %d…%d (%d tasks, this one %d); auto needs a whole array numbered 1…N or 0…N-1: pass --shard I/N instead", lo, hi, count, id)
	}
	return id - lo, count, nil
}

// CPUsPerTask returns the CPUs Slurm gave each task (SLURM_CPUS_PER_TASK), or 0 outside
// a Slurm job or when the job does not say.
func CPUsPerTask(getenv func(string) string) int {
	n, err := strconv.Atoi(getenv("SLURM_CPUS_PER_TASK"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}
