"""The ranges of a rule-set file's numbers (solver.rule_file.KEYS, docs/rule-files.md#why-
the-ranges) keep every deal inside the kernels' integers: at each end of each range, a
deal is settled, and a hand solved, exactly as the slow reference's plain Python integers
say (naive.settle_general); the constants that bound the sums on the way agree with the
sampling limits they depend on; a RuleSet made in Python beyond them is refused, not
answered wrong.  And a file that loads can be solved: random files either load and solve
or are refused at load naming the key that makes the solver's search inexact
(docs/rule-files.md#a-file-that-loads-can-be-solved)."""
import copy
import dataclasses
import random

import numpy as np
import pytest

import naive
import solver
from solver import sampling, scoring
from solver.rule_file import KEYS, MAX_MULTIPLIER, MAX_UNITS, RuleFileError, file_key
from solver.rules import AUTOMATIC_WINS, CATEGORIES, FRONT_CATEGORIES, ROWS, RuleSet, rule_set
from solver.search import dominance_failure, front_bonus_is_monotone
from test_five_seats import STRONG, WEAK, _keys_of

M, X = MAX_UNITS, MAX_MULTIPLIER
NUMERIC = [k for k in KEYS if k.bounds is not None]


def _royalties_by_rank(units: int) -> dict:
    """Every category a row can be that has a rank, at ``units`` for every rank."""
    ranks = {r: units for r in "23456789TJQKA"}
    return {row: {c: dict(ranks) for c in (FRONT_CATEGORIES if row == "front"
                                           else CATEGORIES) if c != "joker_trips"}
            for row in ROWS}


def _royalties(units: int) -> dict:
    """Every category a row can be, at ``units``."""
    return {row: {c: units for c in (FRONT_CATEGORIES if row == "front"
                                     else [c for c in CATEGORIES if c != "joker_trips"])}
            for row in ROWS}


def _largest(specials: bool = False) -> dict:
    """A file with every count at its largest and every multiplier too (the scoop and
    the majority multiplied as well, a foul losing every row and paying the penalty, no
    loss cap): five seats of a 65-card deck, or (``specials``) four of the plain pack with
    every automatic win."""
    d = {"name": "largest",
         "deck": {"extra_spades": not specials, "jokers": 0, "cut_card": False},
         "deal": {"cards": 13, "seats": [2, 3, 4] if specials else [2, 3, 4, 5]},
         "scoring": {"row_points": [M, M, M], "front_trips_points": M, "majority_bonus": M,
                     "scoop": "all_rows_won", "scoop_units": M, "shot_multiplier": X,
                     "home_run_units": M, "home_run_multiplier": X, "home_run_min_seats": 2,
                     "majority_multiplied": True, "scoop_multiplied": True},
         "royalties": {"mode": "add", "paid": "row_won", "multiplied": True,
                       **_royalties(M)},
         "fouls": {"rule": "loses_rows", "penalty": M},
         "automatic_wins": {}}
    if specials:
        d["automatic_wins"] = {**{n: M for n in AUTOMATIC_WINS},
                               "strength": {n: M - i for i, n in enumerate(AUTOMATIC_WINS)}}
    return d


def _at(key, end: int) -> dict:
    """_largest's file with ``key`` (a KEYS entry) at ``end`` of its range, and what that
    end needs of the other keys (a deck that holds the seats, a rule for no penalty...)."""
    value = key.bounds[end]
    d = _largest(specials=key.section == "automatic_wins")
    if key.path == "deck.jokers":
        d["deck"]["jokers"] = value
    elif key.path == "deal.cards":
        d["deal"]["cards"] = value
        deck = 65 + d["deck"]["jokers"]
        d["deal"]["seats"] = [n for n in d["deal"]["seats"] if n * value <= deck]
    elif key.path == "deal.seats":
        d["deal"]["seats"] = [value]
    elif key.path == "scoring.row_points":
        d["scoring"]["row_points"] = [value] * 3
    elif key.section == "scoring":
        d["scoring"][key.name] = value
        if key.name == "home_run_multiplier":       # (never less than a shot)
            d["scoring"]["shot_multiplier"] = min(value, X)
    elif key.path == "royalties.ROW.CATEGORY":
        d["royalties"].update(_royalties(value))
    elif key.path == "royalties.ROW.CATEGORY.RANK":
        d["royalties"].update(_royalties_by_rank(value))
    elif key.path == "fouls.penalty":
        d["fouls"] = {"rule": "penalty", "penalty": value} if value else {"rule": "loses_rows"}
    elif key.path == "surrender.cost":
        d["surrender"] = {"cost": value}
    elif key.path == "automatic_wins.NAME":
        d["automatic_wins"].update({n: value for n in AUTOMATIC_WINS})
    elif key.path == "automatic_wins.strength.NAME":
        d["automatic_wins"]["strength"] = {n: value for n in AUTOMATIC_WINS}
    else:
        raise AssertionError(f"a numeric key with no test at its ends: {key.path}")
    return d


