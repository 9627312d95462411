// Package testenv decides what a test does when something the full test suite needs is not
// on the machine: the paper's datasets, the project's shared folder, or METIS's gpmetis.
//
// By default such a test is skipped with one line saying what is missing and how to get
// it, so that ./test.sh passes in a fresh clone with no data. Where the variable
// NAGC_REQUIRE_DATA is set to 1 (the project's CI sets it), the test fails instead, so
// that a missing dataset can never turn a CI run green by skipping.
package testenv

import (
	"os"
	"strconv"
	"testing"
)

// RequireVar is the environment variable that turns skips for missing data into failures.
const RequireVar = "NAGC_REQUIRE_DATA"

// Required reports whether RequireVar is set to a true value ("1", "true", …, as
// strconv.ParseBool reads it).
func Required() bool {
	v, err := strconv.ParseBool(os.Getenv(RequireVar))
	return err == nil && v
}

// Missing ends tb because what is not on this machine: it skips with a line naming what is
// missing and how to get it, or fails with that line when Required. It never returns.
func Missing(tb testing.TB, what, how string) {
	tb.Helper()
	if Required() {
		tb.Fatalf("%s is missing (%s=1 requires it): %s", what, RequireVar, how)
		return
	}
	tb.Skipf("%s is missing; %s (skipped; set %s=1 to fail instead)", what, how, RequireVar)
}

// FetchHint is how to get the paper's four datasets, for Missing.
const FetchHint = "get the paper's datasets with `nagc datasets fetch all` (or point NAGC_DATA at a folder holding them)"
