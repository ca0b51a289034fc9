"""The first ``python3 -m solver`` of two checkouts in turn, as a new install runs it
(a fresh copy of the package: no Numba cache, no row-table cache), timed until the
command returns with its answer; then, before the next run starts, it waits for any
process still compiling into that copy (a first solve leaves the other process compiling
the search and the description of the answer for the solves to come, for a second or so
after it returns: see solver._warmup), so that runs do not overlap.  ``farm-bench``
times whole commands, so it would count that wait; this script does not.

    mkdir /tmp/solver-old && git archive cb507a9 solver | tar -x -C /tmp/solver-old
    python3 benchmarks/first_run.py /tmp/solver-old . [-n 7] [--rules classic]

Prints each run, then per checkout the median wall time (min-max) and the median of the
pair-by-pair ratios (second / first).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def first_run(root: Path, rules: "str | None") -> float:
    """Seconds from the start of ``python3 -m solver`` in a fresh copy of root/solver
    until it returns (its output checked), after which the copy's leftover processes
    are waited for and the copy removed."""
    work = Path(tempfile.mkdtemp(prefix="first-run-"))
    try:
        shutil.copytree(root / "solver", work / "solver",
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = dict(os.environ, SOLVER_CACHE_DIR=str(work / "tables"))
        env.pop("NUMBA_CACHE_DIR", None)
        command = [sys.executable, "-m", "solver"] + (["--rules", rules] if rules else [])
        start = time.perf_counter()
        run = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if run.returncode != 0 or "best setting" not in run.stdout:
            raise SystemExit(f"{root}: the first run failed:\n{run.stdout}\n{run.stderr}")
        wait_until_unused(work)
        return seconds
    finally:
        shutil.rmtree(work, ignore_errors=True)


def wait_until_unused(folder, limit: float = 120.0) -> None:
    """Wait (at most ``limit`` seconds) until no process names ``folder`` in its command
    line or its environment: the warm-up process of a first solve is started with its
    package's path in its command, and inherits the caches' folders (NUMBA_CACHE_DIR,
    SOLVER_CACHE_DIR) in its environment.  Linux (/proc)."""
    end = time.monotonic() + limit
    while time.monotonic() < end and _named_by_a_process(str(folder)):
        time.sleep(0.05)


def _named_by_a_process(folder: str) -> bool:
    for proc in Path("/proc").glob("[0-9]*"):
        for name in ("cmdline", "environ"):
            try:
                if folder.encode() in (proc / name).read_bytes():
                    return True
            except OSError:
                pass                  # a process that ended meanwhile, or not ours
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("-n", type=int, default=7, help="runs of each (default 7)")
    parser.add_argument("--rules", help="rule set (default: python -m solver's)")
    args = parser.parse_args()
    times: dict = {args.first: [], args.second: []}
    for i in range(args.n):
        for root in (args.first, args.second):
            times[root].append(first_run(root.resolve(), args.rules))
            print(f"run {i + 1}: {root} {times[root][-1]:.2f} s", flush=True)
    for root, t in times.items():
        print(f"{root}: median {statistics.median(t):.2f} s ({min(t):.2f}-{max(t):.2f})")
    ratios = [b / a for a, b in zip(times[args.first], times[args.second])]
    print(f"second / first, pair by pair: median {statistics.median(ratios):.3f} "
          f"({min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
