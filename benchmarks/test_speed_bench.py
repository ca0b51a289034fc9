"""Speed and scale: the figures the solver promises, measured the way a user meets them.

    python3 -m pip install -e ".[bench]"
    python3 -m pytest benchmarks/test_speed_bench.py --benchmark-json=speed.json

* ``test_solve_per_hand``: one core, warm; ``solve(cards, rules)`` as it comes (the
  adaptive default) and with exactly 1000 samples; 2 and 4 seats for the 13-card rule
  sets, 4 for the others; each round is a different seeded random hand (20 a case), so
  the median is over hands.
* ``test_model_per_hand``: the opponent model's setting of one hand (the kernel
  ``solve`` runs for every sampled opponent), 2000 random hands per round;
  ``test_quick_set_per_hand``: ``solver.quick_set`` itself (the same setting, with its
  validation and its texts), one call a hand.
* ``test_default_against_exact``: the default solve and exactly 1000 deals on the same
  20 hands, timed alternately; extra_info holds the time ratio, how often both chose the
  same setting, and, where they differ, what the default's choice gives up: both
  settings scored on the same 2000 independent deals (settled by ``solver.settle``),
  mean difference over those hands.
* ``test_threads``: one thread and two, alternately on the same solve; extra_info holds
  the ratio of the medians.
* ``test_cold_start``: a fresh interpreter with an empty Numba cache: import, then the
  first 1000-sample solve; extra_info holds the seconds and the peak memory.
* ``test_first_run``: ``python3 -m solver`` as a fresh install first runs it: the
  package copied to a new folder (no Numba cache), an empty row-table cache, the process
  timed until it returns (both cores: the second compiles meanwhile, and goes on for a
  second or two, waited for between rounds).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
import pytest

import solver
from solver.cards import card_name, deck_codes
from solver.scoring import scoring_params
from first_run import wait_until_unused
from test_solve_bench import FRESH       # the script a fresh process runs (benchmarks/)

CASES = {"joker": (17, None), "bonus": (16, "7c"), "classic": (13, None), "pagat": (13, None)}


def _hands(rule_set, count=20):
    n, cut = CASES[rule_set]
    exclude = solver.cards.parse_codes(cut, rule_set) if cut else []
    deck = [c for c in deck_codes(rule_set) if c not in exclude]
    rng = np.random.default_rng(2026)
    return [" ".join(card_name(int(c)) for c in rng.choice(deck, n, replace=False))
            for _ in range(count)], cut


def _rotating(hands):
    """A setup function for benchmark.pedantic: a different hand each round."""
    it = iter(hands * 2)
    return lambda: ((next(it),), {})


def _solve_case(rule_set, players, samples):
    # -m quick keeps the default solve of each rule set (4 seats) and one 1000-sample one.
    quick = (players == 4 and samples is None) or (rule_set, samples) == ("joker", 1000)
    name = "default" if samples is None else f"samples={samples}"
    return pytest.param(rule_set, players, samples, id=f"{rule_set}-{players}-{name}",
                        marks=[pytest.mark.quick] if quick else [])


# The tables the per-hand solves are timed at (compare_solve.py uses them too).
SEATINGS = [(rule_set, 4) for rule_set in CASES] + [("classic", 2), ("pagat", 2)]
SOLVE_CASES = [_solve_case(rule_set, players, samples)
               for rule_set, players in SEATINGS for samples in (None, 1000)]


@pytest.mark.parametrize("rule_set, players, samples", SOLVE_CASES)
def test_solve_per_hand(benchmark, one_core, rule_set, players, samples):
    hands, cut = _hands(rule_set)
    solver.solve(hands[0], rule_set, cut, players=players, samples=samples)      # warm
    used = []

    def solve(hand):
        used.append(solver.solve(hand, rule_set, cut, players=players, samples=samples))
    benchmark.pedantic(solve, setup=_rotating(hands), rounds=len(hands), iterations=1)
    benchmark.extra_info.update(
        hands=len(hands), hands_per_round=1, players=players, threads=1,
        samples=samples or "default",
        median_deals=float(np.median([s.samples for s in used])),
        median_holdout=float(np.median([s.holdout for s in used])))


@pytest.mark.parametrize("rule_set",
                         ["joker", "bonus", pytest.param("classic", marks=pytest.mark.quick)])
def test_model_per_hand(benchmark, one_core, rule_set):
    from solver.policy import builtin_policy, set_hands
    rs = solver.rule_set(rule_set)
    n, cut = CASES[rule_set]
    exclude = solver.cards.parse_codes(cut, rs) if cut else []
    deck = np.array([c for c in deck_codes(rs) if c not in exclude], np.int64)
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(deck, n, replace=False) for _ in range(2000)])[:, None, :]
    tables = solver.rows.tables_for(rs, cut)
    kind, mt, field = builtin_policy(None, rs, 4, solver.rows.bonus_rank_of(rs, cut))
    args = (tables, kind, mt, scoring_params(rs), field, 4, False)
    set_hands(hands[:2], *args)                                      # warm
    benchmark.pedantic(set_hands, args=(hands,) + args, rounds=7, iterations=1)
    per_hand = benchmark.stats.stats.median / len(hands)
    benchmark.extra_info.update(hands=len(hands), hands_per_round=len(hands), cards=n,
                                us_per_hand=per_hand * 1e6)


@pytest.mark.quick
@pytest.mark.parametrize("rule_set", ["joker", "bonus", "classic"])
def test_quick_set_per_hand(benchmark, one_core, rule_set):
    rs = solver.rule_set(rule_set)
    n, cut = CASES[rule_set]
    exclude = solver.cards.parse_codes(cut, rs) if cut else []
    deck = [c for c in deck_codes(rs) if c not in exclude]
    rng = np.random.default_rng(7)
    hands = [" ".join(card_name(int(c)) for c in rng.choice(deck, n, replace=False))
             for _ in range(500)]
    solver.quick_set(hands[0], rs, cut)                             # warm

    def all_hands():
        for hand in hands:
            solver.quick_set(hand, rs, cut)
    benchmark.pedantic(all_hands, rounds=5, iterations=1)
    benchmark.extra_info.update(hands=len(hands), hands_per_round=len(hands), cards=n,
                                us_per_hand=benchmark.stats.stats.median / len(hands) * 1e6)


def _mean_score(rows, deals, rule_set, cut):
    """Seat 0's mean units with ``rows`` against each deal's opponents (settle)."""
    total = 0
    for opponents in deals:
        declared = [j + 1 for j, o in enumerate(opponents) if len(o) == 4]
        table = [rows] + [tuple(o[:3]) for o in opponents]
        total += solver.settle(table, rule_set, cut, declared=declared or None)[0]
    return total / len(deals)


@pytest.mark.parametrize("rule_set", ["joker", "classic"])
def test_default_against_exact(benchmark, one_core, rule_set):
    hands, cut = _hands(rule_set)
    solver.solve(hands[0], rule_set, cut)
    times = {"exact": [], "default": []}
    same = 0
    used = []
    given_up = []
    for hand in hands:
        t0 = time.perf_counter()
        exact = solver.solve(hand, rule_set, cut, samples=1000)
        t1 = time.perf_counter()
        default = solver.solve(hand, rule_set, cut)
        t2 = time.perf_counter()
        times["exact"].append(t1 - t0)
        times["default"].append(t2 - t1)
        used.append(default.samples)
        d_rows, e_rows = (default.front, default.middle, default.back), \
            (exact.front, exact.middle, exact.back)
        if d_rows == e_rows:
            same += 1
        else:
            deals = solver.sample_opponents(hand, rule_set, cut, samples=2000, seed=4242)
            given_up.append(_mean_score(e_rows, deals, rule_set, cut)
                            - _mean_score(d_rows, deals, rule_set, cut))
    ratio = float(np.median(times["default"]) / np.median(times["exact"]))
    benchmark.extra_info.update(
        exact_median_s=float(np.median(times["exact"])),
        default_median_s=float(np.median(times["default"])), default_over_exact=ratio,
        same_choice=f"{same}/{len(hands)}", median_deals_used=float(np.median(used)),
        ev_given_up_where_different=float(np.mean(given_up)) if given_up else 0.0,
        ev_given_up_per_hand=float(np.sum(given_up) / len(hands)), untimed=True)
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)     # the figures are above


@pytest.mark.parametrize("rule_set, samples", [("joker", 10000), ("classic", 1000)])
def test_threads(benchmark, rule_set, samples):
    hands, cut = _hands(rule_set, 1)
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one core")
    before = numba.get_num_threads()
    solver.solve(hands[0], rule_set, cut, samples=20)
    times = {1: [], 2: []}
    try:
        for _ in range(3 if samples > 1000 else 7):
            for threads in (1, 2):
                numba.set_num_threads(threads)
                t0 = time.perf_counter()
                solver.solve(hands[0], rule_set, cut, samples=samples)
                times[threads].append(time.perf_counter() - t0)
    finally:
        numba.set_num_threads(before)
    benchmark.extra_info.update(
        samples=samples, one_thread_median_s=float(np.median(times[1])),
        two_threads_median_s=float(np.median(times[2])),
        speedup=float(np.median(times[1]) / np.median(times[2])), untimed=True)
    benchmark.pedantic(lambda: None, rounds=1, iterations=1)


def _remove_when_unused(folders: list) -> None:
    """Remove the folders once no process uses them (a first solve leaves its warm-up
    process compiling into its caches for a second or two after it returns:
    solver._warmup), so that rounds neither overlap nor race it."""
    for folder in folders:
        wait_until_unused(folder)
        shutil.rmtree(folder, ignore_errors=True)
    folders.clear()


@pytest.mark.parametrize("rule_set", ["joker", "classic"])
def test_cold_start(benchmark, rule_set):
    """A fresh interpreter whose Numba cache is empty (NUMBA_CACHE_DIR points to a new
    folder; the row tables stay cached): what a first run costs, until the solve returns
    (the warm-up process it leaves compiling is waited for between rounds, untimed)."""
    hands, cut = _hands(rule_set, 1)
    caches, out = [], []

    def fresh_cache():
        _remove_when_unused(caches)
        caches.append(tempfile.mkdtemp(prefix="numba-cache-"))
        return (caches[-1],), {}

    def run(cache):
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, SOLVER_QUIET="1")
        out.append(subprocess.run([sys.executable, "-c", FRESH, hands[0], rule_set, cut or "-"],
                                  check=True, capture_output=True, text=True, env=env).stdout)

    # One round a rule set: each is a whole compile (half a minute or more on this machine).
    benchmark.pedantic(run, setup=fresh_cache, rounds=1, iterations=1)
    _remove_when_unused(caches)
    benchmark.extra_info.update(json.loads(out[-1]))


def test_first_run(benchmark):
    """``python3 -m solver`` on a fresh install: nothing compiled, no tables cached; the
    process timed until it returns (the package copied to a new folder first, and the
    warm-up process it leaves compiling waited for after, both untimed)."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("the figure is for two cores")
    root = Path(solver.__file__).resolve().parent
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SOLVER_QUIET")}
    copies = []

    def fresh_install():
        _remove_when_unused(copies)
        copies.append(tempfile.mkdtemp(prefix="first-run-"))
        shutil.copytree(root, Path(copies[-1]) / "solver",
                        ignore=shutil.ignore_patterns("__pycache__"))
        return (copies[-1],), {}

    def run(folder):
        subprocess.run([sys.executable, "-m", "solver"], cwd=folder, check=True,
                       capture_output=True, env=dict(env, SOLVER_CACHE_DIR=f"{folder}/tables"))

    # Three rounds keep the suite within 10 minutes; benchmarks/first_run.py measures the
    # first run pair by pair against another commit.
    benchmark.pedantic(run, setup=fresh_install, rounds=3, iterations=1)
    _remove_when_unused(copies)
    benchmark.extra_info.update(what="python3 -m solver, cold, wall seconds until it returns")
