"""Automatic wins of the ``classic`` rule set (docs/rules.md#automatic-wins): dragon, six
pairs, three flushes, three straights."""
from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from ._jit import njit
from .cards import CardsLike, code_rank, code_suit, format_cards, to_codes
from .rules import RuleSet, rule_set
from .scoring import AUTO_DRAGON, AUTO_NONE, AUTO_PLAIN

# Kinds returned by automatic_win_kind, best first where it matters (dragon beats all).
KIND_NONE, KIND_DRAGON, KIND_SIX_PAIRS, KIND_THREE_FLUSHES, KIND_THREE_STRAIGHTS = range(5)
KIND_NAMES = (None, "dragon", "six_pairs", "three_flushes", "three_straights")


@njit
def _has_straight(counts, top):
    """Every rank of the five-card straight with this top is still in ``counts``."""
    for k in range(5):
        r = top - k if top - k >= 0 else 12
        if counts[r] == 0:
            return False
    return True


@njit
def _take_straight(counts, top, sign):
    for k in range(5):
        counts[top - k if top - k >= 0 else 12] -= sign


@njit
def _three_straights(rank_counts):
    """(front low rank, middle top, back top) of a three-straights split; tops -1 if none.

    Front: three consecutive ranks, A-2-3 (low rank -1, i.e. the ace plays low) up to
    Q-K-A; no wrap.  Middle and Back: five-card straights (tops 3 = wheel .. 12).  Each
    straight is tried only where its ranks are all still there, so most hands are turned
    down within a few steps (the opponents' hands are checked by the thousand)."""
    counts = rank_counts.copy()
    for top_m in range(3, 13):
        if not _has_straight(counts, top_m):
            continue
        _take_straight(counts, top_m, 1)
        for top_b in range(top_m, 13):
            if not _has_straight(counts, top_b):
                continue
            _take_straight(counts, top_b, 1)
            # The three cards left must be three consecutive ranks.
            low = -2
            for r in range(13):
                if counts[r] != 0:
                    low = r
                    break
            found = -2
            if low >= 0:
                for start in (low - 1, low):      # A-2-3 starts below the deuce
                    if start > 10 or (start == -1 and counts[12] != 1):
                        continue                  # (Q-K-A is the highest: no wrap)
                    ok = True
                    for k in range(3):
                        r = start + k if start + k >= 0 else 12
                        if counts[r] != 1:
                            ok = False
                    if ok:
                        found = start
                        break
            total = 0
            for r in range(13):
                total += counts[r]
            _take_straight(counts, top_b, -1)
            if found != -2 and total == 3:
                return found, top_m, top_b
        _take_straight(counts, top_m, -1)
    return -1, -1, -1


@njit
def _counts(codes):
    rank_counts = np.empty(13, np.int64)      # (np.empty and a fill: see model.table_kernel)
    suit_counts = np.empty(4, np.int64)
    rank_counts[:] = 0
    suit_counts[:] = 0
    for c in codes:
        rank_counts[c % 13] += 1
        slot = c // 13
        suit_counts[0 if slot == 4 else slot] += 1
    return rank_counts, suit_counts


@njit
def _holds(rank_counts, suit_counts, kind):
    if kind == KIND_DRAGON:
        for r in range(13):
            if rank_counts[r] == 0:
                return False
        return True
    if kind == KIND_SIX_PAIRS:
        pairs = 0
        for r in range(13):
            pairs += rank_counts[r] // 2        # quads are two pairs
        return pairs >= 6
    if kind == KIND_THREE_FLUSHES:
        # Each row of one suit: the suits' counts (13 in all) must split into the rows'
        # 3, 5 and 5, so they are 13; 10 and 3; 8 and 5; or 5, 5 and 3.  (Counted, not
        # sorted: NumPy's sort took a second of a first run's compiling.)
        n3 = n5 = n8 = n10 = n13 = 0
        for c in suit_counts:
            if c == 3:
                n3 += 1
            elif c == 5:
                n5 += 1
            elif c == 8:
                n8 += 1
            elif c == 10:
                n10 += 1
            elif c == 13:
                n13 += 1
            elif c != 0:
                return False
        if n13 == 1 or (n10 == 1 and n3 == 1) or (n8 == 1 and n5 == 1):
            return True
        return n5 == 2 and n3 == 1
    if kind == KIND_THREE_STRAIGHTS:
        return _three_straights(rank_counts)[1] != -1   # the front's low rank may be -1
    return False


