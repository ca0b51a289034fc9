"""The deals :func:`solver.solve` scores its candidates on: the unseen cards dealt to the
opponents (seeded), each opponent's setting, the held-out deals and adaptive batches.

A *deal* gives every opponent seat a hand of the unseen cards (the rule set's deck minus
the solver's own cards and the cut card): a uniformly random permutation of those
cards, the first ``cards_dealt`` to the first opponent, the next to the second, and so
on.  Each opponent sets its hand by the opponent policy (the default model's jitted
setter, another built-in policy, or a function called once per hand), or the caller
gives the opponents' settings directly (``opponents=``).  What comes back is an
:class:`Opponents`: the row values, fouls and declared automatic wins of every opponent
of every deal, which is all the settlement core needs.

Seeds: the deals of ``solve(..., seed=s)`` come from ``numpy.random.default_rng(s)``;
its held-out deals from :func:`holdout_seed` ``(s)``; adaptive sampling's batch ``b``
from :func:`batch_seed` ``(s, b)``.  All three are independent streams of
``SeedSequence(s)``, so the same arguments always give the same deals.

Solves of the 52-card rule sets (``pagat``, ``classic``) take their deals from a pool of
opponent hands set in advance instead (:mod:`solver.pool`, which says why those are
deals distributed exactly as dealt ones): heads-up the whole deal, at three or four
seats the first opponent's hand, the others dealt from the cards left.  :class:`Deals`
is a solve's source of deals, either way.

:func:`deal_hands` deals a whole table instead, every seat's hand and the cut card from
one seed: the deals of :func:`solver.arena.match`, of ``python3 -m solver deal`` and of
the study page.
"""
from __future__ import annotations

import functools
from collections import Counter
from typing import Callable, NamedTuple, Optional, Sequence

import numba
import numpy as np

from . import _progress
from . import pool as _pool
from ._checks import check_int, check_signature, function_name, is_int
from .autowin import special_finder, special_of, special_split
from .cards import (CardsLike, _plain_codes, card_name, deck_codes, format_cards,
                    parse_codes, to_codes)
from .policy import POLICY_NAMES, builtin_policy, set_hands
from .rows import _value_of_codes, bonus_rank_of, cut_taken
from .rules import ROWS, RuleSet, rule_set
from .scoring import AUTO_SURRENDER, fouls_playable, score_candidates, scoring_params
from .settle import _seat_codes
from .tables import RowTables, row_tables

Policy = Callable[[str, RuleSet, Optional[str]], Sequence]
# The fourth item of an opponent's setting (solve(..., opponents=...), sample_opponents):
# it declares its special hand, or surrenders (docs/rules.md#surrender).
DECLARE = "declare"
SURRENDER = "surrender"


class Hand(NamedTuple):
    """A validated hand to solve: its rule set and row tables, its card codes, the cut
    card and the number of seats.  A public function resolves its arguments into one
    (:func:`prepare_hand`) and hands it down: nothing below parses the cards or resolves
    the rule set or the cut card again.  The cut card comes as given (handed on to a
    policy function as the caller wrote it), as codes (out of play), as its name (None
    without one) and as its Bonus rank (-1 without one:
    :func:`solver.rows.bonus_rank_of`)."""
    rules: RuleSet
    tables: RowTables
    own: list
    cut: "str | int | None"
    cut_codes: list
    seats: int
    cut_name: Optional[str]
    bonus_rank: int


class Opponents(NamedTuple):
    """The opponents of S deals: ``vals[s, j]`` opponent j's three row values in deal s,
    ``fouled[s, j]`` whether it fouled, ``auto[s, j]`` its declared automatic win (0 or
    the special's code, :mod:`solver.autowin`'s ``KIND_*``) or its surrender
    (``solver.scoring.AUTO_SURRENDER``)."""
    vals: np.ndarray       # int32[S, n_opp, 3]
    fouled: np.ndarray     # bool[S, n_opp]
    auto: np.ndarray       # int8[S, n_opp]


def prepare_hand(cards: CardsLike, rules, cut, players, *, with_tables: bool = True) -> Hand:
    """The :class:`Hand` of solve-like calls, validated: a ``ValueError`` naming what is
    wrong otherwise.  ``with_tables=False``: its ``tables`` None (the cut card validated
    all the same), for a caller that builds them later (:func:`solver.solve`, from the
    hand's ``rules`` and ``bonus_rank``)."""
    rs = rule_set(rules)
    rank = bonus_rank_of(rs, cut)           # the cut card, before the cards
    tables = row_tables(rs, rank) if with_tables else None
    own = hand_codes(cards, rs)
    cut_codes = cut_codes_beside(own, rs, cut)
    n_seats = rs.max_seats if players is None else check_int("players", players)
    if n_seats not in rs.seats:
        raise ValueError(f"players={n_seats}: the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players")
    rs = rs.at_seats(n_seats)               # (its scoring at this table size)
    cut_name = card_name(cut_codes[0]) if cut_codes else None     # (either copy's name)
    return Hand(rs, tables, own, cut, cut_codes, n_seats, cut_name, rank)


