"""Lookup tables for row values, built once per rule set in plain, readable Python.

How a row is looked up (the kernels in :mod:`solver.kernels` do exactly this):

* every card code has one integer *word* (``card_word``): its *rank key* shifted left by
  :data:`solver.kernels.SUIT_BITS`, plus a 4-bit count field per suit holding 1 in the
  card's own suit (a joker: the key :data:`JOKER_KEY` and 1 in every suit field);
* a row's word is the sum of its cards' words.  Above the suit fields it holds the row's
  *key*, the sum of its rank keys, which identifies the multiset of ranks and the number
  of jokers (the keys were chosen greedily so that every multiset of up to five ranks,
  each at most five times, plus up to three jokers, has its own sum).  The suit fields
  count the cards of each suit, a joker in every suit, so a five-card row is *suited*
  (its real cards share one suit: it may be a flush) exactly when a field holds 5;
* a deck's rows have few keys (6,176 in the standard deck, 8,554 with jokers) spread over
  0..630,183, so they are packed by *row displacement* (Tarjan and Yao): the key range is
  cut into blocks of ``2 ** ROW_SHIFT`` keys, and block ``b`` starts at ``disp[b]`` of a
  short array, chosen so that the blocks, overlaid, put all keys on distinct *positions*:
  ``position = disp[key >> ROW_SHIFT] + (key & (2 ** ROW_SHIFT - 1))``;
* ``ordinal = ord5[suited, position]`` (or ``ord3[position]`` for a Front), and
  ``value = values[ordinal]``; ``value5[suited, position]`` holds a five-card row's value
  itself (one lookup fewer, for :func:`solver.kernels.values5`).

Positions number 7,097 (standard deck) to 9,366 (``joker``), so the tables a random row
touches (``disp``, 7-10 KB, and one half of ``value5`` or ``ord5``, 14-37 KB) stay in the
fastest caches; indexing by the key sum itself (472,726 entries of a layer per joker
count) took about 1 MB a layer and kept missing them.

Everything hard about a row -- the best replacement of each joker with no card more than
twice in the row, paired flushes, joker fives, bonus categories -- is settled here, once,
when the table is built.  A row's **value** is one integer on the single scale of
docs/rules.md#the-ladder: ``category << 20`` plus five 4-bit tie-break digits, highest
first, where a digit is ``rank + 1`` and 0 means "no card" (so a Front's missing kicker is
below any card).  The **ordinal** is the value's position among all values the rule set
can make (dense, 1-based, 0 = no such row) and orders the same way.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
from pathlib import Path
from typing import NamedTuple, Optional

import numpy as np

from ._cache import cache_dir, load_arrays, save_arrays
from .cards import FIRST_JOKER, N_CODES, code_rank, code_suit
from .kernels import ROW_SHIFT, SUIT_BITS
from .rules import CATEGORIES, CATEGORY_INDEX as C, RuleSet, rule_set as _rules

RANK_KEYS = (0, 1, 6, 31, 108, 366, 926, 2286, 5733, 12905, 27316, 44676, 94545)
# A joker's key, as if it were a 14th rank: the smallest above the ace's that keeps every
# row's key distinct, with up to three jokers.
JOKER_KEY = 147031
CATEGORY_SHIFT = 20
MAX_COPIES_OF_A_CARD = 2        # docs/rules.md#jokers: no card more than twice in a row


class RowTables(NamedTuple):
    """The arrays the row kernels take (see the module docstring)."""
    card_word: np.ndarray      # int64[68]: rank key << SUIT_BITS | a 4-bit count per suit
    disp: np.ndarray           # uint16[max key >> ROW_SHIFT + 1]: each block's offset
    ord5: np.ndarray           # uint16[2, n_positions]: [suited, position] -> ordinal
    ord3: np.ndarray           # uint16[n_positions]: position -> ordinal of a Front
    value5: np.ndarray         # int32[2, n_positions]: [suited, position] -> value, or -1
    values: np.ndarray         # int32[n_ordinals + 1]: ordinal -> value; values[0] = -1


def placeholder_tables() -> RowTables:
    """Row tables of the right types and no content: every rule set's tables have these
    types, so a kernel compiled for them (``dispatcher.compile(signature)``, which runs
    nothing) serves every rule set.  :mod:`solver._warmup` compiles the search from them
    without waiting for a first run's tables to be built (tests/test_tables.py checks
    that the types are the real tables')."""
    return RowTables(np.zeros(1, np.int64), np.zeros(1, np.uint16), np.zeros((2, 1), np.uint16),
                     np.zeros(1, np.uint16), np.zeros((2, 1), np.int32), np.zeros(1, np.int32))


