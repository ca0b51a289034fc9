"""The 9-card trump choice by expected score (advise_trump), the advisor's own
decisions inside its playouts, and AdvisorPolicy's use of them."""

import numpy as np
import pytest

from solver.georgian import (
    STANDARD_SCORING,
    AdvisorPolicy,
    BaselinePolicy,
    DealState,
    advise_trump,
    parse_suit,
    play_game,
    replay_game,
)
from solver.georgian import kernels as k
from solver.georgian.advisor import BID_NOISE
from solver.georgian.cards import DECK


def test_advise_trump_ranks_every_choice_and_is_reproducible():
    advice = advise_trump("Jk Ah Kh", 2, samples=6, playout_samples=4, rng=3)
    assert sorted(a.choice for a in advice) == ["c", "d", "h", "none", "s"]
    scores = [a.expected_score for a in advice]
    assert scores == sorted(scores, reverse=True)
    assert all(-500 <= s <= 900 and a.stderr >= 0 for s, a in zip(scores, advice))
    assert advice == advise_trump("Jk Ah Kh", 2, samples=6, playout_samples=4, rng=np.random.default_rng(3))
    assert advice != advise_trump("Jk Ah Kh", 2, samples=6, playout_samples=4, rng=4)
    # The dealer only names the seats: the advice does not depend on it.
    assert advice == advise_trump("Jk Ah Kh", 0, samples=6, playout_samples=4, rng=3)


def test_advise_trump_prefers_the_suit_of_a_long_strong_start():
    # Three top spades: spades must beat the suits the chooser has not seen at all.
    advice = {a.choice: a.expected_score for a in advise_trump("As Ks Qs", 0, samples=30, playout_samples=6, rng=1)}
    assert all(advice["s"] > advice[suit] for suit in "hdc")


@pytest.mark.parametrize("kwargs,message", [
    (dict(first_three="Ah Kh"), "three cards"),
    (dict(first_three="Ah Kh Qh Jh"), "three cards"),
    (dict(first_three="Ah Kh Ah"), "repeated"),
    (dict(first_three="Ah Kh Qh", dealer=4), "dealer"),
    (dict(first_three="Ah Kh Qh", samples=0), "samples"),
    (dict(first_three="Ah Kh Qh", playout_samples=-1), "samples"),
    (dict(first_three="Ah Kh Qh", rng="x"), "rng"),
    (dict(first_three="Ah Kh Qh", bid_evidence=None), "bid_evidence"),
])
def test_advise_trump_bad_input(kwargs, message):
    kwargs.setdefault("dealer", 0)
    kwargs.setdefault("rng", 0)
    with pytest.raises(ValueError, match=message):
        advise_trump(**kwargs)


def test_advisor_policy_chooses_trump_with_advise_trump():
    deal = DealState.deal(9, 2, np.random.default_rng(4))
    view = deal.view(deal.to_move)
    assert view.phase == "trump" and len(view.hand) == 3
    policy = AdvisorPolicy(trump_samples=6, trump_playout_samples=4, trump_by_expected_score=True)
    seed = int(np.random.default_rng(9).integers(2**63))  # the one draw the policy makes
    best = advise_trump(view.hand, view.dealer, samples=6, playout_samples=4, rng=seed)[0]
    rng = np.random.default_rng(9)
    assert policy.choose_trump(view, rng) == parse_suit(best.choice, allow_no_trump=True)
    # The baseline's rule by default (advise_trump measured no gain: benchmarks/GEORGIAN.md).
    as_baseline = AdvisorPolicy()
    assert not as_baseline.trump_by_expected_score
    other = np.random.default_rng(9)
    assert as_baseline.choose_trump(view, other) == BaselinePolicy().choose_trump(view, None)
    assert rng.integers(2**63) == other.integers(2**63)  # both left the generator in the same state
    with pytest.raises(ValueError, match="trump_by_expected_score"):
        AdvisorPolicy(trump_by_expected_score=1)


def test_advisor_policy_with_advise_trump_plays_a_legal_nines_game():
    policies = [AdvisorPolicy(8, 4, trump_samples=3, trump_playout_samples=2, trump_by_expected_score=True)]
    policies += [BaselinePolicy()] * 3
    record = play_game(policies, "nines", seed=5)
    assert replay_game(record) == record


def full_deal(seed, trump=1):
    """A 9-card deal vector bid by the baseline, ready to play."""
    deal = DealState.deal(9, 3, np.random.default_rng(seed))
    deal.choose_trump(trump)
    vec = deal._vec.copy()
    for p in deal.bidding_order:
        vec[k.BID + p] = k.baseline_bid(vec, p)
    return vec


@pytest.mark.parametrize("seed", range(3))
def test_the_advisor_playout_finishes_the_deal(seed):
    vec = full_deal(seed)
    k.advisor_play_out(vec, 0, 0, 4, BID_NOISE[9], STANDARD_SCORING.as_array(), np.array([1, 2, 3, seed + 1]))
    assert vec[k.TRICKS_DONE] == 9 and sum(vec[k.TAKEN:k.TAKEN + 4]) == 9
    assert all(vec[k.HAND + p] == 0 for p in range(4))
    assert vec[k.PLAYED] == sum(1 << c for c in DECK)


def test_the_advisor_inside_a_playout_never_reads_the_hidden_cards():
    # Swap the hidden cards of the other seats (same counts): same decision, same draws.
    vec = full_deal(6)
    rng = np.random.default_rng(0)
    hidden = [c for p in (1, 2, 3) for c in range(38) if (int(vec[k.HAND + p]) >> c) & 1]
    rng.shuffle(hidden)
    other = vec.copy()
    for i, p in enumerate((1, 2, 3)):
        other[k.HAND + p] = sum(1 << c for c in hidden[9 * i:9 * i + 9])
    caps = np.full((4, 4), 8, np.int64)
    played = np.zeros(4, np.int64)
    scoring = STANDARD_SCORING.as_array()
    buf = np.zeros(k.MAX_PLAYS, np.int64)
    for state in ([5, 6, 7, 8], [9, 1, 2, 3]):
        a = k.advisor_play(vec, 0, caps, played, 0, 20, BID_NOISE[9], scoring, np.array(state, np.int64), buf)
        b = k.advisor_play(other, 0, caps, played, 0, 20, BID_NOISE[9], scoring, np.array(state, np.int64), buf)
        assert a == b


def test_spawned_random_states_are_reproducible_and_not_the_parents_continuation():
    parent = np.array([1, 2, 3, 4], np.int64)
    child = k.spawn_state(parent.copy())
    assert np.array_equal(child, k.spawn_state(np.array([1, 2, 3, 4], np.int64)))
    follow = parent.copy()
    for _ in range(4):
        k.next_u32(follow)
    assert not np.array_equal(child, follow)
    assert child.any() and all(0 <= x < 2**32 for x in child)
