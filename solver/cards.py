"""Card notation <-> card codes and hand bitmasks.  The bit layout is documented here once.

Card codes
----------
Every physical card has a code 0..67::

    code = 13 * slot + rank          for real cards
    rank: 0 = deuce, 1 = trey, ..., 12 = ace
    slot: 0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs, 4 = the second set of spades
    65, 66, 67                       the three jokers

So ``As`` is 12, ``2h`` is 13, the second ``As`` (``joker``/``bonus`` decks) is 64.  The
second spade is the same card as the first for play (the joker and bonus rules:
"completely identical", docs/rules.md#card-notation); it only needs a code of its own so
that a hand can hold both.

Hand bitmask
------------
A hand (any set of physical cards) is a Python ``int`` with bit ``code`` set for each card:
bits 0-12 spades, 13-25 hearts, 26-38 diamonds, 39-51 clubs (a 13-bit rank mask per suit),
52-64 the second spade set, and bits 65-67 the jokers held (a unary joker count).  Kernels
take rows as arrays of card codes (``uint8``), never as Python objects.
"""
from __future__ import annotations

import functools
import re
from typing import Iterable, Union

from ._checks import check_int, is_int
from .rules import RuleSet, rule_set

RANKS = "23456789TJQKA"          # rank index 0 (deuce) .. 12 (ace)
SUITS = "shdc"                   # suit index 0..3; the second spade set is suit 0 again
SECOND_SPADE_SLOT = 4
FIRST_JOKER = 65
N_CODES = 68

CardsLike = Union[str, int, Iterable[int], Iterable[str]]

_SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}
_JOKER_TOKENS = {"jk", "x"}
_TOKEN_SPLIT = re.compile(r"[\s,]+")
# Phones and chat apps send a suit symbol followed by a variation selector (U+FE0F: draw
# it as an emoji; U+FE0E: as text), so a pasted A♠️ looks like A♠ but is one character
# longer.  The selectors say nothing about the card: they are dropped.
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
# One card at the start of a word, for the compact notation of treys and pokerkit
# (``AsKsQsJsTs``).  Every card starts with a rank (``10`` is one) or a joker and a rank
# is never a suit, so a word splits into cards in at most one way: ``Jk`` is a joker
# because ``k`` is not a suit.
_ONE_CARD = re.compile(r"(?:10|[2-9tjqka])[shdc♠♥♦♣♤♡♢♧]|jk|x", re.IGNORECASE)


def code_rank(code: int) -> int:
    """Rank index 0..12 of a real card code (-1 for a joker)."""
    return -1 if code >= FIRST_JOKER else code % 13


def code_suit(code: int) -> int:
    """Suit index 0..3 (s h d c) of a real card code (-1 for a joker)."""
    if code >= FIRST_JOKER:
        return -1
    slot = code // 13
    return 0 if slot == SECOND_SPADE_SLOT else slot


def card_name(code: int) -> str:
    """Canonical name of one code: ``As``, ``Td``, ``Jk``."""
    if not 0 <= code < N_CODES:
        raise ValueError(f"card code {code!r} is outside 0..{N_CODES - 1}")
    if code >= FIRST_JOKER:
        return "Jk"
    return RANKS[code_rank(code)] + SUITS[code_suit(code)]


_NAMES = tuple(card_name(c) for c in range(N_CODES))


def names(codes) -> str:
    """Canonical text of card codes already known to be valid (a kernel's output): as
    :func:`format_cards` gives for them, without its checks, for the solver's hot path."""
    return " ".join(map(_NAMES.__getitem__, codes))


