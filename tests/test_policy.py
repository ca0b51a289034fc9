"""The default opponent policy: legal, better than the baseline, reproducible data."""
import numpy as np
import pytest

import naive
import solver
from solver.cards import card_name, deck_codes
from solver.policy import DATA, field_name, field_policy, reference_field, strongest_back_first
from solver.policy_training import head_to_head, train
from solver.rows import tables_for


@pytest.mark.parametrize("rule_set, n_cards, cut", [("joker", 17, None), ("bonus", 16, "9d"),
                                                    ("classic:mandarin", 13, None)])
def test_policy_settings_are_legal_and_use_the_hand(rng, rule_set, n_cards, cut):
    rs = solver.rule_set(rule_set)
    t = tables_for(rs, cut)
    deck = [c for c in deck_codes(rs) if not cut or c != solver.cards.parse_codes(cut, rs)[0]]
    field = reference_field(rs, 4)
    for _ in range(200):
        codes = np.array(rng.choice(deck, n_cards, replace=False), np.int64)
        for masks in (field_policy(codes, t, rs.scoring_params(), field, 4),
                      strongest_back_first(codes, t)):
            f, m, b = (int(x) for x in masks)
            assert f & m == 0 and f & b == 0 and m & b == 0
            rows = [" ".join(card_name(int(codes[p])) for p in range(n_cards) if x >> p & 1)
                    for x in (f, m, b)]
            assert naive.is_legal(*rows, rule_set, 9 if cut else None), rows


@pytest.mark.parametrize("rule_set", ["joker", "classic"])
def test_policy_beats_strongest_back_first(rule_set):
    rs = solver.rule_set(rule_set)
    mean, stderr = head_to_head(rule_set, 4, reference_field(rs, 4), deals=1500)
    assert mean > 2 * stderr > 0


def test_shipped_field_is_what_the_training_script_makes():
    rs = solver.rule_set("pagat")
    assert (train("pagat", 2) == np.load(DATA / field_name(rs, 2))).all()
