"""Naive reference implementation of the Chinese-poker rule sets.

Derived only from the rules as docs/rules.md states them: the original rule documents
of `joker`, `bonus`, `pagat` and `classic` (named under docs/rules.md#sources), with the
choices of docs/rules.md#interpretations where they are silent or ambiguous.  It is
deliberately slow and plain: it is what the fast library is checked against.  Standard
library only.

Cards are tuples (rank, suit): rank 2..14 (A = 14), suit one of 's' 'h' 'd' 'c'.
The joker is the constant JOKER.

Citations in comments: "#anchor" = that section of docs/rules.md (e.g. "#jokers"); "the
joker document" (likewise bonus, pagat, classic) = the original rule document of that rule
set, named under docs/rules.md#sources.
"""

from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

# ---------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------

CATEGORIES = ("high_card", "pair", "two_pair", "trips", "bonus_trips", "joker_trips", "straight",
              "flush", "paired_flush", "full_house", "bonus_full_house", "quads", "bonus_quads",
              "straight_flush", "joker_five", "natural_five")   # lowest first, #the-ladder
RULE_SETS = ("joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin")

# category indices, so that code below reads like the rules
(HIGH_CARD, PAIR, TWO_PAIR, TRIPS, BONUS_TRIPS, JOKER_TRIPS, STRAIGHT, FLUSH, PAIRED_FLUSH,
 FULL_HOUSE, BONUS_FULL_HOUSE, QUADS, BONUS_QUADS, STRAIGHT_FLUSH, JOKER_FIVE,
 NATURAL_FIVE) = range(len(CATEGORIES))

SUITS = ("s", "h", "d", "c")
RANKS = tuple(range(2, 15))
JOKER = (0, "jk")
DECK52 = tuple((rank, suit) for rank in RANKS for suit in SUITS)

_RANK_CHARS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
               "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_RANK_OUT = {v: k for k, v in _RANK_CHARS.items() if k != "10"}
_SUIT_CHARS = {"S": "s", "H": "h", "D": "d", "C": "c",
               "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}   # ♠ ♥ ♦ ♣

AUTOMATIC_WINS = ("dragon", "six_pairs", "three_flushes", "three_straights")
AUTOMATIC_WIN_VALUE = {"dragon": 13, "six_pairs": 3, "three_flushes": 3, "three_straights": 3}

# Interpretation (not settled by the classic document; #automatic-wins-and-fouls): when a
# seat that declared an automatic win meets a seat that fouled, the pair is settled by the
# automatic win alone (the declared hand is "not compared", so there is no showdown in
# which the foul could be exposed).  The alternative reading would add the 4-point foul
# penalty on top.
FOUL_PENALTY_ADDS_TO_AUTOMATIC_WIN = False


# ---------------------------------------------------------------------------------------
# Notation (#card-notation)
# ---------------------------------------------------------------------------------------

def parse_card(token):
    """One token -> card. Ranks 2-9 T 10 J Q K A, suits s h d c or symbols, joker Jk/X."""
    tok = token.strip()
    up = tok.upper()
    if up in ("JK", "X"):
        return JOKER
    if len(tok) < 2:
        raise ValueError("bad card %r" % token)
    rank_part, suit_part = up[:-1], up[-1]
    if rank_part not in _RANK_CHARS or suit_part not in _SUIT_CHARS:
        raise ValueError("bad card %r" % token)
    return (_RANK_CHARS[rank_part], _SUIT_CHARS[suit_part])


def parse(text):
    """'As Td 2c Jk' -> [(14,'s'), (10,'d'), (2,'c'), JOKER]. Spaces and/or commas separate.

    A list/tuple of cards (or of card strings) is accepted and returned as a list."""
    if isinstance(text, (list, tuple)):
        return [c if (isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], int))
                else parse_card(c) for c in text]
    tokens = text.replace(",", " ").split()
    return [parse_card(t) for t in tokens]


def card_str(card):
    """Canonical form, #card-notation: 'As', 'Td', 'Jk'."""
    if card == JOKER:
        return "Jk"
    return _RANK_OUT[card[0]] + card[1]


def cards_str(cards):
    return " ".join(card_str(c) for c in cards)


# ---------------------------------------------------------------------------------------
# Rule-set helpers and card-count validation (#card-notation)
# ---------------------------------------------------------------------------------------

