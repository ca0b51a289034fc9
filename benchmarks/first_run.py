"""The first ``python3 -m solver`` of two checkouts in turn, as a new install runs it
(a fresh copy of the package: no Numba cache, no row-table cache), timed until the
command returns with its answer; then, before the next run starts, it waits for any
process still compiling into that copy (a first solve leaves the other process compiling
the search and the description of the answer for the solves to come, at the lowest
priority, for seconds after it returns, minutes on a busy machine: see solver._warmup),
so that runs do not overlap.  A timer of whole commands would count that wait (so
benchmarks/firstrun.sh stops that process instead); this script does not.  Every cache
starts empty: Numba's (the copy has no ``__pycache__``), the row tables' and the pools'
(HOME, XDG_CACHE_HOME and SOLVER_CACHE_DIR point into the copy).

    mkdir /tmp/solver-old && git archive cb507a9 solver | tar -x -C /tmp/solver-old
    python3 benchmarks/first_run.py /tmp/solver-old . [-n 7] [--rules classic]
    python3 benchmarks/first_run.py --kernels . [-n 3] [--rules classic]
    python3 benchmarks/first_run.py --timeline . [-n 1] [--rules classic]

Prints each run, then per checkout the median wall time (min-max) and the median of the
pair-by-pair ratios (second / first).  With ``--kernels``, one checkout's first runs
instead, and what each kernel's compile cost in each process (the solving one and the
warm-up one): its seconds from Numba's start to its end, and its own share without the
kernels compiled inside it (a kernel's callees compile first, as part of it), in wall
time and in processor time (its thread's: what a quiet machine would take, about),
medians over the runs, and each process's processor time spent compiling; a kernel
loaded from the disk cache is not a compile and is not listed.  With ``--timeline``,
each first run's compiles in the order they started, which process did each (P1 the
solving one, P2 its warm-up process) and when it started and ended, in seconds from the
start of the command.
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


# Loaded by every Python process of a --kernels run (PYTHONPATH): a listener of Numba's
# compile events (fired only when a kernel is really compiled, not loaded from the disk
# cache) that appends one line a compile to $FIRST_RUN_LOG.
COMPILE_LOGGER = r"""
import os, time
if os.environ.get("FIRST_RUN_LOG"):
    from numba.core import event

    class _CompileLog(event.Listener):
        starts = []

        def on_start(self, e):
            self.starts.append((time.perf_counter(), time.thread_time()))

        def on_end(self, e):
            start, cpu = self.starts.pop()
            f = e.data["dispatcher"].py_func
            with open(os.environ["FIRST_RUN_LOG"], "a") as log:
                log.write(f"{os.getpid()}\t{len(self.starts)}\t{f.__module__}."
                          f"{f.__qualname__.replace('.<locals>', '')}\t{start:.4f}\t"
                          f"{time.perf_counter():.4f}\t{time.thread_time() - cpu:.4f}\n")

    event.register("numba:compile", _CompileLog())
"""


def fresh_env(work: Path) -> dict:
    """The environment of a first run in ``work``: every cache of the solver's in the
    folder (the row tables, the pools, anything under HOME), none set elsewhere."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "SOLVER_QUIET", "PYTHONPATH", "SOLVER_CACHE",
                        "SOLVER_WARMUP", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    env.update(HOME=str(work / "home"), XDG_CACHE_HOME=str(work / "home" / ".cache"),
               SOLVER_CACHE_DIR=str(work / "tables"))
    return env


def first_run(root: Path, rules: "str | None", log: "Path | None" = None,
              kernels_from: "Path | None" = None) -> float:
    """Seconds from the start of ``python3 -m solver`` in a fresh copy of root/solver
    until it returns (its output checked), after which the copy's leftover processes
    are waited for and the copy removed.  With ``log``, every compile of the run (its
    processes' lines of :data:`COMPILE_LOGGER`) is appended to that file.  With
    ``kernels_from`` (a folder holding a ``solver`` package whose kernels were compiled),
    the copy starts with that package's compiled kernels (:func:`copy_kernels`) and no
    other cache."""
    work = Path(tempfile.mkdtemp(prefix="first-run-"))
    try:
        shutil.copytree(root / "solver", work / "solver",
                        ignore=shutil.ignore_patterns("__pycache__"))
        if kernels_from is not None:
            copy_kernels(kernels_from / "solver", work / "solver")
        env = fresh_env(work)
        if log is not None:
            (work / "hook").mkdir()
            (work / "hook" / "sitecustomize.py").write_text(COMPILE_LOGGER)
            env.update(PYTHONPATH=str(work / "hook"), FIRST_RUN_LOG=str(log))
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


def copy_kernels(package: Path, into: Path) -> int:
    """Copy the compiled-kernel entries of ``package`` (``*.nbc`` in its ``__pycache__``
    folders) and the digest of the sources they were compiled from
    (``numba-sources.sha256``: without it the package deletes every entry as stale,
    solver._jit) into the same places of the package ``into``; the entries copied."""
    count = 0
    for cache in package.rglob("__pycache__"):
        for entry in (*cache.glob("*.nbc"), *cache.glob("numba-sources.sha256")):
            target = into / entry.relative_to(package)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(entry, target)
            count += entry.suffix == ".nbc"
    return count


