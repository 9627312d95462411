package main

import (
	"strings"
	"testing"
)

// TestBadOptions checks that a bad command-line option is reported in the user's words
// (the option as typed, what is wrong, the nearest known option), followed by the usage,
// with exit code 2, and never in the flag package's wording.
func TestBadOptions(t *testing.T) {
	for _, test := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "quick", "--worker", "2"}, "nagc run: unknown option --worker (did you mean --workers?)"},
		{[]string{"cluster", "--feature_layout", "sparse"}, "unknown option --feature_layout (did you mean --feature-layout?)"},
		{[]string{"cluster", "--label-file", "l.csv"}, "unknown option --label-file (did you mean --labels FILE?)"},
		{[]string{"cluster", "--zzzzzzzz"}, "unknown option --zzzzzzzz (the options are listed below)"},
		{[]string{"cluster", "--k1", "x"}, `nagc cluster: --k1 "x": want a whole number`},
		{[]string{"cluster", "--lambda", "1e-3x"}, `--lambda "1e-3x": want a number`},
		{[]string{"cluster", "--json=yes please"}, `--json "yes please": want true or false (or --json alone for true)`},
		{[]string{"cluster", "--opt", "lambda"}, `--opt "lambda": want key=value`},
		{[]string{"cluster", "--data"}, "--data needs a value (--data VALUE)"},
		{[]string{"run", "---x"}, `bad option "---x": write --name or --name=value`},
	} {
		code, _, stderr := cli(t, test.args...)
		if code != exitUsage || !strings.HasPrefix(stderr, "nagc ") || !strings.Contains(stderr, test.want) || !strings.Contains(stderr, "usage: nagc ") {
			t.Errorf("nagc %s: exit %d, stderr %q; want exit %d, %q and the usage", strings.Join(test.args, " "), code, stderr, exitUsage, test.want)
		}
		for _, goWords := range []string{"flag provided", "parse error", "for flag", "flag needs"} {
			if strings.Contains(stderr, goWords) {
				t.Errorf("nagc %s: stderr %q has the flag package's wording %q", strings.Join(test.args, " "), stderr, goWords)
			}
		}
	}
}

// TestUnknownCommand checks that a misspelt command is named with the nearest command,
// followed by the list of commands, with exit code 2.
func TestUnknownCommand(t *testing.T) {
	for _, test := range []struct{ cmd, want string }{
		{"clustr", `nagc: unknown command "clustr" (did you mean 'cluster'?)`},
		{"reprot", `nagc: unknown command "reprot" (did you mean 'report'?)`},
		{"zzzzzzzz", "nagc: unknown command \"zzzzzzzz\"\n"},
	} {
		code, _, stderr := cli(t, test.cmd)
		if code != exitUsage || !strings.HasPrefix(stderr, test.want) || !strings.Contains(stderr, "Commands:") ||
			!strings.Contains(stderr, "nagc datasets stats|fetch|where|synth") {
			t.Errorf("nagc %s: exit %d, stderr %q; want exit %d, %q and the commands", test.cmd, code, stderr, exitUsage, test.want)
		}
	}
}
