"""Row values: the public, validating face of the row tables and kernels."""
from __future__ import annotations

import functools
import itertools

import numpy as np

from . import kernels
from ._checks import check_int, is_int
from .cards import N_CODES, RANKS, CardsLike, card_name, code_rank, parse_codes, to_codes
from .rules import CATEGORIES, CATEGORY_INDEX, RuleSet, rule_set
from .tables import (RowTables, category_name, make_value, row_tables, value_category,
                     value_digits)


def bonus_rank_of(rules: RuleSet, cut: "str | int | None") -> int:
    """The Bonus rank (0..12) named by the cut card, or -1 where the rule set has none.

    ``cut`` is the cut card as text (``"4c"``) or a card code (a real ``int``).
    """
    if not (cut is None or isinstance(cut, str) or is_int(cut)):
        raise ValueError(f"cut must be a card as text (e.g. '4c') or a card code, not "
                         f"{cut!r} ({type(cut).__name__})")
    if not rules.cut_card:
        if cut is not None:
            raise ValueError(f"the {rules.name} rule set has no cut card (cut={cut!r})")
        return -1
    if cut is None:
        raise ValueError(f"the {rules.name} rule set needs the cut card, e.g. cut='4c'")
    codes = (parse_codes(cut, rules) if isinstance(cut, str)
             else [check_int("cut", cut, 0, N_CODES - 1)])
    if len(codes) != 1 or code_rank(codes[0]) < 0:
        raise ValueError(f"the cut card must be one real card, not {cut!r}")
    return code_rank(codes[0])


def cut_taken(rules: RuleSet, cut: "str | int | None") -> set[int]:
    """The cut card's code as a set of cards already out of play (empty without a cut),
    to start :func:`solver.cards.parse_codes` with: the cut card is not in any row."""
    bonus_rank_of(rules, cut)                       # validates
    if not rules.cut_card:
        return set()
    name = cut if isinstance(cut, str) else card_name(int(cut))
    return set(parse_codes(name, rules))


def tables_for(rules: "str | RuleSet", cut: "str | int | None" = None) -> RowTables:
    rs = rule_set(rules)
    return row_tables(rs, bonus_rank_of(rs, cut))


@functools.lru_cache(maxsize=None)
def row_values() -> frozenset[int]:
    """Every value some row of some rule set has (12,845 of them), built from the
    tie-break layouts of docs/rules.md#tie-breaks without the row tables: a digit is a
    rank + 1 (1..13), highest first.  ``tests/test_rows.py`` checks that this is exactly
    the union of every rule set's row tables (``bonus`` with every Bonus rank)."""
    ranks = range(13, 0, -1)

    def highest_first(k, *taken):
        """Every choice of k distinct ranks outside ``taken``, highest first."""
        return itertools.combinations([r for r in ranks if r not in taken], k)

    def straight(digits):
        return digits == (13, 4, 3, 2, 1) or all(a - b == 1 for a, b in zip(digits, digits[1:]))

    fives = [d for d in highest_first(5) if not straight(d)]     # no pair, no straight
    tops = [(top,) for top in range(4, 14)]                      # a 5-high straight: 4
    one = [(r,) for r in ranks]
    pair_and_card = [(a, b) for a in ranks for b in ranks if a != b]
    layouts = {
        "high_card": list(highest_first(3)) + fives,             # a Front, a five-card row
        "pair": pair_and_card + [(p, *k) for p in ranks for k in highest_first(3, p)],
        "two_pair": [(h, l, k) for h, l in highest_first(2) for (k,) in highest_first(1, h, l)],
        "trips": one + [(t, *k) for t in ranks for k in highest_first(2, t)],
        "joker_trips": [()],
        "straight": tops,
        "flush": fives,
        # The first digit says one pair (1) or two (2): two-pair paired flushes are higher.
        "paired_flush": [(1, p, *k) for p in ranks for k in highest_first(3, p)]
                        + [(2, h, l, k) for h, l in highest_first(2)
                           for (k,) in highest_first(1, h, l)],
        "full_house": pair_and_card,
        "quads": pair_and_card,
        "straight_flush": tops,
        "joker_five": one,
        "natural_five": one,
    }
    for plain in ("trips", "full_house", "quads"):
        layouts[f"bonus_{plain}"] = layouts[plain]
    return frozenset(make_value(CATEGORY_INDEX[name], digits)
                     for name, digit_lists in layouts.items() for digits in digit_lists)


