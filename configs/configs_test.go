package configs

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestShippedConfigs checks that every experiment config beside this file is embedded
// byte for byte under its name, and nothing else is.
func TestShippedConfigs(t *testing.T) {
	onDisk, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range onDisk {
		name := f[:len(f)-len(".yaml")]
		if slices.Contains(notExperiments, name) { // data, not experiment configs
			continue
		}
		want = append(want, name)
		disk, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{name, name + ".yaml"} {
			got, ok := Lookup(key)
			if !ok || !bytes.Equal(got, disk) {
				t.Errorf("Lookup(%q): found %v, equal to %s %v", key, ok, f, bytes.Equal(got, disk))
			}
		}
	}
	if got := Names(); !slices.Equal(got, want) || !slices.Contains(got, "quick") || !slices.Contains(got, "paper") {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	if disk, err := os.ReadFile("paper-comparison.yaml"); err != nil || !bytes.Equal(disk, PaperComparison) {
		t.Errorf("PaperComparison is not paper-comparison.yaml (%v)", err)
	}
	if disk, err := os.ReadFile("offpaper.yaml"); err != nil || !bytes.Equal(disk, OffPaper) {
		t.Errorf("OffPaper is not offpaper.yaml (%v)", err)
	}
	for _, name := range []string{"published-results", "paper-comparison", "offpaper", "nope", "", "../go"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) found a config", name)
		}
	}
}
