"""Every description of a rule set's scoring reads its fields, so a rule set of any
combination of them (a file's, scored by the general scheme) is described by what it
says: the study page's ``/api/rules`` facts, the page's odds line, ``solution_text``'s
scoop / shot line and ``RuleSet.summary()``.  The built-in rule sets are described
exactly as before (their descriptions are pinned below as they were)."""
import dataclasses
import json

import pytest

import solver
from solver.display import solution_text
from solver.rules import SCHEME_GENERAL

pytest.importorskip("fastapi", reason="the study page needs the web extra")
from solver.web.app import _rule_set_info  # noqa: E402

CLASSIC = solver.rule_set("classic")
HAND = "Ah Ad Kc Qs Js 9d 8h 7c 6c 5h 4s 3h 2s"
# 1-6 scoring: a point a row, +3 for winning all three, no majority bonus.
ONE_SIX = dataclasses.replace(CLASSIC, name="one-six", majority_bonus=0, scoop_units=3,
                              automatic_wins={})
# Like 十三水 at a table of four: shots double, a home run quadruples, a foul loses every
# row, special hands counted without declaring.
SHOTS = dataclasses.replace(CLASSIC, name="shots", majority_bonus=0, shot_multiplier=2,
                            home_run_multiplier=4, home_run_min_seats=4, foul_penalty=0,
                            foul_loses_rows=True, automatic_wins_declared=False)
# A point a row and a unit a scoop, and a foul cannot be played.
NO_FOULS = dataclasses.replace(CLASSIC, name="no fouls", majority_bonus=0, scoop_units=1,
                               foul_penalty=0)
GENERAL = (ONE_SIX, SHOTS, NO_FOULS)


def test_the_examples_are_general_rule_sets():
    assert all(rs.scheme == SCHEME_GENERAL for rs in GENERAL)


def _info(rs):
    return {k: v for k, v in _rule_set_info(rs).items() if k != "deck"}


@pytest.mark.parametrize("rs, facts", [
    (ONE_SIX, dict(scoops=True, shots=False, scoop_means="win every row against that opponent",
                   home_runs_from=None, fouls="pay 4 to each other player",
                   automatic_wins=[], bonus_hands=False)),
    (SHOTS, dict(scoops=False, shots=True, scoop_means="win every row against that opponent",
                 home_runs_from=4, fouls="lose every row to each valid hand")),
    (NO_FOULS, dict(scoops=True, shots=False, home_runs_from=None,
                    fouls="cannot be played")),
])
def test_the_page_is_told_what_the_fields_say(rs, facts):
    info = _info(rs)
    assert {k: info[k] for k in facts} == facts
    assert info["summary"] == rs.summary() and info["docs"] == "docs/rule-files.md"


def test_a_foul_that_pays_and_loses_every_row_is_said_so():
    both = dataclasses.replace(NO_FOULS, foul_penalty=2, foul_loses_rows=True)
    assert _info(both)["fouls"] == ("lose every row to each valid hand and pay 2 to each "
                                    "other player")
    assert both.summary().endswith(", a foul pays 2 and loses every row, 4 automatic wins")


@pytest.mark.parametrize("rs, summary", [
    (ONE_SIX, "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, +3 for all three rows, "
              "a foul pays 4"),
    (SHOTS, "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, x2 for all three rows, x4 a home "
            "run (at 4+ seats), a foul loses every row, 4 automatic wins (counted without "
            "declaring)"),
    (NO_FOULS, "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, +1 for all three rows, a foul "
               "cannot be played, 4 automatic wins"),
    (dataclasses.replace(
        solver.rule_set("classic:eastern"), name="made", bonus_paid="row_made",
        bonus_multiplied=True, automatic_win_strength={"dragon": 4, "six_pairs": 1,
                                                       "three_flushes": 2,
                                                       "three_straights": 3}),
     "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, royalties instead of the row's points "
     "(paid whenever the row is made; multiplied with the row's points), a foul pays 4, "
     "4 automatic wins (ranked by their own strengths)"),
])
def test_the_summary_says_what_the_fields_say(rs, summary):
    assert rs.summary() == summary


def _scoop_line(rs, players):
    sol = solver.solve(HAND, rs, players=players, samples=40, policy="sbf")
    lines = [line for line in solution_text(sol).splitlines()
             if line.startswith(("scoop ", "shot "))]
    return lines, sol


def test_solution_text_says_shots_and_home_runs_where_the_fields_score_them():
    lines, sol = _scoop_line(SHOTS, 4)
    assert len(lines) == 1 and lines[0].startswith("shot ") and "shot against you" in lines[0]
    assert f"home run {100 * sol.p_home_run:.1f}%" in lines[0]
    assert lines[0].endswith("(shots: each opponent)")
    lines, _ = _scoop_line(SHOTS, 3)                      # no home runs below four seats
    assert len(lines) == 1 and "home run" not in lines[0]


def test_solution_text_says_scoops_where_the_fields_pay_them():
    lines, _ = _scoop_line(ONE_SIX, 2)
    assert len(lines) == 1 and lines[0].startswith("scoop ") and "scooped" in lines[0]
    assert "home run" not in lines[0] and lines[0].endswith("(scoops: each opponent)")
    plain = dataclasses.replace(ONE_SIX, scoop_units=0, foul_penalty=5)   # nothing extra
    assert _scoop_line(plain, 2)[0] == []