def make_value(category: int, digits: tuple[int, ...] = ()) -> int:
    """Pack a category index and up to five tie-break digits into a row value."""
    assert len(digits) <= 5
    v = category
    for i in range(5):
        v = (v << 4) | (digits[i] if i < len(digits) else 0)
    return v


def value_category(value: int) -> int:
    return value >> CATEGORY_SHIFT


def category_name(value: int) -> str:
    """The canonical name of a row value's category (the value is not checked: see
    :class:`solver.RowValue` for that)."""
    return CATEGORIES[value_category(value)]


def value_digits(value: int) -> tuple[int, ...]:
    """The five tie-break digits of a value (rank + 1, or 0 for no card)."""
    return tuple((value >> (16 - 4 * i)) & 15 for i in range(5))


def _ranks_digits(ranks) -> tuple[int, ...]:
    return tuple(r + 1 for r in ranks)


def _straight_top(distinct_desc: tuple[int, ...]) -> Optional[int]:
    """Top rank of the five distinct ranks if they form a straight (wheel: top 5)."""
    if len(distinct_desc) != 5:
        return None
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if distinct_desc == (12, 3, 2, 1, 0):      # A-5-4-3-2: the ace plays low
        return 3
    return None


@functools.lru_cache(maxsize=None)
def natural_value(ranks: tuple[int, ...], suited: bool, bonus_rank: int) -> int:
    """Value of a row of real cards (no jokers), given as sorted rank indices.

    ``suited``: all five cards are of one suit (two equal ranks are then two identical
    cards: a paired flush).  ``bonus_rank``: the Bonus rank (``bonus``), or -1.
    """
    counts = {r: ranks.count(r) for r in set(ranks)}
    # Groups: biggest count first, then highest rank; kickers follow highest first.
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    top_rank, top_count = groups[0]
    by_group = tuple(r for r, n in groups for _ in range(n))  # e.g. 9 9 9 K 4

    def with_bonus(plain: str, bonus: str) -> int:
        return C[bonus] if top_rank == bonus_rank else C[plain]

    if len(ranks) == 3:                     # a Front: no straights, no flushes
        if top_count == 3:
            return make_value(with_bonus("trips", "bonus_trips"), (top_rank + 1,))
        if top_count == 2:
            return make_value(C["pair"], _ranks_digits((top_rank, groups[1][0])))
        return make_value(C["high_card"], _ranks_digits(by_group))

    distinct_desc = tuple(sorted(counts, reverse=True))
    straight = _straight_top(distinct_desc)
    if top_count == 5:
        return make_value(C["natural_five"], (top_rank + 1,))
    if suited:
        # One suit can hold a card at most twice (two spade sets; a joker copying a
        # card), so a suited row is a straight flush, a paired flush or a flush.
        if straight is not None:
            return make_value(C["straight_flush"], (straight + 1,))
        pairs = [r for r, n in groups if n == 2]
        if pairs:
            singles = [r for r, n in groups if n == 1]
            return make_value(C["paired_flush"], (len(pairs),) + _ranks_digits(pairs + singles))
        return make_value(C["flush"], _ranks_digits(distinct_desc))
    if top_count == 4:
        return make_value(with_bonus("quads", "bonus_quads"),
                          _ranks_digits((top_rank, groups[1][0])))
    if top_count == 3 and groups[1][1] == 2:
        return make_value(with_bonus("full_house", "bonus_full_house"),
                          _ranks_digits((top_rank, groups[1][0])))
    if straight is not None:
        return make_value(C["straight"], (straight + 1,))
    if top_count == 3:
        return make_value(with_bonus("trips", "bonus_trips"),
                          _ranks_digits((top_rank,) + tuple(r for r, _ in groups[1:])))
    if top_count == 2 and groups[1][1] == 2:
        return make_value(C["two_pair"], _ranks_digits((top_rank, groups[1][0], groups[2][0])))
    if top_count == 2:
        return make_value(C["pair"], _ranks_digits((top_rank,) + tuple(r for r, _ in groups[1:])))
    return make_value(C["high_card"], _ranks_digits(distinct_desc))


