"""Scoring lines, khishti, the pulka bonus and the deal schedules, each on its own."""

import pytest

from solver.georgian import Scoring, deal_score, forbidden_dealer_bid, get_variant, is_khishti, pulka_bonus

from . import naive_georgian as naive


def test_made_bid_scores_50_per_trick_plus_50():
    assert deal_score(1, 1, 5) == 100
    assert deal_score(3, 3, 8) == 200  # the rules' example (docs/georgian.md#scoring)
    assert deal_score(4, 4, 9) == 250


def test_bid_every_trick_and_take_them_all_scores_100_per_trick_instead():
    assert deal_score(5, 5, 5) == 500  # the rules' example
    assert deal_score(9, 9, 9) == 900
    assert deal_score(2, 2, 2) == 200 != 50 * 2 + 50
    assert deal_score(1, 1, 1) == 100


def test_pass_made_scores_50():
    assert deal_score(0, 0, 1) == deal_score(0, 0, 9) == 50


def test_missed_bid_with_some_tricks_scores_10_per_trick():
    assert deal_score(2, 3, 5) == 30  # over
    assert deal_score(4, 1, 9) == 10  # under
    assert deal_score(0, 2, 4) == 20  # a failed pass


def test_khishti_is_minus_200_and_minus_500_in_a_nine_card_deal():
    assert deal_score(1, 0, 1) == -200
    assert deal_score(3, 0, 8) == -200
    assert deal_score(1, 0, 9) == deal_score(9, 0, 9) == -500
    assert is_khishti(2, 0) and not is_khishti(0, 0) and not is_khishti(2, 1)


def test_scoring_matches_the_table_for_every_bid_and_result():
    for n in range(1, 10):
        for bid in range(n + 1):
            for taken in range(n + 1):
                assert deal_score(bid, taken, n) == naive.score(bid, taken, n), (bid, taken, n)


def test_scoring_is_data():
    house = Scoring(khishti=-100, khishti_full_deck=-300)
    assert house.score(2, 0, 5) == -100 and house.score(2, 0, 9) == -300
    with pytest.raises(ValueError, match="must be an int"):
        Scoring(made_base=1.5)


@pytest.mark.parametrize("args", [(-1, 0, 5), (6, 0, 5), (1, 6, 5), (1, 1, 0), (1, 1, 10), (1.0, 1, 5), (True, 1, 5)])
def test_bad_score_input(args):
    with pytest.raises(ValueError):
        deal_score(*args)


def test_pulka_bonus_adds_the_best_score_when_every_bid_was_made():
    assert pulka_bonus([1, 0, 2, 3], [1, 0, 2, 3], [100, 50, 150, 400]) == 400
    assert pulka_bonus([0, 0], [0, 0], [50, 50]) == 50  # passes count as made bids
    assert pulka_bonus([1, 0, 2], [1, 1, 2], [100, 10, 150]) == 0
    with pytest.raises(ValueError):
        pulka_bonus([1], [1, 2], [100])


def test_dealer_restriction_value():
    assert forbidden_dealer_bid([1, 0, 2], 4) == 1
    assert forbidden_dealer_bid([0, 0, 0], 3) == 3
    assert forbidden_dealer_bid([2, 2, 1], 4) is None  # already over: any bid is allowed


def test_classic_and_nines_schedules():
    classic = get_variant("classic")
    assert classic.deal_sizes == (1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9)
    assert [len(p) for p in classic.pulkas] == [8, 4, 8, 4]
    nines = get_variant("nines")
    assert nines.deal_sizes == (9,) * 16 and [len(p) for p in nines.pulkas] == [4, 4, 4, 4]
    assert nines.pulka_of_deal[4] == 1


def test_unknown_variant_lists_the_valid_names():
    with pytest.raises(ValueError, match="classic, nines"):
        get_variant("short")