@functools.lru_cache(maxsize=4096)      # tokens repeat: a hand is parsed card by card
def _parse_token(token: str) -> tuple[int, int] | None:
    """(rank, suit) of one token, or None for a joker; ValueError naming a bad token."""
    low = token.lower()
    if low in _JOKER_TOKENS:
        return None
    suit_char = _SUIT_SYMBOLS.get(token[-1:], low[-1:])
    rank_text = low[:-1]
    rank_text = "t" if rank_text == "10" else rank_text
    if len(rank_text) != 1 or rank_text.upper() not in RANKS or suit_char not in SUITS:
        raise ValueError(f"unknown card {token!r}: a card is a rank 2-9 T J Q K A (or 10) "
                         f"and a suit s h d c (or a symbol), or Jk for a joker")
    return RANKS.index(rank_text.upper()), SUITS.index(suit_char)


def _card_words(word: str) -> list[str]:
    """The cards of one word: the word itself, or, written without separators
    (``AsKsQs``), its cards one by one; a ``ValueError`` naming the card that does not
    read when the word starts as cards but does not split into them."""
    if _ONE_CARD.fullmatch(word):
        return [word]
    cards, at = [], 0
    while at < len(word) and (card := _ONE_CARD.match(word, at)):
        cards.append(card.group())
        at = card.end()
    if not cards:
        return [word]                       # not cards at all: _parse_token names it
    if at < len(word):
        raise ValueError(f"unknown card {word[at:at + 2]!r} in {word!r}: cards written "
                         f"without separators are a rank and a suit each (or Jk)")
    return cards


def _as_text(cards):
    """``cards`` as text when they are given as UTF-8 ``bytes`` (as read from a file or
    socket), else as they are."""
    if isinstance(cards, (bytes, bytearray)):
        try:
            return bytes(cards).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"cards given as bytes must be UTF-8 text, not {cards!r} "
                             f"({e.reason})") from None
    return cards


def parse_codes(text: str, rules: "str | RuleSet", taken: "set[int] | None" = None) -> list[int]:
    """Card codes of ``text`` in the order written, validated against the rule set's deck.

    A second ``As`` in a deck with two spade sets takes the second spade's code.  Any
    card beyond the deck's copies is a ``ValueError`` naming it.  ``taken``: codes
    already used elsewhere (other rows, other seats); the new codes are added to it.
    """
    rs = rule_set(rules)
    if taken is None and type(text) is str:
        codes = _plain_codes(text, rs)
        if codes is not None:
            return codes
    text = _as_text(text)
    if not isinstance(text, str):
        raise ValueError(f"cards must be given as text, not {text!r} ({type(text).__name__})")
    words = _TOKEN_SPLIT.split(text.translate(_VARIATION_SELECTORS).strip())
    # Word by word (a generator, not a list): the first bad word is the one named, not
    # a later one that happens to start as cards ("hello there": 'hello', not 'er').
    tokens = (card for word in words if word for card in _card_words(word))
    taken = set() if taken is None else taken
    codes: list[int] = []
    for token in tokens:
        parsed = _parse_token(token)
        if parsed is None:
            if rs.jokers == 0:
                raise ValueError(f"joker {token!r}: the {rs.name} deck has no jokers")
            free = [c for c in range(FIRST_JOKER, FIRST_JOKER + rs.jokers) if c not in taken]
            if not free:
                raise ValueError(f"joker {token!r}: the {rs.name} deck has only "
                                 f"{rs.jokers} jokers")
            code = free[0]
        else:
            rank, suit = parsed
            code = 13 * suit + rank
            if code in taken:
                second = 13 * SECOND_SPADE_SLOT + rank
                if suit == 0 and rs.spade_copies == 2 and second not in taken:
                    code = second
                else:
                    copies = rs.spade_copies if suit == 0 else 1
                    raise ValueError(
                        f"duplicate card {token!r}: the {rs.name} deck has "
                        f"{'only one' if copies == 1 else 'only two'} "
                        f"{RANKS[rank]}{SUITS[suit]}")
        taken.add(code)
        codes.append(code)
    return codes


