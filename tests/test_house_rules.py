"""House rules a rule-set file can say (docs/rules.md#house-rules-the-general-scoring):
royalties by rank, a foul that loses every row and pays, multiplied majorities and
scoops, loss caps per pair and per deal, and scoring by table size.

Each is checked four ways: the worked examples of docs/rules.md, figure by figure, by
solver.settle, its explanation and the slow reference (naive.settle_general); random
files drawing the new keys with the old ones, settled deal by deal against the
reference; solve's EV, the mean of settle over its deals, and no legal arrangement
better (so the search's pruning lost nothing); and the one combination the pruning
cannot take (a loss cap per deal, royalties paid whenever made and home runs), shown
by a deal and refused."""
import dataclasses
import itertools
import random

import numpy as np
import pytest

import naive
import solver
from solver import scoring
from solver.cards import card_name, deck_codes
from solver.rules import RuleSet, deal_cap_failure
from solver.rule_file import RuleFileError
from solver.search import dominance_failure, front_bonus_is_monotone
from solver.tables import make_value, value_rank
from test_rule_files import random_rule_dict
from test_scoring_general import _house, _keys

# --- the worked examples of docs/rules.md ---------------------------------------------------
OPEN_FACE = """
name = "open-face"
[scoring]
scoop_units = 3
[royalties]
paid = "row_made"
front.pair = { 6 = 1, 7 = 2, 8 = 3, 9 = 4, T = 5, J = 6, Q = 7, K = 8, A = 9 }
front.trips = { 2 = 10, 3 = 11, 4 = 12, 5 = 13, 6 = 14, 7 = 15, 8 = 16, 9 = 17, T = 18, J = 19, Q = 20, K = 21, A = 22 }
middle.trips = 2
middle.straight = 4
middle.flush = 8
middle.full_house = 12
middle.quads = 20
middle.straight_flush = { 5 = 30, 6 = 30, 7 = 30, 8 = 30, 9 = 30, T = 30, J = 30, Q = 30, K = 30, A = 50 }
back.straight = 2
back.flush = 4
back.full_house = 6
back.quads = 10
back.straight_flush = { 5 = 15, 6 = 15, 7 = 15, 8 = 15, 9 = 15, T = 15, J = 15, Q = 15, K = 15, A = 25 }
[fouls]
rule = "loses_rows"
"""
P = "Qs Qh 4d / 7c 8d 9s Th Jc / 2h 2d 2c Ks Kd"      # pair of queens 7, straight 4, full house 6
R = "Ac Kh 3s / 5s 5h 5d 9h 3d / 4h 6h 8h Jh Ah"      # no royalty, trips 2, flush 4
F = "8c 8s Jd / 9c 9d 4s 5c 6d / Ts Tc 7h 7s 3c"      # pair of eights 3, pair, two pair

# The deal of docs/rules.md#classic-1-6 and #shisanshui.
A = "Qh Qd 3c / 9s 9h 9d 5c 5d / Ks Kh Kd Kc 2s"      # pair, full house, quads
B = "As 4d 6c / Ah Ad 7c 8d Jc / Tc Td Th 6s 7s"      # ace high, pair of aces, trips
C = "Jh Js 2c / 3h 4h 8c 5s 2d / Jd 8s 8h 7d 6d"      # fouled
D = "2h 5h 6h / Qs Qc 9c Ts 7h / 3s 3d 4s 4c Ac"      # six high, pair of queens, two pair


def _seats(deal):
    return [tuple(row.strip() for row in seat.split("/")) for seat in deal]


def reference(deal, rules):
    """naive.settle_general's units: rows valued by the slow reference's own ladder
    (``joker``'s where the deck has jokers or a second set of spades), fouls by its own
    legality check."""
    base = "joker" if rules.jokers or rules.spade_copies == 2 else "classic"
    seats = _seats(deal)
    keys = [[naive.row_key(row, base) for row in seat] for seat in seats]
    fouled = [not naive.is_legal(*seat, base) for seat in seats]
    return naive.settle_general(keys, rules, fouled)


