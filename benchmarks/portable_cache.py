"""Warm speed of portable kernel entries (``python3 -m solver warm --portable``: compiled
for the generic processor of this architecture) against native ones: two fresh copies of
the package (every cache empty, as benchmarks/first_run.py makes them), one warmed with
``warm --portable``, one with ``warm``, for ``classic`` and ``joker``; then the default
solve of 40 seeded hands at four seats of each, timed in a process of each copy in turn
(the order swapped each round), one Numba thread: the median time a hand, and the median
of the pair-by-pair ratios portable / native.  The entries each copy holds are counted at
the end: a copy that compiled kernels of its own while timed would hold more.

    python3 benchmarks/portable_cache.py [rounds]

With ``--first-run [rounds]``, the gain instead: a copy warmed with ``warm --rules joker
--portable`` stands for a cache built on another machine, and the first ``python3 -m
solver`` of a fresh copy of the package (another folder, its files' times new, every
other cache empty, as benchmarks/first_run.py makes it) that starts with that copy's
compiled kernels is timed against one that starts with none, in turn: medians and the
pair-by-pair ratio.  (The entries are found by what they hold, not by where the package
lies or when its files were written: solver._jit.KernelCache.)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import first_run  # noqa: E402

ROOT = HERE.parent
RULES = ["classic", "joker"]

# Run in a process of each copy: the first solve of each rule set (loading its entries),
# then the median of the next 40.
TIMER = r'''
import json, statistics, sys, time
import numba
numba.set_num_threads(1)
sys.path.insert(0, %r)
import solver
from test_speed_bench import _hands
out = {}
for rules in %r:
    hands, cut = _hands(rules, 41)
    t = time.perf_counter()
    solver.solve(hands[0], rules, cut, players=4)
    first = time.perf_counter() - t
    times = []
    for hand in hands[1:]:
        t = time.perf_counter()
        solver.solve(hand, rules, cut, players=4)
        times.append(time.perf_counter() - t)
    out[rules] = (first, statistics.median(times))
print(json.dumps(out))
''' % (str(HERE), RULES)


def fresh_copy(kind: str, rules=RULES):
    """A copy of the package with every cache empty, warmed as ``kind`` says for
    ``rules``."""
    work = Path(tempfile.mkdtemp(prefix=f"portable-cache-{kind}-"))
    shutil.copytree(ROOT / "solver", work / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = first_run.fresh_env(work)
    env["PYTHONPATH"] = str(work)
    args = [sys.executable, "-m", "solver", "warm", "--rules", *rules]
    if kind == "portable":
        args.append("--portable")
    start = time.perf_counter()
    done = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True)
    print(f"{kind}: warm in {time.perf_counter() - start:.1f} s, exit {done.returncode}: "
          f"{done.stdout.strip().splitlines()[-1]}", flush=True)
    return work, dict(env, SOLVER_WARMUP="0")


def main(rounds: int) -> None:
    copies = {kind: fresh_copy(kind) for kind in ("portable", "native")}
    results = {kind: [] for kind in copies}
    for r in range(rounds):
        for kind in (("portable", "native") if r % 2 == 0 else ("native", "portable")):
            work, env = copies[kind]
            done = subprocess.run([sys.executable, "-c", TIMER], cwd=work, env=env,
                                  capture_output=True, text=True, check=True)
            results[kind].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(r, kind, results[kind][-1], flush=True)
    for rules in RULES:
        p = statistics.median(x[rules][1] for x in results["portable"])
        n = statistics.median(x[rules][1] for x in results["native"])
        ratios = [a[rules][1] / b[rules][1]
                  for a, b in zip(results["portable"], results["native"])]
        print(f"{rules}, 4 seats, the default solve: portable {p * 1000:.2f} ms, native "
              f"{n * 1000:.2f} ms a hand; portable / native pair by pair: median "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    for kind, (work, _) in copies.items():
        entries = [n for n in os.listdir(work / "solver" / "__pycache__") if n.endswith(".nbc")]
        print(f"{kind}: {len(entries)} entries on disk")


def first_runs(rounds: int) -> None:
    """The first run's gain from a portable cache built elsewhere (the docstring)."""
    built, _ = fresh_copy("portable", ["joker"])
    times = {"with the portable cache": [], "empty": []}
    for r in range(rounds):
        order = list(times) if r % 2 == 0 else list(times)[::-1]
        for kind in order:
            source = built if kind == "with the portable cache" else None
            times[kind].append(first_run.first_run(ROOT, None, kernels_from=source))
            print(r, kind, f"{times[kind][-1]:.2f} s", flush=True)
    for kind, t in times.items():
        print(f"first python3 -m solver, {kind}: median {statistics.median(t):.2f} s "
              f"({min(t):.2f}-{max(t):.2f})")
    ratios = [a / b for a, b in zip(*times.values())]
    print(f"with / empty, pair by pair: median {statistics.median(ratios):.2f} "
          f"({min(ratios):.2f}-{max(ratios):.2f}), {rounds} rounds, load average "
          f"{os.getloadavg()[0]:.1f} now")
    shutil.rmtree(built, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--first-run":
        first_runs(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
