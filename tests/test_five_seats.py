"""Five seats (docs/rule-files.md): a deck with a second set of spades (65 cards) deals
13 cards to five players.  The scoring core settles random five-seat rows as the slow
reference does (naive.settle_general) under random scoring rules, including the
specialised kernels a rule set may still get at five seats; and a five-seat file is
solved, reviewed, quick-set and settled end to end, its model trained for five seats
(with a preset of seconds, as tests/test_training.py)."""
import dataclasses
import json

import numpy as np
import pytest

import naive
import solver
import solver.training as training
from solver import scoring
from solver.rules import (SCHEME_GENERAL, SCHEME_MANDARIN, SCHEME_ROWS, SCHEME_SCOOP,
                          SCHEME_WESTERN, rule_set)
from solver.tables import CATEGORY_SHIFT
from test_scoring_general import _keys, _random_rules, _random_values

BUILT_INS = ["joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin"]


def _at_five(rules, **changes):
    """``rules``' scoring on a 65-card deck dealing 13 cards to up to five seats."""
    return dataclasses.replace(rules, **{
        **dict(spade_copies=2, jokers=0, cut_card=False, cards_dealt=13, seats=(2, 3, 4, 5),
               automatic_wins={}, automatic_win_strength={}), **changes})


def _check_against_the_reference(rng, rules, deals=30, arrangements=3):
    """Five-seat rows, some fouled where fouls are scored: the solver's loop (seat 0's
    arrangements against sampled opponents) and the settlement core, every seat, as the
    reference."""
    values = solver.rows.tables_for(rule_set("classic")).values
    params = scoring.scoring_params(rules)
    fouls_scored = rules.foul_penalty != 0 or rules.foul_loses_rows
    n = 5
    cand = np.sort(_random_values(rng, values, (arrangements, 3)), axis=1)
    opp = _random_values(rng, values, (deals, n - 1, 3))
    fouled = (rng.random((deals, n - 1)) < 0.15) & fouls_scored
    no_auto = np.zeros((deals, n - 1), np.int8)
    got = scoring.score_candidates(cand, 0, opp, fouled, no_auto, params)
    for s in range(deals):
        for k in range(arrangements):
            vals = np.concatenate([cand[k:k + 1], opp[s]])
            seat_fouls = [False] + list(fouled[s])
            want = naive.settle_general(_keys(vals), rules, seat_fouls)
            f_bits, a_bits = scoring.pack_flags(seat_fouls, [0] * n)
            assert list(scoring.settle_seats(vals, f_bits, a_bits, params)) == want, (
                rules, vals, seat_fouls)
            assert got[k, s] == want[0]


def test_random_scoring_rules_settle_five_seats_as_the_reference(rng):
    schemes = set()
    for _ in range(30):
        rules = _at_five(_random_rules(rng), home_run_min_seats=int(rng.integers(2, 6)))
        schemes.add(rules.scheme)
        _check_against_the_reference(rng, rules)
    assert SCHEME_GENERAL in schemes


@pytest.mark.parametrize("name", BUILT_INS)
def test_the_built_ins_scoring_settles_five_seats_as_the_reference(rng, name):
    """The built-ins' scoring fields at five seats: joker's and bonus's home runs need
    the five seats' bits apart; mandarin's home run (at four seats or more) makes a
    five-seat table the general kernel's."""
    rules = _at_five(rule_set(name))
    assert rules.scheme == (SCHEME_GENERAL if name == "classic:mandarin"
                            else rule_set(name).scheme)
    _check_against_the_reference(rng, rules, deals=60)


def test_the_specialised_kernels_keep_their_rule_sets_up_to_four_seats():
    assert rule_set("classic:mandarin").scheme == SCHEME_MANDARIN
    assert _at_five(rule_set("classic:mandarin"), seats=(2, 3, 4)).scheme == SCHEME_MANDARIN
    for name, scheme in (("joker", SCHEME_SCOOP), ("pagat", SCHEME_ROWS),
                         ("classic", SCHEME_WESTERN)):
        assert _at_five(rule_set(name)).scheme == scheme


# --- a five-seat file, end to end -------------------------------------------------------------
FIVE = """\
name = "five"
[deck]
extra_spades = true
[deal]
seats = [3, 5]
[scoring]
scoop_units = 1
home_run_units = 2
[fouls]
rule = "penalty"
penalty = 3
"""
HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"


