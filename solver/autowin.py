"""Special hands (automatic wins, docs/rules.md#special-hands): the catalogue of every one
a rule set may play, found in 13 cards of the plain 52-card pack.

``classic`` plays four (dragon, six pairs, three flushes, three straights); most others
are the special hands of 十三水, and one is Mậu Binh's (twelve of one colour).  Each is a
``KIND_*`` code, 1 + its index in :data:`solver.rules.AUTOMATIC_WINS`; :func:`holds_kind`
tests one, :func:`best_kind` finds the first of a rule set's order (:func:`kind_order`,
strongest first)."""
from __future__ import annotations

import functools
from typing import NamedTuple, Optional

import numpy as np

from ._jit import njit
from .cards import CardsLike, code_rank, code_suit, format_cards, to_codes
from .rules import AUTOMATIC_WINS, RuleSet, rule_set

# The catalogue's codes: KIND_NONE, then 1 + the special's index in AUTOMATIC_WINS.  They
# are also the scoring core's automatic-win codes (solver.scoring.auto_of).
(KIND_NONE, KIND_DRAGON, KIND_SIX_PAIRS, KIND_THREE_FLUSHES, KIND_THREE_STRAIGHTS,
 KIND_SUITED_DRAGON, KIND_TWELVE_ROYALS, KIND_THREE_STRAIGHT_FLUSHES, KIND_THREE_QUADS,
 KIND_ALL_BIG, KIND_ALL_SMALL, KIND_ALL_ONE_COLOUR, KIND_FOUR_TRIPS,
 KIND_FIVE_PAIRS_AND_TRIPS, KIND_TWELVE_ONE_COLOUR) = range(1 + len(AUTOMATIC_WINS))
KIND_NAMES = (None,) + AUTOMATIC_WINS
assert KIND_NAMES[KIND_TWELVE_ONE_COLOUR] == "twelve_one_colour"
# classic's order of search: a dragon first, then the others (worth the same) as named.
CLASSIC_ORDER = np.array([KIND_DRAGON, KIND_SIX_PAIRS, KIND_THREE_FLUSHES,
                          KIND_THREE_STRAIGHTS], np.int64)
RANK_EIGHT = 6            # rank codes: 0 = deuce .. 12 = ace
RANK_JACK = 9


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


@njit(inline="always")
def _straight_mask(top):
    """The ranks of the five-card straight with this top (3 = the wheel A-2-3-4-5), as
    bits of a 13-bit mask (bit r: rank r, 0 = deuce .. 12 = ace)."""
    if top == 3:
        return 0b1000000001111
    return 0b11111 << (top - 4)


@njit(inline="always")
def _is_front_straight_mask(mask):
    """Three consecutive ranks: A-2-3 (the ace low) up to Q-K-A; no wrap."""
    if mask == 0b1000000000011:
        return True
    for low in range(11):
        if mask == 0b111 << low:
            return True
    return False