def check(deal, rules, expected):
    """The hand-worked units are solver.settle's and the reference's, and settle's
    explanation adds up to them pair by pair."""
    assert reference(deal, rules) == expected
    assert solver.settle(deal, rules) == expected
    explained = solver.settle(deal, rules, detail=True)
    assert list(explained.scores) == expected
    for pair in explained.pairs:
        assert sum(units for _, units in pair.items) == pair.units, pair
    return explained


def test_royalties_by_rank_worked_example():
    rules = RuleSet.from_toml(OPEN_FACE)
    # P wins every row: 3, and 3 for all three; royalties paid whenever made: P's pair of
    #   queens 7, straight 4, full house 6 = 17; R's trips 2, flush 4 = 6.  P +17.
    got = check([P, R], rules, [17, -17])
    assert ("front pair of queens royalty (seat 0)", 7) in got.pairs[0].items
    # F loses every row to P (6 and 17, minus F's pair of eights 3): P +20.  Against R, F
    #   wins the Front (1) and loses the Middle and the Back (2): R +1, and R's royalties
    #   6 against F's 3: R +4.  P 17 + 20, R -17 + 4, F -20 - 4.
    check([P, R, F], rules, [37, -13, -24])


def test_the_rank_of_a_row_names_it_and_a_joker_row_has_its_best_values_rank():
    C = solver.rules.CATEGORY_INDEX
    rank = lambda text, rules="classic": value_rank(solver.row_value(text, rules).value)
    assert rank("9s 9h 4d") == 7                         # a pair of nines
    assert rank("5c 5d 5h Kc Kd") == 3                   # a full house: its trips
    assert rank("Ac 2d 3h 4s 5c") == 3                   # A-2-3-4-5: its 5
    assert rank("Ts Js Qs Ks As") == 12                  # a royal flush: the ace
    assert rank("Qh 9h 7h 4h 2h") == 10                  # a flush: its top card
    assert rank("Jc Jk 3d", "two-jokers") == 9           # a pair of jacks
    assert rank("Jk Jk 5c", "two-jokers") == 3           # trips of fives
    assert rank("7h 7d Jk Jk Jk", "joker") == 5          # a joker five of sevens
    assert rank("As As 7s 7s 5s", "joker") == 12         # a paired flush: its higher pair
    assert rank("Jk Jk Jk", "joker") == -1               # joker trips have no rank
    assert value_rank(make_value(C["bonus_trips"], (5,))) == 4
    # Royalties are looked up by that rank, jokers and all: a Front Jk 8c 3d is a pair of
    #   eights (3).
    jokers = dataclasses.replace(RuleSet.from_toml(OPEN_FACE), jokers=2)
    deal = ["Jk 8c 3d / 2c 2d 7h 7s Kh / Qh Qd Qs 4c 4s",
            "Ac Kd 2h / Tc Td Th 3h 4h / 5c 6d 7c 8h 9s"]
    # Front: seat 0 wins, 1, and its pair of eights pays 3.  Middle: seat 1's trips win,
    #   1, and pay 2.  Back: seat 0's full house wins, 1, and pays 6; seat 1's straight
    #   pays 2 (made).  Seat 0: 1 + 3 - 1 - 2 + 1 + 6 - 2.
    check(deal, jokers, [6, -6])


def test_a_foul_that_loses_every_row_and_pays_worked_example():
    rules = RuleSet.from_toml('name = "x"\n[scoring]\nscoop_units = 3\n'
                              '[fouls]\nrule = "loses_rows"\npenalty = 2\n')
    assert rules.foul_loses_rows and rules.foul_penalty == 2
    # A wins every row against B: 3 + 3.  A and B each win every row against the fouled
    #   C, 3 + 3, and C pays each the penalty, 2.  A 6 + 8, B -6 + 8, C -16.
    got = check([A, B, C], rules, [14, 2, -16])
    assert ("foul by seat 2: penalty", 2) in got.pairs[1].items


