#!/bin/bash
# The first `python3 -m solver` of a fresh copy of ROOT/solver, as a new install runs it:
# no Numba cache, no row-table cache.  Usage: firstrun.sh ROOT [PYTHON]
set -e
d=$(mktemp -d)
cp -r "$1/solver" "$d/solver"
find "$d/solver" -name __pycache__ -type d -prune -exec rm -rf {} +
cd "$d"
SOLVER_CACHE_DIR="$d/tables" "${2:-python3}" -m solver > /dev/null 2>&1
rm -rf "$d"