def _values(rs, arrangement):
    return [int(solver.evaluate_rows([row], rs)[0]) for row in arrangement]


def _fouled(rs, arrangement) -> bool:
    f, m, b = _values(rs, arrangement)
    return not f < m <= b


def _reference(rs, seats, declared=None, surrendered=()) -> list[int]:
    """naive.settle_general's units (Python integers) for a deal of text rows."""
    fouled = [_fouled(rs, s) for s in seats]
    if rs.row_bonus_by_rank:         # (royalties by rank: the reference's own keys, ranked)
        base = "joker" if rs.jokers or rs.spade_copies == 2 else "classic"
        keys = [[naive.row_key(row, base) for row in seat] for seat in seats]
    else:
        keys = _keys_of(seats, rs)
    return naive.settle_general(keys, rs, fouled, declared, surrendered)


def _cards(text) -> list[str]:
    return solver.format_cards(text).split()


def _random_arrangement(rng, pool: list[str], rs) -> tuple[str, str, str]:
    """13 cards of ``pool`` (taken from it) set legally at random."""
    for _ in range(1000):
        cards = rng.sample(pool, 13)
        arrangement = (" ".join(cards[:3]), " ".join(cards[3:8]), " ".join(cards[8:]))
        if not _fouled(rs, arrangement):
            for c in cards:
                pool.remove(c)
            return arrangement
    raise AssertionError("no legal arrangement drawn")


def _deck(rs) -> list[str]:
    return _cards(" ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "shdc")
                  + " " + " ".join(f"{r}s" for r in "23456789TJQKA") * (rs.spade_copies - 1)
                  + " Jk" * rs.jokers)


def _without(deck: list[str], used) -> list[str]:
    rest = list(deck)
    for c in used:
        rest.remove(c)
    return rest


@pytest.mark.parametrize("end", [0, 1], ids=["low", "high"])
@pytest.mark.parametrize("key", NUMERIC, ids=lambda k: k.path)
def test_at_each_end_of_each_range_settle_and_solve_are_exact(key, end):
    """The file loads; its units stay inside the kernels' bound; the worst deal (seat 0
    wins every row against every other seat: a home run) and the same deal with a seat
    fouled settle as the reference does, every seat; a solve of seat 0's hand against
    that deal finds a setting worth as much, its EV that setting's reference units; and
    a solve against twelve random deals reports the exact mean of its setting's reference
    units there."""
    rs = RuleSet.from_dict(_at(key, end))
    assert scoring.deal_units_bound(rs) <= scoring.DEAL_UNITS_LIMIT
    rng = random.Random(f"{key.path} {end}")
    n = rs.max_seats
    if rs.automatic_wins:
        _check_automatic_wins(rs, rng)
        return
    seats = [STRONG] + WEAK[:n - 1]
    want = _reference(rs, seats)
    assert solver.settle(seats, rs) == want and want[0] > 0
    if (all(v == M for v in rs.row_points) and rs.shot_multiplier == rs.home_run_multiplier == X
            and not rs.loss_cap_per_pair and not rs.loss_cap_per_deal):
        # Every row won, with its royalty, the scoop and the majority (multiplied), a home
        # run.
        side = 3 * (M + max(max(rs.royalty_units(r, c)) for r in range(3) for c in CATEGORIES)) * X
        assert want[0] == (n - 1) * (side + (rs.scoop_units + rs.majority_bonus) * X
                                      + rs.home_run_units)
    if n > 2:
        foul = ("Kc Qc 3c", "5c 6d 8c 9d Jc", "2d 3d 4h 4c 5d")          # K-high over J-high
        with_foul = [STRONG, foul] + WEAK[1:n - 1]
        assert solver.settle(with_foul, rs) == _reference(rs, with_foul)
    own = _cards(" ".join(STRONG))
    used = own + [c for s in WEAK[:n - 1] for row in s for c in _cards(row)]
    spare = _without(_deck(rs), used)
    hand = own + spare[:rs.discards]
    best = solver.solve(hand, rs, players=n, opponents=[list(WEAK[:n - 1])], top=0)
    chosen = (best.front, best.middle, best.back)
    assert best.ev == _reference(rs, [chosen] + WEAK[:n - 1])[0] >= want[0]
    # Twelve random deals of the other cards (the same opponents' cards each time: the
    # deals differ in how they are set).
    pool = _without(_deck(rs), hand)
    deals = []
    for _ in range(12):
        left = list(pool)
        deals.append([_random_arrangement(rng, left, rs) for _ in range(n - 1)])
    got = solver.solve(hand, rs, players=n, opponents=deals, top=0)
    chosen = (got.front, got.middle, got.back)
    units = [_reference(rs, [chosen] + deal)[0] for deal in deals]
    assert got.ev_in_sample == sum(units) / len(units)
    if rs.surrender_cost:
        _check_surrender(rs, hand, deals)


