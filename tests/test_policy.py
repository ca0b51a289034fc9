"""The built-in policies: legal settings of the hand, and the baselines kept to compare
with (the previous default model and strongest-back-first)."""
import numpy as np
import pytest

import naive
import solver
from solver.cards import card_name, deck_codes
from solver.policy import (POLICY_FIELD, POLICY_SBF, POLICY_TABLE, builtin_policy,
                           field_name, set_hand)
from solver.policy_training import DATA, train_field_policy
from solver.rows import tables_for
from solver.scoring import scoring_params


@pytest.mark.parametrize("rule_set, n_cards, cut", [("joker", 17, None), ("bonus", 16, "9d"),
                                                    ("classic:mandarin", 13, None)])
def test_builtin_policies_set_legal_rows_of_the_hand(rng, rule_set, n_cards, cut):
    rs = solver.rule_set(rule_set)
    t = tables_for(rs, cut)
    deck = [c for c in deck_codes(rs) if not cut or c != solver.cards.parse_codes(cut, rs)[0]]
    bonus_rank = solver.rows.bonus_rank_of(rs, cut)
    for name, kind in (("table", POLICY_TABLE), ("field", POLICY_FIELD), ("sbf", POLICY_SBF)):
        got_kind, mt, field = builtin_policy(name, rs, 4, bonus_rank)
        assert got_kind == kind
        for _ in range(80):
            codes = np.array(rng.choice(deck, n_cards, replace=False), np.int64)
            f, m, b = (int(x) for x in set_hand(codes, t, kind, mt, scoring_params(rs),
                                                field, 4))
            assert f & m == 0 and f & b == 0 and m & b == 0
            rows = [" ".join(card_name(int(codes[p])) for p in range(n_cards) if x >> p & 1)
                    for x in (f, m, b)]
            assert naive.is_legal(*rows, rule_set, 9 if cut else None), (name, rows)


def test_unknown_policy_is_refused_naming_the_built_in_ones():
    with pytest.raises(ValueError, match="unknown policy 'best'.*table, field, sbf"):
        builtin_policy("best", solver.rule_set("classic"), 2, -1)
    with pytest.raises(ValueError, match="is for joker, not classic"):
        builtin_policy(solver.TableModel.shipped("joker", 4), solver.rule_set("classic"), 2, -1)


def test_shipped_previous_field_is_what_its_training_makes():
    rs = solver.rule_set("pagat")
    assert (train_field_policy("pagat", 2) == np.load(DATA / field_name(rs, 2))).all()
