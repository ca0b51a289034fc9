"""Row values against the rules (docs/rules.md), the slow reference and phevaluator."""
import itertools

import numpy as np
import pytest

import naive
import solver
from solver.cards import card_name, deck_codes

RV = solver.row_value


# --- joker: docs/rules.md#jokers ------------------------------------------------------
@pytest.mark.parametrize("row, category, ranks", [
    ("5h 7d Jk", "pair", "75"),
    ("Ah Jk Jk", "trips", "A"),
    ("4h 5d 6c 7s Jk", "straight", "8"),
    ("2h 3d 4c Jk Jk", "straight", "6"),
    ("Ah Ad Kc Ks Jk", "full_house", "AK"),
    ("Ah Kh 5h 2h Jk", "paired_flush", "AK52"),
    ("As Ks 9s Jk Jk", "paired_flush", "AK9"),
    ("6h 6d 6c Jk 2s", "quads", "62"),
    ("Jk Jk Jk Kh 8d", "quads", "K8"),
    ("As Ks Jk Jk Jk", "straight_flush", "A"),
    ("As 9s Jk Jk Jk", "quads", "A9"),
    ("As 7s 7s 5s Jk", "paired_flush", "A75"),
    ("Jk Jk Jk", "joker_trips", ""),
    ("As As Ah Ad Ac", "natural_five", "A"),
    ("Ah Ad Ac Jk Jk", "joker_five", "A"),
])
def test_joker_counting(row, category, ranks):
    v = RV(row, "joker")
    assert (v.category, v.ranks) == (category, ranks)


def test_joker_orderings():
    assert RV("9h 8d 7c 6s 5h", "joker") == RV("Jk 8d 7c 6s 5h", "joker")
    assert RV("Jk 9d 8c 7s 6h", "joker") > RV("9h 8d 7c 6s 5h", "joker")
    assert RV("2s 2s 2h 2d 2c", "joker") > RV("Ah Ad Ac Jk Jk", "joker")
    assert RV("As Ah Ad Ac Jk", "joker") > RV("Qh Qd Qc Jk Jk", "joker")
    assert RV("6h 6d 6c Jk 2s", "joker") > RV("5h 5d 5c 5s 2h", "joker")
    assert RV("Jk Jk Jk Kh 8d", "joker") > RV("Kh Kd Kc Ks 7d", "joker")
    assert RV("As 7s 7s 5s Jk", "joker") > RV("8s 8s 6s 6s As", "joker")
    assert RV("Jk Jk Jk", "joker") > RV("Ah Ad Ac", "joker")
    assert RV("Jk Jk Jk", "joker") < RV("6h 5d 4c 3s 2h", "joker")
    assert RV("5h 7d Jk", "joker").category != "high_card"


@pytest.mark.parametrize("front, middle, back, legal", [
    ("Ah Ad Ac", "As Jk Jk 3d 2c", "Ks Kh Kd Kc 2s", True),    # docs/rules.md#legality, A-A-A vs A+2Jk
    ("9h 9d Kc", "9s 9c 5d 4h 3s", "Ts Th Td Tc 2s", False),
    ("Kh 9d 4c", "Ks 9c 4d 3h 2s", "Ts Th Td Tc 2h", True),
])
def test_documented_legality_examples(front, middle, back, legal):
    assert solver.is_legal(front, middle, back, "joker") is legal
    assert naive.is_legal(front, middle, back, "joker") is legal


def test_middle_may_equal_back_but_front_must_be_lower():
    assert solver.is_legal("2h 3d 5c", "As Ks Qs Js 9s", "As Ks Qs Js 9s", "bonus", cut="4c")
    assert not solver.is_legal("Ah Ad Ac", "Kh Kd Qc Qh 2d", "Ks Ks Qs Js 9s", "bonus", cut="4c")


