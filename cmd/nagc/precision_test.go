package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestClusterPrecisionFlag checks that nagc cluster --precision fast fits NAGC, kmeans
// and sgc-kmeans in the fast precision and says so in their JSON (params and info), that a method without the
// option runs as it does without the flag, and that a wrong value is refused in words,
// by nagc run too.
func TestClusterPrecisionFlag(t *testing.T) {
	code, stdout, stderr := cli(t, "cluster", "--data", "synthetic", "--method", "nagc", "--iterations", "5", "--precision", "fast", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Params map[string]any    `json:"params"`
		Info   map[string]string `json:"info"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if out.Params["precision"] != "fast" || !strings.HasPrefix(out.Info["precision"], "fast") {
		t.Errorf("params %v, info %v: want precision fast in both", out.Params, out.Info)
	}
	for _, method := range []string{"kmeans", "sgc-kmeans"} {
		code, stdout, stderr := cli(t, "cluster", "--data", "synthetic", "--method", method, "--precision", "fast", "--json", "--quiet")
		if code != 0 {
			t.Fatalf("%s --precision fast: exit %d: %s", method, code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		if out.Params["precision"] != "fast" || !strings.HasPrefix(out.Info["precision"], "fast: float32 k-means") {
			t.Errorf("%s: params %v, info %v: want precision fast in both", method, out.Params, out.Info)
		}
	}
	if code, _, stderr := cli(t, "cluster", "--data", "synthetic", "--method", "snmf", "--precision", "fast", "--quiet"); code != 0 {
		t.Errorf("snmf --precision fast: exit %d: %s", code, stderr)
	}
	if code, _, stderr := cli(t, "cluster", "--data", "synthetic", "--method", "nagc", "--precision", "half", "--quiet"); code == 0 || !strings.Contains(stderr, "precision") || !strings.Contains(stderr, "fast") {
		t.Errorf("--precision half: exit %d: %s", code, stderr)
	}
	t.Chdir(t.TempDir())
	if code, _, stderr := cli(t, "run", "--precision", "half", "quick"); code == 0 || !strings.Contains(stderr, `--precision "half": give default or fast`) {
		t.Errorf("run --precision half: exit %d: %s", code, stderr)
	}
}
