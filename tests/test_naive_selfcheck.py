"""Self-check of the naive reference (tests/naive.py) against every worked example and
check of the rules in docs/rules.md (joker, pagat, bonus, classic) and of the original
rule documents they come from.

Where a document states a situation abstractly (scoring examples), a concrete deal of real
cards producing exactly that situation is built here; each deal is also checked for card
counts against the rule set's deck (settle does that) and for legality.
"""

import os
import random
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive as N  # noqa: E402

K = N.row_key


def cat(cards, rule_set="joker", cut=None):
    return N.row_category(cards, rule_set, cut)


# ---------------------------------------------------------------------------------------
# Notation (docs/rules.md#card-notation)
# ---------------------------------------------------------------------------------------

def test_parse_notation():
    assert N.parse("As Td 2c Jk") == [(14, "s"), (10, "d"), (2, "c"), N.JOKER]
    assert N.parse("as,td , 2C JK jk x X") == [(14, "s"), (10, "d"), (2, "c")] + [N.JOKER] * 4
    assert N.parse("10h A\u2660 K\u2665 q\u2666 2\u2663") == [
        (10, "h"), (14, "s"), (13, "h"), (12, "d"), (2, "c")]
    # Jc is the jack of clubs, Jk the joker
    assert N.parse("Jc Jk") == [(11, "c"), N.JOKER]
    assert N.cards_str(N.parse("as 10d 2C jk")) == "As Td 2c Jk"
    for bad in ("1s", "Az", "11h", "s"):
        with pytest.raises(ValueError):
            N.parse(bad)


def test_card_count_errors():
    with pytest.raises(ValueError, match="As"):
        K("As As As Kd 2c", "joker")          # a third As
    with pytest.raises(ValueError, match="Ah"):
        K("Ah Ah Kd", "joker")                 # a second Ah
    with pytest.raises(ValueError, match="Jk"):
        N.settle([("Jk Jk 2c", "Jk Jk 3c 4d 5h", "6s 7s 8s 9s Ts")], "joker")
    with pytest.raises(ValueError):
        K("As As Kd", "pagat")                 # any repeat in pagat
    with pytest.raises(ValueError):
        K("As Ks Jk", "classic")               # joker outside joker
    with pytest.raises(ValueError):
        K("As Ks Jk", "bonus", 4)
    with pytest.raises(ValueError):
        K("As Ks Qd", "bonus")                 # bonus needs the cut rank
    with pytest.raises(ValueError):
        K("As Ks Qd Jd", "joker")              # 4-card row


def test_category_list_order():
    assert N.CATEGORIES.index("joker_trips") < N.CATEGORIES.index("straight")
    assert N.CATEGORIES[0] == "high_card" and N.CATEGORIES[-1] == "natural_five"
    assert N.JOKER_TRIPS == N.CATEGORIES.index("joker_trips")


# ---------------------------------------------------------------------------------------
# Plain ladder and tie-breaks (docs/rules.md#the-ladder, docs/rules.md#tie-breaks)
# ---------------------------------------------------------------------------------------

def test_ladder_classic_increasing():
    # strictly increasing chain on one scale (Front and 5-card rows mixed)
    chain = [
        "9c 7d 5h 3s 2c",          # high card 9
        "Ac 5d 2h",                # front high card A-5-2
        "Ac 5d 2h Ks Qc",          # A-K-Q-5-2
        "2c 2d 3h",                # front pair of 2, kicker 3
        "2c 2d 3h 7s 4c",          # pair 2, 7-4-3
        "2c 2d Ah",                # front pair of 2, kicker A: beats pair 2 with 7 kicker
        "3c 3d 2h 5s 4c",          # pair 3
        "3c 3d 2h 2s 4c",          # two pair 3-2
        "Kc Kd Qh Qs 2c",          # two pair K-Q
        "2c 2d 2h",                # front trips 2
        "2c 2d 2h 4s 3c",          # trips 2 + kickers beats front trips 2
        "Ac Ad Ah",                # front trips A
        "Ac 2d 3h 4s 5c",          # wheel: the lowest straight
        "2c 3d 4h 5s 6c",
        "Tc Jd Qh Ks Ac",          # A-high straight
        "2c 3c 4c 5c 7c",          # flush 7-high
        "Ac Kc Qc Jc 9c",          # flush A-K-Q-J-9
        "2c 2d 2h 3s 3c",          # full house 2 over 3
        "Ac Ad Ah Ks Kc",
        "2c 2d 2h 2s 3c",          # quads 2
        "Ac Ad Ah As Kc",
        "Ac 2c 3c 4c 5c",          # steel wheel: lowest straight flush
        "9h Th Jh Qh Kh",
        "Ts Js Qs Ks As",          # royal
    ]
    keys = [K(r, "classic") for r in chain]
    for a, b, ra, rb in zip(keys, keys[1:], chain, chain[1:]):
        assert a < b, (ra, rb)
    assert cat("Ac 2d 3h 4s 5c", "classic") == "straight" and K("Ac 2d 3h 4s 5c", "classic") == (6, 5)
    assert cat("Tc Jd Qh Ks Ac", "classic") == "straight" and K("Tc Jd Qh Ks Ac", "pagat") == (6, 14)
    # no wrap-around
    assert cat("Jc Qd Kh As 2c", "classic") == "high_card"
    assert cat("Qc Kd Ah 2s 3c", "pagat") == "high_card"


