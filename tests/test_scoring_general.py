"""The general scoring kernel (SCHEME_GENERAL): every scoring field of a rule set.

Checked three ways: the slow reference (naive.settle_general) first reproduces the
built-in rule sets' own references; then the kernel settles random deals under random
combinations of the fields exactly as the reference does; and every built-in rule set,
forced onto the general kernel, settles every random deal exactly as its own kernel.
Then hand-worked deals of two house rule sets (classic-1-6, two-jokers)."""
import dataclasses
import random

import numpy as np
import pytest

import naive
import solver
from solver import scoring
from solver.rules import (AUTOMATIC_WINS, CATEGORIES, CATEGORY_INDEX, SCHEME_GENERAL,
                          SCHEME_SCOOP, RuleSet)
from solver.tables import CATEGORY_SHIFT, value_digits
from test_naive_selfcheck import MANDARIN_4, _deck, _random_legal

BUILT_INS = ["joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin"]
SIX_PAIRS = 1 + AUTOMATIC_WINS.index("six_pairs")     # (the scoring core's code of it)


def _key(value):
    """A row value (solver.tables' scale) as the reference's key: the category, then the
    tie-break ranks 2..14 (a paired flush's first item counts its pairs), so that keys
    order as values do and naive.key_rank reads a row's rank."""
    category, digits = int(value) >> CATEGORY_SHIFT, value_digits(int(value))
    if category == CATEGORY_INDEX["paired_flush"]:
        return (category, digits[0]) + tuple(d + 1 for d in digits[1:] if d)
    return (category,) + tuple(d + 1 for d in digits if d)


def _keys(vals):
    return [[_key(v) for v in seat] for seat in vals]


def _general_params(rules):
    params = scoring.scoring_params(rules).copy()
    params[scoring.P_SCHEME] = SCHEME_GENERAL
    return params


# --- the reference reproduces the built-ins' references -----------------------------------
@pytest.mark.parametrize("name", BUILT_INS)
def test_the_general_reference_settles_the_built_ins_as_their_own_references(name):
    rng = random.Random(name)
    rs = solver.rule_set(name)
    base = name.split(":")[0]
    for i in range(12):
        n = rs.seats[i % len(rs.seats)]
        cut_card = cut = None
        if base == "bonus":
            cut_card = (rng.choice(naive.RANKS), rng.choice(naive.SUITS))
            cut = cut_card[0]
        deck = _deck(base, cut_card)
        rng.shuffle(deck)
        arrs = []
        for s in range(n):
            hand = deck[s * rs.cards_dealt:(s + 1) * rs.cards_dealt][:13]
            if base in ("joker", "bonus") or rng.random() < 0.8:
                arrs.append(_random_legal(rng, list(hand), name, cut))
            else:
                arrs.append((hand[:3], hand[3:8], hand[8:]))
        keys = [[naive.row_key(row, name, cut) for row in arr] for arr in arrs]
        fouled = [not naive.is_legal(*arr, name, cut) for arr in arrs]
        assert naive.settle_general(keys, rs, fouled) == naive.settle(arrs, name, cut), arrs


# --- random combinations of the fields ------------------------------------------------------
def _random_rules(rng) -> RuleSet:
    """A 52-card rule set with a random value of every scoring field."""
    table = [[0] * len(CATEGORIES) for _ in range(3)]
    for _ in range(rng.integers(0, 8)):
        table[rng.integers(3)][rng.integers(len(CATEGORIES))] = int(rng.integers(1, 11))
    fouls = rng.integers(4)          # penalty, loses rows, both, neither
    by_rank = {}
    for _ in range(rng.integers(0, 4)):  # royalties by rank, of categories with none
        row, category = int(rng.integers(3)), int(rng.integers(len(CATEGORIES)))
        if not table[row][category] and CATEGORIES[category] != "joker_trips":
            units = rng.integers(0, 12, 13) * (rng.random(13) < 0.6)
            by_rank[f"{('front', 'middle', 'back')[row]}.{CATEGORIES[category]}"] = tuple(
                int(u) for u in units)
    return RuleSet(
        name="random", spade_copies=1, jokers=0, cut_card=False, cards_dealt=13,
        seats=(2, 3, 4), deal_all_unseen=True,
        row_bonus_by_rank=by_rank,
        majority_multiplied=bool(rng.integers(2)), scoop_multiplied=bool(rng.integers(2)),
        loss_cap_per_pair=int(rng.choice([0, 0, 3, 8])),
        loss_cap_per_deal=int(rng.choice([0, 0, 2, 6, 15])),
        seat_scoring=_random_seat_scoring(rng),
        row_points=tuple(int(x) for x in rng.integers(0, 3, 3)),
        front_trips_points=int(rng.choice([0, 0, 3])),
        majority_bonus=int(rng.choice([0, 1, 2])),
        scoop=str(rng.choice(["all_rows_won", "no_row_lost"])),
        scoop_units=int(rng.choice([0, 1, 3])),
        shot_multiplier=int(rng.choice([1, 2])),
        home_run_units=int(rng.choice([0, 2, 3])),
        home_run_multiplier=int(rng.choice([1, 2, 3, 4])),
        home_run_min_seats=int(rng.integers(2, 5)),
        row_bonus=tuple(tuple(r) for r in table),
        bonus_mode=str(rng.choice(["add", "replace"])),
        bonus_paid=str(rng.choice(["row_won", "row_made"])),
        bonus_multiplied=bool(rng.integers(2)),
        foul_penalty=int(rng.choice([2, 4])) if fouls in (0, 2) else 0,
        foul_loses_rows=bool(fouls in (1, 2)),
        **_random_specials(rng),
    )


