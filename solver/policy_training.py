"""Rebuild the default opponent model by self-play: ``python -m solver.policy_training``.

Fictitious play.  Round 0 deals random hands and sets them strongest-back-first; its
rows are the first field.  Each later round t fits the table setter
(:func:`solver.model.table_kernel`) to the current field, lets it set the hands of new
deals, and moves the field toward those rows by 2 / (t + 2) -- so the field is an
average of the rounds' play in which round t weighs t + 1 (the naive first rounds fade
faster than in a plain average), and the setter a best response (under the model's
estimate) to that average.  Every deal and every step is seeded: the same arguments
rebuild the same files, bit for bit.

``bonus`` fields are kept per Bonus rank (the Bonus categories exist only for the cut
rank, and cutting a rank thins it), each fitted on the deals cut with that rank.  Where
the rule set's model groups hands by their cards (:func:`solver.model.group_key`: the
jokers held, or in the western scheme the high-card points, cut into groups on the first
round's hands), a field is kept for each group: the rows of the other hands of the
deals a hand of that group is in, since the cards it holds are cards they do not.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from .cards import deck_codes
from .model import (DATA, Field, TableModel, field_from_rows, group_key, mix_fields,
                    model_file, model_seats, model_tables, save_fields)
from .policy import (POLICY_SBF, POLICY_TABLE, field_policy, set_hands,
                     strongest_back_first)
from .rows import tables_for
from .rules import RuleSet, rule_set as _rules
from .scoring import scoring_params
from .search import cards_of_mask
from .kernels import ordinal3, ordinal5
from .tables import row_tables

# (rule set, seats) of every model the library ships, with the seat count each was trained
# at (its file's meta): ``python -m solver.policy_training`` rebuilds them all.  One file
# serves every seat count whose best settings do not depend on it (solver.model.model_seats).
TRAINING = [("joker", 4), ("bonus", 4), ("pagat", 2), ("classic", 2), ("classic:eastern", 2),
            ("classic:mandarin", 2), ("classic:mandarin", 4), ("classic-1-6", 4),
            ("two-jokers", 4), ("shisanshui", 3), ("shisanshui", 4), ("mau-binh", 2),
            ("mau-binh", 3), ("mau-binh", 4), ("capsa-susun", 2), ("capsa-susun", 3),
            ("capsa-susun", 4), ("pusoy", 4)]
ROUNDS = 12
DEALS = 20000            # deals a round (four hands each); bonus: spread over 13 ranks
HANDS_A_DEAL = 4         # every rule set deals four hands of its size from its deck


def deal_round(rs: RuleSet, deals: int, rng: np.random.Generator):
    """``deals`` random deals of four hands: (hands (D, 4, dealt), Bonus rank (D,), -1
    where the rule set has no cut card).  Four hands of 13 from the 52-card pack are as
    good a sample of the field as the two or three a smaller table deals."""
    deck = np.array(deck_codes(rs), np.int64)
    n = rs.cards_dealt * HANDS_A_DEAL
    ranks = np.full(deals, -1, np.int64)
    hands = np.empty((deals, HANDS_A_DEAL, rs.cards_dealt), np.int64)
    for d in range(deals):
        cards = deck
        if rs.cut_card:
            cut = int(rng.integers(52))                    # a real card of the first 52
            ranks[d] = cut % 13
            cards = deck[deck != cut]
        hands[d] = rng.permutation(cards)[:n].reshape(HANDS_A_DEAL, rs.cards_dealt)
    return hands, ranks


# Deals set by one call of the kernel: a fraction of a second, so that a Ctrl+C (which a
# running kernel does not see) stops training soon, and progress moves.
CHUNK_DEALS = 1000


def _set_in_chunks(hands, t, kind, mt, params, field, n_seats, detect_auto, on_deals):
    """(row values, automatic-win codes) of ``hands`` set by policy ``kind``, CHUNK_DEALS
    deals at a time: the same as one call gives, since each hand is set alone."""
    vals = np.empty(hands.shape[:2] + (3,), np.int32)
    auto = np.empty(hands.shape[:2], np.int8)
    for start in range(0, len(hands), CHUNK_DEALS):
        part = slice(start, min(len(hands), start + CHUNK_DEALS))
        vals[part], auto[part], _ = set_hands(hands[part], t, kind, mt, params, field,
                                              n_seats, detect_auto)
        if on_deals is not None:
            on_deals(part.stop - part.start)
    return vals, auto


def _round_rows(vals: np.ndarray, auto: np.ndarray):
    """The played rows of a round (declared hands are not compared) and, over pairs of
    hands of the same deal, how often one loses no row to the other and wins every row."""
    played = auto == 0
    rows = vals[played]
    scoop = sweep = pairs = 0
    for a in range(HANDS_A_DEAL):
        for b in range(HANDS_A_DEAL):
            if a == b:
                continue
            both = played[:, a] & played[:, b]
            pairs += both.sum()
            scoop += ((vals[:, a] >= vals[:, b]).all(-1) & both).sum()
            sweep += ((vals[:, a] > vals[:, b]).all(-1) & both).sum()
    return rows, scoop / pairs, sweep / pairs


def _round_fields(vals: np.ndarray, auto: np.ndarray, held: np.ndarray,
                  groups: int) -> "tuple[Field, ...]":
    """The fields of a round, one a group (:class:`solver.model.GroupKey`): group g's
    is what a hand of group g (``held``, (D, HANDS_A_DEAL); ``groups - 1`` or more in
    the last group) meets: the rows of the other hands of the deals it is in, and
    how often one of those others loses no row to another of them, and wins every row.
    One group: the rows of every hand (:func:`_round_rows`).  A group no hand of the
    round was in gets the round's field of every hand."""
    rows, q_scoop, q_sweep = _round_rows(vals, auto)
    everyone = field_from_rows(rows, q_scoop=q_scoop, q_sweep=q_sweep)
    if groups == 1:
        return (everyone,)
    played = auto == 0
    group = np.minimum(held, groups - 1)
    out = []
    for g in range(groups):
        met, scoop, sweep, pairs = [], 0, 0, 0
        for a in range(HANDS_A_DEAL):
            here = group[:, a] == g
            others = [b for b in range(HANDS_A_DEAL) if b != a]
            for b in others:
                met.append(vals[here & played[:, b], b])
                for c in others:
                    if c == b:
                        continue
                    both = here & played[:, b] & played[:, c]
                    pairs += both.sum()
                    scoop += ((vals[:, b] >= vals[:, c]).all(-1) & both).sum()
                    sweep += ((vals[:, b] > vals[:, c]).all(-1) & both).sum()
        met = np.concatenate(met)
        out.append(field_from_rows(met, q_scoop=scoop / pairs, q_sweep=sweep / pairs)
                   if len(met) and pairs else everyone)
    return tuple(out)


