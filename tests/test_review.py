"""solver.review: a player's own setting graded against the best one on the same deals.

Every expectation is computed from the library's own output (solve, sample_opponents,
settle), never a hard-coded row: the best is solve's answer, and the player's scores are
re-derived deal by deal with settle on the very opponents solve plays against."""
import json

import numpy as np
import pytest

import solver
from solver import __main__ as cli

CLASSIC = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
JOKER = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"
DRAGON = "As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h"
SIX_PAIRS = "As Ad Kh Kd 9d 9c 8h 8c 6h 6s 4d 4c 2h"    # declaring beats every setting
TIED = "9s Qh 5s Ac 2d 4h Tc As Th 3c 9d 7c 5d"         # the next best is tied with the best
N = 120


def _scores_by_settle(cards, setting, rules, samples, seed=0, cut=None, declare=False):
    """The setting's units in each deal, by settle, against sample_opponents."""
    out = []
    for opponents in solver.sample_opponents(cards, rules, cut, samples=samples, seed=seed):
        seats = [tuple(setting)] + [tuple(o[:3]) for o in opponents]
        declared = ([0] if declare else []) + [j + 1 for j, o in enumerate(opponents)
                                               if len(o) == 4]
        out.append(solver.settle(seats, rules, cut, declared=declared or None)[0])
    return np.array(out, np.float64)


def _best_scores(review_result, cards, rules, cut=None):
    best = review_result.best
    if best.declare:
        split = solver.automatic_win(cards, rules)
        return _scores_by_settle(cards, split[2:], rules, review_result.samples, cut=cut,
                                 declare=True)
    return _scores_by_settle(cards, (best.front, best.middle, best.back), rules,
                             review_result.samples, cut=cut)


def _rows(text):
    return tuple(r.strip() for r in text.split("/"))


# --- the numbers ----------------------------------------------------------------------------
def test_the_best_is_solve_and_the_setting_is_scored_on_the_same_deals():
    setting = solver.solve(CLASSIC, "classic", samples=N, top=1).alternatives[0]
    rows = (setting.front, setting.middle, setting.back)
    r = solver.review(CLASSIC, rows, "classic", samples=N, seed=0)
    assert r.best == solver.solve(CLASSIC, "classic", samples=N, seed=0)
    assert r.best_ev == r.best.ev_in_sample and not r.best_declares
    mine = _scores_by_settle(CLASSIC, rows, "classic", N)
    best = _scores_by_settle(CLASSIC, (r.best.front, r.best.middle, r.best.back), "classic", N)
    diff = mine - best
    assert r.ev == pytest.approx(mine.mean()) and r.ev == pytest.approx(setting.ev)
    assert r.stderr == pytest.approx(mine.std(ddof=1) / np.sqrt(N))
    assert r.diff == pytest.approx(diff.mean()) and r.diff == pytest.approx(setting.diff)
    assert r.diff_stderr == pytest.approx(diff.std(ddof=1) / np.sqrt(N))
    assert r.diff_stderr == pytest.approx(setting.diff_stderr)
    assert r.tied == setting.tied and r.rank == 2 and r.choices == r.best.candidates
    assert r.ranked_among == r.choices                    # it is one of the choices
    assert r.fouls == () and r.playable and r.dominated_by is None and not r.declare


@pytest.mark.parametrize("rules, cards, cut", [("classic", CLASSIC, None),
                                               ("classic:mandarin", SIX_PAIRS, None),
                                               ("joker", JOKER, None),
                                               ("bonus", JOKER.replace(" Jk", ""), "4c")])
def test_rank_counts_the_choices_that_score_more(rules, cards, cut):
    sol = solver.solve(cards, rules, cut, samples=N, top=10**6)
    assert len(sol.alternatives) == sol.candidates - 1
    for alt in sol.alternatives[:4] + sol.alternatives[-2:]:
        r = solver.review(cards, (alt.front, alt.middle, alt.back), rules, cut, samples=N)
        declaring = [sol.ev_declare_in_sample] if sol.automatic_win else []  # a choice too
        assert r.ev == pytest.approx(alt.ev)
        assert r.choices == sol.candidates + len(declaring)
        evs = [sol.ev_in_sample] + [a.ev for a in sol.alternatives] + declaring
        assert r.rank == 1 + sum(ev > r.ev + 1e-12 for ev in evs)


def test_the_best_setting_is_the_best_one():
    sol = solver.solve(JOKER, "joker", samples=N)
    r = solver.review(JOKER, f"{sol.front} / {sol.middle} / {sol.back}", "joker", samples=N)
    assert r.rank == 1 and r.is_best and r.diff == 0 and r.diff_stderr == 0 and r.tied
    assert r.row_rates == sol.row_rates and r.discards == sol.discards
    assert (r.front, r.middle, r.back) == (sol.front, sol.middle, sol.back)   # read alike
    assert "it is the best one" in r.explanation
    assert f"None of the {sol.candidates} choices worth considering" in r.explanation


