"""Bids as evidence: the likelihood of a bid under the modelled bidding policy, the
sample weights it gives, what the weighting does to the sampled hands, and the
weighted statistics."""

import math

import numpy as np
import pytest

from solver.georgian import STANDARD_SCORING, BaselinePolicy, DealState, advise_bid, advise_play, advisor
from solver.georgian import kernels as k
from solver.georgian.advisor import BID_NOISE
from solver.georgian.cards import DECK, JOKER_IDS, mask_of

from . import naive_georgian as naive


def deal_in_play(seed, hand_size=9, plays=5, dealer=3):
    """A seeded deal, bid and partly played by the baseline, with the seat to move."""
    rng = np.random.default_rng(seed)
    deal = DealState.deal(hand_size, dealer, rng)
    baseline = BaselinePolicy()
    if deal.phase == "trump":
        deal.choose_trump(baseline.choose_trump(deal.view(deal.to_move), rng))
    for _ in range(4 + plays):
        seat = deal.to_move
        view = deal.view(seat)
        deal.apply(baseline.bid(view, rng) if deal.phase == "bid" else baseline.play(view, rng))
    return deal


def test_bid_probability_is_the_noisy_baseline_rule():
    # Against an independent computation: the baseline's rule applied to estimate + e,
    # integrated over a grid of normal errors.
    rng = np.random.default_rng(1)
    for _ in range(12):
        n = int(rng.integers(1, 10))
        hand = mask_of(rng.choice(DECK, size=n, replace=False).tolist())
        trump = int(rng.integers(5))
        est = k.estimate_tricks(hand, trump)
        for forbidden in (-1, int(rng.integers(n + 1))):
            want = naive.bid_distribution(est, n, None if forbidden < 0 else forbidden, BID_NOISE[n])
            got = [k.bid_probability(hand, b, trump, n, forbidden, BID_NOISE[n]) for b in range(n + 1)]
            assert sum(got) == pytest.approx(1.0, abs=1e-12)
            assert got == pytest.approx(want, abs=2e-3)
            if forbidden >= 0:
                assert got[forbidden] == 0.0


def test_a_dealers_bid_depends_on_the_forbidden_bid():
    hand = mask_of([8, 17, 26])  # As Ah Ad: an estimate of about 2.1 in no trump
    deal = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
    deal[k.HAND_SIZE], deal[k.DEALER], deal[k.TRUMP] = 3, 3, 4
    deal[k.BID:k.BID + 4] = (0, 1, 0, -1)  # the dealer may not bid 2
    assert k.forbidden_bid(deal, 3) == 2
    probs = [k.bid_probability(hand, b, 4, 3, 2, 0.7) for b in range(4)]
    free = [k.bid_probability(hand, b, 4, 3, -1, 0.7) for b in range(4)]
    assert probs[2] == 0 and probs[1] + probs[3] == pytest.approx(free[1] + free[2] + free[3])


def test_dealt_hand_counts_the_jokers():
    one, two = 1 << JOKER_IDS[0], 1 << JOKER_IDS[1]
    assert k.dealt_hand(one | 2, one) == one | two | 2        # one joker held, one played
    assert k.dealt_hand(0, one | (1 << 5)) == one | (1 << 5)
    assert k.dealt_hand(4, 8) == 12


def replayed_hands(unseen, capacity, caps, state, n):
    """The hands sample_hidden deals with ``state``, n times (the playouts of the
    evaluate kernels draw no random numbers, so these are their samples)."""
    state = state.copy()
    out = np.zeros(5, np.int64)
    hands = []
    for _ in range(n):
        assert k.sample_hidden(unseen, capacity, caps, state, out)
        hands.append(out.copy())
    return hands


@pytest.mark.parametrize("seed", [2, 3])
def test_sample_weights_are_the_likelihood_of_the_bids(seed):
    deal = deal_in_play(seed)
    view = deal.view(deal.to_move)
    known = mask_of(view.hand) | mask_of(view.played)
    unseen, capacity, caps = advisor._sampling_inputs(view.seat, known, view.hand_counts, view.rank_caps)
    options = np.array([p.code for p in view.legal], np.int64)
    state = np.array([11, 12, 13, seed], np.int64)
    noise = BID_NOISE[9]
    _, log_weights, ok = k.evaluate_plays(np.array(view.vector, np.int64), view.seat, options, 25, unseen, capacity,
                                          caps, advisor._played_by(view), noise, STANDARD_SCORING.as_array(),
                                          state.copy())
    assert ok
    for s, hands in enumerate(replayed_hands(unseen, capacity, caps, state, 25)):
        likelihood = 1.0
        reference = 1.0
        for p in range(4):
            if p == view.seat:
                continue
            # The hand p was dealt: what the sample gives it now plus what it really played.
            played = set(deal.initial_hands[p]) - set(deal.hand(p))
            dealt = k.dealt_hand(int(hands[p]), mask_of(played))
            forbidden = k.forbidden_bid(np.array(view.vector, np.int64), p)
            likelihood *= k.bid_probability(dealt, view.bids[p], view.trump, 9, forbidden, noise)
            est = k.estimate_tricks(dealt, view.trump)
            reference *= naive.bid_distribution(est, 9, None if forbidden < 0 else forbidden, noise,
                                                steps=4001)[view.bids[p]]
        assert log_weights[s] == pytest.approx(math.log(likelihood), rel=1e-12, abs=1e-12)
        assert math.exp(log_weights[s]) == pytest.approx(reference, abs=5e-3)