def best_value(real_ranks: tuple[int, ...], jokers: int, suited: bool, bonus_rank: int) -> int:
    """Value of a row: the best over every replacement of each joker
    (docs/rules.md#jokers).

    ``real_ranks``: sorted ranks of the real cards; ``suited``: they all share one suit.
    A joker may become any rank of any suit provided no card then appears more than
    twice in the row.  Off-suit it cannot make a flush, so the row is the better of
    (a) every joker off-suit, valued by ranks only -- a rank has eight places (four suits,
    twice each), more than a row's five cards, so ranks alone never break the limit -- and (b), for a suited row, every joker in the suit, each rank at
    most twice.  Five of a kind made with a joker is a joker five; three jokers in a Front
    are joker trips.
    """
    n = len(real_ranks) + jokers
    if n == 3 and jokers == 3:
        return make_value(C["joker_trips"])
    best = -1
    for extra in itertools.combinations_with_replacement(range(13), jokers):
        ranks = tuple(sorted(real_ranks + extra))
        best = max(best, natural_value(ranks, False, bonus_rank))
        if suited and n == 5 and max(ranks.count(r) for r in set(ranks)) <= MAX_COPIES_OF_A_CARD:
            best = max(best, natural_value(ranks, True, bonus_rank))
    if jokers and value_category(best) == C["natural_five"]:
        best = make_value(C["joker_five"], value_digits(best)[:1])
    return best


def _rank_multisets(size: int, max_count: int):
    for ranks in itertools.combinations_with_replacement(range(13), size):
        if size == 0 or max(ranks.count(r) for r in set(ranks)) <= max_count:
            yield ranks


def _row_key(ranks: tuple[int, ...], jokers: int) -> int:
    """The key of a row: the sum of its cards' rank keys (a joker's is JOKER_KEY)."""
    return sum(RANK_KEYS[r] for r in ranks) + jokers * JOKER_KEY


def _displace(keys: list[int]) -> np.ndarray:
    """Row displacement (Tarjan and Yao, "Storing a sparse table", 1979): an offset for each
    block of ``2 ** ROW_SHIFT`` consecutive keys such that ``offset[key >> ROW_SHIFT] +
    (key & (2 ** ROW_SHIFT - 1))`` differs for any two of ``keys``.  Blocks are placed
    fullest first, each at the first offset where all its keys fall on free positions."""
    width = 1 << ROW_SHIFT
    members: dict[int, list[int]] = {}
    for key in keys:
        members.setdefault(key >> ROW_SHIFT, []).append(key & (width - 1))
    offsets = np.zeros(max(members) + 1, np.int64)
    taken = np.zeros(len(keys) + width, bool)          # positions used so far
    for block in sorted(members, key=lambda b: (-len(members[b]), b)):
        columns = members[block]
        while True:
            free = np.ones(len(taken) - width + 1, bool)  # offset d: free for every column
            for c in columns:
                free &= ~taken[c:c + len(free)]
            if free.any():
                break
            taken = np.concatenate([taken, np.zeros(width, bool)])
        offset = int(np.argmax(free))                  # the first free offset
        taken[[offset + c for c in columns]] = True
        offsets[block] = offset
    return offsets