def hand_codes(cards: CardsLike, rs: RuleSet) -> list[int]:
    """The codes of a hand of the rule set (:func:`prepare_hand`'s check of the cards)."""
    # Text of the common notation straight to the dict lookups that to_codes would end
    # in (quick_set, hand after hand: 0.3 µs of its 2 µs checking a hand); any other
    # text or form, and every error, the general way.
    own = _plain_codes(cards, rs) if type(cards) is str else None
    if own is None:
        own = to_codes(cards, rs)
    if len(own) != rs.cards_dealt:
        raise ValueError(f"the {rs.name} rule set deals {rs.cards_dealt} cards, "
                         f"not {len(own)}")
    return own


def cut_codes_beside(own: list[int], rs: RuleSet, cut) -> list[int]:
    """The cut card's codes (none without a cut card), the copy the hand ``own`` leaves
    free; a ``ValueError`` when the hand holds every copy of it.  ``cut`` is valid for
    the rule set (:func:`solver.rows.bonus_rank_of`)."""
    if not rs.cut_card:
        return []
    cut_text = cut if isinstance(cut, str) else card_name(int(cut))
    try:
        return parse_codes(cut_text, rs, set(parse_codes(format_cards(own), rs)))
    except ValueError as e:
        raise ValueError(f"the cut card {cut_text} and the hand: {e}") from None


# --- deals ------------------------------------------------------------------------------------
def unseen_cards(hand: Hand) -> list[int]:
    """The card codes the solver cannot see (a spade of the doubled decks twice when both
    copies are unseen)."""
    return _unseen(hand.rules, tuple(hand.own), tuple(hand.cut_codes))


@functools.lru_cache(maxsize=64)
def _unseen(rules: RuleSet, own: tuple, cut_codes: tuple) -> list[int]:
    own_canonical = set(parse_codes(format_cards(list(own)), rules))
    return [c for c in deck_codes(rules) if c not in own_canonical and c not in cut_codes]


def deal_unseen(hand: Hand, samples: int, seed: int) -> np.ndarray:
    """The opponents' hands of ``samples`` deals: card codes, (samples, seats - 1,
    cards_dealt), each deal a uniformly random permutation of the unseen cards: row s is
    row s of ``numpy.random.default_rng(seed).permuted(deck, axis=1)``, ``deck`` the
    unseen cards in every row, cut to the cards the opponents are dealt."""
    n_opp, dealt = hand.seats - 1, hand.rules.cards_dealt
    unseen = np.array(unseen_cards(hand), np.int64)
    order = _deal_order(seed, samples, len(unseen), n_opp * dealt)
    return unseen.take(order).reshape(samples, n_opp, dealt)


# A shuffle moves positions by its random draws alone, whatever the cards in them, so a
# deal is the unseen cards at positions that depend only on (seed, samples, how many
# cards are unseen).  Those positions are kept for small batches: every solve with the
# same seed (the default, seed=0, above all) draws its batches from the same few seeds,
# and shuffling is most of the time of dealing (benchmarks/README.md).
DEAL_ORDERS_KEPT = 64
DEAL_ORDER_CELLS = 1 << 17          # a kept order has at most this many positions (uint8)


def _deal_order(seed: int, samples: int, n_unseen: int, dealt: int) -> np.ndarray:
    """The positions, among ``n_unseen`` unseen cards, of the ``dealt`` cards of each of
    ``samples`` deals drawn from ``seed`` (not to be written to: it may be kept)."""
    if samples * n_unseen <= DEAL_ORDER_CELLS and n_unseen <= 256:
        return _kept_deal_order(seed, samples, n_unseen, dealt)
    return _shuffled_positions(seed, samples, n_unseen, dealt)


@functools.lru_cache(maxsize=DEAL_ORDERS_KEPT)
def _kept_deal_order(seed: int, samples: int, n_unseen: int, dealt: int) -> np.ndarray:
    """:func:`_shuffled_positions`, kept read-only, one byte a position."""
    order = _shuffled_positions(seed, samples, n_unseen, dealt).astype(np.uint8)
    order.flags.writeable = False
    return order


# Shuffling many deals is one numpy call per this many positions (about a tenth of a
# second), so that Ctrl+C, which a running call does not see, lands between them.
# ``permuted(axis=1)`` shuffles row after row from the one generator, so the rows come
# out the same whatever their grouping (tests/test_cli.py checks it).
SHUFFLE_CELLS = 1 << 22