def test_tie_break_details():
    # pair: pair then kickers; two pair: high, low, kicker; suits never break ties
    assert K("9c 9d Ah 5s 4c", "pagat") == (1, 9, 14, 5, 4)
    assert K("Kc Kd 2h 2s Ac", "pagat") == (2, 13, 2, 14)
    assert K("Kc Kd 2h 2s Ac", "pagat") == K("Kh Ks 2c 2d Ad", "pagat")
    assert K("Kc Kd 3h 3s 2c", "pagat") > K("Kh Ks 2c 2d Ad", "pagat")
    assert K("4c 4d 4h As Kc", "classic") == (3, 4, 14, 13)
    assert K("4c 4d 4h 9s 9c", "classic") == (9, 4, 9)
    assert K("4c 4d 4h 4s 9c", "classic") == (11, 4, 9)
    assert K("Ac Jc 9c 5c 3c", "classic") == (7, 14, 11, 9, 5, 3)
    # straights compare by top card only
    assert K("5c 6d 7h 8s 9c", "classic") == K("5d 6h 7s 8c 9d", "classic")


def test_front_has_no_straights_or_flushes():
    # docs/rules.md#the-ladder, all rule sets
    for rs, cut in (("joker", None), ("bonus", 9), ("pagat", None), ("classic", None)):
        assert cat("2h 3h 4h", rs, cut) == "high_card"
        assert K("Qs Ks As", rs, cut) == (0, 14, 13, 12)
    assert cat("Jk 2h 3h", "joker") == "pair"


def test_missing_kicker_is_lowest():
    # docs/rules.md#tie-breaks (joker, pagat and bonus documents): a comparison reaching
    # a kicker the Front lacks -> 5-card row higher
    assert K("Kc 9d 4h", "pagat") < K("Ks 9h 4d 3c 2s", "pagat")
    assert K("9c 9d Kh", "pagat") > K("9h 9s 5d 4c 3s", "pagat")
    assert K("Ac Ad Ah", "classic") < K("Ac Ad Ah 3s 2s", "classic")
    assert K("Ac Ad Ah", "joker") < K("As Jk Jk 3s 2c", "joker")


# ---------------------------------------------------------------------------------------
# Jokers (docs/rules.md#jokers)
# ---------------------------------------------------------------------------------------

def test_joker_checks():
    assert cat("5c 7d Jk") == "pair" and K("5c 7d Jk", "joker") == (1, 7, 5)
    assert cat("As Ks Jk Jk Jk") == "straight_flush" and K("As Ks Jk Jk Jk", "joker") == (13, 14)
    assert cat("As 9s Jk Jk Jk") == "quads" and K("As 9s Jk Jk Jk", "joker") == (11, 14, 9)
    assert cat("Jk Jk Jk Kh 8d") == "quads" and K("Jk Jk Jk Kh 8d", "joker") == (11, 13, 8)
    assert cat("As Ks 9s Jk Jk") == "paired_flush"
    assert K("As Ks 9s Jk Jk", "joker") == (8, 2, 14, 13, 9)


def test_joker_counting_table():
    J = "joker"
    # 5, 7, Joker -> pair of 7s
    assert K("5c 7d Jk", J) == (1, 7, 5)
    # A, Joker, Joker (Front) -> three Aces
    assert K("Ah Jk Jk", J) == (N.TRIPS, 14)
    # 4, 5, 6, 7, Joker -> straight 4-8
    assert K("4c 5d 6h 7s Jk", J) == (N.STRAIGHT, 8)
    # 2, 3, 4, Joker, Joker -> straight 2-6
    assert K("2c 3d 4h Jk Jk", J) == (N.STRAIGHT, 6)
    # A, A, K, K, Joker -> Aces full
    assert K("Ah Ad Kc Kh Jk", J) == (N.FULL_HOUSE, 14, 13)
    # A, K, 5, 2 of one suit + Joker -> paired flush A-A-K-5-2 (also a non-spade suit)
    assert K("Ah Kh 5h 2h Jk", J) == (N.PAIRED_FLUSH, 1, 14, 13, 5, 2)
    assert K("As Ks 5s 2s Jk", J) == (N.PAIRED_FLUSH, 1, 14, 13, 5, 2)
    # As Ks 9s + Jk Jk -> two-pair paired flush A-A-K-K-9, not three Aces
    assert K("As Ks 9s Jk Jk", J) == (N.PAIRED_FLUSH, 2, 14, 13, 9)
    # 6, 6, 6, Joker + any card -> four 6s, beats four 5s
    assert K("6s 6h 6d Jk 2c", J) == (N.QUADS, 6, 2)
    assert K("6s 6h 6d Jk 2c", J) > K("5s 5h 5d 5c Kc", J)
    # Joker, Joker, Joker, K, 8 -> four Kings with an 8, beats K-K-K-K-7
    assert K("Jk Jk Jk Kh 8d", J) == (N.QUADS, 13, 8)
    assert K("Jk Jk Jk Kh 8d", J) > K("Ks Kh Kd Kc 7c", J)
    # As Ks + 3 Jokers -> straight flush 10-J-Q-K-A
    assert K("As Ks Jk Jk Jk", J) == (N.STRAIGHT_FLUSH, 14)
    # As 9s + 3 Jokers -> four Aces with a 9
    assert K("As 9s Jk Jk Jk", J) == (N.QUADS, 14, 9)
    # As 7s 7s 5s + Joker -> paired flush two pair A-A, 7-7; beats 8-8, 6-6, A
    assert K("As 7s 7s 5s Jk", J) == (N.PAIRED_FLUSH, 2, 14, 7, 5)
    assert K("As 7s 7s 5s Jk", J) > K("8s 8s 6s 6s As", J)


