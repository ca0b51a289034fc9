"""The opponent model's setter of two checkouts, each timed in processes of its own, in
turn: how "The model's kernel: branches, sorts and bounds" (benchmarks/README.md) measured
each change.

    mkdir /tmp/solver-base && git archive e84a5ad solver | tar -x -C /tmp/solver-base
    python3 benchmarks/model_ab.py /tmp/solver-base . [--rounds 4] [--rules classic,joker]

Each round runs one process a checkout (the order swapped every round); a process sets
the same 2,000 seeded random hands of each rule set (4 seats; ``bonus`` with cut 7c) with
its checkout's ``table_kernel``, one thread, five times, and reports the median CPU time
a hand.  Printed per rule set: each checkout's median over the rounds and the median
(min-max) of the round-by-round ratios first / second.  Processes of their own, because
within one process two copies of the same kernel differ by a steady few percent
(benchmarks/README.md, "what an A/B in one process can tell"); each checkout gets its
own Numba cache folder, so that neither loads the other's machine code.  Timing only:
``compare_model.py`` checks that the settings are the same.
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

WORKER = r"""
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import numba, numpy as np
import solver
from solver.cards import deck_codes, parse_codes
from solver.model import M_SCHEME, TableModel, table_kernel
from solver.rows import bonus_rank_of, tables_for
numba.set_num_threads(1)
out = {}
for rule in sys.argv[2].split(","):
    cut = "7c" if rule == "bonus" else None
    rs = solver.rule_set(rule)
    n = rs.cards_dealt
    taken = parse_codes(cut, rs) if cut else []
    deck = np.array([c for c in deck_codes(rs) if c not in taken], np.int64)
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(deck, n, replace=False) for _ in range(2000)]).reshape(2000, 1, n)
    t = tables_for(rs, cut)
    mt = TableModel.shipped(rs, 4).tables(bonus_rank_of(rs, cut))
    kernel = table_kernel(int(mt.params[M_SCHEME]), n)
    args = (t, mt, np.zeros((2000, 1), np.int8), np.empty((2000, 1, 3), np.int32),
            np.empty((2000, 1, 3), np.int64), np.empty((2000, 1)))
    kernel(hands, *args, 0, 50)                                   # compiled or loaded
    times = []
    for _ in range(5):
        start = time.thread_time()
        kernel(hands, *args, 0, 2000)
        times.append(time.thread_time() - start)
    out[rule] = statistics.median(times) / 2000 * 1e6
print(json.dumps(out))
"""


def timed(root: Path, rules: str, cache: Path) -> dict:
    """µs a hand per rule set, from a process of its own."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    run = subprocess.run([sys.executable, "-c", WORKER, str(root), rules], env=env,
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("first", type=Path, help="a folder holding a solver/ package")
    p.add_argument("second", type=Path, help="another (. for this checkout)")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--rules", default="classic,pagat,joker,bonus")
    a = p.parse_args()
    roots = [a.first.resolve(), a.second.resolve()]
    caches = [Path(tempfile.gettempdir()) / ("model-ab-" + hashlib.sha1(str(r).encode())
                                             .hexdigest()[:10]) for r in roots]
    results = [[], []]
    for r in range(a.rounds):
        for side in ((0, 1) if r % 2 == 0 else (1, 0)):
            results[side].append(timed(roots[side], a.rules, caches[side]))
    print(f"| rule set | {roots[0]} µs a hand | {roots[1]} µs a hand | first / second, "
          f"round by round |\n|---|---:|---:|---:|")
    for rule in a.rules.split(","):
        first = [x[rule] for x in results[0]]
        second = [x[rule] for x in results[1]]
        ratios = [x / y for x, y in zip(first, second)]
        print(f"| `{rule}` | {statistics.median(first):.2f} | {statistics.median(second):.2f} "
              f"| {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}) |")


if __name__ == "__main__":
    main()