MULTIPLIED = """
name = "multiplied"
[scoring]
majority_bonus = 1
scoop_units = 3
shot_multiplier = 2
home_run_multiplier = 4
home_run_min_seats = 4
majority_multiplied = true
scoop_multiplied = true
[royalties]
multiplied = true
middle.full_house = 2
back.quads = 4
[fouls]
rule = "loses_rows"
"""


def test_multiplied_units_worked_example():
    rules = RuleSet.from_toml(MULTIPLIED)
    # A shoots B: rows 3, royalties 2 + 4, the 3 and the majority 1, all doubled: 26; the
    #   same against the fouled C; B shoots C: (3 + 3 + 1) x 2 = 14.
    check([A, B, C], rules, [52, -12, -40])
    # At four, A wins every row against all three, a home run: 13 x 4 = 52 from each; B
    #   shoots C and D, D shoots C: 14 each.
    check([A, B, C, D], rules, [156, -24, -80, -52])
    # Without the new keys the majority and the 3 are not doubled: 2 x (3 + 6) + 3 + 1.
    plain = dataclasses.replace(rules, majority_multiplied=False, scoop_multiplied=False)
    assert solver.settle([A, B], plain) == [22, -22]


def _shisanshui_with(**scoring_keys):
    d = solver.rule_set("shisanshui").to_dict()
    d["name"] = "capped"
    d["scoring"].update(scoring_keys)
    return RuleSet.from_dict(d)


def test_loss_caps_worked_example():
    # Uncapped (docs/rules.md#shisanshui): A +84, B -16, C -40, D -28.
    check([A, B, C, D], solver.rule_set("shisanshui"), [84, -16, -40, -28])
    # Per pair 20: A collects 20 from each; the others' pairs (6) are under the cap.
    got = check([A, B, C, D], _shisanshui_with(loss_cap_per_pair=20), [60, -8, -32, -20])
    assert ("loss cap per pair (20)", -8) in got.pairs[0].items
    # Per deal 30: C owes A 28, B 6 and D 6 and collects nothing: it pays 30, A its 28 and
    #   D (at C's left) 2 of the equal 6s, B nothing.  D owes A 28 and B 6 and collects 2:
    #   it pays 32, A 28 and B 4.  B owes A 28 and collects 4: it pays in full.
    got = check([A, B, C, D], _shisanshui_with(loss_cap_per_deal=30), [84, -24, -30, -30])
    units = {(p.a, p.b): p.units for p in got.pairs}
    assert units == {(0, 1): 28, (0, 2): 28, (0, 3): 28, (1, 2): 0, (1, 3): 4, (2, 3): -2}


def test_scoring_by_table_size_worked_example():
    rules = RuleSet.from_toml('name = "x"\n[scoring]\nscoop_units = 3\n[fouls]\n'
                              'rule = "loses_rows"\n[at_2_seats.scoring]\nscoop_units = 6\n')
    assert rules.seat_scoring == {2: {"scoop_units": 6}}
    check([A, B], rules, [9, -9])                      # heads-up: 3 + 6
    check([A, B, C], rules, [12, 0, -12])              # classic-1-6's, at three
    assert rules.at_seats(3) == dataclasses.replace(rules, seat_scoring={})
    assert solver.rule_set("classic").at_seats(4) is solver.rule_set("classic")
    # Its own scoring parameters are those of one table size, never the file's whole.
    with pytest.raises(ValueError, match="scores otherwise at 2 seats"):
        scoring.scoring_params(rules)


# --- the one combination the search cannot prune by ------------------------------------------
def _v(category, *ranks):
    return make_value(solver.rules.CATEGORY_INDEX[category], tuple(r + 1 for r in ranks))


