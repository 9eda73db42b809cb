#!/bin/bash
# bench/publish.sh RESULTS.md README.md -- put the results table into the README's
# Performance section, between the bench:begin and bench:end markers
# (run.sh does this after a run; by hand after a run with BENCH_README=0).
set -uo pipefail
res=$1 readme=$2
grep -q '^<!-- bench:begin -->$' "$readme" && grep -q '^<!-- bench:end -->$' "$readme" ||
	{ echo "publish: no bench markers in $readme" >&2; exit 1; }
awk -v res="$res" '
	/^<!-- bench:begin -->$/ { print; while ((getline l < res) > 0) { sub(/^### /, "#### ", l); print l } skip = 1; next }
	/^<!-- bench:end -->$/ { skip = 0 }
	!skip' "$readme" >"$readme.tmp" && mv "$readme.tmp" "$readme"
