#!/usr/bin/env bash
# Main job. Builds bin/nagc, then runs the paper's whole protocol (configs/paper.yaml) and
# the beyond-the-paper graph-filter rows (configs/filtered.yaml) into results/paper/ when
# the four datasets are found ($NAGC_DATA, default ../shared/datasets),
# else configs/quick.yaml on the built-in synthetic graph into results/quick/. Interrupted
# runs resume where they stopped when run.sh is started again. It ends by printing the
# summary table (best grid point per dataset and method, paper's and label-free rules) and
# rendering the report (RESULTS/REPORT.md with its tables and figures).
#
# Environment: NAGC_DATA (dataset folder), NAGC_WORKERS (parallel runs; default all cores).
set -euo pipefail
cd "$(dirname "$0")"
./scripts/install-deps.sh
mkdir -p bin
go build -o bin/nagc ./cmd/nagc

root="${NAGC_DATA:-../shared/datasets}"
if [ -d "$root/webkb" ] && [ -d "$root/citeseer" ] && [ -d "$root/cora" ] && [ -d "$root/polblog" ]; then
	config=configs/paper.yaml results=results/paper extra=configs/filtered.yaml
else
	echo "run.sh: the four datasets are not under $root; running configs/quick.yaml on the synthetic graph" >&2
	config=configs/quick.yaml results=results/quick extra=
fi

bin/nagc datasets stats $( [ "$config" = configs/quick.yaml ] && echo synthetic )
bin/nagc run "$config" --results "$results" --workers "${NAGC_WORKERS:-0}"
if [ -n "$extra" ]; then
	bin/nagc run "$extra" --results "$results" --workers "${NAGC_WORKERS:-0}"
fi
bin/nagc results summary "$results"
bin/nagc report "$results" --out "$results"
if [ -n "$extra" ]; then
	# The same tables under the second label-free rule (graph + attribute modularity).
	bin/nagc report "$results" --rule two-view --out "$results/two-view" --figures none --formats md,csv
	# And under edge cross-validation (configs/filtered.yaml's held-out fits; its rows only).
	bin/nagc report "$results" --rule heldout --out "$results/heldout" --figures none --formats md,csv
fi