# --- bonus: docs/rules.md#bonus-cards -------------------------------------------------
def test_bonus_categories_follow_the_cut_rank():
    assert RV("7h 7d 7c Kh Kd", "bonus", cut="7s").category == "bonus_full_house"
    assert RV("Kh Kd Kc 7h 7d", "bonus", cut="7s").category == "full_house"
    assert RV("2h 2d 2c", "bonus", cut="2s") > RV("Ah Ad Ac", "bonus", cut="2s")
    assert RV("2h 2d 2c 4s 5h", "bonus", cut="2s") < RV("9h Td Jc Qs Kh", "bonus", cut="2s")
    assert RV("7h 7d 7c 7s 2h", "bonus", cut="7s").category == "bonus_quads"
    assert RV("As As Ks Qs Js", "bonus", cut="7s").category == "paired_flush"
    assert RV("9s Ts Js Qs Ks", "bonus", cut="7s").category == "straight_flush"
    assert RV("7h 7d Kc Kh 2d", "bonus", cut="7s").category == "two_pair"
    # Five of a kind of any rank but the Bonus rank (one of those was cut).
    assert RV("As As Ah Ad Ac", "bonus", cut="7c").category == "natural_five"
    assert RV("7s 7s 7h 7d 2c", "bonus", cut="7c").category == "bonus_quads"


def test_every_row_of_each_deck_has_a_value(rng):
    for rule_set, cut in (("bonus", "7c"), ("joker", None), ("pagat", None)):
        deck = [c for c in deck_codes(rule_set)
                if not cut or c != solver.cards.parse_codes(cut, rule_set)[0]]
        rows = np.array([rng.choice(deck, 5, replace=False) for _ in range(20000)], np.uint8)
        # Every five-of-a-kind and four-of-a-kind shape too.
        by_rank = {}
        for c in deck:
            if c < 65:
                by_rank.setdefault(c % 13, []).append(c)
        extra = [cs[:5] for cs in by_rank.values() if len(cs) >= 5]
        extra += [cs[:4] + [by_rank[(r + 1) % 13][0]] for r, cs in by_rank.items()]
        rows = np.concatenate([rows, np.array(extra, np.uint8)])
        values = solver.evaluate_rows(rows, rule_set, cut)    # raises on a missing entry
        assert (values > 0).all()


def test_bonus_needs_a_real_cut_card():
    with pytest.raises(ValueError, match="needs the cut card"):
        RV("2h 3d 4c", "bonus")
    with pytest.raises(ValueError, match="unknown card"):
        RV("2h 3d 4c", "bonus", cut="Q")
    with pytest.raises(ValueError, match="no cut card"):
        RV("2h 3d 4c", "pagat", cut="4c")


# --- pagat: the worked deal's rows (docs/rules.md#pagat) -------------------------------
def test_pagat_worked_deal_rows():
    assert RV("Tc Jc Qc Kc Ac", "pagat").category == "straight_flush"
    assert RV("9c 9d Th Ts As", "pagat").category == "two_pair"
    assert RV("3s 3h 4d", "pagat") > RV("2s 2h Ad", "pagat")
    assert RV("Ah 2d 3c 4s 5h", "pagat") < RV("2h 3d 4c 5s 6h", "pagat")
    assert RV("Ah 2d 3c 4s 5h", "pagat").ranks == "5"
    assert RV("Ah Kd Qc", "pagat").category == "high_card"   # no straights in a Front


# --- the slow reference on random rows -----------------------------------------------
def _random_rows(rng, deck, size, n, jokers=None):
    deck = np.array(deck)
    real = deck[deck < 65]
    rows = []
    while len(rows) < n:
        j = jokers if jokers is not None else 0
        row = list(rng.choice(real, size - j, replace=False)) + [65, 66, 67][:j]
        rows.append([int(c) for c in rng.permutation(row)])
    return rows


def _text(row):
    return " ".join(card_name(c) for c in row)


def _check_against_reference(rows, rule_set, cut=None):
    cut_rank = None if cut is None else naive.parse(cut)[0][0]
    mine = solver.evaluate_rows(np.array(rows, np.uint8), rule_set, cut=cut)
    keys = [naive.row_key(_text(r), rule_set, cut_rank) for r in rows]
    for r, v, k in zip(rows, mine, keys):
        assert solver.RowValue(v).category == naive.CATEGORIES[k[0]], _text(r)
        assert RV(r, rule_set, cut=cut).value == v
    # The orderings agree on every pair: sort by the reference, then values must be
    # non-decreasing with equality exactly where the reference ties.
    order = sorted(range(len(rows)), key=lambda i: keys[i])
    for a, b in zip(order, order[1:]):
        if keys[a] == keys[b]:
            assert mine[a] == mine[b], (_text(rows[a]), _text(rows[b]))
        else:
            assert mine[a] < mine[b], (_text(rows[a]), _text(rows[b]))


