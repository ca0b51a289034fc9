"""A process that solves the 40 seeded hands of ``test_speed_bench._hands`` ROUNDS times
over with the default ``solve`` (one Numba thread), for timing whole processes side by
side, old and new in turn (each checkout alone in its process, so neither evicts the
other's tables from the caches), with any timer of whole processes (``/usr/bin/time``)::

    python3 benchmarks/solve_rounds.py /tmp/solver-old classic 4 5     # in turn with
    python3 benchmarks/solve_rounds.py . classic 4 5                   # this

ROUNDS 0 times the start-up alone (import, the kernels loaded from the cache, one solve).
"""
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])                       # the checkout to time (its solver/)
sys.path.insert(1, str(Path(__file__).resolve().parent))

import numba                                          # noqa: E402
import solver                                         # noqa: E402
from test_speed_bench import _hands                   # noqa: E402

rules, players, rounds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
numba.set_num_threads(1)
hands, cut = _hands(rules, 40)
solver.solve(hands[0], rules, cut, players=players)
for _ in range(rounds):
    for hand in hands:
        solver.solve(hand, rules, cut, players=players)
