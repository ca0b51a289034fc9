"""The three regional games shipped beside the house rule sets (docs/rules.md#regional-games):
``mau-binh`` (Mậu Binh, Vietnam), ``capsa-susun`` (Capsa Susun, Indonesia) and ``pusoy``
(Pusoy, the 13-card setting game of the Philippines).

Each file is checked field by field against its documented rules; then hand-worked deals
at 2, 3 and 4 seats (the units worked out line by line in comments), each figure three
ways: the hand-worked number, the slow reference (``naive.settle_general``) and
``solver.settle``.  Then a few random deals are played end to end under each, and the
shipped opponent models are shown to serve every seat count, so that no solve under these
names trains a model at run time."""
import dataclasses

import numpy as np
import pytest

import naive
import solver
from solver import model
from solver.cards import card_name, deck_codes
from solver.model import model_file, model_seats, shipped_twin
from solver.rules import RULES_DIR, SCHEME_GENERAL, builtin_name

REGIONAL = ("mau-binh", "capsa-susun", "pusoy")


def _seats(deal):
    """'FRONT / MIDDLE / BACK' texts -> each seat's three row texts."""
    return [tuple(row.strip() for row in seat.split("/")) for seat in deal]


def reference(deal, name, declared=None):
    """naive.settle_general's units for a deal: rows valued by the slow reference's own
    ladder, fouls by its own legality check (a declared seat's split is not looked at)."""
    rules = solver.rule_set(name)
    seats = _seats(deal)
    keys = [[naive.row_key(row, "classic") for row in seat] for seat in seats]
    fouled = [not naive.is_legal(*seat, "classic") for seat in seats]
    return naive.settle_general(keys, rules, fouled, declared)


def check(deal, name, expected, declared=None):
    """The hand-worked units are the reference's and solver.settle's."""
    assert reference(deal, name, declared) == expected
    assert solver.settle(deal, name, declared=declared) == expected


# Four hands of one deal (the pack split four ways), used by all three games.
A = "Qh Qd 3c / 9s 9h 9d 5c 5d / Ks Kh Kd Kc 2s"    # pair of queens, full house, quads
B = "As 4d 6c / Ah Ad 7c 8d Jc / Tc Td Th 6s 7s"    # ace high, pair of aces, trips
C = "Jh Js 2c / 3h 4h 8c 5s 2d / Jd 8s 8h 7d 6d"    # fouled: its Front beats its Middle
D = "2h 5h 6h / Qs Qc 9c Ts 7h / 3s 3d 4s 4c Ac"    # six high, pair of queens, two pair
# Two more, of another deal: trips, quads and a straight flush; trips, full house, quads.
X = "7s 7h 7c / 8s 8h 8d 8c 2d / 2h 3h 4h 5h 6h"
W = "Js Jd Jc / Ah Ad As 4c 4d / Ts Th Td Tc 3d"


# --- the files --------------------------------------------------------------------------
COMMON = dict(spade_copies=1, jokers=0, cut_card=False, cards_dealt=13, seats=(2, 3, 4),
              deal_all_unseen=True, row_points=(1, 1, 1), front_trips_points=0,
              majority_bonus=0, scoop="all_rows_won", home_run_units=0)
# The common bonus hands of 13-card play (Front trips, Middle full house, quads and
# straight flush, Back quads and straight flush): Mậu Binh's chi thưởng and Pusoy's guns
# are classic:eastern's units, Capsa Susun's twice them.
EASTERN = {("front", "trips"): 3, ("middle", "full_house"): 2, ("middle", "quads"): 8,
           ("middle", "straight_flush"): 10, ("back", "quads"): 4,
           ("back", "straight_flush"): 5}