@pytest.mark.parametrize("size", [3, 5])
@pytest.mark.parametrize("jokers, n", [(0, 3000), (1, 800), (2, 150), (3, 25)])
def test_joker_rows_match_reference(rng, size, jokers, n):
    if jokers > size:
        pytest.skip("not a row")
    _check_against_reference(_random_rows(rng, deck_codes("joker"), size, n, jokers), "joker")


def test_joker_rows_with_duplicate_spades_and_one_suit_match_reference(rng):
    rows = []
    spades = [c for c in range(13)] + [c + 52 for c in range(13)]
    for _ in range(400):
        j = int(rng.integers(0, 3))
        suit = int(rng.integers(0, 4))
        pool = spades if suit == 0 else [13 * suit + r for r in range(13)]
        rows.append([int(c) for c in rng.choice(pool, 5 - j, replace=False)] + [65, 66][:j])
    _check_against_reference(rows, "joker")


@pytest.mark.parametrize("cut", ["2c", "7s", "Ah"])
def test_bonus_rows_match_reference(rng, cut):
    deck = [c for c in deck_codes("bonus") if c != solver.cards.parse_codes(cut, "bonus")[0]]
    spades = [c for c in list(range(13)) + list(range(52, 65)) if c in deck]  # cut one out
    rows = _random_rows(rng, deck, 5, 2000) + _random_rows(rng, deck, 3, 1000)
    rows5 = [r for r in rows if len(r) == 5]
    rows5 += [[int(c) for c in rng.choice(spades, 5, replace=False)] for _ in range(300)]
    _check_against_reference(rows5, "bonus", cut)
    _check_against_reference([r for r in rows if len(r) == 3], "bonus", cut)


def test_pagat_rows_match_reference(rng):
    _check_against_reference(_random_rows(rng, range(52), 5, 4000), "pagat")


def test_every_standard_front_matches_reference():
    rows = [list(c) for c in itertools.combinations(range(52), 3)]
    _check_against_reference(rows, "classic")


def test_fronts_and_middles_share_one_scale(rng):
    deck = np.array(deck_codes("joker"))
    for _ in range(1000):
        cards = [int(c) for c in rng.choice(deck, 8, replace=False)]
        front, middle = _text(cards[:3]), _text(cards[3:])
        expect = naive.row_key(front, "joker") < naive.row_key(middle, "joker")
        assert (RV(front, "joker") < RV(middle, "joker")) is expect, (front, middle)


