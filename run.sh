#!/usr/bin/env bash
# Main job. Builds bin/nagc, then runs the paper's whole protocol (configs/paper.yaml), the
# beyond-the-paper graph-filter rows (configs/filtered.yaml), the systems the paper
# discusses but leaves out of its table (configs/discussed.yaml) and the paper's runtime
# protocol (configs/timing.yaml: its four runtime rows timed one fit at a time, which the
# report's runtime table reads) into results/paper/ when
# the four datasets are found (`bin/nagc datasets where`: $NAGC_DATA, the download folder of
# `nagc datasets fetch`, ../shared/datasets beside the checkout),
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
# -buildvcs=auto: stamp the commit into the binary for provenance even where GOFLAGS turns it off.
go build -buildvcs=auto -o bin/nagc ./cmd/nagc

if bin/nagc datasets where webkb citeseer cora polblog >/dev/null 2>&1; then
	config=configs/paper.yaml results=results/paper extra=configs/filtered.yaml timing=configs/timing.yaml
else
	echo "run.sh: the paper's four datasets were not found (bin/nagc datasets where says where it looked;" >&2
	echo "run.sh: bin/nagc datasets fetch all downloads them); running configs/quick.yaml on the synthetic graph" >&2
	config=configs/quick.yaml results=results/quick extra= timing=
fi

bin/nagc datasets stats $( [ "$config" = configs/quick.yaml ] && echo synthetic )
bin/nagc run "$config" --results "$results" --workers "${NAGC_WORKERS:-0}"
if [ -n "$extra" ]; then
	bin/nagc run "$extra" --results "$results" --workers "${NAGC_WORKERS:-0}"
	# The systems the paper discusses but leaves out of its table (SA-Cluster, Inc-Cluster,
	# PAICAN, our clustering BAGC): rows beside the ARI table.
	bin/nagc run configs/discussed.yaml --results "$results" --workers "${NAGC_WORKERS:-0}"
fi
if [ -n "$timing" ]; then
	# After the sweeps, so that none of their runs competes with a fit being timed; it runs
	# one fit at a time whatever NAGC_WORKERS says (under a minute).
	bin/nagc run "$timing" --results "$results"
fi
bin/nagc results summary "$results"
bin/nagc report "$results" --out "$results"
if [ -n "$extra" ]; then
	# The same tables under the second label-free rule (graph + attribute modularity).
	bin/nagc report "$results" --rule two-view --out "$results/two-view" --figures none --formats md,csv
	# And under edge cross-validation (configs/filtered.yaml's held-out fits; its rows only).
	bin/nagc report "$results" --rule heldout --out "$results/heldout" --figures none --formats md,csv
fi