def test_a_loss_cap_per_deal_with_royalties_paid_when_made_and_home_runs_is_refused():
    """X scoops everyone (a home run) yet owes both others their made royalties; it pays
    the larger debt (seat 2's) first.  Our stronger Back ends the home run: X collects
    less and owes seat 2 more, so we, behind seat 2, collect less -- a stronger row
    scoring less, which the search's pruning assumes never happens."""
    quads = [0] * 13
    quads[12], quads[11] = 30, 40                       # Middle quads: aces 30, kings 40
    rules = _house("cap", scoop_units=0, home_run_units=5, home_run_min_seats=3,
                   bonus_paid="row_made", foul_loses_rows=False,
                   row_bonus_by_rank={"middle.quads": tuple(quads)}, loss_cap_per_deal=50)
    x = [_v("trips", 11), _v("straight_flush", 7), _v("straight_flush", 11)]
    other = [_v("pair", 9, 3), _v("quads", 11, 0), _v("flush", 10, 8, 6, 4, 2)]
    weaker = [_v("pair", 10, 3), _v("quads", 12, 0), _v("flush", 12, 10, 8, 6, 4)]
    stronger = weaker[:2] + [_v("straight_flush", 12)]
    got = scoring.score_candidates(np.array([weaker, stronger], np.int32), 0,
                                   np.array([[x, other]], np.int32), np.zeros((1, 2), bool),
                                   np.zeros((1, 2), np.int8), scoring.scoring_params(rules))
    assert got.ravel().tolist() == [11, 6]
    assert [naive.settle_general(_keys(np.array([us, x, other])), rules)[0]
            for us in (weaker, stronger)] == [11, 6]
    # Refused: by solve, and by a file, naming the key.
    assert "loss cap per deal" in dominance_failure(rules)
    assert deal_cap_failure(dataclasses.replace(rules, bonus_paid="row_won")) is None
    assert deal_cap_failure(dataclasses.replace(rules, home_run_units=0)) is None
    with pytest.raises(RuleFileError, match=r"\[scoring\] loss_cap_per_deal = 50"):
        RuleSet.from_dict(rules.to_dict())


def _without_front_royalties(rules: RuleSet) -> RuleSet:
    return dataclasses.replace(
        rules, row_bonus=((0,) * len(rules.row_bonus[0]),) + tuple(rules.row_bonus[1:]),
        row_bonus_by_rank={k: v for k, v in rules.row_bonus_by_rank.items()
                           if not k.startswith("front.")})


def test_a_stronger_row_never_scores_less_where_the_search_prunes(rng):
    """The premise of the search's pruning (solver/search.py), checked directly: under
    random rule sets with the new keys (royalties by rank, multiplied majorities and
    scoops, loss caps per pair and per deal, scoring by table size) that
    dominance_failure and front_bonus_is_monotone accept, raising one row of a legal
    setting to a stronger legal one whose royalty is no smaller never lowers our units
    against any sample of opponents (fouls and automatic wins among them)."""
    from test_scoring_general import _random_auto, _random_rules, _random_values
    checked = {"loss_cap_per_deal": 0, "loss_cap_per_pair": 0, "row_bonus_by_rank": 0,
               "majority_multiplied": 0, "scoop_multiplied": 0}
    decks = [solver.rows.tables_for(solver.rule_set(name)) for name in ("classic", "joker")]
    for i in range(60):
        t = decks[i % 2]
        fronts = np.unique(t.values[t.ord3][t.values[t.ord3] >= 0]).astype(np.int32)
        fives = np.unique(t.values[t.ord5][t.values[t.ord5] >= 0]).astype(np.int32)
        rules = _random_rules(rng)
        for n in rules.seats:
            table = rules.at_seats(n)
            if not front_bonus_is_monotone(table):
                table = _without_front_royalties(table)
            if table.scheme != scoring.SCHEME_GENERAL or dominance_failure(table):
                continue
            for key in checked:
                checked[key] += bool(getattr(table, key))
            params = scoring.scoring_params(table)
            royalty = [solver.tables.royalties_by_value(table, r, v)
                       for r, v in enumerate((fronts, fives, fives))]
            index = [{int(v): j for j, v in enumerate(vs)} for vs in (fronts, fives, fives)]
            base, raised = [], []
            while len(base) < 60:
                front = int(_random_values(rng, fronts, 1)[0])
                middle, back = sorted(int(v) for v in _random_values(rng, fives, 2))
                if not front < middle:
                    continue
                x = [front, middle, back]
                r = int(rng.integers(3))
                values = (fronts, fives, fives)[r]
                low = index[r][x[r]]
                above = np.arange(low + 1, len(values))
                above = above[royalty[r][above] >= royalty[r][low]]
                above = above[values[above] < middle] if r == 0 else (
                    above[values[above] <= back] if r == 1 else above)
                if not len(above):
                    continue
                y = list(x)
                y[r] = int(values[rng.choice(above)])
                base.append(x)
                raised.append(y)
            S = 30
            opp = np.sort(_random_values(rng, fives, (S, n - 1, 3)), axis=2)
            fouled = (rng.random((S, n - 1)) < 0.2) & scoring.fouls_playable(table)
            auto = _random_auto(rng, table, (S, n - 1))
            before = scoring.score_candidates(np.array(base, np.int32), 0, opp, fouled, auto,
                                              params)
            after = scoring.score_candidates(np.array(raised, np.int32), 0, opp, fouled, auto,
                                             params)
            worse = np.argwhere(after < before)
            assert not len(worse), (table, base[worse[0][0]], raised[worse[0][0]],
                                    opp[worse[0][1]], fouled[worse[0][1]])
    assert min(checked.values()) >= 5, checked


