"""Cards of Georgian Joker: the 36-card deck, its notation and its bit layout.

Bit layout (documented once, used everywhere, including the Numba kernels):

* a plain card has the id ``9 * suit + rank``, with suits ``s h d c`` = 0..3 and
  ranks ``6 7 8 9 T J Q K A`` = 0..8 (Ace high, six low);
* the ids 0 (6s) and 27 (6c) are never used: the two black sixes are replaced by
  the two jokers, which have the ids 36 and 37;
* a set of cards is an ``int`` bitmask with bit ``id`` set for each card held
  (38 bits, so it fits an ``int64`` in the kernels).

The two jokers are interchangeable in play, so they print alike as ``Jk``. When text
is parsed, the first ``Jk`` becomes id 36 and the second id 37.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

SUITS = "shdc"
"""Suit letters in id order: spades, hearts, diamonds, clubs."""

RANKS = "6789TJQKA"
"""Rank letters in id order, lowest first (Ace high, six low)."""

NO_TRUMP = 4
"""The trump value of a deal without trump (a turned joker, or the chooser's choice)."""

JOKER_IDS = (36, 37)
"""Ids of the two jokers."""

_MISSING_SIXES = (0, 27)  # 6s and 6c: replaced by the jokers

DECK = tuple(c for c in range(36) if c not in _MISSING_SIXES) + JOKER_IDS
"""The 36 card ids of the deck, plain cards first (by suit, then rank), jokers last."""

DECK_MASK = sum(1 << c for c in DECK)
"""Bitmask of the whole deck."""

_SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_JOKER_TOKENS = {"jk", "x"}
_TRUMP_WORDS = {"none": NO_TRUMP, "nt": NO_TRUMP, "notrump": NO_TRUMP, "no trump": NO_TRUMP}


def is_joker(card: int) -> bool:
    """Return True if ``card`` is one of the two jokers.

    >>> is_joker(36), is_joker(parse_card("As"))
    (True, False)
    """
    return card in JOKER_IDS


def suit_of(card: int) -> int:
    """Suit index (0..3) of a plain card; a joker has no suit and raises ValueError.

    >>> suit_of(parse_card("Kh"))
    1
    """
    _check_id(card)
    if is_joker(card):
        raise ValueError("a joker has no suit")
    return card // 9


def rank_of(card: int) -> int:
    """Rank index (0 = six .. 8 = Ace) of a plain card; a joker raises ValueError.

    >>> rank_of(parse_card("As")), rank_of(parse_card("6h"))
    (8, 0)
    """
    _check_id(card)
    if is_joker(card):
        raise ValueError("a joker has no rank")
    return card % 9


def card_str(card: int) -> str:
    """Canonical text of one card id: ``As``, ``Td``, ``6h`` or ``Jk``.

    >>> card_str(35), card_str(37)
    ('Ac', 'Jk')
    """
    _check_id(card)
    if is_joker(card):
        return "Jk"
    return RANKS[card % 9] + SUITS[card // 9]


def cards_str(cards: Iterable[int]) -> str:
    """Canonical text of several cards, in the order given, separated by spaces.

    >>> cards_str(parse_cards("as 10d x"))
    'As Td Jk'
    """
    return " ".join(card_str(c) for c in cards)


def suit_str(suit: int) -> str:
    """Text of a trump value: a suit letter, or ``none`` for no trump.

    >>> suit_str(1), suit_str(NO_TRUMP)
    ('h', 'none')
    """
    if isinstance(suit, bool) or not isinstance(suit, int) or not 0 <= suit <= NO_TRUMP:
        raise ValueError(f"not a suit or no-trump value: {suit!r}")
    return "none" if suit == NO_TRUMP else SUITS[suit]


def parse_suit(text: str | int, *, allow_no_trump: bool = False) -> int:
    """Parse a suit (``s h d c`` or ``♠ ♥ ♦ ♣``, any case) to its index.

    With ``allow_no_trump`` the words ``none``, ``nt`` and ``no trump`` give NO_TRUMP.
    An int already in range is returned unchanged.

    >>> parse_suit("♥"), parse_suit("NT", allow_no_trump=True)
    (1, 4)
    """
    top = NO_TRUMP if allow_no_trump else NO_TRUMP - 1
    if isinstance(text, bool):
        raise ValueError(f"not a suit: {text!r}")
    if isinstance(text, int):
        if 0 <= text <= top:
            return text
        raise ValueError(f"suit index {text!r} is out of range 0..{top}")
    if not isinstance(text, str):
        raise ValueError(f"not a suit: {text!r}")
    token = text.strip().lower()
    token = _SUIT_SYMBOLS.get(token, token)
    if len(token) == 1 and token in SUITS:
        return SUITS.index(token)
    if allow_no_trump and token in _TRUMP_WORDS:
        return NO_TRUMP
    valid = "s h d c" + (" or none" if allow_no_trump else "")
    raise ValueError(f"not a suit: {text!r} (expected {valid})")


def parse_card(text: str) -> int:
    """Parse one card; a joker (``Jk``, ``JK``, ``jk``, ``X``) gives the first joker id.

    >>> parse_card("10♦"), parse_card("Jk")
    (22, 36)
    """
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    token = text.strip()
    low = token.lower()
    if low in _JOKER_TOKENS:
        return JOKER_IDS[0]
    if len(token) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank_text, suit_text = low[:-1], low[-1]
    suit_text = _SUIT_SYMBOLS.get(suit_text, suit_text)
    if rank_text == "10":
        rank_text = "t"
    if len(rank_text) != 1 or rank_text.upper() not in RANKS:
        raise ValueError(f"not a card: {text!r} (ranks are 6 7 8 9 T J Q K A)")
    if suit_text not in SUITS:
        raise ValueError(f"not a card: {text!r} (suits are s h d c)")
    card = 9 * SUITS.index(suit_text) + RANKS.index(rank_text.upper())
    if card in _MISSING_SIXES:
        raise ValueError(f"{card_str_unchecked(card)} is not in the deck: the black sixes are replaced by jokers")
    return card


def card_str_unchecked(card: int) -> str:
    """Text of a plain id even when it is not in the deck (used in error messages)."""
    return RANKS[card % 9] + SUITS[card // 9]


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Parse distinct cards from text (separated by spaces or commas) or an iterable.

    Items of an iterable may be card texts or card ids. A repeated card, or a third
    joker, is an error naming the card.

    >>> parse_cards("Jk, Ah jk")
    [36, 17, 37]
    """
    if isinstance(cards, str):
        items: list[str | int] = [t for t in cards.replace(",", " ").split() if t]
    else:
        items = list(cards)
    result: list[int] = []
    seen: set[int] = set()
    for item in items:
        if isinstance(item, bool):
            raise ValueError(f"not a card: {item!r}")
        if isinstance(item, numbers.Integral):
            item = int(item)  # numpy integers too
            _check_id(item)
            card = item
        else:
            card = parse_card(item)
        if is_joker(card):
            # Jokers are interchangeable: a text "Jk" takes the next unused joker id.
            free = [j for j in JOKER_IDS if j not in seen]
            if not free:
                raise ValueError("more than two jokers (Jk)")
            if isinstance(item, int) and card in seen:
                raise ValueError("repeated card id: " + str(card))
            if not isinstance(item, int):
                card = free[0]
        elif card in seen:
            raise ValueError(f"repeated card: {card_str(card)}")
        seen.add(card)
        result.append(card)
    return result


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of card ids.

    >>> mask_of([0 + 1, 36]) == (1 << 1) | (1 << 36)
    True
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """Card ids of a bitmask, lowest id first.

    >>> cards_of(mask_of([36, 5]))
    [5, 36]
    """
    return [c for c in range(38) if (mask >> c) & 1]


def sort_cards(cards: Iterable[int]) -> list[int]:
    """Cards sorted for display: by suit (s h d c), high rank first, jokers first of all.

    >>> cards_str(sort_cards(parse_cards("7h As Jk Ah")))
    'Jk As Ah 7h'
    """
    return sorted(cards, key=lambda c: (-1, 0) if is_joker(c) else (c // 9, -(c % 9)))


def _check_id(card: object) -> None:
    if isinstance(card, numbers.Integral) and not isinstance(card, bool):
        card = int(card)
    if isinstance(card, bool) or not isinstance(card, int) or card not in DECK:
        raise ValueError(f"not a card id of the Georgian deck: {card!r}")
