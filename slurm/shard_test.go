package slurm

import (
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	array := func(id, count, lo, hi string) func(string) string {
		return env("SLURM_ARRAY_TASK_ID", id, "SLURM_ARRAY_TASK_COUNT", count, "SLURM_ARRAY_TASK_MIN", lo, "SLURM_ARRAY_TASK_MAX", hi)
	}
	for _, tc := range []struct {
		spec          string
		env           func(string) string
		shard, shards int
		err           string
	}{
		{spec: "1/1", env: env(), shard: 0, shards: 1},
		{spec: "3/4", env: env(), shard: 2, shards: 4},
		{spec: "0/4", env: env(), err: "1 ≤ I ≤ N"},
		{spec: "5/4", env: env(), err: "1 ≤ I ≤ N"},
		{spec: "2/4x", env: env(), err: "1 ≤ I ≤ N"},
		{spec: "half", env: env(), err: "1 ≤ I ≤ N"},
		// nagc slurm's arrays are numbered 1…N: task i is shard i.
		{spec: "auto", env: array("1", "3", "1", "3"), shard: 0, shards: 3},
		{spec: "auto", env: array("3", "3", "1", "3"), shard: 2, shards: 3},
		// Slurm's common 0…N-1: task i is shard i+1.
		{spec: "auto", env: array("0", "3", "0", "2"), shard: 0, shards: 3},
		{spec: "auto", env: array("2", "3", "0", "2"), shard: 2, shards: 3},
		// A resubmission of some tasks, or a stride, cannot tell N.
		{spec: "auto", env: array("3", "2", "1", "3"), err: "pass --shard I/N"},
		{spec: "auto", env: array("4", "3", "2", "4"), err: "pass --shard I/N"},
		{spec: "auto", env: env(), err: "SLURM_ARRAY_TASK_ID is not set"},
		{spec: "auto", env: array("x", "3", "1", "3"), err: "not a task number"},
	} {
		i, n, err := ParseShard(tc.spec, tc.env)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %v: error %v, want one saying %q", tc.spec, tc.env("SLURM_ARRAY_TASK_ID"), err, tc.err)
		case tc.err == "" && (err != nil || i != tc.shard || n != tc.shards):
			t.Errorf("%s task %s: %d of %d, %v; want %d of %d", tc.spec, tc.env("SLURM_ARRAY_TASK_ID"), i, n, err, tc.shard, tc.shards)
		}
	}
	if w := CPUsPerTask(env("SLURM_CPUS_PER_TASK", "4")); w != 4 {
		t.Errorf("SLURM_CPUS_PER_TASK=4: %d workers", w)
	}
	if w := CPUsPerTask(env()); w != 0 {
		t.Errorf("outside Slurm: %d workers, want 0 (all cores)", w)
	}
}