def _check_surrender(rs, hand, deals):
    """A seat that surrenders pays the cost to each seat still in, as the reference says,
    and takes nothing from the others; a solve's surrendering is worth exactly that."""
    n = rs.max_seats
    seats = [STRONG] + WEAK[:n - 1]
    for gives_up in ([1], [0], list(range(1, n))):
        want = _reference(rs, seats, surrendered=gives_up)
        assert solver.settle(seats, rs, surrendered=gives_up) == want
        assert want[gives_up[0]] == -rs.surrender_cost * (n - len(gives_up))
    # Opponent 0 surrenders in every deal: it pays seat 0 the cost, whatever seat 0 sets.
    given = [[deal[0] + ("surrender",)] + deal[1:] for deal in deals]
    got = solver.solve(hand, rs, players=n, opponents=given, top=0)
    chosen = (got.front, got.middle, got.back)
    units = [_reference(rs, [chosen] + list(deal), surrendered=[1])[0] for deal in deals]
    assert got.ev_in_sample == sum(units) / len(units)
    assert got.ev_surrender_in_sample == -rs.surrender_cost * (n - 2)


DRAGON = "Ah Kd Qc Js Th 9d 8c 7s 6h 5d 4c 3s 2h"


def _check_automatic_wins(rs, rng):
    """Four seats of the plain pack: seat 0 declares a dragon; each other pays it the
    dragon's units, as the reference says; a solve of the hand finds declaring worth
    exactly that, its setting worth what the reference says, and takes the larger."""
    pool = _without(_deck(rs), _cards(DRAGON))
    others = [_random_arrangement(rng, pool, rs) for _ in range(rs.max_seats - 1)]
    dragon = ("Ah Kd Qc", "Js Th 9d 8c 7s", "6h 5d 4c 3s 2h")
    seats = [dragon] + others
    want = _reference(rs, seats, {0: "dragon"})
    assert solver.settle(seats, rs, declared=[0]) == want
    assert want[0] == (rs.max_seats - 1) * rs.automatic_wins["dragon"]
    got = solver.solve(DRAGON, rs, players=rs.max_seats, opponents=[others], top=0)
    assert got.ev_declare_in_sample == want[0]
    setting = _reference(rs, [(got.front, got.middle, got.back)] + others)[0]
    assert got.ev_in_sample == setting and got.declare == (want[0] > setting)


def test_every_numeric_key_has_a_test_at_its_ends():
    for key in NUMERIC:
        for end in (0, 1):
            RuleSet.from_dict(_at(key, end))            # (raises for a key it lacks)


def test_the_largest_file_moves_a_third_of_a_million_units_and_the_bound_holds_it():
    """Every row won with its royalty, the scoop and the majority multiplied, a home run,
    from each of four others; and where they fouled (losing every row), the penalty too:
    docs/rule-files.md#why-the-ranges."""
    rs = RuleSet.from_dict(_largest())
    seats = [STRONG] + WEAK
    assert solver.settle(seats, rs)[0] == 4 * (3 * (M + M) * X + 2 * M * X + M) == 324_000
    foul = ("Kc Qc 3c", "5c 6d 8c 9d Jc", "2d 3d 4h 4c 5d")          # K-high over J-high
    fouled = [STRONG, foul] + WEAK[1:]
    units = 3 * (M + M) * X + 2 * M * X + M
    assert solver.settle(fouled, rs)[0] == _reference(rs, fouled)[0]
    assert solver.settle(fouled, rs)[0] == 3 * units + units + M        # (the foul's penalty)
    assert scoring.deal_units_bound(rs) >= 4 * (units + M) == 328_000
    assert scoring.deal_units_bound(rs) <= scoring.DEAL_UNITS_LIMIT