# --- random files: settle and solve against the reference --------------------------------------
DECKS = ({"extra_spades": False, "jokers": 0}, {"extra_spades": False, "jokers": 2},
         {"extra_spades": True, "jokers": 3})


def random_house_rules(seed: int) -> RuleSet:
    """A random file of 13 cards that loads (test_rule_files.random_rule_dict: every key,
    the new ones among them; drawn again where the solver could not search it) on a deck
    the slow reference values: the plain pack, two jokers, or a second set of spades and
    three jokers; no cut card."""
    rng = random.Random(seed)
    for _ in range(200):
        d = random_rule_dict(rng)
        d["deck"] = dict(DECKS[seed % len(DECKS)], cut_card=False)
        d["deal"]["cards"] = 13
        deck = 52 + 13 * d["deck"]["extra_spades"] + d["deck"]["jokers"]
        d["deal"]["seats"] = [n for n in (2, 3, 4) if n * 13 <= deck]
        d["automatic_wins"] = {}
        for key in [k for k in d if k.startswith("at_")]:
            if int(key.split("_")[1]) not in d["deal"]["seats"]:
                del d[key]
        if d["royalties"].get("paid") == "row_made" and d["scoring"].get("loss_cap_per_deal"):
            d["royalties"]["paid"] = "row_won"
        while True:
            try:
                return RuleSet.from_dict(d)
            except RuleFileError as e:
                if e.key.startswith("scoring.home_run"):
                    d["scoring"]["home_run_min_seats"] = 2
                    continue
                if e.key.startswith("at_"):
                    del d[e.key.split(".")[0]]
                    continue
                assert "the solver" in e.reason, e      # (refused: the search's premise)
                break
    raise AssertionError("no random file loads")


def _random_setting(rng, cards, rules, foul_rate):
    """13 of ``cards`` set at random: legal, or (at ``foul_rate``, where a foul can be
    played) whatever comes."""
    fouls = scoring.fouls_playable(rules) and rng.random() < foul_rate
    for _ in range(5000):
        pick = list(rng.permutation(cards))[:13]
        rows = (" ".join(pick[:3]), " ".join(pick[3:8]), " ".join(pick[8:]))
        if fouls or solver.is_legal(*rows, rules):
            return rows
    raise AssertionError("no legal setting found")


def _random_deal(rng, rules, n, foul_rate=0.2):
    cards = [card_name(int(c)) for c in rng.permutation(deck_codes(rules))]
    return [_random_setting(rng, cards[13 * s:13 * s + 13], rules.at_seats(n), foul_rate)
            for s in range(n)]