def _shuffled_positions(seed: int, samples: int, n_unseen: int, dealt: int) -> np.ndarray:
    """The positions ``0..n_unseen-1`` in every row, shuffled as the cards used to be,
    the first ``dealt`` of each row."""
    positions = np.empty((samples, n_unseen), np.int64)
    positions[:] = np.arange(n_unseen)
    rng = np.random.default_rng(seed)
    rows = max(1, SHUFFLE_CELLS // n_unseen)
    for start in range(0, samples, rows):
        chunk = positions[start:start + rows]
        rng.permuted(chunk, axis=1, out=chunk)
    return np.ascontiguousarray(positions[:, :dealt])


# --- a whole table's deal ----------------------------------------------------------------------
# A random deal's seed: below this, short enough to type again (``python3 -m solver deal``
# and the study page draw one when none is given).
RANDOM_SEEDS = 2**31


def deal_hands(rs: RuleSet, n_seats: int, seed: int, index: int, cut=None):
    """Deal ``index`` of a match with ``seed``: (the seats' hands as texts, the cut card
    or None).  ``python3 -m solver deal --seed S`` shows deal 0.  ``cut``: the cut card
    to deal the rest around (``bonus``; default: drawn with the deal).  Every seat is
    dealt, the solver's own included: the deals of :func:`solver.arena.match`, of
    ``python3 -m solver deal`` and of the study page."""
    given = None if cut is None else min(cut_taken(rs, cut))     # validated for the rules
    rng = np.random.default_rng([seed, index])
    deck = np.array(deck_codes(rs), np.int64)
    if rs.cut_card:
        drawn = int(rng.integers(52))      # drawn even when given: the same stream after it
        cut_code = drawn if given is None else given
        cut = card_name(cut_code)
        deck = deck[deck != cut_code]
    cards = rng.permutation(deck)[:n_seats * rs.cards_dealt]
    hands = [format_cards([int(c) for c in cards[i * rs.cards_dealt:(i + 1) * rs.cards_dealt]])
             for i in range(n_seats)]
    return hands, cut


# --- seeds ------------------------------------------------------------------------------------
def holdout_seed(seed: int) -> int:
    """The seed of the held-out deals of ``solve(..., seed=seed)``: drawn from
    ``numpy.random.SeedSequence(seed).spawn``, so independent of the ``seed`` deals.
    ``sample_opponents(cards, rules, cut, samples=holdout, seed=seed, held_out=True)``
    are the opponents the held-out EV is measured against (for dealt deals, those of
    ``seed=holdout_seed(seed)``; a solve that reads the pool holds out pool deals).

    >>> holdout_seed(0) == holdout_seed(0) != holdout_seed(1)
    True
    """
    return _child_seed(check_int("seed", seed, 0), (0,))      # SeedSequence(seed).spawn(1)[0]


def resolve_seed(seed) -> int:
    """The seed a solve uses (and reports in ``Solution.seed``): an ``int`` >= 0 as it
    is; None, fresh entropy from the operating system; a ``numpy.random.Generator``, a
    number drawn from it (so it advances, as a generator should).

    >>> resolve_seed(7), resolve_seed(np.random.default_rng(0))
    (7, 5874934615388537135)
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2 ** 63, dtype=np.uint64))
    if not is_int(seed):
        raise ValueError(f"seed must be an integer >= 0, None (fresh entropy) or a "
                         f"numpy.random.Generator, not {seed!r} ({type(seed).__name__})")
    return check_int("seed", seed, 0)


def batch_seed(seed: int, batch: int) -> int:
    """The seed of adaptive sampling's batch ``batch`` (independent of the held-out
    deals, which are the first child of ``SeedSequence(seed)``)."""
    return _child_seed(seed, (1, batch))


@functools.lru_cache(maxsize=1024)
def _child_seed(seed: int, spawn_key: tuple) -> int:
    """The first 64-bit word of ``SeedSequence(seed, spawn_key=spawn_key)``'s state.
    Kept: making one takes 10-20 us, a solve asks for up to a dozen, and every solve with
    the default ``seed=0`` asks for the same ones."""
    return int(np.random.SeedSequence(seed, spawn_key=spawn_key).generate_state(1, np.uint64)[0])


# A solve keeps, per deal, the unseen cards three times as int64 (the tiled deck, its
# shuffle, the opponents' hands; dealt deals only, but counted always), the opponents'
# row values, row masks and flags, and one int32 score per candidate setting (a hand
# has from one to a few thousand: 2,555 for some classic hands).  Adaptive sampling
# also recomputes the candidates' paired differences in int64 when its reference
# changes: 16 bytes more per candidate and deal.
SAMPLE_MEMORY_LIMIT = 4 * 10**9          # bytes: refuse larger requests up front
SCORE_BYTES = 4
ADAPTIVE_SCORE_BYTES = SCORE_BYTES + 16


def check_memory(name: str, samples: int, rs: RuleSet, n_seats: int, candidates: int = 1,
                 *, adaptive: bool = False) -> None:
    """A ``ValueError`` naming ``name`` when ``samples`` deals, each scored for
    ``candidates`` settings (adaptive sampling: ``adaptive``), would not fit in
    ``SAMPLE_MEMORY_LIMIT`` bytes.  :func:`check_sampling` checks a request before
    anything is done, for one setting (the least a solve scores); :func:`solver.solve`
    again with the hand's own count of candidates, before it deals."""
    n_opp = n_seats - 1
    unseen = rs.deck_size - rs.cards_dealt - int(rs.cut_card)
    per_sample = (8 * (2 * unseen + n_opp * rs.cards_dealt) + n_opp * (3 * 4 + 3 * 8 + 2)
                  + (ADAPTIVE_SCORE_BYTES if adaptive else SCORE_BYTES) * candidates)
    if samples * per_sample > SAMPLE_MEMORY_LIMIT:
        gb = samples * per_sample / 1e9
        scored = (f" and the hand's {candidates:,} candidate settings" if candidates > 1
                  else "")
        raise ValueError(
            f"{name}={samples} would need about {gb:,.0f} GB of memory ({per_sample:,} "
            f"bytes a sample for {rs.name} with {n_seats} players{scored}); at most "
            f"{SAMPLE_MEMORY_LIMIT // per_sample} samples fit in "
            f"{SAMPLE_MEMORY_LIMIT / 1e9:g} GB")


