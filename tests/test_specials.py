"""The special-hand catalogue (solver.autowin): each special found on hands built to hold
it and not on near misses, and the jitted detection against the slow reference
(tests/naive.py) on random hands, plain and drawn from packs that make specials common."""
import dataclasses
import pickle
import re
from types import MappingProxyType

import numpy as np
import pytest

import naive
import solver
from solver.autowin import KIND_NAMES, holds_kind, kind_order
from solver.cards import card_name, to_codes
from solver.rules import AUTOMATIC_WINS

# name -> (hands that hold it, near misses that do not)
CONSTRUCTED = {
    "dragon": (["2h 3c 4d 5s 6h 7c 8d 9s Th Jc Qd Ks Ah"],
               ["2h 3c 4d 5s 6h 7c 8d 9s Th Jc Qd Ks Kh"]),
    "suited_dragon": (["2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
                       "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"],
                      ["2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh As",     # a dragon, two suits
                       "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 8s"]),
    "twelve_royals": (["Js Jh Jd Qs Qh Qd Qc Ks Kh Kd As Ah Ad",
                       "Js Jh Jd Jc Qs Qh Qd Qc Ks Kh Kd Kc As"],
                      ["Js Jh Jd Qs Qh Qd Qc Ks Kh Kd As Ah Ts",     # twelve royals and a ten
                       "2s Jh Jd Qs Qh Qd Qc Ks Kh Kd As Ah Ad"]),
    "three_straight_flushes": (
        ["Qh Kh Ah 5s 6s 7s 8s 9s Td Jd Qd Kd Ad",
         "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc",           # one suit: a suited dragon too
         "Ah 2h 3h As 2s 3s 4s 5s 9d Td Jd Qd Kd",
         "2h 3h 4h 5h 6h 7h 8h 9h Ts Js Qs Ks As"],
        ["Qh Kh Ah 5s 6s 7s 8s 9s Td Jd Qd Kd Ac",           # one card of another suit
         "2h 3h 4h 6h 7h 8h 9h Th 5s Js Qs Ks As",           # three flushes, three straights,
         "Kh Ah 2h 5s 6s 7s 8s 9s Td Jd Qd Kd Ad"]),         # not both; K-A-2 wraps
    "three_quads": (["2s 2h 2d 2c 3s 3h 3d 3c 4s 4h 4d 4c Ks"],
                    ["2s 2h 2d 2c 3s 3h 3d 3c 4s 4h 4d Kc Ks"]),
    "all_big": (["8s 8h 9d Tc Js Qh Kd Ac As Ah 9s 9h Td"],
                ["8s 8h 9d Tc Js Qh Kd Ac As Ah 9s 9h 7d"]),
    "all_small": (["2s 2h 3d 4c 5s 6h 7d 8c 8s 8h 3s 4h 5d"],
                  ["2s 2h 3d 4c 5s 6h 7d 8c 8s 8h 3s 4h 9d"]),
    "all_one_colour": (["2s 4c 6s 8c Ts Qc As 3s 5c 7s 9c Js Kc",
                        "2h 4d 6h 8d Th Qd Ah 3h 5d 7h 9d Jh Kd"],
                       ["2s 4c 6s 8c Ts Qc As 3s 5c 7s 9c Js Kd"]),
    "twelve_one_colour": (["2s 4c 6s 8c Ts Qc As 3s 5c 7s 9c Js Kd",   # twelve black, a red
                           "2h 4d 6h 8d Th Qd Ah 3h 5d 7h 9d Jh Kd"],  # all thirteen red
                          ["2s 4c 6s 8c Ts Qc As 3s 5c 7s 9c Jd Kd"]), # eleven and two
    "four_trips": (["2s 2h 2d 3s 3h 3d 4s 4h 4d 5s 5h 5d Ks",
                    "2s 2h 2d 2c 3s 3h 3d 4s 4h 4d 5s 5h 5d"],          # a quad holds trips
                   ["2s 2h 2d 3s 3h 3d 4s 4h 4d 5s 5h Kd Ks"]),
    "five_pairs_and_trips": (["2s 2h 3d 3s 4h 4d 5s 5h 6d 6s 7h 7d 7c",
                              "2s 2h 2d 2c 3s 3h 4d 4s 6d 6s 7h 7d 7c"],  # a quad: two pairs
                             ["2s 2h 3d 3s 4h 4d 5s 5h 6d 6s 7h 7d 8c",  # six pairs and one
                              "2s 2h 3d 3s 4h 4d 5s 5h 7s 7h 7d 9c Tc"]),
    "six_pairs": (["2s 2h 3d 3s 4h 4d 5s 5h 6d 6s 7h 7d 8c"],
                  ["2s 2h 3d 3s 4h 4d 5s 5h 6d 6s 7h 8d 9c"]),
    "three_flushes": (["2h 3h 5h 7h 9h Jh Kh Ah 2c 4c 6c 8c Tc"],
                      ["2h 3h 5h 7h 9h Jh Kh 2c 4c 6c 8c Tc Ad"]),
    "three_straights": (["Qh Kc Ad 2s 3h 4d 5c 6s 5d 6h 7c 8d 9s"],
                        ["Kh Ac 2d 3s 4h 5d 6c 7s 8d 9h Tc Js Jh"]),
}


