"""A rule set of the general scoring through the rest of the library: the opponent
model's estimate, the search's pruning premises, and solve / quick_set / review / settle
/ evaluate_rows end to end (with a model made by a short self-play)."""
import dataclasses
import functools
import itertools

import numpy as np
import pytest

import solver
from solver import model
from solver.cards import card_name, deck_codes
from solver.rules import SCHEME_GENERAL
from solver.scoring import score_candidates, scoring_params
from solver.search import dominance_failure, front_bonus_is_monotone, nondominated_arrangements
from solver.tables import row_tables
from test_scoring_general import CLASSIC_1_6, TWO_JOKERS, _house, _table

BUILT_INS = ["joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin"]

# Every field away from its default at once (a home run at four seats only).
MIXED = _house("mixed", row_points=(1, 2, 1), front_trips_points=4, majority_bonus=1,
               scoop="no_row_lost", scoop_units=2, shot_multiplier=2, home_run_units=1,
               home_run_multiplier=3, home_run_min_seats=4, bonus_paid="row_made",
               bonus_multiplied=True, foul_penalty=1,
               row_bonus=_table({("front", "pair"): 1, ("front", "trips"): 3,
                                 ("middle", "full_house"): 2, ("middle", "quads"): 8,
                                 ("back", "quads"): 4, ("back", "straight_flush"): 5}))
# Royalties replacing the points and multiplied by shots (as 十三水's).
REPLACING = _house("replacing", shot_multiplier=2, home_run_multiplier=4,
                   home_run_min_seats=4, bonus_mode="replace", bonus_multiplied=True,
                   row_bonus=_table({("front", "trips"): 3, ("middle", "full_house"): 2,
                                     ("middle", "quads"): 8, ("back", "quads"): 4}))


def _forced_general(rs):
    """A copy of ``rs`` that takes the general scheme's code paths."""
    forced = dataclasses.replace(rs)
    object.__setattr__(forced, "scheme", SCHEME_GENERAL)
    return forced


# --- the opponent model's estimate -----------------------------------------------------------
@pytest.mark.parametrize("name", BUILT_INS)
def test_the_general_estimate_is_each_built_ins_estimate(rng, name):
    """With a built-in's fields, the general estimate is the built-in's (the model's
    tables built the general way from the same field)."""
    rs = solver.rule_set(name)
    for n in rs.seats:
        shipped = model.TableModel.shipped(rs, n)
        rank = sorted(shipped.fields)[0]
        t = row_tables(rs, rank)
        own = model.model_tables(shipped.fields[rank], rs, t, n)
        general = model.model_tables(shipped.fields[rank], _forced_general(rs), t, n)
        assert general.params[model.M_MONOTONE] == own.params[model.M_MONOTONE]
        for of, om, ob in rng.integers(1, own.rows.shape[1], (300, 3)):
            want = model._ev(own, of, om, ob, model.R_SEP, False, rs.scheme)
            got = model._ev(general, of, om, ob, model.R_SEP, False, SCHEME_GENERAL)
            assert got == pytest.approx(want, rel=1e-6, abs=1e-6)   # (float32 records)


@functools.lru_cache(maxsize=None)
def _trained(rules, n_seats):
    """A model of a few seconds' self-play (tiny: for the tests, not for play)."""
    from solver.policy_training import self_play
    return self_play(rules, n_seats, rounds=1, deals=300, seed=1)


@pytest.mark.parametrize("rules", [MIXED, REPLACING], ids=lambda r: r.name)
def test_the_general_bound_is_at_least_every_weaker_estimate(rng, rules):
    """The setter's bound at ordinals (f, m, b) is at least the estimate of any rows no
    stronger (the premise of its branch and bound), here with royalties paid whenever
    made or replacing the points, shots and home runs."""
    mt = _trained(rules, 4).tables()
    n_ord = mt.rows.shape[1]
    for of, om, ob in rng.integers(1, n_ord, (200, 3)):
        bound = model._ev(mt, of, om, ob, model.R_ENV, True, SCHEME_GENERAL)
        for _ in range(5):
            wf, wm, wb = (int(rng.integers(1, o + 1)) for o in (of, om, ob))
            assert model._ev(mt, wf, wm, wb, model.R_SEP, False, SCHEME_GENERAL) <= bound + 1e-9