FIELDS = {
    "mau-binh": dict(
        COMMON, scoop_units=0, shot_multiplier=2, home_run_multiplier=4, home_run_min_seats=3,
        bonus_mode="replace", bonus_paid="row_won", bonus_multiplied=True, row_bonus=EASTERN,
        foul_penalty=6, foul_loses_rows=False, automatic_wins_declared=True,
        automatic_wins={"suited_dragon": 24, "dragon": 12, "all_one_colour": 3,
                        "twelve_one_colour": 3, "five_pairs_and_trips": 3, "six_pairs": 3,
                        "three_flushes": 3, "three_straights": 3},
        automatic_win_strength={"suited_dragon": 8, "dragon": 7, "all_one_colour": 6,
                                "twelve_one_colour": 5, "five_pairs_and_trips": 4,
                                "six_pairs": 3, "three_flushes": 2, "three_straights": 1}),
    "capsa-susun": dict(
        COMMON, scoop_units=0, shot_multiplier=2, home_run_multiplier=4, home_run_min_seats=3,
        bonus_mode="replace", bonus_paid="row_won", bonus_multiplied=True,
        row_bonus={key: 2 * units for key, units in EASTERN.items()},
        foul_penalty=0, foul_loses_rows=True, automatic_wins_declared=True,
        automatic_wins={"dragon": 13, "six_pairs": 3, "three_flushes": 3, "three_straights": 3},
        automatic_win_strength={}),
    "pusoy": dict(
        COMMON, scoop_units=3, shot_multiplier=1, home_run_multiplier=1, home_run_min_seats=2,
        bonus_mode="add", bonus_paid="row_made", bonus_multiplied=False, row_bonus=EASTERN,
        foul_penalty=0, foul_loses_rows=True, automatic_wins_declared=True,
        automatic_wins={"dragon": 13, "six_pairs": 3, "three_flushes": 3, "three_straights": 3},
        automatic_win_strength={"dragon": 4, "three_flushes": 3, "three_straights": 2,
                                "six_pairs": 1}),
}


@pytest.mark.parametrize("name", REGIONAL)
def test_each_game_is_a_registered_file_with_its_documented_fields(name):
    path = RULES_DIR / f"{name}.toml"
    rs = solver.rule_set(path)
    expected = dict(FIELDS[name])
    bonus = expected.pop("row_bonus")
    for field, value in expected.items():
        got = getattr(rs, field)
        assert (dict(got) if isinstance(value, dict) else got) == value, field
    assert {(row, category): units
            for row, units_of in zip(("front", "middle", "back"), rs.row_bonus)
            for category, units in zip(solver.rules.CATEGORIES, units_of) if units} == bonus
    assert solver.rule_set(name) == rs and builtin_name(rs) == name
    assert rs.scheme == SCHEME_GENERAL
    assert path.read_text(encoding="utf-8").startswith(f"# {name}")     # says what it is
    assert name in solver.RULE_SET_NAMES


# --- Mậu Binh -----------------------------------------------------------------------------
def test_mau_binh_chi_thuong_replace_the_chi_and_sap_ham_doubles_them():
    # A against B: A wins every chi (sập hầm).  The Front pair scores 1; the Middle full
    #   house (cù lũ chi giữa) 2 instead of 1; the Back quads (tứ quý chi đầu) 4 instead
    #   of 1: 7, doubled for sập hầm: A +14.  Two players: no sập làng.
    check([A, B], "mau-binh", [14, -14])
    # X against W: W wins the Front with trips of jacks (sám chi cuối): 3.  X wins the
    #   Middle with quads (tứ quý chi giữa): 8, and the Back with a straight flush (thùng
    #   phá sảnh chi đầu): 5.  Not all three: no doubling.  X 13 - 3 = +10.
    check([X, W], "mau-binh", [10, -10])


