"""A hand history to time ``python3 -m solver review --batch`` on: N dealt hands, each set
by the opponent model (:func:`solver.quick_set`), one JSON line a hand (docs/sessions.md).

    python3 benchmarks/session_file.py 1000 --rules joker > session-1000.jsonl
    python3 -m solver review --batch session-1000.jsonl --workers 2 --quiet

The hands are the first seat's of ``python3 -m solver deal --seed S`` for S = 0, 1, ...,
so the file is the same on every machine.
"""
import argparse
import json
import sys

import solver
from solver.sampling import deal_hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", type=int, help="hands in the file")
    parser.add_argument("--rules", default="joker", help="rule set")
    args = parser.parse_args()
    rs = solver.rule_set(args.rules)
    for seed in range(args.hands):
        hands, cut = deal_hands(rs, rs.max_seats, seed, 0)
        setting = solver.quick_set(hands[0], rs, cut)
        line = dict(id=seed, rules=rs.name, cards=hands[0],
                    setting=" / ".join(setting[:3]))
        if cut:
            line["cut"] = cut
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