def test_a_high_bid_makes_the_sampled_hand_stronger_and_a_pass_weaker():
    # A 9-card deal, hearts trump: seat 0 bid 5, seat 1 passed; seat 2 (to bid) holds
    # middling cards. Without evidence both seats' sampled hands are alike.
    hand = [9 * 0 + 3, 9 * 0 + 4, 9 * 1 + 2, 9 * 1 + 5, 9 * 2 + 1, 9 * 2 + 6, 9 * 3 + 2, 9 * 3 + 3, 9 * 3 + 7]
    deal = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
    deal[k.HAND + 2] = mask_of(hand)
    deal[k.BID:k.BID + 4] = (5, 0, -1, -1)
    deal[k.TRUMP], deal[k.HAND_SIZE], deal[k.DEALER], deal[k.LEAD_JOKER] = 1, 9, 3, k.NOT_JOKER
    unseen, capacity, caps = advisor._sampling_inputs(2, mask_of(hand), [9] * 4, [[8] * 4] * 4)
    state = np.array([3, 1, 4, 1], np.int64)
    n = 400
    _, log_weights, ok = k.evaluate_bids(deal, 2, np.array([0], np.int64), n, unseen, capacity, caps, BID_NOISE[9],
                                         STANDARD_SCORING.as_array(), state.copy())
    assert ok
    hands = replayed_hands(unseen, capacity, caps, state, n)
    weights = np.exp(log_weights - log_weights.max())
    for seat, bid in ((0, 5), (1, 0)):
        strength = np.array([k.estimate_tricks(int(h[seat]), 1) for h in hands])
        plain = strength.mean()
        weighted = np.average(strength, weights=weights)
        if bid == 5:
            assert weighted > plain + 1.0
        else:
            assert weighted < plain - 0.7
        assert abs(weighted - bid) < abs(plain - bid)


def test_weighted_summary_is_the_importance_sampling_estimate():
    rng = np.random.default_rng(4)
    scores = rng.normal(50, 30, size=(200, 3))
    equal = k.weighted_summary(scores, np.zeros(200))
    assert equal[0] == pytest.approx(scores.mean(axis=0))
    assert equal[1] == pytest.approx(scores.std(axis=0, ddof=1) / math.sqrt(200))
    assert equal[2] == pytest.approx(200)
    log_w = rng.normal(0, 1, size=200)
    means, errors, n_eff = k.weighted_summary(scores, log_w)
    w = np.exp(log_w)
    want = (w[:, None] * scores).sum(axis=0) / w.sum()
    assert means == pytest.approx(want)
    assert n_eff == pytest.approx(w.sum() ** 2 / (w ** 2).sum())
    raw = np.sqrt(((w[:, None] * (scores - want)) ** 2).sum(axis=0)) / w.sum()
    assert errors == pytest.approx(raw * math.sqrt(n_eff / (n_eff - 1)))
    assert np.isnan(k.weighted_summary(scores[:1], np.zeros(1))[1]).all()


def test_advice_with_evidence_is_reproducible_and_differs_from_advice_without():
    deal = deal_in_play(7)
    a = advise_play(deal, samples=40, rng=3, bid_evidence=True)
    assert a == advise_play(deal, samples=40, rng=np.random.default_rng(3), bid_evidence=True)
    b = advise_play(deal, samples=40, rng=3, bid_evidence=False)
    assert {x.choice for x in a} == {x.choice for x in b}
    assert [x.expected_score for x in a] != [x.expected_score for x in b]
    # Off by default (it measured a gain only against baseline seats: benchmarks/GEORGIAN.md).
    assert advise_play(deal, samples=40, rng=3) == b
    assert advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=30, rng=5) == \
        advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=30, rng=5, bid_evidence=False)
    bid = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=30, rng=5, bid_evidence=True)
    assert bid == advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=30, rng=5, bid_evidence=True)
    # The first bidder has no evidence to weigh: the same advice either way.
    assert advise_bid("Jk Ah Kh 7c", "h", [], turned_card="9h", samples=30, rng=5, bid_evidence=True) == \
        advise_bid("Jk Ah Kh 7c", "h", [], turned_card="9h", samples=30, rng=5, bid_evidence=False)
    with pytest.raises(ValueError, match="bid_evidence"):
        advise_play(deal, rng=0, bid_evidence="yes")


@pytest.mark.parametrize("seed", range(4))
def test_the_kernels_hidden_inputs_are_the_advisors(seed):
    # The advisor inside a playout (kernels.hidden_inputs, from the full deal vector)
    # sees what advise_play sees (advisor._sampling_inputs, from the seat's view).
    deal = deal_in_play(seed, hand_size=int(np.random.default_rng(seed).integers(3, 10)), plays=seed + 2)
    view = deal.view(deal.to_move)
    known = mask_of(view.hand) | mask_of(view.played)
    extra = 0
    if view.turned_card is not None:
        extra = 1 << view.turned_card
        known |= extra
    want = advisor._sampling_inputs(view.seat, known, view.hand_counts, view.rank_caps)
    got = k.hidden_inputs(deal._vec, view.seat, extra, deal.rank_caps)
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b)