def test_mau_binh_sap_lang_doubles_again_at_three_players():
    # A wins every chi against B (7, as above) and against D (pair beats six high, full
    #   house beats a pair: 2, quads beat two pair: 4; 7): A scoops everyone, sập làng at
    #   three players: 7 x 4 = 28 from each.  A +56.
    # B against D: B wins every chi (ace high beats six high, aces beat queens, trips beat
    #   two pair), no chi thưởng: 3, doubled for sập hầm: B +6 (no sập làng: B lost to A).
    # A: 28 + 28 = 56; B: -28 + 6 = -22; D: -28 - 6 = -34.
    check([A, B, D], "mau-binh", [56, -22, -34])


def test_mau_binh_binh_lung_pays_six_to_each_and_is_never_scooped():
    # C is binh lủng (its Front pair of jacks beats its Middle, jack high).
    # A against B: 7 doubled: A +14.  A against C: C pays 6.  B against C: C pays 6.
    # A scooped B, but nobody scoops a binh lủng: no sập làng for A (x2, not x4).
    # A: 14 + 6 = 20; B: -14 + 6 = -8; C: -6 - 6 = -12.
    check([A, B, C], "mau-binh", [20, -8, -12])
    # Four players: A +14 against B and against D (sập hầm each, but C is not scooped: no
    #   sập làng), +6 from C.  B: -14, +6 from C, +6 against D (sập hầm).  C pays 6 to each
    #   of the other three.  D: -14, -6, +6 from C.
    # A: 14 + 6 + 14 = 34; B: -14 + 6 + 6 = -2; C: -18; D: -14 - 6 + 6 = -14.
    check([A, B, C, D], "mau-binh", [34, -2, -18, -14])
    # Two binh lủng hands tie: C against a second fouled hand is 0; each pays A 6.
    e = "Ah Ad 4c / 2h 6c 7c Tc Qs / Th Td Ts 6s 7s"      # aces in Front over queen high
    assert solver.settle([A, C, e], "mau-binh") == [12, -6, -6]
    assert reference([A, C, e], "mau-binh") == [12, -6, -6]


DRAGON = "2h 3c 4d / 5d 6d 7d 8d 9h / Ts Js Qh Kh Ah"             # sảnh rồng
TWELVE_BLACK = "2c 2s 2d / 4c 5c 6c 7c 8c / 9c 9s Tc Jc Qc"       # 12 lá đồng màu (2d red)
FIVE_PAIRS = "3s 3h 3d / 4s 4h 5s 5h 6s / 6h 7s 7h 8s 8h"         # 5 đôi 1 sám
PLAYS = "Qs Jh Th / As Ac Ks Kc 9d / Ad Kd Qd Jd Td"                # plays its chi


def test_mau_binh_toi_trang_are_ranked_by_the_table_not_by_their_units():
    for seat, name in ((DRAGON, "dragon"), (TWELVE_BLACK, "twelve_one_colour"),
                       (FIVE_PAIRS, "five_pairs_and_trips")):
        cards = " ".join(_seats([seat])[0])
        assert naive.holds_special(naive.parse(cards), name)
        assert solver.automatic_win(cards, "mau-binh").name == name
    declared = {0: "dragon", 1: "twelve_one_colour", 2: "five_pairs_and_trips"}
    deal = [DRAGON, TWELVE_BLACK, FIVE_PAIRS, PLAYS]
    # The dragon (sảnh rồng, 12) is the strongest: 12 from each other player: +36.
    # Twelve of one colour ranks above five pairs and trips (both 3 chi): it collects 3
    #   from it, and 3 from the player who plays: -12 + 3 + 3 = -6.
    # Five pairs and trips: -12 - 3, and 3 from the player: -12.
    # The player pays 12 + 3 + 3 = 18.
    check(deal, "mau-binh", [36, -6, -12, -18], declared)
    # Where strength were the units, the two 3-chi hands would tie.
    by_units = dataclasses.replace(solver.rule_set("mau-binh"), name="by-units",
                                   automatic_win_strength={})
    assert solver.settle(deal, by_units, declared=declared) == [36, -9, -9, -18]