def test_a_tied_setting_is_said_to_be_tied():
    sol = solver.solve(TIED, "classic", samples=N, top=10)
    tied = next(a for a in sol.tied if a.diff < 0)      # (a tie of exactly 0 says less)
    assert not sol.automatic_win and tied.diff < 0
    r = solver.review(TIED, (tied.front, tied.middle, tied.back), "classic", samples=N)
    assert r.tied and not r.is_best and r.diff == pytest.approx(tied.diff)
    assert (f"you give up {-r.diff:.3f} units a deal, within two standard errors "
            f"({r.diff_stderr:.3f} each) of the best setting") in r.explanation.lower()
    # Against a declaration that beats every setting, the best setting is no longer tied.
    sol = solver.solve(SIX_PAIRS, "classic:mandarin", samples=N, top=2)
    tied = sol.tied[0]
    r = solver.review(SIX_PAIRS, (tied.front, tied.middle, tied.back), "classic:mandarin",
                      samples=N)
    assert sol.declare and r.best_declares and not r.tied
    assert r.best_ev == sol.ev_declare_in_sample
    assert "Declaring the automatic win" in r.explanation


def test_the_explanation_says_what_it_costs_in_a_players_words():
    third = solver.solve(CLASSIC, "classic", samples=N, top=2).alternatives[1]
    r = solver.review(CLASSIC, (third.front, third.middle, third.back), "classic", samples=N)
    assert not r.tied and r.diff < 0 and r.row_rates
    gaps = {row: r.row_rates[row][0] - r.best.row_rates[row][0] for row in r.row_rates}
    worst = min(gaps, key=gaps.get)
    mine, best = r.row_rates[worst][0], r.best.row_rates[worst][0]
    assert (f"your {worst} " in r.explanation.lower()
            and (f"{mine:.0%} of the time against {best:.0%}" in r.explanation
                 or f"only {mine:.0%} against {best:.0%}" in r.explanation))
    errors = -r.diff / r.diff_stderr
    cost = (f"about {errors:.0f} standard errors" if errors <= 20
            else "more than 20 standard errors")
    assert f"you give up {-r.diff:.2f} units a deal, {cost}" in r.explanation


def test_a_dominated_setting_names_what_dominates_it():
    r = solver.review(JOKER, "Ks Kd Qh / As As Jk 2h 3c / Qc Jd Td 9c 8c", "joker",
                      samples=N)
    assert r.dominated_by is not None
    dominating = solver.review(JOKER, r.dominated_by, "joker", samples=N)
    assert dominating.dominated_by is None and dominating.ev >= r.ev
    rs = solver.rule_set("joker")
    for row, mine, theirs in zip(range(3), (r.front, r.middle, r.back), r.dominated_by):
        v_mine, v_theirs = solver.row_value(mine, rs), solver.row_value(theirs, rs)
        assert v_theirs >= v_mine
        assert rs.row_bonus[row][solver.CATEGORIES.index(v_theirs.category)] >= \
            rs.row_bonus[row][solver.CATEGORIES.index(v_mine.category)]
    # ... so it scores at least as much on every deal.
    mine = _scores_by_settle(JOKER, (r.front, r.middle, r.back), "joker", N)
    theirs = _scores_by_settle(JOKER, r.dominated_by, "joker", N)
    assert (theirs >= mine).all()
    assert "is dominated by " + solver.display.arrangement_text(r.dominated_by) \
        in r.explanation


@pytest.mark.parametrize("rules, penalty", [("classic", "pays 4 to each other player"),
                                            ("classic:eastern", "pays 4 to each other player"),
                                            ("pagat", "loses all three rows")])
def test_a_foul_is_scored_where_the_rules_score_it(rules, penalty):
    setting = "9s 9c Kd / 3d 3c Qh As 2d / 8c 7h 6h 5s 5d"     # pair of 9s over 3s
    r = solver.review(CLASSIC, setting, rules, samples=N)
    assert r.fouls == ("front >= middle",) and r.playable and r.row_rates is None
    mine = _scores_by_settle(CLASSIC, _rows(setting), rules, N)
    assert r.ev == pytest.approx(mine.mean())
    assert r.diff == pytest.approx((mine - _best_scores(r, CLASSIC, rules)).mean())
    sol = solver.solve(CLASSIC, rules, samples=N, top=10**6)
    evs = [sol.ev_in_sample] + [a.ev for a in sol.alternatives]
    assert r.rank == 1 + sum(ev > r.ev for ev in evs)
    assert "Your setting fouls: your Front (9s 9c Kd, a pair) is not below your Middle" \
        in r.explanation and penalty in r.explanation
    both = solver.review(CLASSIC, "As Kd Qh / 9s 8c 7h 6h 5s / 9c 5d 3d 3c 2d", rules,
                         samples=N)
    assert both.fouls == ("middle > back",)