def _not_a_row_value(value: int) -> str:
    """Why ``value`` is no row's value, for a ``ValueError``."""
    category = value_category(value)
    if value < 0 or category >= len(CATEGORIES):
        return (f"{value} is not a row value: a value is a category 0..{len(CATEGORIES) - 1} "
                f"<< 20 plus five 4-bit tie-break digits, and its category would be {category}")
    return (f"{value} is not a row value: no row of any rule set is a {CATEGORIES[category]} "
            f"with tie-break digits {value_digits(value)} (each a rank + 1, highest first, "
            f"or 0 for no card; docs/rules.md#tie-breaks)")


@functools.total_ordering
class RowValue:
    """The value of one row: compares with ``<``, ``<=``, ``==`` on the one scale of
    docs/rules.md#the-ladder (a Front and a five-card row compare directly).

    Attributes: ``value`` (the integer, as :func:`evaluate_rows` returns), ``category``
    (canonical name), ``ranks`` (tie-break ranks as text, highest first).  A value no row
    has (see :func:`row_values`) is a ``ValueError``.

    >>> RowValue(14483456)
    <RowValue straight_flush A>
    >>> RowValue(1 << 20)                        # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1048576 is not a row value: no row of any rule set is a pair with ...
    """

    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = check_int("value", value)
        if self.value not in row_values():
            raise ValueError(_not_a_row_value(self.value))

    @property
    def category(self) -> str:
        return category_name(self.value)

    @property
    def ranks(self) -> str:
        digits = value_digits(self.value)
        if self.category == "paired_flush":
            digits = digits[1:]   # the first digit is the one-pair / two-pair level
        return "".join(RANKS[d - 1] for d in digits if d)

    def __eq__(self, other):
        if not isinstance(other, RowValue):
            return NotImplemented
        return self.value == other.value

    def __lt__(self, other):
        if not isinstance(other, RowValue):
            return NotImplemented
        return self.value < other.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        ranks = f" {self.ranks}" if self.ranks else ""
        return f"<RowValue {self.category}{ranks}>"


def explain_cut(error: ValueError, out_of_play) -> ValueError:
    """The error, noting the cut card when it is the card the error names."""
    notes = [f" (the cut card {card_name(c)} is out of play)" for c in out_of_play or ()
             if f"'{card_name(c)}'" in str(error)]
    return ValueError(str(error) + "".join(notes)) if notes else error


def _row_codes(cards: CardsLike, rules: RuleSet, taken: "set[int] | None" = None) -> list[int]:
    try:
        codes = to_codes(cards, rules, None if taken is None else set(taken))
    except ValueError as e:
        raise explain_cut(e, taken) from None
    if len(codes) not in (3, 5):
        raise ValueError(f"a row has 3 or 5 cards, not {len(codes)}")
    return codes


def _value_of_codes(codes, tables: RowTables) -> int:
    if len(codes) == 5:
        return int(tables.values[kernels.ordinal5(*codes, tables)])
    return int(tables.values[kernels.ordinal3(*codes, tables)])


def row_value(cards: CardsLike, rules: "str | RuleSet", cut: "str | int | None" = None) -> RowValue:
    """Value of a 3- or 5-card row under a rule set (``cut``: the cut card, ``bonus`` only).

    >>> row_value("5h 7d Jk", "joker")
    <RowValue pair 75>
    >>> row_value("As Ks Jk Jk Jk", "joker").category
    'straight_flush'
    >>> row_value("9h 9d Kc", "pagat") > row_value("9s 9c 5d 4h 3s", "pagat")
    True
    """
    rs = rule_set(rules)
    tables = tables_for(rs, cut)
    return RowValue(_value_of_codes(_row_codes(cards, rs, cut_taken(rs, cut)), tables))


def is_legal(front: CardsLike, middle: CardsLike, back: CardsLike, rules: "str | RuleSet",
             cut: "str | int | None" = None) -> bool:
    """Whether Front < Middle <= Back (docs/rules.md#legality): two integer compares.

    Row sizes must be 3, 5 and 5 (``ValueError`` otherwise); cards are validated against
    the deck, including across the three rows and against the cut card.
    """
    rs = rule_set(rules)
    tables = tables_for(rs, cut)
    rows = arrangement_codes(front, middle, back, rs, cut_taken(rs, cut))
    f, m, b = (_value_of_codes(c, tables) for c in rows)
    return f < m <= b


