"""Bad input anywhere is a ValueError whose message names the argument and what is wrong:
never a silent wrong answer, a numpy or int() error, or a MemoryError."""
import numpy as np
import pytest

import solver
from solver._checks import check_int

HAND = "As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2d"          # pagat / classic
JOKER_HAND = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"
LEGAL = ("2h 3h 4h", "5c 6c 7c 8h Tc", "2s 3s 4s 6s 7s")   # cards not in HAND


# --- the one validator -------------------------------------------------------------------
@pytest.mark.parametrize("value", [2.5, 4.0, "10", True, False, np.bool_(True), None, [1]])
def test_check_int_refuses_anything_but_a_real_integer(value):
    with pytest.raises(ValueError, match="^samples must be an integer, not "):
        check_int("samples", value, 1)


def test_check_int_checks_the_range_and_returns_a_python_int():
    assert check_int("seed", np.int64(7), 0) == 7 and type(check_int("seed", np.int8(7))) is int
    with pytest.raises(ValueError, match="top must be at least 0, not -1"):
        check_int("top", -1, 0)
    with pytest.raises(ValueError, match="cut must be at most 67, not 68"):
        check_int("cut", 68, 0, 67)


# --- solve and sample_opponents ----------------------------------------------------------
@pytest.mark.parametrize("kwargs, message", [
    (dict(players=4.0), "players must be an integer, not 4.0"),
    (dict(players=True), "players must be an integer, not True"),
    (dict(samples=2.5), "samples must be an integer, not 2.5"),
    (dict(samples="10"), "samples must be an integer, not '10'"),
    (dict(samples=True), "samples must be an integer, not True"),
    (dict(samples=0), "samples must be at least 1, not 0"),
    (dict(seed="x"), r"seed must be an integer >= 0, None \(fresh entropy\) or a numpy"),
    (dict(seed=1.5), "seed must be an integer >= 0, None .* not 1.5"),
    (dict(seed=-1), "seed must be at least 0, not -1"),
    (dict(top=None), "top must be an integer, not None"),
    (dict(top=-1), "top must be at least 0, not -1"),
    (dict(top=2.0), "top must be an integer, not 2.0"),
    (dict(holdout=2.5), "holdout must be an integer, not 2.5"),
    (dict(holdout=True), "holdout must be an integer, not True"),
    (dict(holdout=-1), "holdout must be at least 0, not -1"),
])
def test_solve_refuses_bad_numbers(kwargs, message):
    with pytest.raises(ValueError, match=message):
        solver.solve(HAND, "pagat", **{"samples": 3, **kwargs})


@pytest.mark.parametrize("kwargs, message", [
    (dict(players=4.0), "players must be an integer"),
    (dict(players=True), "players must be an integer"),
    (dict(samples=2.5), "samples must be an integer"),
    (dict(samples="10"), "samples must be an integer"),
    (dict(samples=True), "samples must be an integer"),
    (dict(samples=0), "samples must be at least 1"),
    (dict(seed="x"), "seed must be an integer"),
])
def test_sample_opponents_refuses_bad_numbers(kwargs, message):
    with pytest.raises(ValueError, match=message):
        solver.sample_opponents(HAND, "pagat", **{"samples": 3, **kwargs})


@pytest.mark.parametrize("call", [solver.solve, solver.sample_opponents])
def test_too_many_samples_are_refused_up_front_with_the_memory_they_need(call):
    with pytest.raises(ValueError, match=r"samples=1000000000000 would need about "
                                         r"[\d,]+ GB of memory .*at most \d+ samples fit"):
        call(JOKER_HAND, "joker", samples=10**12)
    with pytest.raises(ValueError, match="samples=100000000 would need about"):
        call(HAND, "pagat", samples=10**8, players=2)


def test_too_many_held_out_deals_are_refused_up_front():
    with pytest.raises(ValueError, match=r"holdout=1000000000000 would need about [\d,]+ GB"):
        solver.solve(JOKER_HAND, "joker", samples=10, holdout=10**12)


def test_the_sample_cap_leaves_room_for_ordinary_use():
    from solver.sampling import SAMPLE_MEMORY_LIMIT, check_sampling
    joker = solver.rule_set("joker")
    assert check_sampling(joker, 4, 10**6, 0)[0] == 10**6
    assert SAMPLE_MEMORY_LIMIT >= 10**9


@pytest.mark.parametrize("opponents, message", [
    ([[None, None, None]], "opponents: sample 0: opponent 0: an arrangement is"),
    ([[(None, None, None)] * 3], "opponents: sample 0: opponent 0: an arrangement is"),
    ([[LEGAL, LEGAL, ("2h", 2.5, "3h")]], "opponents: sample 0: opponent 2: an arrangement"),
    ([5], "opponents: sample 0 must be a sequence of arrangements"),
    (["2h 3h 4h"], "opponents: sample 0 must be a sequence of arrangements"),
    (5, "opponents must be a sequence of samples"),
    ("2h 3h 4h", "opponents must be a sequence of samples"),
])
def test_solve_refuses_malformed_opponents(opponents, message):
    with pytest.raises(ValueError, match=message):
        solver.solve(HAND, "pagat", opponents=opponents)


