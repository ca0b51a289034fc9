"""Numba kernels of Georgian Joker: legal plays, trick winners, the baseline policy,
what plays reveal, the likelihood of a bid, consistent sampling of unseen cards,
playouts, and the advisor's own decisions inside playouts (for the trump choice).

Kernels assume clean input; the validating public API is in ``engine``, ``rules`` and
``advisor``. Every kernel takes its data as arguments (no array globals, since Numba
freezes globals into compiled code) and works on ``int64`` values (scores, weights and
probabilities on ``float64``), so the same code runs compiled and under
``NUMBA_DISABLE_JIT=1``. All are compiled by ``solver._jit.njit`` (cached on disk).

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

import math

import numpy as np

from .._jit import njit

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
@njit
def suit_bits(suit):
    """Bitmask of every id of one suit (0..3); no-trump has no cards."""
    if suit < 0 or suit >= NO_TRUMP:
        return 0
    return ONE_SUIT_BITS << (9 * suit)


@njit
def popcount(mask):
    """Number of set bits of a non-negative int64."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit
def highest_card(mask):
    """Highest plain id in ``mask`` (the highest rank when ``mask`` is one suit), or -1."""
    for c in range(35, -1, -1):
        if (mask >> c) & 1:
            return c
    return -1


@njit
def joker_code(mode, named):
    """Play code of a joker played ``mode`` (LOW/HIGH) naming ``named`` (or NO_SUIT)."""
    return JOKER_CODE + 5 * mode + named


@njit
def strength(card, trump):
    """Order of plain cards for choosing among them: any trump above any other card."""
    if trump != NO_TRUMP and card // 9 == trump:
        return 9 + card % 9
    return card % 9


# ============================================================================ random
@njit
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


@njit
def rand_below(state, n):
    """Uniform integer in ``0..n-1`` (n <= 2**31) from ``state``."""
    return (next_u32(state) * n) >> 32


# ============================================================================ scoring
@njit
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
@njit
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


@njit
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


@njit
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


@njit
def record_inference(rank_caps, seat, card, lead_suit, lead_joker, trump):
    """Update ``rank_caps`` (int64[4, 4], see ``engine.SeatView``) with what the plain
    ``card`` that ``seat`` played on someone else's lead reveals about the rest of its
    hand: not following shows a void in the suit led (and in trumps, when it did not
    trump either); after a high joker lead it had to play its highest card of the
    named suit, so nothing higher is left."""
    suit = card // 9
    if suit != lead_suit:
        rank_caps[seat, lead_suit] = -1
        if trump != NO_TRUMP and suit != trump:
            rank_caps[seat, trump] = -1
    elif lead_joker == HIGH:
        rank_caps[seat, suit] = min(rank_caps[seat, suit], card % 9 - 1)


# =================================================================== baseline policy
@njit
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


@njit
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


@njit
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


@njit
def normal_cdf(x):
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@njit
def _rounded_probability(b, est, n, noise):
    """P(the baseline's rounding of ``est + e`` gives ``b``), e ~ N(0, noise**2): the
    noisy estimate falls in [b - 0.5, b + 0.5), open-ended at 0 and at ``n``."""
    lo = 0.0 if b == 0 else normal_cdf((b - 0.5 - est) / noise)
    hi = 1.0 if b == n else normal_cdf((b + 0.5 - est) / noise)
    return hi - lo


@njit
def bid_probability(hand, bid, trump, n, forbidden, noise):
    """Probability that a seat holding ``hand`` (all its cards as dealt, ``n`` of them)
    bids ``bid`` if it bids like ``baseline_bid`` from a trick estimate that is off by a
    normal error of sd ``noise`` (tricks): it bids the estimate rounded into 0..n, and a
    dealer whose rounded bid is the ``forbidden`` one (-1: none) moves by one as
    ``baseline_bid`` does (up from 0, down from n, else towards its estimate)."""
    est = estimate_tricks(hand, trump)
    if bid == forbidden:
        return 0.0
    p = _rounded_probability(bid, est, n, noise)
    if forbidden >= 0:
        f = forbidden
        if f == 0 and bid == 1:
            p += _rounded_probability(0, est, n, noise)
        elif f == n and bid == n - 1:
            p += _rounded_probability(n, est, n, noise)
        elif 0 < f < n:
            middle = normal_cdf((f - est) / noise)
            if bid == f + 1:  # the estimate rounded to f but lay above it
                p += normal_cdf((f + 0.5 - est) / noise) - middle
            elif bid == f - 1:
                p += middle - normal_cdf((f - 0.5 - est) / noise)
    return p