def test_joker_statements():
    J = "joker"
    # 9-8-7-6-5 ties Joker + 8-7-6-5; Joker + 9-8-7-6 (as 10) beats 9-8-7-6-5
    assert K("9c 8d 7h 6s 5c", J) == K("Jk 8d 7h 6s 5c", J)
    assert K("Jk 9d 8h 7s 6c", J) > K("9c 8d 7h 6s 5c", J)
    # natural five of 2s beats joker five of three Aces + two Jokers
    assert cat("2s 2s 2h 2d 2c") == "natural_five"
    assert cat("As Ah Ad Jk Jk") == "joker_five"
    assert K("2s 2s 2h 2d 2c", J) > K("As Ah Ad Jk Jk", J)
    # joker fives by rank only: four Aces + 1 Joker beats three Queens + 2 Jokers
    assert K("As Ah Ad Ac Jk", J) == (N.JOKER_FIVE, 14) == K("As Ah Jk Jk Jk", J)
    assert K("As Ah Ad Ac Jk", J) > K("Qs Qh Qd Jk Jk", J)
    # a row with a joker is never high card
    assert cat("2c 5d 9h Jc Jk") == "pair"
    # a joker kicker is the highest card it can be, never above a real Ace
    assert K("Ks Kh 2d 5c Jk", J) == (N.TRIPS, 13, 5, 2)


def test_joker_front_rules():
    J = "joker"
    assert cat("Jk Jk Jk") == "joker_trips" and K("Jk Jk Jk", J) == (N.JOKER_TRIPS,)
    # two jokers and a card in the Front: trips of that card's rank (docs/rules.md#jokers)
    assert K("Jk Jk 2c", J) == (N.TRIPS, 2)
    assert K("Jk 5d Jk", J) == (N.TRIPS, 5)
    # As As Jk: the joker may not be a third As, but can be another Ace
    assert K("As As Jk", J) == (N.TRIPS, 14)
    # joker trips beat any trips but lose to a straight
    assert K("Jk Jk Jk", J) > K("As Ah Ad", J)
    assert K("Jk Jk Jk", J) > K("As Ah Ad Kc Qc", J)
    assert K("Jk Jk Jk", J) < K("Ac 2d 3h 4s 5c", J)
    assert N.is_legal("Jk Jk Jk", "5c 6d 7h 8s 9c", "Ah Kh 9h 5h 2h", J)
    assert not N.is_legal("Jk Jk Jk", "As Ah Ad Kc Qc", "Ts Th Td Tc 2h", J)


def test_no_card_three_times_in_a_row():
    J = "joker"
    # As As Ks Qs + Jk: a third As would make a "three of a kind flush"; not allowed.
    assert K("As As Ks Qs Jk", J) == (N.PAIRED_FLUSH, 2, 14, 13, 12)
    # natural paired flush only from the two spade sets
    assert cat("As As Ks 7s 2s") == "paired_flush"
    assert cat("As As Ks 7s 2s", "bonus", 9) == "paired_flush"
    assert K("2s 2s 3s 4s 6s", J) > K("Ah Kh Qh Jh 9h", J)          # beats any flush
    assert K("2s 2s 3s 3s 6s", J) > K("As As Ks Qs Js", J)          # two-pair level first
    # five consecutive spades are a straight flush, not a (paired) flush or straight (bonus document)
    assert cat("9s Ts Js Qs Ks", "bonus", 4) == "straight_flush"


def test_joker_wheel_and_straight_flushes():
    J = "joker"
    assert K("Jk 2h 3d 4c 5s", J) == (N.STRAIGHT, 6)      # 2-6 beats A-5
    assert K("Ah 2h 3h 4h Jk", J) == (N.STRAIGHT_FLUSH, 5)
    assert K("Ah 2h 3h 4h 5h", J) == (N.STRAIGHT_FLUSH, 5)
    assert K("Ah 2c 3d 4h 5s", J) == (N.STRAIGHT, 5)


def test_three_joker_row_is_fast():
    N._row_key_cached.cache_clear()
    t = time.perf_counter()
    K("7c 2d Jk Jk Jk", "joker")
    assert time.perf_counter() - t < 1.0


# ---------------------------------------------------------------------------------------
# Bonus cards (docs/rules.md#bonus-cards)
# ---------------------------------------------------------------------------------------

