package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResultsSummaryHeldOut runs two sweeps into one folder, one with held-out fits and
// one without, and checks that the summary under the heldout rule selects the first and
// says the second has no held-out score, under both the summary and the report.
func TestResultsSummaryHeldOut(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	for name, text := range map[string]string{
		"with.yaml":    "datasets: [synthetic]\nrestarts: 2\nholdout: 0.2\nmethods:\n  - name: KM\n    algorithm: kmeans\n    grid:\n      n_init: [1, 3]\n",
		"without.yaml": "datasets: [synthetic]\nmethods:\n  - name: SNMF\n    algorithm: snmf\n    options: {iterations: 5}\n",
	} {
		cfg := filepath.Join(dir, name)
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"run", cfg, "--results", results, "--workers", "2"}, &out, &errb); code != 0 {
			t.Fatalf("run %s: exit %d: %s", name, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"results", "summary", results, "--rule", "heldout"}, &out, &errb); code != 0 {
		t.Fatalf("summary: exit %d: %s", code, errb.String())
	}
	lines := strings.Split(out.String(), "\n")
	var km []string
	var snmf string
	for _, l := range lines {
		switch {
		case strings.Contains(l, "KM"):
			km = append(km, l)
		case strings.Contains(l, "SNMF") && strings.Contains(l, "heldout (label-free)"):
			snmf = l
		}
	}
	if !strings.Contains(snmf, "no heldout_modularity") {
		t.Errorf("SNMF row %q: want it to say it has no held-out score", snmf)
	}
	if len(km) != 2 || !strings.Contains(km[0], "n_init=") || !strings.Contains(km[1], "n_init=") {
		t.Errorf("KM rows %q: want a grid point under both rules", km)
	}
	report := filepath.Join(dir, "report")
	if code := run(context.Background(), []string{"report", results, "--rule", "heldout", "--out", report, "--figures", "none", "--formats", "md"}, &out, &errb); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errb.String())
	}
	// The rows table sits on the dataset's page (sweep_synthetic.md), which REPORT.md links.
	b, err := os.ReadFile(filepath.Join(report, "sweep_synthetic.md"))
	if err != nil || !strings.Contains(string(b), "no held-out fit recorded") {
		t.Errorf("report under heldout: %v; want the missing held-out fit explained on the dataset's page", err)
	}
}

// TestReportOwnSweep runs a sweep with freely named rows and no compare key, and checks
// that `report --paper none` writes a report of the sweep alone, and that the summary
// names the label-reading rule as such in every format.
func TestReportOwnSweep(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	cfg := filepath.Join(dir, "own.yaml")
	text := "name: own\ndatasets: [synthetic]\nmethods:\n  - name: my-km\n    algorithm: kmeans\n    grid:\n      n_init: [1, 2]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"run", cfg, "--results", results, "--workers", "1"}, &out, &errb); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errb.String())
	}
	rep := filepath.Join(dir, "report")
	if code := run(context.Background(), []string{"report", results, "--paper", "none", "--out", rep, "--figures", "none"}, &out, &errb); code != 0 {
		t.Fatalf("report --paper none: exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(rep, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	if md := string(b); !strings.HasPrefix(md, "# Sweep report: own\n") || strings.Contains(md, "Prop.") {
		t.Errorf("REPORT.md of a sweep alone:\n%.400s", md)
	}
	for _, format := range []string{"text", "csv", "json"} {
		out.Reset()
		if code := run(context.Background(), []string{"results", "summary", results, "--rule", "ari", "--format", format}, &out, &errb); code != 0 {
			t.Fatalf("summary --format %s: exit %d: %s", format, code, errb.String())
		}
		if s := out.String(); strings.Contains(s, "label-free") || !strings.Contains(s, "my-km") {
			t.Errorf("summary --rule ari --format %s:\n%s", format, s)
		}
	}
}