@njit
def dealt_hand(hand, played):
    """A seat's hand as dealt: what it holds now and what it has played. Jokers count
    by number (a play does not say which of the two it was)."""
    jokers = popcount(hand & JOKER_BITS) + popcount(played & JOKER_BITS)
    cards = (hand | played) & ~JOKER_BITS
    if jokers >= 1:
        cards |= 1 << JOKER_A
    if jokers >= 2:
        cards |= 1 << JOKER_B
    return cards


@njit
def bid_log_likelihood(deal, viewer, played_by, noise):
    """Log-probability of the bids the seats other than ``viewer`` have made, given the
    hands in ``deal`` (with ``played_by[p]``, the cards seat p has played, put back),
    under ``bid_probability``. 0 when ``noise`` <= 0 (bids ignored)."""
    if noise <= 0.0:
        return 0.0
    total = 0.0
    for p in range(4):
        bid = deal[BID + p]
        if p == viewer or bid < 0:
            continue
        hand = dealt_hand(deal[HAND + p], played_by[p])
        prob = bid_probability(hand, bid, deal[TRUMP], deal[HAND_SIZE], forbidden_bid(deal, p), noise)
        total += math.log(max(prob, 1e-300))
    return total


@njit
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


@njit
def is_master(card, known):
    """True if every card of the suit that ranks above ``card`` is in ``known``."""
    s = card // 9
    for r in range(card % 9 + 1, 9):
        if not (known >> (9 * s + r)) & 1:
            return False
    return True


@njit
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


@njit
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


@njit
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


@njit
def play_out(deal, buf):
    """Finish the deal with every seat playing the baseline policy."""
    while deal[TRICKS_DONE] < deal[HAND_SIZE]:
        seat = (deal[LEADER] + deal[COUNT]) % 4
        apply_play(deal, seat, baseline_play(deal, seat, buf))


# ==================================================================== card sampling
@njit
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


@njit
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
@njit
def evaluate_plays(deal, seat, options, n_samples, unseen, capacity, rank_caps, played_by, noise, scoring,
                   state):
    """Deal score of ``seat`` for each play option, per sample: the unseen cards are
    dealt consistently with what was seen, the option is played, and every seat then
    plays the baseline to the end. The same sampled deal serves every option (common
    random numbers). Each sample's log-weight is the log-likelihood of the others' bids
    given its hands (``bid_log_likelihood``). Return (scores[n_samples, n_options],
    log_weights[n_samples], ok)."""
    n_options = options.shape[0]
    scores = np.zeros((n_samples, n_options))
    log_weights = np.zeros(n_samples)
    hands = np.zeros(5, np.int64)
    buf = np.zeros(MAX_PLAYS, np.int64)
    for s in range(n_samples):
        if not sample_hidden(unseen, capacity, rank_caps, state, hands):
            return scores, log_weights, False
        base = deal.copy()
        for p in range(4):
            if p != seat:
                base[HAND + p] = hands[p]
        log_weights[s] = bid_log_likelihood(base, seat, played_by, noise)
        for i in range(n_options):
            work = base.copy()
            apply_play(work, seat, options[i])
            play_out(work, buf)
            scores[s, i] = deal_score(work[BID + seat], work[TAKEN + seat], work[HAND_SIZE], scoring)
    return scores, log_weights, True


@njit
def evaluate_bids(deal, seat, options, n_samples, unseen, capacity, rank_caps, noise, scoring, state):
    """Deal score of ``seat`` for each bid option, per sample: unseen cards dealt at
    random, the seats still to bid bid by the baseline, then baseline play to the end.
    Log-weights as in ``evaluate_plays`` (from the bids already made). Return
    (scores[n_samples, n_options], log_weights[n_samples], ok)."""
    n_options = options.shape[0]
    scores = np.zeros((n_samples, n_options))
    log_weights = np.zeros(n_samples)
    hands = np.zeros(5, np.int64)
    buf = np.zeros(MAX_PLAYS, np.int64)
    nothing_played = np.zeros(4, np.int64)
    dealer = deal[DEALER]
    for s in range(n_samples):
        if not sample_hidden(unseen, capacity, rank_caps, state, hands):
            return scores, log_weights, False
        base = deal.copy()
        for p in range(4):
            if p != seat:
                base[HAND + p] = hands[p]
        log_weights[s] = bid_log_likelihood(base, seat, nothing_played, noise)
        for i in range(n_options):
            work = base.copy()
            work[BID + seat] = options[i]
            p = seat
            while p != dealer:
                p = (p + 1) % 4
                work[BID + p] = baseline_bid(work, p)
            play_out(work, buf)
            scores[s, i] = deal_score(work[BID + seat], work[TAKEN + seat], work[HAND_SIZE], scoring)
    return scores, log_weights, True


