#!/bin/bash
# The first `python3 -m solver` of a fresh copy of ROOT/solver, as a new install runs it:
# no Numba cache, no row-table cache.  Usage: firstrun.sh ROOT [PYTHON]
# It then waits for the warm-up process the first solve leaves compiling into the copy
# (for a second or two: solver._warmup) before removing it, so that runs do not overlap;
# a whole-command timer (farm-bench) counts that wait too: benchmarks/first_run.py times
# first runs until the command returns.
set -e
d=$(mktemp -d)
cp -r "$1/solver" "$d/solver"
find "$d/solver" -name __pycache__ -type d -prune -exec rm -rf {} +
cd "$d"
SOLVER_CACHE_DIR="$d/tables" "${2:-python3}" -m solver > /dev/null 2>&1
for _ in $(seq 1200); do pgrep -f "$d" > /dev/null || break; sleep 0.05; done
cd /
rm -rf "$d"
