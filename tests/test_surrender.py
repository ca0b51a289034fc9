"""Surrender (docs/rules.md#surrender): a seat gives up before the showdown and pays a
rule set's cost to each other seat still in the hand.

The settlement core against the slow reference (naive.settle_general) on random rule
sets, rows, fouls, declared specials and surrenders; the worked example of the rules
page; solve and review offering it beside the settings (its EV the mean settlement over
the very deals sample_opponents lists, the opponents' own surrenders the model's
estimate); the command line; the file key."""
import dataclasses
import json
import random
import subprocess
import sys

import numpy as np
import pytest

import naive
import solver
import solver.training as training
from solver import scoring
from solver.model import table_setter
from solver.policy import builtin_policy
from solver.rules import AUTOMATIC_WINS, SCHEME_GENERAL, RuleSet, rule_set
from test_naive_selfcheck import _random_legal
from test_scoring_general import _keys, _random_auto, _random_rules, _random_values

SURRENDER = scoring.AUTO_SURRENDER


def _with_surrender(rules: RuleSet, cost: int) -> RuleSet:
    return dataclasses.replace(rules, name="surrender", surrender_cost=cost)


def _surrenders(rng, auto):
    """Surrenders for some of the seats that declared nothing."""
    out = auto.copy()
    out[(out == 0) & (rng.random(out.shape) < 0.25)] = SURRENDER
    return out


def _reference(vals, fouled, auto, rules):
    declared = {s: AUTOMATIC_WINS[a - 1] for s, a in enumerate(auto) if 0 < a < SURRENDER}
    surrendered = [s for s, a in enumerate(auto) if a == SURRENDER]
    return naive.settle_general(_keys(vals), rules, list(fouled), declared, surrendered)