@pytest.mark.parametrize("seed", range(24))
def test_random_files_settle_deal_by_deal_as_the_reference(seed):
    rules = random_house_rules(seed)
    rng = np.random.default_rng(seed)
    for n in rules.seats:
        for _ in range(6):
            deal = [" / ".join(seat) for seat in _random_deal(rng, rules, n)]
            check(deal, rules, reference(deal, rules))


def _every_legal_setting(codes, rules):
    """Row values of every legal arrangement of 13 cards (of 72,072 splits)."""
    five = list(itertools.combinations(range(13), 5))
    three = list(itertools.combinations(range(13), 3))
    v5 = dict(zip(five, solver.evaluate_rows(codes[np.array(five)], rules)))
    v3 = dict(zip(three, solver.evaluate_rows(codes[np.array(three)], rules)))
    settings = set()
    for back in five:
        rest = [i for i in range(13) if i not in back]
        for middle in itertools.combinations(rest, 5):
            if v5[middle] <= v5[back]:
                front = tuple(i for i in rest if i not in middle)
                if v3[front] < v5[middle]:
                    settings.add((v3[front], v5[middle], v5[back]))
    return np.array(sorted(settings), np.int32)


@pytest.mark.parametrize("seed", range(12))
def test_random_files_solve_to_the_mean_of_settle_and_the_best_of_every_setting(seed):
    """solve's EV is the mean of settle over its deals (the opponents given), and no
    legal arrangement does better on them: the search's pruning lost nothing under the
    new keys (a file the search could not prune by is refused at load)."""
    rules = random_house_rules(100 + seed)
    rng = np.random.default_rng(seed)
    n = rules.seats[seed % len(rules.seats)]
    table = rules.at_seats(n)
    cards = [card_name(int(c)) for c in rng.permutation(deck_codes(rules))]
    hand, unseen = " ".join(cards[:13]), cards[13:]
    opponents = []
    for _ in range(10):
        unseen = list(rng.permutation(unseen))
        opponents.append([_random_setting(rng, unseen[13 * j:13 * j + 13], table, 0.2)
                          for j in range(n - 1)])
    assert front_bonus_is_monotone(table) and dominance_failure(table) is None
    sol = solver.solve(hand, rules, players=n, opponents=opponents, policy="sbf")
    ours = (sol.front, sol.middle, sol.back)
    if sol.declare:
        pytest.skip("the hand declares an automatic win")
    settled = [solver.settle([ours] + list(o), rules)[0] for o in opponents]
    assert sol.ev == pytest.approx(np.mean(settled), abs=1e-9)
    assert settled == [reference([" / ".join(ours)] + [" / ".join(s) for s in o], rules)[0]
                       for o in opponents]
    codes = np.array(solver.cards.parse_codes(hand, rules), np.int64)
    every = _every_legal_setting(codes, rules)
    t = solver.rows.tables_for(rules)
    value = lambda row: solver.rows._value_of_codes(solver.cards.parse_codes(row, rules), t)
    opp_vals = np.array([[[value(r) for r in seat] for seat in o] for o in opponents], np.int32)
    fouled = ~((opp_vals[..., 0] < opp_vals[..., 1]) & (opp_vals[..., 1] <= opp_vals[..., 2]))
    best = scoring.score_candidates(every, 0, opp_vals, fouled,
                                    np.zeros(fouled.shape, np.int8),
                                    scoring.scoring_params(table)).mean(axis=1).max()
    assert sol.ev == pytest.approx(best, abs=1e-9)


def _rich_hand(rng, rules):
    """13 cards rich in pairs and trips (so that royalties by rank, Front trips and
    scoops come up), of the rule set's deck."""
    deck = [card_name(int(c)) for c in deck_codes(rules)]
    ranks = rng.choice(list("23456789TJQKA"), 5, replace=False)
    rich = [c for c in deck if c[0] in ranks or c == "Jk"]
    pick = list(rng.choice(rich, 9, replace=False))
    rest = list(deck)
    for c in pick:
        rest.remove(c)
    return " ".join(pick + list(rng.choice(rest, 4, replace=False)))