def _base(rule_set):
    """'classic:mandarin' -> ('classic', 'mandarin'); 'joker' -> ('joker', None)."""
    if rule_set in ("classic", "classic:western"):
        return "classic", "western"
    if rule_set not in RULE_SETS:
        raise ValueError("unknown rule set %r" % (rule_set,))
    if ":" in rule_set:
        base, scheme = rule_set.split(":")
        return base, scheme
    return rule_set, None


def _cut_rank(rule_set_base, cut_rank):
    """bonus needs the Bonus rank (#bonus-cards). Accept an int 2..14, a rank ('4', 'T')
    or the cut card itself ('4c'). Other rule sets ignore it."""
    if rule_set_base != "bonus":
        return None
    if cut_rank is None:
        raise ValueError("rule set 'bonus' needs cut_rank")
    if isinstance(cut_rank, str):
        s = cut_rank.strip().upper()
        if s in _RANK_CHARS:
            cut_rank = _RANK_CHARS[s]
        else:
            cut_rank = parse_card(cut_rank)[0]
    if cut_rank not in RANKS:
        raise ValueError("bad cut rank %r" % (cut_rank,))
    return cut_rank


def _check_counts(cards, base, cut_rank=None):
    """#card-notation: in joker/bonus each spade exists twice, other cards once; jokers
    (at most 3) only in joker; in pagat/classic no repeats at all. Raises ValueError
    naming the card.  Used for single rows and for whole deals alike (a row is part of a
    deal)."""
    counts = Counter(cards)
    for card, n in counts.items():
        if card == JOKER:
            if base != "joker":
                raise ValueError("joker not allowed in rule set %r" % base)
            if n > 3:
                raise ValueError("too many copies of Jk")
            continue
        if base in ("joker", "bonus"):
            allowed = 2 if card[1] == "s" else 1
        else:
            allowed = 1
        if n > allowed:
            raise ValueError("too many copies of %s" % card_str(card))
    if base == "bonus" and cut_rank is not None:
        # the cut card is out of play, so only 4 cards of the Bonus rank remain (bonus
        # document)
        if sum(1 for c in cards if c[0] == cut_rank) > 4:
            raise ValueError("more than 4 cards of the Bonus rank %s" % _RANK_OUT[cut_rank])


# ---------------------------------------------------------------------------------------
# Evaluating a row without jokers ("plain counting")
# ---------------------------------------------------------------------------------------

