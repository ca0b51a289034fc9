"""Numba kernels of Georgian Joker: legal plays, trick winners, the baseline policy,
consistent sampling of unseen cards, and playouts.

Kernels assume clean input; the validating public API is in ``engine``, ``rules`` and
``advisor``. Every kernel takes its data as arguments (no array globals, since Numba
freezes globals into compiled code) and works on ``int64`` values only, so the same
code runs compiled and under ``NUMBA_DISABLE_JIT=1``.

Cards are ids and card sets are bitmasks, as documented in ``cards``. One deal in
progress is an ``int64`` *deal vector*; the offsets below name its fields.

Play codes (one ``int64`` per play):

* ``0..35``: the plain card with that id;
* ``JOKER_CODE + 5 * mode + named``: a joker, ``mode`` LOW (0) or HIGH (1), ``named``
  the suit named by a joker that leads, or 4 (no suit) for a joker on a follow.

Random numbers come from an explicit xorshift128 state (four 32-bit words in an
``int64[4]`` array, never all zero) passed into every kernel that draws; only masked
32-bit arithmetic is used, so nothing overflows an ``int64``.
"""

from __future__ import annotations

import numba
import numpy as np

# --- cards (see cards.py) ----------------------------------------------------------
JOKER_A = 36
JOKER_B = 37
JOKER_BITS = (1 << 36) | (1 << 37)
PLAIN_DECK_BITS = ((1 << 36) - 1) & ~1 & ~(1 << 27)  # no 6s, no 6c
DECK_BITS = PLAIN_DECK_BITS | JOKER_BITS
ONE_SUIT_BITS = (1 << 9) - 1
NO_TRUMP = 4
MASK32 = (1 << 32) - 1

# --- joker modes and play codes --------------------------------------------------------
LOW = 0
HIGH = 1
NOT_JOKER = -1
NO_SUIT = 4
JOKER_CODE = 40
MAX_PLAYS = 48  # 36 plain ids + 8 joker leads is the most a hand can have, with room

# --- deal vector layout ------------------------------------------------------------------
HAND = 0  # 4 entries: each seat's hand (bitmask)
BID = 4  # 4 entries: each seat's bid, -1 while not bid
TAKEN = 8  # 4 entries: tricks taken so far
TRUMP = 12  # suit 0..3 or NO_TRUMP
HAND_SIZE = 13  # cards dealt to each seat (= tricks in the deal)
DEALER = 14
LEADER = 15  # seat that leads the current trick
COUNT = 16  # cards played to the current trick so far
LEAD_SUIT = 17  # suit led, or the suit named by a leading joker
LEAD_JOKER = 18  # NOT_JOKER, or LOW / HIGH for a joker lead
TRICK_CARD = 19  # 4 entries: cards of the current trick, in play order
TRICK_MODE = 23  # 4 entries: joker mode of each of those cards (NOT_JOKER for plain)
PLAYED = 27  # bitmask of every card played so far (public)
TRICKS_DONE = 28
DEAL_VECTOR_SIZE = 29

# --- scoring array layout (filled from rules.Scoring) ------------------------------------
SCORE_MADE_BASE = 0  # bid n >= 1 made: MADE_PER_BID * n + MADE_BASE
SCORE_MADE_PER_BID = 1
SCORE_ALL_PER_BID = 2  # bid every trick and took them all: ALL_PER_BID * n
SCORE_PASS = 3  # bid 0, took none
SCORE_MISS_PER_TRICK = 4  # missed the bid: this much per trick taken
SCORE_KHISHTI = 5  # bid n >= 1, took none
SCORE_KHISHTI_FULL_DECK = 6  # the same in a deal of FULL_DECK_SIZE cards
SCORE_FULL_DECK_SIZE = 7
SCORING_SIZE = 8


# ===================================================================== small helpers
@numba.njit(cache=True)
def suit_bits(suit):
    """Bitmask of every id of one suit (0..3); no-trump has no cards."""
    if suit < 0 or suit >= NO_TRUMP:
        return 0
    return ONE_SUIT_BITS << (9 * suit)


