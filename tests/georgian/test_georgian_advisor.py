"""The advisor: every legal choice with its expected score, sampled consistently with
what the seat has seen, reproducible from its seed; and bad input."""

import numpy as np
import pytest

from solver.georgian import (
    AdvisorPolicy,
    BaselinePolicy,
    DealState,
    Play,
    advise_bid,
    advise_play,
    advisor,
    play_game,
    replay_game,
)
from solver.georgian import kernels as k
from solver.georgian.cards import DECK, mask_of


def at_play(hands, bids, dealer=3, **kw):
    deal = DealState(hands, dealer, **kw)
    for seat in deal.bidding_order:
        deal.make_bid(bids[seat])
    return deal


@pytest.mark.slow
def test_advise_bid_scores_every_legal_bid_and_is_reproducible():
    advice = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=60, rng=7)
    assert sorted(a.choice for a in advice) == [0, 1, 2, 3, 4]
    assert [a.expected_score for a in advice] == sorted((a.expected_score for a in advice), reverse=True)
    again = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=60, rng=np.random.default_rng(7))
    assert advice == again
    for a in advice:  # every estimate lies between the worst and best deal scores
        assert -200 <= a.expected_score <= 400 and a.stderr >= 0


def test_advise_bid_leaves_out_the_dealers_forbidden_bid():
    advice = advise_bid("Jk Ah Kh 7c", "h", [1, 0, 1], turned_card="9h", samples=20, rng=1)
    assert sorted(a.choice for a in advice) == [0, 1, 3, 4]  # 2 would make the bids add up to 4


def test_advise_bid_prefers_the_obvious_bid():
    # Both jokers in a 2-card deal: two sure tricks (a high joker led naming trump, then
    # the other). Bidding 2 scores 200 every time.
    advice = advise_bid("Jk Jk", "s", [], turned_card="7s", samples=40, rng=2)
    assert advice[0].choice == 2 and advice[0].expected_score == 200 and advice[0].stderr == 0
    # Four low non-trump cards with no trump in hand: passing is best.
    assert advise_bid("7h 8h 7d 8d", "c", [], turned_card="9c", samples=60, rng=3)[0].choice == 0


def test_advise_play_is_exact_when_nothing_is_hidden():
    # Last card of a 1-card deal: seat 0 (the dealer) bid 1 and holds the only card left.
    deal = at_play(["Jk", "Ah", "Kh", "Qh"], bids=(1, 1, 0, 0), dealer=0, turned_card="9h")
    for card in ("Ah", "Kh", "Qh"):
        deal.play(card)
    advice = advise_play(deal, samples=5, rng=0)
    assert [(str(a.choice), a.expected_score, a.stderr) for a in advice] == [("Jk high", 100, 0), ("Jk low", -200, 0)]


def test_advise_play_uses_only_what_the_seat_can_see():
    rng = np.random.default_rng(12)
    deal = DealState.deal(6, 3, rng)
    for seat in deal.bidding_order:
        deal.make_bid(deal.legal_actions()[0] if seat != 3 else deal.legal_actions()[-1])
    # Rearrange the hidden cards of seats 1..3: seat 0 (to lead) cannot tell the difference.
    hidden = [c for p in (1, 2, 3) for c in deal.hand(p)]
    rng.shuffle(hidden)
    other_hands = [deal.hand(0)] + [hidden[6 * i:6 * i + 6] for i in range(3)]
    other = at_play(other_hands, bids=deal.bids, dealer=3, turned_card=deal.turned_card)
    a = advise_play(deal, samples=30, rng=5)
    b = advise_play(other, samples=30, rng=5)
    assert a == b
    assert {str(x.choice) for x in a} == {str(p) for p in deal.legal_actions()}


def test_advise_play_never_deals_a_revealed_void():
    # Seat 2 showed a void in spades; seat 3 had to play its highest spade (the Q).
    deal = at_play(["Jk 7d 8d Jh", "As 9s 7c 8c", "Kh 7h Qd 9d", "Qs Ts 8s Tc"], bids=(2, 1, 1, 1),
                   turned_card="6h")
    for play in ("Jk high s", "As", "7h", "Qs"):
        deal.play(play)
    view = deal.view(deal.to_move)
    assert view.rank_caps[2][0] == -1 and view.rank_caps[3][0] == 5
    known = mask_of(view.hand) | mask_of(view.played) | (1 << view.turned_card)
    unseen, capacity, caps = advisor._sampling_inputs(view.seat, known, view.hand_counts, view.rank_caps)
    state = np.array([1, 2, 3, 4], np.int64)
    out = np.zeros(5, np.int64)
    for _ in range(200):
        assert k.sample_hidden(unseen, capacity, caps, state, out)
        spades_of_2 = [c for c in range(9) if (int(out[2]) >> c) & 1]
        assert spades_of_2 == []
        assert all(not (int(out[3]) >> c) & 1 for c in range(6, 9))  # nothing above its J: no Q, K or A of spades


def test_advisor_policy_plays_a_legal_game():
    record = play_game([AdvisorPolicy(bid_samples=8, play_samples=4, trump_samples=2, trump_playout_samples=2),
                        BaselinePolicy(), BaselinePolicy(),
                        BaselinePolicy()], "nines", seed=3)
    assert replay_game(record) == record
    assert record.players[0] == "advisor"


@pytest.mark.parametrize("kwargs,message", [
    (dict(hand="Jk Ah Kh 7c 8c 9c 7d 8d 9d Td", trump="h"), "1..9 cards"),
    (dict(hand="Jk Ah", trump="x"), "not a suit"),
    (dict(hand="Jk Ah", trump="h", bids_before=[3]), "earlier bid"),
    (dict(hand="Jk Ah", trump="h", bids_before=[0, 0, 0, 0]), "at most the three"),
    (dict(hand="Jk Ah", trump="h", turned_card="9s"), "disagrees"),
    (dict(hand="Jk Ah", trump="h", turned_card="Ah"), "also in the hand"),
    (dict(hand="Jk Jk", trump="none", turned_card="Jk"), "both jokers"),
    (dict(hand=[DECK[i] for i in range(9)], trump="h", turned_card="9h"), "no turned card"),
    (dict(hand="Jk Ah", trump="h", samples=0), "samples"),
    (dict(hand="Jk Ah", trump="h", rng=-1), "rng"),
    (dict(hand="Jk Ah", trump="h", rng=None), "rng"),
])
def test_advise_bid_bad_input(kwargs, message):
    kwargs.setdefault("rng", 0)
    with pytest.raises(ValueError, match=message):
        advise_bid(**kwargs)


def test_advise_play_bad_input():
    deal = DealState(["Ah", "Kh", "7s", "Jk"], dealer=3, turned_card="9h")
    with pytest.raises(ValueError, match="play phase"):
        advise_play(deal, rng=0)
    with pytest.raises(ValueError, match="DealState or a SeatView"):
        advise_play("As", rng=0)
    deal = at_play(["Ah", "Kh", "7s", "Jk"], bids=(1, 0, 0, 1), turned_card="9h")
    with pytest.raises(ValueError, match="not the one to play"):
        advise_play(deal.view(2), rng=0)
    with pytest.raises(ValueError, match="samples"):
        advise_play(deal, samples=1.5, rng=0)
    assert isinstance(advise_play(deal, samples=3, rng=0)[0].choice, Play)
