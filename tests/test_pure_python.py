"""The kernels as plain Python (NUMBA_DISABLE_JIT=1) give what the compiled ones give."""
import json
import os
import subprocess
import sys

import numpy as np

import solver
from solver.cards import deck_codes
from solver.scoring import scoring_params

SCRIPT = """
import json, sys
import numpy as np
import solver
rows = np.array(json.loads(sys.argv[1]), np.uint8)
hand = sys.argv[2]
sol = solver.solve(hand, "classic", samples=4, seed=5, pool=False)
print(json.dumps(dict(
    values=solver.evaluate_rows(rows, "joker").tolist(),
    settle=solver.settle(json.loads(sys.argv[3]), "joker"),
    solve=[sol.front, sol.middle, sol.back, sol.ev, sol.candidates])))
"""

DEAL = [("2s 2d Ac", "9s 9h 9d 9c 2h", "As Ks Qs Js Ts"),
        ("2s 2c Kc", "6s 6h 6d 5h 5d", "As Ks Qs Js Ts"),
        ("Qc Jc 4d", "4s 4h 3s 3h 7s", "Ah Kh Qh Jh Th"),
        ("Tc 8c 3c", "8s 8h Jk 7h 7d", "Ad Kd Qd Jd Td")]


def test_plain_python_matches_compiled(rng):
    rows = [[int(c) for c in rng.choice(deck_codes("joker"), 5, replace=False)]
            for _ in range(300)]
    hand = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
    args = [sys.executable, "-c", SCRIPT, json.dumps(rows), hand, json.dumps(DEAL)]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = json.loads(subprocess.run(args, env=env, check=True, capture_output=True,
                                      text=True).stdout)
    # (pool=False: plain Python deals, as setting the pool's hands would take it minutes)
    sol = solver.solve(hand, "classic", samples=4, seed=5, pool=False)
    assert plain == dict(values=solver.evaluate_rows(np.array(rows, np.uint8), "joker").tolist(),
                         settle=solver.settle(DEAL, "joker"),
                         solve=[sol.front, sol.middle, sol.back, sol.ev, sol.candidates])


def test_the_search_as_python_matches_compiled(rng):
    """A first solve runs the search of its hand's arrangements as Python while another
    process compiles it (solver._warmup): the same arrangements, in the same order."""
    from solver._jit import as_python
    from solver.sampling import prepare_hand
    from solver.search import nondominated_arrangements
    for rules, cut, n_hands in (("classic", None, 3), ("bonus", "7h", 2), ("joker", None, 2)):
        rs = solver.rule_set(rules)
        taken = set(solver.cards.parse_codes(cut, rs)) if cut else set()
        deck = [c for c in deck_codes(rs) if c not in taken]
        for _ in range(n_hands):
            cards = [int(c) for c in rng.choice(deck, rs.cards_dealt, replace=False)]
            prepared = prepare_hand(cards, rules, cut, None)
            t, own = prepared.tables, prepared.own
            codes = np.array(own, np.int64)
            params = scoring_params(rs)
            compiled = nondominated_arrangements(codes, t, params)
            plain = as_python(nondominated_arrangements)(codes, t, params)
            assert len(compiled[0]) > 0
            for a, b in zip(compiled, plain):
                np.testing.assert_array_equal(a, b)


def test_the_model_as_python_matches_compiled(rng):
    """The opponent model's setter as plain Python (NUMBA_DISABLE_JIT=1 runs it so) sets
    a hand as the compiled one does: both hand sizes' searches, the 13-card one with the
    monotone model (classic) and without (eastern)."""
    from solver._jit import as_python
    from solver.model import M_SCHEME, TableModel, table_kernel
    from solver.rows import tables_for
    for rules, n_hands in (("classic", 2), ("classic:eastern", 1), ("joker", 1)):
        rs = solver.rule_set(rules)
        t = tables_for(rs)
        mt = TableModel.shipped(rs, 4).tables(-1)
        kernel = table_kernel(int(mt.params[M_SCHEME]), rs.cards_dealt)
        hands = np.array([rng.choice(deck_codes(rs), rs.cards_dealt, replace=False)
                          for _ in range(n_hands)], np.int64)[:, None, :]
        out = []
        for run in (kernel, as_python(kernel)):
            vals = np.zeros((n_hands, 1, 3), np.int32)
            masks = np.zeros((n_hands, 1, 3), np.int64)
            estimates = np.zeros((n_hands, 1))
            run(hands, t, mt, np.zeros((n_hands, 1), np.int8), vals, masks, estimates, 0,
                n_hands)
            out.append((vals, masks, estimates))
        for compiled, plain in zip(*out):
            assert (compiled == plain).all()