def test_the_core_settles_surrenders_as_the_reference(rng):
    """Every kernel a rule set with surrender can have (the general one, and Western,
    Eastern and Mandarin where the fields are theirs), the solver's loop with its own
    seat surrendering or not, on random rows, fouls, specials and surrenders."""
    values = solver.rows.tables_for(solver.rule_set("classic")).values
    schemes = set()
    for trial in range(36):
        base = (_random_rules(rng) if trial % 3 else
                rule_set(["classic", "classic:eastern", "classic:mandarin"][trial // 3 % 3]))
        rules = _with_surrender(base, int(rng.integers(1, 5)))
        schemes.add(rules.scheme)
        for n in rules.seats:
            at_n = rules.at_seats(n)              # (its scoring at n seats)
            params = scoring.scoring_params(at_n)
            fouls_scored = at_n.foul_penalty != 0 or at_n.foul_loses_rows
            S = 12
            cand = np.sort(_random_values(rng, values, (2, 3)), axis=1)
            opp = _random_values(rng, values, (S, n - 1, 3))
            fouled = (rng.random((S, n - 1)) < 0.2) & fouls_scored
            auto = _surrenders(rng, _random_auto(rng, rules, (S, n - 1)))
            fouled &= auto == 0
            playing = scoring.score_candidates(cand, 0, opp, fouled, auto, params)
            giving_up = scoring.score_candidates(cand[:1], SURRENDER, opp, fouled, auto,
                                                 params)[0]
            for s in range(S):
                for k in range(2):
                    vals = np.concatenate([cand[k:k + 1], opp[s]])
                    want = _reference(vals, [False, *fouled[s]], [0, *auto[s]], rules)
                    f_bits, a_bits = scoring.pack_flags([False, *fouled[s]], [0, *auto[s]])
                    assert list(scoring.settle_seats(vals, f_bits, a_bits, params)) == want
                    assert playing[k, s] == want[0]
                want = _reference(np.concatenate([cand[:1], opp[s]]), [False, *fouled[s]],
                                  [SURRENDER, *auto[s]], rules)
                assert giving_up[s] == want[0]
                # What a surrender costs: the cost to every seat still in the hand
                # (where no loss cap lowers it: docs/rules.md#loss-caps).
                still_in = sum(1 for j in range(n - 1) if not fouled[s, j]
                               and auto[s, j] != SURRENDER)
                if not (at_n.loss_cap_per_pair or at_n.loss_cap_per_deal):
                    assert giving_up[s] == -rules.surrender_cost * still_in
    assert schemes >= {SCHEME_GENERAL, 2, 3, 4}        # general, western, eastern, mandarin


def test_every_special_and_the_surrender_fit_a_seat_s_bits_apart():
    """The core keeps a seat's special or surrender in AUTO_BITS bits: every special's
    code (1 + its index in the catalogue, solver.autowin's KIND_*) and the surrender's are
    distinct and fit, and each reads back at every seat of the largest table (a special
    added to the catalogue past the capacity fails here, not in a settlement)."""
    from solver.autowin import KIND_NAMES
    from solver.rules import SEAT_COUNTS
    codes = [scoring.AUTO_NONE] + [KIND_NAMES.index(n) for n in AUTOMATIC_WINS] + [SURRENDER]
    assert len(set(codes)) == len(codes) == len(AUTOMATIC_WINS) + 2
    assert max(codes) < 1 << scoring.AUTO_BITS and SURRENDER not in codes[:-1]
    n = max(SEAT_COUNTS)
    for code in codes:
        for seat in range(n):
            auto = [scoring.AUTO_NONE] * n
            auto[seat] = code
            _, bits = scoring.pack_flags([False] * n, auto)
            assert [int(scoring.auto_of(bits, s)) for s in range(n)] == auto


def test_a_rule_set_with_surrender_is_never_scored_by_the_scoop_or_rows_kernels():
    for name in ("joker", "pagat", "bonus"):
        rules = _with_surrender(rule_set(name), 2)
        assert rules.scheme == SCHEME_GENERAL
    assert _with_surrender(rule_set("classic"), 2).scheme == rule_set("classic").scheme
    # (The built-ins keep their digests, pinned in tests/test_rule_files.py: the new
    # field is left out of it at its default.)
    assert _with_surrender(rule_set("classic"), 2).digest != rule_set("classic").digest


# --- the worked example of docs/rules.md#surrender -----------------------------------------
EXAMPLE_A = ("7s 8s Ts", "Qs 3h 4h 7h 9h", "Ah Jd 9c Jc Qc")
EXAMPLE_B = ("Qh Qd 3c", "9s 8h 7d 5c 4d", "Kh Kd 6d 6c 2s")        # a foul
EXAMPLE_C = ("2c 2d As", "6s 6h Kc 8d 3d", "Tc Td Th 4s 5s")
EXAMPLE_D = ("Ks 7c 4c", "Js Jh 9d 8c 2h", "Ad Ac 5h 5d 3s")
WESTERN_SURRENDER = RuleSet.from_dict(dict(
    rule_set("classic").to_dict(), name="western-surrender", surrender={"cost": 2},
    automatic_wins={}))


def test_the_worked_example():
    deal = [EXAMPLE_A, EXAMPLE_B, EXAMPLE_C, EXAMPLE_D]
    assert solver.settle(deal, WESTERN_SURRENDER, surrendered=[0]) == [-4, -8, 8, 4]
    assert solver.settle(deal, WESTERN_SURRENDER, surrendered=[0, 3]) == [-2, -4, 8, -2]
    keys = [[naive.row_key(row, "classic") for row in seat] for seat in deal]
    fouled = [not naive.is_legal(*seat, "classic") for seat in deal]
    assert fouled == [False, True, False, False]
    assert naive.settle_general(keys, WESTERN_SURRENDER, fouled, {}, [0]) == [-4, -8, 8, 4]
    detail = solver.settle(deal, WESTERN_SURRENDER, surrendered=[0], detail=True)
    assert detail.rows[0][0].startswith("SURRENDERED") and detail.rows[1][0].startswith("FOULED")
    assert [p.units for p in detail.pairs if p.a == 0] == [0, -2, -2]
    assert "seat 0 surrendered" in str(detail)


def test_settle_says_what_is_wrong_with_a_surrender():
    deal = [EXAMPLE_A, EXAMPLE_B, EXAMPLE_C, EXAMPLE_D]
    with pytest.raises(ValueError, match="the classic rule set has no surrender"):
        solver.settle(deal, "classic", surrendered=[0])
    with pytest.raises(ValueError, match="surrendered seat 4 is not a seat"):
        solver.settle(deal, WESTERN_SURRENDER, surrendered=[4])
    with pytest.raises(ValueError, match="surrendered must be seat numbers"):
        solver.settle(deal, WESTERN_SURRENDER, surrendered="0")
    # A surrender's rows are not compared: a fouled setting surrenders as any other, and
    # pays the three players still in.
    settled = solver.settle(deal, WESTERN_SURRENDER, surrendered=[1])
    assert settled[1] == -2 * 3 and sum(settled) == 0


def test_random_files_settle_surrenders_as_the_reference(tmp_path):
    """Random rule-set files with surrender (some with specials that count), random
    deals of legal and fouled settings, random surrenders: solver.settle as the
    reference."""
    rng = random.Random(39)
    deck = [(r, s) for r in naive.RANKS for s in naive.SUITS]
    checked = 0
    for trial in range(24):
        d = rule_set(rng.choice(["classic", "classic-1-6", "shisanshui", "pagat",
                                 "classic:mandarin"])).to_dict()
        d["name"], d["surrender"] = f"random {trial}", {"cost": rng.randint(1, 4)}
        if d["fouls"]["rule"] == "not_allowed":
            d["fouls"] = {"rule": "loses_rows"}
        if rng.random() < 0.3:
            d["automatic_wins"] = {"six_pairs": 3, "all_small": 12, "declared": False}
        path = tmp_path / f"r{trial}.toml"
        path.write_text(RuleSet.from_dict(d).to_toml())
        rules = rule_set(path)
        n = rng.choice(rules.seats)
        rng.shuffle(deck)
        arrs = []
        for s in range(n):
            hand = list(deck[13 * s:13 * (s + 1)])
            arrs.append(_random_legal(rng, hand, "classic", None) if rng.random() < 0.8
                        else (hand[:3], hand[3:8], hand[8:]))
        surrendered = [s for s in range(n) if rng.random() < 0.35]
        keys = [[naive.row_key(row, "classic") for row in arr] for arr in arrs]
        fouled = [not naive.is_legal(*arr, "classic") for arr in arrs]
        counted = {}
        if rules.automatic_wins:
            for s, arr in enumerate(arrs):
                held = [name for name in rules.automatic_win_order()
                        if naive.holds_special(arr[0] + arr[1] + arr[2], name)]
                if held:
                    counted[s] = held[0]
        texts = [tuple(naive.cards_str(row) for row in arr) for arr in arrs]
        want = naive.settle_general(keys, rules, fouled, counted,
                                    [s for s in surrendered if s not in counted])
        assert solver.settle(texts, path, surrendered=surrendered) == want, (texts, surrendered)
        checked += len(surrendered)
    assert checked >= 15


def test_the_file_key():
    rs = RuleSet.from_toml('name = "x"\n[surrender]\ncost = 3\n')
    assert rs.surrender_cost == 3 and "surrender for 3" in rs.summary()
    assert RuleSet.from_toml(rs.to_toml()) == rs
    with pytest.raises(ValueError, match=r"\[surrender\] cost = -1: must be from 0 to 1000"):
        RuleSet.from_toml('name = "x"\n[surrender]\ncost = -1\n')
    with pytest.raises(ValueError, match=r"\[surrender\] costs = 2: unknown key \(did you mean "
                                         r"'cost'\?\)"):
        RuleSet.from_toml('name = "x"\n[surrender]\ncosts = 2\n')
    with pytest.raises(ValueError, match=r"cost = 2: unknown key at the top of the file; "
                                         r"it belongs in \[surrender\]"):
        RuleSet.from_toml('name = "x"\ncost = 2\n')


# --- solve, review, the command line -------------------------------------------------------
@pytest.fixture
def surrender_file(tmp_path, monkeypatch):
    """A 1-6 rule set (a point a row, 3 more for all three) where surrendering costs 1: a
    bad hand loses more than that to a scoop; its model trained small, in a cache of the
    test's own."""
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(training.PRESETS, "default", training.Preset(1, 300))
    d = rule_set("classic-1-6").to_dict()
    d["name"], d["surrender"] = "one-six-surrender", {"cost": 1}
    path = tmp_path / "surrender.toml"
    path.write_text(RuleSet.from_dict(d).to_toml())
    return path


BAD = "2c 3d 4h 5s 7c 8d 9h Jc Qd 6s 3h 4c 2d"
GOOD = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c"


def test_the_opponents_surrender_by_the_model_s_estimate_and_solve_scores_it(surrender_file):
    """The sampled opponents that surrender are exactly those whose best setting the model
    estimates below the cost; surrendering's EV is its settlement over those deals."""
    rs = rule_set(surrender_file)
    deals = solver.sample_opponents(BAD, surrender_file, players=3, samples=40, seed=3)
    kind, mt, _ = builtin_policy(None, rs, 3, -1)
    setter = table_setter(rs.scheme, 13)
    tables = solver.rows.tables_for(rs)
    surrendered = 0
    for deal in deals:
        for opponent in deal:
            cards = " ".join(opponent[:3])
            *_, estimate = setter(np.array(solver.cards.to_codes(cards, rs)), tables, mt)
            assert (len(opponent) == 4) == (estimate < -1 * 2), (opponent, estimate)
            surrendered += len(opponent) == 4
    assert 0 < surrendered < 80
    sol = solver.solve(BAD, surrender_file, players=3, samples=40, seed=3, holdout=0)
    ours = ("2c 3d 4h", "5s 7c 8d 9h Jc", "Qd 6s 3h 4c 2d")
    settled = [solver.settle([ours] + [o[:3] for o in deal], surrender_file,
                             surrendered=[0] + [j + 1 for j, o in enumerate(deal) if len(o) == 4]
                             )[0] for deal in deals]
    assert sol.ev_surrender == pytest.approx(np.mean(settled))
    assert sol.ev_surrender_in_sample == sol.ev_surrender
    assert sol.surrender == (sol.ev_surrender > sol.ev_in_sample)
    # Given opponents: the same numbers.
    again = solver.solve(BAD, surrender_file, players=3, opponents=deals)
    assert again.ev_surrender == sol.ev_surrender and again.action == sol.action


def test_solve_recommends_surrender_when_it_costs_less_than_playing(surrender_file):
    # Against two opponents who scoop this hand, surrendering (1 each) beats any setting.
    strong = [("Ah Ad 2s", "Qh Qs Qc Jh Jd", "Kh Kd Ks 3s 3c"),
              ("Ac As 6h", "9s 9d 9c 8s 8c", "Th Td Ts Tc 5h")]
    weak = [("3h 4d 6s", "8c 8d Jh 3d 5h", "Kc Kd 7h 4s 2c"),
            ("5d 6d 7s", "Qh Qd 8s 3s 4c", "Ah Ad Tc Td 2s")]
    sol = solver.solve(BAD, surrender_file, players=3, opponents=[strong, strong])
    assert sol.surrender is True and sol.action == "surrender" and not sol.declare
    assert sol.ev_surrender == -2 and sol.action_ev == -2 and sol.action_stderr == 0
    assert sol.ev < -2
    text = str(sol)
    assert "SURRENDER (pay 1 to each other player still in the hand)" in text
    assert "surrendering: EV -2.000" in text
    d = sol.to_dict()
    assert d["action"] == "surrender" and d["action_ev"] == -2 and d["surrender"] is True
    assert solver.Solution.from_dict(json.loads(sol.to_json())) == sol
    # Where playing is worth more, it says so, with surrendering's EV.
    good = solver.solve(GOOD, surrender_file, players=3, opponents=[weak, weak])
    assert good.surrender is False and good.action == "set" and good.ev > 0
    assert "play, do not surrender (pay 1 to each other player still in): surrendering EV " \
           "-2.000" in str(good)
    # A rule set without surrender says nothing of it.
    plain = solver.solve(GOOD, "classic-1-6", players=3, opponents=[weak])
    assert plain.surrender is None and "surrender" not in str(plain)


def test_review_grades_a_surrender_like_a_declaration(surrender_file):
    r = solver.review(BAD, "surrender", surrender_file, players=3, samples=60, seed=2)
    assert r.surrender and not r.declare and r.front == ""
    best = r.best
    assert r.choices == best.candidates + 1                 # the settings, and surrendering
    if best.surrender:
        assert r.is_best and r.best_surrenders and r.rank == 1
    else:
        assert r.diff < 0 and r.ev == pytest.approx(best.ev_surrender_in_sample)
    assert "You surrender, paying 1 to each other player still in" in r.explanation
    assert "yours: surrender" in str(r)
    assert r.to_dict()["surrender"] is True
    played = solver.review(BAD, "2c 3d 4h / 5s 7c 8d 9h Jc / Qd 6s 3h 4c 2d", surrender_file,
                           players=3, samples=60, seed=2)
    assert played.best == best and not played.surrender
    assert "and surrendering)" in played.explanation
    with pytest.raises(ValueError, match="the classic-1-6 rule set has no surrender"):
        solver.review(BAD, "surrender", "classic-1-6", players=3, samples=20)


def test_the_command_line_settles_a_surrender(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text(WESTERN_SURRENDER.to_toml())
    seats = [" / ".join(seat) for seat in (EXAMPLE_A, EXAMPLE_B, EXAMPLE_C, EXAMPLE_D)]
    out = subprocess.run([sys.executable, "-m", "solver", "settle", *seats, "--rules",
                          str(path), "--surrender", "0"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "seat 0: -4 units   (surrenders)" in out.stdout
    assert "seat 0 surrendered -2" in out.stdout
    out = subprocess.run([sys.executable, "-m", "solver", "settle", *seats, "--surrender",
                          "0"], capture_output=True, text=True)
    assert out.returncode != 0 and "the joker rule set has no surrender" in out.stderr


def test_solve_and_review_on_the_command_line_say_what_the_library_says(surrender_file,
                                                                         capsys):
    from solver import __main__ as cli

    def run(*argv):
        code = cli.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        assert code == 0, err
        return out

    sol = solver.solve(BAD, surrender_file, players=3, samples=60, seed=1)   # (trains it)
    data = json.loads(run("solve", BAD, "--rules", surrender_file, "--players", 3,
                          "--samples", 60, "--seed", 1, "--json"))
    assert data["surrender"] == sol.surrender is not None
    assert (data["action"], data["action_ev"], data["ev_surrender"]) == \
        (sol.action, sol.action_ev, sol.ev_surrender)
    text = run("solve", BAD, "--rules", surrender_file, "--players", 3, "--samples", 60,
               "--seed", 1)
    said = (("SURRENDER (pay 1", f"surrendering: EV {sol.ev_surrender:+.3f}")
            if sol.surrender else
            ("play, do not surrender (pay 1", f"surrendering EV {sol.ev_surrender:+.3f}"))
    assert all(line in text for line in said)
    r = solver.review(BAD, "surrender", surrender_file, players=3, samples=60, seed=1)
    data = json.loads(run("review", BAD, "--setting", "surrender", "--rules", surrender_file,
                          "--players", 3, "--samples", 60, "--seed", 1, "--json"))
    assert data["surrender"] is True and data["diff"] == r.diff and data["rank"] == r.rank
    assert "yours: surrender" in run("review", BAD, "--setting", "surrender", "--rules",
                                     surrender_file, "--players", 3, "--samples", 60)


def test_a_session_grades_surrenders(surrender_file):
    """review --batch: a setting may be "surrender"; each hand is review's own grade, and
    the patterns say a surrender missed or made where playing is worth more."""
    from solver.session import review_many
    played = "2c 3d 4h / 5s 7c 8d 9h Jc / Qd 6s 3h 4c 2d"
    good = "5c 6c 7c / 9h 9d 9c 2h 2d / As Ks Qs Js Ts"
    hands = [dict(cards=BAD, setting="surrender"), dict(cards=BAD, setting=played),
             dict(cards=GOOD, setting="surrender"), dict(cards=GOOD, setting=good)]
    report = review_many(hands, rules=surrender_file, players=3, samples=60, seed=4,
                         workers=1)
    assert not report.skipped and len(report.grades) == 4
    surrendered = 0
    for g in report.grades:
        r = solver.review(g.cards, g.setting, surrender_file, players=3, samples=60,
                          seed=g.seed)
        assert g.loss == -r.diff and g.rank == r.rank
        assert g.best == ("surrender" if r.best_surrenders else
                          f"{r.best.front} / {r.best.middle} / {r.best.back}")
        assert ("surrendered_wrongly" in g.patterns) == (r.surrender and not r.best_surrenders)
        assert ("not_surrendered" in g.patterns) == (r.best_surrenders and not r.surrender)
        surrendered += g.setting == "surrender"
        if g.setting == "surrender":
            assert g.categories == ("", "", "")
    assert surrendered == 2
    # GOOD (a royal flush, trips, two pairs) is worth playing: surrendering it is a mistake.
    assert "surrendered_wrongly" in report.grades[2].patterns
    assert "yours: surrender" not in str(report) and "surrender" in str(report)
    assert "surrender" in report.to_html()
