package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/datasets"
)

// TestClusteringOutput checks what `nagc cluster` prints of a clustering: the options
// given and the defaults, the scores with the values Scores holds, and the JSON's fields
// (the text's columns are compared with their spacing squeezed).
func TestClusteringOutput(t *testing.T) {
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]any{"iterations": 5}
	m, err := algorithms.New("nagc", params)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Cluster(context.Background(), g, m, g.K(), 2)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteText(&b, params); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		fmt.Sprintf("dataset  %s (n=%d, k1=%d)\n", g.Name, g.N(), g.K()),
		"method   nagc, seed 2\n",
		fmt.Sprintf("k2       %d (k1)  (default)\n", g.K()),
		"iterations  5\n",
		fmt.Sprintf("ARI      %.4f\n", c.Scores.ARI),
		fmt.Sprintf("modularity            %.4f\n", c.Scores.Modularity),
		fmt.Sprintf("attribute modularity  %.4f\n", c.Scores.AttrModularity),
		"iterations            5\n",
	} {
		if !strings.Contains(squeeze(text), squeeze(want)) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(squeeze(text), "iterations 5 (default)") {
		t.Errorf("the option given is marked as a default:\n%s", text)
	}
	b.Reset()
	rep := datasets.NewLoadReport(g, "synthetic")
	if err := c.WriteJSON(&b, params, rep); err != nil {
		t.Fatal(err)
	}
	var out ClusteringJSON
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Method != "nagc" || out.K1 != g.K() || out.Seed != 2 || out.Iterations != 5 || out.Metrics["ari"] != c.Scores.ARI ||
		out.Settings["k2"] != float64(g.K()) || out.Params["iterations"] != float64(5) || out.Objective == nil || out.Load == nil {
		t.Errorf("JSON: %s", b.String())
	}
}

// TestClusteringShowsKMeansStarts checks that `nagc cluster` prints the k-means starts a
// fit used where none were given (10 on a small graph, for NAGC's start and sgc-kmeans
// alike), in the text and in the JSON's settings, while the JSON's params list only the
// options given; and that from algorithms.SGCLargeN vertices the text says why one start.
func TestClusteringShowsKMeansStarts(t *testing.T) {
	g, err := datasets.Synthetic(datasets.DefaultSynthetic())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, key string }{{"nagc", "init_n_init"}, {"sgc-kmeans", "n_init"}} {
		params := map[string]any{}
		if c.method == "nagc" {
			params["iterations"] = 3
		}
		m, err := algorithms.New(c.method, params)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := Cluster(context.Background(), g, m, g.K(), 1)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := cl.WriteText(&b, params); err != nil {
			t.Fatal(err)
		}
		if want := c.key + " 10 (default)\n"; !strings.Contains(squeeze(b.String()), want) {
			t.Errorf("%s: text lacks %q:\n%s", c.method, want, b.String())
		}
		out := cl.JSON(params)
		if out.Settings[c.key] != 10 {
			t.Errorf("%s: JSON settings %s = %v, want 10", c.method, c.key, out.Settings[c.key])
		}
		if _, ok := out.Params[c.key]; ok {
			t.Errorf("%s: JSON params list %s, which was not given", c.method, c.key)
		}
	}
	m, _ := algorithms.New("nagc", nil)
	for _, c := range []struct {
		n, starts int
		want      string
	}{
		{algorithms.SGCLargeN, 1, ": one k-means++ start from 1000000 vertices"},
		{algorithms.SGCLargeN - 1, 10, ""},
	} {
		got := defaultWhy(m, algorithms.Setting{Key: "init_n_init", Value: c.starts}, c.n)
		if !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("n = %d, %d starts: default noted %q, want %q…", c.n, c.starts, got, c.want)
		}
	}
}

// squeeze replaces every run of spaces and tabs in s by one space, per line.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
