"""Settlement: the rules' worked examples (docs/rules.md), invariants on random deals, the
slow reference, bad input."""
import numpy as np
import pytest

import naive
import solver
from solver import scoring
from solver._jit import as_python
from solver.autowin import KIND_DRAGON, KIND_SIX_PAIRS, KIND_THREE_FLUSHES
from solver.cards import card_name, deck_codes
from solver.rules import SCHEME_MANDARIN, SCHEME_SCOOP
from test_naive_selfcheck import (BONUS_EXAMPLE_1, BONUS_EXAMPLE_2, DRAGON, JOKER_EXAMPLE_DEAL,
                                  MANDARIN_4, P0, PAGAT_EXAMPLE_A, PAGAT_EXAMPLE_B, SIX_PAIRS,
                                  STRONG, THREE_FLUSHES)

RULE_SETS = ["joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin"]


def _cut_of(rule_set):
    return "4c" if rule_set == "bonus" else None


def test_joker_worked_example():
    assert solver.settle(JOKER_EXAMPLE_DEAL, "joker") == [18, -5, -7, -6]


def test_pagat_worked_example():
    assert solver.settle([PAGAT_EXAMPLE_A, PAGAT_EXAMPLE_B], "pagat") == [1, -1]


def test_bonus_worked_examples():
    for deal, expect in ((BONUS_EXAMPLE_1, [9, -2, -4, -3]), (BONUS_EXAMPLE_2, [-7, -5, -2, 14])):
        got = None
        for cut in ("4c", "2c", "3c", "7c", "8c"):
            try:
                got = solver.settle(deal, "bonus", cut=cut)
                assert got == naive.settle(deal, "bonus", cut)
                break
            except ValueError:
                continue
        assert got == expect


def test_identical_rows_scoop_each_other():
    a = ("2h 3d 5c", "6s 6h 8d 9c Jd", "As Ks Qs Js 9s")
    b = ("2d 3h 5d", "6d 6c 8h 9d Jh", "As Ks Qs Js 9s")
    rest = [("2c 4d 7h", "3s 3c 8c Tc Qc", "Ah Ad Kh Kd 4c"),
            ("4h 7d 7c", "Th Td 2s 5s 8s", "Qh Qd Ts Ts 4s")]
    scores = solver.settle([a, b] + rest, "joker", detail=True)
    pair = next(p for p in scores.pairs if (p.a, p.b) == (0, 1))
    assert pair.rows == ("tie", "tie", "tie")
    assert pair.units == 0
    assert {"seat 0 scoops", "seat 1 scoops"} <= {w for w, _ in pair.items}


def test_home_run_with_tied_rows():
    hero = ("7h 7d 2c", "As As Qs Js Ts", "Ks Kh Kd Kc 2s")
    tied_front = ("7s 7c 2h", "8h 8d 3c 4c 5c", "9h 9d 9s Qh Qd")
    deal = [hero, tied_front, ("2d 3h 4s", "5h 6d 8s 9c Jd", "Th Td Tc Qc Ad"),
            ("3d 4h 5d", "6h 6c 3s 4d 8c", "Jh Jc Js 5s 6s")]
    got = solver.settle(deal, "joker", detail=True)
    # Scoops 1 + home run 3 + back quads 1 from each, the tie with seat 1 included.
    assert got.scores == (15, -3, -7, -5)
    assert got.pairs[0].rows == ("tie", "win", "win")
    assert list(got.scores) == naive.settle(deal, "joker")


def test_mandarin_home_run_and_shot():
    got = solver.settle(MANDARIN_4, "classic:mandarin")
    assert got == naive.settle(MANDARIN_4, "classic:mandarin")
    assert got[0] > 0 and sum(got) == 0
    three = solver.settle(MANDARIN_4[:3], "classic:mandarin")
    assert three == naive.settle(MANDARIN_4[:3], "classic:mandarin")
    assert three[0] < got[0]          # a home run needs four seats; it triples


def test_western_points():
    assert solver.settle([STRONG, P0], "classic") == [4, -4]