@pytest.fixture
def five(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(training.PRESETS, "default", training.Preset(1, 300))
    path = tmp_path / "five.toml"
    path.write_text(FIVE)
    return path


def test_a_five_seat_file_loads_and_a_four_seat_deck_refuses_five(five, tmp_path):
    rs = rule_set(five)
    assert rs.deck_size == 65 and rs.max_seats == 5 and rs.scheme == SCHEME_GENERAL
    assert solver.model.model_seats(rs, 5) == 5       # home runs: a model for five seats
    small = tmp_path / "small.toml"
    small.write_text(FIVE.replace("extra_spades = true", "extra_spades = false"))
    with pytest.raises(ValueError, match=r"5 seats of 13 cards need 65 cards; the deck has 52"):
        rule_set(small)


def _keys_of(seats, rules):
    """The reference's row keys of text rows, from the library's row values."""
    return [[(int(v) >> CATEGORY_SHIFT, int(v))
             for v in (solver.evaluate_rows([row], rules)[0] for row in seat)]
            for seat in seats]


STRONG = ("As As Ks", "7s 7h 7d 7c 2c", "Qh Jh Th 9h 8h")      # both aces of spades
WEAK = [("2d 3d 4h", "5c 6d 8c 9d Jc", "Qc Kc 3c 4c 5d"),
        ("2h 3h 4d", "5h 6h 8d 9c Jd", "Qd Kd 3s 4s 6c"),
        ("Ah Kh 2s", "Td Tc 3s 4s 5s", "Ad Ac 6s 7s 8s"),
        ("9s 9s 2s", "Ts Ts 5s 6s 8s", "Js Js Qs Qs Ks")]       # 13 spades: 9 of them twice


def test_a_hand_worked_five_seat_deal(five):
    """Seat 0 wins every row against each of four others: 3 rows + 1 for the scoop + 2
    for the home run from each, 24 in all.  A fouled seat pays each other seat 3 and
    takes no part in their home runs: nobody scoops it, so no one has a home run."""
    scores = solver.settle([STRONG] + WEAK, five)
    assert scores[0] == 4 * (3 + 1 + 2) and sum(scores) == 0
    assert scores == naive.settle_general(_keys_of([STRONG] + WEAK, five), rule_set(five))
    fouled = ("Kc Qc 3c", "5c 6d 8c 9d Jc", "2d 3d 4h 4c 5d")    # K-high over J-high
    seats = [STRONG, fouled] + WEAK[1:]
    with_foul = solver.settle(seats, five)
    assert with_foul[1] == -3 * 4 and with_foul[0] == 3 + 3 * (3 + 1)
    assert with_foul == naive.settle_general(_keys_of(seats, five), rule_set(five),
                                             [False, True, False, False, False])


@pytest.mark.slow
def test_a_five_seat_file_is_solved_against_four_sampled_opponents(five):
    """The solve's in-sample EV is the settlement of its setting against the deals
    sample_opponents gives (four opponents each, cards of the 65-card deck), settled
    by solver.settle; review and quick_set work at five seats too."""
    solution = solver.solve(HAND, five, samples=24, seed=2, holdout=0)
    assert solution.players == 5 and len(solution.p_scoop) == 4
    assert len(list((five.parent / "cache" / "models").glob("*5seats*.npz"))) == 1
    deals = solver.sample_opponents(HAND, five, samples=24, seed=2)
    assert all(len(deal) == 4 for deal in deals)
    ours = (solution.front, solution.middle, solution.back)
    settled = [solver.settle([ours, *deal], five)[0] for deal in deals]
    assert np.mean(settled) == pytest.approx(solution.ev_in_sample)
    review = solver.review(HAND, ours, five, samples=24)
    assert review.players == 5 and review.best.front == solution.front
    assert len(solver.quick_set(HAND, five)) == 3


def test_the_arena_and_the_command_line_deal_and_settle_five_seats(five, capsys):
    from solver import __main__ as cli
    from solver import arena
    result = arena.match("sbf", "random", five, players=5, deals=2)
    assert result.rules == "five" and result.mean > 0
    assert cli.main(["deal", "--rules", str(five), "--players", "5", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "5 players, 13 cards each" in out and "seat 4:" in out
    seats = [" / ".join(seat) for seat in [STRONG] + WEAK]
    assert cli.main(["settle", "--rules", str(five), *seats, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == solver.settle([STRONG] + WEAK,
                                                                          five)
