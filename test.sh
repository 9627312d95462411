#!/usr/bin/env bash
# The project's test command: installs the non-Go dependency (gpmetis), checks formatting
# and vet, then runs every test. Usage: ./test.sh [extra go test flags]
set -euo pipefail
cd "$(dirname "$0")"
./scripts/install-deps.sh
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
go vet ./...
go test "$@" ./...