def test_bonus_categories():
    B = "bonus"
    # Bonus trips with Bonus rank 2 still beat three Aces
    assert cat("2s 2h 2d", B, 2) == "bonus_trips"
    assert K("2s 2h 2d", B, 2) > K("As Ah Ad", B, 2)
    assert K("2s 2h 2d 7c 5h", B, 2) > K("As Ah Ad Kc Qh", B, 2)
    assert K("2s 2h 2d 7c 5h", B, 2) < K("3c 4d 5h 6s 7c", B, 2)     # below a straight
    # Bonus rank 7: 7-7-7-K-K bonus full house; K-K-K-7-7 regular
    assert cat("7s 7h 7d Ks Kh", B, 7) == "bonus_full_house"
    assert cat("Ks Kh Kd 7s 7h", B, 7) == "full_house"
    assert K("7s 7h 7d 2s 2h", B, 7) > K("As Ah Ad Ks Kh", B, 7)
    assert K("7s 7h 7d 2s 2h", B, 7) < K("3s 3h 3d 3c 2d", B, 7)     # below quads
    # pairs / two pairs of the Bonus rank: no upgrade
    assert cat("7s 7h 9d 5c 3s", B, 7) == "pair"
    assert cat("7s 7h 9d 9c 3s", B, 7) == "two_pair"
    # four Bonus cards plus any card: bonus quads; above quads, below straight flush
    assert cat("4s 4s 4h 4d 9c", B, "4c") == "bonus_quads"
    assert K("4s 4s 4h 4d 2c", B, 4) > K("As As Ah Ad Kc", B, 4)
    assert K("4s 4s 4h 4d 2c", B, 4) < K("2c 3c 4c 5c 6c", B, 4)
    # natural five exists in the bonus deck (not of the Bonus rank)
    assert cat("9s 9s 9h 9d 9c", B, 4) == "natural_five"
    # bonus categories exist only in bonus
    assert cat("7s 7h 7d", "joker") == "trips"
    assert cat("7s 7h 7d Ks Kh", "joker") == "full_house"
    assert cat("7s 7h 7d 7c Kh", "classic") == "quads"
    # cut rank notations
    assert K("4s 4h 4d", B, "4c") == K("4s 4h 4d", B, 4) == K("4s 4h 4d", B, "4")


# ---------------------------------------------------------------------------------------
# Legal arrangements and fouls (docs/rules.md#legality)
# ---------------------------------------------------------------------------------------

def test_joker_legal_examples():
    J = "joker"
    # Front A-A-A, Middle A + Joker + Joker + two kickers: legal
    assert N.is_legal("As Ah Ad", "Ac Jk Jk 7d 3h", "Ks Kh Kd Kc 2s", J)
    # Front 9-9-K, Middle 9-9-5-4-3: foul
    assert not N.is_legal("9s 9h Kd", "9d 9c 5s 4h 3d", "As Ah Ad 2c 2d", J)
    # Front K-9-4, Middle K-9-4-3-2: legal
    assert N.is_legal("Ks 9h 4d", "Kh 9d 4c 3s 2h", "Ah Ad 5c 5d 7s", J)
    # Middle may equal Back; Back below Middle is a foul
    assert N.is_legal("Qs Js 2d", "As Kh 9d 5c 3s", "As Kd 9h 5s 3c", J)
    assert not N.is_legal("Qs Js 2d", "Ah Ad 5c 5d 7s", "Kh 9d 4c 3s 2h", J)
    # wrong sizes
    assert not N.is_legal("Qs Js", "As Kh 9d 5c 3s 2d", "As Kd 9h 5s 3c", J)


def test_bonus_legal_examples():
    B = "bonus"
    assert N.is_legal("Ks 9h 4d", "Kh 9d 4c 3s 2h", "Ah Ad 5c 5d 7s", B, 8)
    assert not N.is_legal("9s 9h Kd", "9d 9c 5s 4h 3d", "As Ah Ad 2c 2d", B, 8)
    # Middle and Back may be equal (two spade sets make it possible)
    assert N.is_legal("Qs Js 2d", "As Kh 9d 5c 3s", "As Kd 9h 5s 3c", B, 8)
    # bonus trips in the Front need a Middle above bonus trips
    assert not N.is_legal("8s 8h 8d", "As Ah Ad Kc Qh", "2c 3d 4h 5s 6c", B, 8)
    assert N.is_legal("8s 8h 8d", "2c 3d 4h 5s 6c", "Ks Kh Kd Qc Qh", B, 8)


def test_pagat_and_classic_legality():
    for rs in ("pagat", "classic", "classic:eastern", "classic:mandarin"):
        assert N.is_legal("Ks 9h 4d", "Kh 9d 4c 3s 2h", "Ah Ad 5c 5d 7s", rs)
        assert not N.is_legal("9s 9h Kd", "9d 9c 5s 4h 3d", "As Ah Ad 2c 2d", rs)
        assert not N.is_legal("9s 9h Kd 2s", "9d 9c 5s 4h", "As Ah Ad 2c 2d", rs)


# ---------------------------------------------------------------------------------------
# Settlement: joker (docs/rules.md#joker)
# ---------------------------------------------------------------------------------------