def arrangement_codes(front, middle, back, rules: RuleSet,
                      taken: "set[int] | None" = None) -> list[list[int]]:
    """Codes of three rows, validated as one set of cards (sizes 3, 5, 5), with the
    cards in ``taken`` (e.g. the cut card) out of play."""
    taken = set() if taken is None else set(taken)
    out_of_play = set(taken)
    rows = []
    for name, want, cards in zip(("front", "middle", "back"), (3, 5, 5), (front, middle, back)):
        try:
            codes = to_codes(cards, rules, taken)
        except ValueError as e:
            raise explain_cut(e, out_of_play) from None
        if len(codes) != want:
            raise ValueError(f"the {name} has {want} cards, not {len(codes)}")
        rows.append(codes)
    return rows


def _rows_array(rows, rules: RuleSet, out_of_play: set[int]) -> np.ndarray:
    """A sequence of rows (each text or codes, validated) as one uint8 array."""
    if isinstance(rows, str) or not hasattr(rows, "__iter__"):
        raise ValueError(f"rows must be an array or a sequence of rows, not {rows!r}")
    codes = []
    for i, row in enumerate(rows):
        try:
            codes.append(_row_codes(row, rules, out_of_play))
        except ValueError as e:
            raise ValueError(f"row {i}: {e}") from None
        if len(codes[i]) != len(codes[0]):
            raise ValueError(f"rows must all have the same length: row 0 has "
                             f"{len(codes[0])} cards, row {i} has {len(codes[i])}")
    return np.array(codes, np.uint8)


def evaluate_rows(rows, rules: "str | RuleSet", cut: "str | int | None" = None) -> np.ndarray:
    """Values of many rows at once (Numba kernel), as ``int32`` in the order of
    :class:`RowValue` (``RowValue(v)`` rebuilds one).

    ``rows``: an ``(n, 5)`` or ``(n, 3)`` integer array of card codes (see
    :mod:`solver.cards`), or a sequence of rows (text or codes), all of one length.
    Codes are checked against the deck in bulk (integer dtype, range, jokers, second
    spades, repeats within a row).
    """
    rs = rule_set(rules)
    tables = tables_for(rs, cut)
    out_of_play = cut_taken(rs, cut)
    if not isinstance(rows, np.ndarray):
        rows = _rows_array(rows, rs, out_of_play)
    if not np.issubdtype(rows.dtype, np.integer):
        raise ValueError(f"rows must hold integer card codes, not dtype {rows.dtype}")
    if rows.ndim != 2 or rows.shape[1] not in (3, 5):
        raise ValueError(f"rows must be an (n, 5) or (n, 3) array, not shape {rows.shape}")
    if rows.size and (rows.min() < 0 or rows.max() >= 65 + rs.jokers):
        raise ValueError(f"card codes must be in 0..{64 + rs.jokers} for {rs.name}")
    rows = np.ascontiguousarray(rows, np.uint8)
    if rs.spade_copies == 1 and rows.size and rows.max() >= 52 and (
            ((rows >= 52) & (rows < 65)).any()):
        raise ValueError(f"the {rs.name} deck has one set of spades (codes 52..64 are "
                         f"second spades)")
    srt = np.sort(rows, axis=1)
    if (srt[:, 1:] == srt[:, :-1]).any():
        bad = int(np.nonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))[0][0])
        raise ValueError(f"row {bad} uses a card twice: "
                         f"{' '.join(card_name(c) for c in rows[bad])}")
    for cut_code in out_of_play:
        # The cut card is out of play: a row may hold its other copy (a spade), if any.
        copies = [cut_code] + ([cut_code + 52] if cut_code < 13 else [])
        held = sum((rows == c).any(axis=1) for c in copies)
        if (held >= len(copies)).any():
            bad = int(np.nonzero(held >= len(copies))[0][0])
            raise ValueError(f"row {bad} uses the cut card {card_name(cut_code)}: "
                             f"{' '.join(card_name(c) for c in rows[bad])}")
    out = kernels.values5(rows, tables) if rows.shape[1] == 5 else kernels.values3(rows, tables)
    if out.size and out.min() < 0:        # a row the tables do not know: a bug, not input
        bad = int(np.argmin(out))
        raise AssertionError(f"no table entry for {' '.join(card_name(c) for c in rows[bad])}")
    return out