SP = ("2c 2d 3c", "3d 4c 4d 5c 5d", "6c 6d 7c 7d 8c")        # six pairs
DR = ("2h 3h 4h", "5h 6h 7h 8h 9h", "Th Jh Qh Kh Ah")        # a dragon (and three flushes)
TF = ("2s 3s 4s", "5s 6s 7s 8s 9s", "Ts Js Qs Ks As")
O2 = ("Ah Kh 8h", "Qh Qd Jc Tc 9c", "Ac Ad 9d 9h 2h")
OPP1 = ("2h 2s 3c", "4c 4d 5c 6d 7c", "8c 8d 9c 9d Th")
OPP2 = ("Js Jh 3s", "5d 5h 6s 7s 7h", "Qs Qc Kc Kd Ad")


@pytest.mark.parametrize("rule_set", ["classic", "classic:eastern", "classic:mandarin"])
def test_automatic_wins(rule_set):
    # A dragon takes 13 from each; the others still play each other.
    between = solver.settle([OPP1, OPP2], rule_set)
    assert solver.settle([DRAGON, OPP1, OPP2], rule_set, declared=[0]) == [
        26, between[0] - 13, between[1] - 13]
    # A dragon against another automatic win, two non-dragon automatic wins.
    assert solver.settle([SP, DR], rule_set, declared=[0, 1]) == [-13, 13]
    assert solver.settle([SP, TF, O2], rule_set,
                         declared={0: "six_pairs", 1: "three_flushes"}) == [3, 3, -6]
    # A declared hand's split need not be legal.
    assert solver.settle([("Qh Ks Ac", "Tc Jd 2c 3d 4h", "5s 6c 7d 8h 9s"), OPP1], rule_set,
                         declared={0: "dragon"}) == [13, -13]


def test_automatic_win_finder():
    assert solver.automatic_win(" ".join(DRAGON)).name == "dragon"
    assert solver.automatic_win(" ".join(DR)).units == 13
    assert solver.automatic_win(" ".join(THREE_FLUSHES)).name == "three_flushes"
    assert solver.automatic_win("2h 3h 5h 7h 9h Jh Kh Ah 2c 4c 6c 8c Tc").name == "three_flushes"
    assert solver.automatic_win("Qh Kc Ad 2s 3h 4d 5c 6s 5d 6h 7c 8d 9s").name == "three_straights"
    assert solver.automatic_win("Ah 2c 3d 3s 4h 5d 6c 7s 8d 9h Tc Js Qh").name == "three_straights"
    assert solver.automatic_win("Kh Ac 2d 3s 4h 5d 6c 7s 8d 9h Tc Js Jh") is None
    assert solver.automatic_win("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 9h 9c Ah").name == "six_pairs"
    assert solver.automatic_win(" ".join(P0)) is None
    assert solver.automatic_win(" ".join(P0), "pagat") is None


def test_the_automatic_win_kernel_reads_only_its_own_arrays(rng):
    """Run as plain Python, which checks every index (compiled kernels do not), the
    finder's kernel agrees with itself compiled: on random hands, and on one whose three
    cards left after two straights begin at the King (the kernel once read one past the
    end of its rank counts there)."""
    from solver.autowin import automatic_win_kind
    from solver.cards import parse_codes
    rs = solver.rule_set("classic")
    hands = ["2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Kh Ac Ad", "Qh Kc Ad 2s 3h 4d 5c 6s 5d 6h 7c 8d 9s"]
    hands += [" ".join(card_name(int(c)) for c in rng.choice(52, 13, replace=False))
              for _ in range(300)]
    for text in hands:
        codes = np.array(parse_codes(text, rs), np.int64)
        assert as_python(automatic_win_kind)(codes) == automatic_win_kind(codes), text


def test_automatic_win_split_shows_it(rng):
    deck = np.arange(52)
    hands = [" ".join(c) for c in (DRAGON, SIX_PAIRS, THREE_FLUSHES)]
    hands += ["2h 3h 5h 7h 9h Jh Kh Ah 2c 4c 6c 8c Tc",
              "Qh Kc Ad 2s 3h 4d 5c 6s 5d 6h 7c 8d 9s"]
    for _ in range(300):     # random hands, many without an automatic win
        hands.append(" ".join(card_name(int(c)) for c in rng.choice(deck, 13, replace=False)))
    for text in hands:
        win = solver.automatic_win(text)
        expect = naive.automatic_win(text)
        assert (win.name if win else None) == expect, text
        if win:
            shown = " ".join((win.front, win.middle, win.back))
            assert sorted(shown.split()) == sorted(text.split())
            rows = [naive.parse(r) for r in (win.front, win.middle, win.back)]
            assert [len(r) for r in rows] == [3, 5, 5]
            if win.name == "three_flushes":
                assert all(len({c[1] for c in r}) == 1 for r in rows)