def _plain_tokens() -> dict[str, int]:
    """The code of every token of the common notation (``As``, ``as``, ``10s``, ``A♠``,
    ``Jk``, ``x``), FIRST_JOKER for a joker: a card word the general parse reads as
    itself, each entry taken from that parse, so the two cannot disagree."""
    ranks = [r for rank in RANKS for r in {rank, rank.lower()}] + ["10"]
    suits = [s for suit in SUITS for s in {suit, suit.upper()}] + list(_SUIT_SYMBOLS)
    words = [r + s for r in ranks for s in suits] + ["Jk", "jk", "JK", "jK", "x", "X"]
    table = {}
    for word in words:
        assert _card_words(word) == [word]
        parsed = _parse_token(word)
        table[word] = FIRST_JOKER if parsed is None else 13 * parsed[1] + parsed[0]
    return table


_PLAIN_TOKENS = _plain_tokens()


def _plain_codes(text: str, rs: RuleSet) -> "list[int] | None":
    """:func:`parse_codes` of ``text`` without ``taken``, by a dict lookup a card, when
    the text is cards of the common notation separated by whitespace (the hot path:
    ``quick_set`` hand after hand); None for anything else, and for anything the
    general parse refuses, so that it is the one that names the error.

    Equivalent because such a text has no commas, variation selectors or compact words
    (each is a token not in the table), and ``str.split`` splits on exactly the
    whitespace of ``\\s``."""
    try:
        codes = [_PLAIN_TOKENS[token] for token in text.split()]
    except KeyError:
        return None
    if codes and max(codes) < FIRST_JOKER and len(set(codes)) == len(codes):
        return codes                        # no joker, no card twice: nothing to assign
    return _with_copies(codes, rs)


def _with_copies(codes: list[int], rs: RuleSet) -> "list[int] | None":
    """``codes`` (a joker as FIRST_JOKER) with each joker and each second spade given
    its code as :func:`parse_codes` assigns them, in the order written (the first free
    joker, the second set's spade); None where parse_codes would raise."""
    out: list[int] = []
    seen: set[int] = set()      # out's codes: a hash lookup each, not a scan of out
    jokers = 0
    for code in codes:
        if code == FIRST_JOKER:
            if jokers >= rs.jokers:
                return None
            code += jokers
            jokers += 1
        elif code in seen:
            second = 13 * SECOND_SPADE_SLOT + code
            if code >= 13 or rs.spade_copies != 2 or second in seen:
                return None
            code = second
        out.append(code)
        seen.add(code)
    return out


def parse_cards(text: str, rules: "str | RuleSet") -> int:
    """Parse card notation (docs/rules.md#card-notation) into a hand bitmask, validated
    for the deck.

    >>> format_cards(parse_cards("As 10d jk, 2♣", "joker"))
    'As Td 2c Jk'
    >>> format_cards(parse_cards("A♠\ufe0f K♥\ufe0f", "classic"))      # as phones paste them
    'As Kh'
    >>> format_cards(parse_cards("AsKsQsJsTs", "classic"))           # treys, pokerkit
    'As Ks Qs Js Ts'
    >>> parse_cards("Ah Ah", "pagat")
    Traceback (most recent call last):
    ...
    ValueError: duplicate card 'Ah': the pagat deck has only one Ah
    """
    return codes_to_mask(parse_codes(text, rules))


def codes_to_mask(codes: Iterable[int]) -> int:
    mask = 0
    for c in codes:
        bit = 1 << int(c)
        if mask & bit:
            raise ValueError(f"card code {c} ({card_name(int(c))}) appears twice")
        mask |= bit
    return mask


def mask_to_codes(mask: int) -> list[int]:
    """Codes of the cards in a hand bitmask, ascending."""
    mask = check_int("hand bitmask", mask)
    if mask < 0 or mask >> N_CODES:
        raise ValueError(f"hand bitmask {mask:#x} has bits outside 0..{N_CODES - 1}")
    return [c for c in range(N_CODES) if mask >> c & 1]


def _display_order(code: int) -> tuple[int, int]:
    # Highest rank first, spades before hearts..., jokers last.
    return (13, 0) if code >= FIRST_JOKER else (12 - code_rank(code), code_suit(code))