def check_sampling(rs: RuleSet, n_seats: int, samples, seed, opponents=None, policy=None):
    """``(samples, seed, opponents, policy)`` of :func:`solver.solve` and
    :func:`sample_opponents`, validated: a ``ValueError`` naming the argument otherwise.

    ``opponents`` comes back as lists (its cards are checked later, sample by sample;
    ``samples``, if given with them, must be their number); ``policy`` comes back
    wrapped so that an exception it raises or a bad return value is a ``ValueError``
    naming the policy and the hand."""
    if opponents is None or samples is not None:
        samples = check_int("samples", samples, 1)
    seed = resolve_seed(seed)
    if opponents is None:
        check_memory("samples", samples, rs, n_seats)
    else:
        arrangement_is = "an arrangement is (front, middle, back), each row text or codes"
        if isinstance(opponents, str) or not hasattr(opponents, "__iter__"):
            raise ValueError(f"opponents must be a sequence of samples, each a sequence of "
                             f"arrangements (front, middle, back), not {opponents!r}")
        checked = []
        for s, sample in enumerate(opponents):
            if isinstance(sample, str) or not hasattr(sample, "__iter__"):
                raise ValueError(f"opponents: sample {s} must be a sequence of arrangements "
                                 f"(front, middle, back), one an opponent, not {sample!r}")
            sample = list(sample)
            for j, arrangement in enumerate(sample):
                rows = ([] if isinstance(arrangement, str) or not hasattr(arrangement, "__len__")
                        else list(arrangement))
                if len(rows) not in (3, 4) or not all(
                        isinstance(row, str) or is_int(row) or hasattr(row, "__iter__")
                        for row in rows[:3]):
                    raise ValueError(f"opponents: sample {s}: opponent {j}: {arrangement_is}, "
                                     f"not {arrangement!r}")
            checked.append(sample)
        opponents = checked
        if samples is not None and samples != len(opponents):
            raise ValueError(f"samples={samples} with opponents= of {len(opponents)} "
                             f"sample{'s' if len(opponents) != 1 else ''}: the opponents "
                             f"given are the samples (leave samples out)")
    if policy is not None and builtin_policy(policy, rs, n_seats, None) is None:
        if not callable(policy):
            raise ValueError(f"policy must be one of {', '.join(POLICY_NAMES)}, a TableModel "
                             f"or a function (hand, rules, cut) -> (front, middle, back), "
                             f"not {policy!r}")
        given = policy
        name = function_name(given)
        check_signature(given, f"policy {name}", "(hand, rules, cut)")

        def policy(hand, rules, cut):
            try:
                rows = given(hand, rules, cut)
            except Exception as e:
                raise ValueError(f"policy {name} failed on the hand {hand!r}: "
                                 f"{type(e).__name__}: {e}") from e
            try:
                _seat_codes([rows], rules)
            except ValueError as e:
                raise ValueError(f"policy returned {rows!r} for the hand {hand!r}: "
                                 f"{str(e).removeprefix('seat 0: ')}") from None
            return rows
    return samples, seed, opponents, policy


# --- the opponents' settings ----------------------------------------------------------------
def sampled_opponents(hand: Hand, samples: int, seed: int, policy) -> Opponents:
    """The :class:`Opponents` of ``samples`` deals of the unseen cards drawn from
    ``seed``, each opponent set by ``policy``."""
    rs, tables = hand.rules, hand.tables
    hands = deal_unseen(hand, samples, seed)
    fouled = np.zeros(hands.shape[:2], np.bool_)
    builtin = builtin_policy(policy, rs, hand.seats, hand.bonus_rank)
    if builtin is not None:
        kind, mt, field = builtin
        params = scoring_params(rs)
        vals, auto = _set_showing_progress(hands, lambda some: set_hands(
            some, tables, kind, mt, params, field, hand.seats, bool(rs.automatic_wins))[:2])
    else:
        vals, fouled = _policy_opponents(policy, hands, rs, hand.cut, tables)
        auto = np.zeros(hands.shape[:2], np.int8)
        if rs.automatic_wins and not rs.automatic_wins_declared:
            # Specials count however the policy set them: a hand holding one is it.
            special = special_finder(rs)                   # (looked up once)
            for s, j in np.ndindex(*hands.shape[:2]):
                auto[s, j] = special(hands[s, j])
            fouled &= auto == 0
    return Opponents(vals, fouled, auto)