def test_given_opponents_are_the_samples_and_a_samples_given_with_them_must_count_them():
    assert solver.solve(HAND, "pagat", players=2, opponents=[[LEGAL]]).samples == 1
    assert solver.solve(HAND, "pagat", players=2, opponents=[[LEGAL]] * 2, samples=2).samples == 2
    for samples, message in ((1.5, "samples must be an integer"),
                             (0, "samples must be at least 1, not 0"),
                             (-3, "samples must be at least 1, not -3"),
                             (3, "samples=3 with opponents= of 2 samples: the opponents given "
                                 "are the samples")):
        with pytest.raises(ValueError, match=message):
            solver.solve(HAND, "pagat", players=2, opponents=[[LEGAL]] * 2, samples=samples)


@pytest.mark.parametrize("returned, message", [
    (None, r"policy returned None for the hand '.*': an arrangement is \(front, middle, back\)"),
    ("2h 3h 4h", "policy returned '2h 3h 4h'"),
    (("2h 3h", "4h 5h 6h 7h 8h", "9h Th Jh Qh Kh"), "policy returned .*the front has 3 cards"),
    ((None, None, None), "policy returned .*cards must be text"),
])
def test_a_policy_returning_junk_is_named(returned, message):
    with pytest.raises(ValueError, match=message):
        solver.solve(HAND, "pagat", samples=2, policy=lambda hand, rules, cut: returned)


def test_a_policy_that_raises_is_named_with_the_hand_and_the_cause_chained():
    with pytest.raises(ValueError, match=r"policy .*<lambda> failed on the hand '(\w\w ){12}"
                                         r"\w\w': KeyError: 'x'") as raised:
        solver.solve(HAND, "classic", samples=5, policy=lambda h, r, c: {}["x"])
    assert isinstance(raised.value.__cause__, KeyError)


def one_argument_setter(hand):            # a setter of the wrong shape
    return None


def test_a_policy_of_the_wrong_signature_is_refused_up_front():
    with pytest.raises(ValueError, match=r"policy one_argument_setter must take \(hand, rules, cut\), "
                                         r"but its signature is \(hand\)"):
        solver.solve(HAND, "classic", samples=5, policy=one_argument_setter)
    # Extra optional parameters are fine.
    solver.solve(HAND, "pagat", samples=2, players=2,
                 policy=lambda hand, rules, cut, more=None: solver.quick_set(hand, rules, cut))


def test_a_table_model_for_another_table_size_is_refused_where_the_size_matters():
    from solver.model import TableModel
    heads_up = TableModel.shipped("classic:mandarin", 2)       # Mandarin: home runs at 4
    for call in (lambda: solver.solve(HAND, "classic:mandarin", players=4, policy=heads_up,
                                      samples=5),
                 lambda: solver.quick_set(HAND, "classic:mandarin", players=4, policy=heads_up)):
        with pytest.raises(ValueError, match=r"the model TableModel\('classic:mandarin', 2 "
                                             r"seats, 'table'\) is trained for 2 seats, not 4"):
            call()
    # Below four seats Mandarin is scored pair by pair: one model serves every size.
    assert solver.quick_set(HAND, "classic:mandarin", players=3, policy=heads_up) == \
        solver.quick_set(HAND, "classic:mandarin", players=3)


def test_a_policy_must_be_a_known_name_a_model_or_a_function():
    with pytest.raises(ValueError, match="unknown policy 'strongest back'; built-in policies: "
                                         "table, field, sbf"):
        solver.solve(HAND, "pagat", samples=2, policy="strongest back")
    with pytest.raises(ValueError, match="policy must be one of table, field, sbf, a "
                                         "TableModel or a function"):
        solver.solve(HAND, "pagat", samples=2, policy=42)


# --- rows: card codes and the cut card -------------------------------------------------------
@pytest.mark.parametrize("cards", [[12.7, 11, 10], [12.0, 11, 10], np.array([12.5, 11, 10]),
                                   [True, 11, 10]])
def test_row_value_refuses_codes_that_are_not_integers(cards):
    with pytest.raises(ValueError, match="card code must be an integer"):
        solver.row_value(cards, "pagat")


@pytest.mark.parametrize("cards, message", [
    (None, "cards must be text, a hand bitmask or a sequence"),
    (2.5, "cards must be text, a hand bitmask or a sequence"),
    (True, "cards must be text, a hand bitmask or a sequence"),
])
def test_row_value_refuses_cards_of_the_wrong_kind(cards, message):
    with pytest.raises(ValueError, match=message):
        solver.row_value(cards, "pagat")


