"""The answers of an old checkout and this one on the same seeded hands, for every
shipped rule set and table size, default ``solve`` and ``samples=1000``: the check that a
change which must not move a single answer (a refactoring, rules moved into files) did
not.  Answers only, no timing (compare_solve.py times, for its four rule sets); an
answer is compare_solve.py's ``_answer``.  The old checkout's package is imported as
``solver_old``: extract it fresh (``git archive``), since a Numba cache it wrote under
that name cannot be read by a plain ``import solver`` of the same folder.

    mkdir /tmp/solver-old && git archive COMMIT solver | tar -x -C /tmp/solver-old
    cd benchmarks && PYTHONPATH=..:. python3 compare_answers.py /tmp/solver-old \
        [hands, default 150] [hands at samples=1000, default 15] [tables: RULES:SEATS,...]

The tables default to the six built-ins' (TABLES); a fourth argument names others, e.g.
``shisanshui:4,mau-binh:2`` (a house rule set or a regional game, at 4 or 2 seats; a
rule set the old checkout does not know needs an old checkout that does).  ``--text``
(anywhere) also compares ``str(solution)``, where both checkouts print the same layout.
"""
import sys

import numba

import solver
import test_speed_bench as tsb
from compare_rows import _load_old
from compare_solve import _answer

tsb.CASES.update({name: (13, None) for name in (
    "classic:eastern", "classic:mandarin", "classic-1-6", "two-jokers", "shisanshui",
    "mau-binh", "capsa-susun", "pusoy")})
TABLES = [("joker", 4), ("bonus", 4), ("pagat", 4), ("pagat", 2), ("classic", 4),
          ("classic", 2), ("classic:eastern", 4), ("classic:eastern", 2),
          ("classic:mandarin", 4), ("classic:mandarin", 3), ("classic:mandarin", 2),
          # The rule sets from shipped files, scored by the general kernel, and the
          # regional games (where both packages have them).
          ("classic-1-6", 4), ("classic-1-6", 2), ("two-jokers", 4), ("two-jokers", 2),
          ("shisanshui", 4), ("shisanshui", 3), ("shisanshui", 2),
          ("mau-binh", 4), ("mau-binh", 2), ("capsa-susun", 4), ("capsa-susun", 2),
          ("pusoy", 4), ("pusoy", 2)]


def _table(text: str) -> tuple[str, int]:
    rules, _, seats = text.rpartition(":")
    if rules not in tsb.CASES:                  # no cut (only bonus has one)
        tsb.CASES[rules] = (solver.rule_set(rules).cards_dealt, None)
    return rules, int(seats)


def main(root: str, n_default: int, n_1000: int, tables=TABLES, text=False) -> None:
    old = _load_old(root)
    numba.set_num_threads(1)
    print("| rule set | seats | samples | hands | same answers |\n|---|---:|---:|---:|---|",
          flush=True)
    known = set(old.RULE_SET_NAMES) & set(solver.RULE_SET_NAMES)
    for rules, players in tables:
        if rules not in known:
            print(f"| `{rules}` | {players} | - | - | (not in both packages) |", flush=True)
            continue
        for samples, n in ((None, n_default), (1000, n_1000)):
            hands, cut = tsb._hands(rules, n)
            differ = 0
            for hand in hands:
                a = old.solve(hand, rules, cut, players=players, samples=samples)
                b = solver.solve(hand, rules, cut, players=players, samples=samples)
                differ += _answer(a) != _answer(b) or (text and str(a) != str(b))
            print(f"| `{rules}` | {players} | {samples or 'default'} | {n} | "
                  f"{'yes' if not differ else f'NO ({differ} differ)'} |", flush=True)


if __name__ == "__main__":
    text = "--text" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--text"]
    main(args[0], int(args[1]) if len(args) > 1 else 150,
         int(args[2]) if len(args) > 2 else 15,
         [_table(t) for t in args[3].split(",")] if len(args) > 3 else TABLES, text)
