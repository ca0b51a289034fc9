"""Rebuild the default policy's reference fields by self-play: ``python -m solver.policy_training``.

Round 0 deals random hands and sets every seat with :func:`strongest_back_first`; each
later round sets every seat with :func:`field_policy` against the previous round's
field.  A field is FIELD_DEALS deals' worth of the other seats' row values.  The files are
written to ``solver/data/`` and loaded by :func:`solver.policy.reference_field`.  The
script ends by playing the trained policy against the baseline and printing the result.
"""
from __future__ import annotations

import argparse

import numpy as np

from .cards import deck_codes
from .policy import DATA, field_name, field_policy, strongest_back_first
from .rows import tables_for
from .rules import rule_set as _rules
from .scoring import settle_seats
from .search import cards_of_mask
from .kernels import ordinal3, ordinal5

FIELD_DEALS = 16
TRAINING = [("joker", 4), ("bonus", 4), ("pagat", 2), ("pagat", 3), ("pagat", 4),
            ("classic", 2), ("classic", 3), ("classic", 4), ("classic:eastern", 2),
            ("classic:eastern", 3), ("classic:eastern", 4), ("classic:mandarin", 2),
            ("classic:mandarin", 3), ("classic:mandarin", 4)]


def _deal(rng, rs, n_seats):
    """One deal: (tables for it, each seat's hand as codes)."""
    deck = deck_codes(rs)
    cut = None
    if rs.cut_card:
        cut = int(rng.choice([c for c in deck if c < 52]))
        deck = [c for c in deck if c != cut]
    cards = rng.permutation(np.array(deck, np.int64))
    hands = [cards[i * rs.cards_dealt:(i + 1) * rs.cards_dealt] for i in range(n_seats)]
    tables = tables_for(rs, cut)
    return tables, hands


def _row_values(masks, codes, t):
    f, m, b = (cards_of_mask(int(x), codes) for x in masks)
    return [t.values[ordinal3(*f, t)], t.values[ordinal5(*m, t)], t.values[ordinal5(*b, t)]]


def _set(codes, t, params, field, n_seats):
    if field is None:
        return _row_values(strongest_back_first(codes, t), codes, t)
    return _row_values(field_policy(codes, t, params, field, n_seats), codes, t)


def train(rule_set: str, n_seats: int, rounds: int = 3, seed: int = 0) -> np.ndarray:
    rs = _rules(rule_set)
    params = rs.scoring_params()
    rng = np.random.default_rng(seed)
    field = None
    for _ in range(rounds + 1):
        new = np.zeros((FIELD_DEALS, n_seats - 1, 3), np.int32)
        for d in range(FIELD_DEALS):
            t, hands = _deal(rng, rs, n_seats)
            for s in range(1, n_seats):
                new[d, s - 1] = _set(hands[s], t, params, field, n_seats)
        field = new
    return field


def head_to_head(rule_set: str, n_seats: int, field: np.ndarray, deals: int, seed: int = 1):
    """Mean units and standard error of one field-policy seat against baseline seats."""
    rs = _rules(rule_set)
    params = rs.scoring_params()
    rng = np.random.default_rng(seed)
    results = []
    for _ in range(deals):
        t, hands = _deal(rng, rs, n_seats)
        vals = np.array([_set(hands[0], t, params, field, n_seats)]
                        + [_set(h, t, params, None, n_seats) for h in hands[1:]], np.int32)
        results.append(settle_seats(vals, 0, 0, params)[0])   # no fouls, no autos
    r = np.array(results, float)
    return r.mean(), r.std(ddof=1) / np.sqrt(len(r))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--check-deals", type=int, default=2000)
    args = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    for rule_set, n_seats in TRAINING:
        rs = _rules(rule_set)
        field = train(rule_set, n_seats, args.rounds)
        np.save(DATA / field_name(rs, n_seats), field)
        mean, se = head_to_head(rule_set, n_seats, field, args.check_deals)
        print(f"{rule_set:17s} {n_seats} seats: field policy vs strongest-back-first "
              f"{mean:+.3f} ± {se:.3f} units a deal ({args.check_deals} deals)")


if __name__ == "__main__":
    main()