@numba.njit(cache=True)
def popcount(mask):
    """Number of set bits of a non-negative int64."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@numba.njit(cache=True)
def highest_card(mask):
    """Highest plain id in ``mask`` (the highest rank when ``mask`` is one suit), or -1."""
    for c in range(35, -1, -1):
        if (mask >> c) & 1:
            return c
    return -1


@numba.njit(cache=True)
def joker_code(mode, named):
    """Play code of a joker played ``mode`` (LOW/HIGH) naming ``named`` (or NO_SUIT)."""
    return JOKER_CODE + 5 * mode + named


@numba.njit(cache=True)
def strength(card, trump):
    """Order of plain cards for choosing among them: any trump above any other card."""
    if trump != NO_TRUMP and card // 9 == trump:
        return 9 + card % 9
    return card % 9


# ============================================================================ random
@numba.njit(cache=True)
def next_u32(state):
    """Marsaglia's xorshift128: the next 32-bit value of ``state`` (int64[4])."""
    t = state[0]
    t ^= (t << 11) & MASK32
    t ^= t >> 8
    w = state[3]
    state[0] = state[1]
    state[1] = state[2]
    state[2] = w
    w ^= w >> 19
    w ^= t
    state[3] = w
    return w


@numba.njit(cache=True)
def rand_below(state, n):
    """Uniform integer in ``0..n-1`` (n <= 2**31) from ``state``."""
    return (next_u32(state) * n) >> 32


# ============================================================================ scoring
@numba.njit(cache=True)
def deal_score(bid, taken, hand_size, scoring):
    """Score of one seat for one deal; ``scoring`` is the array of rules.Scoring."""
    if bid == taken:
        if bid == 0:
            return scoring[SCORE_PASS]
        if bid == hand_size:
            return scoring[SCORE_ALL_PER_BID] * bid
        return scoring[SCORE_MADE_PER_BID] * bid + scoring[SCORE_MADE_BASE]
    if taken == 0:  # bid >= 1 here: khishti
        if hand_size == scoring[SCORE_FULL_DECK_SIZE]:
            return scoring[SCORE_KHISHTI_FULL_DECK]
        return scoring[SCORE_KHISHTI]
    return scoring[SCORE_MISS_PER_TRICK] * taken


# ====================================================================== trick rules
@numba.njit(cache=True)
def trick_winner(cards, modes, count, lead_suit, lead_joker, trump):
    """Index (in play order) of the card that takes the first ``count`` cards of a trick.

    1. A joker played high on someone else's lead takes the trick, unless a later joker
       is played high: the last such joker wins.
    2. A joker led high wins, except that if the named suit is not trump and a trump
       was played, the highest trump wins.
    3. Otherwise the highest trump wins; if none, the highest card of the suit led (or
       named by a low joker); if a low joker led and neither was played, it wins.
    A low joker played on a follow never wins.
    """
    for i in range(count - 1, 0, -1):
        if cards[i] >= JOKER_A and modes[i] == HIGH:
            return i
    best = -1
    best_key = -1
    for i in range(count):
        c = cards[i]
        if c >= JOKER_A:
            continue
        s = c // 9
        if trump != NO_TRUMP and s == trump:
            key = 100 + c % 9
        elif s == lead_suit and lead_joker != HIGH:
            key = c % 9
        else:
            continue
        if key > best_key:
            best_key = key
            best = i
    if lead_joker == HIGH:
        # Only a trump (of a suit other than the one named) beats a high joker lead.
        if best >= 0 and best_key >= 100 and lead_suit != trump:
            return best
        return 0
    if best < 0:
        return 0  # a low joker led and nobody followed the named suit or trumped
    return best


@numba.njit(cache=True)
def legal_plays(deal, seat, out):
    """Write the legal play codes of ``seat`` into ``out``; return how many.

    Follow the suit led (after a high joker naming a suit: your highest card of it);
    void: play a trump if you hold one; else anything. A joker is always legal: high or
    low on a follow, and high or low naming any suit on a lead.
    """
    hand = deal[HAND + seat]
    plain = hand & ~JOKER_BITS
    count = deal[COUNT]
    if count == 0:
        allowed = plain
    else:
        in_suit = hand & suit_bits(deal[LEAD_SUIT])
        if in_suit != 0:
            if deal[LEAD_JOKER] == HIGH:
                allowed = 1 << highest_card(in_suit)
            else:
                allowed = in_suit
        else:
            trumps = hand & suit_bits(deal[TRUMP])
            allowed = trumps if trumps != 0 else plain
    n = 0
    for c in range(36):
        if (allowed >> c) & 1:
            out[n] = c
            n += 1
    if hand & JOKER_BITS:
        if count == 0:
            for mode in range(HIGH, LOW - 1, -1):
                for s in range(4):
                    out[n] = joker_code(mode, s)
                    n += 1
        else:
            out[n] = joker_code(HIGH, NO_SUIT)
            out[n + 1] = joker_code(LOW, NO_SUIT)
            n += 2
    return n