def test_review_says_a_foul_cannot_be_played_where_the_fields_say_so():
    r = solver.review(HAND, "Ah Ad Kc / Qs Js 9d 8h 7c / 6c 5h 4s 3h 2s", NO_FOULS,
                      players=2, samples=40, policy="sbf")
    assert not r.playable and "do not let a fouled setting be played" in r.explanation


# --- the built-ins, exactly as before -------------------------------------------------------------
# _rule_set_info of each (its deck aside) as it was before the descriptions read the fields
# (its summary included); scoop_means and home_runs_from were added since.
MAIN_INFO = {
    "bonus": {
        "automatic_wins": [],
        "bonus_hands": True,
        "cards_dealt": 16,
        "cards_kept": 13,
        "cut_card": True,
        "docs": "docs/rules.md#bonus",
        "fouls": "cannot be played",
        "jokers": 0,
        "name": "bonus",
        "players": [
            4
        ],
        "scoops": True,
        "shots": False,
        "spade_sets": 2,
        "summary": "65 cards, a cut card, 16 each (13 set) to 4 seats; +1 for no row lost, +2 a home run, royalties, a foul cannot be played"
    },
    "classic": {
        "automatic_wins": [
            "dragon",
            "six_pairs",
            "three_flushes",
            "three_straights"
        ],
        "bonus_hands": False,
        "cards_dealt": 13,
        "cards_kept": 13,
        "cut_card": False,
        "docs": "docs/rules.md#classic",
        "fouls": "pay 4 to each other player",
        "jokers": 0,
        "name": "classic",
        "players": [
            2,
            3,
            4
        ],
        "scoops": False,
        "shots": False,
        "spade_sets": 1,
        "summary": "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, +1 for two rows, a foul pays 4, 4 automatic wins"
    },
    "classic:eastern": {
        "automatic_wins": [
            "dragon",
            "six_pairs",
            "three_flushes",
            "three_straights"
        ],
        "bonus_hands": True,
        "cards_dealt": 13,
        "cards_kept": 13,
        "cut_card": False,
        "docs": "docs/rules.md#classic",
        "fouls": "pay 4 to each other player",
        "jokers": 0,
        "name": "classic:eastern",
        "players": [
            2,
            3,
            4
        ],
        "scoops": False,
        "shots": False,
        "spade_sets": 1,
        "summary": "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, royalties instead of the row's points, a foul pays 4, 4 automatic wins"
    },
    "classic:mandarin": {
        "automatic_wins": [
            "dragon",
            "six_pairs",
            "three_flushes",
            "three_straights"
        ],
        "bonus_hands": True,
        "cards_dealt": 13,
        "cards_kept": 13,
        "cut_card": False,
        "docs": "docs/rules.md#classic",
        "fouls": "pay 4 to each other player",
        "jokers": 0,
        "name": "classic:mandarin",
        "players": [
            2,
            3,
            4
        ],
        "scoops": False,
        "shots": True,
        "spade_sets": 1,
        "summary": "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, Front trips 3, x2 for all three rows, x3 a home run (at 4+ seats), royalties, a foul pays 4, 4 automatic wins"
    },
    "classic:western": {
        "automatic_wins": [
            "dragon",
            "six_pairs",
            "three_flushes",
            "three_straights"
        ],
        "bonus_hands": False,
        "cards_dealt": 13,
        "cards_kept": 13,
        "cut_card": False,
        "docs": "docs/rules.md#classic",
        "fouls": "pay 4 to each other player",
        "jokers": 0,
        "name": "classic",
        "players": [
            2,
            3,
            4
        ],
        "scoops": False,
        "shots": False,
        "spade_sets": 1,
        "summary": "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, +1 for two rows, a foul pays 4, 4 automatic wins"
    },
    "joker": {
        "automatic_wins": [],
        "bonus_hands": True,
        "cards_dealt": 17,
        "cards_kept": 13,
        "cut_card": False,
        "docs": "docs/rules.md#joker",
        "fouls": "cannot be played",
        "jokers": 3,
        "name": "joker",
        "players": [
            4
        ],
        "scoops": True,
        "shots": False,
        "spade_sets": 2,
        "summary": "65 cards and 3 jokers, 17 each (13 set) to 4 seats; +1 for no row lost, +3 a home run, royalties, a foul cannot be played"
    },
    "pagat": {
        "automatic_wins": [],
        "bonus_hands": False,
        "cards_dealt": 13,
        "cards_kept": 13,
        "cut_card": False,
        "docs": "docs/rules.md#pagat",
        "fouls": "lose every row to each valid hand",
        "jokers": 0,
        "name": "pagat",
        "players": [
            2,
            3,
            4
        ],
        "scoops": False,
        "shots": False,
        "spade_sets": 1,
        "summary": "52 cards, 13 each to 2, 3 or 4 seats; 1 a row, a foul loses every row"
    }
}
ADDED = {
    "joker": dict(scoop_means="lose no row to that opponent", home_runs_from=2),
    "bonus": dict(scoop_means="lose no row to that opponent", home_runs_from=2),
    "classic:mandarin": dict(scoop_means="win every row against that opponent",
                             home_runs_from=4),
}


@pytest.mark.parametrize("name", sorted(MAIN_INFO))     # (the six, pinned before the change)
def test_the_built_ins_are_described_as_before(name):
    info = _info(name)
    added = ADDED.get(name, dict(scoop_means="win every row against that opponent",
                                 home_runs_from=None))
    assert info == {**MAIN_INFO[name], **added}
    assert solver.rule_set(name).summary() == MAIN_INFO[name]["summary"]
    json.dumps(info)                                          # (JSON, as the API sends it)
