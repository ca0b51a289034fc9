"""The error scale of the advisor's bid likelihood, ``solver.georgian.advisor.BID_NOISE``.

For every seat of every deal of baseline self-play ``classic`` games (game g has seed
g), the error of the baseline's trick estimate: tricks taken - ``estimate_tricks`` of
the hand as dealt. Its standard deviation by hand size is the noise of the modelled
bidder (see ``solver.georgian.advisor``). It depends on the baseline alone, not on any
result of the advisor.

    python benchmarks/georgian_bid_noise.py --games 300
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.georgian import BaselinePolicy, parse_cards, parse_suit, play_game  # noqa: E402
from solver.georgian import kernels as k  # noqa: E402
from solver.georgian.advisor import BID_NOISE  # noqa: E402
from solver.georgian.cards import mask_of  # noqa: E402


def estimate_errors(games: int) -> dict[int, list[float]]:
    """Tricks taken - the baseline's estimate, by hand size, over ``games`` games."""
    errors: dict[int, list[float]] = {}
    for seed in range(games):
        record = play_game([BaselinePolicy()] * 4, "classic", seed=seed)
        for deal in record.deals:
            trump = parse_suit(deal.trump, allow_no_trump=True)
            for seat in range(4):
                estimate = k.estimate_tricks(mask_of(parse_cards(list(deal.hands[seat]))), trump)
                errors.setdefault(deal.hand_size, []).append(deal.taken[seat] - estimate)
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    errors = estimate_errors(args.games)
    print("cards  seat-deals  mean error  sd (measured)  BID_NOISE")
    for size in sorted(errors):
        values = np.array(errors[size])
        print(f"{size:5d}  {len(values):10d}  {values.mean():10.2f}  {values.std():13.2f}  {BID_NOISE[size]:9.2f}")


if __name__ == "__main__":
    main()
