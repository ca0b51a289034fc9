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

from ._jit import njit, runnable
from .cards import (FIRST_JOKER, SECOND_SPADE_SLOT, CardsLike, code_rank, code_suit,
                    format_cards, to_codes)
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


# --- special hands in any deck: jokers, a second set of spades, 16 or 17 cards dealt ------
# (docs/rules.md#special-hands-with-jokers-and-longer-deals.)  The kernels above read 13
# cards of the plain pack; these read any hand.  A special is a *shape*: 13 slots, each
# for a given card (three straight flushes), a rank (a dragon, pairs, trips, quads,
# straights), a suit (three flushes), a class of cards (all big: ranks 8 to A; a colour)
# or any card at all (the one card beside six pairs, three quads, four trips or twelve of
# one colour).  A hand holds the special when 13 of its cards fill some shape of it: a
# real card a slot it fits, a joker -- where jokers are wild -- any slot, and where they
# are not, only an any-card slot (a joker that is not wild is a card of no rank and no
# suit).  The real cards that
# can fill a shape's fitted slots are, slot kind by slot kind, min(held, slots) summed
# (the slots of one shape are all of one kind, so no card is wanted by two kinds); the
# hand holds the special when those are all the fitted slots, or, with wild jokers, when
# the jokers are enough for the rest.  (Any-card slots always fill: a hand has at least
# 13 cards.)  Each function below finds the best shape of one special: tests/naive.py
# enumerates every shape instead, and tests/test_specials_any_deck.py checks the two
# agree, and that on 13 cards of the plain pack these find what the kernels above find.
@njit
def _any_counts(codes):
    """(rank counts, suit counts, card counts by 13 * suit + rank, jokers) of a hand of
    any deck (a second spade counts as its spade; codes >= 65 are jokers)."""
    ranks = np.empty(13, np.int64)
    suits = np.empty(4, np.int64)
    cards = np.empty(52, np.int64)
    ranks[:] = 0
    suits[:] = 0
    cards[:] = 0
    jokers = 0
    for c in codes:
        if c >= FIRST_JOKER:
            jokers += 1
            continue
        r = c % 13
        s = c // 13
        if s == SECOND_SPADE_SLOT:
            s = 0
        ranks[r] += 1
        suits[s] += 1
        cards[13 * s + r] += 1
    return ranks, suits, cards, jokers


@njit
def _largest_filled(ranks, cap, k):
    """The most cards ``k`` slots of ``cap`` cards of one rank each (k distinct ranks:
    three quads, four trips) take from the hand: the k largest min(count, cap)."""
    taken = np.empty(13, np.int64)
    for r in range(13):
        taken[r] = min(ranks[r], cap)
    total = 0
    for _ in range(k):
        best = 0
        for r in range(13):
            if taken[r] > taken[best]:
                best = r
        total += taken[best]
        taken[best] = -1
    return total


@njit
def _pairs_filled(ranks, n_pairs):
    """The most cards ``n_pairs`` pairs take from the hand (a rank may hold several pairs:
    quads are two): whole pairs first, then one card of each rank left with an odd count
    (a joker completes it)."""
    whole = 0
    odd = 0
    for r in range(13):
        whole += ranks[r] // 2
        odd += ranks[r] % 2
    whole = min(whole, n_pairs)
    return 2 * whole + min(n_pairs - whole, odd)


@njit
def _flushes_template(suits):
    """(cards filled, front suit, middle suit, back suit) of the best three-flushes shape:
    rows of 3, 5 and 5 slots, each row of one suit."""
    best = -1
    best_f = best_m = best_b = 0
    for s_f in range(4):
        for s_m in range(4):
            for s_b in range(s_m, 4):        # (the Middle and the Back are alike)
                filled = 0
                for s in range(4):
                    slots = 3 * (s_f == s) + 5 * (s_m == s) + 5 * (s_b == s)
                    filled += min(suits[s], slots)
                if filled > best:
                    best, best_f, best_m, best_b = filled, s_f, s_m, s_b
    return best, best_f, best_m, best_b


@njit
def _front_rank(low, k):
    """Rank of the k-th slot of the Front straight from ``low`` (-1: the ace of A-2-3)."""
    return 12 if low + k < 0 else low + k


