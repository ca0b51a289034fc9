"""Rules of Georgian Joker as data: the scoring table, the deal schedules of the
``classic`` and ``nines`` games, and the scoring functions over them.

The scoring table (docs/georgian.md#scoring), per seat and deal:

==========================================  =========================
bid n >= 1 and took exactly n               50 n + 50
bid every trick and took them all           100 n (instead)
bid 0 (a pass) and took none                50
missed the bid but took some tricks         10 per trick taken
bid n >= 1 and took none (khishti)          -200 (-500 in a 9-card deal)
==========================================  =========================

Pulka bonus: a seat that made its bid in every deal of a pulka adds its best deal
score of that pulka once more. Nothing is taken from the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import kernels


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


@dataclass(frozen=True)
class Scoring:
    """The per-deal scoring table (the defaults are the rules, docs/georgian.md#scoring).

    >>> Scoring().score(3, 3, 5), Scoring().score(2, 0, 9)
    (200, -500)
    """

    made_base: int = 50
    made_per_bid: int = 50
    all_per_bid: int = 100
    pass_made: int = 50
    miss_per_trick: int = 10
    khishti: int = -200
    khishti_full_deck: int = -500
    full_deck_size: int = 9

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if not _is_int(value):
                raise ValueError(f"Scoring.{name} must be an int, got {value!r}")

    def as_array(self) -> np.ndarray:
        """The table as the int64 array the kernels read (layout in ``kernels``)."""
        values = np.zeros(kernels.SCORING_SIZE, np.int64)
        values[kernels.SCORE_MADE_BASE] = self.made_base
        values[kernels.SCORE_MADE_PER_BID] = self.made_per_bid
        values[kernels.SCORE_ALL_PER_BID] = self.all_per_bid
        values[kernels.SCORE_PASS] = self.pass_made
        values[kernels.SCORE_MISS_PER_TRICK] = self.miss_per_trick
        values[kernels.SCORE_KHISHTI] = self.khishti
        values[kernels.SCORE_KHISHTI_FULL_DECK] = self.khishti_full_deck
        values[kernels.SCORE_FULL_DECK_SIZE] = self.full_deck_size
        return values

    def score(self, bid: int, taken: int, hand_size: int) -> int:
        """Score of one seat for one deal of ``hand_size`` cards each.

        >>> s = Scoring()
        >>> s.score(0, 0, 4), s.score(4, 4, 4), s.score(1, 3, 4), s.score(2, 0, 4)
        (50, 400, 30, -200)
        """
        for name, value in (("bid", bid), ("taken", taken), ("hand_size", hand_size)):
            if not _is_int(value):
                raise ValueError(f"{name} must be an int, got {value!r}")
        if not 1 <= hand_size <= 9:
            raise ValueError(f"hand_size {hand_size} is out of range 1..9")
        if not 0 <= bid <= hand_size:
            raise ValueError(f"bid {bid} is out of range 0..{hand_size}")
        if not 0 <= taken <= hand_size:
            raise ValueError(f"taken {taken} is out of range 0..{hand_size}")
        return int(kernels.deal_score(int(bid), int(taken), int(hand_size), self.as_array()))


STANDARD_SCORING = Scoring()
"""The scoring table of the rules (docs/georgian.md#scoring; used by both game variants)."""


@dataclass(frozen=True)
class GameVariant:
    """A game: its name, its pulkas (each a tuple of hand sizes, one per deal) and its
    scoring table.

    >>> get_variant("nines").deal_sizes[:5]
    (9, 9, 9, 9, 9)
    """

    name: str
    pulkas: tuple[tuple[int, ...], ...]
    scoring: Scoring = STANDARD_SCORING

    def __post_init__(self) -> None:
        if not self.pulkas or any(not p for p in self.pulkas):
            raise ValueError(f"a game needs non-empty pulkas: {self.pulkas!r}")
        for pulka in self.pulkas:
            for size in pulka:
                if not _is_int(size) or not 1 <= size <= 9:
                    raise ValueError(f"hand sizes must be ints 1..9: {self.pulkas!r}")

    @property
    def deal_sizes(self) -> tuple[int, ...]:
        """Hand size of every deal, in order."""
        return tuple(size for pulka in self.pulkas for size in pulka)

    @property
    def pulka_of_deal(self) -> tuple[int, ...]:
        """Pulka index (0-based) of every deal, in order."""
        return tuple(i for i, pulka in enumerate(self.pulkas) for _ in pulka)


VARIANTS: dict[str, GameVariant] = {
    "classic": GameVariant(
        "classic",
        (tuple(range(1, 9)), (9, 9, 9, 9), tuple(range(8, 0, -1)), (9, 9, 9, 9)),
    ),
    "nines": GameVariant("nines", ((9, 9, 9, 9),) * 4),
}
"""The registered games: ``classic`` (24 deals) and ``nines`` (16 deals of 9)."""


def get_variant(variant: str | GameVariant) -> GameVariant:
    """Look up a game by name (a GameVariant passes through).

    >>> len(get_variant("classic").deal_sizes)
    24
    """
    if isinstance(variant, GameVariant):
        return variant
    if isinstance(variant, str) and variant in VARIANTS:
        return VARIANTS[variant]
    raise ValueError(f"unknown game variant {variant!r}; valid: {', '.join(sorted(VARIANTS))}")


def deal_score(bid: int, taken: int, hand_size: int, scoring: Scoring = STANDARD_SCORING) -> int:
    """Score of one seat for one deal (see the table in this module's docstring).

    >>> deal_score(3, 3, 8), deal_score(5, 5, 5), deal_score(0, 0, 1), deal_score(2, 1, 3)
    (200, 500, 50, 10)
    """
    return scoring.score(bid, taken, hand_size)


def is_khishti(bid: int, taken: int) -> bool:
    """True for a khishti: a bid of one or more tricks and no trick taken.

    >>> is_khishti(1, 0), is_khishti(0, 0)
    (True, False)
    """
    return bid >= 1 and taken == 0


def forbidden_dealer_bid(other_bids: Sequence[int], hand_size: int) -> int | None:
    """The bid the dealer may not make, given the other three bids: the one that would
    make the bids add up to the tricks in the deal (None when it is out of range).

    >>> forbidden_dealer_bid([1, 0, 2], 4), forbidden_dealer_bid([3, 3, 0], 4)
    (1, None)
    """
    rest = hand_size - sum(other_bids)
    return rest if 0 <= rest <= hand_size else None


def pulka_bonus(bids: Sequence[int], taken: Sequence[int], scores: Sequence[int]) -> int:
    """Pulka bonus of one seat: its best deal score in the pulka if it made its bid in
    every deal of the pulka (passes included), else 0.

    >>> pulka_bonus([1, 0, 2], [1, 0, 2], [100, 50, 150]), pulka_bonus([1, 0], [1, 1], [100, 10])
    (150, 0)
    """
    if not (len(bids) == len(taken) == len(scores)) or not bids:
        raise ValueError("bids, taken and scores must be non-empty and of equal length")
    if all(b == t for b, t in zip(bids, taken, strict=True)):
        return max(scores)
    return 0