# --- Capsa Susun ------------------------------------------------------------------------------
def test_capsa_susun_special_hands_score_twice_the_eastern_units_instead_of_the_point():
    # A against B: A wins every row: the Front pair 1, the Middle full house 4 (instead of
    #   1), the Back quads 8: 13, doubled for winning all three: A +26.
    check([A, B], "capsa-susun", [26, -26])
    # X against W: W's Front trips of jacks score 6.  X's Middle quads score 16 and its Back
    #   straight flush 10.  Not all three rows: X 26 - 6 = +20.
    check([X, W], "capsa-susun", [20, -20])


def test_capsa_susun_winning_every_row_against_everyone_scores_four_times():
    # Three players: A wins every row against B (13) and D (1 + 4 + 8 = 13): x4, 52 from
    #   each: A +104.  B against D: 3 rows, no special hand, doubled: B +6.
    # A: 104; B: -52 + 6 = -46; D: -52 - 6 = -58.
    check([A, B, D], "capsa-susun", [104, -46, -58])
    # Four players with C fouled: a fouled hand loses every row, so A has won all three
    #   rows against each of B, C and D: x4, 13 x 4 = 52 from each: A +156.
    # B against C: 3 rows doubled, 6; B against D: 6.  D against C: D's rows have no special
    #   hand: 3 doubled, 6.
    # A: 156; B: -52 + 6 + 6 = -40; C: -52 - 6 - 6 = -64; D: -52 - 6 + 6 = -52.
    check([A, B, C, D], "capsa-susun", [156, -40, -64, -52])


SPADE_DRAGON = "2s 3s 4s / 5s 6s 7s 8s 9s / Ts Js Qs Ks Ah"        # a dragon
FLUSHES = "2h 5h 9h / 3c 6c 8c Tc Qc / 4d 7d Jd Kd 2d"             # three flushes
PLAYS_TOO = "Qd 9c 2c / Th Td 3h 4c 5c / As Ad Ac 8h 8d"


def test_capsa_susun_special_hands_are_claimed_and_the_dragon_beats_the_others():
    # The dragon collects 13 from the three flushes and 13 from the player: +26.
    # The three flushes: -13, and 3 from the player: -10.  The player: -13 - 3 = -16.
    deal = [SPADE_DRAGON, FLUSHES, PLAYS_TOO]
    check(deal, "capsa-susun", [26, -10, -16], {0: "dragon", 1: "three_flushes"})


# --- Pusoy -------------------------------------------------------------------------------------
def test_pusoy_a_row_is_one_a_sweep_three_more_and_guns_are_paid_when_made():
    # A against B: A wins every row: 3, and 3 for the sweep (a "pusoy").  A's guns, made:
    #   body full house 2 and base quads 4, paid by B: 6.  B has none.  A 3 + 3 + 6 = +12.
    check([A, B], "pusoy", [12, -12])
    # X against W: W wins the head (trips of jacks beat trips of sevens): 1.  X wins the
    #   body (quads beat a full house) and the base (a straight flush beats quads): 2.
    #   Guns are paid whether the row wins or not: X's head trips 3, body quads 8, base
    #   straight flush 5 = 16; W's head trips 3, body full house 2, base quads 4 = 9.
    #   X: 2 - 1 + 16 - 9 = +8.
    check([X, W], "pusoy", [8, -8])


def test_pusoy_a_fouled_hand_loses_every_row_and_the_sweep():
    # Three players: A against B, +12 (above).  A against the fouled C: C loses every row
    #   and the sweep, 3 + 3, and pays A's guns, 6: +12; C's own guns are not paid (it has
    #   none).  B against C: 3 + 3 = +6.
    # A: 24; B: -12 + 6 = -6; C: -12 - 6 = -18.
    check([A, B, C], "pusoy", [24, -6, -18])
    # Four players: A sweeps D too, 3 + 3 + 6 = +12.  B sweeps D, 3 + 3 = 6.  D against
    #   C: 6.  No home runs in Pusoy.
    # A: 36; B: -12 + 6 + 6 = 0; C: -12 - 6 - 6 = -24; D: -12 - 6 + 6 = -12.
    check([A, B, C, D], "pusoy", [36, 0, -24, -12])


