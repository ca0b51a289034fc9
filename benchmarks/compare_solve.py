"""Side by side: ``solve`` of an old checkout against this one, on the same seeded
hands, one Numba thread, alternating old and new hand by hand (the order swapped each
round), so that drifts of a shared machine's speed fall on both alike.  Prints, per case,
the median time a hand of each and the median of the per-hand ratios old / new, and
whether both returned the same answer on every hand (:func:`_answer`: they should,
where the change is one of speed only).  The old checkout's package is imported as
``solver_old``.  The ratios of the default solve (about 10 ms) are biased: a null
comparison, the same commit on both sides, gives 0.86-0.93 for them (the package
imported as ``solver`` is the slower side), so read them against a null run; those of
``samples=1000`` are not (benchmarks/README.md).

    mkdir /tmp/solver-old && git archive COMMIT solver | tar -x -C /tmp/solver-old
    cd benchmarks && PYTHONPATH=.. python3 compare_solve.py /tmp/solver-old [hands] [rounds] \
        [pool=false]

``pool=false``: the new package deals every deal (``solve(..., pool=False)``), as
packages before the pool did, so that its answers can be compared with theirs.
"""
import sys
import time

import numba
import numpy as np

import solver
from compare_rows import _load_old
from test_speed_bench import SEATINGS, _hands


NEW_OPTIONS = {}       # for the new package's solve (pool=false: {"pool": False})


def _timed(package, hand, rules, cut, players, samples):
    options = NEW_OPTIONS if package is solver else {}
    start = time.thread_time()
    s = package.solve(hand, rules, cut, players=players, samples=samples, **options)
    return time.thread_time() - start, _answer(s)


def _answer(s):
    """What a solve returns that a change of speed must leave alone: the setting, its
    numbers and the description of its deals, and the alternatives'."""
    return (s.front, s.middle, s.back, s.ev, s.stderr, s.ev_in_sample, s.samples,
            s.row_rates, s.p_scoop, s.p_scooped, s.p_home_run, s.bonus_units, s.declare,
            s.ev_declare, tuple((a.front, a.middle, a.back, a.ev, a.diff, a.diff_stderr)
                                for a in s.alternatives))


def main(root: str, n_hands: int, rounds: int) -> None:
    old = _load_old(root)
    numba.set_num_threads(1)
    print(f"| rule set | seats | samples | old | new | old / new (median of {n_hands} "
          f"hands x {rounds} rounds) | same answers |\n|---|---:|---:|---:|---:|---:|---:|")
    for rules, players in SEATINGS:
        for samples in (None, 1000):
            hands, cut = _hands(rules, n_hands)
            for m in (old, solver):                    # compiled and warm before the clock
                _timed(m, hands[0], rules, cut, players, samples)
            times = {old: [], solver: []}
            same = True
            for r in range(rounds):
                for hand in hands:
                    answers = {}
                    for m in ((old, solver) if r % 2 else (solver, old)):
                        dt, answers[m] = _timed(m, hand, rules, cut, players, samples)
                        times[m].append(dt)
                    same &= answers[old] == answers[solver]
            t_old, t_new = (np.array(times[m]) * 1000 for m in (old, solver))
            print(f"| `{rules}` | {players} | {samples or 'default'} | {np.median(t_old):.1f} ms "
                  f"| {np.median(t_new):.1f} ms | {np.median(t_old / t_new):.2f}× "
                  f"| {'yes' if same else 'NO'} |", flush=True)


if __name__ == "__main__":
    if "pool=false" in sys.argv[4:]:
        NEW_OPTIONS["pool"] = False
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20,
         int(sys.argv[3]) if len(sys.argv) > 3 else 3)