def format_cards(cards: CardsLike) -> str:
    """Canonical text of a hand bitmask (highest rank first), or of codes or card text
    (in their order).

    Text is validated as notation (docs/rules.md#card-notation) and against the largest deck (two sets
    of spades, three jokers), since no rule set is given: ``Ah Ah`` is refused, ``As As``
    is not.

    >>> format_cards([12, 64, 65])
    'As As Jk'
    >>> format_cards("10d ah, x")
    'Td Ah Jk'
    >>> format_cards([12.0])
    Traceback (most recent call last):
    ...
    ValueError: card code must be an integer, not 12.0 (float)
    """
    cards = _as_text(cards)
    if isinstance(cards, str):
        return _format_text(cards)
    if is_int(cards):
        codes = sorted(mask_to_codes(int(cards)), key=_display_order)
    else:
        items = _items(cards)
        if items and all(isinstance(x, str) for x in items):
            return _format_text(" ".join(items))
        codes = [check_int("card code", c) for c in items]
    return " ".join(card_name(c) for c in codes)


def _format_text(text: str) -> str:
    try:
        codes = parse_codes(text, "joker")          # the deck every other deck fits in
    except ValueError as e:
        if "deck" not in str(e):
            raise
        raise ValueError(f"{e} (format_cards checks text against the largest deck: two "
                         f"sets of spades and three jokers)") from None
    return " ".join(card_name(c) for c in codes)


def _items(cards) -> list:
    """The items of a sequence of cards; a ``ValueError`` for anything else (None, 2.5)."""
    try:
        return list(cards)
    except TypeError:
        raise ValueError(f"cards must be text, a hand bitmask or a sequence of card codes "
                         f"or texts, not {cards!r} ({type(cards).__name__})") from None


def to_codes(cards: CardsLike, rules: "str | RuleSet", taken: "set[int] | None" = None) -> list[int]:
    """Codes of ``cards`` given as text (``str``, or UTF-8 ``bytes``), a hand bitmask, or
    a sequence of codes or texts.

    Validates every card against the rule set's deck (copies, jokers), counting the cards
    in ``taken`` as already used (see :func:`parse_codes`).  Codes come back in their
    canonical form: the first free copy of a spade, the first free joker.
    """
    rs = rule_set(rules)
    cards = _as_text(cards)
    if isinstance(cards, str):
        return parse_codes(cards, rs, taken)
    if is_int(cards):
        codes = mask_to_codes(int(cards))
    else:
        items = _items(cards)
        if items and all(isinstance(x, str) for x in items):
            return parse_codes(" ".join(items), rs, taken)
        codes = [check_int("card code", x) for x in items]
        if len(set(codes)) != len(codes):
            dup = next(c for c in codes if codes.count(c) > 1)
            raise ValueError(f"duplicate card code {dup} ({card_name(dup)})")
    for c in codes:
        check_code_in_deck(c, rs)
    # Through the names, so that copies are counted the same way as for text.
    return parse_codes(" ".join(card_name(c) for c in codes), rs, taken)


def check_code_in_deck(code: int, rules: RuleSet) -> None:
    name = card_name(code)  # raises for codes outside 0..67
    if code >= FIRST_JOKER and code - FIRST_JOKER >= rules.jokers:
        raise ValueError(f"joker {name!r}: the {rules.name} deck has "
                         f"{'no' if rules.jokers == 0 else 'only ' + str(rules.jokers)} jokers")
    if code < FIRST_JOKER and code // 13 == SECOND_SPADE_SLOT and rules.spade_copies < 2:
        raise ValueError(f"second {name!r}: the {rules.name} deck has only one {name}")


def deck_codes(rules: "str | RuleSet") -> list[int]:
    """Every physical card of the rule set's deck, as codes (ascending)."""
    rs = rule_set(rules)
    codes = list(range(52))
    if rs.spade_copies == 2:
        codes += list(range(52, 65))
    codes += list(range(FIRST_JOKER, FIRST_JOKER + rs.jokers))
    return codes
