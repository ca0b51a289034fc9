"""Command line: ``python -m solver [CARDS] [--rules joker] [--cut 4c] [--samples 1000]``.

With no cards it solves a sample ``joker`` hand and prints the answer.
"""
import argparse
import time

import solver

SAMPLE_HAND = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m solver",
                                     description="Best setting of a Chinese Poker hand.")
    parser.add_argument("cards", nargs="?", default=SAMPLE_HAND,
                        help=f"the hand (default, for joker: {SAMPLE_HAND!r})")
    parser.add_argument("--rules", default="joker", help=", ".join(solver.RULE_SET_NAMES))
    parser.add_argument("--cut", default=None, help="the cut card (bonus)")
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        solution = solver.solve(args.cards, args.rules, args.cut, samples=args.samples,
                                seed=args.seed, players=args.players)
    except ValueError as e:
        parser.error(str(e))
    print(f"hand: {args.cards}")
    print(solution)
    print(f"({time.perf_counter() - start:.2f} s)")


if __name__ == "__main__":
    main()
