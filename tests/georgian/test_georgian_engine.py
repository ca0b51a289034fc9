"""The rules engine: dealing, trump, bidding, legal plays, every joker case, trick
winners, and illegal actions raising ValueError with the reason."""

import numpy as np
import pytest

from solver.georgian import NO_TRUMP, DealState, Play, cards_str, parse_cards
from solver.georgian.cards import DECK


def at_play(hands, bids=(1, 1, 0, 0), dealer=3, **kw):
    """A deal with the given hands (by seat) and bids, ready for the first lead."""
    deal = DealState(hands, dealer, **kw)
    for seat in deal.bidding_order:
        deal.make_bid(bids[seat])
    assert deal.phase == "play"
    return deal


def legal_text(deal):
    return sorted(str(p) for p in deal.legal_actions())


# ------------------------------------------------------------------------------ deal
@pytest.mark.parametrize("size", [1, 4, 8])
def test_short_deals_turn_the_next_card_for_trump(size):
    deal = DealState.deal(size, 2, np.random.default_rng(size))
    hands = [deal.hand(p) for p in range(4)]
    dealt = [c for h in hands for c in h] + [deal.turned_card]
    assert all(len(h) == size for h in hands)
    assert len(set(dealt)) == 4 * size + 1
    expected = NO_TRUMP if deal.turned_card >= 36 else deal.turned_card // 9
    assert deal.trump == expected and deal.phase == "bid"


def test_turned_joker_means_no_trump():
    deal = DealState(["Ah", "Kh", "7s", "Jk"], dealer=3, turned_card="Jk")
    assert deal.trump == NO_TRUMP and deal.turned_card == 37
    deal = at_play(["7s", "Ah", "8s", "Ad"], bids=(0, 1, 0, 1), turned_card="Jk")
    for card in ("7s", "Ah", "8s", "Ad"):
        winner = deal.play(card)
    assert winner == 2  # no trump: the highest spade takes it, aces of other suits do not


def test_nine_card_deal_deals_the_whole_deck_and_the_left_of_dealer_chooses_trump():
    deal = DealState.deal(9, 1, np.random.default_rng(5))
    assert deal.turned_card is None and deal.trump is None
    assert sorted(c for p in range(4) for c in deal.hand(p)) == sorted(DECK)
    assert deal.phase == "trump" and deal.to_move == 2 == deal.trump_chooser
    chooser_view = deal.view(2)
    assert len(chooser_view.hand) == 3 and set(chooser_view.hand) <= set(deal.hand(2))
    assert chooser_view.hand == deal.initial_hands[2][:3]  # the first three cards dealt
    assert deal.view(3).hand == ()
    assert deal.legal_actions() == [0, 1, 2, 3, NO_TRUMP]
    with pytest.raises(ValueError, match="'trump' phase"):
        deal.make_bid(1)
    deal.choose_trump("none")
    assert deal.trump == NO_TRUMP and deal.phase == "bid" and len(deal.view(2).hand) == 9
    with pytest.raises(ValueError, match="cannot choose trump"):
        deal.choose_trump("h")


def test_trump_choice_only_in_nine_card_deals():
    deal = DealState(["Ah", "Kh", "7s", "Jk"], dealer=3, turned_card="9h")
    with pytest.raises(ValueError, match="only a 9-card deal"):
        deal.choose_trump("s")
    with pytest.raises(ValueError, match="no turned card"):
        DealState([DECK[9 * i:9 * i + 9] for i in range(4)], 0, turned_card="As")


# --------------------------------------------------------------------------- bidding
def test_bidding_goes_from_the_dealers_left_and_the_dealer_bids_last():
    deal = DealState(["Ah 7h", "Kh 7d", "7s 8s", "Jk 9c"], dealer=1, turned_card="9h")
    order = []
    while deal.phase == "bid":
        order.append(deal.to_move)
        deal.make_bid(0 if deal.to_move != 1 else 1)
    assert order == [2, 3, 0, 1]
    assert deal.leader == 2  # the dealer's left leads the first trick


