"""Two parts of a solve besides the model's kernel, each timed the way it was computed
before and the way it is now, in turn in one process (medians of 7 or 9 rounds).

**The statistics**: adaptive sampling's, on the score matrices of
``test_speed_bench._hands``'s 20 ``classic`` hands (the default solve's batches
replayed, the anchor as reference):

* *two-pass*: each batch, every deal so far converted to float and its paired
  differences' mean and standard deviation taken again (``numpy.std``), then the
  choice's test over every rival once more (the code before 2026-12-02, 02:30 UTC);
* *sums*: each batch, only the new deals' integer differences added to two sums a
  candidate (``solver.sampling.paired_statistics``), which the choice reuses (now).

Both give the same decisions; the time is what the arithmetic costs a solve, beside the
solve's 10 ms or so.

**Dealing** (``solver.sampling.deal_unseen``) a batch of S deals of a heads-up
``classic`` hand: *shuffled* (the unseen cards tiled and ``Generator.permuted``, before
2026-12-02, 02:20 UTC) and *now* (the positions a seed's shuffle gives kept for small
batches), each with a seed new to every call and with the same seed every call::

    cd benchmarks && PYTHONPATH=.. python3 solve_parts.py [players]
"""
import sys
import time

import numba
import numpy as np

from solver.sampling import (Z95, Deals, adaptive_scores, anchor_setting, batch_sizes, deal_unseen,
                             first_batch, paired_statistics, prepare_hand, unseen_cards)
from solver.scoring import scoring_params
from solver.search import nondominated_arrangements
from solver.solve import EFFORTS, _anchor_candidate
from test_speed_bench import _hands


def score_matrices(players):
    """(scores, anchor) of the default solve of each hand."""
    out = []
    hands, _ = _hands("classic")
    for text in hands:
        hand = prepare_hand(text, "classic", None, players)
        params = scoring_params(hand.rules)
        masks, ords = nondominated_arrangements(np.array(hand.own, np.int64), hand.tables,
                                                params)
        cand = hand.tables.values[ords].astype(np.int32)
        anchor = _anchor_candidate(cand, anchor_setting(hand, None), params)
        fast = EFFORTS["fast"]
        result = adaptive_scores(hand, Deals(hand, 0, None, False, 0), cand, params,
                                 precision=fast["precision"][13] * (players - 1),
                                 cap=fast["hands"][13] // (players - 1), anchor=anchor)
        out.append((result.scores, anchor))
    return out


def two_pass(scores, anchor, players):
    K, S = scores.shape
    alive, used = np.arange(K), 0
    for size in batch_sizes(S, first_batch(players)):
        used += size
        mine = scores[alive, :used].astype(np.float64)
        diff = mine - mine[int(np.flatnonzero(alive == anchor)[0])]
        half = Z95 * diff.std(axis=1, ddof=1) / np.sqrt(used)
        alive = alive[diff.mean(axis=1) + half >= 0]
    rivals = alive[alive != anchor]
    diff = scores[rivals].astype(np.float64) - scores[anchor].astype(np.float64)
    return diff.mean(axis=1), diff.std(axis=1, ddof=1) / np.sqrt(S)


def sums(scores, anchor, players):
    K, S = scores.shape
    alive, used = np.arange(K), 0
    total, squares = np.zeros(K, np.int64), np.zeros(K, np.int64)
    for size in batch_sizes(S, first_batch(players)):
        block = scores[alive, used:used + size]
        diff = block.astype(np.int64) - block[int(np.flatnonzero(alive == anchor)[0])]
        total[alive] += diff.sum(axis=1)
        squares[alive] += (diff * diff).sum(axis=1)
        used += size
        mean, stderr = paired_statistics(total[alive], squares[alive], used)
        keep = mean + Z95 * stderr >= 0
        alive, mean, stderr = alive[keep], mean[keep], stderr[keep]
    return mean, stderr


def shuffled(hand, samples, seed):
    """deal_unseen as it was: the unseen cards in every row, shuffled."""
    n_opp, dealt = hand.seats - 1, hand.rules.cards_dealt
    deck = np.tile(np.array(unseen_cards(hand), np.int64), (samples, 1))
    deals = np.random.default_rng(seed).permuted(deck, axis=1)[:, :n_opp * dealt]
    return np.ascontiguousarray(deals.reshape(samples, n_opp, dealt))


def dealing():
    """Dealing batches of 64, 256 and 1000 deals of one heads-up hand both ways, with a
    seed new to each call and with seed 0 every call."""
    hand = prepare_hand(_hands("classic")[0][0], "classic", None, 2)
    for samples in (64, 256, 1000):
        times = {}
        for r in range(9):
            for name, deal in (("shuffled", shuffled), ("now", deal_unseen)):
                fresh = iter(range(10**6 * (r + 1), 10**9))
                ways = (("new seeds", lambda: next(fresh)), ("same seed", lambda: 0))
                for seeds, seed_of in ways:
                    start = time.perf_counter()
                    for _ in range(200):
                        deal(hand, samples, seed_of())
                    times.setdefault((name, seeds), []).append(
                        (time.perf_counter() - start) / 200 * 1e6)
        line = []
        for seeds in ("new seeds", "same seed"):
            old, new = np.array(times["shuffled", seeds]), np.array(times["now", seeds])
            line.append(f"{seeds}: shuffled {np.median(old):.1f} us, now {np.median(new):.1f} us, "
                        f"now / shuffled {np.median(new / old):.2f}")
        print(f"dealing {samples} deals; " + "; ".join(line))


def main(players):
    numba.set_num_threads(1)
    dealing()
    mats = score_matrices(players)
    times = {"two-pass": [], "sums": []}
    ways = [("two-pass", two_pass), ("sums", sums)]
    for r in range(7):
        for name, way in (ways if r % 2 else ways[::-1]):
            start = time.perf_counter()
            for scores, anchor in mats:
                way(scores, anchor, players)
            times[name].append((time.perf_counter() - start) / len(mats) * 1e6)
    ratio = np.median(np.array(times["sums"]) / np.array(times["two-pass"]))
    print(f"classic, {players} players: {np.median([m[0].shape[1] for m in mats]):.0f} deals "
          f"and {np.median([m[0].shape[0] for m in mats]):.0f} candidates (medians); "
          f"two-pass {np.median(times['two-pass']):.0f} us, sums {np.median(times['sums']):.0f} "
          f"us a solve; sums / two-pass {ratio:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
