"""Solve time per hand (warm, one core unless said), its growth with samples and cards,
peak memory, and the first solve in a fresh process with a warm Numba cache.

    python3 -m pip install -e ".[bench]" && python3 -m pytest benchmarks/test_solve_bench.py
"""
import json
import subprocess
import sys

import numba
import numpy as np
import pytest

import solver
from solver.cards import card_name, deck_codes

CASES = {"joker": (17, None), "bonus": (16, "7c"), "classic": (13, None), "pagat": (13, None)}


def _hand(rule_set, seed=0):
    n, cut = CASES[rule_set]
    exclude = solver.cards.parse_codes(cut, rule_set) if cut else []
    deck = [c for c in deck_codes(rule_set) if c not in exclude]
    rng = np.random.default_rng(seed)
    return " ".join(card_name(int(c)) for c in rng.choice(deck, n, replace=False)), cut


@pytest.mark.parametrize("rule_set", ["joker", "bonus", "classic", "pagat"])
def test_solve_1000_samples_one_core(benchmark, one_core, rule_set):
    hand, cut = _hand(rule_set)
    solver.solve(hand, rule_set, cut, samples=20)            # warm: compile/load, tables
    sol = benchmark.pedantic(solver.solve, args=(hand, rule_set, cut),
                             kwargs=dict(samples=1000), rounds=5, iterations=1)
    benchmark.extra_info.update(hand=hand, cards=len(hand.split()), candidates=sol.candidates,
                                hands_per_round=1)


@pytest.mark.parametrize("rule_set", ["joker", "bonus", "classic"])
def test_solve_1000_samples_two_threads(benchmark, rule_set):
    hand, cut = _hand(rule_set)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    solver.solve(hand, rule_set, cut, samples=20)
    benchmark.pedantic(solver.solve, args=(hand, rule_set, cut), kwargs=dict(samples=1000),
                       rounds=5, iterations=1)
    benchmark.extra_info.update(threads=numba.get_num_threads(), hands_per_round=1)


@pytest.mark.parametrize("samples", [100, 1000, 10000])
@pytest.mark.parametrize("rule_set", ["joker", "classic"])
def test_solve_growth_with_samples(benchmark, one_core, rule_set, samples):
    hand, cut = _hand(rule_set)
    solver.solve(hand, rule_set, cut, samples=20)
    benchmark.pedantic(solver.solve, args=(hand, rule_set, cut),
                       kwargs=dict(samples=samples), rounds=3 if samples < 10000 else 1,
                       iterations=1)
    benchmark.extra_info.update(samples=samples, hands_per_round=1)



@pytest.mark.parametrize("samples", [100, 300, 1000, 3000])
@pytest.mark.parametrize("rule_set", ["joker", "bonus", "classic", "pagat"])
def test_solve_time_by_samples(benchmark, one_core, rule_set, samples):
    """Solve time against samples, per rule set (and so per number of cards: 17, 16, 13
    and 13), one core; the points `notebooks/performance.ipynb` plots."""
    hand, cut = _hand(rule_set)
    solver.solve(hand, rule_set, cut, samples=20)            # warm: compile/load, tables
    sol = benchmark.pedantic(solver.solve, args=(hand, rule_set, cut),
                             kwargs=dict(samples=samples), rounds=3, iterations=1)
    benchmark.extra_info.update(rule_set=rule_set, samples=samples, cards=len(hand.split()),
                                candidates=sol.candidates, hands_per_round=1)

FRESH = """
import sys, time, json
t0 = time.perf_counter()
import solver, numba
numba.set_num_threads(1)
t1 = time.perf_counter()
solver.solve(sys.argv[1], sys.argv[2], None if sys.argv[3] == '-' else sys.argv[3])
t2 = time.perf_counter()
# Peak resident memory of this process (VmHWM; ru_maxrss would also count the parent
# process it was forked from).
peak_kb = next(int(line.split()[1]) for line in open('/proc/self/status')
               if line.startswith('VmHWM'))
print(json.dumps(dict(import_s=t1 - t0, first_solve_s=t2 - t1, peak_rss_mb=peak_kb / 1024)))
"""


@pytest.mark.parametrize("rule_set", ["joker", "bonus", "classic"])
def test_fresh_process_first_solve(benchmark, rule_set):
    """A new interpreter: import, then the first 1000-sample solve, with the Numba cache
    and the table cache already on disk (filled by the warm-up run)."""
    hand, cut = _hand(rule_set)
    args = [sys.executable, "-c", FRESH, hand, rule_set, cut or "-"]
    subprocess.run(args, check=True, capture_output=True)     # fill the caches
    out = benchmark.pedantic(lambda: subprocess.run(args, check=True, capture_output=True,
                                                    text=True).stdout,
                             rounds=3, iterations=1)
    benchmark.extra_info.update(json.loads(out))