# A call that sets at least this many opponent hands (seconds of work) shows a progress
# bar of them on stderr, where solver._progress.shown says so, and sets them this many at
# a time.
PROGRESS_HANDS = 100_000
PROGRESS_CHUNK_HANDS = 16_384


def _set_showing_progress(hands: np.ndarray, set_some):
    """``set_some(hands)``, which gives the row values and automatic-win codes of the
    opponents' ``hands`` (S, seats - 1, cards), with a progress bar when they are many.
    Each hand is set alone, so a part of them set on its own comes out the same."""
    S, n_opp = hands.shape[:2]
    if S * n_opp < PROGRESS_HANDS or not _progress.shown():
        return set_some(hands)
    vals = np.empty((S, n_opp, 3), np.int32)
    auto = np.empty((S, n_opp), np.int8)
    step = max(1, PROGRESS_CHUNK_HANDS // n_opp)
    with _progress.bar(None, S * n_opp, "opponent hands set", "hand") as bar:
        for start in range(0, S, step):
            part = slice(start, min(S, start + step))
            vals[part], auto[part] = set_some(hands[part])
            bar.update((part.stop - part.start) * n_opp)
    return vals, auto


def _policy_opponents(policy: Policy, hands: np.ndarray, rs: RuleSet, cut, tables):
    """Row values and fouls of hands set by a policy function: a fouled setting is
    played and scored where the rule set scores fouls (classic, pagat), an error where
    it cannot be played (joker, bonus)."""
    S, n_opp = hands.shape[:2]
    vals = np.zeros((S, n_opp, 3), np.int32)
    fouled = np.zeros((S, n_opp), np.bool_)
    for s in range(S):
        for j in range(n_opp):
            hand = format_cards([int(c) for c in hands[s, j]])
            rows = policy(hand, rs, cut)
            seat = _seat_codes([rows], rs)[0]
            given = Counter(card_name(c) for row in seat for c in row)
            if given - Counter(card_name(int(c)) for c in hands[s, j]):
                raise ValueError(f"policy set cards not in the hand {hand!r}: {rows!r}")
            vals[s, j] = [_value_of_codes(row, tables) for row in seat]
            if not (vals[s, j, 0] < vals[s, j, 1] <= vals[s, j, 2]):
                if not fouls_playable(rs):
                    raise ValueError(f"policy returned a fouled arrangement for {hand!r}: "
                                     f"{rows!r}; the {rs.name} rule set cannot play a foul")
                fouled[s, j] = True
    return vals, fouled


def given_opponents(opponents, hand: Hand) -> Opponents:
    """The :class:`Opponents` the caller gave (``solve(..., opponents=...)``), validated
    sample by sample with the solver's own cards and the cut card."""
    rs, tables, own, n_opp = hand.rules, hand.tables, hand.own, hand.seats - 1
    if len(opponents) == 0:
        raise ValueError("opponents= needs at least one sample")
    S = len(opponents)
    vals = np.zeros((S, n_opp, 3), np.int32)
    fouled = np.zeros((S, n_opp), np.bool_)
    auto = np.zeros((S, n_opp), np.int8)
    own_text = format_cards(own)
    for s, sample in enumerate(opponents):
        sample = list(sample)
        if len(sample) != n_opp:
            raise ValueError(f"sample {s}: {len(sample)} opponent arrangements, not {n_opp}")
        try:
            # Validate every card of the sample together with the solver's own cards.
            taken = set(parse_codes(own_text, rs)) | set(hand.cut_codes)
            for j, arrangement in enumerate(sample):
                if isinstance(arrangement, str) or len(arrangement) not in (3, 4):
                    raise ValueError(f"opponent {j}: an arrangement is (front, middle, back)")
                fourth = arrangement[3] if len(arrangement) == 4 else None
                declares = fourth == DECLARE
                surrenders = fourth == SURRENDER
                if fourth is not None and not ((declares and rs.automatic_wins)
                                               or (surrenders and rs.surrender_cost)):
                    raise ValueError(f"opponent {j}: a fourth item can only be 'declare', in "
                                     f"a rule set with automatic wins, or 'surrender', in "
                                     f"one with surrender, not {fourth!r}")
                rows = []
                cards = []
                for name, size, row in zip(ROWS, (3, 5, 5), arrangement[:3]):
                    text = row if isinstance(row, str) else format_cards(to_codes(row, rs))
                    try:
                        codes = parse_codes(text, rs, taken)
                    except ValueError as e:
                        raise ValueError(f"opponent {j} {name}: {e}") from None
                    if len(codes) != size:
                        raise ValueError(f"opponent {j}: the {name} has {size} cards, "
                                         f"not {len(codes)}")
                    rows.append(_value_of_codes(codes, tables))
                    cards += codes
                counts = rs.automatic_wins and not rs.automatic_wins_declared
                if declares or counts:
                    kind = special_of(cards, rs)
                    if kind == 0 and declares:
                        raise ValueError(f"opponent {j}: declared an automatic win its "
                                         f"cards do not hold")
                    if kind:      # (a special that counts automatically, declared or not,
                        auto[s, j] = kind                  # surrendered or not)
                        continue
                if surrenders:
                    auto[s, j] = AUTO_SURRENDER
                    continue
                vals[s, j] = rows
                fouled[s, j] = not (rows[0] < rows[1] <= rows[2])
                if fouled[s, j] and not fouls_playable(rs):
                    raise ValueError(f"opponent {j}: fouled arrangement; the {rs.name} "
                                     f"rule set requires Front < Middle <= Back")
        except ValueError as e:
            raise ValueError(f"sample {s}: {e}") from None
    return Opponents(vals, fouled, auto)


def sample_opponents(cards: CardsLike, rules: "str | RuleSet", cut: "str | int | None" = None,
                     *, samples: int = 1000, seed: int = 0, players: Optional[int] = None,
                     pool: Optional[bool] = None, held_out: bool = False,
                     policy=None):
    """The opponents' settings :func:`solver.solve` plays against with the same arguments
    and the default policy (``policy``: or a built-in one, as for :func:`solver.solve`):
    one list per sample of ``(front, middle, back)`` texts, with a
    fourth item ``"declare"`` for an opponent declaring an automatic win (``classic``; its
    rows the 13 cards that make it) or ``"surrender"`` for one that surrenders (its rows
    the setting it would have played; docs/rules.md#surrender).

    ``solve(cards, rules, cut, opponents=sample_opponents(...))`` gives the same answer as
    ``solve(cards, rules, cut, samples=..., seed=...)`` with those sampling arguments
    (``pool`` as for :func:`solver.solve`; ``pagat`` and ``classic`` take their deals
    from :mod:`solver.pool`).  ``held_out=True``: the held-out deals of that solve
    instead, the first ``samples`` of them.
    """
    hand = prepare_hand(cards, rules, cut, players)
    rs, n_seats = hand.rules, hand.seats
    samples, seed, _, _ = check_sampling(rs, n_seats, samples, seed)
    if policy is not None and builtin_policy(policy, rs, n_seats, None) is None:
        raise ValueError(f"sample_opponents takes a built-in policy "
                         f"({', '.join(POLICY_NAMES)} or a TableModel), not {policy!r}")
    deals = Deals(hand, seed, policy, pool, 0 if held_out else samples)
    if deals.held_out_pooled(samples) if held_out else deals.pooled:
        hands, masks, _, auto = deals.hands(samples, held_out=held_out)
    else:
        hands = deal_unseen(hand, samples, holdout_seed(seed) if held_out else seed)
        kind, mt, field = builtin_policy(policy, rs, n_seats, hand.bonus_rank)
        _, auto, masks = set_hands(hands, hand.tables, kind, mt, scoring_params(rs), field,
                                   n_seats, bool(rs.automatic_wins))
    out = []
    for s in range(samples):
        sample = []
        for j in range(n_seats - 1):
            cards_j = [int(c) for c in hands[s, j]]
            if auto[s, j] and auto[s, j] != AUTO_SURRENDER:
                front, middle, back, _ = special_split(int(auto[s, j]), cards_j, rs)
                sample.append((format_cards(front), format_cards(middle),
                               format_cards(back), DECLARE))
                continue
            rows = tuple(format_cards([cards_j[p] for p in range(len(cards_j))
                                       if masks[s, j, r] >> p & 1]) for r in range(3))
            sample.append(rows + ((SURRENDER,) if auto[s, j] == AUTO_SURRENDER else ()))
        out.append(sample)
    return out


# --- a solve's deals: dealt, or from the pool -------------------------------------------------
def use_pool(hand: Hand, policy, pool, deals: int, limit: int = _pool.MAX_DEALS) -> bool:
    """Whether ``deals`` deals of a solve of ``hand`` with ``policy`` come from the pool
    (:mod:`solver.pool`).  ``pool``: None, where the pool applies (a 52-card rule set,
    the shipped model, compiled kernels: not with ``NUMBA_DISABLE_JIT=1``) and they are
    at most ``limit``; True, the same or a ``ValueError`` saying why not; False, dealt
    deals."""
    if pool is not None and not isinstance(pool, (bool, np.bool_)):
        raise ValueError(f"pool must be None (where it applies), True or False, not {pool!r}")
    if pool is not None and not pool:
        return False
    if pool is None and numba.config.DISABLE_JIT:
        return False          # (plain Python would take minutes to set a chunk of hands)
    applies = _pool.applies(hand.rules, hand.seats, policy)
    if pool and not applies:
        raise ValueError(f"pool=True: the pool holds hands of the 52-card rule sets set "
                         f"by the shipped model, not of {hand.rules.name} with policy "
                         f"{policy!r}")
    if pool and deals > limit:
        raise ValueError(f"pool=True with {deals} deals: the pool gives a solve at most "
                         f"{limit}")
    return applies and deals <= limit


class Deals:
    """Where a solve's deals come from, for a solve of at most ``cap`` deals (``pool``:
    as for :func:`use_pool`).  ``fixed(n)``: the deals of ``samples=n``; ``batch(b, n)``:
    adaptive batch ``b``; ``held_out(n)``: the held-out deals.  ``pooled``: whether the
    first two come from the pool, decided once by ``cap`` (never by the held-out deals,
    which do not change the choice); dealt, from the seeds :func:`batch_seed` and
    ``seed`` name.  From the pool, the fixed deals and the batches come one after the
    other from the seed's stream through the pool (:func:`solver.pool.streams`; so
    adaptive sampling's deals are the first deals of ``samples=N``), each call giving
    the next ones.  The held-out deals come from the seed's other stream where it
    applies and they are at most ``solver.pool.MAX_HELD_OUT``, else dealt from
    :func:`holdout_seed` (either way independent of the deals that chose).  Each is an
    :class:`Opponents`."""

    def __init__(self, hand: Hand, seed: int, policy, pool: Optional[bool], cap: int):
        self.hand, self.seed, self.policy, self.pool = hand, seed, policy, pool
        self.pooled = use_pool(hand, policy, pool, cap)
        self._streams = None

    def _stream(self, held_out: bool) -> "_pool.Stream":
        if self._streams is None:
            self._streams = _pool.streams(self.hand.rules, self.hand.seats, self.hand.tables,
                                          self.hand.own, self.seed)
        return self._streams[1 if held_out else 0]

    def held_out_pooled(self, n: int) -> bool:
        """Whether ``held_out(n)`` reads the pool."""
        return use_pool(self.hand, self.policy, self.pool, n, _pool.MAX_HELD_OUT)

    def fixed(self, n: int) -> Opponents:
        if self.pooled:
            return _pooled(self._stream(False).take(n))
        return sampled_opponents(self.hand, n, self.seed, self.policy)

    def batch(self, b: int, n: int) -> Opponents:
        if self.pooled:
            return _pooled(self._stream(False).take(n))
        return sampled_opponents(self.hand, n, batch_seed(self.seed, b), self.policy)

    def held_out(self, n: int) -> Opponents:
        if self.held_out_pooled(n):
            return _pooled(self._stream(True).take(n))
        return sampled_opponents(self.hand, n, holdout_seed(self.seed), self.policy)

    def hands(self, n: int, held_out: bool = False) -> "_pool.PoolDeals":
        """The next ``n`` (fixed or held-out) pool deals, with the opponents' cards."""
        return self._stream(held_out).take(n)


def _pooled(deals: "_pool.PoolDeals") -> Opponents:
    """The :class:`Opponents` of deals from the pool."""
    return Opponents(deals.vals, np.zeros(deals.auto.shape, np.bool_), deals.auto)


# --- adaptive sampling ----------------------------------------------------------------------
# The first batch: this many opponent hands' worth of deals (64 deals heads-up, 22 at
# four seats, where each deal compares three opponents); a 95% confidence interval's z;
# how many standard errors a rival must lead the anchor by for the choice to leave it.
ADAPTIVE_FIRST_HANDS = 64
Z95 = 1.96
DEPART_Z = 1.0


def first_batch(seats: int) -> int:
    """The deals of adaptive sampling's first batch at a table of ``seats``."""
    return -(-ADAPTIVE_FIRST_HANDS // (seats - 1))


def batch_sizes(cap: int, first: int):
    """Adaptive sampling's batches: ``first``, then as many deals as all the earlier ones
    (so the deals double), the last cut to the cap.

    >>> list(batch_sizes(1000, 64))
    [64, 64, 128, 256, 488]
    """
    used = 0
    while used < cap:
        size = min(cap - used, max(first, used))
        yield size
        used += size


def adaptive_scores(hand: Hand, deals: Deals, cand_vals: np.ndarray, params: np.ndarray, *,
                    precision: float, cap: int, anchor: Optional[int] = None,
                    first: Optional[Opponents] = None,
                    minimum: int = 0) -> "AdaptiveScores":
    """Adaptive sampling (see :func:`solver.solve`'s ``precision``): deals come in batches
    (:func:`batch_sizes`, batch ``b`` from ``deals.batch(b, size)``; ``first``: the first
    batch's opponents, if already drawn) and only the candidates still in the running are
    scored on each.

    Every rival is compared, deal by deal, with a *reference*: candidate ``anchor``
    (the opponent model's own setting of the hand) or, without one, the current leader.
    A rival leaves the running when the 95% confidence interval of its paired difference
    from the reference lies below 0; sampling stops when every rival left has that
    interval's half-width at most ``precision`` and ``minimum`` deals are used, or at
    ``cap`` deals.  (One deal has no standard error: it shows no rival worse.)

    The paired differences are kept as integer sums (:func:`paired_statistics`), added
    to batch by batch while the reference stays the same, so a batch costs only its own
    deals' arithmetic."""
    K = len(cand_vals)
    n_opp = hand.seats - 1
    scores = np.zeros((K, cap), np.int32)
    vals = np.zeros((cap, n_opp, 3), np.int32)
    fouled = np.zeros((cap, n_opp), np.bool_)
    auto = np.zeros((cap, n_opp), np.int8)
    scored = np.zeros(K, np.int64)
    totals = np.zeros(K, np.int64)               # each candidate's score, summed
    sums = np.zeros(K, np.int64)                 # its differences from the reference, summed
    squares = np.zeros(K, np.int64)              # and their squares
    ref = -1
    alive = np.arange(K)
    mean = stderr = np.zeros(K)
    used = 0
    for batch, size in enumerate(batch_sizes(cap, first_batch(hand.seats))):
        new = slice(used, used + size)
        drawn = first if batch == 0 and first is not None else deals.batch(batch, size)
        vals[new], fouled[new], auto[new] = drawn
        block = score_candidates(cand_vals[alive], 0, vals[new], fouled[new], auto[new],
                                 params)
        scores[alive, new] = block
        totals[alive] += block.sum(axis=1)
        # (A leader's mean over the deals used is its total over them, divided alike.)
        leader = anchor if anchor is not None else int(alive[np.argmax(totals[alive])])
        if leader == ref:                       # the new deals' differences only
            diff = block.astype(np.int64) - block[np.flatnonzero(alive == ref)[0]]
        else:                                   # a new reference: every deal so far
            diff = (scores[alive, :used + size].astype(np.int64)
                    - scores[leader, :used + size])
            sums[alive] = squares[alive] = 0
            ref = leader
        sums[alive] += diff.sum(axis=1)
        squares[alive] += (diff * diff).sum(axis=1)
        used += size
        scored[alive] = used
        if used < 2:
            continue
        mean, stderr = paired_statistics(sums[alive], squares[alive], used)
        half = Z95 * stderr
        keep = mean + half >= 0                 # not yet shown to be worse
        alive, mean, stderr = alive[keep], mean[keep], stderr[keep]
        if np.all(half[keep] <= precision) and used >= minimum:
            break
    return AdaptiveScores(scores[:, :used], scored, alive,
                          Opponents(vals[:used], fouled[:used], auto[:used]), mean, stderr)


class AdaptiveScores(NamedTuple):
    """What :func:`adaptive_scores` returns: ``scores[k, s]`` (candidate k on deal s, 0
    where it was not scored), ``scored[k]`` (the deals it was scored on, a prefix of
    them), ``running`` (the candidates still in the running), the :class:`Opponents` of
    every deal used, and each running candidate's paired difference from the reference
    over the deals used: ``diff_means`` and ``diff_stderrs`` (zeros after one deal)."""
    scores: np.ndarray
    scored: np.ndarray
    running: np.ndarray
    opponents: Opponents
    diff_means: np.ndarray
    diff_stderrs: np.ndarray


def paired_statistics(sums: np.ndarray, squares: np.ndarray, n: int):
    """(means, standard errors of the means) of paired differences over ``n`` >= 2
    deals, from their sums and their squares' sums (integers, int64).  The variance
    ``(n squares - sums**2) / (n (n - 1))`` has an exact integer numerator, so
    differences that never vary have a standard error of exactly 0, as the two-pass
    formula gives them (and no cancellation below 0).  Where ``n squares`` would not fit
    in 64 bits, the numerator is computed with Python's integers."""
    if squares.size and int(squares.max()) > np.iinfo(np.int64).max // n:
        spread = np.array([n * int(q) - int(s) * int(s) for s, q in zip(sums, squares)],
                          np.float64)
    else:
        spread = (n * squares - sums * sums).astype(np.float64)
    return sums / n, np.sqrt(spread / (n * (n - 1.0))) / np.sqrt(n)


def anchor_setting(hand: Hand, policy) -> Optional[np.ndarray]:
    """The row values of the setting a built-in opponent ``policy`` makes with the
    solver's own hand (for the default model: :func:`solver.quick_set`'s); None for a
    policy function, whose setting of this hand is not a prior worth keeping."""
    rs, tables = hand.rules, hand.tables
    builtin = builtin_policy(policy, rs, hand.seats, hand.bonus_rank)
    if builtin is None:
        return None
    kind, mt, field = builtin
    # By the kernel that sets the opponents' hands (one hand of one deal): a first solve
    # has just compiled it.
    codes = np.array(hand.own, np.int64).reshape(1, 1, -1)
    vals, _, _ = set_hands(codes, tables, kind, mt, scoring_params(rs), field, hand.seats,
                           False)
    return vals[0, 0]