def _straight_top(ranks):
    """Top card of a 5-card straight, or None. A-2-3-4-5 is the lowest, top 5
    (#tie-breaks).  No wrap-around (joker, pagat and bonus documents)."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [2, 3, 4, 5, 14]:
        return 5
    return None


def _natural_key(cards, base, cut_rank):
    """Value tuple of a 3- or 5-card row holding only real cards (#tie-breaks).

    The tuple is (category index, tie-break ranks ...); Python tuple comparison is the
    row ordering, and a Front's shorter tuple loses when a comparison reaches a kicker it
    lacks (#tie-breaks, last bullet; joker, pagat and bonus documents)."""
    ranks = sorted((c[0] for c in cards), reverse=True)
    rank_counts = Counter(ranks)
    # groups: (count, rank), biggest group first, then higher rank first
    groups = sorted(((n, r) for r, n in rank_counts.items()), reverse=True)
    biggest_n, biggest_r = groups[0]
    bonus = base == "bonus"

    def with_bonus(plain, bonus_cat, rank):
        # #bonus-cards: bonus trips / full house / quads when the trips/quads rank is the
        # Bonus rank
        return bonus_cat if (bonus and rank == cut_rank) else plain

    if len(cards) == 3:
        # Front: only trips, pair, high card; no straights or flushes (#the-ladder, every
        # rule set)
        if biggest_n == 3:
            return (with_bonus(TRIPS, BONUS_TRIPS, biggest_r), biggest_r)
        if biggest_n == 2:
            kicker = groups[1][1]
            return (PAIR, biggest_r, kicker)
        return (HIGH_CARD,) + tuple(ranks)

    assert len(cards) == 5
    is_flush = len(set(c[1] for c in cards)) == 1
    top = _straight_top(ranks)

    if biggest_n == 5:
        return (NATURAL_FIVE, biggest_r)
    if top is not None and is_flush:
        return (STRAIGHT_FLUSH, top)
    if biggest_n == 4:
        kicker = groups[1][1]
        return (with_bonus(QUADS, BONUS_QUADS, biggest_r), biggest_r, kicker)
    if biggest_n == 3 and groups[1][0] == 2:
        return (with_bonus(FULL_HOUSE, BONUS_FULL_HOUSE, biggest_r), biggest_r, groups[1][1])
    if is_flush:
        # All five cards share a suit, so a repeated rank is a repeated identical card.
        # "No card more than twice" (joker and bonus documents) means no rank repeats 3
        # times here.
        assert biggest_n <= 2
        pairs = [r for n, r in groups if n == 2]          # high to low
        singles = [r for n, r in groups if n == 1]        # high to low
        if pairs:
            # #tie-breaks / joker document: two-pair paired flushes beat one-pair ones;
            # then pairs high to low; then the other cards high to low.
            return (PAIRED_FLUSH, len(pairs)) + tuple(pairs) + tuple(singles)
        return (FLUSH,) + tuple(ranks)
    if top is not None:
        return (STRAIGHT, top)
    if biggest_n == 3:
        kickers = [r for n, r in groups if n == 1]
        return (with_bonus(TRIPS, BONUS_TRIPS, biggest_r), biggest_r) + tuple(kickers)
    if biggest_n == 2 and groups[1][0] == 2:
        return (TWO_PAIR, groups[0][1], groups[1][1], groups[2][1])
    if biggest_n == 2:
        kickers = [r for n, r in groups if n == 1]
        return (PAIR, biggest_r) + tuple(kickers)
    return (HIGH_CARD,) + tuple(ranks)


# ---------------------------------------------------------------------------------------
# Evaluating a row with jokers (#jokers): brute force
# ---------------------------------------------------------------------------------------

def _joker_key(cards):
    real = [c for c in cards if c != JOKER]
    n_jokers = len(cards) - len(real)
    if n_jokers == 0:
        return _natural_key(cards, "joker", None)
    if len(cards) == 3 and n_jokers == 3:
        # #jokers / joker document: three jokers in the Front are joker trips (one
        # value), not three Aces
        return (JOKER_TRIPS,)

    real_counts = Counter(real)
    best = None
    # Jokers are interchangeable, so a multiset of substitutes is enough.
    for substitutes in combinations_with_replacement(DECK52, n_jokers):
        counts = Counter(real_counts)
        counts.update(substitutes)
        # #jokers: no card may appear more than twice in the row (real cards and jokers)
        if max(counts.values()) > 2:
            continue
        key = _natural_key(real + list(substitutes), "joker", None)
        if best is None or key > best:
            best = key

    if best[0] == NATURAL_FIVE:
        # #jokers / joker document: five of a kind with any joker is a joker five; only
        # the rank counts
        return (JOKER_FIVE, best[1])
    # #jokers / joker document: otherwise the category is the same as without jokers.
    # (Two jokers and a card in the Front come out as trips of that card's rank by the
    # brute force itself.)
    return best


@lru_cache(maxsize=1 << 18)
def _row_key_cached(sorted_cards, base, cut_rank):
    cards = list(sorted_cards)
    if base == "joker":
        return _joker_key(cards)
    return _natural_key(cards, base, cut_rank)


# ---------------------------------------------------------------------------------------
# Public row API
# ---------------------------------------------------------------------------------------

def row_key(cards, rule_set, cut_rank=None):
    """Value tuple of a 3- or 5-card row; Python ordering of these tuples is the row
    ordering of #the-ladder and #tie-breaks (one scale for Front, Middle and Back)."""
    base, _scheme = _base(rule_set)
    cut = _cut_rank(base, cut_rank)
    cards = parse(cards)
    if len(cards) not in (3, 5):
        raise ValueError("a row has 3 or 5 cards, got %d" % len(cards))
    _check_counts(cards, base, cut)
    return _row_key_cached(tuple(sorted(cards)), base, cut)


def row_category(cards, rule_set, cut_rank=None):
    return CATEGORIES[row_key(cards, rule_set, cut_rank)[0]]


def _rows_ok_sizes(front, middle, back):
    return len(front) == 3 and len(middle) == 5 and len(back) == 5


def is_legal(front, middle, back, rule_set, cut_rank=None):
    """Front < Middle <= Back on the single value scale (#legality; joker and bonus
    documents).

    The pagat document words it as "middle must not be weaker than front"; on this scale a
    3-card Front never equals a 5-card Middle (the Front's tuple is always shorter within
    one category), so Front < Middle and Front <= Middle agree.  Wrong row sizes: False
    (pagat and classic documents)."""
    base, _scheme = _base(rule_set)
    cut = _cut_rank(base, cut_rank)
    front, middle, back = parse(front), parse(middle), parse(back)
    if not _rows_ok_sizes(front, middle, back):
        return False
    _check_counts(front + middle + back, base, cut)
    kf = row_key(front, rule_set, cut)
    km = row_key(middle, rule_set, cut)
    kb = row_key(back, rule_set, cut)
    return kf < km <= kb


# ---------------------------------------------------------------------------------------
# Automatic wins (classic, #automatic-wins)
# ---------------------------------------------------------------------------------------

def _is_front_straight(cards):
    """Three consecutive ranks; A-2-3 and Q-K-A allowed, no wrap (#automatic-wins)."""
    ranks = sorted(set(c[0] for c in cards))
    if len(ranks) != 3:
        return False
    return ranks[2] - ranks[0] == 2 or ranks == [2, 3, 14]


def _is_one_suit(cards):
    return len(set(c[1] for c in cards)) == 1


def _is_five_straight(cards):
    return _straight_top([c[0] for c in cards]) is not None


def _has_split(cards13, front_ok, five_ok):
    """Brute force over all Front 3 / Middle 5 / Back 5 splits."""
    indices = range(13)
    for f in combinations(indices, 3):
        front = [cards13[i] for i in f]
        if not front_ok(front):
            continue
        rest = [i for i in indices if i not in f]
        for m in combinations(rest, 5):
            middle = [cards13[i] for i in m]
            back = [cards13[i] for i in rest if i not in m]
            if five_ok(middle) and five_ok(back):
                return True
    return False


def _qualifies(cards13, name):
    if name == "dragon":
        # one card of each rank A to 2 (#automatic-wins); classic document: "Ace through
        # King of any suit"
        return len(set(c[0] for c in cards13)) == 13
    if name == "six_pairs":
        # Six disjoint pairs of equal rank; quads count as two pairs (classic document).
        # Interpretation: trips contain one pair (count // 2).
        return sum(n // 2 for n in Counter(c[0] for c in cards13).values()) >= 6
    if name == "three_flushes":
        # each row one suit; a straight flush counts as a flush (classic document)
        return _has_split(cards13, _is_one_suit, _is_one_suit)
    if name == "three_straights":
        # a straight flush counts as a straight (classic document)
        return _has_split(cards13, _is_front_straight, _is_five_straight)
    raise ValueError("unknown automatic win %r" % (name,))


# The whole special-hand catalogue (#special-hands): classic's four, then 十三水's others,
# then Mậu Binh's twelve of one colour.
SPECIAL_HANDS = AUTOMATIC_WINS + (
    "suited_dragon", "twelve_royals", "three_straight_flushes", "three_quads", "all_big",
    "all_small", "all_one_colour", "four_trips", "five_pairs_and_trips", "twelve_one_colour")


def _is_front_straight_flush(cards):
    return _is_one_suit(cards) and _is_front_straight(cards)


def _is_five_straight_flush(cards):
    return _is_one_suit(cards) and _is_five_straight(cards)


def holds_special(cards13, name):
    """Whether 13 cards of the plain 52-card pack hold the special hand ``name``, by its
    definition read literally (#special-hands)."""
    cards13 = parse(cards13) if isinstance(cards13, str) else cards13
    ranks = [c[0] for c in cards13]
    per_rank = Counter(ranks)
    if name in AUTOMATIC_WINS:
        return _qualifies(cards13, name)
    if name == "suited_dragon":               # A down to 2, all of one suit
        return len(set(ranks)) == 13 and _is_one_suit(cards13)
    if name == "twelve_royals":               # all thirteen cards J, Q, K or A
        return all(r >= 11 for r in ranks)
    if name == "three_straight_flushes":      # every row a straight flush (Front: 3 cards)
        return _has_split(cards13, _is_front_straight_flush, _is_five_straight_flush)
    if name == "three_quads":                 # three sets of four of a kind, and one card
        return sum(1 for n in per_rank.values() if n == 4) >= 3
    if name == "all_big":                     # every card 8 to A
        return all(r >= 8 for r in ranks)
    if name == "all_small":                   # every card 2 to 8
        return all(r <= 8 for r in ranks)
    if name == "all_one_colour":              # all spades and clubs, or hearts and diamonds
        suits = {c[1] for c in cards13}
        return suits <= set("sc") or suits <= set("hd")
    if name == "twelve_one_colour":           # some twelve of the cards all red or all black
        return any(all(c[1] in colour for c in twelve)
                   for twelve in combinations(cards13, 12) for colour in ("sc", "hd"))
    if name == "four_trips":                  # four trips of different ranks, and one card
        return any(all(per_rank[r] >= 3 for r in four)
                   for four in combinations(sorted(per_rank), 4))
    if name == "five_pairs_and_trips":        # some three cards of one rank, the other ten
        for three in combinations(range(13), 3):     # five pairs (a quad is two pairs)
            if len({ranks[i] for i in three}) != 1:
                continue
            rest = Counter(ranks[i] for i in range(13) if i not in three)
            if sum(n // 2 for n in rest.values()) == 5:
                return True
        return False
    raise ValueError("unknown special hand %r" % (name,))


def special_units(mine, theirs, units, strength=None):
    """Units a player with special hand ``mine`` (a name, or None for a hand that plays its
    rows) wins from one with ``theirs`` where at least one has a special (#special-hands):
    the stronger collects its own units, equal strengths score 0.  ``units``: name ->
    units; ``strength``: name -> strength, by default the units."""
    strength = strength or units
    mine_strength = strength[mine] if mine else 0
    theirs_strength = strength[theirs] if theirs else 0
    if mine_strength > theirs_strength:
        return units[mine]
    if theirs_strength > mine_strength:
        return -units[theirs]
    return 0


def special_hands(cards13):
    """The names of every special hand 13 cards hold, in SPECIAL_HANDS order."""
    cards13 = parse(cards13) if isinstance(cards13, str) else cards13
    if len(cards13) != 13:
        raise ValueError("special hands need 13 cards")
    _check_counts(cards13, "classic")
    return [name for name in SPECIAL_HANDS if holds_special(cards13, name)]


def automatic_win(cards13):
    """Best automatic win the 13 cards allow in `classic`, or None.
    Dragon first; then the first of six_pairs / three_flushes / three_straights."""
    cards13 = parse(cards13)
    if len(cards13) != 13:
        raise ValueError("automatic_win needs 13 cards")
    _check_counts(cards13, "classic")
    for name in AUTOMATIC_WINS:
        if _qualifies(cards13, name):
            return name
    return None


# ---------------------------------------------------------------------------------------
# Settlement
# ---------------------------------------------------------------------------------------

# Bonus tables: position (0 Front, 1 Middle, 2 Back) -> {category: units per opponent whose
# row you beat with it}.  Ties earn nothing.  Never doubled.

# The joker document's "Bonus Points" table (Middle natural five +12, its rulings; #joker).
JOKER_BONUS = (
    {TRIPS: 1, JOKER_TRIPS: 5},   # joker trips earn only the +5 (joker document)
    {QUADS: 2, STRAIGHT_FLUSH: 2, JOKER_FIVE: 3, NATURAL_FIVE: 12},
    {QUADS: 1, STRAIGHT_FLUSH: 1, JOKER_FIVE: 2, NATURAL_FIVE: 5},
)
# The #bonus table (restored; the bonus document lost it).  Not monotone in strength.
BONUS_BONUS = (
    {TRIPS: 1, BONUS_TRIPS: 2},
    {BONUS_TRIPS: 1, BONUS_FULL_HOUSE: 2, QUADS: 2, STRAIGHT_FLUSH: 2, BONUS_QUADS: 5,
     NATURAL_FIVE: 10},
    {BONUS_TRIPS: 1, BONUS_FULL_HOUSE: 1, QUADS: 1, STRAIGHT_FLUSH: 1, BONUS_QUADS: 5,
     NATURAL_FIVE: 5},
)
# Home run: 3 more from each scooped player in joker, 2 more in bonus (#joker, #bonus).
HOME_RUN_EXTRA = {"joker": 3, "bonus": 2}

# classic:eastern: the bonus points replace the 1 for a row won with that hand
# (#eastern-scoring)
EASTERN_ROW_VALUE = (
    {TRIPS: 3},
    {FULL_HOUSE: 2, QUADS: 8, STRAIGHT_FLUSH: 10},
    {QUADS: 4, STRAIGHT_FLUSH: 5},
)
# classic:mandarin: bonus points added (unmultiplied) to a row won with that hand
# (#mandarin-scoring)
MANDARIN_ADDED_BONUS = (
    {},
    {FULL_HOUSE: 2, QUADS: 8, STRAIGHT_FLUSH: 10},
    {QUADS: 4, STRAIGHT_FLUSH: 5},
)


def _parse_arrangements(arrangements):
    return [tuple(parse(row) for row in arr) for arr in arrangements]


def _check_deal(arrs, base, cut):
    all_cards = [c for arr in arrs for row in arr for c in row]
    _check_counts(all_cards, base, cut)


def settle(arrangements, rule_set, cut_rank=None, declared=None):
    """Units won (+) or lost (-) by each seat; the list sums to 0."""
    base, scheme = _base(rule_set)
    cut = _cut_rank(base, cut_rank)
    arrs = _parse_arrangements(arrangements)
    if any(len(arr) != 3 for arr in arrs):
        raise ValueError("each arrangement is (front, middle, back)")
    _check_deal(arrs, base, cut)
    if declared and base != "classic":
        raise ValueError("automatic wins exist only in classic (#automatic-wins)")
    if base in ("joker", "bonus"):
        scores = _settle_scoop(arrs, base, rule_set, cut)
    elif base == "pagat":
        scores = _settle_pagat(arrs, rule_set)
    else:
        scores = _settle_classic(arrs, scheme, rule_set, dict(declared or {}))
    assert sum(scores) == 0
    return scores


def _settle_scoop(arrs, base, rule_set, cut):
    """joker (#joker) and bonus (#bonus): scoops, home runs, bonus points."""
    if len(arrs) != 4:
        raise ValueError("%s is played by exactly 4 players" % base)
    for seat, (f, m, b) in enumerate(arrs):
        # joker and bonus documents: a fouled arrangement cannot be played, so input must
        # be legal
        if not is_legal(f, m, b, rule_set, cut):
            raise ValueError("seat %d is not legal; %s has no fouls" % (seat, base))
    keys = [[row_key(row, rule_set, cut) for row in arr] for arr in arrs]
    table = JOKER_BONUS if base == "joker" else BONUS_BONUS
    n = len(arrs)
    scores = [0] * n
    scoops = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            # Scoop: none of i's three rows loses to j's (ties count as not losing)
            if all(keys[i][r] >= keys[j][r] for r in range(3)):
                scoops[i][j] = True
                scores[i] += 1
                scores[j] -= 1
            # Bonus points: only for a row that beats j's row (not on a tie)
            for r in range(3):
                if keys[i][r] > keys[j][r]:
                    units = table[r].get(keys[i][r][0], 0)
                    scores[i] += units
                    scores[j] -= units
    for i in range(n):
        if all(scoops[i][j] for j in range(n) if j != i):
            # Home run: more from each scooped player, on top of the scoops
            for j in range(n):
                if j != i:
                    scores[i] += HOME_RUN_EXTRA[base]
                    scores[j] -= HOME_RUN_EXTRA[base]
    return scores


def _settle_pagat(arrs, rule_set):
    """#pagat: +-1 per row; a foul loses all three rows to each valid hand."""
    n = len(arrs)
    if not 2 <= n <= 4:
        raise ValueError("pagat has 2 to 4 players")
    valid = [is_legal(f, m, b, rule_set) for f, m, b in arrs]
    scores = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            if not valid[i] and not valid[j]:
                pay = 0                       # two fouls score 0 against one another
            elif not valid[i]:
                pay = -3
            elif not valid[j]:
                pay = 3
            else:
                pay = 0
                for r in range(3):
                    ki, kj = row_key(arrs[i][r], rule_set), row_key(arrs[j][r], rule_set)
                    pay += (ki > kj) - (ki < kj)
            scores[i] += pay
            scores[j] -= pay
    return scores


def _settle_classic(arrs, scheme, rule_set, declared):
    """#classic: western (default), eastern, mandarin; foul 4; automatic wins."""
    n = len(arrs)
    if not 2 <= n <= 4:
        raise ValueError("classic has 2 to 4 players")
    for seat, name in declared.items():
        if not 0 <= seat < n:
            raise ValueError("declared seat %r out of range" % (seat,))
        if name not in AUTOMATIC_WINS:
            raise ValueError("unknown automatic win %r" % (name,))
        cards13 = [c for row in arrs[seat] for c in row]
        if len(cards13) != 13 or not _qualifies(cards13, name):
            raise ValueError("seat %d cannot declare %s" % (seat, name))

    # A declared hand is not compared, so its split need not be legal (#automatic-wins).
    fouled = [seat not in declared and not is_legal(*arrs[seat], rule_set) for seat in range(n)]
    playing = [seat not in declared and not fouled[seat] for seat in range(n)]
    keys = [[row_key(row, rule_set) for row in arrs[s]] if playing[s] else None
            for s in range(n)]

    def rows_won(i, j):
        """Indices of rows where i's row beats j's row (both seats playing)."""
        return [r for r in range(3) if keys[i][r] > keys[j][r]]

    # Mandarin home run: four players, and all three rows won against all three opponents.
    # Interpretation: an opponent who fouled or declared has no rows compared, so nobody
    # can win all three rows against them, and there is no home run (#fouls-in-classic:
    # "its rows are not compared").
    home_run = [False] * n
    if scheme == "mandarin" and n == 4:
        for i in range(n):
            home_run[i] = playing[i] and all(
                playing[j] and len(rows_won(i, j)) == 3 for j in range(n) if j != i)

    def mandarin_points(i, j):
        """What j pays i for the rows i wins (i and j both playing)."""
        won = rows_won(i, j)
        row_points = 0
        added = 0
        for r in won:
            cat = keys[i][r][0]
            # a row won scores 1, a Front won with trips 3 (#mandarin-scoring)
            row_points += 3 if (r == 0 and cat == TRIPS) else 1
            # bonus hands add, unmultiplied; interpretation: only for a row won with them
            added += MANDARIN_ADDED_BONUS[r].get(cat, 0)
        if home_run[i]:
            row_points *= 3          # home run: triple instead of double
        elif len(won) == 3:
            row_points *= 2          # shot
        return row_points + added

    def eastern_points(i, j):
        total = 0
        for r in rows_won(i, j):
            # the bonus points replace the 1 (#eastern-scoring; the classic document: "the
            # winning hand earns only the bonus hand points")
            total += EASTERN_ROW_VALUE[r].get(keys[i][r][0], 1)
        return total

    def pair_payment(i, j):
        """Units j pays i (negative: i pays j)."""
        ai, aj = declared.get(i), declared.get(j)
        if ai is not None and aj is not None:
            # dragon beats every other automatic win; two non-dragons or two dragons: 0
            if ai == "dragon" and aj != "dragon":
                return AUTOMATIC_WIN_VALUE["dragon"]
            if aj == "dragon" and ai != "dragon":
                return -AUTOMATIC_WIN_VALUE["dragon"]
            return 0
        if ai is not None:
            extra = 4 if (fouled[j] and FOUL_PENALTY_ADDS_TO_AUTOMATIC_WIN) else 0
            return AUTOMATIC_WIN_VALUE[ai] + extra
        if aj is not None:
            extra = 4 if (fouled[i] and FOUL_PENALTY_ADDS_TO_AUTOMATIC_WIN) else 0
            return -(AUTOMATIC_WIN_VALUE[aj] + extra)
        if fouled[i] and fouled[j]:
            return 0                                  # two fouls score 0
        if fouled[i]:
            return -4                                 # the fouled player pays 4
        if fouled[j]:
            return 4
        if scheme == "western":
            wins = len(rows_won(i, j))
            losses = len(rows_won(j, i))
            # +-1 per row, and 1 more to whoever wins at least two of the three rows
            return wins - losses + (1 if wins >= 2 else 0) - (1 if losses >= 2 else 0)
        if scheme == "eastern":
            return eastern_points(i, j) - eastern_points(j, i)
        if scheme == "mandarin":
            return mandarin_points(i, j) - mandarin_points(j, i)
        raise ValueError("unknown scheme %r" % (scheme,))

    scores = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            pay = pair_payment(i, j)
            scores[i] += pay
            scores[j] -= pay
    return scores


# ---------------------------------------------------------------------------------------
# House rules: the general scoring (#house-rules-the-general-scoring)
# ---------------------------------------------------------------------------------------
# Any combination of the scoring fields of a rule set, read by name from ``rules`` (an
# object with those attributes: row_points, front_trips_points, majority_bonus, scoop,
# scoop_units, shot_multiplier, home_run_units, home_run_multiplier, home_run_min_seats,
# row_bonus, bonus_mode, bonus_paid, bonus_multiplied, foul_penalty, foul_loses_rows,
# automatic_wins).  Rows come as keys whose first item is the category index (as row_key
# returns, or (category, value) pairs), so it does not depend on the deck.

def settle_general(keys, rules, fouled=None, declared=None):
    """Units won (+) or lost (-) by each seat under the general scoring.

    ``keys``: each seat's three row keys (Front, Middle, Back); ``fouled``: each seat's
    foul (ignored for a seat that declared); ``declared``: {seat: automatic-win name}.
    The list sums to 0."""
    n = len(keys)
    declared = dict(declared or {})
    fouled = [bool(f) and s not in declared for s, f in enumerate(fouled or [False] * n)]
    fouls_scored = rules.foul_penalty != 0 or rules.foul_loses_rows
    if any(fouled) and not fouls_scored:
        raise ValueError("a foul cannot be played under these rules")

    def won_rows(i, j):
        """The rows i wins against j: none for a foul, all three against one, else by
        comparison."""
        if fouled[i]:
            return []
        if fouled[j]:
            return [0, 1, 2]
        return [r for r in range(3) if keys[i][r] > keys[j][r]]

    def scoops(i, j):
        """Scooping: by the scoop rule between compared hands; a valid hand scoops a foul
        only where a foul loses every row; nobody scoops or is scooped by a declared hand."""
        if i in declared or j in declared or fouled[i]:
            return False
        if fouled[j]:
            return rules.foul_loses_rows
        if rules.scoop == "no_row_lost":
            return all(keys[i][r] >= keys[j][r] for r in range(3))
        return len(won_rows(i, j)) == 3

    # A home run: scooping every other seat, at a table of at least home_run_min_seats.
    home_run = [n >= max(2, rules.home_run_min_seats)
                and all(scoops(i, j) for j in range(n) if j != i) for i in range(n)]

    def side(i, j):
        """What j pays i for i's own rows: won rows' points, royalties, multiplied."""
        won = won_rows(i, j)
        points = 0
        royalties = 0
        for r in range(3):
            category = keys[i][r][0]
            royalty = rules.row_bonus[r][category]
            if r in won:
                if rules.bonus_mode == "replace" and royalty > 0:
                    point = 0                     # the royalty is the row's score
                elif r == 0 and rules.front_trips_points and category == TRIPS:
                    point = rules.front_trips_points
                else:
                    point = rules.row_points[r]
                points += point
                royalties += royalty
            elif rules.bonus_paid == "row_made":
                royalties += royalty
        if home_run[i]:
            multiplier = rules.home_run_multiplier
        elif scoops(i, j):
            multiplier = rules.shot_multiplier
        else:
            multiplier = 1
        if rules.bonus_multiplied:
            return (points + royalties) * multiplier
        return points * multiplier + royalties

    def pair_payment(i, j):
        """Units j pays i (negative: i pays j), home-run units excluded."""
        ai, aj = declared.get(i), declared.get(j)
        if ai is not None or aj is not None:
            return special_units(ai, aj, rules.automatic_wins,
                                 rules.automatic_win_strength or None)
        if fouled[i] and fouled[j]:
            return 0
        if fouled[i]:
            return -pair_payment(j, i)
        pay = 0
        if fouled[j]:
            pay += rules.foul_penalty
            if not rules.foul_loses_rows:
                return pay                        # the penalty alone settles the pair
        pay += side(i, j) - (0 if fouled[j] else side(j, i))
        pay += rules.scoop_units * (scoops(i, j) - scoops(j, i))
        pay += rules.majority_bonus * ((len(won_rows(i, j)) >= 2) - (len(won_rows(j, i)) >= 2))
        return pay

    scores = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            pay = pair_payment(i, j) + rules.home_run_units * (home_run[i] - home_run[j])
            scores[i] += pay
            scores[j] -= pay
    assert sum(scores) == 0
    return scores