# A: home run; A's Middle four 9s beats B, C, D; B scoops C; B-D and C-D split.
# All four Backs are equal royal flushes, so no Back ever wins (no other bonus).
JOKER_EXAMPLE_DEAL = [
    ("2s 2d Ac", "9s 9h 9d 9c 2h", "As Ks Qs Js Ts"),   # A
    ("2s 2c Kc", "6s 6h 6d 5h 5d", "As Ks Qs Js Ts"),   # B
    ("Qc Jc 4d", "4s 4h 3s 3h 7s", "Ah Kh Qh Jh Th"),   # C
    ("Tc 8c 3c", "8s 8h Jk 7h 7d", "Ad Kd Qd Jd Td"),   # D (joker makes 8s full of 7s)
]


def test_joker_scoring_example():
    for arr in JOKER_EXAMPLE_DEAL:
        assert N.is_legal(*arr, "joker")
    assert N.row_category(JOKER_EXAMPLE_DEAL[0][1], "joker") == "quads"
    assert N.settle(JOKER_EXAMPLE_DEAL, "joker") == [18, -5, -7, -6]


def test_joker_front_bonuses():
    # Same deal, A's Front made into trips (Jk Jk Ac): +1 from each, on top
    deal = [list(a) for a in JOKER_EXAMPLE_DEAL]
    deal[0][0] = "Jk Jk Ac"
    assert N.settle(deal, "joker") == [21, -6, -8, -7]
    # A's Front joker trips: +5 from each, never also +1 (docs/rules.md#joker)
    deal[0][0] = "Jk Jk Jk"
    deal[3][1] = "8s 8h 8d 7h 7d"
    assert N.settle(deal, "joker") == [33, -10, -12, -11]


def test_joker_ties_count_as_not_losing():
    # Seats 0 and 1 have equal values in every row: they scoop each other (cancelling),
    # and both scoop seats 2 and 3, so both hit a home run.  Seats 2 and 3 split.
    deal = [("As Kh 7d", "Qs Qh 8s 8h 3c", "2h 4h 6h 9h Jh"),
            ("As Kd 7c", "Qs Qc 8s 8d 3d", "2d 4d 6d 9d Jd"),
            ("Kc Qd 5s", "Ts Tc 9c 2c 4s", "3s 4c 5h 6s 7h"),
            ("Ks Jc 2s", "Td Th 9s 6c 3s", "Ac Ad 5c 5d 7s")]
    # 0: +3 scoops -1 scooped by 1 +9 home run -3 paid to 1's home run = +8
    assert N.settle(deal, "joker") == [8, 8, -8, -8]
    # bonus scoring: home run is 2 more from each instead of 3
    assert N.settle(deal, "bonus", 13) == [6, 6, -6, -6]


# ---------------------------------------------------------------------------------------
# Settlement: bonus (docs/rules.md#bonus)
# ---------------------------------------------------------------------------------------

# Example 1 (cut 4c, Bonus rank 4): A home run, B scoops C, no other scoop, no bonus hand.
BONUS_EXAMPLE_1 = [
    ("As As Kd", "Kh Th 8h 6h 3h", "Qs Qh Qd Js Jh"),   # A: pair A, flush, full house
    ("Qc Qs 2h", "5h 6s 7d 8s 9h", "Ac Kc 9c 6c 3c"),   # B
    ("Jc Jd 5c", "3d 4s 5d 6d 7s", "Td 9d 8d 4d 2d"),   # C
    ("Ks Ks 5s", "Ts Tc 2c 2s 7c", "Ah Ad 9s 9s 3s"),   # D
]
# Example 2 (cut 4c): B scoops A only; C's Front trips beat A, B, D; D's Back bonus quads
# beat A, B, C.
BONUS_EXAMPLE_2 = [
    ("Ks Kh 3c", "5s 6h 7d 8s 9d", "Ah Th 9h 8h 5h"),   # A
    ("Ks Kd 3d", "Ac Tc 9c 6c 5c", "Ts Ts Td 9s 9s"),   # B
    ("2h 2d 2c", "7s 7h 7c Ad Qd", "8s 8d 8c Kc Jc"),   # C
    ("Qs Qh 5d", "3s 3h 6d 6s Jd", "4s 4s 4h 4d Qc"),   # D
]


def test_bonus_example1():
    for arr in BONUS_EXAMPLE_1:
        assert N.is_legal(*arr, "bonus", 4)
    assert N.settle(BONUS_EXAMPLE_1, "bonus", "4c") == [9, -2, -4, -3]


def test_bonus_example2():
    for arr in BONUS_EXAMPLE_2:
        assert N.is_legal(*arr, "bonus", 4)
    assert N.row_category(BONUS_EXAMPLE_2[2][0], "bonus", 4) == "trips"
    assert N.row_category(BONUS_EXAMPLE_2[3][2], "bonus", 4) == "bonus_quads"
    assert N.settle(BONUS_EXAMPLE_2, "bonus", 4) == [-7, -5, -2, 14]


def test_bonus_table_is_not_monotone():
    # In the Middle, bonus quads earn 5 but a (stronger) straight flush only 2
    # (docs/rules.md#bonus)
    assert N.BONUS_BONUS[1][N.BONUS_QUADS] == 5
    assert N.BONUS_BONUS[1][N.STRAIGHT_FLUSH] == 2
    assert N.BONUS_BONUS[1][N.NATURAL_FIVE] == 10
    assert N.JOKER_BONUS[1][N.NATURAL_FIVE] == 12


