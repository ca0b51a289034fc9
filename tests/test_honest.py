"""The numbers a solve reports mean what they say, and the best response deserves its
name: checked against independent re-scoring and exact enumeration, not against the
solver's own bookkeeping."""
import itertools

import numpy as np
import pytest

import solver
from solver.sampling import Opponents, prepare_hand, sampled_opponents
from solver.scoring import score_candidates, scoring_params


def _rescored(hand, rules, rows, players, deals, seed):
    """The mean score of ``rows`` on ``deals`` new deals (seed far from solve's own)."""
    prepared = prepare_hand(hand, rules, None, players)
    values = np.array([[solver.row_value(r, rules).value for r in rows]], np.int32)
    opp = sampled_opponents(prepared, deals, seed, None)
    return score_candidates(values, 0, *opp, scoring_params(prepared.rules))[0].mean()


@pytest.mark.parametrize("rules, players, hand", [
    ("classic", 2, "Td 8d Jc 7c 9s Qs 5h 5s 2h 4s Tc 4d 2c"),
    ("pagat", 4, "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"),
])
@pytest.mark.slow
def test_the_reported_ev_is_unbiased_against_a_large_independent_rescoring(rules, players,
                                                                             hand):
    """Over many seeds, the default solve's EV (held out) averages to the true EV of the
    setting it chose -- each setting's truth from 20,000 independent dealt deals (the
    solves take theirs from the pool) -- while the
    in-sample mean, chosen among many, does not fall below it."""
    truth = {}
    errors, in_sample = [], []
    for seed in range(60):
        sol = solver.solve(hand, rules, players=players, seed=seed, top=0)
        assert sol.pooled                       # (deals from solver.pool)
        rows = (sol.front, sol.middle, sol.back)
        if rows not in truth:
            truth[rows] = _rescored(hand, rules, rows, players, 20000, 10**6 + seed)
        errors.append(sol.ev - truth[rows])
        in_sample.append(sol.ev_in_sample - truth[rows])
    errors = np.array(errors)
    bound = 3.5 * errors.std(ddof=1) / np.sqrt(len(errors)) + 0.02   # + the truth's noise
    assert abs(errors.mean()) < bound, (errors.mean(), bound)
    assert np.mean(in_sample) > -bound


def test_the_best_response_to_an_exactly_known_model_never_loses_to_the_model():
    """A small world, enumerated exactly: 28 cards, ours are 13 of them and the opponent
    holds 13 of the other 15 (105 hands, equally likely), each set by the model
    (quick_set).  Against that exact opponent, solve's answer is the best of *every*
    legal arrangement of our cards (brute force, 72,072 splits), and so its expected
    margin over the model's own setting of our hand is never negative."""
    rng = np.random.default_rng(17)
    for trial in range(3):
        cards = [solver.format_cards([int(c)]) for c in rng.permutation(52)[:28]]
        ours, rest = cards[:13], cards[13:]
        world = [[solver.quick_set(" ".join(h), "classic", players=2)]
                 for h in itertools.combinations(rest, 13)]
        assert len(world) == 105
        best = solver.solve(" ".join(ours), "classic", players=2, opponents=world, top=0)
        # Every split of our 13 cards into 3 / 5 / 5; the legal ones are the candidates.
        prepared = prepare_hand(" ".join(ours), "classic", None, 2)
        params = scoring_params(prepared.rules)
        codes = np.array(prepared.own)
        splits = []
        for front in itertools.combinations(range(13), 3):
            others = [p for p in range(13) if p not in front]
            for middle in itertools.combinations(others, 5):
                back = [p for p in others if p not in middle]
                splits.append((front, middle, back))
        # Value each distinct row once: 286 Fronts, 1287 five-card rows.
        row_value = {}
        for size in (3, 5):
            for row in itertools.combinations(range(13), size):
                text = solver.format_cards([int(codes[p]) for p in row])
                row_value[row] = solver.row_value(text, "classic").value
        vals = np.array([[row_value[tuple(r)] for r in split] for split in splits], np.int32)
        legal = (vals[:, 0] < vals[:, 1]) & (vals[:, 1] <= vals[:, 2])
        opp = _world_opponents(world, "classic")
        scores = score_candidates(vals[legal], 0, *opp, params).mean(axis=1)
        assert best.ev == pytest.approx(scores.max())                 # exact for its deals
        model = solver.quick_set(" ".join(ours), "classic", players=2)
        model_vals = np.array([[solver.row_value(r, "classic").value for r in model]],
                              np.int32)
        margin = best.ev - score_candidates(model_vals, 0, *opp, params)[0].mean()
        assert margin >= 0


def _world_opponents(world, rules):
    """The Opponents of a list of single-opponent samples of (front, middle, back)."""
    vals = np.array([[[solver.row_value(r, rules).value for r in s[0]]] for s in world],
                    np.int32)
    return Opponents(vals, np.zeros(vals.shape[:2], bool), np.zeros(vals.shape[:2], np.int8))