def test_a_foul_cannot_be_played_in_joker_or_bonus():
    setting = "As As Jk / Ks Qh Jd Td 9c / 8c 7h 6h 5s 4d"       # trips over a straight: ok
    assert solver.review(JOKER, setting, "joker", samples=N).fouls == ("middle > back",)
    r = solver.review(JOKER, setting, "joker", samples=N)
    assert not r.playable and r.ev is None and r.diff is None and r.rank is None
    assert r.tied is None and "do not let a fouled setting be played" in r.explanation
    data = json.loads(r.to_json())
    assert data["ev"] is None and data["fouls"] == ["middle > back"]
    assert "FOULED" in str(r)


def test_declaring_is_graded_like_a_setting():
    r = solver.review(DRAGON, "declare", "classic", samples=N)
    assert r.declare and r.automatic_win == "dragon" and r.best_declares
    assert r.ev == r.best.ev_declare_in_sample and r.is_best and r.rank == 1
    assert r.choices == r.ranked_among == r.best.candidates + 1   # declaring is a choice
    split = solver.automatic_win(DRAGON, "classic")[2:5]
    played = solver.review(DRAGON, split, "classic", samples=N)
    assert played.diff == pytest.approx(
        (_scores_by_settle(DRAGON, split, "classic", N)
         - _scores_by_settle(DRAGON, split, "classic", N, declare=True)).mean())
    assert "Declaring the automatic win (dragon) beats every setting" in played.explanation


def test_a_setting_that_is_not_a_choice_is_ranked_beside_them():
    # Worse than all 14 non-dominated arrangements: 15th of 15 (yours and the 14), never
    # "15th among the 14 choices".
    r = solver.review(JOKER, "Ks Kd Qh / As As Jk 2h 3c / Qc Jd Td 9c 8c", "joker")
    assert r.dominated_by and r.rank == r.choices + 1 == r.ranked_among == 15
    assert f"rank {r.rank} of {r.ranked_among}: yours and the {r.choices} choices worth " \
        f"considering ({r.choices} score more)" in str(r).splitlines()
    assert r.explanation.endswith(f"It ranks {r.rank}th of {r.ranked_among}, beside the "
                                  f"{r.choices} choices worth considering (the "
                                  f"non-dominated arrangements): all of them score more.")
    assert r.to_dict()["ranked_among"] == r.ranked_among
    # A playable foul is not a choice either; a foul that cannot be played is not ranked.
    foul = solver.review(CLASSIC, "9s 9c Kd / 3d 3c Qh As 2d / 8c 7h 6h 5s 5d", "classic",
                         samples=N)
    assert foul.ranked_among == foul.choices + 1 and foul.rank <= foul.ranked_among
    unplayable = solver.review(JOKER, "As As Jk / Ks Qh Jd Td 9c / 8c 7h 6h 5s 4d", "joker",
                               samples=N)
    assert unplayable.rank is None and unplayable.to_dict()["ranked_among"] is None
    assert "rank" not in str(unplayable).lower().split("your setting fouls")[0]