# ---------------------------------------------------------------------------------------
# Settlement: pagat (docs/rules.md#pagat)
# ---------------------------------------------------------------------------------------

PAGAT_EXAMPLE_A = ("2s 2h Ad", "7c 7d 9s 5h 3d", "Tc Jc Qc Kc Ac")
PAGAT_EXAMPLE_B = ("3s 3h 4d", "6c 6d 8s 5c 2d", "9c 9d Th Ts As")


def test_pagat_worked_deal():
    assert N.is_legal(*PAGAT_EXAMPLE_A, "pagat") and N.is_legal(*PAGAT_EXAMPLE_B, "pagat")
    assert N.settle([PAGAT_EXAMPLE_A, PAGAT_EXAMPLE_B], "pagat") == [1, -1]
    assert N.settle([PAGAT_EXAMPLE_B, PAGAT_EXAMPLE_A], "pagat") == [-1, 1]


def test_pagat_fouls():
    foul = ("Qs Qh 2c", "Ks Jd 8h 7h 4c", "Js Jh 6h 6s 4s")   # pair Front, high-card Middle
    assert not N.is_legal(*foul, "pagat")
    assert N.settle([PAGAT_EXAMPLE_A, foul], "pagat") == [3, -3]
    assert N.settle([foul, PAGAT_EXAMPLE_B], "pagat") == [-3, 3]
    foul2 = ("Ah Kh 7s 5s", "8d 8c 3c", "Qd 9h Td 4h 5d Kd")   # wrong sizes (4, 3, 6)
    assert N.settle([PAGAT_EXAMPLE_A, foul, foul2], "pagat") == [6, -3, -3]
    # no scoop bonus: three wins is +3
    weak = ("3c 4h 6s", "6h 6d 5s 4s 2c", "Kh Kd 9h 9c 3s")
    assert N.is_legal(*weak, "pagat")
    assert N.settle([PAGAT_EXAMPLE_A, weak], "pagat") == [3, -3]


# ---------------------------------------------------------------------------------------
# Settlement: classic (docs/rules.md#classic)
# ---------------------------------------------------------------------------------------

P0 = ("Ah Kh 7s", "9s 9h 5s 5h 2s", "Ks Qs Js 8s 3s")   # high A-K-7, two pair 9-5, flush K


def _classic(p1, scheme="classic"):
    assert N.is_legal(*P0, scheme) and N.is_legal(*p1, scheme)
    return N.settle([P0, p1], scheme)


def test_western_majority_point():
    # 2-1 -> +2
    assert _classic(("Qd Jc 5d", "8d 8c 6d 4d 3c", "Th Tc Td 4h 4s")) == [2, -2]
    # 3-0 -> +4
    assert _classic(("Qd Jc 5d", "8d 8c 6d 4d 3c", "Tc Jd Qc Kd Ac")) == [4, -4]
    # two wins and a tie -> +3
    assert _classic(("Qc Jc 5c", "8c 8h 6c 4c 3c", "Kd Qd Jd 8d 3d")) == [3, -3]
    # one win, two ties -> +1
    assert _classic(("Qc Jc 4c", "9d 9c 5d 5c 2d", "Kd Qd Jd 8d 3d")) == [1, -1]
    # win, loss, tie -> 0
    assert _classic(("Qc Jc 4c", "Td Tc 6c 6d 2c", "Kd Qd Jd 8d 3d")) == [0, 0]
    # same with the explicit scheme name
    assert N.settle([P0, ("Qd Jc 5d", "8d 8c 6d 4d 3c", "Th Tc Td 4h 4s")],
                    "classic:western") == [2, -2]


STRONG = ("4c 4d 4h", "8d 8c 8h 6d 6c", "Tc Td Th 3c 3d")   # trips, FH 8, FH T: beats P0 3-0


def test_eastern():
    # 2-1 without bonus hands: 1 + 1 - 1 = +1 (no majority point)
    assert _classic(("Qd Jc 5d", "8d 8c 6d 4d 3c", "Th Tc Td 4h 4s"), "classic:eastern") == [1, -1]
    # STRONG wins Front with trips (3), Middle with a full house (2), Back with a full
    # house (not a Back bonus hand: 1)
    assert _classic(STRONG, "classic:eastern") == [-6, 6]
    assert _classic(STRONG, "classic") == [-4, 4]


def test_mandarin_shot_and_bonus():
    # shot: row points (Front trips 3 + 1 + 1) doubled = 10, plus Middle full house 2
    assert _classic(STRONG, "classic:mandarin") == [-12, 12]
    # 2-1: rows 1 + 1 - 1
    assert _classic(("Qd Jc 5d", "8d 8c 6d 4d 3c", "Th Tc Td 4h 4s"), "classic:mandarin") == [1, -1]
    # P1 wins Front with trips (3) and Middle (1), loses the Back (1): not a shot
    p1 = ("4c 4d 4h", "Tc Td Th 6c 2c", "5d 6h 7c 8d 9c")
    assert _classic(p1, "classic:mandarin") == [-3, 3]
    assert _classic(p1, "classic:eastern") == [-3, 3]
    assert _classic(p1, "classic") == [-2, 2]