def test_dealer_may_not_make_the_bids_add_up_to_the_tricks():
    deal = DealState(["Ah 7h 8h", "Kh 7d 8d", "7s 8s 9s", "Jk 9c 8c"], dealer=3, turned_card="9h")
    for bid in (1, 0, 1):  # seats 0, 1, 2 bid 2 of the 3 tricks
        assert deal.legal_actions() == [0, 1, 2, 3]  # no restriction before the dealer
        deal.make_bid(bid)
    assert deal.legal_actions() == [0, 2, 3]
    with pytest.raises(ValueError, match="the dealer .* may not bid 1"):
        deal.make_bid(1)
    deal.make_bid(2)
    assert sum(deal.bids) != 3
    # One card each: "the 1 trick", not "the 1 tricks".
    deal = DealState(["Ah", "Kh", "7s", "Jk"], dealer=3, turned_card="9h")
    for _ in range(3):
        deal.make_bid(0)
    with pytest.raises(ValueError, match=r"would add up to the 1 trick of the deal$"):
        deal.make_bid(1)


def test_dealer_is_free_when_the_others_already_bid_more_than_the_tricks():
    deal = DealState(["Ah 7h", "Kh 7d", "7s 8s", "Jk 9c"], dealer=3, turned_card="9h")
    for bid in (2, 1, 0):
        deal.make_bid(bid)
    assert deal.legal_actions() == [0, 1, 2]


@pytest.mark.parametrize("bid,message", [(3, "out of range"), (-1, "out of range"),
                                         (1.0, "whole number"), (True, "whole number")])
def test_bad_bids(bid, message):
    deal = DealState(["Ah 7h", "Kh 7d", "7s 8s", "Jk 9c"], dealer=3, turned_card="9h")
    with pytest.raises(ValueError, match=message):
        deal.make_bid(bid)


# --------------------------------------------------------------------- plain plays
def test_must_follow_suit_else_trump_else_anything():
    deal = at_play(["As 7h 8d", "Ks 9h 7c", "Qh Th 8c", "9d 7d Kc"], turned_card="6h")
    deal.play("As")
    assert legal_text(deal) == ["Ks"]
    with pytest.raises(ValueError, match="must follow s"):
        deal.play("9h")
    deal.play("Ks")
    assert legal_text(deal) == ["Qh", "Th"]  # void in spades, holds trumps: must trump
    with pytest.raises(ValueError, match="must play a trump"):
        deal.play("8c")
    deal.play("Th")
    assert legal_text(deal) == ["7d", "9d", "Kc"]  # void in spades and trumps: anything
    assert deal.play("Kc") == 2  # the only trump takes the trick
    assert deal.leader == 2 and deal.taken == (0, 0, 1, 0)  # the winner leads next


def test_highest_trump_wins_else_highest_of_the_suit_led():
    deal = at_play(["7s 8h", "Ks Qh", "Ts Ah", "As 9h"], bids=(0, 1, 0, 0), turned_card="6h")
    for card in ("7s", "Ks", "Ts", "As"):
        winner = deal.play(card)
    assert winner == 3
    for card in ("9h", "8h", "Qh", "Ah"):  # seat 3 leads hearts (trump) now
        winner = deal.play(card)
    assert winner == 2


def test_a_card_not_in_hand_is_refused():
    deal = at_play(["As 7h 8d", "Ks 9h 7c", "Qh Th 8c", "9d 7d Kc"], turned_card="6h")
    with pytest.raises(ValueError, match="Ad is not in seat 0's hand"):
        deal.play("Ad")
    with pytest.raises(ValueError, match="holds no joker"):
        deal.play("Jk high s")


# ------------------------------------------------------------------------- jokers
def test_joker_can_always_be_played_even_holding_the_suit_led():
    deal = at_play(["As 7h 8h", "Jk 9s 7c", "Qh Th 9c", "Qs Ks 8c"], turned_card="6d")
    deal.play("As")
    assert legal_text(deal) == ["9s", "Jk high", "Jk low"]


def test_joker_led_high_others_play_their_highest_of_the_named_suit_and_must_trump_if_void():
    deal = at_play(["Jk 7d 8d", "As 9s 7c", "Kh 7h Qd", "Qs Ks 8c"], turned_card="6h")
    deal.play("Jk high s")
    assert legal_text(deal) == ["As"]
    with pytest.raises(ValueError, match=r"highest s \(As\)"):
        deal.play("9s")
    deal.play("As")
    assert legal_text(deal) == ["7h", "Kh"]
    with pytest.raises(ValueError, match="must play a trump"):
        deal.play("Qd")
    deal.play("7h")
    assert legal_text(deal) == ["Ks"]
    # The named suit is not trump and a trump was played: the highest trump takes it.
    assert deal.play("Ks") == 2


