"""Rule sets as data: every number of the rules (docs/rules.md) lives here and nowhere else.

A rule set is an immutable :class:`RuleSet` value.  Kernels never read this module; the
public functions turn a rule set into small integer arrays
(:func:`solver.scoring.scoring_params`, :func:`solver.tables.row_tables`) and pass those
to the jitted code.  This module is the bottom layer: it imports no other module of
the package, and every module that needs the rules imports it.

Rule-set names (docs/rules.md#rule-sets): ``joker``, ``bonus``, ``pagat``, ``classic``
(Western scoring) with the variants ``classic:eastern`` and ``classic:mandarin``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

# ---------------------------------------------------------------------------------------
# The one ladder (docs/rules.md#the-ladder), lowest first.  A row value's category is
# its index here, so comparing categories is comparing integers, for 3- and 5-card rows
# alike.
CATEGORIES: tuple[str, ...] = (
    "high_card", "pair", "two_pair", "trips", "bonus_trips", "joker_trips", "straight",
    "flush", "paired_flush", "full_house", "bonus_full_house", "quads", "bonus_quads",
    "straight_flush", "joker_five", "natural_five",
)
CATEGORY_INDEX: Mapping[str, int] = MappingProxyType({n: i for i, n in enumerate(CATEGORIES)})

ROWS = ("front", "middle", "back")
ROW_SIZES = (3, 5, 5)

# Scoring schemes (docs/rules.md#scoring), as small integers the jitted settlement core
# branches on.
SCHEME_SCOOP = 0        # joker, bonus: scoops, home runs, bonus points
SCHEME_ROWS = 1         # pagat: +-1 a row
SCHEME_WESTERN = 2      # classic: +-1 a row, +1 for the majority
SCHEME_EASTERN = 3      # classic:eastern: a won row scores 1 or its bonus instead
SCHEME_MANDARIN = 4     # classic:mandarin: shots double, home runs triple, bonuses add

AUTOMATIC_WINS = ("dragon", "six_pairs", "three_flushes", "three_straights")


def _bonus_table(entries: Mapping[tuple[str, str], int]) -> tuple[tuple[int, ...], ...]:
    """(row, category) -> units, as a 3 x len(CATEGORIES) tuple of tuples (0 elsewhere)."""
    table = [[0] * len(CATEGORIES) for _ in ROWS]
    for (row, category), units in entries.items():
        table[ROWS.index(row)][CATEGORY_INDEX[category]] = units
    return tuple(tuple(r) for r in table)


@dataclass(frozen=True)
class RuleSet:
    """One Chinese-poker rule set: deck, deal, ladder and scoring, as plain data.

    Attributes
    ----------
    name: registry name, e.g. ``"joker"`` or ``"classic:mandarin"``.
    spade_copies: 1, or 2 where the deck has an extra set of spades.
    jokers: wild jokers in the deck (3 in ``joker``).
    cut_card: a cut card is removed before the deal and names the Bonus rank (``bonus``).
    cards_dealt: cards each seat receives; 13 of them are set.
    seats: the numbers of seats a deal may have.
    deal_all_unseen: every card the solver cannot see is in an opponent's hand.
    scheme: one of the ``SCHEME_*`` codes.
    scoop_units, home_run_units: a scoop's units, and a home run's extra units from
        each scooped player (``SCHEME_SCOOP``).
    row_bonus: units per (row, category) won with that category; in ``SCHEME_SCOOP`` and
        ``SCHEME_MANDARIN`` they are added to the result, in ``SCHEME_EASTERN`` they
        replace the row's single point.
    front_trips_points: a Front won with trips scores this instead of 1 (mandarin).
    majority_bonus: extra point for winning at least two rows against a player (western).
    foul_penalty: units a fouled hand pays each other player (classic; 0 where a foul
        cannot be played or loses row by row).
    foul_loses_rows: a fouled hand loses every row to each valid hand (pagat).
    shot_multiplier, home_run_multiplier: mandarin row-point multipliers.
    automatic_wins: units of each automatic win the rule set allows.
    """

    name: str
    spade_copies: int
    jokers: int
    cut_card: bool
    cards_dealt: int
    seats: tuple[int, ...]
    deal_all_unseen: bool
    scheme: int
    scoop_units: int = 0
    home_run_units: int = 0
    row_bonus: tuple[tuple[int, ...], ...] = field(default_factory=lambda: _bonus_table({}))
    front_trips_points: int = 1
    majority_bonus: int = 0
    foul_penalty: int = 0
    foul_loses_rows: bool = False
    shot_multiplier: int = 1
    home_run_multiplier: int = 1
    automatic_wins: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    cards_kept = 13

    def __post_init__(self) -> None:
        if self.spade_copies not in (1, 2):
            raise ValueError(f"spade_copies must be 1 or 2, not {self.spade_copies!r}")
        if not 0 <= self.jokers <= 3:
            raise ValueError(f"jokers must be 0..3, not {self.jokers!r}")
        if self.cards_dealt < self.cards_kept:
            raise ValueError(f"cards_dealt must be at least 13, not {self.cards_dealt!r}")
        unknown = set(self.automatic_wins) - set(AUTOMATIC_WINS)
        if unknown:
            raise ValueError(f"unknown automatic wins {sorted(unknown)!r}")

    @property
    def deck_size(self) -> int:
        """Physical cards in the deck (cut card included)."""
        return 13 * (3 + self.spade_copies) + self.jokers

    @property
    def discards(self) -> int:
        """Cards a seat does not set."""
        return self.cards_dealt - self.cards_kept

    @property
    def max_seats(self) -> int:
        return max(self.seats)

    def __repr__(self) -> str:
        return f"rule_set({self.name!r})"

    def __hash__(self) -> int:
        # Names are unique in the registry; the mapping fields are not hashable.
        return hash(self.name)

    def __reduce__(self):
        # Pickled for worker processes; the read-only mapping does not pickle itself.
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields["automatic_wins"] = dict(self.automatic_wins)
        return _unpickle_rule_set, (fields,)


def _unpickle_rule_set(fields: dict) -> "RuleSet":
    fields["automatic_wins"] = MappingProxyType(fields["automatic_wins"])
    return RuleSet(**fields)


_SCOOP_COMMON = dict(deal_all_unseen=True, seats=(4,), scheme=SCHEME_SCOOP, scoop_units=1)

_CLASSIC_COMMON = dict(
    spade_copies=1, jokers=0, cut_card=False, cards_dealt=13, seats=(2, 3, 4),
    deal_all_unseen=True, foul_penalty=4,
    automatic_wins=MappingProxyType(
        {"dragon": 13, "six_pairs": 3, "three_flushes": 3, "three_straights": 3}),
)

# Eastern and Mandarin share their bonus hands (docs/rules.md#classic); Mandarin adds
# Front trips through front_trips_points instead of the table, since it multiplies like a
# row point.
_CLASSIC_BONUS_HANDS = {
    ("middle", "full_house"): 2, ("middle", "quads"): 8, ("middle", "straight_flush"): 10,
    ("back", "quads"): 4, ("back", "straight_flush"): 5,
}

_REGISTRY: dict[str, RuleSet] = {
    # docs/rules.md#joker (the jokers themselves: docs/rules.md#jokers).
    "joker": RuleSet(
        name="joker", spade_copies=2, jokers=3, cut_card=False, cards_dealt=17,
        home_run_units=3, **_SCOOP_COMMON,
        row_bonus=_bonus_table({
            ("front", "trips"): 1, ("front", "joker_trips"): 5,
            ("middle", "quads"): 2, ("middle", "straight_flush"): 2,
            ("middle", "joker_five"): 3, ("middle", "natural_five"): 12,
            ("back", "quads"): 1, ("back", "straight_flush"): 1,
            ("back", "joker_five"): 2, ("back", "natural_five"): 5,
        }),
    ),
    # docs/rules.md#bonus (its table restored from a public implementation of the game).
    "bonus": RuleSet(
        name="bonus", spade_copies=2, jokers=0, cut_card=True, cards_dealt=16,
        home_run_units=2, **_SCOOP_COMMON,
        row_bonus=_bonus_table({
            ("front", "trips"): 1, ("front", "bonus_trips"): 2,
            ("middle", "bonus_trips"): 1, ("middle", "bonus_full_house"): 2,
            ("middle", "quads"): 2, ("middle", "straight_flush"): 2,
            ("middle", "bonus_quads"): 5, ("middle", "natural_five"): 10,
            ("back", "bonus_trips"): 1, ("back", "bonus_full_house"): 1,
            ("back", "quads"): 1, ("back", "straight_flush"): 1,
            ("back", "bonus_quads"): 5, ("back", "natural_five"): 5,
        }),
    ),
    # docs/rules.md#pagat.
    "pagat": RuleSet(
        name="pagat", spade_copies=1, jokers=0, cut_card=False, cards_dealt=13,
        seats=(2, 3, 4), deal_all_unseen=False, scheme=SCHEME_ROWS, foul_loses_rows=True,
    ),
    # docs/rules.md#classic.
    "classic": RuleSet(name="classic", scheme=SCHEME_WESTERN, majority_bonus=1,
                       **_CLASSIC_COMMON),
    "classic:eastern": RuleSet(
        name="classic:eastern", scheme=SCHEME_EASTERN, **_CLASSIC_COMMON,
        row_bonus=_bonus_table({("front", "trips"): 3, **_CLASSIC_BONUS_HANDS}),
    ),
    "classic:mandarin": RuleSet(
        name="classic:mandarin", scheme=SCHEME_MANDARIN, front_trips_points=3,
        shot_multiplier=2, home_run_multiplier=3, **_CLASSIC_COMMON,
        row_bonus=_bonus_table(_CLASSIC_BONUS_HANDS),
    ),
}
_REGISTRY["classic:western"] = _REGISTRY["classic"]

RULE_SET_NAMES: tuple[str, ...] = tuple(sorted(_REGISTRY))


def rule_set(name: "str | RuleSet") -> RuleSet:
    """The rule set called ``name`` (a :class:`RuleSet` is returned as it is).

    >>> rule_set("joker").cards_dealt
    17
    >>> rule_set("poker")
    Traceback (most recent call last):
    ...
    ValueError: unknown rule set 'poker'; valid names: 'bonus', 'classic', 'classic:eastern', 'classic:mandarin', 'classic:western', 'joker', 'pagat'
    """
    if isinstance(name, RuleSet):
        return name
    try:
        return _REGISTRY[str(name).strip().lower()]
    except KeyError:
        valid = ", ".join(repr(n) for n in RULE_SET_NAMES)
        raise ValueError(f"unknown rule set {name!r}; valid names: {valid}") from None