def _random_seat_scoring(rng) -> dict:
    """Other values of a few scoring fields at some table sizes (or none)."""
    out = {}
    for n in (2, 3, 4):
        if rng.random() < 0.3:
            out[n] = {"scoop_units": int(rng.integers(0, 4)),
                      "shot_multiplier": 1, "home_run_multiplier": int(rng.integers(1, 4)),
                      "loss_cap_per_deal": int(rng.choice([0, 4, 10])),
                      "majority_bonus": int(rng.integers(0, 3))}
    return out


def _random_specials(rng) -> dict:
    """No special hands (two times in three), else some of the catalogue with random
    units, ranked by their units or by a random strength."""
    if rng.integers(3) != 0:
        return {}
    names = rng.choice(AUTOMATIC_WINS, int(rng.integers(1, 6)), replace=False)
    wins = {str(name): int(rng.integers(1, 14)) for name in names}
    strength = ({name: int(rng.integers(1, 4)) for name in wins} if rng.integers(2) else {})
    return dict(automatic_wins=wins, automatic_win_strength=strength,
                automatic_wins_declared=bool(rng.integers(2)))


def _random_auto(rng, rules, shape):
    """Automatic-win codes of ``rules``' special hands for some of the seats."""
    auto = np.zeros(shape, np.int8)
    if rules.automatic_wins:
        codes = [1 + AUTOMATIC_WINS.index(name) for name in rules.automatic_wins]
        some = rng.random(shape) < 0.2
        auto[some] = rng.choice(codes, int(some.sum()))
    return auto


