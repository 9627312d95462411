package experiments

import (
	"testing"
	"unicode/utf8"

	"github.com/nagc-harness/nagc/configs"
)

func TestLeadingComment(t *testing.T) {
	long := "# A very long description that goes on and on without a full stop and keeps going past the limit of one hundred characters\nname: x\n"
	for _, tc := range []struct{ raw, want string }{
		{"# First sentence. Second one.\n# more\nname: x\n", "First sentence."},
		{"# Joined\n#   over lines.\n\nname: x\n", "Joined over lines."},
		{"name: x\n# not leading\n", ""},
		{"# Version 1.2 is no stop.\n", "Version 1.2 is no stop."},
	} {
		if got := leadingComment([]byte(tc.raw)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.raw, got, tc.want)
		}
	}
	if got := leadingComment([]byte(long)); utf8.RuneCountInString(got) != 100 || got[len(got)-len("…"):] != "…" {
		t.Errorf("long comment: %q (%d runes), want 99 runes and …", got, utf8.RuneCountInString(got))
	}
}

func TestShippedConfigs(t *testing.T) {
	got := ShippedConfigs()
	if len(got) != len(configs.Names()) || len(got) == 0 {
		t.Fatalf("%d shipped configs, want %d", len(got), len(configs.Names()))
	}
	for _, c := range got {
		if c.Description == "" {
			t.Errorf("%s has no description (a leading comment)", c.Name)
		}
	}
}