def _holds(text, name):
    return bool(holds_kind(np.array(to_codes(text, "classic"), np.int64),
                           KIND_NAMES.index(name)))


def test_the_catalogue_is_every_special_once():
    assert set(CONSTRUCTED) == set(AUTOMATIC_WINS) == set(naive.SPECIAL_HANDS)
    assert KIND_NAMES[1:] == AUTOMATIC_WINS


@pytest.mark.parametrize("name", sorted(CONSTRUCTED))
def test_found_on_hands_built_to_hold_it(name):
    holding, near_misses = CONSTRUCTED[name]
    for text in holding:
        assert len(text.split()) == 13 and _holds(text, name), text
        assert naive.holds_special(text, name), text
    for text in near_misses:
        assert len(text.split()) == 13
        assert not _holds(text, name), text
        assert not naive.holds_special(text, name), text


def _agree(hands):
    for codes in hands:
        text = " ".join(card_name(int(c)) for c in codes)
        expected = set(naive.special_hands(text))
        found = {name for name in AUTOMATIC_WINS if _holds(text, name)}
        assert found == expected, text


def test_matches_the_reference_on_random_hands():
    rng = np.random.default_rng(29)
    _agree(rng.permutation(52)[:13] for _ in range(150))


@pytest.mark.parametrize("pack", [
    [c for c in range(52) if c % 13 >= 6],                 # 8 to A: all big, twelve royals
    [c for c in range(52) if c % 13 <= 6],                 # 2 to 8: all small, trips, pairs
    [c for c in range(52) if c % 13 >= 8],                 # T to A
    [c for c in range(52) if c % 13 >= 9],                 # J to A: royals, quads, trips
    [c for c in range(52) if c % 13 < 5],                  # 2 to 6: quads and trips
    [c for c in range(52) if c // 13 in (1, 2)],           # hearts and diamonds
    [c for c in range(52) if c // 13 in (0, 1)],           # two suits: flushes, straight flushes
])
def test_matches_the_reference_on_packs_where_specials_are_common(pack):
    rng = np.random.default_rng(len(pack))
    hands = [rng.permutation(np.array(pack))[:13] for _ in range(60)]
    _agree(hands)


def _built_three_straight_flushes(rng):
    """A random hand of three straight flushes (rows of random suits and tops; those that
    overlap are drawn again)."""
    while True:
        cards = set()
        for size in (3, 5, 5):
            suit, top = rng.integers(4), rng.integers(size - 2, 13)   # top -1: the ace low
            cards |= {13 * suit + (top - k if top - k >= 0 else 12) for k in range(size)}
        if len(cards) == 13:
            return np.array(sorted(cards))


def test_matches_the_reference_on_built_hands_and_one_card_changed():
    rng = np.random.default_rng(13)
    hands = []
    for _ in range(40):
        built = _built_three_straight_flushes(rng)
        quads = rng.permutation(13)[:3]
        other = rng.choice([c for c in range(52) if c % 13 not in quads])
        hands += [built, np.array([13 * s + r for r in quads for s in range(4)] + [other])]
    changed = []
    for codes in hands:
        out = rng.choice(np.setdiff1d(np.arange(52), codes))
        changed.append(np.where(np.arange(13) == rng.integers(13), out, codes))
    assert all(_holds(" ".join(card_name(int(c)) for c in h), "three_straight_flushes")
               for h in hands[::2])
    _agree(hands + changed)


# --- the rule-set fields ----------------------------------------------------------------
CLASSIC = solver.rule_set("classic")


def _with(**fields):
    return dataclasses.replace(CLASSIC, name="test", **{
        k: MappingProxyType(v) if isinstance(v, dict) else v for k, v in fields.items()})


def test_classic_keeps_its_specials_declared_and_ranked_by_units():
    assert CLASSIC.automatic_wins_declared is True and not CLASSIC.automatic_win_strength
    assert CLASSIC.automatic_win_strengths() == dict(CLASSIC.automatic_wins)
    assert [KIND_NAMES[k] for k in kind_order(CLASSIC)] == [
        "dragon", "six_pairs", "three_flushes", "three_straights"]


def test_a_rule_set_names_its_order_of_strength():
    rs = _with(automatic_wins={"dragon": 36, "suited_dragon": 108, "three_flushes": 3,
                               "three_straights": 3},
               automatic_win_strength={"dragon": 5, "suited_dragon": 9, "three_flushes": 2,
                                       "three_straights": 1})
    assert [KIND_NAMES[k] for k in kind_order(rs)] == [
        "suited_dragon", "dragon", "three_flushes", "three_straights"]
    suited = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert solver.automatic_win(suited, rs)[:2] == ("suited_dragon", 108)
    assert solver.automatic_win(suited, CLASSIC)[:2] == ("dragon", 13)
    assert pickle.loads(pickle.dumps(rs)) == rs and rs.digest != CLASSIC.digest


@pytest.mark.parametrize("fields, message", [
    (dict(automatic_wins={"dragons": 13}), "unknown automatic wins ['dragons']"),
    (dict(automatic_wins={"dragon": 0}), "units must be a positive integer"),
    (dict(automatic_win_strength={"dragon": 2}), "must rank exactly"),
    (dict(automatic_win_strength={"dragon": 2, "six_pairs": 1, "three_flushes": 1,
                                  "three_straights": True}), "positive integer"),
    (dict(automatic_wins_declared="yes"), "must be true or false"),
    (dict(jokers=2), "plain 52-card pack"),
    (dict(spade_copies=2), "plain 52-card pack"),
    (dict(cards_dealt=14, seats=(2, 3)), "plain 52-card pack"),
])
def test_bad_special_fields_are_one_clear_error(fields, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _with(**fields)


def test_specials_that_count_automatically_need_no_declaring(monkeypatch):
    from test_settle import OPP1, OPP2
    from test_naive_selfcheck import DRAGON
    counted = _with(automatic_wins_declared=False)
    monkeypatch.setitem(solver.rules._REGISTRY, "test", counted)   # (solve looks it up)
    between = solver.settle([OPP1, OPP2], counted)
    expected = [26, between[0] - 13, between[1] - 13]
    assert solver.settle([DRAGON, OPP1, OPP2], counted) == expected
    assert solver.settle([DRAGON, OPP1, OPP2], CLASSIC, declared=[0]) == expected
    # Under classic, played rows are compared (the dragon's Front 2-3-4 loses).
    assert solver.settle([DRAGON, OPP1, OPP2], CLASSIC) != expected
    # The solver has no choice to make: it declares.
    sol = solver.solve(" ".join(DRAGON), counted, samples=40, seed=1, policy="sbf")
    assert sol.automatic_win == "dragon" and sol.declare


def test_the_documented_catalogue_is_the_code_s():
    from test_rules_doc import RULES_DOC, marked
    (_, rows), = marked(RULES_DOC, "special-hands")
    assert sorted(r["API name"].strip("`") for r in rows) == sorted(AUTOMATIC_WINS)


# --- scoring: the stronger special collects its units, equal strengths tie ---------------
# The common 十三水 table (docs/rules.md#special-hands), on classic's other rules.
SHISANSHUI_UNITS = {
    "suited_dragon": 108, "dragon": 36, "twelve_royals": 24, "three_straight_flushes": 22,
    "three_quads": 20, "all_big": 15, "all_small": 12, "all_one_colour": 10,
    "four_trips": 6, "five_pairs_and_trips": 5, "six_pairs": 4, "three_flushes": 3,
    "three_straights": 3}
SUITED_DRAGON = ("2h 3h 4h", "5h 6h 7h 8h 9h", "Th Jh Qh Kh Ah")
ALL_SMALL = ("2s 2d 2c", "3s 3d 3c 4s 4d", "4c 5s 5d 5c 6s")         # and four trips
ALL_BIG = ("8s 8d 8c", "9s 9d 9c Ts Td", "Tc Js Jd Jc Qs")           # and four trips
PLAYED = ("6d 6c Qd", "As Ad Ac Qc 7c", "Ks Kd Kc 7s 7d")


def test_two_specials_the_stronger_collects_its_units():
    rs = _with(automatic_wins=SHISANSHUI_UNITS)
    deal = [SUITED_DRAGON, ALL_SMALL, ALL_BIG, PLAYED]
    assert solver.settle(deal, rs, declared=[0, 1, 2]) == [
        3 * 108, -108 - 15 + 12, -108 + 15 + 15, -108 - 12 - 15]
    # A lesser claim than the cards hold: the suited dragon declared as a dragon.
    assert solver.settle(deal, rs, declared={0: "dragon", 1: None, 2: None}) == [
        3 * 36, -36 - 15 + 12, -36 + 15 + 15, -36 - 12 - 15]
    # A rule set that ranks all small above all big (its units stay 12).
    ranked = _with(automatic_wins=SHISANSHUI_UNITS, automatic_win_strength={
        **SHISANSHUI_UNITS, "all_small": 16})
    assert solver.settle(deal, ranked, declared=[0, 1, 2]) == [
        3 * 108, -108 + 12 + 12, -108 - 12 + 15, -108 - 12 - 15]
    # Equal strengths tie: three flushes and three straights, both 3.
    three_flushes = ("2c 4c 6c", "3d 5d 7d 9d Jd", "2s 4s 6s 8s Ts")
    three_straights = ("2d 3h 4h", "3c 4d 5h 6h 7h", "8h 9h Th Jh Qc")
    assert solver.settle([three_flushes, three_straights], rs, declared=[0, 1]) == [0, 0]


def test_the_core_scores_every_special_s_code_by_strength_and_units():
    from solver import scoring
    rs = _with(automatic_wins=SHISANSHUI_UNITS, automatic_win_strength={
        **SHISANSHUI_UNITS, "three_flushes": 2, "dragon": 108})       # ties and reversals
    params, classic_params = scoring.scoring_params(rs), scoring.scoring_params(CLASSIC)
    strength = rs.automatic_win_strengths()
    values = solver.rows.tables_for(rs, None).values
    rng = np.random.default_rng(4)
    for _ in range(300):
        n = int(rng.integers(2, 5))
        vals = np.sort(rng.choice(values, (n, 3)), axis=1).astype(np.int32)
        codes = [int(c) if rng.random() < 0.5 else 0 for c in rng.integers(1, 14, n)]
        fouled_bits, auto_bits = scoring.pack_flags([False] * n, codes)
        played = [a for a in range(n) if not codes[a]]
        among_played = scoring.settle_seats(
            vals[played], 0, 0, classic_params) if played else []
        got = scoring.settle_seats(vals, fouled_bits, auto_bits, params)
        for a in range(n):
            expected = 0
            for b in range(n):
                if b == a or not (codes[a] or codes[b]):
                    continue
                expected += naive.special_units(KIND_NAMES[codes[a]], KIND_NAMES[codes[b]],
                                                rs.automatic_wins, strength)
            if not codes[a]:
                expected += among_played[played.index(a)]
            assert got[a] == expected, (vals, codes, a)


def test_given_opponents_with_specials(monkeypatch):
    declared = _with(automatic_wins=SHISANSHUI_UNITS)
    counted = _with(automatic_wins=SHISANSHUI_UNITS, automatic_wins_declared=False)
    monkeypatch.setitem(solver.rules._REGISTRY, "declared", declared)
    monkeypatch.setitem(solver.rules._REGISTRY, "counted", counted)
    suited = " ".join(SUITED_DRAGON)
    # Declared: the suited dragon collects 108 from all big (declared) and from rows.
    sol = solver.solve(suited, "declared", players=2, holdout=0,
                       opponents=[[ALL_BIG + ("declare",)], [PLAYED]])
    assert sol.automatic_win == "suited_dragon" and sol.declare
    assert sol.ev_declare == 108
    # Counted: all small (12) collects from PLAYED, three flushes (3, weaker), whether
    # it declared or not, and PLAYED counts as its special with no choice.
    sol = solver.solve(" ".join(PLAYED), "counted", players=2, holdout=0,
                       opponents=[[ALL_SMALL], [ALL_SMALL + ("declare",)]])
    assert sol.automatic_win == "three_flushes" and sol.declare and sol.ev_declare == -12
    # Under classic's rules the same rows are compared (all small is no special there).
    assert solver.solve(" ".join(PLAYED), "classic", players=2, holdout=0,
                        opponents=[[ALL_SMALL]]).ev != -12