@njit
def weighted_summary(scores, log_weights):
    """Weighted mean of each column of ``scores`` (weights ``exp(log_weights)``), its
    standard error, and the effective number of samples (sum w)^2 / sum w^2.

    The standard error is the self-normalised importance-sampling one,
    sqrt(sum w^2 (x - mean)^2) / sum w, times sqrt(n_eff / (n_eff - 1)) so that equal
    weights give the usual sd / sqrt(n); NaN when n_eff is 1."""
    n, m = scores.shape
    top = log_weights.max()
    w = np.exp(log_weights - top)
    total = w.sum()
    squares = (w * w).sum()
    n_eff = total * total / squares
    means = np.zeros(m)
    errors = np.zeros(m)
    for j in range(m):
        mean = 0.0
        for i in range(n):
            mean += w[i] * scores[i, j]
        mean /= total
        spread = 0.0
        for i in range(n):
            d = scores[i, j] - mean
            spread += w[i] * w[i] * d * d
        means[j] = mean
        if n_eff > 1.0 + 1e-9:
            errors[j] = math.sqrt(spread * n_eff / (n_eff - 1.0)) / total
        else:
            errors[j] = np.nan
    return means, errors, n_eff


@njit
def _best(scores, log_weights):
    """Index of the option with the highest weighted mean (the first, on ties)."""
    means, _, _ = weighted_summary(scores, log_weights)
    best = 0
    for j in range(1, means.shape[0]):
        if means[j] > means[best]:
            best = j
    return best


@njit
def cards_array(mask):
    """The card ids of ``mask``, lowest first, as an int64 array."""
    out = np.empty(popcount(mask), np.int64)
    n = 0
    for c in range(38):
        if (mask >> c) & 1:
            out[n] = c
            n += 1
    return out


@njit
def hidden_inputs(deal, seat, known_extra, rank_caps):
    """What ``seat`` cannot see in ``deal``, for ``sample_hidden``: the unseen cards,
    the holders' capacities (the other seats' card counts, the rest to the pile) and
    the rank caps (``rank_caps`` for the seats, none for the pile). ``known_extra`` is
    any other card the seat has seen (the turned card). Only the other seats' card
    counts are read, never their cards."""
    unseen = cards_array(DECK_BITS & ~(deal[HAND + seat] | deal[PLAYED] | known_extra))
    capacity = np.zeros(5, np.int64)
    for p in range(4):
        if p != seat:
            capacity[p] = popcount(deal[HAND + p])
    capacity[4] = unseen.shape[0] - capacity[:4].sum()
    caps = np.full((5, 4), 8, np.int64)
    caps[:4] = rank_caps
    return unseen, capacity, caps


@njit
def advisor_bid(deal, seat, n_samples, noise, scoring, state):
    """The advisor's bid for ``seat`` (the seat to bid in ``deal``): the legal bid with
    the highest weighted mean of ``evaluate_bids`` (as ``advisor.advise_bid`` picks).
    Assumes a deal of the full deck (no turned card) and no card played yet."""
    n = deal[HAND_SIZE]
    forbidden = forbidden_bid(deal, seat)
    options = np.empty(n + 1 - (1 if forbidden >= 0 else 0), np.int64)
    k = 0
    for b in range(n + 1):
        if b != forbidden:
            options[k] = b
            k += 1
    unseen, capacity, caps = hidden_inputs(deal, seat, 0, np.full((4, 4), 8, np.int64))
    scores, log_weights, ok = evaluate_bids(deal, seat, options, n_samples, unseen, capacity, caps, noise,
                                            scoring, state)
    if not ok:  # cannot happen for an unconstrained deal; bid as the baseline would
        return baseline_bid(deal, seat)
    return options[_best(scores, log_weights)]


@njit
def advisor_play(deal, seat, rank_caps, played_by, known_extra, n_samples, noise, scoring, state, buf):
    """The advisor's play for ``seat`` (to move in ``deal``): the legal play with the
    highest weighted mean of ``evaluate_plays`` (as ``advisor.advise_play`` picks);
    no sampling when the play is forced."""
    n = legal_plays(deal, seat, buf)
    if n == 1:
        return buf[0]
    options = buf[:n].copy()
    unseen, capacity, caps = hidden_inputs(deal, seat, known_extra, rank_caps)
    scores, log_weights, ok = evaluate_plays(deal, seat, options, n_samples, unseen, capacity, caps, played_by,
                                             noise, scoring, state)
    if not ok:  # cannot happen: the caps come from a real deal; play as the baseline would
        return baseline_play(deal, seat, buf)
    return options[_best(scores, log_weights)]