def _random_values(rng, values, shape):
    """Row values, often strong (royalties, scoops) and often equal to each other (ties)."""
    values = values[values >= 0]              # (the table's -1 is no row's value)
    out = rng.choice(values, shape)
    strong = rng.random(shape) < 0.4
    out[strong] = rng.choice(values[-len(values) // 6:], int(strong.sum()))
    few = rng.random(shape) < 0.2
    out[few] = rng.choice(values[::len(values) // 4], int(few.sum()))
    return out.astype(np.int32)


def test_the_general_kernel_settles_random_deals_as_the_reference(rng):
    """Every field at random (royalties by rank, multiplied majorities and scoops, loss
    caps, other scoring at some table sizes among them); the reference reads the rule
    set's fields at the table's size itself, the kernel gets rules.at_seats(n)'s."""
    decks = [solver.rows.tables_for(solver.rule_set(name)).values
             for name in ("classic", "joker")]    # (joker's: paired flushes, fives)
    combinations = 0
    for i in range(40):
        rules = _random_rules(rng)
        values = decks[i % 2]
        if all(rules.at_seats(n).scheme != SCHEME_GENERAL for n in rules.seats):
            continue
        combinations += 1
        for n in rules.seats:
            params = scoring.scoring_params(rules.at_seats(n))
            fouls_scored = scoring.fouls_playable(rules.at_seats(n))
            S, K = 25, 4
            cand = np.sort(_random_values(rng, values, (K, 3)), axis=1)
            opp = _random_values(rng, values, (S, n - 1, 3))
            fouled = (rng.random((S, n - 1)) < 0.2) & fouls_scored
            auto = _random_auto(rng, rules, (S, n - 1))
            got = scoring.score_candidates(cand, 0, opp, fouled, auto, params)
            for s in range(S):
                declared = {j + 1: AUTOMATIC_WINS[auto[s, j] - 1]
                            for j in range(n - 1) if auto[s, j]}
                for k in range(K):
                    vals = np.concatenate([cand[k:k + 1], opp[s]])
                    want = naive.settle_general(_keys(vals), rules, [False] + list(fouled[s]),
                                                declared)
                    f_bits, a_bits = scoring.pack_flags([False] + list(fouled[s]),
                                                        [0] + list(auto[s]))
                    assert list(scoring.settle_seats(vals, f_bits, a_bits, params)) == want, (
                        rules, vals, fouled[s], declared)
                    assert got[k, s] == want[0]
            if fouls_scored:        # the solver's own seat fouled (review grades it so)
                got = scoring.score_candidates(cand, 0, opp, fouled, auto, params,
                                               our_fouled=True)
                for s in range(S):
                    declared = {j + 1: AUTOMATIC_WINS[auto[s, j] - 1]
                                for j in range(n - 1) if auto[s, j]}
                    want = naive.settle_general(_keys(np.concatenate([cand[:1], opp[s]])),
                                                rules, [True] + list(fouled[s]), declared)
                    assert got[0, s] == want[0]
    assert combinations >= 30


@pytest.mark.parametrize("name", BUILT_INS)
def test_a_built_in_forced_onto_the_general_kernel_settles_as_its_own(rng, name):
    """The general kernel reads the built-ins' fields exactly as their specialised
    kernels compute them: on random rows, fouls and automatic wins, at every table size,
    for the solver's loop, the settlement core and the description."""
    rs = solver.rule_set(name)
    own, general = scoring.scoring_params(rs), _general_params(rs)
    values = solver.rows.tables_for(rs, "4c" if rs.cut_card else None).values
    for n in rs.seats:
        S, K = 200, 6
        cand = np.sort(_random_values(rng, values, (K, 3)), axis=1)
        opp = _random_values(rng, values, (S, n - 1, 3))
        fouled = (rng.random((S, n - 1)) < 0.2) & (rs.scheme != SCHEME_SCOOP)
        auto = _random_auto(rng, rs, (S, n - 1))
        for our_auto in ([0, SIX_PAIRS] if rs.automatic_wins else [0]):
            for our_fouled in ([False, True] if rs.scheme != SCHEME_SCOOP else [False]):
                want = scoring.score_candidates(cand, our_auto, opp, fouled, auto, own,
                                                our_fouled=our_fouled)
                got = scoring.score_candidates(cand, our_auto, opp, fouled, auto, general,
                                               our_fouled=our_fouled)
                assert np.array_equal(got, want)
        for s in range(0, S, 5):
            vals = np.concatenate([cand[s % K:s % K + 1], opp[s]])
            f_bits, a_bits = scoring.pack_flags([False] + list(fouled[s]), [0] + list(auto[s]))
            assert np.array_equal(scoring.settle_seats(vals, f_bits, a_bits, general),
                                  scoring.settle_seats(vals, f_bits, a_bits, own))
        ours = np.sort(_random_values(rng, values, 3))
        want = scoring.describe(ours, opp, fouled, auto, own)
        got = scoring.describe(ours, opp, fouled, auto, general)
        for g, w in zip(got, want):
            assert np.array_equal(g, w)


def test_royalties_paid_whenever_made_are_described_as_paid():
    """describe's net royalty units follow bonus_paid: with "row_made" a lost row's
    royalty is paid too."""
    rules = _house("row_made", bonus_paid="row_made",
                   row_bonus=_table({("back", "quads"): 4, ("middle", "full_house"): 2}))
    params = scoring.scoring_params(rules)
    tables = solver.rows.tables_for(rules)
    value = lambda text: solver.rows._value_of_codes(solver.cards.to_codes(text, rules), tables)
    ours = np.array([value("2c 3d 5h"), value("8c 8d 8h 6d 6c"), value("4c 4d 4h 4s 2d")],
                    np.int32)
    # The opponent wins the Back with better quads: our quads are still paid (4), theirs
    # too (-4); our Middle full house wins (2).
    opp = np.array([[[value("2d 3h 6c"), value("7c 7d 5h 5s 9c"),
                      value("Kc Kd Kh Ks 2h")]]], np.int32)
    rows, _, _, _, bonus = scoring.describe(ours, opp, np.zeros((1, 1), bool),
                                            np.zeros((1, 1), np.int8), params)
    assert rows[2].tolist() == [0, 0, 1] and bonus == 2


# --- hand-worked deals of two house rule sets ----------------------------------------------
def _table(entries):
    table = [[0] * len(CATEGORIES) for _ in range(3)]
    for (row, category), units in entries.items():
        table[("front", "middle", "back").index(row)][CATEGORY_INDEX[category]] = units
    return tuple(tuple(r) for r in table)


def _house(name, **scoring_fields):
    base = dict(name=name, spade_copies=1, jokers=0, cut_card=False, cards_dealt=13,
                seats=(2, 3, 4), deal_all_unseen=True, row_points=(1, 1, 1),
                scoop="all_rows_won", foul_loses_rows=True)
    return RuleSet(**{**base, **scoring_fields})


CLASSIC_1_6 = _house("classic-1-6", scoop_units=3)
TWO_JOKERS = _house("two-jokers", jokers=2, scoop_units=3, row_bonus=_table({
    ("front", "trips"): 3, ("front", "joker_trips"): 3, ("middle", "full_house"): 2,
    ("middle", "quads"): 8, ("middle", "straight_flush"): 10, ("middle", "joker_five"): 15,
    ("back", "quads"): 4, ("back", "straight_flush"): 5, ("back", "joker_five"): 7}))

def test_house_rule_sets_are_general():
    assert CLASSIC_1_6.scheme == SCHEME_GENERAL and TWO_JOKERS.scheme == SCHEME_GENERAL


# Seat 0 wins every row against every other seat; among the others, seat 1 beats seats 2
# and 3 by two rows to one, and seat 2 beats seat 3 by two rows to one (the rows are
# spelled out in tests/test_naive_selfcheck.py, test_mandarin_home_run).
# A fouled hand (trips in the Front over a high card): no card shared with seats 1, 2.
FOUL = ("As Ad Ah", "2h 3c 5d 7s 9s", "Ks Kd Qs Js Ts")


def test_classic_1_6_worked_deals():
    m0, m1, m2, m3 = MANDARIN_4
    # Every row won: 3 rows, and 3 more for winning all three (1-6 scoring).
    assert solver.settle([m0, m1], CLASSIC_1_6) == [6, -6]
    # Two rows to one: 2 - 1 = 1, no majority bonus.
    assert solver.settle([m1, m2, m3], CLASSIC_1_6) == [2, 0, -2]
    assert solver.settle(MANDARIN_4, CLASSIC_1_6) == [18, -6 + 1 + 1, -6 - 1 + 1, -6 - 1 - 1]
    # A foul loses every row and the scoop: 6 to each valid hand.
    assert solver.settle([FOUL, m1, m2], CLASSIC_1_6) == [-12, 6 + 1, 6 - 1]


def test_two_jokers_worked_deals():
    # D: trips of 5s (two jokers and a 5) / full house / quads.  E: pair / flush /
    # straight flush.  D wins the Front (1 + 3 for Front trips) and the Middle (1 + 2 for
    # a Middle full house); E wins the Back (1 + 5 for a Back straight flush): 4 + 3 - 6
    # = 1.  Two rows to one: no scoop.
    d = ("Jk Jk 5c", "8c 8d 8s 6d 6c", "Kc Kd Kh Ks 2h")
    e = ("Qd Qh 3s", "2s 7s 9s Js Qs", "5h 6h 7h 8h 9h")
    assert solver.settle([d, e], TWO_JOKERS) == [1, -1]
    # F loses every row to D: 3 rows + 3 (all three won) + 3 (Front trips) + 2 (Middle
    # full house) + 4 (Back quads) = 15; and every row to E: 3 + 3 + 5 (Back straight
    # flush) = 11.
    f = ("2c 3c 4d", "Tc Td 4h 5d 6s", "As Ad Ah 3d 3h")
    assert solver.settle([d, f], TWO_JOKERS) == [15, -15]
    assert solver.settle([d, e, f], TWO_JOKERS) == [1 + 15, -1 + 11, -15 - 11]
    # docs/rules.md#house-rules-the-general-scoring: the same deal with royalties
    # replacing the row points, multiplied, and a scoop doubling.
    doubled = dataclasses.replace(TWO_JOKERS, bonus_mode="replace", bonus_multiplied=True,
                                  shot_multiplier=2, home_run_multiplier=2, scoop_units=0)
    RuleSet.from_dict(doubled.to_dict())              # (a file can say it)
    assert solver.settle([d, e, f], doubled) == [18, 14, -32]
    # A foul loses every row and the scoop, and pays the winner's royalties: 15 as F.
    foul = ("Ah Ac 2d", "2c 3c 4d 5s 7d", "Tc Td 4h 5d 6s")
    assert solver.settle([d, foul], TWO_JOKERS) == [15, -15]


def test_general_rule_sets_score_by_the_reference_on_worked_deals():
    for rules, deal in ((CLASSIC_1_6, MANDARIN_4), (CLASSIC_1_6, [FOUL] + MANDARIN_4[1:3])):
        keys = [[naive.row_key(row, "classic") for row in arr] for arr in deal]
        fouled = [not naive.is_legal(*arr, "classic") for arr in deal]
        assert solver.settle(deal, rules) == naive.settle_general(keys, rules, fouled)
