package experiments

import "testing"

// TestShortName checks the name a config gives its default results folder and jobs.
func TestShortName(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"paper", "configs/paper.yaml", "paper"},
		{"", "my/sweep.yaml", "sweep"},
		{"", "sweep.yml", "sweep"},
		{"", "quick.yaml" + builtInSuffix, "quick"},
	} {
		if got := (&Config{Name: tc.name, File: tc.file}).ShortName(); got != tc.want {
			t.Errorf("name %q, file %q: %q, want %q", tc.name, tc.file, got, tc.want)
		}
	}
}
