"""Five-card rows per second: our Numba kernel on three decks, and established Python-
callable evaluators on the same standard hands, in one run (JIT warmed up first); and
``search.five_subsets``, every 5-card subset of a hand, as the opponent model and the
search call it (the library's hottest lookup loop).

    python3 -m pip install -e ".[bench]" && python3 -m pytest benchmarks/test_rows_bench.py
"""
from math import comb

import numpy as np
import pytest

import solver
from solver._jit import njit
from solver.cards import card_name, deck_codes
from solver.rows import tables_for
from solver.search import five_subsets

N_OURS = 2_000_000      # rows per timed call of our kernel
N_PEER = 100_000        # hands per timed call of a peer (a Python call per hand)


def _random_rows(rng, rule_set, n, exclude=()):
    deck = np.array([c for c in deck_codes(rule_set) if c not in exclude], np.uint8)
    # Random 5-card rows: the five smallest of random keys, row by row (in chunks, to
    # keep the keys' memory small).
    chunks = []
    for start in range(0, n, 100_000):
        keys = rng.random((min(100_000, n - start), len(deck)), np.float32)
        chunks.append(deck[np.argpartition(keys, 5, axis=1)[:, :5]])
    return np.ascontiguousarray(np.concatenate(chunks))


@pytest.fixture(scope="module")
def standard_rows():
    return _random_rows(np.random.default_rng(1), "classic", N_OURS)


@pytest.mark.quick
@pytest.mark.parametrize("rule_set, cut", [("classic", None), ("joker", None), ("bonus", "7c")])
def test_ours(benchmark, one_core, rule_set, cut, standard_rows):
    exclude = solver.cards.parse_codes(cut, rule_set) if cut else ()
    rows = standard_rows if rule_set == "classic" else _random_rows(
        np.random.default_rng(2), rule_set, N_OURS, exclude)
    solver.evaluate_rows(rows[:10], rule_set, cut)           # compile / load, build tables
    from solver import kernels
    t = tables_for(rule_set, cut)
    out = benchmark(kernels.values5, rows, t)                 # the kernel, validation aside
    benchmark.extra_info["rows"] = len(rows)
    assert (out > 0).all()


N_HANDS = 2000          # hands per timed call of five_subsets


@njit
def _five_subsets_of_hands(hands, t):
    """five_subsets of each hand, one call a hand from compiled code (as the opponent
    model calls it)."""
    total = 0
    for h in range(hands.shape[0]):
        masks, ords = five_subsets(hands[h], t)
        total += ords[0] + masks[0]
    return total


@pytest.mark.parametrize("rule_set, n", [pytest.param("classic", 13, marks=pytest.mark.quick),
                                         ("joker", 17)])
def test_five_subsets(benchmark, one_core, rule_set, n):
    rng = np.random.default_rng(7)
    deck = np.array(deck_codes(rule_set), np.int64)
    hands = np.array([rng.choice(deck, n, replace=False) for _ in range(N_HANDS)])
    t = tables_for(rule_set)
    _five_subsets_of_hands(hands[:2], t)                      # compile / load
    benchmark(_five_subsets_of_hands, hands, t)
    benchmark.extra_info["rows"] = N_HANDS * comb(n, 5)       # subsets looked up
    benchmark.extra_info.update(hands=N_HANDS, hands_per_round=N_HANDS)


def _phevaluator(hands):
    from phevaluator import evaluate_cards
    return [evaluate_cards(*h) for h in hands]


def _treys(hands):
    from treys import Evaluator
    ev = Evaluator()
    return [ev.evaluate(h[:2], h[2:]) for h in hands]


def _eval7(hands):
    import eval7
    return [eval7.evaluate(h) for h in hands]


@pytest.mark.parametrize("peer", ["phevaluator", "treys", "eval7"])
def test_peer(benchmark, peer, standard_rows):
    pytest.importorskip(peer)
    rows = standard_rows[:N_PEER]
    names = [[card_name(int(c)) for c in row] for row in rows]
    if peer == "phevaluator":
        suit = {"c": 0, "d": 1, "h": 2, "s": 3}
        hands = [[4 * "23456789TJQKA".index(n[0]) + suit[n[1]] for n in h] for h in names]
        fn = _phevaluator
    elif peer == "treys":
        from treys import Card
        hands = [[Card.new(n) for n in h] for h in names]
        fn = _treys
    else:
        import eval7
        hands = [[eval7.Card(n) for n in h] for h in names]
        fn = _eval7
    fn(hands[:10])
    benchmark(fn, hands)
    benchmark.extra_info["rows"] = len(hands)
