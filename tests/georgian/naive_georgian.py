"""Slow, readable reference implementations of the Georgian Joker trick rules, written
straight from the rule text (docs/georgian.md), for comparison with the kernels. A play
is a tuple ``(card, mode, named)``: ``mode`` is ``None`` for a plain card or
``'high'``/``'low'`` for a joker; ``named`` is the suit a leading joker names.
"""

import math

NO_TRUMP = 4


def is_joker(card):
    return card >= 36


def suit(card):
    return card // 9


def rank(card):
    return card % 9


def led_suit(trick):
    """The suit the others must play: the suit of the card led, or the named suit."""
    card, mode, named = trick[0]
    return named if is_joker(card) else suit(card)


def legal(hand, trick, trump):
    """Every legal play of ``hand`` (a list of card ids) on ``trick`` (plays so far)."""
    plain = [c for c in hand if not is_joker(c)]
    has_joker = any(is_joker(c) for c in hand)
    options = set()
    if not trick:
        options |= {(c, None, None) for c in plain}
        if has_joker:
            options |= {(36, m, s) for m in ("high", "low") for s in range(4)}
        return options
    s_led = led_suit(trick)
    lead_card, lead_mode, _ = trick[0]
    of_suit = [c for c in plain if suit(c) == s_led]
    trumps = [c for c in plain if trump != NO_TRUMP and suit(c) == trump]
    if of_suit:
        if is_joker(lead_card) and lead_mode == "high":
            # "the others must play their highest card of that suit"
            options.add((max(of_suit, key=rank), None, None))
        else:
            options |= {(c, None, None) for c in of_suit}
    elif trumps:
        options |= {(c, None, None) for c in trumps}
    else:
        options |= {(c, None, None) for c in plain}
    if has_joker:  # "A joker can always be played."
        options |= {(36, "high", None), (36, "low", None)}
    return options


def winner(trick, trump):
    """Index (in play order) of the play that takes the trick."""
    # A joker played high on someone else's lead wins, unless a later joker is played high.
    for i in range(len(trick) - 1, 0, -1):
        card, mode, _ = trick[i]
        if is_joker(card) and mode == "high":
            return i
    lead_card, lead_mode, named = trick[0]
    trumps = [i for i, (c, _, _) in enumerate(trick) if not is_joker(c) and trump != NO_TRUMP and suit(c) == trump]
    highest_trump = max(trumps, key=lambda i: rank(trick[i][0])) if trumps else None
    if is_joker(lead_card) and lead_mode == "high":
        if named != trump and highest_trump is not None:
            return highest_trump
        return 0
    if highest_trump is not None:
        return highest_trump
    s_led = led_suit(trick)
    followers = [i for i, (c, _, _) in enumerate(trick) if not is_joker(c) and suit(c) == s_led]
    if followers:
        return max(followers, key=lambda i: rank(trick[i][0]))
    return 0  # only a low joker lead can get here: nobody followed or trumped


def score(bid, taken, hand_size):
    """The scoring table of the rules (docs/georgian.md#scoring), line by line."""
    if bid >= 1 and taken == bid == hand_size:
        return 100 * bid
    if bid >= 1 and taken == bid:
        return 50 * bid + 50
    if bid == 0 and taken == 0:
        return 50
    if bid >= 1 and taken == 0:
        return -500 if hand_size == 9 else -200
    return 10 * taken


def noisy_baseline_bid(estimate, hand_size, forbidden):
    """The baseline's bidding rule (kernels.baseline_bid) applied to an estimate, which
    may be off (even below 0): round it into 0..hand_size; a dealer whose rounded bid is
    ``forbidden`` (None: no such bid) moves up from 0, down from hand_size, else towards
    the estimate."""
    bid = min(hand_size, max(0, math.floor(estimate + 0.5)))
    if bid == forbidden:
        if bid == 0:
            bid = 1
        elif bid == hand_size:
            bid = hand_size - 1
        elif estimate > bid:
            bid += 1
        else:
            bid -= 1
    return bid


def bid_distribution(estimate, hand_size, forbidden, noise, steps=20001):
    """P(noisy_baseline_bid(estimate + e) == b) for each bid b, e ~ N(0, noise**2), by
    summing the normal density over a fine grid of errors (no closed form used)."""
    width = 10 * noise
    step = 2 * width / (steps - 1)
    probabilities = [0.0] * (hand_size + 1)
    for i in range(steps):
        e = -width + i * step
        density = math.exp(-0.5 * (e / noise) ** 2) / (noise * math.sqrt(2 * math.pi))
        probabilities[noisy_baseline_bid(estimate + e, hand_size, forbidden)] += density * step
    return probabilities