def self_play(rule_set: "str | RuleSet", n_seats: int, *, rounds: int = ROUNDS,
              deals: int = DEALS, seed: int = 0, log=None, each_round=None,
              on_deals=None, grouping=None) -> TableModel:
    """The model after ``rounds`` rounds of fictitious play (see the module docstring);
    its fields are keyed by Bonus rank (-1 where the rule set has none), one a group of
    its key (the model's ``key``: ``grouping(hands)`` of the first round's hands, by
    default :func:`solver.model.group_key`; benchmarks/grouped_model.py tries others).
    ``each_round(r, model)``, if given, sees the model after round r (r = 0..rounds):
    the same as ``self_play(..., rounds=r)`` gives, since each round is seeded alone.
    ``on_deals(n)``, if given, hears of every ``n`` deals set (``(rounds + 1) * deals``
    in all), at most CHUNK_DEALS at a time."""
    rs = _rules(rule_set).at_seats(n_seats)
    params = scoring_params(rs)
    ranks_used = range(13) if rs.cut_card else [-1]
    dummy_field = np.zeros((1, n_seats - 1, 3), np.int32)
    fields: dict[int, tuple[Field, ...]] = {}
    for rnd in range(rounds + 1):
        start = time.perf_counter()
        rng = np.random.default_rng([seed, rnd])
        hands, ranks = deal_round(rs, deals, rng)
        if rnd == 0:
            key = group_key(rs, hands) if grouping is None else grouping(hands)
        held = key.of(hands)
        new: dict[int, tuple[Field, ...]] = {}
        for rank in ranks_used:
            pick = ranks == rank
            t = row_tables(rs, rank)
            if rnd == 0:
                kind, mt = POLICY_SBF, model_tables(_flat_field(), rs, t, n_seats)
            else:
                kind, mt = POLICY_TABLE, model_tables(fields[rank], rs, t, n_seats, key)
            vals, auto = _set_in_chunks(hands[pick], t, kind, mt, params, dummy_field,
                                        n_seats, bool(rs.automatic_wins), on_deals)
            new[rank] = _round_fields(vals, auto, held[pick], key.groups)
        fields = new if rnd == 0 else {
            r: tuple(mix_fields(old, now, 2.0 / (rnd + 2)) for old, now in zip(fields[r], new[r]))
            for r in ranks_used}
        if log:
            log(f"{rs.name} {n_seats} seats: round {rnd} ({time.perf_counter() - start:.1f} s)")
        if each_round is not None:
            each_round(rnd, TableModel(rs, n_seats, fields,
                                       name=f"self-play {rnd} rounds x {deals} deals", key=key))
    return TableModel(rs, n_seats, fields, name=f"self-play {rounds} rounds x {deals} deals",
                      key=key)


def _flat_field() -> Field:
    """A placeholder field for the rounds that do not use the tables."""
    one = np.array([0], np.int64)
    w = np.array([1.0])
    return Field((one, one, one), (w, w, w), 0.0, 0.0)


def train(rule_set: str, n_seats: int, *, rounds: int = ROUNDS, deals: int = DEALS,
          seed: int = 0, out: "Path | None" = None, log=None) -> Path:
    """Self-play one rule set and seat count and write its file (to ``out``, by default
    ``solver/data/``, where :meth:`solver.TableModel.shipped` reads it); returns the path."""
    rs = _rules(rule_set).at_seats(n_seats)
    model = self_play(rs, n_seats, rounds=rounds, deals=deals, seed=seed, log=log)
    path = model_file(rs, model_seats(rs, n_seats))
    if out is not None:
        path = Path(out) / path.name
    save_fields(path, model.fields,
                dict(rules=rs.name, seats=n_seats, rounds=rounds, deals=deals, seed=seed),
                model.key)
    return path


# --- the model it replaced (kept to compare with) --------------------------------------------
FIELD_DEALS = 16


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


def train_field_policy(rule_set: str, n_seats: int, rounds: int = 3, seed: int = 0) -> np.ndarray:
    """The reference field of the previous default policy (:func:`field_policy`)."""
    rs = _rules(rule_set).at_seats(n_seats)
    params = scoring_params(rs)
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


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", metavar="RULES:SEATS",
                        help="rebuild only these (e.g. classic:2 joker:4)")
    parser.add_argument("--out", type=Path, default=DATA,
                        help="folder for the files (default: the package's data folder)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = TRAINING
    if args.only:
        wanted = [(r, int(s)) for r, s in (w.rsplit(":", 1) for w in args.only)]
    for rule_set, n_seats in wanted:
        path = train(rule_set, n_seats, rounds=args.rounds, deals=args.deals, seed=args.seed,
                     out=args.out, log=print)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