def _smallest_sample_bytes() -> int:
    """The fewest bytes check_memory counts a sample (the most samples a solve may
    ask for): a 2-seat deal of the plain pack, any cards dealt, cut card or not."""
    smallest = None
    for cards in range(13, 18):
        for cut in (False, True):
            rs = dataclasses.replace(rule_set("pagat"), cards_dealt=cards, cut_card=cut,
                                     seats=(2,))
            low, high = 1, 10 ** 12          # the largest accepted sample count
            while low < high:
                mid = (low + high + 1) // 2
                try:
                    sampling.check_memory("samples", mid, rs, 2, adaptive=True)
                    low = mid
                except ValueError:
                    high = mid - 1
            per_sample = sampling.SAMPLE_MEMORY_LIMIT // low
            smallest = per_sample if smallest is None else min(smallest, per_sample)
    return smallest


def test_the_deal_limit_keeps_every_sum_on_the_way_exact():
    """score_candidates' int32 scores, exploitability's int32 difference of two, adaptive
    sampling's int64 sum of squared differences over the most deals memory allows, and
    a float64 mean of a total over them."""
    limit = scoring.DEAL_UNITS_LIMIT
    most_deals = sampling.SAMPLE_MEMORY_LIMIT // _smallest_sample_bytes()
    assert 2 * limit < 2 ** 31
    assert most_deals * (2 * limit) ** 2 < 2 ** 63
    assert most_deals * limit < 2 ** 53
    # A file at the end of every range stays inside it, with a fifth to spare (room for
    # keys to come; multiplied scoops and majorities and a foul's penalty on top of its
    # rows took it from 252,000 to 328,000).
    assert 5 * scoring.deal_units_bound(RuleSet.from_dict(_largest())) <= 4 * limit


@pytest.mark.parametrize("change", [dict(scoop_units=2 ** 31 - 1),
                                    dict(row_points=(1, 1, 3_000_000_000)),
                                    dict(shot_multiplier=10 ** 6, home_run_multiplier=10 ** 6)])
def test_a_rule_set_made_in_python_beyond_the_kernels_is_refused_not_answered(change):
    """Cases an adversarial pass found (a row worth 3e9 reported ev -1294967294.0;
    scoop_units 2**31 - 1 picked a setting winning 1.5): one line, from settle and solve
    alike."""
    rs = dataclasses.replace(rule_set("classic-1-6"), name="huge", **change)
    with pytest.raises(ValueError, match=r"^the huge rule set's units are too large"):
        solver.solve("As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c", rs, players=2, samples=4,
                     policy="sbf")
    with pytest.raises(ValueError, match="too large for the solver"):
        solver.settle(["2s 2h Ad / 7c 7d 9s 5h 3d / Tc Jc Qc Kc Ac",
                       "3s 3h 4d / 6c 6d 8s 5c 2d / 9c 9d Th Ts As"], rs)


# --- a file that loads can be solved ----------------------------------------------------
def _random_file(rng: random.Random) -> dict:
    """Any file: every key drawn over its whole range (small numbers more often), the
    royalties of random categories, some keys left out."""
    def units(low=0):
        return rng.choice([low, low, rng.randint(low, 5), rng.randint(low, M)])

    extra, jokers, cut = rng.random() < 0.5, rng.randint(0, 3), rng.random() < 0.3
    cards = rng.choice([13, 13, rng.randint(13, 17)])
    deck = 52 + 13 * extra + jokers
    seats = [n for n in (2, 3, 4, 5) if n * cards + cut <= deck]
    seats = sorted(rng.sample(seats, rng.randint(1, len(seats))))
    shot = rng.choice([1, 1, 2, rng.randint(1, X)])
    d = {"deck": {"extra_spades": extra, "jokers": jokers, "cut_card": cut},
         "deal": {"cards": cards, "seats": seats},
         "scoring": {"row_points": [units() for _ in range(3)],
                     "front_trips_points": units(), "majority_bonus": units(),
                     "scoop": rng.choice(["all_rows_won", "no_row_lost"]),
                     "scoop_units": units(), "shot_multiplier": shot,
                     "home_run_units": units(), "home_run_multiplier": rng.randint(shot, X),
                     "home_run_min_seats": rng.randint(2, max(seats))},
         "royalties": {"mode": rng.choice(["add", "replace"]),
                       "paid": rng.choice(["row_won", "row_made"]),
                       "multiplied": rng.random() < 0.5},
         "fouls": rng.choice([{"rule": "penalty", "penalty": units(1)},
                              {"rule": "loses_rows"}, {}])}
    for row in ROWS:
        makeable = (FRONT_CATEGORIES if row == "front"
                    else [c for c in CATEGORIES if c != "joker_trips"])
        if rng.random() < 0.7:
            d["royalties"][row] = {c: units(1) for c in rng.sample(makeable, rng.randint(1, 4))}
    for section in ("scoring", "royalties"):
        for key in list(d[section]):
            if rng.random() < 0.15:
                del d[section][key]
    return {"name": "random", **d}


