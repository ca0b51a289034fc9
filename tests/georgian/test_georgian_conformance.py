"""Random games checked move by move against the slow reference of naive_georgian,
the invariants of whole games, and the kernels' sampler and random numbers."""

import numpy as np
import pytest

from solver.georgian import (
    BaselinePolicy,
    DealState,
    RandomPolicy,
    get_variant,
    play_game,
    pulka_bonus,
    replay_game,
)
from solver.georgian import kernels as k
from solver.georgian.cards import DECK, mask_of

from . import naive_georgian as naive


def as_tuple(play):
    return (play.card, play.joker, play.suit)


@pytest.mark.parametrize("seed", range(4))
def test_random_deals_agree_with_the_reference_on_every_move(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        size = int(rng.integers(1, 10))
        deal = DealState.deal(size, int(rng.integers(4)), rng)
        if deal.phase == "trump":
            deal.choose_trump(int(rng.integers(5)))
        while deal.phase == "bid":
            legal = deal.legal_actions()
            deal.make_bid(legal[int(rng.integers(len(legal)))])
        trick = []
        while deal.phase == "play":
            seat = deal.to_move
            hand = list(deal.hand(seat))
            legal = deal.legal_actions()
            assert {as_tuple(p) for p in legal} == naive.legal(hand, trick, deal.trump)
            play = legal[int(rng.integers(len(legal)))]
            trick.append(as_tuple(play))
            winner = deal.play(play)
            if winner is not None:
                leader = deal.tricks[-1].leader
                assert winner == (leader + naive.winner(trick, deal.trump)) % 4
                trick = []
        assert sum(deal.taken) == size
        assert deal.scores() == tuple(naive.score(deal.bids[p], deal.taken[p], size) for p in range(4))


def test_trick_winner_on_constructed_tricks_matches_the_reference():
    rng = np.random.default_rng(11)
    plain = [c for c in DECK if c < 36]
    for _ in range(3000):
        cards = rng.choice(plain + [36, 37], size=4, replace=False)
        trump = int(rng.integers(5))
        trick = []
        for i, c in enumerate(cards):
            c = int(c)
            if c >= 36:
                mode = "high" if rng.integers(2) else "low"
                trick.append((c, mode, int(rng.integers(4)) if i == 0 else None))
            else:
                trick.append((c, None, None))
        codes = np.array([c for c, _, _ in trick], np.int64)
        mode_codes = {None: k.NOT_JOKER, "high": k.HIGH, "low": k.LOW}
        modes = np.array([mode_codes[m] for _, m, _ in trick], np.int64)
        lead_suit = trick[0][2] if trick[0][0] >= 36 else trick[0][0] // 9
        for count in range(1, 5):
            assert k.trick_winner(codes, modes, count, lead_suit, modes[0], trump) == naive.winner(trick[:count], trump)


@pytest.mark.parametrize("variant", ["classic", "nines"])
def test_random_and_baseline_games_never_play_illegally_and_totals_add_up(variant):
    game = get_variant(variant)
    for seed in range(3):
        policies = [RandomPolicy(), BaselinePolicy(), RandomPolicy(), BaselinePolicy()]
        record = play_game(policies, variant, seed=seed, first_dealer=seed % 4)
        assert replay_game(record) == record  # every action legal, every result by the rules
        assert [d.hand_size for d in record.deals] == list(game.deal_sizes)
        assert [d.dealer for d in record.deals] == [(seed + i) % 4 for i in range(len(game.deal_sizes))]
        for d in record.deals:
            assert sum(d.taken) == d.hand_size
            if d.dealer is not None:
                assert sum(d.bids) != d.hand_size  # the dealer's restriction held
        for p in range(4):
            bonus_total = 0
            for i in range(len(game.pulkas)):
                in_pulka = [d for d in record.deals if d.pulka == i + 1]
                bonus = pulka_bonus([d.bids[p] for d in in_pulka], [d.taken[p] for d in in_pulka],
                                    [d.scores[p] for d in in_pulka])
                assert record.pulka_bonuses[i][p] == bonus
                bonus_total += bonus
            assert record.totals[p] == sum(d.scores[p] for d in record.deals) + bonus_total


def test_sampler_respects_capacities_voids_and_rank_caps():
    rng = np.random.default_rng(3)
    state = rng.integers(1, 2**32, size=4, dtype=np.int64)
    for _ in range(300):
        order = rng.permutation(len(DECK))
        shuffled = [DECK[i] for i in order]
        size = int(rng.integers(1, 10))
        # The true deal: seats 0..3 get `size` cards, the rest is the pile (holder 4).
        holders = [shuffled[i * size:(i + 1) * size] for i in range(4)] + [shuffled[4 * size:]]
        # Reveal true facts: a suit a holder does not have is a void; caps at its true top rank.
        caps = np.full((5, 4), 8, np.int64)
        for h in range(4):
            for s in range(4):
                ranks = [c % 9 for c in holders[h] if c < 36 and c // 9 == s]
                if rng.random() < 0.5:
                    caps[h, s] = max(ranks) if ranks else -1
        me = int(rng.integers(4))
        unseen = np.array(sorted(c for h in range(5) if h != me for c in holders[h]), np.int64)
        capacity = np.array([0 if h == me else len(holders[h]) for h in range(5)], np.int64)
        out = np.zeros(5, np.int64)
        assert k.sample_hidden(unseen, capacity, caps, state, out)
        assert out[me] == 0
        assert sum(int(x) for x in out) == mask_of(unseen.tolist())
        for h in range(5):
            cards = [c for c in range(38) if (int(out[h]) >> c) & 1]
            assert len(cards) == capacity[h]
            for c in cards:
                assert c >= 36 or c % 9 <= caps[h, c // 9]


def test_sampler_reports_impossible_constraints():
    unseen = np.array([1, 2, 3], np.int64)  # three spades
    capacity = np.array([0, 3, 0, 0, 0], np.int64)
    caps = np.full((5, 4), 8, np.int64)
    caps[1, 0] = -1  # seat 1 is void in spades but must hold them
    assert not k.sample_hidden(unseen, capacity, caps, np.array([1, 2, 3, 4], np.int64), np.zeros(5, np.int64))


def test_kernel_random_numbers_are_reproducible_and_in_range():
    a = np.array([5, 6, 7, 8], np.int64)
    b = a.copy()
    xs = [k.rand_below(a, 10) for _ in range(2000)]
    assert xs == [k.rand_below(b, 10) for _ in range(2000)]
    assert set(xs) == set(range(10))
    assert all(0 <= k.next_u32(a) < 2**32 for _ in range(100))
