"""The stand-ins' speed (solver._warmup, "Stand-ins"): a solve that runs the model's
kernel of every scheme and the general scoring, as a first solve of a rule set whose own
kernels another process is compiling does, against the same solve with the rule set's
own kernels, hand by hand in turn (the same hands, seeds and deals: the answers are
checked equal), one thread, every kernel compiled first.

    python3 benchmarks/stand_ins.py [--rules classic joker] [--hands 20] [--players 4]

Prints per rule set the median seconds of a solve each way (min-max) and the median of
the pair-by-pair ratios stand-ins / own.
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("SOLVER_WARMUP", "0")       # (no other process: every kernel here)
os.environ.setdefault("SOLVER_QUIET", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import solver  # noqa: E402
from solver import _jit, _warmup, scoring  # noqa: E402
from solver.cards import card_name, deck_codes  # noqa: E402
from solver.model import table_kernel  # noqa: E402


class _Compiling:
    """A process that is still compiling (for solver._jit.compiled_elsewhere)."""

    def poll(self):
        return None


def standing_in(rs, on: bool) -> None:
    """Make this process run ``rs``'s stand-ins (``on``) or its own kernels."""
    own = [table_kernel(rs.scheme, rs.cards_dealt), scoring.scoring_kernel(rs)]
    _jit._compiled_elsewhere.clear()
    if on:
        _jit._is_warm = lambda k: False if k in own else _is_warm(k)
        _jit.compiled_elsewhere(own, _Compiling())
    else:
        _jit._is_warm = _is_warm


_is_warm = _jit._is_warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", nargs="+", default=["classic", "joker"])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for name in args.rules:
        rs = solver.rule_set(name)
        for job in _warmup.stand_in_jobs(rs):
            _warmup.run_job(job)
        rng = np.random.default_rng(7)
        deck = deck_codes(rs)
        hands = [" ".join(card_name(int(c)) for c in rng.choice(deck, rs.cards_dealt,
                                                                  replace=False))
                 for _ in range(args.hands)]
        solve = lambda hand: solver.solve(hand, rs, players=args.players, seed=3,  # noqa: E731
                                          pool=False)
        for on in (False, True):                    # (each way compiled or loaded first)
            standing_in(rs, on)
            solve(hands[0])
        seconds = {False: [], True: []}
        for i, hand in enumerate(hands):
            answers = {}
            for on in ((False, True) if i % 2 == 0 else (True, False)):
                standing_in(rs, on)
                start = time.perf_counter()
                answers[on] = solve(hand).to_dict()
                seconds[on].append(time.perf_counter() - start)
            if answers[False] != answers[True]:
                raise SystemExit(f"{name}: {hand}: the stand-ins answered otherwise")
        standing_in(rs, False)
        ratios = [b / a for a, b in zip(seconds[False], seconds[True])]
        said = {on: f"{statistics.median(s) * 1e3:.1f} ms ({min(s) * 1e3:.1f}-"
                    f"{max(s) * 1e3:.1f})" for on, s in seconds.items()}
        print(f"{name}, {args.players} seats, {args.hands} hands: own {said[False]}, "
              f"stand-ins {said[True]}; stand-ins / own {statistics.median(ratios):.3f} "
              f"({min(ratios):.3f}-{max(ratios):.3f}); answers the same", flush=True)


if __name__ == "__main__":
    main()