@numba.njit(cache=True)
def apply_play(deal, seat, code):
    """Play ``code`` for ``seat`` (assumed legal). Return the trick's winner seat when
    this card completes a trick (and start the next trick), else -1."""
    if code >= JOKER_CODE:
        mode = (code - JOKER_CODE) // 5
        named = (code - JOKER_CODE) % 5
        card = JOKER_A if (deal[HAND + seat] >> JOKER_A) & 1 else JOKER_B
    else:
        mode = NOT_JOKER
        named = NO_SUIT
        card = code
    deal[HAND + seat] &= ~(1 << card)
    deal[PLAYED] |= 1 << card
    i = deal[COUNT]
    if i == 0:
        if mode == NOT_JOKER:
            deal[LEAD_SUIT] = card // 9
        else:
            deal[LEAD_SUIT] = named
        deal[LEAD_JOKER] = mode
    deal[TRICK_CARD + i] = card
    deal[TRICK_MODE + i] = mode
    deal[COUNT] = i + 1
    if i + 1 < 4:
        return -1
    w = trick_winner(deal[TRICK_CARD:TRICK_CARD + 4], deal[TRICK_MODE:TRICK_MODE + 4], 4,
                     deal[LEAD_SUIT], deal[LEAD_JOKER], deal[TRUMP])
    winner = (deal[LEADER] + w) % 4
    deal[TAKEN + winner] += 1
    deal[LEADER] = winner
    deal[COUNT] = 0
    deal[TRICKS_DONE] += 1
    return winner


# =================================================================== baseline policy
@numba.njit(cache=True)
def estimate_tricks(hand, trump):
    """Rough number of tricks a hand takes: the baseline's bidding rule of thumb."""
    est = 0.0
    n_trumps = popcount(hand & suit_bits(trump))
    for c in range(38):
        if not (hand >> c) & 1:
            continue
        if c >= JOKER_A:
            est += 1.0
            continue
        s = c // 9
        r = c % 9
        if trump != NO_TRUMP and s == trump:
            if r == 8:
                est += 1.0
            elif r == 7:
                est += 0.8
            elif r == 6:
                est += 0.6
            elif r == 5:
                est += 0.4
            else:
                est += 0.25
        elif r == 8:
            est += 0.85 if trump == NO_TRUMP else 0.7
        elif r == 7 and popcount(hand & suit_bits(s)) >= 2:
            est += 0.35
    if n_trumps >= 4:
        est += 0.25 * (n_trumps - 3)  # long trumps take extra tricks by ruffing
    return est


@numba.njit(cache=True)
def forbidden_bid(deal, seat):
    """The bid the dealer may not make (bids would sum to the tricks), or -1."""
    if seat != deal[DEALER]:
        return -1
    total = 0
    for p in range(4):
        if p != seat:
            total += deal[BID + p]
    rest = deal[HAND_SIZE] - total
    return rest if rest >= 0 else -1


@numba.njit(cache=True)
def baseline_bid(deal, seat):
    """Baseline bid: the rounded trick estimate, moved by one if the dealer may not make it."""
    n = deal[HAND_SIZE]
    est = estimate_tricks(deal[HAND + seat], deal[TRUMP])
    bid = min(n, int(est + 0.5))
    if bid == forbidden_bid(deal, seat):
        if bid == 0:
            bid = 1
        elif bid == n:
            bid = n - 1
        elif est > bid:
            bid += 1
        else:
            bid -= 1
    return bid


@numba.njit(cache=True)
def baseline_trump(first_three):
    """Baseline trump choice from the chooser's first three cards: a suit held twice or
    more (the longer, then the higher ranks), else no trump."""
    best = NO_TRUMP
    best_key = -1
    for s in range(4):
        held = first_three & suit_bits(s)
        n = popcount(held)
        if n < 2:
            continue
        key = 100 * n
        for c in range(36):
            if (held >> c) & 1:
                key += c % 9
        if key > best_key:
            best_key = key
            best = s
    return best


@numba.njit(cache=True)
def is_master(card, known):
    """True if every card of the suit that ranks above ``card`` is in ``known``."""
    s = card // 9
    for r in range(card % 9 + 1, 9):
        if not (known >> (9 * s + r)) & 1:
            return False
    return True


@numba.njit(cache=True)
def _lowest_plain(codes, n, trump, prefer_plain_suits):
    """Weakest plain card among the first n codes (non-trumps first if asked), or -1."""
    best = -1
    best_key = 1000
    for i in range(n):
        c = codes[i]
        if c >= JOKER_CODE:
            continue
        key = strength(c, trump)
        if not prefer_plain_suits:
            key = c % 9
        if key < best_key:
            best_key = key
            best = c
    return best