def test_joker_led_high_takes_the_trick_when_nobody_trumps():
    deal = at_play(["Jk 7h 8h", "As 9s 7c", "Qh Th 9h", "Qs Ks 8c"], turned_card="6d")
    deal.play("Jk high s")
    deal.play("As")
    assert legal_text(deal) == ["9h", "Qh", "Th"]  # void in spades, no trump: anything
    deal.play("9h")
    assert deal.play("Ks") == 0


def test_joker_led_high_naming_the_trump_suit_cannot_be_beaten_by_trumps():
    deal = at_play(["Jk 7h 8h", "As 9s 7c", "Qh Th 9h", "Qs Ks 8c"], turned_card="7s")
    deal.play("Jk high s")
    assert legal_text(deal) == ["As"]
    deal.play("As")  # the ace of trumps
    assert legal_text(deal) == ["9h", "Qh", "Th"]  # void in the named trump suit: anything
    deal.play("9h")
    assert deal.play("Ks") == 0


@pytest.mark.parametrize("second,winner", [("Jk high", 1), ("Jk low", 0)])
def test_both_jokers_high_the_second_takes_it(second, winner):
    deal = at_play(["Jk 7h 8h", "Jk As 7c", "Qh Th 9h", "Qs Ks 8c"], turned_card="6d")
    deal.play("Jk high s")
    assert legal_text(deal) == ["As", "Jk high", "Jk low"]  # may play the other joker instead
    deal.play(second)
    deal.play("9h")
    assert deal.play("Ks") == winner


def test_joker_led_low_others_follow_the_named_suit_as_usual_and_the_highest_wins():
    deal = at_play(["Jk 7h 8h", "As 9s 7c", "Qh Th 9h", "Qs Ks 8c"], turned_card="6d")
    deal.play("Jk low s")
    assert legal_text(deal) == ["9s", "As"]  # any spade, not only the highest
    deal.play("9s")
    deal.play("Qh")
    assert deal.play("Ks") == 3


def test_joker_led_low_is_beaten_by_a_trump():
    deal = at_play(["Jk 7h 8h", "As 9s 7c", "Qh Td 9h", "Qs Ks 8c"], turned_card="6d")
    deal.play("Jk low s")
    deal.play("9s")
    assert legal_text(deal) == ["Td"]  # void in the named suit: must trump
    deal.play("Td")
    assert deal.play("Ks") == 2


def test_joker_led_low_wins_when_nobody_follows_or_trumps():
    deal = at_play(["Jk 7h 8h", "As 9s Ts", "Qh Th 9h", "Qs Ks Js"], turned_card="6d")
    deal.play("Jk low c")
    for card in ("9s", "9h", "Js"):
        winner = deal.play(card)
    assert winner == 0


@pytest.mark.parametrize("mode,winner", [("high", 2), ("low", 1)])
def test_joker_on_a_follow_high_takes_the_trick_low_gives_it_away(mode, winner):
    deal = at_play(["As 7h 8h", "Kd 9h 7c", "Jk Th 9c", "Qs Ks 8c"], turned_card="6d")
    deal.play("As")
    assert legal_text(deal) == ["Kd"]  # void in spades: must trump
    deal.play("Kd")
    deal.play(f"Jk {mode}")
    assert deal.play("Ks") == winner


def test_two_jokers_high_on_a_follow_the_later_one_wins():
    deal = at_play(["As 7h 8h", "Jk 9h 7c", "Jk Th 9c", "Qs Ks 8c"], turned_card="6d")
    deal.play("As")
    deal.play("Jk high")
    deal.play("Jk high")
    assert deal.play("Ks") == 2


def test_joker_naming_rules_are_enforced():
    deal = at_play(["Jk 7h 8h", "Jk As 7c", "Qh Th 9h", "Qs Ks 8c"], turned_card="6d")
    with pytest.raises(ValueError, match="must be played high or low and name a suit"):
        deal.play("Jk high")
    deal.play("Jk low h")
    with pytest.raises(ValueError, match="only a joker that leads names a suit"):
        deal.play("Jk high s")
    with pytest.raises(ValueError):
        Play.parse("Jk")  # neither high nor low
    with pytest.raises(ValueError):
        Play.parse("As high")
    with pytest.raises(ValueError):
        Play(parse_cards("As")[0], "high")