def wait_until_unused(folder, limit: float = 600.0) -> None:
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


def logged_run(root: Path, rules: "str | None") -> "tuple[float, float, list]":
    """One first run of ``root`` with its compiles logged: when it started (on the log's
    clock, ``time.perf_counter``, the same in every process of the machine), its seconds
    to the answer, and the log's lines split into fields, in the order the compiles
    started (so the first is the solving process's)."""
    with tempfile.NamedTemporaryFile("r", suffix=".log") as log:
        start = time.perf_counter()
        wall = first_run(root.resolve(), rules, Path(log.name))
        lines = [line.split("\t") for line in log.read().splitlines()]
    if not lines:
        raise SystemExit(f"{root}: no compile logged (is the Numba cache really empty?)")
    return start, wall, sorted(lines, key=lambda l: float(l[3]))


def timelines(root: Path, rules: "str | None", runs: int) -> None:
    """Print each of ``runs`` first runs of ``root`` as a timeline of its compiles (see
    the module's docstring)."""
    for i in range(runs):
        start, wall, lines = logged_run(root, rules)
        print(f"run {i + 1}: {wall:.2f} s to the answer", flush=True)
        for pid, depth, name, begin, end, _ in lines:
            who = "P1" if pid == lines[0][0] else "P2"      # (the first compile: solving)
            print(f"  {who} {'  ' * int(depth) + name.rsplit('.', 1)[-1]:60s} "
                  f"{float(begin) - start:6.2f} -> {float(end) - start:6.2f}")


def kernel_costs(root: Path, rules: "str | None", runs: int) -> None:
    """Print what each kernel's compile cost in ``runs`` first runs of ``root``
    (see the module's docstring)."""
    walls, per_kernel, totals = [], {}, {}
    for i in range(runs):
        _, wall, lines = logged_run(root, rules)
        walls.append(wall)
        solving = lines[0][0]                                 # the first compile's process
        print(f"run {i + 1}: {walls[-1]:.2f} s to the answer", flush=True)
        for rank, (pid, depth, name, start, end, cpu) in enumerate(lines):
            whole = float(end) - float(start)
            inside = [l for l in lines if l[0] == pid and int(l[1]) == int(depth) + 1
                      and float(start) <= float(l[3]) and float(l[4]) <= float(end)]
            inner = sum(float(l[4]) - float(l[3]) for l in inside)
            inner_cpu = sum(float(l[5]) for l in inside)
            where = "solving" if pid == solving else "warm-up"
            per_kernel.setdefault((where, name), []).append(
                (whole, whole - inner, depth, rank, float(cpu) - inner_cpu))
        for where in ("solving", "warm-up"):
            top = [l for l in lines if int(l[1]) == 0 and (l[0] == solving) == (where == "solving")]
            totals.setdefault(where, []).append(sum(float(l[5]) for l in top))
    print(f"{root}: median {statistics.median(walls):.2f} s to the answer "
          f"({min(walls):.2f}-{max(walls):.2f}), load average {os.getloadavg()[0]:.1f} now")
    for where, cpu in totals.items():
        print(f"  compiling in the {where} process: {statistics.median(cpu):.2f} s of "
              f"processor time (median)")
    print(f"{'process':8s} {'kernel (indented: compiled inside the one above)':58s} "
          f"{'whole':>7s} {'own':>7s} {'own cpu':>7s}  compiles/run")
    # Each process's compiles in the order of the first run's (a kernel's callees under it).
    for (where, name), costs in sorted(per_kernel.items(),
                                       key=lambda kv: (kv[0][0] != "solving", kv[1][0][3])):
        depth = int(costs[0][2])
        whole = statistics.median(c[0] for c in costs)
        own = statistics.median(c[1] for c in costs)
        own_cpu = statistics.median(c[4] for c in costs)
        print(f"{where:8s} {'  ' * depth + name:58s} {whole:6.2f}s {own:6.2f}s {own_cpu:6.2f}s"
              f"  {len(costs) / runs:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path, nargs="?")
    parser.add_argument("-n", type=int, default=7, help="runs of each (default 7)")
    parser.add_argument("--rules", help="rule set (default: python -m solver's)")
    parser.add_argument("--kernels", action="store_true",
                        help="one checkout: each kernel's compile cost in its first runs")
    parser.add_argument("--timeline", action="store_true",
                        help="one checkout: each first run's compiles, when and where")
    args = parser.parse_args()
    if args.kernels or args.timeline:
        if args.second is not None:
            parser.error("--kernels and --timeline time one checkout")
        (timelines if args.timeline else kernel_costs)(args.first, args.rules, args.n)
        return
    if args.second is None:
        parser.error("two checkouts to compare (or --kernels and one)")
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