@njit
def _five_rank(top, k):
    """Rank of the k-th slot of the five-card straight with this top (3: the wheel)."""
    return 12 if top - k < 0 else top - k


@njit
def _straights_template(ranks):
    """(cards filled, front low rank, middle top, back top) of the best three-straights
    shape: a Front of three consecutive ranks (A-2-3, low -1, up to Q-K-A, low 10) and
    two five-card straights (tops 3, the wheel, to 12)."""
    slots = np.empty(13, np.int64)
    best = -1
    best_low = best_m = best_b = 0
    for top_m in range(3, 13):
        for top_b in range(top_m, 13):       # (the Middle and the Back are alike)
            for low in range(-1, 11):
                slots[:] = 0
                for k in range(5):
                    slots[_five_rank(top_m, k)] += 1
                    slots[_five_rank(top_b, k)] += 1
                for k in range(3):
                    slots[_front_rank(low, k)] += 1
                filled = 0
                for r in range(13):
                    filled += min(ranks[r], slots[r])
                if filled > best:
                    best, best_low, best_m, best_b = filled, low, top_m, top_b
                    if best == 13:
                        return best, best_low, best_m, best_b
    return best, best_low, best_m, best_b


@njit
def _add_slot(cards, slots, card, sign):
    """Add (sign 1) or take away (-1) a slot for ``card``; the change in the cards the
    shape's slots take from the hand."""
    if sign > 0:
        slots[card] += 1
        return 1 if cards[card] >= slots[card] else 0
    slots[card] -= 1
    return -1 if cards[card] > slots[card] else 0


@njit
def _straight_flushes_template(cards, need):
    """A three-straight-flushes shape whose card slots take at least ``need`` of the
    hand's cards: (front suit, front low, middle suit, middle top, back suit, back top),
    all -1 if there is none.  Rows that cannot reach ``need`` with the other rows full
    are skipped (the hands that get here are few: both three flushes and three straights
    are held first)."""
    slots = np.empty(52, np.int64)
    slots[:] = 0
    for m in range(40):
        s_m, top_m = m // 10, 3 + m % 10
        got_m = 0
        for k in range(5):
            got_m += _add_slot(cards, slots, 13 * s_m + _five_rank(top_m, k), 1)
        if got_m + 8 >= need:
            for b in range(m, 40):                # (the Middle and the Back are alike)
                s_b, top_b = b // 10, 3 + b % 10
                got_b = got_m
                for k in range(5):
                    got_b += _add_slot(cards, slots, 13 * s_b + _five_rank(top_b, k), 1)
                if got_b + 3 >= need:
                    for f in range(48):
                        s_f, low = f // 12, f % 12 - 1
                        got = got_b
                        for k in range(3):
                            got += _add_slot(cards, slots, 13 * s_f + _front_rank(low, k), 1)
                        for k in range(3):
                            _add_slot(cards, slots, 13 * s_f + _front_rank(low, k), -1)
                        if got >= need:
                            return s_f, low, s_m, top_m, s_b, top_b
                for k in range(5):
                    _add_slot(cards, slots, 13 * s_b + _five_rank(top_b, k), -1)
        for k in range(5):
            _add_slot(cards, slots, 13 * s_m + _five_rank(top_m, k), -1)
    return -1, -1, -1, -1, -1, -1