@pytest.mark.parametrize("cards, setting", [(CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s"),
                                            (DRAGON, "declare")])
def test_the_review_says_which_ev_of_the_best_is_which(cards, setting):
    # The best's mean on these deals (they chose it) is not the held-out EV solve
    # reports for it; the text names both, each for what it is.
    r = solver.review(cards, setting, "classic", samples=N)
    best = r.best
    lines = str(r).splitlines()
    assert lines[1].startswith("  yours") and lines[1].endswith(" on these deals")
    held_out = (f"          held out: EV {best.action_ev:+.3f} ± {best.action_stderr:.3f} "
                f"on {best.holdout} new deals, the EV solve reports")
    assert held_out in lines
    shown = lines[lines.index(held_out) - 1]
    assert f"EV {r.best_ev:+.3f} on these deals (they chose it" in shown
    assert best.action_ev == (best.ev_declare if r.best_declares else best.ev)


# --- the output -------------------------------------------------------------------------------
def test_to_dict_is_plain_json_with_the_solution_inside():
    r = solver.review(CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic",
                      samples=N)
    data = json.loads(r.to_json())
    assert solver.Solution.from_dict(data["best"]) == r.best
    assert data["tied"] == r.tied and data["explanation"] == r.explanation
    assert data["rank"] == r.rank and data["categories"] == list(r.categories)
    assert data["row_rates"] == {k: list(v) for k, v in r.row_rates.items()}


def test_the_command_line_prints_the_review(capsys):
    setting = "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s"
    code = cli.main(["review", CLASSIC, "--rules", "classic", "--setting", setting,
                     "--samples", str(N)])
    out, err = capsys.readouterr()
    r = solver.review(CLASSIC, setting, "classic", samples=N)
    assert code == 0 and err == ""
    assert out == f"hand: {solver.display.sort_row(CLASSIC, group=False)}\n{r}\n"
    code = cli.main(["review", *CLASSIC.split(), "--rules", "classic", "--setting", setting,
                     "--samples", str(N), "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out) == json.loads(r.to_json())


@pytest.mark.parametrize("argv", [
    ["review", CLASSIC, "--rules", "classic"],                               # no --setting
    ["review", CLASSIC, "--rules", "classic", "--setting", "As Kd / Qh"],
    ["review", CLASSIC, "--rules", "classic", "--setting", "declare"],
    ["review", "As Ks", "--rules", "classic", "--setting", "a / b / c"],
])
def test_the_command_line_refuses_bad_input_in_one_line(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "error: " in err


# --- bad input --------------------------------------------------------------------------------
BAD = [
    (CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5h", "classic", None,
     "the setting's back holds 5h, which is not in the hand"),
    (CLASSIC, "As Kd 9c 3d / 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic", None,
     "the setting's front has 4 cards; a front has 3"),
    (CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h", "classic", None,
     "the setting's back has 4 cards; a back has 5"),
    (CLASSIC, "As Kd 9c / 3d 3c Qh 5d 9c / 9s 8c 7h 6h 5s", "classic", None,
     r"9c is set twice \(in the front and middle\), but the hand holds one"),
    (CLASSIC, "As As 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic", None,
     r"As is set twice \(in the front\), but the hand holds one"),
    (CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d", "classic", None, "has 2 rows"),
    (CLASSIC, None, "classic", None, "a setting is"),
    (CLASSIC, ("As Kd 9c", "3d 3c Qh 5d 2d"), "classic", None, "has 2 rows"),
    (CLASSIC, "Zz Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic", None,
     "the setting's front: unknown card 'Zz'"),
    (CLASSIC, "declare", "classic", None, "the hand holds no automatic win to declare"),
    (CLASSIC, "declare", "pagat", None, "the pagat rule set has no automatic wins"),
    (JOKER, "As As As / 8c 7h 6h 5s 4d / Ks Qh Jd Td 9c", "joker", None,
     r"As is set 3 times \(in the front\), but the hand holds two"),
    (JOKER, "Jk Jk Jk / 8c 7h 6h 5s 4d / Ks Qh Jd Td 9c", "joker", None,
     "Jk is set 3 times"),
    (JOKER.replace(" Jk", ""), "4c As As / 8c 7h 6h 5s 4d / Ks Qh Jd Td 9c", "bonus", "4c",
     r"holds 4c, which is not in the hand \(it is the cut card, out of play\)"),
    ("As Kd", "As / Kd / x", "classic", None, "the classic rule set deals 13 cards, not 2"),
]


@pytest.mark.parametrize("cards, setting, rules, cut, message", BAD,
                         ids=lambda x: str(x)[:30] if isinstance(x, str) else None)
def test_bad_input_is_a_clear_value_error(cards, setting, rules, cut, message):
    with pytest.raises(ValueError, match=message):
        solver.review(cards, setting, rules, cut, samples=10)


def test_a_setting_may_be_written_as_any_card_notation():
    spaced = solver.review(CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic",
                           samples=10)
    for setting in ("AsKd9c / 3d3cQh5d2d / 9s8c7h6h5s",                  # treys, pokerkit
                    "A\u2660\ufe0f Kd 9c | 3d 3c Qh 5d 2d | 9s 8c 7h 6h 5s"):  # pasted emoji
        assert solver.review(CLASSIC, setting, "classic", samples=10) == spaced


def test_doubled_spades_are_two_cards_when_the_hand_holds_both():
    r = solver.review(JOKER, ["As As Jk", "8c 7h 6h 5s 4d", "Ks Qh Jd Td 9c"], "joker",
                      samples=10)
    assert sorted(r.front.split()) == ["As", "As", "Jk"]
    assert sorted(r.discards.split()) == ["2h", "3c", "Kd", "Qc"]


def test_one_deal_has_no_standard_error_and_says_so():
    r = solver.review(CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic",
                      samples=1)
    assert r.stderr is None and r.diff_stderr is None and r.tied
    assert "± n/a" in str(r) and json.loads(r.to_json())["diff_stderr"] is None


def test_bad_sampling_arguments_are_the_solvers_errors():
    with pytest.raises(ValueError, match="samples must be at least 1"):
        solver.review(DRAGON, "declare", "classic", samples=0)
    with pytest.raises(ValueError, match="seed must be an integer"):
        solver.review(DRAGON, "declare", "classic", seed=1.5)
