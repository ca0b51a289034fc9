"""Old code against this checkout, side by side in one process, rounds alternating: the
row kernel on each deck, ``five_subsets`` per 13- and 17-card hand, and a whole
1000-sample ``joker`` solve (the host's speed drifts, so only ratios taken together mean
anything).  The old checkout's ``solver`` package is imported as ``solver_old``.

    mkdir /tmp/solver-old && git archive 80a33a2 solver | tar -x -C /tmp/solver-old
    PYTHONPATH=. python3 benchmarks/compare_rows.py /tmp/solver-old [rounds]
"""
import functools
import importlib.util
import sys
import time
from math import comb
from pathlib import Path

import numba
import numpy as np

import solver
from solver.cards import card_name, deck_codes
from test_rows_bench import N_HANDS, N_OURS, _random_rows


def _load_old(root: str):
    init = Path(root) / "solver" / "__init__.py"
    spec = importlib.util.spec_from_file_location("solver_old", init,
                                                  submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["solver_old"] = module
    spec.loader.exec_module(module)
    return module


def _driver(five_subsets):
    @numba.njit(cache=False)      # a closure over either package's kernel: not cacheable
    def drive(hands, t):
        total = 0
        for h in range(hands.shape[0]):
            masks, ords = five_subsets(hands[h], t)
            total += ords[0] + masks[0]
        return total
    return drive


def main(root: str, rounds: int) -> None:
    old = _load_old(root)
    numba.set_num_threads(1)
    cases = []                          # (name, {package: (function, arguments)}, rows)
    for rs, cut, seed in (("classic", None, 1), ("joker", None, 2), ("bonus", "7c", 2)):
        exclude = solver.cards.parse_codes(cut, rs) if cut else ()
        rows = _random_rows(np.random.default_rng(seed), rs, N_OURS, exclude)
        bonus = solver.cards.code_rank(exclude[0]) if cut else -1
        calls = {m: (m.kernels.values5, (rows, m.tables.row_tables(rs, bonus)))
                 for m in (old, solver)}
        assert (calls[old][0](*calls[old][1]) == calls[solver][0](*calls[solver][1])).all()
        cases.append((f"values5 {rs}", calls, N_OURS))
    rng = np.random.default_rng(7)
    for rs, n in (("classic", 13), ("joker", 17)):
        deck = np.array(deck_codes(rs), np.int64)
        hands = np.array([rng.choice(deck, n, replace=False) for _ in range(N_HANDS)])
        calls = {m: (_driver(m.search.five_subsets), (hands, m.tables.row_tables(rs)))
                 for m in (old, solver)}
        for m in (old, solver):
            calls[m][0](*calls[m][1])                       # compile
        (m0, o0), (m1, o1) = (m.search.five_subsets(hands[0], calls[m][1][1])
                              for m in (old, solver))
        assert (m0 == m1).all() and (o0 == o1).all()
        cases.append((f"five_subsets {n} cards", calls, N_HANDS * comb(n, 5)))
    hand = " ".join(card_name(int(c)) for c in rng.choice(deck_codes("joker"), 17, replace=False))
    calls = {m: (functools.partial(m.solve, samples=1000, seed=0), (hand, "joker"))
             for m in (old, solver)}
    for m in (old, solver):
        calls[m][0](*calls[m][1])                           # compile / load
    cases.append(("solve joker, 1000 samples", calls, 0))

    times = {}
    for r in range(rounds):
        order = (old, solver) if r % 2 else (solver, old)
        for name, calls, _ in cases:
            for m in order:
                f, args = calls[m]
                start = time.perf_counter()
                f(*args)
                times.setdefault((name, m), []).append(time.perf_counter() - start)
    print(f"| medians of {rounds} rounds | old / new | old | new |\n|---|---:|---:|---:|")
    for name, _, rows in cases:
        t_old, t_new = (np.median(times[name, m]) for m in (old, solver))
        if name.startswith("values5"):
            old_text, new_text = f"{rows / t_old / 1e6:.0f} M rows/s", f"{rows / t_new / 1e6:.0f} M"
        elif name.startswith("five"):
            old_text, new_text = (f"{t * 1e6 / N_HANDS:.2f} µs a hand" for t in (t_old, t_new))
        else:
            old_text, new_text = (f"{t * 1e3:.0f} ms" for t in (t_old, t_new))
        print(f"| {name} | {t_old / t_new:.2f}× | {old_text} | {new_text} |")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 7)
