"""Long work: sampling in short kernel steps (so Ctrl+C can land between them) gives
exactly the advice of one kernel call; progress is reported; a request too large for
memory is refused up front."""

import numpy as np
import pytest

from solver.georgian import DealState, advise_bid, advise_play, advise_trump, advisor
from solver.georgian import kernels as k
from solver.georgian.advisor import _kernel_state, _sampling_inputs, _summarise
from solver.georgian.cards import mask_of, parse_cards, parse_suit


@pytest.fixture
def tiny_chunks(monkeypatch):
    """Every kernel step after the first samples one deal."""
    monkeypatch.setattr(advisor, "CHUNK_SECONDS", 1e-12)


def one_call_bid_advice(samples, seed):
    """What advise_bid gave before sampling ran in steps: one kernel call."""
    hand = parse_cards("Jk Ah Kh 7c")
    known = mask_of(hand) | mask_of(parse_cards("9h"))
    deal = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
    deal[k.HAND + 2] = mask_of(hand)
    deal[k.BID:k.BID + 4] = [1, 0, -1, -1]
    deal[k.TRUMP], deal[k.HAND_SIZE], deal[k.DEALER], deal[k.LEADER] = parse_suit("h"), 4, 3, 0
    deal[k.LEAD_JOKER] = k.NOT_JOKER
    options = np.arange(5, dtype=np.int64)
    unseen, capacity, caps = _sampling_inputs(2, known, [4] * 4, [[8] * 4] * 4)
    scores, weights, ok = k.evaluate_bids(deal, 2, options, samples, unseen, capacity, caps, advisor.BID_NOISE[4],
                                          advisor.STANDARD_SCORING.as_array(),
                                          _kernel_state(np.random.default_rng(seed)))
    assert ok
    return _summarise(list(range(5)), scores, weights)


def test_sampling_in_steps_gives_the_advice_of_one_kernel_call(tiny_chunks):
    steps = []
    advice = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=300, rng=5, bid_evidence=True,
                        progress=steps.append)
    assert len(steps) > 40 and sum(steps) == 300  # the first step of 256, then one deal a step
    assert advice == one_call_bid_advice(300, 5)


def test_steps_change_no_play_or_trump_advice(monkeypatch):
    deal = DealState(["Jk 7d 8d", "As 9s 7c", "Kh 7h Qd", "Qs Ks 8c"], 3, turned_card="6h")
    for bid in (1, 1, 0, 0):
        deal.make_bid(bid)
    deal.play("Jk high s")
    deal.play("As")
    play = advise_play(deal, samples=400, rng=3, bid_evidence=True)
    trump = advise_trump("As Ks 7h", 0, samples=6, playout_samples=3, rng=4)
    monkeypatch.setattr(advisor, "CHUNK_SECONDS", 1e-12)
    counted = []
    assert advise_play(deal, samples=400, rng=3, bid_evidence=True, progress=counted.append) == play
    assert advise_trump("As Ks 7h", 0, samples=6, playout_samples=3, rng=4, progress=counted.append) == trump
    assert counted[-6:] == [1] * 6 and sum(counted) == 406


def test_a_request_too_large_for_memory_is_refused_up_front():
    with pytest.raises(ValueError, match=r"samples=100000000 would need about 4\.8 GB of memory \(48 bytes a "
                                         r"sample for 5 choices\); at most 83,333,333 samples fit in 4 GB"):
        advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=100_000_000, rng=0)
    with pytest.raises(ValueError, match="--samples=10"):
        advisor.check_memory(10**9, advisor.MOST_CHOICES, "--samples")
    advisor.check_memory(10**6, advisor.MOST_CHOICES)


def test_progress_must_be_callable():
    with pytest.raises(ValueError, match="progress must be callable"):
        advise_bid("Jk Ah", "h", [], turned_card="9h", samples=5, rng=0, progress=3)