@njit
def _filled(kind, ranks, suits, cards):
    """(cards the best shape of ``kind`` takes from the hand's real cards, its slots that
    want a card of some kind: 13 less its any-card slots).  Not for three straight
    flushes (:func:`_straight_flushes_template`)."""
    if kind == KIND_DRAGON:
        filled = 0
        for r in range(13):
            filled += min(ranks[r], 1)
        return filled, 13
    if kind == KIND_SUITED_DRAGON:
        best = 0
        for s in range(4):
            filled = 0
            for r in range(13):
                filled += min(cards[13 * s + r], 1)
            best = max(best, filled)
        return best, 13
    if kind == KIND_TWELVE_ROYALS or kind == KIND_ALL_BIG or kind == KIND_ALL_SMALL:
        low, high = RANK_JACK, 12
        if kind == KIND_ALL_BIG:
            low = RANK_EIGHT
        elif kind == KIND_ALL_SMALL:
            low, high = 0, RANK_EIGHT
        fitting = 0
        for r in range(low, high + 1):
            fitting += ranks[r]
        return min(fitting, 13), 13
    if kind == KIND_ALL_ONE_COLOUR:
        return min(max(suits[0] + suits[3], suits[1] + suits[2]), 13), 13
    if kind == KIND_TWELVE_ONE_COLOUR:    # twelve of one colour, and any one card
        return min(max(suits[0] + suits[3], suits[1] + suits[2]), 12), 12
    if kind == KIND_THREE_QUADS:
        return _largest_filled(ranks, 4, 3), 12
    if kind == KIND_FOUR_TRIPS:
        return _largest_filled(ranks, 3, 4), 12
    if kind == KIND_SIX_PAIRS:
        return _pairs_filled(ranks, 6), 12
    if kind == KIND_FIVE_PAIRS_AND_TRIPS:
        best = 0
        rest = ranks.copy()
        for t in range(13):               # the trips' rank: as many of it as it holds,
            trips = min(ranks[t], 3)      # the pairs from what is left (never fewer)
            rest[t] -= trips
            best = max(best, trips + _pairs_filled(rest, 5))
            rest[t] += trips
        return best, 13
    if kind == KIND_THREE_FLUSHES:
        return _flushes_template(suits)[0], 13
    if kind == KIND_THREE_STRAIGHTS:
        return _straights_template(ranks)[0], 13
    return -1, 13                         # (not a special of this catalogue)


@njit
def _holds_any(kind, ranks, suits, cards, jokers, wild):
    if kind == KIND_THREE_STRAIGHT_FLUSHES:
        # A straight flush is a straight and a flush: the shape takes no more cards than
        # the best three-flushes and three-straights shapes do (both cheap).
        need = 13 - jokers if wild else 13
        if _flushes_template(suits)[0] < need or _straights_template(ranks)[0] < need:
            return False
        return _straight_flushes_template(cards, need)[0] != -1
    filled, slots = _filled(kind, ranks, suits, cards)
    if filled < 0:
        return False
    return slots - filled <= jokers if wild else filled == slots


@njit
def holds_kind_any(codes, kind, wild):
    """Whether a hand of any deck and size (13 to 17 cards, jokers, a second set of
    spades) holds the special ``kind`` in 13 of its cards; ``wild``: its jokers stand for
    any card (else a joker is a card of no rank and no suit)."""
    ranks, suits, cards, jokers = _any_counts(codes)
    return _holds_any(kind, ranks, suits, cards, jokers, wild)


@njit
def best_kind_any(codes, order, wild):
    """:func:`best_kind` of a hand of any deck and size (:func:`holds_kind_any`)."""
    ranks, suits, cards, jokers = _any_counts(codes)
    for kind in order:
        if kind == KIND_NONE:
            break
        if _holds_any(kind, ranks, suits, cards, jokers, wild):
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


def special_finder(rules: RuleSet):
    """``find(codes) -> KIND_*``: :func:`special_of` for one rule set, its order and kernel
    looked up once (for many hands)."""
    if not rules.automatic_wins:
        return lambda codes: KIND_NONE
    order = kind_order(rules)
    if rules.plain_deal:
        plain = runnable(best_kind)
        return lambda codes: int(plain(np.asarray(codes, np.int64), order))
    any_deck, wild = runnable(best_kind_any), rules.automatic_wins_wild
    return lambda codes: int(any_deck(np.asarray(codes, np.int64), order, wild))


def special_of(codes, rules: RuleSet) -> int:
    """The strongest of the rule set's specials (``KIND_*``, :func:`kind_order`) that a
    hand of the rule set holds -- the cards dealt (13 of them make it) or the 13 set --
    or ``KIND_NONE``; by the kernel that fits the rule set's deck (``RuleSet.plain_deal``)."""
    return special_finder(rules)(codes)


