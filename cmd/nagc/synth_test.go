package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/datasets"
	"github.com/nagc-harness/nagc/internal/attrtest"
)

func TestDatasetsSynth(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.npz")
	var stdout, stderr bytes.Buffer
	args := []string{"datasets", "synth", "--shape", "tiny", "--n", "500", "--k", "5", "--dense=false", "--seed", "3", "--out", out}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	g, _, err := datasets.Open(datasets.Spec{Path: out})
	if err != nil {
		t.Fatal(err)
	}
	if g.N() != 500 || g.K() != 5 || g.M() != 8 || attrtest.Sparse(g.X) == nil {
		t.Errorf("n %d k %d m %d, sparse %v: want the flags' shape with sparse attributes", g.N(), g.K(), g.M(), attrtest.Sparse(g.X) != nil)
	}
	if !strings.Contains(stdout.String(), "n=500") {
		t.Errorf("output %q", stdout.String())
	}
	for _, bad := range [][]string{
		{"datasets", "synth", "--shape", "tiny"},                                     // no --out
		{"datasets", "synth", "--shape", "huge", "--out", out},                       // unknown shape
		{"datasets", "synth", "--shape", "tiny", "--homophily", "1.5", "--out", out}, // out of range
	} {
		stderr.Reset()
		if code := run(context.Background(), bad, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
}

func TestBenchShape(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"bench", "--shape", "tiny,n=400", "--methods", "kmeans", "--repeats", "1", "--out", t.TempDir()}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "synthetic:tiny,n=400") || strings.Contains(stdout.String(), "webkb") {
		t.Errorf("bench output does not time the shape alone:\n%s", stdout.String())
	}
}