@pytest.mark.parametrize("name", ["open-face", "multiplied, capped per pair",
                                  "two jokers, by rank, capped per deal"])
def test_solve_is_the_best_of_every_setting_on_rich_hands(rng, name):
    """The pruning premises under each new key, on hands made to hit them, at four
    seats with fouls among the opponents: solve's answer scores as the best of every
    legal arrangement on the same deals."""
    rules = {"open-face": RuleSet.from_toml(OPEN_FACE),
             "multiplied, capped per pair": dataclasses.replace(
                 RuleSet.from_toml(MULTIPLIED), loss_cap_per_pair=15),
             "two jokers, by rank, capped per deal": dataclasses.replace(
                 RuleSet.from_toml(OPEN_FACE), jokers=2, bonus_paid="row_won",
                 loss_cap_per_deal=20, home_run_units=3)}[name]
    for _ in range(2):
        hand = _rich_hand(rng, rules)
        unseen = [card_name(int(c)) for c in deck_codes(rules)]
        for c in hand.split():
            unseen.remove(c)
        opponents = []
        for _ in range(8):
            unseen = list(rng.permutation(unseen))
            opponents.append([_random_setting(rng, unseen[13 * j:13 * j + 13], rules, 0.15)
                              for j in range(3)])
        sol = solver.solve(hand, rules, players=4, opponents=opponents, policy="sbf")
        ours = " / ".join((sol.front, sol.middle, sol.back))
        settled = [reference([ours] + [" / ".join(s) for s in o], rules)[0] for o in opponents]
        assert sol.ev == pytest.approx(np.mean(settled), abs=1e-9)
        codes = np.array(solver.cards.parse_codes(hand, rules), np.int64)
        t = solver.rows.tables_for(rules)
        value = lambda row: solver.rows._value_of_codes(solver.cards.parse_codes(row, rules), t)
        opp = np.array([[[value(r) for r in seat] for seat in o] for o in opponents], np.int32)
        fouled = ~((opp[..., 0] < opp[..., 1]) & (opp[..., 1] <= opp[..., 2]))
        best = scoring.score_candidates(_every_legal_setting(codes, rules), 0, opp, fouled,
                                        np.zeros(fouled.shape, np.int8),
                                        scoring.scoring_params(rules)).mean(axis=1).max()
        assert sol.ev == pytest.approx(best, abs=1e-9)
        assert sol.candidates > 1


# --- scoring by table size through the library ----------------------------------------------
SEATED = RuleSet.from_toml('name = "seated"\n[scoring]\nscoop_units = 3\n'
                           '[fouls]\nrule = "loses_rows"\n'
                           '[at_2_seats.scoring]\nscoop_units = 6\nshot_multiplier = 2\n'
                           '[at_4_seats.scoring]\nloss_cap_per_deal = 12\n')


def test_every_call_scores_a_table_by_its_size():
    hand = "As Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 2h"
    for n in (2, 4):
        table = SEATED.at_seats(n)
        sol = solver.solve(hand, SEATED, players=n, policy="sbf", samples=40, seed=1)
        same = solver.solve(hand, table, players=n, policy="sbf", samples=40, seed=1)
        assert (sol.front, sol.middle, sol.back, sol.ev) == (same.front, same.middle,
                                                            same.back, same.ev)
        review = solver.review(hand, (sol.front, sol.middle, sol.back), SEATED, players=n,
                               policy="sbf", samples=40, seed=1)
        assert review.ev == pytest.approx(review.best_ev, abs=1e-9)
    heads_up = solver.solve(hand, SEATED, players=2, policy="sbf", samples=40, seed=1)
    assert "shot " in str(heads_up)                    # (a shot multiplies at two seats)
    assert "shot " not in str(solver.solve(hand, SEATED, players=3, policy="sbf",
                                           samples=40, seed=1))
    assert "scored otherwise at 2 and 4 seats" in SEATED.summary()
