"""The opponent model's setter of an old checkout against this one: the same setting
and estimate, bit for bit, on seeded random hands of every rule set (13-card rule sets
at 2 and 4 seats; ``bonus`` with a cut card of each rank), then the time a hand side by
side in one process, rounds alternating, medians.  Times are the calling thread's CPU
time (Numba runs on one thread here): on a shared machine it stays steady where wall
time drifts.  The old checkout's ``solver`` package is imported as ``solver_old``; the
exit status is 1 when any hand differs.

    mkdir /tmp/solver-old && git archive 6935e82 solver | tar -x -C /tmp/solver-old
    cd benchmarks && PYTHONPATH=.. python3 compare_model.py /tmp/solver-old [hands] [rounds]
"""
import sys
import time

import numba
import numpy as np

import solver
from solver.cards import card_name
from compare_rows import _load_old

# (rule set, seats, cut cards): 13-card rule sets at 2 and 4 seats; bonus with a cut
# card of each rank (a Bonus rank each).
CONFIGS = [("classic", 2, None), ("classic", 4, None), ("pagat", 2, None), ("pagat", 4, None),
           ("classic:eastern", 2, None), ("classic:eastern", 4, None),
           ("classic:mandarin", 2, None), ("classic:mandarin", 4, None), ("joker", 4, None),
           ("bonus", 4, ("2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd", "Qh",
                         "Ks", "Ac"))]
TIMED = {"classic": ("classic", 4, None), "pagat": ("pagat", 4, None),
         "bonus": ("bonus", 4, ("7c",)), "joker": ("joker", 4, None)}


def _driver(table_set):
    @numba.njit(cache=False)      # a closure over either package's kernel: not cacheable
    def drive(hands, t, mt, masks, evs):
        for h in range(hands.shape[0]):
            f, m, b, ev = table_set(hands[h], t, mt)
            masks[h, 0] = f
            masks[h, 1] = m
            masks[h, 2] = b
            evs[h] = ev
    return drive


_drivers: dict = {}


def _drive_for(package, mt, n_cards):
    """The driver of an older package's setter for these tables (one that sets a hand a
    call): one a scheme and hand size where the setter is compiled so (``table_setter``),
    else ``table_set``."""
    model = package.model
    if hasattr(model, "table_setter"):
        setter = model.table_setter(int(mt.params[model.M_SCHEME]), n_cards)
    else:
        setter = model.table_set
    if setter not in _drivers:
        _drivers[setter] = _driver(setter)
    return _drivers[setter]


def _cases(package, rule_set, seats, cuts, n_hands, seed):
    """(hands, row tables, model tables) groups: one per cut card (or one)."""
    rs = package.rule_set(rule_set)
    model = package.model.TableModel.shipped(rs, seats)
    rng = np.random.default_rng(seed)
    out = []
    for cut in cuts or (None,):
        exclude = package.cards.parse_codes(cut, rs) if cut else []
        deck = np.array([c for c in package.cards.deck_codes(rs) if c not in exclude], np.int64)
        count = n_hands // len(cuts or (None,))
        hands = np.array([rng.choice(deck, rs.cards_dealt, replace=False)
                          for _ in range(count)])
        rank = package.rows.bonus_rank_of(rs, cut)
        out.append((hands, package.rows.tables_for(rs, cut), model.tables(rank)))
    return out


def _run(package, hands, t, mt):
    masks = np.empty((len(hands), 3), np.int64)
    evs = np.empty(len(hands))
    model = package.model
    if hasattr(model, "table_kernel"):
        # A kernel that sets many hands: all of them as one table of one seat each.
        kernel = model.table_kernel(int(mt.params[model.M_SCHEME]), hands.shape[1])
        n = len(hands)
        kernel(np.ascontiguousarray(hands).reshape(n, 1, -1), t, mt,
               np.zeros((n, 1), np.int8), np.empty((n, 1, 3), np.int32),
               masks.reshape(n, 1, 3), evs.reshape(n, 1), 0, n)
    else:
        _drive_for(package, mt, hands.shape[1])(hands, t, mt, masks, evs)
    return masks, evs


def check(old, n_hands):
    """Every configuration: hands compared, how many differ."""
    print("| rule set | seats | cards | hands | identical |\n|---|---:|---:|---:|---:|")
    ok = True
    for i, (rule_set, seats, cuts) in enumerate(CONFIGS):
        total = same = 0
        groups = {m: _cases(m, rule_set, seats, cuts, n_hands, seed=1000 + i)
                  for m in (old, solver)}
        for (h0, t0, mt0), (h1, t1, mt1) in zip(groups[old], groups[solver]):
            assert (h0 == h1).all()
            m0, e0 = _run(old, h0, t0, mt0)
            m1, e1 = _run(solver, h1, t1, mt1)
            agree = (m0 == m1).all(axis=1) & (e0.view(np.int64) == e1.view(np.int64))
            total += len(h0)
            same += int(agree.sum())
            if not agree.all():
                j = int(np.flatnonzero(~agree)[0])
                print("  differs:", " ".join(card_name(int(c)) for c in h0[j]),
                      m0[j], e0[j], m1[j], e1[j])
        ok &= same == total
        print(f"| `{rule_set}` | {seats} | {h0.shape[1]} | {total:,} | {same:,} |")
    return ok


def timing(old, rounds, n_hands=2000):
    cases = {name: {m: _cases(m, *cfg, n_hands, seed=7)[0] for m in (old, solver)}
             for name, cfg in TIMED.items()}
    times = {}
    for r in range(rounds):
        order = (old, solver) if r % 2 else (solver, old)
        for name, by_package in cases.items():
            for m in order:
                hands, t, mt = by_package[m]
                start = time.thread_time()
                _run(m, hands, t, mt)
                times.setdefault((name, m), []).append(time.thread_time() - start)
    print(f"\n| µs a hand, one thread, medians of {rounds} rounds of {n_hands} hands "
          f"| cards | old | new | old / new |\n|---|---:|---:|---:|---:|")
    for name, by_package in cases.items():
        t_old, t_new = (np.median(times[name, m]) * 1e6 / n_hands for m in (old, solver))
        cards = by_package[solver][0].shape[1]
        print(f"| `{name}` | {cards} | {t_old:.1f} | {t_new:.1f} | {t_old / t_new:.2f}× |")


def main(root: str, n_hands: int, rounds: int) -> None:
    old = _load_old(root)
    numba.set_num_threads(1)
    ok = check(old, n_hands) if n_hands else True
    if rounds:
        timing(old, rounds)
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000,
         int(sys.argv[3]) if len(sys.argv) > 3 else 7)