@njit
def _three_straight_flushes(codes):
    """Rows of one suit each, all three straights: two five-card straight flushes and a
    Front of three consecutive ranks of one suit (a plain pack: one card of each rank and
    suit, so a suit's cards are a 13-bit rank mask).  Returns (middle suit, middle top,
    back suit, back top), all -1 if there is no such split."""
    suit_masks = np.empty(4, np.int64)
    suit_masks[:] = 0
    for c in codes:
        suit_masks[c // 13] |= 1 << (c % 13)
    for s_m in range(4):
        for top_m in range(3, 13):
            m = _straight_mask(top_m)
            if suit_masks[s_m] & m != m:
                continue
            suit_masks[s_m] &= ~m
            for s_b in range(4):
                for top_b in range(3, 13):
                    b = _straight_mask(top_b)
                    if suit_masks[s_b] & b != b:
                        continue
                    suit_masks[s_b] &= ~b
                    # The three cards left: all of one suit, three consecutive ranks.
                    ok = False
                    empty = 0
                    for s in range(4):
                        if suit_masks[s] == 0:
                            empty += 1
                        elif _is_front_straight_mask(suit_masks[s]):
                            ok = True
                    suit_masks[s_b] |= b
                    if ok and empty == 3:
                        return s_m, top_m, s_b, top_b
            suit_masks[s_m] |= m
    return -1, -1, -1, -1


@njit(inline="always")
def _is_dragon(rank_counts):
    for r in range(13):
        if rank_counts[r] == 0:
            return False
    return True


@njit(inline="always")
def _is_three_flushes(suit_counts):
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


@njit
def _holds(codes, rank_counts, suit_counts, kind):
    if kind == KIND_DRAGON:
        return _is_dragon(rank_counts)
    if kind == KIND_SIX_PAIRS:
        pairs = 0
        for r in range(13):
            pairs += rank_counts[r] // 2        # quads are two pairs
        return pairs >= 6
    if kind == KIND_THREE_FLUSHES:
        return _is_three_flushes(suit_counts)
    if kind == KIND_THREE_STRAIGHTS:
        return _three_straights(rank_counts)[1] != -1   # the front's low rank may be -1
    if kind == KIND_SUITED_DRAGON:
        return _is_dragon(rank_counts) and (
            suit_counts[0] == 13 or suit_counts[1] == 13 or suit_counts[2] == 13
            or suit_counts[3] == 13)
    if kind == KIND_TWELVE_ROYALS:
        for r in range(RANK_JACK):            # every card a J, Q, K or A
            if rank_counts[r] != 0:
                return False
        return True
    if kind == KIND_THREE_STRAIGHT_FLUSHES:
        # Both cheap tests first: a hand that passes them is rare (opponents' hands are
        # checked by the thousand).
        if not _is_three_flushes(suit_counts):
            return False
        if _three_straights(rank_counts)[1] == -1:
            return False
        return _three_straight_flushes(codes)[0] != -1
    if kind == KIND_THREE_QUADS:
        quads = 0
        for r in range(13):
            if rank_counts[r] == 4:
                quads += 1
        return quads >= 3
    if kind == KIND_ALL_BIG:
        for r in range(RANK_EIGHT):           # every card 8 to A
            if rank_counts[r] != 0:
                return False
        return True
    if kind == KIND_ALL_SMALL:
        for r in range(RANK_EIGHT + 1, 13):   # every card 2 to 8
            if rank_counts[r] != 0:
                return False
        return True
    if kind == KIND_ALL_ONE_COLOUR:           # all black (spades, clubs) or all red
        return suit_counts[0] + suit_counts[3] == 13 or suit_counts[1] + suit_counts[2] == 13
    if kind == KIND_TWELVE_ONE_COLOUR:        # Mậu Binh's 12 lá đồng màu: at least twelve
        black = suit_counts[0] + suit_counts[3]             # black or twelve red (thirteen
        return black >= 12 or black <= 1                    # hold twelve too)
    if kind == KIND_FOUR_TRIPS:
        trips = 0
        for r in range(13):
            if rank_counts[r] >= 3:           # a quad holds trips (and a single)
                trips += 1
        return trips >= 4
    if kind == KIND_FIVE_PAIRS_AND_TRIPS:
        # Trips and five pairs are all 13 cards: one rank three times, every other rank
        # an even number of times (a quad is two pairs, as in six pairs).
        threes = 0
        for r in range(13):
            n = rank_counts[r]
            if n == 3:
                threes += 1
            elif n == 1:
                return False
        return threes == 1
    return False


@njit
def holds_kind(codes, kind):
    """Whether 13 card codes of the plain 52-card pack hold the special hand ``kind``
    (``KIND_*``)."""
    rank_counts, suit_counts = _counts(codes)
    return _holds(codes, rank_counts, suit_counts, kind)


@njit
def best_kind(codes, order):
    """The first kind of ``order`` (``KIND_*`` codes, strongest first; a 0 ends the list
    early) that 13 card codes hold, or ``KIND_NONE``."""
    rank_counts, suit_counts = _counts(codes)       # once: opponents are checked by the
    for kind in order:                              # thousand
        if kind == KIND_NONE:
            break
        if _holds(codes, rank_counts, suit_counts, kind):
            return kind
    return KIND_NONE


@njit
def automatic_win_kind(codes):
    """The best automatic-win kind (``KIND_*``) of 13 real card codes under ``classic``:
    a dragon beats the others, which are worth the same (the first that holds is
    named)."""
    return best_kind(codes, CLASSIC_ORDER)


@functools.lru_cache(maxsize=None)
def kind_order(rules: RuleSet) -> np.ndarray:
    """The rule set's special hands as ``KIND_*`` codes, strongest first (then the most
    units, then the catalogue's order): the order :func:`best_kind` tries them in, so a
    hand is named by its strongest special.

    >>> [KIND_NAMES[k] for k in kind_order(rule_set("classic"))]
    ['dragon', 'six_pairs', 'three_flushes', 'three_straights']
    """
    return np.array([KIND_NAMES.index(n) for n in rules.automatic_win_order()], np.int64)


class AutomaticWin(NamedTuple):
    """An automatic win and a split of the 13 cards that shows it."""
    name: str
    units: int
    front: str
    middle: str
    back: str


def _split_showing(kind: int, codes: list[int]) -> tuple[list[int], list[int], list[int]]:
    by_rank = sorted(codes, key=code_rank)
    if kind == KIND_THREE_STRAIGHT_FLUSHES:
        s_m, top_m, s_b, top_b = _three_straight_flushes(np.array(codes, np.int64))
        middle = [c for c in codes if code_suit(c) == s_m
                  and (int(_straight_mask(top_m)) >> code_rank(c)) & 1]
        back = [c for c in codes if code_suit(c) == s_b
                and (int(_straight_mask(top_b)) >> code_rank(c)) & 1]
        front = [c for c in codes if c not in middle and c not in back]
        return front, middle, back
    if kind not in (KIND_THREE_FLUSHES, KIND_THREE_STRAIGHTS):
        return by_rank[:3], by_rank[3:8], by_rank[8:]      # any split shows it
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
    """The best automatic win (special hand) 13 cards allow under ``rules``, with a split
    that shows it, or ``None``: the strongest of the rule set's specials the cards hold
    (:func:`kind_order`).  Rule sets without automatic wins have none.

    >>> automatic_win("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As").name
    'dragon'
    """
    rs = rule_set(rules)
    codes = to_codes(cards, rs)
    if len(codes) != 13:
        raise ValueError(f"an automatic win takes 13 cards, not {len(codes)}")
    if not rs.automatic_wins:
        return None
    kind = int(best_kind(np.array(codes, np.int64), kind_order(rs)))
    if kind == KIND_NONE:
        return None
    name = KIND_NAMES[kind]
    front, middle, back = _split_showing(kind, codes)
    return AutomaticWin(name, rs.automatic_wins[name], format_cards(front),
                        format_cards(middle), format_cards(back))
