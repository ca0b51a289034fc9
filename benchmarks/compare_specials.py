"""Side by side, as :mod:`compare_solve`: ``solve`` of an old checkout against this one on
``classic`` hands with automatic wins in the mix: random hands, and hands drawn to hold
each of classic's four (dragon, six pairs, three flushes, three straights), so that both
the solver's own declaring and opponents' automatic wins go through the scoring.  Prints
per case the median times, the median of the per-hand ratios old / new, and whether every
answer was the same.

    mkdir /tmp/solver-old && git archive COMMIT solver | tar -x -C /tmp/solver-old
    cd benchmarks && PYTHONPATH=.. python3 compare_specials.py /tmp/solver-old [random] \
        [each] [rounds]
"""
import sys

import numba
import numpy as np

import solver
from compare_rows import _load_old
from compare_solve import _timed
from solver.autowin import KIND_NAMES, holds_kind
from solver.cards import card_name


def _hands(n_random: int, n_each: int) -> list[str]:
    rng = np.random.default_rng(29)
    hands = [rng.permutation(52)[:13] for _ in range(n_random)]
    for name in ("dragon", "six_pairs", "three_flushes", "three_straights"):
        kind, found = KIND_NAMES.index(name), 0
        while found < n_each:
            if name == "dragon":          # one card of each rank, random suits
                codes = np.arange(13) + 13 * rng.integers(0, 4, 13)
            elif name == "three_flushes":     # suits of 5, 5 and 3 cards
                suits = rng.permutation(4)[:3]
                codes = np.concatenate([13 * s + rng.permutation(13)[:k]
                                        for s, k in zip(suits, (5, 5, 3))])
            else:
                codes = rng.permutation(52)[:13]
                if name == "six_pairs":       # ranks drawn twice: pairs are common
                    ranks = rng.permutation(13)[:7]
                    codes = np.array([13 * s + r for r in ranks
                                      for s in rng.permutation(4)[:2]])[:13]
            if holds_kind(codes.astype(np.int64), kind):
                hands.append(codes)
                found += 1
    return [" ".join(card_name(int(c)) for c in h) for h in hands]


def main(root: str, n_random: int, n_each: int, rounds: int) -> None:
    old = _load_old(root)
    numba.set_num_threads(1)
    hands = _hands(n_random, n_each)
    print(f"| players | samples | old | new | old / new (median of {len(hands)} hands x "
          f"{rounds} rounds) | same answers |\n|---:|---:|---:|---:|---:|---:|")
    for players in (4, 2):
        for samples in (None, 1000):
            for m in (old, solver):
                _timed(m, hands[0], "classic", None, players, samples)
            times = {old: [], solver: []}
            same = declared = 0
            for r in range(rounds):
                for hand in hands:
                    answers = {}
                    for m in ((old, solver) if r % 2 else (solver, old)):
                        dt, answers[m] = _timed(m, hand, "classic", None, players, samples)
                        times[m].append(dt)
                    same += answers[old] == answers[solver]
                    declared += bool(answers[solver][12])
            t_old, t_new = (np.array(times[m]) * 1000 for m in (old, solver))
            print(f"| {players} | {samples or 'default'} | {np.median(t_old):.1f} ms "
                  f"| {np.median(t_new):.1f} ms | {np.median(t_old / t_new):.2f}× "
                  f"| {same} of {len(hands) * rounds} ({declared} declared) |", flush=True)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[2:]]
    main(sys.argv[1], *(args + [200, 15, 1][len(args):]))