MANDARIN_4 = [
    ("Ah Ad 2c", "As Qs Js Ts 9s", "Ks Kh Kd 3c 3d"),   # wins all 3 rows vs everyone
    ("Kc Ac 4h", "2s 2d 5c 6h 7d", "8h 8d 8c 4s 4d"),
    ("Qc Jh 5h", "3s 3h 6c 7h 9d", "Tc Th 9c 9h 4c"),
    ("Jc Td 6d", "5s 5d 7s 8s Jd", "Qd Qh 7c 6s 2h"),
]


def test_mandarin_home_run():
    for arr in MANDARIN_4:
        assert N.is_legal(*arr, "classic:mandarin")
    four = N.settle(MANDARIN_4, "classic:mandarin")
    # home run: 3 row points tripled = 9 from each of three opponents
    assert four[0] == 27
    # three players: only shots (doubled): 6 from each of two
    three = N.settle(MANDARIN_4[:3], "classic:mandarin")
    assert three[0] == 12
    # western: 3-0 is +4 against each
    assert N.settle(MANDARIN_4, "classic")[0] == 12
    # Others among themselves (mandarin): seat 1 vs 2: F 1 (A-K > Q-J), M 2 (pair 2 < 3),
    # B 1 (FH > two pair) -> +1 for seat 1; 1 vs 3: F 1, M 3 (pair 2 < pair 5), B 1 -> +1;
    # 2 vs 3: F 2 (Q>J), M 3, B 2 (two pair > pair) -> +1 for seat 2.
    assert four == [27, -9 + 1 + 1, -9 - 1 + 1, -9 - 1 - 1]


def test_classic_fouls():
    foul = ("Th Tc Kd", "Td Ts 5c 4h 3c", "Qh Qd Jh Jd 6h")    # T-T-K over T-T-5-4-3
    foul2 = ("Ac Kc 7c", "8c 8d 2c 3d 4d", "5d 6d 7d")        # wrong sizes (3, 5, 3)
    assert not N.is_legal(*foul, "classic")
    for scheme in ("classic", "classic:eastern", "classic:mandarin"):
        assert N.settle([P0, foul], scheme) == [4, -4]
        # two fouled players score 0 against each other; each pays 4 to P0
        assert N.settle([P0, foul, foul2], scheme) == [8, -4, -4]


DRAGON = ("2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac")           # split need not matter
SIX_PAIRS = ("2s 2h 3s", "3h 4s 4h 5s 5h", "6s 6h 7c 7d Jd")
THREE_FLUSHES = ("2d 5d 9d", "3h 6h 8h Th Qh", "4s 7s 9s Js Ks")


def test_automatic_win_detection():
    assert N.automatic_win(" ".join(DRAGON)) == "dragon"
    assert N.automatic_win(" ".join(SIX_PAIRS)) == "six_pairs"
    # quads count as two pairs
    assert N.automatic_win("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 9h 9c Ah") == "six_pairs"
    assert N.automatic_win("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 9h Jc Ah") is None
    assert N.automatic_win(" ".join(THREE_FLUSHES)) == "three_flushes"
    # eight hearts + five clubs: Front and Middle from the hearts
    assert N.automatic_win("2h 3h 5h 7h 9h Jh Kh Ah 2c 4c 6c 8c Tc") == "three_flushes"
    # a straight flush counts as a flush
    assert N.automatic_win("2d 5d 9d 3h 4h 5h 6h 7h 4s 7s 9s Js Ks") == "three_flushes"
    # three straights, Front Q-K-A
    assert N.automatic_win("Qh Kc Ad 2s 3h 4d 5c 6s 5d 6h 7c 8d 9s") == "three_straights"
    # three straights, Front A-2-3 (with a wheel elsewhere impossible: only four Aces)
    assert N.automatic_win("Ah 2c 3d 3s 4h 5d 6c 7s 8d 9h Tc Js Qh") == "three_straights"
    # a straight flush counts as a straight
    assert N.automatic_win("Qh Kc Ad 2s 3s 4s 5s 6s 5d 6h 7c 8d 9s") == "three_straights"
    # no wrap: K-A-2 is not a Front straight
    assert N._is_front_straight(N.parse("Kh Ac 2d")) is False
    assert N._is_front_straight(N.parse("Ah 2c 3d")) is True
    assert N._is_front_straight(N.parse("Qh Kc Ad")) is True
    assert N.automatic_win("Kh Ac 2d 3s 4h 5d 6c 7s 8d 9h Tc Js Jh") is None
    assert N.automatic_win(" ".join(P0)) is None


