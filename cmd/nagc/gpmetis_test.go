package main

import (
	"strings"
	"testing"

	"github.com/nagc-harness/nagc/algorithms"
	"github.com/nagc-harness/nagc/internal/testenv"
)

// gpmetisHint is how to get gpmetis, for testenv.Missing.
const gpmetisHint = "./scripts/install-deps.sh installs it (Debian/Ubuntu package metis), or set NAGC_GPMETIS"

// requireGPMetis skips t (fails it under NAGC_REQUIRE_DATA=1) where gpmetis cannot be run.
func requireGPMetis(t *testing.T) {
	t.Helper()
	if _, err := algorithms.GPMetisPath(); err != nil {
		testenv.Missing(t, "METIS's gpmetis", gpmetisHint)
	}
}

// failedForGPMetis reports whether out, the output of a command that failed, holds the
// error of a missing gpmetis (its text up to the install hint) on a machine without one.
func failedForGPMetis(out string) bool {
	_, err := algorithms.GPMetisPath()
	if err == nil {
		return false
	}
	short, _, _ := strings.Cut(err.Error(), ";")
	return strings.Contains(out, short)
}