def _build(spade_copies: int, jokers: int, bonus_rank: int) -> RowTables:
    # Copies of each rank in the deck.  (Cutting a card leaves its rank one copy fewer;
    # the table keeps the entries that rank can no longer reach: they are never looked up.)
    copies = 3 + spade_copies
    entries5: list[tuple[int, int, int]] = []   # (suited, key, value)
    entries3: list[tuple[int, int]] = []        # (key, value)
    for j in range(jokers + 1):
        for ranks in _rank_multisets(5 - j, copies):
            key = _row_key(ranks, j)
            entries5.append((0, key, best_value(ranks, j, False, bonus_rank)))
            if max((ranks.count(r) for r in set(ranks)), default=0) <= spade_copies:
                entries5.append((1, key, best_value(ranks, j, True, bonus_rank)))
        for ranks in _rank_multisets(3 - j, copies):
            entries3.append((_row_key(ranks, j), best_value(ranks, j, False, bonus_rank)))

    values = np.array(sorted({e[-1] for e in entries5} | {e[-1] for e in entries3}), np.int64)
    ordinal = {int(v): i + 1 for i, v in enumerate(values)}
    assert len(values) < 2 ** 16

    # One packing of every key, Fronts' and five-card rows' alike.
    disp = _displace(sorted({e[1] for e in entries5} | {e[0] for e in entries3}))

    def position(key: int) -> int:
        return int(disp[key >> ROW_SHIFT]) + (key & ((1 << ROW_SHIFT) - 1))

    n_positions = 1 + max(position(e[1]) for e in entries5)
    n_positions = max(n_positions, 1 + max(position(e[0]) for e in entries3))
    assert n_positions <= 2 ** 16
    ord5 = np.zeros((2, n_positions), np.uint16)
    value5 = np.full((2, n_positions), -1, np.int32)
    for suited, key, v in entries5:
        p = position(key)
        assert ord5[suited, p] == 0, "rank keys must not collide"
        ord5[suited, p] = ordinal[v]
        value5[suited, p] = v
    ord3 = np.zeros(n_positions, np.uint16)
    for key, v in entries3:
        p = position(key)
        assert ord3[p] == 0, "rank keys must not collide"
        ord3[p] = ordinal[v]

    card_word = np.zeros(N_CODES, np.int64)
    for code in range(N_CODES):
        if code >= FIRST_JOKER:         # a joker counts in every suit: it never unsuits a row
            card_word[code] = (JOKER_KEY << SUIT_BITS) | 0x1111
        else:
            suit_field = 1 << 4 * code_suit(code)
            card_word[code] = (RANK_KEYS[code_rank(code)] << SUIT_BITS) | suit_field
    return RowTables(card_word, disp.astype(np.uint16), ord5, ord3, value5,
                     np.concatenate([[-1], values]).astype(np.int32))


@functools.lru_cache(maxsize=None)
def _source_digest() -> str:
    # Tables are a pure function of the code that builds them (this module, the ladder in
    # rules.py, the card codes in cards.py, the layout constants in kernels.py): rebuild
    # whenever any of it changes.
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("tables.py", "rules.py", "cards.py", "kernels.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


# (Bounded: a server may see a rules file after another, each its own RuleSet; the
# arrays themselves are kept once a deck, by _deck_tables.)
@functools.lru_cache(maxsize=64)
def row_tables(rules: "str | RuleSet", bonus_rank: int = -1) -> RowTables:
    """The row tables of a rule set (and, for ``bonus``, of one Bonus rank 0..12).

    Built on first use, then kept in memory and in the library's cache folder on disk
    (:func:`solver._cache.cache_dir`), so a fresh process loads them in milliseconds
    instead of rebuilding (about a second); a damaged file there is said on stderr and
    built again.  Rule sets with the same deck share one set of tables, in memory too.
    """
    rs = _rules(rules)
    if rs.cut_card != (bonus_rank >= 0):
        raise ValueError(f"{rs.name}: a Bonus rank is {'required' if rs.cut_card else 'not used'}")
    return _deck_tables(rs.spade_copies, rs.jokers, bonus_rank)


@functools.lru_cache(maxsize=None)      # a few decks at most: 2 spade sets x 4 jokers x 14
def _deck_tables(spade_copies: int, jokers: int, bonus_rank: int) -> RowTables:
    """The row tables of a deck: they depend on its copies of each card and its jokers
    (and the Bonus rank), never on the scoring."""
    deck_id = f"s{spade_copies}j{jokers}b{bonus_rank}"
    folder = cache_dir()
    path = folder / f"rows-{deck_id}-{_source_digest()}.npz" if folder else None
    if path is not None:
        arrays = load_arrays(path, RowTables._fields, _valid_tables)
        if arrays is not None:
            return RowTables(**arrays)
    tables = _build(spade_copies, jokers, bonus_rank)
    if path is not None:
        save_arrays(path, tables._asdict(), compressed=True)   # (unwritable: memory only)
    return tables


def _valid_tables(arrays: dict) -> bool:
    """Whether arrays read from a cache file have the types and shapes of row tables,
    and every index they hold is inside the array it indexes: the kernels check no
    bounds, so a table that is not whole must never reach them."""
    t = RowTables(**arrays)
    want = placeholder_tables()
    if any(a.dtype != w.dtype or a.ndim != w.ndim for a, w in zip(t, want)):
        return False
    n_positions = t.ord3.shape[0]
    return (t.card_word.shape == (N_CODES,) and len(t.values) >= 2 and len(t.disp) >= 1
            and t.ord5.shape == t.value5.shape == (2, n_positions)
            and int(t.disp.max()) < n_positions
            and int(max(t.ord5.max(), t.ord3.max())) < len(t.values))
