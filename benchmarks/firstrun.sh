#!/bin/bash
# The first `python3 -m solver [ARG...]` of a fresh copy of ROOT/solver, as a new install
# runs it: no Numba cache (the copy has no __pycache__), no row-table or pool cache (HOME,
# XDG_CACHE_HOME, SOLVER_CACHE_DIR and SOLVER_CACHE point into the copy).
#   Usage: firstrun.sh ROOT [PYTHON [ARG...]]     (PYTHON: that checkout's venv's python3)
# Once the answer is printed, it stops the warm-up process that a first solve leaves
# compiling the kernels of the solves to come (solver._warmup) instead of waiting for it,
# so that a timer of the whole command measures the time to the answer and no run
# overlaps the next; benchmarks/first_run.py times the same, waiting for that process
# untimed.  The answer is checked; a failed run prints its output and fails.
set -e
root=$(cd "$1" && pwd)
python=${2:-python3}
shift; shift || true
d=$(mktemp -d /tmp/firstrun.XXXXXX)
cp -r "$root/solver" "$d/solver"
find "$d/solver" -name __pycache__ -type d -prune -exec rm -rf {} +
cd "$d"
status=0
env -u NUMBA_CACHE_DIR -u SOLVER_QUIET -u PYTHONPATH HOME="$d/home" \
    XDG_CACHE_HOME="$d/home/.cache" SOLVER_CACHE_DIR="$d/tables" SOLVER_CACHE="$d/pool" \
    "$python" -m solver "$@" > "$d/out" 2>&1 || status=$?
# The warm-up process names this copy in its command line (and only this copy's do).
for pid in $(pgrep -f "$d" || true); do kill "$pid" 2> /dev/null || true; done
for _ in $(seq 200); do pgrep -f "$d" > /dev/null || break; sleep 0.01; done
if [ "$status" != 0 ] || ! grep -q "best setting" "$d/out"; then
    cat "$d/out" >&2
    status=1
fi
cd /
rm -rf "$d"
exit "$status"