@njit
def holds_kind(codes, kind):
    """Whether 13 real card codes hold the automatic win ``kind`` (``KIND_*``)."""
    rank_counts, suit_counts = _counts(codes)
    return _holds(rank_counts, suit_counts, kind)


@njit
def automatic_win_kind(codes):
    """The best automatic-win kind (``KIND_*``) of 13 real card codes: a dragon beats
    the others, which are worth the same (the first that holds is named)."""
    rank_counts, suit_counts = _counts(codes)       # once: opponents are checked by the
    for kind in (KIND_DRAGON, KIND_SIX_PAIRS,       # thousand
                 KIND_THREE_FLUSHES, KIND_THREE_STRAIGHTS):
        if _holds(rank_counts, suit_counts, kind):
            return kind
    return KIND_NONE


def auto_code(kind: int) -> int:
    """The settlement core's code (AUTO_*) of an automatic-win kind."""
    return AUTO_NONE if kind == KIND_NONE else AUTO_DRAGON if kind == KIND_DRAGON else AUTO_PLAIN


class AutomaticWin(NamedTuple):
    """An automatic win and a split of the 13 cards that shows it."""
    name: str
    units: int
    front: str
    middle: str
    back: str


def _split_showing(kind: int, codes: list[int]) -> tuple[list[int], list[int], list[int]]:
    by_rank = sorted(codes, key=code_rank)
    if kind in (KIND_DRAGON, KIND_SIX_PAIRS):
        return by_rank[:3], by_rank[3:8], by_rank[8:]
    if kind == KIND_THREE_FLUSHES:
        suits: dict[int, list[int]] = {}
        for c in by_rank:
            suits.setdefault(code_suit(c), []).append(c)
        cards = [c for g in sorted(suits.values(), key=len, reverse=True) for c in g]
        # The suits, largest first, cut into rows in one of three orders: the one whose
        # every row is of one suit.
        for sizes in ((5, 5, 3), (5, 3, 5), (3, 5, 5)):
            cuts = np.cumsum((0,) + sizes)
            rows = [cards[cuts[i]:cuts[i + 1]] for i in range(3)]
            if all(len({code_suit(c) for c in row}) == 1 for row in rows):
                rows.sort(key=len)
                return rows[0], rows[1], rows[2]
        raise AssertionError("three flushes without a split")
    counts = np.zeros(13, np.int64)
    for c in codes:
        counts[code_rank(c)] += 1
    low, top_m, top_b = _three_straights(counts)
    pool = list(codes)

    def take(ranks):
        out = []
        for r in ranks:
            c = next(c for c in pool if code_rank(c) == r)
            pool.remove(c)
            out.append(c)
        return out
    five = lambda top: [top - k if top - k >= 0 else 12 for k in range(5)]
    front = take([low + k if low + k >= 0 else 12 for k in range(3)])
    return front, take(five(top_m)), take(five(top_b))


def automatic_win(cards: CardsLike, rules: "str | RuleSet" = "classic") -> Optional[AutomaticWin]:
    """The best automatic win 13 cards allow, with a split that shows it, or ``None``.

    Only rule sets with automatic wins (``classic`` and its schemes) have any.

    >>> automatic_win("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As").name
    'dragon'
    """
    rs = rule_set(rules)
    codes = to_codes(cards, rs)
    if len(codes) != 13:
        raise ValueError(f"an automatic win takes 13 cards, not {len(codes)}")
    if not rs.automatic_wins:
        return None
    kind = int(automatic_win_kind(np.array(codes, np.int64)))
    if kind == KIND_NONE:
        return None
    name = KIND_NAMES[kind]
    front, middle, back = _split_showing(kind, codes)
    return AutomaticWin(name, rs.automatic_wins[name], format_cards(front),
                        format_cards(middle), format_cards(back))