@numba.njit(cache=True)
def _suit_to_name(deal, seat, hand, want_others_to_win):
    """Suit a leading joker names. To win: the trump (draws the top trumps), else our
    longest suit (promotes it). To lose: the suit with the most unseen cards."""
    trump = deal[TRUMP]
    if not want_others_to_win and trump != NO_TRUMP:
        return trump
    known = deal[PLAYED] | hand
    best = 0
    best_n = -1
    for s in range(4):
        if want_others_to_win:
            n = popcount(suit_bits(s) & PLAIN_DECK_BITS & ~known)
        else:
            n = popcount(hand & suit_bits(s))
        if n > best_n:
            best_n = n
            best = s
    return best


@numba.njit(cache=True)
def baseline_play(deal, seat, buf):
    """The rule-based baseline: try to take exactly the bid.

    Needing tricks: lead a master card (side suits first), else a high joker; on a
    follow, win as cheaply as is safe, else use a high joker, else shed the weakest.
    Having enough: lead low, follow with the highest card that loses, a low joker if
    every card would win.
    """
    n = legal_plays(deal, seat, buf)
    if n == 1:
        return buf[0]
    hand = deal[HAND + seat]
    trump = deal[TRUMP]
    need = deal[BID + seat] - deal[TAKEN + seat]
    has_joker = (hand & JOKER_BITS) != 0
    known = deal[PLAYED] | hand
    count = deal[COUNT]

    if count == 0:
        if need > 0:
            best = -1
            best_key = -1
            for i in range(n):
                c = buf[i]
                if c >= JOKER_CODE or not is_master(c, known):
                    continue
                key = c % 9 + (200 if strength(c, trump) < 9 else 100)
                if key > best_key:
                    best_key = key
                    best = c
            if best >= 0:
                return best
            if has_joker:
                return joker_code(HIGH, _suit_to_name(deal, seat, hand, False))
            return _lowest_plain(buf, n, trump, True)
        low = _lowest_plain(buf, n, trump, True)
        if low >= 0:
            return low
        return joker_code(LOW, _suit_to_name(deal, seat, hand, True))

    # Following: which plain cards would take the trick as it stands?
    cards = np.empty(4, np.int64)
    modes = np.empty(4, np.int64)
    for i in range(count):
        cards[i] = deal[TRICK_CARD + i]
        modes[i] = deal[TRICK_MODE + i]
    last = count == 3
    win_low = -1
    win_low_key = 1000
    win_high = -1
    win_high_key = -1
    master_low = -1
    master_low_key = 1000
    lose_high = -1
    lose_high_key = -1
    for i in range(n):
        c = buf[i]
        if c >= JOKER_CODE:
            continue
        cards[count] = c
        modes[count] = NOT_JOKER
        key = strength(c, trump)
        wins = trick_winner(cards, modes, count + 1, deal[LEAD_SUIT], deal[LEAD_JOKER], trump) == count
        if wins:
            if key < win_low_key:
                win_low_key = key
                win_low = c
            if key > win_high_key:
                win_high_key = key
                win_high = c
            if is_master(c, known) and key < master_low_key:
                master_low_key = key
                master_low = c
        elif key > lose_high_key:
            lose_high_key = key
            lose_high = c
    if need > 0:
        if win_low >= 0:
            if last:
                return win_low
            return master_low if master_low >= 0 else win_high
        if has_joker:
            return joker_code(HIGH, NO_SUIT)
        return _lowest_plain(buf, n, trump, True)
    if lose_high >= 0:
        return lose_high
    if has_joker:
        return joker_code(LOW, NO_SUIT)
    return win_high if last else win_low


@numba.njit(cache=True)
def play_out(deal, buf):
    """Finish the deal with every seat playing the baseline policy."""
    while deal[TRICKS_DONE] < deal[HAND_SIZE]:
        seat = (deal[LEADER] + deal[COUNT]) % 4
        apply_play(deal, seat, baseline_play(deal, seat, buf))


# ==================================================================== card sampling
@numba.njit(cache=True)
def _hall_ok(per_mask, capacity):
    """Hall's condition: for every set T of holders, the cards that only T can hold
    fit in T's remaining capacity. Then the remaining cards can all be placed."""
    for t in range(1, 32):
        need = 0
        for m in range(1, 32):
            if per_mask[m] and (m & ~t) == 0:
                need += per_mask[m]
        room = 0
        for h in range(5):
            if (t >> h) & 1:
                room += capacity[h]
        if need > room:
            return False
    return per_mask[0] == 0  # a card nobody may hold can never be placed