P_FLUSHES = "2h 5h 9h / 3c 6c 8c Tc Qc / 4d 7d Jd Kd 2d"
P_STRAIGHTS = "Ah 2s 3d / 3h 4h 5s 6d 7c / 8s 9d Th Jc Qs"
P_SIX_PAIRS = "6s 6h 7s / 7h Ts Td Js Jh / Qh Qd Ks Kh 8d"
P_PLAYS = "2c 4s 5d / 9s 9c 3s 4c 8h / As Ad Ac 5c Kc"


def test_pusoy_naturals_three_flushes_beat_three_straights_beat_six_pairs():
    declared = {0: "three_flushes", 1: "three_straights", 2: "six_pairs"}
    deal = [P_FLUSHES, P_STRAIGHTS, P_SIX_PAIRS, P_PLAYS]
    # Each natural is worth 3; the stronger collects its 3 from the weaker.
    # Three flushes: 3 from each of the others: +9.
    # Three straights: -3, then 3 from six pairs and 3 from the player: +3.
    # Six pairs: -3 - 3, and 3 from the player: -3.  The player: -9.
    check(deal, "pusoy", [9, 3, -3, -9], declared)


# --- end to end --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", REGIONAL)
def test_deals_played_end_to_end_settle_as_the_reference(name):
    rules = solver.rule_set(name)
    rng = np.random.default_rng(31)
    for players in rules.seats:
        cards = [card_name(int(c)) for c in rng.permutation(deck_codes(rules))]
        hands = [" ".join(cards[13 * s:13 * s + 13]) for s in range(players)]
        deal = [" / ".join(solver.quick_set(hand, name, players=players)) for hand in hands]
        assert all(solver.is_legal(*seat, name) for seat, hand in zip(_seats(deal), hands)
                   if solver.automatic_win(hand, name) is None)
        scores = solver.settle(deal, name)
        assert scores == reference(deal, name) and sum(scores) == 0
    # The solver's setting of a hand, played against the others'.
    best = solver.solve(hands[0], name, players=players, samples=150, seed=1)
    if not best.declare:
        deal[0] = f"{best.front} / {best.middle} / {best.back}"
        assert solver.is_legal(best.front, best.middle, best.back, name)
        assert solver.settle(deal, name) == reference(deal, name)


# --- shipped models ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", REGIONAL)
def test_every_seat_count_has_a_shipped_model(name):
    rules = solver.rule_set(name)
    for players in rules.seats:
        seats_key = model_seats(rules, players)
        assert shipped_twin(rules, seats_key) is rules
        trained = solver.train_model(name, players)
        assert trained.source == "shipped" and trained.path == model_file(rules, seats_key)
    # Sập làng and Capsa Susun's x4 are won across the table from three players on: a
    # model for two players, one for three and one for four.  Pusoy has no home run.
    assert {model_seats(rules, p) for p in rules.seats} == ({0} if name == "pusoy"
                                                           else {0, 3, 4})


HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"


def test_solving_under_the_regional_games_never_trains(monkeypatch, tmp_path):
    def trainer(rules, n_seats):
        raise AssertionError(f"trained a model for {rules.name}, {n_seats} seats")

    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(model, "_trainer", trainer)
    model._shipped_model.cache_clear()
    try:
        for name in REGIONAL:
            rules = solver.rule_set(name)
            for players in rules.seats:
                solver.solve(HAND, name, players=players, samples=60, seed=2)
    finally:
        model._shipped_model.cache_clear()
    assert not (tmp_path / "models").exists() or not any((tmp_path / "models").iterdir())
