"""Special hands that count automatically (``automatic_wins.declared = false``), end to
end on random deals: a hand holding one is scored as the strongest it holds, with no
choice -- by solver.settle as the slow reference (naive.settle_general) scores it, by
the opponents of a solve's sampled deals, and by solve, which reports it as declared.
(tests/test_specials.py works single deals by hand; tests/test_scoring_general.py checks
the scoring core with declared specials given.)"""
import random

import numpy as np
import pytest

import naive
import solver
import solver.training as training
from solver.rules import rule_set
from test_naive_selfcheck import _random_legal
from test_specials import CONSTRUCTED, SHISANSHUI_UNITS

# The 十三水 table on classic's other rules, counted automatically; all small ranked above
# all big (strengths are not the units), so the order of strength is the rule set's.
COUNTED = (rule_set("classic").to_toml()
           .replace('name = "classic"', 'name = "counted"')
           .split("[automatic_wins]")[0]
           + "[automatic_wins]\n"
           + "".join(f"{name} = {units}\n" for name, units in SHISANSHUI_UNITS.items())
           + "declared = false\n\n[automatic_wins.strength]\n"
           + "".join(f"{name} = {units if name != 'all_small' else 16}\n"
                     for name, units in SHISANSHUI_UNITS.items()))
DECK = [(r, s) for r in naive.RANKS for s in naive.SUITS]


@pytest.fixture
def counted(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(training.PRESETS, "default", training.Preset(1, 300))
    path = tmp_path / "counted.toml"
    path.write_text(COUNTED)
    rs = rule_set(path)
    assert not rs.automatic_wins_declared and rs.automatic_win_strength["all_small"] == 16
    return path


def _strongest_held(cards13, rs):
    """The reference's special of 13 cards under ``rs``: the strongest it holds."""
    held = set(naive.special_hands(cards13))
    return next((name for name in rs.automatic_win_order() if name in held), None)


def _random_deal(rng, n):
    """n hands of the 52 cards, some seats built to hold a special (others may too)."""
    deck = list(DECK)
    hands = []
    for _ in range(n):
        if rng.random() < 0.5:
            name = rng.choice(sorted(CONSTRUCTED))
            built = naive.parse(rng.choice(CONSTRUCTED[name][0]))
            if all(card in deck for card in built):
                hands.append(built)
                for card in built:
                    deck.remove(card)
                continue
        rng.shuffle(deck)
        hands.append(deck[:13])
        deck = deck[13:]
    return hands


def test_settle_counts_every_special_a_hand_holds_as_the_reference(counted):
    rng = random.Random(29)
    rs = rule_set(counted)
    specials = 0
    for _ in range(60):
        n = rng.choice([2, 3, 4])
        hands = _random_deal(rng, n)
        arrs = []
        for hand in hands:
            if rng.random() < 0.85:
                arrs.append(_random_legal(rng, list(hand), "classic", None))
            else:
                arrs.append((hand[:3], hand[3:8], hand[8:]))
        declared = {s: name for s, hand in enumerate(hands)
                    if (name := _strongest_held(hand, rs)) is not None}
        specials += len(declared)
        keys = [[naive.row_key(row, "classic") for row in arr] for arr in arrs]
        fouled = [not naive.is_legal(*arr, "classic") for arr in arrs]
        texts = [tuple(naive.cards_str(row) for row in arr) for arr in arrs]
        assert solver.settle(texts, counted) == naive.settle_general(
            keys, rs, fouled, declared), (texts, declared)
    assert specials >= 20


@pytest.mark.parametrize("name", ["all_small", "six_pairs", "three_straights"])
def test_solve_reports_a_counted_special_as_declared_and_settles_its_deals(counted, name):
    """A hand holding a special is declared, its EV is its settlement against every
    sampled deal, and the opponents of those deals holding one count as it."""
    rs = rule_set(counted)
    hand = CONSTRUCTED[name][0][0]
    want = _strongest_held(naive.parse(hand), rs)
    solution = solver.solve(hand, counted, players=3, samples=60, seed=5, holdout=0)
    assert solution.automatic_win == want and solution.declare
    deals = solver.sample_opponents(hand, counted, players=3, samples=60, seed=5)
    cards = hand.split()
    ours = (" ".join(cards[:3]), " ".join(cards[3:8]), " ".join(cards[8:]))
    settled = []
    for deal in deals:
        for opponent in deal:
            cards = naive.parse(" ".join(opponent[:3]))
            assert (len(opponent) == 4) == (_strongest_held(cards, rs) is not None)
        settled.append(solver.settle([ours] + [o[:3] for o in deal], counted)[0])
    assert np.mean(settled) == pytest.approx(solution.ev_declare)