def test_home_runs_make_the_model_depend_on_the_table_size():
    assert model.model_seats(MIXED, 4) == 4 and model.model_seats(MIXED, 3) == 0
    assert model.model_seats(CLASSIC_1_6, 4) == 0


# --- the search's premises -------------------------------------------------------------------
def test_the_pruning_premises_of_general_rule_sets():
    for rules in (CLASSIC_1_6, TWO_JOKERS, MIXED, REPLACING):
        assert front_bonus_is_monotone(rules) and dominance_failure(rules) is None
    cheap = dataclasses.replace(REPLACING, row_bonus=_table({("middle", "full_house"): 1}),
                                bonus_multiplied=False)
    assert "worth less than the row points" in dominance_failure(cheap)
    shrinking = dataclasses.replace(MIXED, home_run_multiplier=1)
    assert "home run multiplies less" in dominance_failure(shrinking)
    assert dominance_failure(dataclasses.replace(shrinking, home_run_min_seats=5)) is None
    trips_less = dataclasses.replace(CLASSIC_1_6, row_points=(2, 1, 1), front_trips_points=1)
    assert not front_bonus_is_monotone(trips_less)
    with pytest.raises(ValueError, match="worth less than the row points"):
        solver.solve("As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c", cheap, players=2,
                     policy="sbf", samples=10)