def test_automatic_win_settlement():
    # dragon: 13 from each opponent, whatever the scheme; the declared seat is not compared
    dragon = ("2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac")
    opp1 = ("2h 2s 3c", "4c 4d 5c 6d 7c", "8c 8d 9c 9d Th")
    opp2 = ("Js Jh 3s", "5d 5h 6s 7s 7h", "Qs Qc Kc Kd Ad")
    for arr in (opp1, opp2):
        assert N.is_legal(*arr, "classic")
    for scheme in ("classic", "classic:eastern", "classic:mandarin"):
        between = N.settle([opp1, opp2], scheme)          # the others still play each other
        assert N.settle([dragon, opp1, opp2], scheme, declared={0: "dragon"}) == [
            26, between[0] - 13, between[1] - 13]
    # an illegal split is fine for a declared hand
    assert not N.is_legal("Qh Ks Ac", "Tc Jd 2c 3d 4h", "5s 6c 7d 8h 9s", "classic")
    assert N.settle([("Qh Ks Ac", "Tc Jd 2c 3d 4h", "5s 6c 7d 8h 9s"), opp1], "classic",
                    declared={0: "dragon"}) == [13, -13]
    # the other automatic wins: 3 from each opponent
    sp = ("2c 2d 3c", "3d 4c 4d 5c 5d", "6c 6d 7c 7d 8c")      # six pairs
    o = ("As Ks 8h", "Qs Qh Jc Tc 9c", "Ah Ad Ac 8s 8d")
    assert N.is_legal(*o, "classic")
    assert N.settle([sp, o], "classic", declared={0: "six_pairs"}) == [3, -3]
    assert N.settle([sp, o], "classic:mandarin", declared={0: "six_pairs"}) == [3, -3]
    assert N.settle([o, sp], "classic:eastern", declared={1: "six_pairs"}) == [-3, 3]
    # dragon beats six pairs (13); two non-dragon automatic wins score 0
    dr = ("2h 3h 4h", "5h 6h 7h 8h 9h", "Th Jh Qh Kh Ah")
    assert N.settle([sp, dr], "classic", declared={0: "six_pairs", 1: "dragon"}) == [-13, 13]
    tf = ("2s 3s 4s", "5s 6s 7s 8s 9s", "Ts Js Qs Ks As")      # also a dragon; declared as flushes
    o2 = ("Ah Kh 8h", "Qh Qd Jc Tc 9c", "Ac Ad 9d 9h 2h")
    assert N.is_legal(*o2, "classic")
    assert N.settle([sp, tf], "classic", declared={0: "six_pairs", 1: "three_flushes"}) == [0, 0]
    assert N.settle([sp, tf, o2], "classic",
                    declared={0: "six_pairs", 1: "three_flushes"}) == [3, 3, -6]
    # a hand that does not qualify cannot declare; unknown names; no autos outside classic
    with pytest.raises(ValueError):
        N.settle([o, sp], "classic", declared={0: "six_pairs"})
    with pytest.raises(ValueError):
        N.settle([sp, o], "classic", declared={0: "royal"})
    with pytest.raises(ValueError):
        N.settle([sp, o], "pagat", declared={0: "six_pairs"})
    # interpretation (see naive.FOUL_PENALTY_ADDS_TO_AUTOMATIC_WIN): declared vs fouled is
    # settled by the automatic win alone
    foul = ("9h 9c Kd", "9d 9s 5h 4h 3h", "Qh Qd Jh Jd 6h")
    assert not N.is_legal(*foul, "classic")
    assert N.settle([sp, foul], "classic", declared={0: "six_pairs"}) == [3, -3]


# ---------------------------------------------------------------------------------------
# Properties on random deals: zero sum, symmetric seats
# ---------------------------------------------------------------------------------------

def _deck(rule_set, cut_card=None):
    if rule_set == "joker":
        return list(N.DECK52) + [(r, "s") for r in N.RANKS] + [N.JOKER] * 3
    if rule_set == "bonus":
        deck = list(N.DECK52) + [(r, "s") for r in N.RANKS]
        deck.remove(cut_card)
        return deck
    return list(N.DECK52)


def _random_legal(rng, cards13, rule_set, cut):
    for _ in range(500):
        rng.shuffle(cards13)
        f, m, b = cards13[:3], cards13[3:8], cards13[8:]
        if K(m, rule_set, cut) > K(b, rule_set, cut):
            m, b = b, m
        if K(f, rule_set, cut) < K(m, rule_set, cut):
            return (f, m, b)
    raise AssertionError("no legal split found")


@pytest.mark.parametrize("rule_set", ["joker", "bonus", "pagat", "classic", "classic:eastern",
                                      "classic:mandarin"])
def test_random_deals_zero_sum_and_permutation(rule_set):
    rng = random.Random(12345)
    for _ in range(6):
        cut_card, cut = None, None
        if rule_set == "bonus":
            cut_card = (rng.choice(N.RANKS), rng.choice(N.SUITS))
            cut = cut_card[0]
        deck = _deck(rule_set.split(":")[0], cut_card)
        rng.shuffle(deck)
        n = 4
        per = 17 if rule_set == "joker" else 16 if rule_set == "bonus" else 13
        arrs = []
        for s in range(n):
            hand = deck[s * per:(s + 1) * per][:13]
            # avoid 3-joker rows to keep the test fast
            arrs.append(_random_legal(rng, list(hand), rule_set, cut))
        scores = N.settle(arrs, rule_set, cut)
        assert sum(scores) == 0
        perm = [2, 0, 3, 1]
        scores_p = N.settle([arrs[p] for p in perm], rule_set, cut)
        assert scores_p == [scores[p] for p in perm]
