#!/usr/bin/env bash
# The project's test command: installs the non-Go dependency (gpmetis), checks formatting
# and vet, then runs every test through gotestsum (a go.mod tool: `go tool gotestsum`),
# which ends with a list of the skipped tests and why each was skipped.
#
# Tests that need the paper's datasets or the shared folder are skipped where those are
# missing (a fresh clone), each saying what is missing and how to get it; with
# NAGC_REQUIRE_DATA=1 (set by the project's CI, .ci/run) they fail instead.
#
# Usage: ./test.sh [extra go test flags, e.g. -short or -run Name]
set -euo pipefail
cd "$(dirname "$0")"
if ! ./scripts/install-deps.sh; then
	# Without gpmetis the METIS tests skip (or fail under NAGC_REQUIRE_DATA=1).
	echo "test.sh: could not install METIS's gpmetis; the tests that need it will say so" >&2
fi
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
go vet ./...
go tool gotestsum --format standard-quiet -- "$@" ./...