def test_a_random_file_loads_only_where_the_solver_can_search_it():
    """Of 600 random files, those refused for the solver's sake name a file key (never a
    field); every one that loads passes both of the solver's premises."""
    rng = random.Random(37)
    loaded = refused = 0
    for _ in range(600):
        d = _random_file(rng)
        try:
            rs = RuleSet.from_dict(d)
        except RuleFileError as e:
            if "solver" not in e.reason:
                continue                      # (a home run that never happens, say)
            refused += 1
            assert str(e).startswith(file_key(e.key)) and e.key.split(".")[0] in (
                "royalties", "scoring"), e
            continue
        loaded += 1
        assert front_bonus_is_monotone(rs) and dominance_failure(rs) is None, d
    assert loaded > 100 and refused > 50, (loaded, refused)


# The first ``cards dealt`` of these make the hand (no 4c: the cut card).
CARDS = "As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c Ad Kc Qs Jh".split()


@pytest.mark.parametrize("seed", range(10))
def test_a_random_file_that_loads_solves(seed):
    """Random files that load (over the whole ranges): each solves a hand at a random
    seat count on sampled deals."""
    rng = random.Random(1000 + seed)
    while True:
        d = _random_file(rng)
        try:
            rs = RuleSet.from_dict(d)
            break
        except RuleFileError:
            continue
    cut = "4c" if rs.cut_card else None
    got = solver.solve(CARDS[:rs.cards_dealt], rs, cut, players=rng.choice(rs.seats),
                       samples=20, seed=seed, policy="sbf", top=1)
    assert np.isfinite(got.ev)


def test_two_jokers_and_a_front_trips_royalty():
    """Two jokers never make joker trips (three jokers in the Front), so a Front trips
    royalty alone loads and solves; with three jokers, stronger joker trips without a
    royalty would earn less than trips: refused at load, naming the key."""
    d = {"name": "j", "deck": {"jokers": 2}, "royalties": {"front": {"trips": 2}}}
    rs = RuleSet.from_dict(d)
    solver.solve("As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h Jk", rs, players=2, samples=10,
                 policy="sbf")
    three = copy.deepcopy(d)
    three["deck"].update(jokers=3, extra_spades=True)
    three["deal"] = {"seats": [2, 3]}
    with pytest.raises(RuleFileError, match=r"^\[royalties\] front\.trips = 2: a Front of "
                                            r"trips earns 3 units and a stronger one of "
                                            r"joker_trips 1"):
        RuleSet.from_dict(three)
    three["royalties"]["front"]["joker_trips"] = 2
    RuleSet.from_dict(three)


@pytest.mark.parametrize("tables, key", [
    ({"scoring": {"front_trips_points": 5}, "deck": {"cut_card": True},
      "deal": {"seats": [2, 3]}},
     "[scoring] front_trips_points = 5"),
    ({"royalties": {"front": {"pair": 4, "trips": 2}}}, "[royalties] front.pair = 4"),
    ({"royalties": {"paid": "row_made", "front": {"pair": 2}, "mode": "replace"},
      "scoring": {"row_points": [2, 1, 1]}}, "[royalties] front.pair = 2"),
    ({"royalties": {"mode": "replace", "back": {"flush": 1}},
      "scoring": {"shot_multiplier": 2}}, "[royalties] back.flush = 1"),
])
def test_each_way_a_file_could_defeat_the_search_is_refused_naming_its_key(tables, key):
    with pytest.raises(RuleFileError) as caught:
        RuleSet.from_dict({"name": "x", **tables})
    assert str(caught.value).startswith(key) and "solver" in caught.value.reason