def holds_special(codes, kind: int, rules: RuleSet) -> bool:
    """Whether a hand of the rule set holds the special ``kind`` (:func:`special_of`)."""
    codes = np.asarray(codes, np.int64)
    if rules.plain_deal:
        return bool(holds_kind(codes, kind))
    return bool(holds_kind_any(codes, kind, rules.automatic_wins_wild))


class AutomaticWin(NamedTuple):
    """An automatic win and a split of the 13 cards that shows it; ``discards``: the cards
    of a 16- or 17-card hand it does not keep ("" for 13 cards)."""
    name: str
    units: int
    front: str
    middle: str
    back: str
    discards: str = ""


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


# A slot of a shape (:func:`_split_any`): ("card", 13 * suit + rank), ("rank", r),
# ("suit", s), ("ranks", low, high) or ("colour", 0 black / 1 red), or ("any",).
def _fits(slot: tuple, code: int) -> bool:
    if slot[0] == "any":
        return True
    if code >= FIRST_JOKER:
        return False
    rank, suit = code_rank(code), code_suit(code)
    what = slot[0]
    if what == "card":
        return 13 * suit + rank == slot[1]
    if what == "rank":
        return rank == slot[1]
    if what == "suit":
        return suit == slot[1]
    if what == "ranks":
        return slot[1] <= rank <= slot[2]
    return (suit in (1, 2)) == (slot[1] == 1)            # colour: red is hearts, diamonds