@numba.njit(cache=True)
def sample_hidden(unseen, capacity, rank_caps, state, out):
    """Deal the ``unseen`` card ids to five holders (seats 0..3 and the undealt pile, 4)
    at random, so that holder h gets ``capacity[h]`` cards and only plain cards of rank
    at most ``rank_caps[h, suit]`` (-1 = void in the suit). Jokers fit anywhere.

    Cards are placed in random order, each to a holder drawn in proportion to its room
    (uniform when there are no constraints); a draw that would leave the rest
    unplaceable (Hall's condition) is redrawn. ``out`` gets the five bitmasks.
    Return False if no consistent deal exists.
    """
    n = unseen.shape[0]
    eligible = np.zeros(n, np.int64)
    per_mask = np.zeros(32, np.int64)
    room = capacity.copy()
    for i in range(n):
        c = unseen[i]
        m = 0
        for h in range(5):
            if room[h] > 0 and (c >= JOKER_A or c % 9 <= rank_caps[h, c // 9]):
                m |= 1 << h
        eligible[i] = m
        per_mask[m] += 1
    for h in range(5):
        out[h] = 0
    if not _hall_ok(per_mask, room):
        return False
    order = np.arange(n)
    for i in range(n - 1, 0, -1):
        j = rand_below(state, i + 1)
        order[i], order[j] = order[j], order[i]
    for k in range(n):
        i = order[k]
        m = eligible[i]
        per_mask[m] -= 1
        tried = 0
        while True:
            total = 0
            for h in range(5):
                if (m >> h) & 1 and not (tried >> h) & 1:
                    total += room[h]
            if total == 0:
                return False
            pick = rand_below(state, total)
            h = 0
            for h in range(5):
                if (m >> h) & 1 and not (tried >> h) & 1:
                    if pick < room[h]:
                        break
                    pick -= room[h]
            room[h] -= 1
            if _hall_ok(per_mask, room):
                out[h] |= 1 << unseen[i]
                break
            room[h] += 1
            tried |= 1 << h
    return True


# ======================================================================== evaluation
@numba.njit(cache=True)
def evaluate_plays(deal, seat, options, n_samples, unseen, capacity, rank_caps, scoring, state):
    """Deal score of ``seat`` for each play option, per sample: the unseen cards are
    dealt consistently with what was seen, the option is played, and every seat then
    plays the baseline to the end. The same sampled deal serves every option (common
    random numbers). Return (scores[n_samples, n_options], ok)."""
    n_options = options.shape[0]
    scores = np.zeros((n_samples, n_options))
    hands = np.zeros(5, np.int64)
    buf = np.zeros(MAX_PLAYS, np.int64)
    for s in range(n_samples):
        if not sample_hidden(unseen, capacity, rank_caps, state, hands):
            return scores, False
        base = deal.copy()
        for p in range(4):
            if p != seat:
                base[HAND + p] = hands[p]
        for i in range(n_options):
            work = base.copy()
            apply_play(work, seat, options[i])
            play_out(work, buf)
            scores[s, i] = deal_score(work[BID + seat], work[TAKEN + seat], work[HAND_SIZE], scoring)
    return scores, True


@numba.njit(cache=True)
def evaluate_bids(deal, seat, options, n_samples, unseen, capacity, rank_caps, scoring, state):
    """Deal score of ``seat`` for each bid option, per sample: unseen cards dealt at
    random, the seats still to bid bid by the baseline, then baseline play to the end.
    Return (scores[n_samples, n_options], ok)."""
    n_options = options.shape[0]
    scores = np.zeros((n_samples, n_options))
    hands = np.zeros(5, np.int64)
    buf = np.zeros(MAX_PLAYS, np.int64)
    dealer = deal[DEALER]
    for s in range(n_samples):
        if not sample_hidden(unseen, capacity, rank_caps, state, hands):
            return scores, False
        base = deal.copy()
        for p in range(4):
            if p != seat:
                base[HAND + p] = hands[p]
        for i in range(n_options):
            work = base.copy()
            work[BID + seat] = options[i]
            p = seat
            while p != dealer:
                p = (p + 1) % 4
                work[BID + p] = baseline_bid(work, p)
            play_out(work, buf)
            scores[s, i] = deal_score(work[BID + seat], work[TAKEN + seat], work[HAND_SIZE], scoring)
    return scores, True