@njit
def advisor_play_out(deal, seat, known_extra, n_samples, noise, scoring, state):
    """Finish the deal (bids made, no card played yet) with ``seat`` playing the
    advisor's choices and every other seat the baseline. The advisor sees only its
    own cards, the cards played and what they reveal (``record_inference``)."""
    rank_caps = np.full((4, 4), 8, np.int64)
    played_by = np.zeros(4, np.int64)
    buf = np.zeros(MAX_PLAYS, np.int64)
    while deal[TRICKS_DONE] < deal[HAND_SIZE]:
        p = (deal[LEADER] + deal[COUNT]) % 4
        if p == seat:
            code = advisor_play(deal, seat, rank_caps, played_by, known_extra, n_samples, noise, scoring, state,
                                buf)
        else:
            code = baseline_play(deal, p, buf)
        if code >= JOKER_CODE:
            played_by[p] |= 1 << (JOKER_A if (deal[HAND + p] >> JOKER_A) & 1 else JOKER_B)
        else:
            played_by[p] |= 1 << code
            if deal[COUNT] > 0:
                record_inference(rank_caps, p, code, deal[LEAD_SUIT], deal[LEAD_JOKER], deal[TRUMP])
        apply_play(deal, p, code)


@njit
def _fmix32(h):
    """MurmurHash3's 32-bit finaliser (a bijection that scrambles every bit)."""
    h ^= h >> 16
    h = _mul32(h, 0x85EBCA6B)
    h ^= h >> 13
    h = _mul32(h, 0xC2B2AE35)
    h ^= h >> 16
    return h


@njit
def _mul32(a, b):
    """The low 32 bits of a * b for 32-bit a and b, without overflowing an int64."""
    low = a * (b & 0xFFFF)
    high = (a * (b >> 16)) & 0xFFFF
    return (low + (high << 16)) & MASK32


@njit
def spawn_state(state):
    """A new xorshift128 state drawn from ``state``, at an unrelated point of the
    sequence (its words are scrambled, not the next outputs themselves, which would
    just continue ``state``'s own sequence)."""
    child = np.zeros(4, np.int64)
    for i in range(4):
        child[i] = _fmix32(next_u32(state) ^ (0x9E3779B9 * (i + 1) & MASK32))
    if child[0] == 0 and child[1] == 0 and child[2] == 0 and child[3] == 0:
        child[0] = 1
    return child


@njit
def evaluate_trumps(deal, chooser, n_samples, playout_samples, noise, scoring, state):
    """The chooser's deal score for each trump choice (suits 0..3, then NO_TRUMP), per
    sample, in a 9-card deal: the 33 cards the chooser has not seen (``deal`` holds only
    its first three) are dealt at random, then for each choice the chooser bids and
    plays as the advisor does (``advisor_bid``, ``advisor_play_out``, each decision
    sampled ``playout_samples`` times) and the others as the baseline. Every choice
    sees the same deal and the same random numbers (common random numbers).
    Return scores[n_samples, 5]."""
    unseen = cards_array(DECK_BITS & ~deal[HAND + chooser])
    capacity = np.zeros(5, np.int64)
    for p in range(4):
        capacity[p] = deal[HAND_SIZE] - popcount(deal[HAND + p])
    caps = np.full((5, 4), 8, np.int64)
    hands = np.zeros(5, np.int64)
    scores = np.zeros((n_samples, NO_TRUMP + 1))
    for s in range(n_samples):
        sample_hidden(unseen, capacity, caps, state, hands)  # always possible: nothing is constrained
        base = deal.copy()
        for p in range(4):
            base[HAND + p] |= hands[p]
        inner = spawn_state(state)
        for trump in range(NO_TRUMP + 1):
            work = base.copy()
            work[TRUMP] = trump
            draws = inner.copy()
            for i in range(4):
                p = (deal[DEALER] + 1 + i) % 4
                if p == chooser:
                    work[BID + p] = advisor_bid(work, p, playout_samples, noise, scoring, draws)
                else:
                    work[BID + p] = baseline_bid(work, p)
            advisor_play_out(work, chooser, 0, playout_samples, noise, scoring, draws)
            scores[s, trump] = deal_score(work[BID + chooser], work[TAKEN + chooser], work[HAND_SIZE], scoring)
    return scores