def _shape(kind: int, codes: list[int]) -> list[list[tuple]]:
    """The best shape of ``kind`` for the hand (the one :func:`_holds_any` judges by), as
    three rows of slots (any rows, for the specials that are not split into rows)."""
    ranks, suits, cards, _ = _any_counts(np.array(codes, np.int64))
    flat: list[tuple] = []
    if kind == KIND_THREE_STRAIGHT_FLUSHES:
        for need in range(13, -1, -1):             # (held: some need down to 13 - jokers)
            s_f, low, s_m, top_m, s_b, top_b = _straight_flushes_template(cards, need)
            if s_f != -1:
                break
        return [[("card", 13 * s_f + int(_front_rank(low, k))) for k in range(3)],
                [("card", 13 * s_m + int(_five_rank(top_m, k))) for k in range(5)],
                [("card", 13 * s_b + int(_five_rank(top_b, k))) for k in range(5)]]
    if kind == KIND_THREE_STRAIGHTS:
        _, low, top_m, top_b = _straights_template(ranks)
        return [[("rank", int(_front_rank(low, k))) for k in range(3)],
                [("rank", int(_five_rank(top_m, k))) for k in range(5)],
                [("rank", int(_five_rank(top_b, k))) for k in range(5)]]
    if kind == KIND_THREE_FLUSHES:
        _, s_f, s_m, s_b = _flushes_template(suits)
        return [[("suit", s_f)] * 3, [("suit", s_m)] * 5, [("suit", s_b)] * 5]
    if kind == KIND_DRAGON:
        flat = [("rank", r) for r in range(13)]
    elif kind == KIND_SUITED_DRAGON:
        suit = max(range(4), key=lambda s: sum(min(cards[13 * s + r], 1) for r in range(13)))
        flat = [("card", 13 * suit + r) for r in range(13)]
    elif kind == KIND_TWELVE_ROYALS:
        flat = [("ranks", RANK_JACK, 12)] * 13
    elif kind == KIND_ALL_BIG:
        flat = [("ranks", RANK_EIGHT, 12)] * 13
    elif kind == KIND_ALL_SMALL:
        flat = [("ranks", 0, RANK_EIGHT)] * 13
    elif kind == KIND_ALL_ONE_COLOUR:
        flat = [("colour", int(suits[1] + suits[2] > suits[0] + suits[3]))] * 13
    elif kind == KIND_TWELVE_ONE_COLOUR:
        flat = [("colour", int(suits[1] + suits[2] > suits[0] + suits[3]))] * 12 + [("any",)]
    elif kind in (KIND_THREE_QUADS, KIND_FOUR_TRIPS):
        size, count = (4, 3) if kind == KIND_THREE_QUADS else (3, 4)
        chosen = sorted(range(13), key=lambda r: -min(ranks[r], size))[:count]
        flat = [("rank", r) for r in chosen for _ in range(size)] + [("any",)]
    elif kind in (KIND_SIX_PAIRS, KIND_FIVE_PAIRS_AND_TRIPS):
        rest = [int(n) for n in ranks]
        if kind == KIND_SIX_PAIRS:
            n_pairs, flat = 6, [("any",)]
        else:                                       # the trips' rank: the best one
            rest_of = lambda t: [n - min(n, 3) if r == t else n for r, n in enumerate(rest)]
            t = max(range(13), key=lambda t: min(rest[t], 3) + int(
                _pairs_filled(np.array(rest_of(t), np.int64), 5)))
            n_pairs, flat, rest = 5, [("rank", t)] * 3, rest_of(t)
        pairs = []
        for r in range(13):                         # whole pairs, then half pairs
            pairs += [r] * (rest[r] // 2)
        pairs += [r for r in range(13) if rest[r] % 2]
        pairs += [r for r in range(13) if r not in pairs] * 6     # (jokers' pairs)
        flat += [("rank", r) for r in pairs[:n_pairs] for _ in range(2)]
    return [flat[:3], flat[3:8], flat[8:]]


def _split_any(kind: int, codes: list[int], wild: bool
               ) -> tuple[list[int], list[int], list[int], list[int]]:
    """(front, middle, back, discards) of a hand of any deck that holds ``kind``: the 13
    cards that fill its best shape (each fitted slot a card that fits it, then the
    jokers; the any-card slots the cards left, real cards first) in the shape's rows."""
    rows = _shape(kind, codes)
    free = sorted(codes, key=lambda c: (c >= FIRST_JOKER, code_rank(c), code_suit(c)))
    filled: list[list] = [[None] * len(row) for row in rows]
    for fitted in (True, False):             # fitted slots first, the any-card slots after
        for i, row in enumerate(rows):
            for k, slot in enumerate(row):
                if (slot[0] == "any") == fitted:
                    continue
                card = next((c for c in free if c < FIRST_JOKER and _fits(slot, c)), None)
                if card is None and (wild or slot[0] == "any"):
                    card = next((c for c in free if c >= FIRST_JOKER), None)
                if card is None:
                    raise AssertionError(f"{KIND_NAMES[kind]}: no card for {slot}")
                free.remove(card)
                filled[i][k] = card
    return filled[0], filled[1], filled[2], free


def special_split(kind: int, codes, rules: RuleSet
                  ) -> tuple[list[int], list[int], list[int], list[int]]:
    """(front, middle, back, discards) of a hand of the rule set that holds the special
    ``kind``: 13 of its cards that make it, split into rows that show it (a special not
    made of rows, any split), and the cards it does not keep (16 or 17 dealt)."""
    codes = [int(c) for c in codes]
    if rules.plain_deal or (len(codes) == 13 and all(c < 52 for c in codes)
                             and len(set(codes)) == 13):
        return (*_split_showing(kind, codes), [])
    return _split_any(kind, codes, rules.automatic_wins_wild)


def automatic_win(cards: CardsLike, rules: "str | RuleSet" = "classic") -> Optional[AutomaticWin]:
    """The best automatic win (special hand) a hand allows under ``rules``, with a split
    that shows it, or ``None``: the strongest of the rule set's specials the cards hold
    (:func:`kind_order`).  ``cards``: the 13 set, or the cards dealt (16 or 17 where the
    rule set deals them: the special is held when 13 of them make it, and the answer's
    ``discards`` are the others).  Rule sets without automatic wins have none.

    >>> automatic_win("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As").name
    'dragon'
    """
    rs = rule_set(rules)
    codes = to_codes(cards, rs)
    if len(codes) not in (13, rs.cards_dealt):
        dealt = "13" if rs.cards_dealt == 13 else f"13 or {rs.cards_dealt}"
        raise ValueError(f"an automatic win takes {dealt} cards, not {len(codes)}")
    kind = special_of(codes, rs)
    if kind == KIND_NONE:
        return None
    name = KIND_NAMES[kind]
    front, middle, back, discards = special_split(kind, codes, rs)
    return AutomaticWin(name, rs.automatic_wins[name], format_cards(front),
                        format_cards(middle), format_cards(back), format_cards(discards))
