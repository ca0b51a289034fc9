"""The default ``solve``'s time a hand in one process, for comparing two packages each in
processes of their own (compare_solve.py loads both packages in one process, which does
not work when their sources are the same: a change of data only, such as a model file).

    farm-bench -n 8 --timeout 600 \\
        --vs "sh -c 'PYTHONPATH=/tmp/old exec python3 benchmarks/solve_processes.py >>/tmp/old.txt'" \\
        -- sh -c 'PYTHONPATH=. exec python3 benchmarks/solve_processes.py >>/tmp/new.txt'

Each run solves the same 60 seeded hands (seat 0 of the deals of seed 4242) of ``joker``
at four seats and ``two-jokers`` heads-up (or of ``--cases RULES:SEATS ...``), one thread,
after one solve that warms up, and prints the package it imported and each rule set's
processor time a hand (ms); pair the lines of the two files run by run for the ratios.
"""
import argparse
import sys
import time

import numba

import solver
from solver.sampling import deal_hands

CASES = [("joker", 4), ("two-jokers", 2)]
HANDS = 60


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", nargs="*", metavar="RULES:SEATS",
                   help="rule sets and seats (default: joker:4 two-jokers:2)")
    cases = [(r, int(s)) for r, s in (c.rsplit(":", 1) for c in p.parse_args().cases
                                      or [])] or CASES
    numba.set_num_threads(1)
    out = []
    for rules, players in cases:
        rs = solver.rule_set(rules)
        hands = [deal_hands(rs, players, 4242, i) for i in range(HANDS)]
        solver.solve(hands[0][0][0], rs, hands[0][1], players=players)       # warm
        start = time.thread_time()
        for dealt, cut in hands:
            solver.solve(dealt[0], rs, cut, players=players)
        out.append(f"{rules} {players}: {(time.thread_time() - start) / HANDS * 1e3:.2f} ms")
    print(solver.__file__, "; ".join(out))


if __name__ == "__main__":
    sys.exit(main())
