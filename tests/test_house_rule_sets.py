"""The three house rule sets shipped beside the six (docs/rules.md#house-rule-sets):
``classic-1-6``, ``two-jokers`` and ``shisanshui``.

Each is checked by hand-worked deals (the units worked out line by line in comments),
and each figure three ways: the hand-worked number, the slow reference
(``naive.settle_general``) and ``solver.settle``.  Then a few random deals are played end
to end under each (deal, ``quick_set`` every seat, ``solve`` one, settle), and the shipped
opponent models are shown to serve every seat count, so that no solve under these names
trains a model at run time."""
import dataclasses

import numpy as np
import pytest

import naive
import solver
from solver import model
from solver.cards import card_name, deck_codes
from solver.model import model_file, model_seats, shipped_twin

HOUSE_RULE_SETS = ("classic-1-6", "two-jokers", "shisanshui")


def _seats(deal):
    """'FRONT / MIDDLE / BACK' texts -> each seat's three row texts."""
    return [tuple(row.strip() for row in seat.split("/")) for seat in deal]


def reference(deal, name, declared=None):
    """naive.settle_general's units for a deal: rows valued by the slow reference's own
    ladder (``joker``'s where the deck has jokers: the same ladder), fouls by its own
    legality check."""
    rules = solver.rule_set(name)
    base = "joker" if rules.jokers else "classic"
    seats = _seats(deal)
    keys = [[naive.row_key(row, base) for row in seat] for seat in seats]
    fouled = [not naive.is_legal(*seat, base) for seat in seats]
    return naive.settle_general(keys, rules, fouled, declared)


def check(deal, name, expected, declared=None):
    """The hand-worked units are the reference's and solver.settle's."""
    assert reference(deal, name, declared) == expected
    assert solver.settle(deal, name, declared=declared) == expected


# --- classic-1-6 ------------------------------------------------------------------------
A = "Qh Qd 3c / 9s 9h 9d 5c 5d / Ks Kh Kd Kc 2s"    # pair of queens, full house, quads
B = "As 4d 6c / Ah Ad 7c 8d Jc / Tc Td Th 6s 7s"    # ace high, pair of aces, trips
C = "Jh Js 2c / 3h 4h 8c 5s 2d / Jd 8s 8h 7d 6d"    # fouled: its Front beats its Middle
D = "2h 5h 6h / Qs Qc 9c Ts 7h / 3s 3d 4s 4c Ac"    # six high, pair of queens, two pair


def test_classic_1_6_a_row_is_one_and_all_three_rows_three_more():
    # A against B: A wins the Front (queens beat ace high), the Middle (full house beats
    #   a pair) and the Back (quads beat trips): 3 rows + 3 for all three = A +6.
    # A against C (fouled): C loses every row and the 3: A +6.
    # B against C (fouled): the same: B +6.
    # A: +6 +6 = +12; B: -6 +6 = 0; C: -6 -6 = -12.
    check([A, B, C], "classic-1-6", [12, 0, -12])


def test_classic_1_6_two_rows_of_three_are_one_unit():
    y = "As Ad 4d / 4c 5h 6c 7c 8d / 2h 3h 6h 8h Jh"   # pair of aces, straight, flush
    # Y wins the Front (aces beat queens): Y 1.  A wins the Middle (full house beats a
    # straight) and the Back (quads beat a flush): A 2.  No majority point: A +1.
    check([A, y], "classic-1-6", [1, -1])
    # (Under classic's 2-4 scoring the same rows are +2: the majority point.)
    assert solver.settle([A, y], "classic") == [2, -2]