@pytest.mark.parametrize("rules", [MIXED, REPLACING, TWO_JOKERS], ids=lambda r: r.name)
def test_pruning_loses_nothing_against_brute_force(rng, rules):
    """Where the premises hold, the best of the arrangements the search keeps scores
    as the best of every legal arrangement, on sampled deals (fouls included)."""
    t = solver.rows.tables_for(rules)
    deck = deck_codes(rules)
    five = list(itertools.combinations(range(13), 5))
    three = list(itertools.combinations(range(13), 3))
    for trial in range(2):
        # Hands rich in pairs and trips, so that royalties and Front trips come up.
        ranks = rng.choice(13, 5, replace=False)
        rich = [c for c in deck if c < 52 and c % 13 in ranks] + [c for c in deck if c >= 52]
        pick = list(rng.choice(rich, 9, replace=False))
        pick += list(rng.choice([c for c in deck if c not in pick], 4, replace=False))
        codes = np.array(pick, np.int64)
        v5 = dict(zip(five, solver.evaluate_rows(codes[np.array(five)], rules)))
        v3 = dict(zip(three, solver.evaluate_rows(codes[np.array(three)], rules)))
        arrangements = set()
        for back in five:
            rest = [i for i in range(13) if i not in back]
            for middle in itertools.combinations(rest, 5):
                if v5[middle] > v5[back]:
                    continue
                front = tuple(i for i in rest if i not in middle)
                if v3[front] < v5[middle]:
                    arrangements.add((v3[front], v5[middle], v5[back]))
        ours = np.array(sorted(arrangements), np.int32)
        values = t.values[t.values >= 0]
        opp = np.sort(rng.choice(values[-len(values) // 3:], (8, 3, 3)), axis=2).astype(np.int32)
        fouled = rng.random((8, 3)) < 0.15
        auto = np.zeros((8, 3), np.int8)
        params = scoring_params(rules)
        best = score_candidates(ours, 0, opp, fouled, auto, params).mean(1).max()
        _, ords = nondominated_arrangements(codes, t, params)
        pruned = score_candidates(t.values[ords].astype(np.int32), 0, opp, fouled, auto,
                                  params)
        assert pruned.mean(1).max() == pytest.approx(best)
        assert len(ords) < len(ours)


def test_the_warm_up_process_is_told_a_built_in_by_name_and_any_other_rule_set_by_its_tables():
    """A registered rule set travels by name; one made in this process (or a registered
    name with other rules) travels as its file's tables, which load as the same rules."""
    from solver import _warmup
    from solver.rules import RuleSet
    classic = solver.rule_set("classic")
    assert _warmup._told(classic) == "classic"
    assert _warmup._told(CLASSIC_1_6) == "classic-1-6"          # (a shipped house rule set)
    for rules in (dataclasses.replace(CLASSIC_1_6, scoop_units=2),
                  dataclasses.replace(classic, majority_bonus=2)):
        told = _warmup._told(rules)
        assert isinstance(told, dict)
        assert RuleSet.from_dict(told).digest == rules.digest


# --- end to end ------------------------------------------------------------------------------
HAND = "As Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 2h"


@pytest.mark.parametrize("rules, players", [(CLASSIC_1_6, 3), (MIXED, 4)],
                         ids=["classic-1-6", "mixed"])
def test_solve_quick_set_review_settle_on_a_general_rule_set(rules, players):
    trained = _trained(rules, players)
    sol = solver.solve(HAND, rules, players=players, policy=trained, samples=200, seed=3)
    rows = (sol.front, sol.middle, sol.back)
    assert solver.is_legal(*rows, rules)
    assert sol.candidates > 1 and np.isfinite(sol.ev)
    # The EV is the mean of the exact settlement over the deals: solving again with
    # the same seed gives the same answer, and reviewing the chosen setting grades it
    # as the best.
    again = solver.solve(HAND, rules, players=players, policy=trained, samples=200, seed=3)
    assert again == sol
    review = solver.review(HAND, rows, rules, players=players, policy=trained, samples=200,
                           seed=3)
    assert review.ev == pytest.approx(review.best_ev, abs=1e-9)
    quick = solver.quick_set(HAND, rules, players=players, policy=trained)
    assert solver.is_legal(*quick[:3], rules)
    # The text shows the scoops (shots, where they multiply) and home runs where the
    # rules score them.
    text = str(sol)
    assert ("home run" in text) == (rules is MIXED)
    assert ("shot " in text) == (rules.shot_multiplier > 1)
    assert ("scoop " in text) == (rules.scoop_units > 0 and rules.shot_multiplier == 1)
    # sbf opponents work without any model.
    assert solver.solve(HAND, rules, players=players, policy="sbf", samples=50).candidates > 1


def test_settle_explains_a_general_deal_item_by_item(rng):
    """On random deals of random seats, solver.settle's breakdown of a general rule set
    sums to each pair's units, and the units are the reference's."""
    import naive
    for rules in (CLASSIC_1_6, MIXED, REPLACING):
        for n in (2, 3, 4):
            for _ in range(10):
                cards = [card_name(int(c)) for c in rng.permutation(deck_codes(rules))]
                deal = []
                for s in range(n):
                    hand = cards[13 * s:13 * s + 13]
                    for _ in range(200):
                        order = list(rng.permutation(hand))
                        rows = (" ".join(order[:3]), " ".join(order[3:8]), " ".join(order[8:]))
                        if rng.random() < 0.2 or solver.is_legal(*rows, rules):
                            break
                    deal.append(rows)
                got = solver.settle(deal, rules, detail=True)
                for p in got.pairs:
                    assert sum(u for _, u in p.items) == p.units, p
                keys = [[naive.row_key(r, "classic") for r in seat] for seat in deal]
                fouled = [not naive.is_legal(*seat, "classic") for seat in deal]
                assert list(got.scores) == naive.settle_general(keys, rules, fouled)
    text = str(solver.settle(deal, MIXED, detail=True))
    assert "seat 0" in text