# --- an established evaluator over every standard five-card hand ---------------------
@pytest.mark.slow
def test_every_standard_hand_orders_as_phevaluator():
    phevaluator = pytest.importorskip("phevaluator")
    hands = np.array(list(itertools.combinations(range(52), 5)), np.uint8)
    mine = solver.evaluate_rows(hands, "classic")
    # phevaluator's card id is 4 * rank + suit (suits c d h s); lower result = stronger.
    suit_map = np.array([3, 2, 1, 0], np.uint8)
    ph_ids = 4 * (hands % 13) + suit_map[hands // 13]
    theirs = np.fromiter((phevaluator.evaluate_cards(*map(int, h)) for h in ph_ids),
                         np.int64, len(ph_ids))
    pairs = np.unique(np.stack([-theirs, mine.astype(np.int64)], axis=1), axis=0)
    # One of my values per phevaluator rank, strictly increasing with strength.
    assert len(pairs) == len(np.unique(theirs)) == len(np.unique(mine)) == 7462
    assert (np.diff(pairs[:, 1]) > 0).all()


# --- bad input -----------------------------------------------------------------------
@pytest.mark.parametrize("cards, message", [
    ("As Kd", "3 or 5 cards, not 2"),
    ("As Kd Qh Jc", "3 or 5 cards, not 4"),
    ("As Ah Ah", "duplicate card 'Ah'"),
])
def test_row_value_bad_input(cards, message):
    with pytest.raises(ValueError, match=message):
        RV(cards, "joker")


def test_is_legal_bad_input():
    with pytest.raises(ValueError, match="the front has 3 cards, not 5"):
        solver.is_legal("As Kd Qh Jc Tc", "2s 3s 4s 5s 7s", "2h 3h 4h 5h 7h", "pagat")
    with pytest.raises(ValueError, match="duplicate card 'As'"):
        solver.is_legal("As Kd Qh", "As 3s 4s 5s 7s", "2h 3h 4h 5h 7h", "pagat")


def test_evaluate_rows_bad_input():
    with pytest.raises(ValueError, match="shape"):
        solver.evaluate_rows(np.zeros((2, 4), np.uint8), "pagat")
    with pytest.raises(ValueError, match="uses a card twice"):
        solver.evaluate_rows(np.array([[1, 1, 2, 3, 4]]), "pagat")
    with pytest.raises(ValueError, match="card codes must be in 0..64"):
        solver.evaluate_rows(np.array([[1, 2, 65]]), "bonus", cut="2c")
    with pytest.raises(ValueError, match="one set of spades"):
        solver.evaluate_rows(np.array([[1, 2, 60]]), "pagat")


def test_evaluate_rows_accepts_text_rows():
    v = solver.evaluate_rows(["As Ks Qs", "2h 2d 3c"], "pagat")
    assert list(v) == [RV("As Ks Qs", "pagat").value, RV("2h 2d 3c", "pagat").value]


def test_the_cut_card_is_out_of_play():
    with pytest.raises(ValueError, match="duplicate card '9h'.*cut card 9h is out of play"):
        RV("9h 9d 9c", "bonus", cut="9h")
    with pytest.raises(ValueError, match="duplicate card 'As'.*cut card As"):
        RV("As As Qs", "bonus", cut="As")
    assert RV("As Qs Qh", "bonus", cut="As").category == "pair"      # the other As
    with pytest.raises(ValueError, match="cut card 9h"):
        solver.is_legal("2h Kd Qd", "3h 3s 4s 5s 7h", "9h 9d 9c 8h 8d", "bonus", cut="9h")
    with pytest.raises(ValueError, match="row 1 uses the cut card As"):
        solver.evaluate_rows(np.array([[12, 1, 2], [12, 64, 2]]), "bonus", cut="As")
    with pytest.raises(ValueError, match="row 0 uses the cut card 9h"):
        solver.evaluate_rows(np.array([[20, 1, 2]]), "bonus", cut="9h")


# --- RowValue: only values that rows have -------------------------------------------------
def test_row_values_are_exactly_the_values_of_every_rule_sets_tables():
    from solver.rows import row_values
    from solver.tables import row_tables
    tables = [row_tables(solver.rule_set(name), -1) for name in ("joker", "pagat", "classic")]
    tables += [row_tables(solver.rule_set("bonus"), rank) for rank in range(13)]
    union = set()
    for t in tables:
        union |= set(t.values[1:].tolist())          # values[0] = -1: no such row
    assert row_values() == union and len(union) == 12845


@pytest.mark.parametrize("value, message", [
    (10**12, "its category would be 953674"),
    (16 << 20, "its category would be 16"),
    (2**40, "its category would be 1048576"),
    (-1, "its category would be -1"),
    (0, r"no row of any rule set is a high_card with tie-break digits \(0, 0, 0, 0, 0\)"),
    ((1 << 20) | (15 << 16), r"a pair with tie-break digits \(15, 0, 0, 0, 0\)"),   # no rank 15
    ((1 << 20) | (5 << 16) | (5 << 12), r"a pair with tie-break digits \(5, 5, 0"),  # kicker = pair
    ((0 << 20) | (2 << 16) | (3 << 12) | (1 << 8), r"high_card with .*\(2, 3, 1, 0, 0\)"),  # order
    ((7 << 20) | (13 << 16) | (4 << 12) | (3 << 8) | (2 << 4) | 1, "flush"),      # a wheel
])
def test_row_value_refuses_values_no_row_has(value, message):
    with pytest.raises(ValueError, match=f"{value} is not a row value: .*{message}"):
        solver.RowValue(value)


def test_every_row_value_has_a_category_and_ranks():
    from solver.rows import row_values
    for v in row_values():
        value = solver.RowValue(v)
        assert value.category in solver.rules.CATEGORIES and isinstance(value.ranks, str)