# --- two-jokers --------------------------------------------------------------------------
def test_two_jokers_royalties_are_added_to_a_won_row():
    deal = ["Jk Jk 5c / 8c 8d 8s 6d 6c / Kc Kd Kh Ks 2h",    # D: trips, full house, quads
            "Qd Qh 3s / 2s 7s 9s Js Qs / 5h 6h 7h 8h 9h",    # E: pair, flush, straight flush
            "2c 3c 4d / Tc Td 4h 5d 6s / As Ad Ah 3d 3h"]    # F: high card, pair, full house
    # D against E: D wins the Front with trips (two jokers and a 5): 1 + 3 = 4, and the
    #   Middle with a full house: 1 + 2 = 3; E wins the Back with a straight flush:
    #   1 + 5 = 6.  Not all three rows: no 3.  D 7 - 6 = +1.
    # D against F: D wins every row: 1 + 3, 1 + 2, 1 + 4 (Back quads) = 12, and 3 for all
    #   three: D +15.
    # E against F: E wins every row: 1 (pair), 1 (flush), 1 + 5 (straight flush) = 8, and
    #   3: E +11.
    # D: 1 + 15 = 16; E: -1 + 11 = 10; F: -15 - 11 = -26.
    check(deal, "two-jokers", [16, 10, -26])


def test_two_jokers_joker_rows_earn_their_royalties():
    deal = ["Ah Kd 2c / Jk Ts Js Qs Ks / Jk 9s 9h 9d 9c",    # G: a joker straight flush, a joker five
            "Ad Kc 3h / 2d 3d 4d 5d 7d / Qh Qd Qc 4s 4h"]    # H: A K 3, flush, full house
    # Front: H's A K 3 beats G's A K 2: H 1.
    # Middle: G's straight flush (the joker an ace) beats a flush: 1 + 10 = 11.
    # Back: G's joker five (four 9s and a joker) beats a full house: 1 + 7 = 8.
    # G: 11 + 8 - 1 = +18.
    check(deal, "two-jokers", [18, -18])
    middle, back = _seats(deal)[0][1:]
    assert solver.row_value(middle, "two-jokers").category == "straight_flush"
    assert solver.row_value(back, "two-jokers").category == "joker_five"


# --- shisanshui ---------------------------------------------------------------------------
def test_shisanshui_a_shot_doubles_the_rows_and_the_royalties_that_replace_them():
    # A against B: A wins every row, a shot.  The Front pair scores 1; the Middle full
    #   house its royalty 2 instead of 1; the Back quads 4 instead of 1: 7, doubled: A +14.
    # A against C (fouled): C loses every row and is shot: 7 x 2 = A +14.
    # B against C: B's rows have no royalty: 1 + 1 + 1 = 3, doubled: B +6.
    # A shot both others, but at three seats there is no home run (x2, not x4).
    # A: 14 + 14 = 28; B: -14 + 6 = -8; C: -14 - 6 = -20.
    check([A, B, C], "shisanshui", [28, -8, -20])


def test_shisanshui_home_run_multiplies_by_four_at_four_seats():
    # D, with the 13 cards left, is shot by A as well: A shot all three at a table of
    #   four, a home run, so A's 7 against each is multiplied by 4: A +28 from each.
    # B against C: 3 x 2 = B +6 (B lost to A: no home run for B).
    # B against D: B wins every row (ace high beats six high, aces beat queens, trips beat
    #   two pair), no royalties: 3 x 2 = B +6.
    # C (fouled) against D: D shoots C: 3 x 2 = D +6.
    # A: 3 x 28 = 84; B: -28 + 6 + 6 = -16; C: -28 - 6 - 6 = -40; D: -28 - 6 + 6 = -28.
    check([A, B, C, D], "shisanshui", [84, -16, -40, -28])


FLUSHES = "2h 5h 9h / 3c 6c 8c Tc Qc / 4d 7d Jd Kd 2d"      # three flushes
STRAIGHTS = "Ah 2s 3d / 3h 4h 5s 6d 7c / 8s 9d Th Jc Qs"    # three straights
ROWS = "2c 4s 5d / 9s 9c 3s 6h 8h / As Ad Ac Kh Kc"          # plays its rows