def test_is_legal_and_automatic_win_refuse_float_codes():
    with pytest.raises(ValueError, match="card code must be an integer, not 1.0"):
        solver.is_legal([1.0, 2, 3], "5h 6h 7h 8h 9h", "Th Jh Qh Kh Ah", "pagat")
    with pytest.raises(ValueError, match="card code must be an integer"):
        solver.automatic_win([float(c) for c in range(13)])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, object])
def test_evaluate_rows_refuses_arrays_that_are_not_integers(dtype):
    rows = np.array([[12, 11, 10]]).astype(dtype)
    with pytest.raises(ValueError, match="rows must hold integer card codes, not dtype"):
        solver.evaluate_rows(rows, "pagat")


def test_evaluate_rows_refuses_float_codes_in_a_list():
    with pytest.raises(ValueError, match="row 0: card code must be an integer, not 12.7"):
        solver.evaluate_rows([[12.7, 11, 10]], "pagat")


def test_evaluate_rows_refuses_rows_of_mixed_length():
    with pytest.raises(ValueError, match="rows must all have the same length: row 0 has 3 "
                                         "cards, row 1 has 5"):
        solver.evaluate_rows([[1, 2, 3], [4, 5, 6, 7, 8]], "pagat")
    with pytest.raises(ValueError, match="rows must all have the same length"):
        solver.evaluate_rows(["As Ks Qs", "2h 3h 4h 5h 7h"], "pagat")


@pytest.mark.parametrize("rows", ["As Ks Qs", None, 5])
def test_evaluate_rows_wants_a_sequence_of_rows(rows):
    with pytest.raises(ValueError, match="rows must be an array or a sequence of rows"):
        solver.evaluate_rows(rows, "pagat")


@pytest.mark.parametrize("cut, message", [
    (12.5, "cut must be a card as text .* or a card code, not 12.5"),
    (12.0, "cut must be a card as text .* or a card code, not 12.0"),
    (True, "cut must be a card as text .* or a card code, not True"),
    ([12], "cut must be a card as text .* or a card code"),
    (99, "cut must be at most 67, not 99"),
    (-1, "cut must be at least 0, not -1"),
])
def test_the_cut_card_as_a_code_must_be_a_real_int(cut, message):
    with pytest.raises(ValueError, match=message):
        solver.row_value("2h 3h 4h", "bonus", cut=cut)
    with pytest.raises(ValueError, match=message):
        solver.evaluate_rows(np.array([[13, 14, 15]]), "bonus", cut=cut)


def test_the_cut_card_as_a_code_still_works():
    assert solver.row_value("7h 7d 7c", "bonus", cut=5).category == "bonus_trips"     # 7s
    assert solver.row_value("7h 7d 7c", "bonus", cut=np.int64(5)).category == "bonus_trips"


def test_settle_refuses_malformed_arrangements_and_seats():
    with pytest.raises(ValueError, match=r"seat 0: an arrangement is \(front, middle, back\), "
                                         r"not None"):
        solver.settle([None, None], "pagat")
    with pytest.raises(ValueError, match="seat 0 front: cards must be text"):
        solver.settle([(None, None, None)] * 2, "pagat")
    with pytest.raises(ValueError, match="arrangements must be a sequence"):
        solver.settle(5, "pagat")
    deal = [LEGAL, ("2d 3d 4d", "5d 6d 7d 8d 9d", "Td Jd Qd Kd Ad")]
    with pytest.raises(ValueError, match="declared seat True is not a seat"):
        solver.settle(deal, "classic", declared=[True])
    with pytest.raises(ValueError, match="declared must be seat numbers"):
        solver.settle(deal, "classic", declared=1)


def test_row_values_are_integers():
    with pytest.raises(ValueError, match="value must be an integer, not 2.5"):
        solver.RowValue(2.5)


# --- format_cards takes text too -----------------------------------------------------------
@pytest.mark.parametrize("cards, text", [
    ("As Kd", "As Kd"),
    ("10d ah", "Td Ah"),
    ("kd, 2♣ x", "Kd 2c Jk"),
    ("As As", "As As"),                 # two spade sets exist (joker, bonus)
    (["qh", "10s"], "Qh Ts"),
    ("", ""),
])
def test_format_cards_makes_text_canonical_keeping_its_order(cards, text):
    assert solver.format_cards(cards) == text


@pytest.mark.parametrize("cards, message", [
    ("Zz", "unknown card 'Zz'"),
    ("Ah Ah", "duplicate card 'Ah'.*largest deck"),
    ("Jk Jk Jk Jk", "joker 'Jk'.*largest deck"),
    ([12.7], "card code must be an integer, not 12.7"),
    (None, "cards must be text, a hand bitmask or a sequence"),
    (True, "cards must be text, a hand bitmask or a sequence"),
    ([70], "card code 70 is outside 0..67"),
])
def test_format_cards_refuses_bad_cards(cards, message):
    with pytest.raises(ValueError, match=message):
        solver.format_cards(cards)


def test_parse_cards_wants_text():
    with pytest.raises(ValueError, match="cards must be given as text, not 5"):
        solver.parse_cards(5, "pagat")