# ----------------------------------------------------------------- deal end, input
def test_scores_only_when_the_deal_is_over_and_actions_after_it_fail():
    deal = at_play(["As", "Ks", "Qs", "Js"], bids=(1, 0, 1, 1), turned_card="6d")
    with pytest.raises(ValueError, match="not over"):
        deal.scores()
    for card in ("As", "Ks", "Qs", "Js"):
        deal.play(card)
    assert deal.phase == "done" and deal.to_move is None and deal.legal_actions() == []
    assert deal.scores() == (100, 50, -200, -200)
    with pytest.raises(ValueError, match="'done' phase"):
        deal.play("As")


@pytest.mark.parametrize("kwargs,message", [
    (dict(hands=["As", "Ks", "Qs"], dealer=0, turned_card="7d"), "four hands"),
    (dict(hands=["As", "Ks", "Qs", "Js 7d"], dealer=0, turned_card="7d"), "same number of cards"),
    (dict(hands=["As", "As", "Qs", "Js"], dealer=0, turned_card="7d"), "As is dealt to both"),
    (dict(hands=["Jk", "Jk", "Jk", "Js"], dealer=0, turned_card="7d"), "more than two jokers"),
    (dict(hands=["As", "Ks", "Qs", "Js"], dealer=0, turned_card="As"), "also in a hand"),
    (dict(hands=["Jk", "Jk", "Qs", "Js"], dealer=0, turned_card="Jk"), "both jokers"),
    (dict(hands=["As", "Ks", "Qs", "Js"], dealer=0), "needs its turned card"),
    (dict(hands=["As", "Ks", "Qs", "Js"], dealer=4, turned_card="7d"), "dealer must be a seat"),
    (dict(hands=["As", "Ks", "Qs", "Js"], dealer=0, turned_card="7d", trump="s"), "disagrees"),
    (dict(hands=["6s", "Ks", "Qs", "Js"], dealer=0, turned_card="7d"), "not in the deck"),
])
def test_bad_deals_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DealState(**kwargs)


def test_bad_deal_arguments():
    with pytest.raises(ValueError, match="numpy Generator"):
        DealState.deal(3, 0, 42)
    with pytest.raises(ValueError, match="hand_size"):
        DealState.deal(10, 0, np.random.default_rng(0))


def test_views_hide_the_other_hands_and_copies_are_independent():
    deal = at_play(["As 7h 8d", "Ks 9h 7c", "Qh Th 8c", "9d 7d Kc"], turned_card="6h")
    view = deal.view(1)
    assert cards_str(view.hand) == "Ks 9h 7c" and view.hand_counts == (3, 3, 3, 3)
    assert view.legal == ()  # not seat 1's turn
    copy = deal.copy()
    copy.play("As")
    assert deal.hand(0) != copy.hand(0) and deal.to_move == 0 and copy.to_move == 1


def test_plays_reveal_voids_and_high_joker_caps():
    deal = at_play(["Jk 7d 8d", "As 9s 7c", "Kh 7h Qd", "Qs Ks 8c"], turned_card="6h")
    deal.play("Jk high s")
    deal.play("As")  # seat 1 played its highest spade: the ace, so no cap below it
    deal.play("7h")  # seat 2 did not follow spades
    deal.play("Ks")  # seat 3's highest spade is the king: no ace-or-higher left (trivially)
    caps = deal.view(0).rank_caps
    assert caps[2][0] == -1  # void in spades
    assert caps[3][0] == 6  # had to play its highest spade (K = 7): at most a Q now
    assert caps[1][0] == 7
    deal2 = at_play(["As 7h 8d", "Ks 9h 7c", "Qh Th 8c", "9d 7d Kc"], turned_card="6h")
    for card in ("As", "Ks", "Th", "Kc"):
        deal2.play(card)
    caps = deal2.view(2).rank_caps
    assert caps[3][0] == -1 and caps[3][1] == -1  # no spade and no trump (heart)
    assert caps[2][0] == -1 and caps[2][1] == 8