def test_shisanshui_special_hands_are_declared_and_compared_by_strength():
    for seat, name in ((FLUSHES, "three_flushes"), (STRAIGHTS, "three_straights")):
        cards = " ".join(_seats([seat])[0])
        assert naive.holds_special(naive.parse(cards), name)
        assert solver.automatic_win(cards, "shisanshui").name == name
    declared = {0: "three_flushes", 1: "three_straights"}
    # Three flushes against three straights: both are worth 3, but the table ranks three
    #   flushes higher, so they collect their 3: seat 0 +3.
    # Each special against the seat that plays its rows: its units, 3: +3 each.
    # Seat 0: 3 + 3 = 6; seat 1: -3 + 3 = 0; seat 2: -3 - 3 = -6.
    deal = [FLUSHES, STRAIGHTS, ROWS]
    check(deal, "shisanshui", [6, 0, -6], declared)
    # Where strength is the units (classic's way), the two specials tie: 0 between them.
    by_units = dataclasses.replace(solver.rule_set("shisanshui"), name="by-units",
                                   automatic_win_strength={})
    assert solver.settle(deal, by_units, declared=declared) == [3, 3, -6]
    # Declaring is a choice.  Played as rows, three flushes win the Front (9 high beats 5
    #   high) and the Middle (a flush beats a pair), 1 + 1, and lose the Back to a full
    #   house, 1: +1.  Declared, they collect 3.
    check([FLUSHES, ROWS], "shisanshui", [1, -1])
    check([FLUSHES, ROWS], "shisanshui", [3, -3], {0: "three_flushes"})


# --- end to end ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", HOUSE_RULE_SETS)
def test_deals_played_end_to_end_settle_as_the_reference(name):
    rules = solver.rule_set(name)
    rng = np.random.default_rng(29)
    for players in rules.seats:
        cards = [card_name(int(c)) for c in rng.permutation(deck_codes(rules))]
        hands = [" ".join(cards[13 * s:13 * s + 13]) for s in range(players)]
        deal = [" / ".join(solver.quick_set(hand, name, players=players)) for hand in hands]
        assert all(solver.is_legal(*seat, name) for seat, hand in zip(_seats(deal), hands)
                   if solver.automatic_win(hand, name) is None)
        scores = solver.settle(deal, name)
        assert scores == reference(deal, name) and sum(scores) == 0
        # The solver's setting of the first seat's hand, played against the others'.
        best = solver.solve(hands[0], name, players=players, samples=200, seed=1)
        if not best.declare:
            deal[0] = f"{best.front} / {best.middle} / {best.back}"
            assert solver.is_legal(best.front, best.middle, best.back, name)
            assert solver.settle(deal, name) == reference(deal, name)


# --- shipped models ------------------------------------------------------------------------
@pytest.mark.parametrize("name", HOUSE_RULE_SETS)
def test_every_seat_count_has_a_shipped_model(name):
    rules = solver.rule_set(name)
    for players in rules.seats:
        seats_key = model_seats(rules, players)
        assert shipped_twin(rules, seats_key) is rules
        trained = solver.train_model(name, players)
        assert trained.source == "shipped" and trained.path == model_file(rules, seats_key)
    # shisanshui's home run is won across the table: a model of its own at four seats.
    assert {model_seats(rules, p) for p in rules.seats} == ({0, 4} if name == "shisanshui"
                                                           else {0})


HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"


def test_solving_under_the_house_rule_sets_never_trains(monkeypatch, tmp_path):
    def trainer(rules, n_seats):
        raise AssertionError(f"trained a model for {rules.name}, {n_seats} seats")

    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(model, "_trainer", trainer)
    model._shipped_model.cache_clear()
    try:
        for name in HOUSE_RULE_SETS:
            rules = solver.rule_set(name)
            for players in rules.seats:
                solver.solve(HAND, name, players=players, samples=60, seed=2)
    finally:
        model._shipped_model.cache_clear()
    assert not (tmp_path / "models").exists() or not any((tmp_path / "models").iterdir())