def test_fouls_in_pagat_and_classic():
    foul = ("Ah As Ac", "2d 3d 4s 6h 8h", "Kh Qh Jc Tc 9s")
    for rule_set in ("pagat", "classic", "classic:eastern", "classic:mandarin"):
        got = solver.settle([foul, OPP1, OPP2], rule_set)
        assert got == naive.settle([foul, OPP1, OPP2], rule_set)
    assert solver.settle([foul, OPP1], "classic") == [-4, 4]
    assert solver.settle([foul, OPP1], "pagat") == [-3, 3]
    assert solver.settle([foul, OPP1], "classic:mandarin") == [-4, 4]


# --- random deals against the slow reference ----------------------------------------------
def _random_deal(rng, rule_set, seats):
    rs = solver.rule_set(rule_set)
    deck = [c for c in deck_codes(rs) if c != (solver.cards.parse_codes("4c", rs)[0]
                                               if rs.cut_card else -1)]
    cards = [int(c) for c in rng.permutation(deck)]
    deal = []
    for s in range(seats):
        hand = cards[s * rs.cards_dealt:(s + 1) * rs.cards_dealt]
        must_be_legal = rs.name in ("joker", "bonus") or rng.random() < 0.8
        for _ in range(2000):
            order = [hand[i] for i in rng.permutation(len(hand))[:13]]
            rows = tuple(" ".join(card_name(c) for c in part)
                         for part in (order[:3], order[3:8], order[8:]))
            if not must_be_legal or solver.is_legal(*rows, rs, cut=_cut_of(rule_set)):
                break
        deal.append(rows)
    return deal


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_random_deals_match_reference_and_sum_to_zero(rng, rule_set):
    seat_counts = solver.rule_set(rule_set).seats
    cut = _cut_of(rule_set)
    for i in range(60):
        seats = seat_counts[i % len(seat_counts)]
        deal = _random_deal(rng, rule_set, seats)
        got = solver.settle(deal, rule_set, cut=cut, detail=True)
        cut_rank = None if cut is None else 4
        assert list(got.scores) == naive.settle(deal, rule_set, cut_rank), deal
        assert sum(got.scores) == 0
        for p in got.pairs:                       # the breakdown sums to the units
            assert sum(u for _, u in p.items) == p.units
        for seat in range(seats):
            assert got.scores[seat] == sum(p.units if p.a == seat else -p.units
                                           for p in got.pairs if seat in (p.a, p.b))


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_the_solvers_kernels_score_and_describe_as_the_settlement_core(rng, rule_set):
    """score_candidates and describe run kernels compiled for one scheme each
    (solver.scoring); on random rows, fouls and declared automatic wins, at every table
    size, they agree with settle_seats (compiled for every scheme) and with a count of
    the core's own helpers."""
    rs = solver.rule_set(rule_set)
    params = scoring.scoring_params(rs)
    values = solver.rows.tables_for(rs, _cut_of(rule_set)).values
    for seats in rs.seats:
        n_opp, S, K = seats - 1, 60, 6
        cand = np.sort(rng.choice(values, (K, 3)), axis=1).astype(np.int32)
        opp = rng.choice(values, (S, n_opp, 3)).astype(np.int32)
        fouled = (rng.random((S, n_opp)) < 0.2) & (rs.scheme != SCHEME_SCOOP)
        auto = np.zeros((S, n_opp), np.int8)
        if rs.automatic_wins:
            auto[rng.random((S, n_opp)) < 0.2] = KIND_THREE_FLUSHES
            auto[rng.random((S, n_opp)) < 0.1] = KIND_DRAGON
        for our_auto in ([0, KIND_SIX_PAIRS] if rs.automatic_wins else [0]):
            got = scoring.score_candidates(cand, our_auto, opp, fouled, auto, params)
            for k in range(K):
                for s in range(S):
                    vals = np.concatenate([cand[k:k + 1], opp[s]]).astype(np.int32)
                    f_bits, a_bits = scoring.pack_flags([False] + list(fouled[s]),
                                                        [our_auto] + list(auto[s]))
                    assert got[k, s] == scoring.settle_seats(vals, f_bits, a_bits, params)[0]
        # A strong setting, so that home runs and scoops are common.
        ours = np.sort(rng.choice(values[-len(values) // 8:], 3)).astype(np.int32)
        rows, scoop, scooped, home_runs, bonus = scoring.describe(ours, opp, fouled, auto,
                                                                  params)
        want_rows, want_scoop, want_scooped = np.zeros((3, 3)), np.zeros(n_opp), np.zeros(n_opp)
        want_home_runs = want_bonus = 0
        for s in range(S):
            vals = np.concatenate([ours[None], opp[s]]).astype(np.int32)
            f_bits, a_bits = scoring.pack_flags([False] + list(fouled[s]), [0] + list(auto[s]))
            want_home_runs += scoring.home_run(vals, f_bits, a_bits, seats, 0, params, rs.scheme)
            for j in range(1, seats):
                if fouled[s, j - 1] or auto[s, j - 1]:
                    continue
                for r in range(3):
                    mine, theirs = vals[0, r], vals[j, r]
                    want_rows[r, 0 if mine > theirs else 1 if mine == theirs else 2] += 1
                    want_bonus += (scoring.row_bonus(params, r, mine) if mine > theirs else
                                   -scoring.row_bonus(params, r, theirs) if mine < theirs else 0)
                beats = (scoring.scoops if rs.scheme == SCHEME_SCOOP
                         else scoring.wins_all_rows)
                want_scoop[j - 1] += beats(vals, 0, j)
                want_scooped[j - 1] += beats(vals, j, 0)
        assert rows.tolist() == want_rows.tolist() and home_runs == want_home_runs
        assert scoop.tolist() == want_scoop.tolist() and scooped.tolist() == want_scooped.tolist()
        assert bonus == want_bonus
        assert rs.scheme not in (SCHEME_SCOOP, SCHEME_MANDARIN) or seats < 4 or home_runs > 0
        # The description by the kernel's source run as plain Python (a first solve's,
        # while another process compiles the kernel): the same counts, of the same types.
        p_rows, p_scoop, p_scooped, p_home_runs, p_bonus = as_python(
            scoring.describer(rs.scheme))(ours, opp, fouled, auto, params)
        assert p_rows.reshape(3, 3).tolist() == rows.tolist() and p_home_runs == home_runs
        assert p_scoop.tolist() == scoop.tolist() and p_scooped.tolist() == scooped.tolist()
        assert p_bonus == bonus and p_rows.dtype == p_scoop.dtype == scoop.dtype == np.int64


def test_breakdown_prints_every_pair():
    text = str(solver.settle(JOKER_EXAMPLE_DEAL, "joker", detail=True))
    assert text.count(" v seat ") == 6
    assert "home run by seat 0" in text


def test_a_seat_may_be_one_text_as_on_the_command_line():
    texts = [" / ".join(JOKER_EXAMPLE_DEAL[0]), " | ".join(JOKER_EXAMPLE_DEAL[1]),
             "/".join(JOKER_EXAMPLE_DEAL[2]), JOKER_EXAMPLE_DEAL[3]]      # mixed with tuples
    assert solver.settle(texts, "joker") == solver.settle(JOKER_EXAMPLE_DEAL, "joker")
    assert solver.settle(texts, "joker", detail=True) == \
        solver.settle(JOKER_EXAMPLE_DEAL, "joker", detail=True)
    with pytest.raises(ValueError, match="seat 1: give three rows 'FRONT / MIDDLE / BACK'"):
        solver.settle([texts[0], "2s 2c Kc 6s 6h 6d 5h 5d"], "pagat")


@pytest.mark.parametrize("detail", ["yes", 1, None, "False"])
def test_detail_is_a_real_bool(detail):
    with pytest.raises(ValueError, match="detail must be True or False"):
        solver.settle(JOKER_EXAMPLE_DEAL, "joker", detail=detail)


# --- bad input --------------------------------------------------------------------------
def test_bad_input_names_the_seat():
    legal = JOKER_EXAMPLE_DEAL
    fouled = list(legal)
    fouled[2] = (legal[2][1][:8], legal[2][0] + " " + legal[2][1][9:], legal[2][2])
    with pytest.raises(ValueError, match="seat 2"):
        solver.settle(fouled, "joker")
    with pytest.raises(ValueError, match="settles 4 seats, not 3"):
        solver.settle(legal[:3], "joker")
    with pytest.raises(ValueError, match="seat 1: the front has 3 cards, not 2"):
        solver.settle([P0, ("2c 3c", "4c 5c 6c 7c 8c", "9c Tc Jc Qc Kc")], "pagat")
    with pytest.raises(ValueError, match="seat 1 front: duplicate card 'Ah'"):
        solver.settle([P0, ("Ah 3c 4d", "4c 5c 6c 7c 8c", "9c Tc Jc Qc Kc")], "pagat")
    with pytest.raises(ValueError, match="seat 1: declared an automatic win"):
        solver.settle([SP, O2], "classic", declared=[1])
    with pytest.raises(ValueError, match="seat 0: declared a dragon"):
        solver.settle([SP, O2], "classic", declared={0: "dragon"})
    with pytest.raises(ValueError, match="unknown automatic win 'royal'"):
        solver.settle([SP, O2], "classic", declared={0: "royal"})
    with pytest.raises(ValueError, match="no automatic wins"):
        solver.settle([PAGAT_EXAMPLE_A, PAGAT_EXAMPLE_B], "pagat", declared=[0])
    with pytest.raises(ValueError, match="settles 2 or 3 or 4 seats, not 1"):
        solver.settle([P0], "classic")


def test_a_spade_cut_card_leaves_its_twin_in_play():
    deal = [("2h 3h 4d", "5h 6h 8d 9c Tc", "Jh Jd Qc Kc Kd"),
            ("2d 3d 4c", "5d 6d 8c 9h Td", "Js Jc Qh Kh Qd"),
            ("2c 3c 4h", "5c 6c 8h 9d Th", "Ts Ks Ah 8s 9s"),
            ("3s 4s 5s", "6s 7s 8s 7h 7d", "Ks Qs Js 2s As")]
    # One As is cut; the other As is still in play (five cards a rank:
    # docs/rules.md#bonus-cards).
    assert solver.settle(deal, "bonus", cut="As") == naive.settle(deal, "bonus", 14)
    twice = [deal[0], deal[1], deal[2], ("3s 4s 5s", "6s 7s 8s 7h 7d", "Ks As Js 2s As")]
    with pytest.raises(ValueError, match="duplicate card 'As'.*cut card As is out of play"):
        solver.settle(twice, "bonus", cut="As")
    cut_used = [("4c 2h 3h", "5h 6h 8d 9c Tc", "Jh Jd Qc Kc Kd")] + deal[1:]
    with pytest.raises(ValueError, match="seat 0 front: duplicate card '4c'.*cut card 4c"):
        solver.settle(cut_used, "bonus", cut="4c")


def test_eastern_breakdown_has_no_shots():
    text = str(solver.settle([STRONG, P0], "classic:eastern", detail=True))
    assert "rows 3-0" in text and "shot" not in text
    assert "(shot)" in str(solver.settle([STRONG, P0], "classic:mandarin", detail=True))


@pytest.mark.slow
def test_three_flushes_for_every_split_of_thirteen_cards_into_suits():
    """Every way 13 cards can fall into the four suits (each count at most 13), against
    the slow reference: the suit counts decide three flushes.  (Each suit takes the
    same ranks from the top of one list, so the hands hold dragons and pairs too, and
    every automatic win's name is checked.)"""
    import itertools
    spread = "A Q T 8 6 4 2 K J 9 7 5 3".split()
    for counts in itertools.product(range(14), repeat=4):
        if sum(counts) != 13:
            continue
        text = " ".join(f"{spread[i]}{suit}" for suit, n in zip("shdc", counts)
                        for i in range(n))
        win = solver.automatic_win(text)
        assert (win.name if win else None) == naive.automatic_win(text), (counts, text)
