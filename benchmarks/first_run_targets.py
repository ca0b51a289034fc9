"""The first-run figures of two checkouts side by side, in one command: a base (main
before a change) and this one, each figure a median of ``-n`` pairs run in turn (base,
this) and the median of the pair-by-pair ratios this / base, with the machine's load
average (1 minute) when the set started and ended.  Every run starts from a fresh copy
of the checkout's package with every cache empty (as benchmarks/first_run.py: Numba's,
the row tables', the pools'), and the copy's leftover processes (a first solve's warm-up,
still compiling for the solves to come) are waited for before the next run starts,
unless the figure is about them.

    git worktree add /tmp/base COMMIT      # (or any checkout of the base)
    python3 benchmarks/first_run_targets.py /tmp/base [-n 5] [--no-speed]

The figures (the first run's targets; benchmarks/README.md, "The first run", has them):

1. ``quiet``: the first ``python3 -m solver`` (a ``joker`` hand), wall seconds to the
   answer, with nothing else of ours running.
2. ``busy``: the same with one core's worth of other work (a process spinning at normal
   priority) for the whole run.
3. ``second``: a first ``--rules classic`` after that first run (a rule set of another
   kind: another hand size and scoring), its seconds, and ``second - warm``: what it
   takes more than the same command once everything is cached.
4. ``json at once``: ``--rules classic --json`` started as soon as the first ``--rules
   classic`` returned (its leftover process still at work): the kernels that process
   compiled itself (the target is none) and its seconds.
5. the warm speed (without ``--no-speed``): compare_solve.py and compare_quick_set.py
   --timing, each also as a null run (the base against itself) for the noise.
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

import first_run

HERE = Path(__file__).resolve().parent
CLASSIC = ["--rules", "classic"]


class Copy:
    """A fresh copy of a checkout's package with every cache empty, each compile of its
    processes logged (first_run.COMPILE_LOGGER)."""

    def __init__(self, root: Path):
        self.work = Path(tempfile.mkdtemp(prefix="first-run-targets-"))
        shutil.copytree(root / "solver", self.work / "solver",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (self.work / "hook").mkdir()
        (self.work / "hook" / "sitecustomize.py").write_text(first_run.COMPILE_LOGGER)
        self.log = self.work / "compiles.log"
        self.log.write_text("")
        self.env = first_run.fresh_env(self.work)
        self.env.update(PYTHONPATH=str(self.work / "hook"), FIRST_RUN_LOG=str(self.log))

    def run(self, args, wait: bool = True) -> "tuple[float, int]":
        """``python3 -m solver ARGS``: its wall seconds, and how many kernels its own
        process compiled (the solver's, not the ones compiled inside them); with
        ``wait``, then waits for whatever the copy left running."""
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "solver", *args], cwd=self.work,
                                   env=self.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        out, err = process.communicate()
        seconds = time.perf_counter() - start
        if process.returncode != 0:
            raise SystemExit(f"{args}: failed\n{out}\n{err}")
        compiled = sum(1 for line in self.log.read_text().splitlines()
                       if line.split("\t")[0] == str(process.pid)
                       and line.split("\t")[1] == "0" and line.split("\t")[2].startswith("solver."))
        if wait:
            first_run.wait_until_unused(self.work)
        return seconds, compiled

    def close(self) -> None:
        first_run.wait_until_unused(self.work)
        shutil.rmtree(self.work, ignore_errors=True)


def quiet(root: Path) -> dict:
    copy = Copy(root)
    try:
        return {"quiet": copy.run([])[0]}
    finally:
        copy.close()


def busy(root: Path) -> dict:
    copy = Copy(root)
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        return {"busy": copy.run([], wait=False)[0]}
    finally:
        spinner.kill()
        spinner.wait()
        copy.close()


def second(root: Path) -> dict:
    copy = Copy(root)
    try:
        copy.run([])
        first, _ = copy.run(CLASSIC, wait=False)
        json_seconds, json_compiled = copy.run(CLASSIC + ["--json"], wait=True)
        warm, _ = copy.run(CLASSIC)
        return {"second": first, "second - warm": first - warm, "warm classic": warm,
                "json at once": json_seconds, "json compiles": json_compiled}
    finally:
        copy.close()


def compare(base: Path, this: Path, runs: int, measure, label: str) -> None:
    """``measure`` (a function of a checkout: its figures) on base and this in turn."""
    figures = {base: [], this: []}
    load = os.getloadavg()[0]
    for i in range(runs):
        for root in (base, this) if i % 2 == 0 else (this, base):
            figures[root].append(measure(root))
        print(f"  {label} {i + 1}: base {_said(figures[base][-1])}; this "
              f"{_said(figures[this][-1])}", flush=True)
    print(f"{label}: load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    for key in figures[base][0]:
        b = [f[key] for f in figures[base]]
        t = [f[key] for f in figures[this]]
        ratios = [y / x for x, y in zip(b, t) if x > 0]
        ratio = (f"; this / base, pair by pair: median {statistics.median(ratios):.2f} "
                 f"({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "")
        print(f"  {key:14s} base median {statistics.median(b):6.2f} ({min(b):.2f}-{max(b):.2f})"
              f"   this median {statistics.median(t):6.2f} ({min(t):.2f}-{max(t):.2f}){ratio}",
              flush=True)


def _said(figures: dict) -> str:
    return ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                     for k, v in figures.items())


def speed(base: Path, this: Path) -> None:
    """The warm speed: compare_solve.py and compare_quick_set.py --timing, base against
    this and base against itself (the null run), from fresh extracts of the packages."""
    work = Path(tempfile.mkdtemp(prefix="first-run-speed-"))
    try:
        for name, root in (("base", base), ("this", this)):
            shutil.copytree(root / "solver", work / name / "solver",
                            ignore=shutil.ignore_patterns("__pycache__"))
            shutil.copytree(root / "solver", work / f"{name}-qs" / "solver_old",
                            ignore=shutil.ignore_patterns("__pycache__"))
        for title, old, new in (("null run: base against base", "base", base),
                                ("base against this", "base", this)):
            print(f"compare_solve.py, {title}: load average {os.getloadavg()[0]:.1f}",
                  flush=True)
            # No warm-up process: while one compiles, a fresh process runs the search as
            # Python (solver._jit.runnable), which is not the warm speed.
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(new), str(HERE)]),
                       SOLVER_WARMUP="0", SOLVER_QUIET="1")
            subprocess.run([sys.executable, str(HERE / "compare_solve.py"),
                            str(work / old), "40", "3"], cwd=HERE, env=env, check=True)
            print(f"compare_quick_set.py --timing, {title}: load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
            subprocess.run([sys.executable, str(HERE / "compare_quick_set.py"), "--old",
                            str(work / f"{old}-qs"), "--hands", "0", "--timing"],
                           cwd=new, env=dict(env, PYTHONPATH=str(new)), check=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="the base checkout (main before the change)")
    parser.add_argument("--this", type=Path, default=HERE.parent,
                        help="the checkout measured (default: this one)")
    parser.add_argument("-n", type=int, default=5, help="pairs of each figure (default 5)")
    parser.add_argument("--no-speed", action="store_true", help="skip the warm speed")
    parser.add_argument("--only", choices=("quiet", "busy", "second", "speed"), nargs="+",
                        help="these figures alone")
    args = parser.parse_args()
    base, this = args.base.resolve(), args.this.resolve()
    only = set(args.only or ("quiet", "busy", "second", "speed"))
    print(f"base {base}, this {this}, {os.cpu_count()} cores", flush=True)
    for label, measure in (("quiet", quiet), ("busy", busy), ("second", second)):
        if label in only:
            compare(base, this, args.n, measure, label)
    if "speed" in only and not args.no_speed:
        speed(base, this)


if __name__ == "__main__":
    main()
