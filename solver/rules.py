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
import hashlib
import json
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

# The compiled scoring kernels (solver.scoring), as small integers.  A rule set does not
# name its kernel: :attr:`RuleSet.scheme` is derived from its scoring fields, the fastest
# kernel that computes exactly those fields (each specialised kernel is compiled on its
# own, so no rule set pays for another's branches; SCHEME_GENERAL reads every field).
SCHEME_SCOOP = 0        # joker, bonus: scoops, home runs, bonus points
SCHEME_ROWS = 1         # pagat: +-1 a row
SCHEME_WESTERN = 2      # classic: +-1 a row, +1 for the majority
SCHEME_EASTERN = 3      # classic:eastern: a won row scores 1 or its bonus instead
SCHEME_MANDARIN = 4     # classic:mandarin: shots double, home runs triple, bonuses add
SCHEME_GENERAL = 5      # any other combination of the scoring fields

# What scooping a player means (RuleSet.scoop).
SCOOP_ALL_ROWS_WON = "all_rows_won"     # winning all three rows against them
SCOOP_NO_ROW_LOST = "no_row_lost"       # losing none of the three (ties count) (joker)
SCOOP_RULES = (SCOOP_ALL_ROWS_WON, SCOOP_NO_ROW_LOST)
# How a royalty (RuleSet.row_bonus) combines with the row's points, and when it is paid.
BONUS_ADD, BONUS_REPLACE = "add", "replace"
BONUS_MODES = (BONUS_ADD, BONUS_REPLACE)
PAID_ROW_WON, PAID_ROW_MADE = "row_won", "row_made"
BONUS_PAID = (PAID_ROW_WON, PAID_ROW_MADE)

# The special-hand catalogue (solver.autowin, docs/rules.md#special-hands); a rule set
# names the ones it plays in automatic_wins.  Order: classic's four first, then the
# other special hands of 十三水 (shisanshui), strongest first by the common table.
AUTOMATIC_WINS = (
    "dragon", "six_pairs", "three_flushes", "three_straights",
    "suited_dragon", "twelve_royals", "three_straight_flushes", "three_quads", "all_big",
    "all_small", "all_one_colour", "four_trips", "five_pairs_and_trips",
)


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

    Scoring of each pair of players (docs/rules.md#scoring):

    row_points: points for winning each row, (Front, Middle, Back): (1, 1, 1) in the
        row-by-row games, (0, 0, 0) in ``joker`` and ``bonus``, which pay scoops and
        bonuses only.
    front_trips_points: a Front won with trips scores this instead of ``row_points[0]``
        (mandarin: 3); 0 for no such exception.
    majority_bonus: extra points for winning at least two rows against a player (western).
    scoop: what scooping a player means: ``"all_rows_won"`` or ``"no_row_lost"``
        (joker, bonus: ties count as not losing).
    scoop_units: units for scooping a player, from that player.
    shot_multiplier: a scoop multiplies the pair's row points (mandarin: 2).
    home_run_units: scooping every other player: extra units from each of them.
    home_run_multiplier: scooping every other player multiplies the row points by this
        instead of by ``shot_multiplier`` (mandarin: 3).
    home_run_min_seats: home runs count only at tables of at least this many seats
        (mandarin: 4).
    row_bonus: royalties, units per (row, category) of the row.
    bonus_mode: ``"add"``: a royalty is added to the row's points; ``"replace"``: a won
        row scores its royalty instead of its points where it has one (eastern).
    bonus_paid: ``"row_won"``: a royalty is paid when its row wins; ``"row_made"``:
        whenever the row is made (each opponent pays it, win or lose).
    bonus_multiplied: the shot and home-run multipliers apply to royalties too (mandarin:
        no, they multiply row points only).
    foul_penalty: units a fouled hand pays each other player (classic).
    foul_loses_rows: a fouled hand loses every row, and the scoop, to each valid hand
        (pagat).  With neither, a foul cannot be played (joker, bonus).
    automatic_wins: the special hands (automatic wins) the rule set plays, each with the
        units it collects from each opponent: names of :data:`AUTOMATIC_WINS`
        (docs/rules.md#special-hands).  They need 13 cards dealt from the plain 52-card
        pack.
    automatic_wins_declared: ``True``: a player holding a special hand may declare it
        instead of setting (classic; the solver declares when that is worth more);
        ``False``: a hand holding one is scored as it, with no choice.
    automatic_win_strength: how two special hands at one table compare: name -> strength
        (a larger number is stronger) for every special the rule set plays; the stronger
        collects its units from the weaker, equal strengths score 0.  Empty (the default):
        a special's strength is its units (classic: a dragon, 13, beats the others, 3,
        which tie).

    Derived: ``scheme``, the compiled scoring kernel that computes exactly these fields
    (the ``SCHEME_*`` codes; see :func:`kernel_scheme`).
    """

    name: str
    spade_copies: int
    jokers: int
    cut_card: bool
    cards_dealt: int
    seats: tuple[int, ...]
    deal_all_unseen: bool
    row_points: tuple[int, int, int] = (1, 1, 1)
    front_trips_points: int = 0
    majority_bonus: int = 0
    scoop: str = SCOOP_ALL_ROWS_WON
    scoop_units: int = 0
    shot_multiplier: int = 1
    home_run_units: int = 0
    home_run_multiplier: int = 1
    home_run_min_seats: int = 2
    row_bonus: tuple[tuple[int, ...], ...] = field(default_factory=lambda: _bonus_table({}))
    bonus_mode: str = BONUS_ADD
    bonus_paid: str = PAID_ROW_WON
    bonus_multiplied: bool = False
    foul_penalty: int = 0
    foul_loses_rows: bool = False
    automatic_wins: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    automatic_wins_declared: bool = True
    automatic_win_strength: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({}))

    cards_kept = 13

    def __post_init__(self) -> None:
        if self.spade_copies not in (1, 2):
            raise ValueError(f"spade_copies must be 1 or 2, not {self.spade_copies!r}")
        if not 0 <= self.jokers <= 3:
            raise ValueError(f"jokers must be 0..3, not {self.jokers!r}")
        if self.cards_dealt < self.cards_kept:
            raise ValueError(f"cards_dealt must be at least 13, not {self.cards_dealt!r}")
        self._check_automatic_wins()
        for name, value, valid in (("scoop", self.scoop, SCOOP_RULES),
                                   ("bonus_mode", self.bonus_mode, BONUS_MODES),
                                   ("bonus_paid", self.bonus_paid, BONUS_PAID)):
            if value not in valid:
                raise ValueError(f"{name} must be one of {valid!r}, not {value!r}")
        # Derived once: the kernels' dispatch code, and a hash over the whole content
        # (two rule sets of one name but different rules must not share a cache entry).
        object.__setattr__(self, "scheme", kernel_scheme(self))
        object.__setattr__(self, "_hash", hash(tuple(
            tuple(sorted(v.items())) if isinstance(v, Mapping) else v
            for v in (getattr(self, f.name) for f in dataclasses.fields(self)))))

    def _check_automatic_wins(self) -> None:
        unknown = set(self.automatic_wins) - set(AUTOMATIC_WINS)
        if unknown:
            raise ValueError(f"unknown automatic wins {sorted(unknown)!r}; valid: "
                             f"{', '.join(AUTOMATIC_WINS)}")
        for name, units in self.automatic_wins.items():
            if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
                raise ValueError(f"automatic win {name!r}: units must be a positive "
                                 f"integer, not {units!r}")
        if not isinstance(self.automatic_wins_declared, bool):
            raise ValueError(f"automatic_wins_declared must be true or false, not "
                             f"{self.automatic_wins_declared!r}")
        strength = self.automatic_win_strength
        if strength and set(strength) != set(self.automatic_wins):
            raise ValueError(f"automatic_win_strength must rank exactly the rule set's "
                             f"automatic wins {sorted(self.automatic_wins)!r}, not "
                             f"{sorted(strength)!r}")
        for name, value in strength.items():
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"automatic_win_strength of {name!r} must be a positive "
                                 f"integer, not {value!r}")
        # The definitions are of 13 cards of one plain pack: with a second spade a hand
        # can hold the same card twice (is As As a pair toward six pairs? two suits of
        # flush?), a joker would need its own rules for each special, and with more than
        # 13 cards dealt the special would be of the 13 kept; no table of them covers these.
        if self.automatic_wins and (self.spade_copies != 1 or self.jokers != 0
                                    or self.cards_dealt != 13):
            raise ValueError("automatic wins need 13 cards dealt from the plain 52-card "
                             "pack (spade_copies 1, jokers 0, cards_dealt 13)")

    def automatic_win_strengths(self) -> dict[str, int]:
        """Each special hand's strength (``automatic_win_strength``, or its units where
        that is empty).

        >>> rule_set("classic").automatic_win_strengths()["dragon"]
        13
        """
        return dict(self.automatic_win_strength or self.automatic_wins)

    def automatic_win_order(self) -> tuple[str, ...]:
        """The rule set's special hands strongest first, then by units, then in the
        catalogue's order: the order they are looked for in, so that a hand counts as the
        strongest it holds.

        >>> rule_set("classic").automatic_win_order()
        ('dragon', 'six_pairs', 'three_flushes', 'three_straights')
        """
        strength = self.automatic_win_strengths()
        return tuple(sorted(self.automatic_wins, key=lambda n: (
            -strength[n], -self.automatic_wins[n], AUTOMATIC_WINS.index(n))))

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
        return self._hash

    @property
    def digest(self) -> str:
        """A short hex digest of the rules themselves, every field but the name: what a
        cache of anything derived from the rules (models, pools) is keyed on, so two files
        with the same rules share it and a changed rule set never reads another's.

        >>> rule_set("classic").digest == rule_set("classic:western").digest
        True
        >>> rule_set("classic").digest == rule_set("classic:eastern").digest
        False
        """
        content = {f.name: (dict(v) if isinstance(v, Mapping) else v)
                   for f in dataclasses.fields(self) if f.name != "name"
                   for v in (getattr(self, f.name),)}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __reduce__(self):
        # Pickled for worker processes; the read-only mapping does not pickle itself.
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        mappings = [name for name, v in fields.items() if isinstance(v, Mapping)]
        for name in mappings:
            fields[name] = dict(fields[name])
        return _unpickle_rule_set, (fields, mappings)


def _unpickle_rule_set(fields: dict, mappings=("automatic_wins",)) -> "RuleSet":
    for name in mappings:
        fields[name] = MappingProxyType(fields[name])
    return RuleSet(**fields)


def kernel_scheme(rs: RuleSet) -> int:
    """The fastest compiled scoring kernel that computes exactly ``rs``'s scoring fields:
    a specialised one (``SCHEME_SCOOP`` ... ``SCHEME_MANDARIN``) where the fields are a
    combination it was written for, else ``SCHEME_GENERAL``.  Each test below lists
    every field its kernel ignores as being at the value that makes ignoring it exact."""
    no_bonus = not any(any(row) for row in rs.row_bonus)
    plain_bonus = (rs.bonus_paid == PAID_ROW_WON and not rs.bonus_multiplied)
    foul_penalty_only = rs.foul_penalty > 0 and not rs.foul_loses_rows
    if (rs.row_points == (0, 0, 0) and rs.front_trips_points == 0 and rs.majority_bonus == 0
            and rs.scoop == SCOOP_NO_ROW_LOST and rs.shot_multiplier == 1
            and rs.home_run_multiplier == 1 and rs.home_run_min_seats <= 2
            and rs.bonus_mode == BONUS_ADD and plain_bonus and rs.foul_penalty == 0
            and not rs.foul_loses_rows and not rs.automatic_wins):
        return SCHEME_SCOOP
    ones = rs.row_points == (1, 1, 1)
    no_extras = (rs.scoop_units == 0 and rs.shot_multiplier == 1 and rs.home_run_units == 0
                 and rs.home_run_multiplier == 1)
    if (ones and rs.front_trips_points == 0 and rs.majority_bonus == 0 and no_extras
            and no_bonus and rs.foul_loses_rows and rs.foul_penalty == 0
            and not rs.automatic_wins):
        return SCHEME_ROWS
    if (ones and rs.front_trips_points == 0 and no_extras and no_bonus
            and foul_penalty_only):
        return SCHEME_WESTERN
    if (ones and rs.front_trips_points == 0 and rs.majority_bonus == 0 and no_extras
            and rs.bonus_mode == BONUS_REPLACE and plain_bonus and foul_penalty_only):
        return SCHEME_EASTERN
    if (ones and rs.majority_bonus == 0 and rs.scoop == SCOOP_ALL_ROWS_WON
            and rs.scoop_units == 0 and rs.home_run_units == 0 and rs.home_run_min_seats == 4
            and rs.bonus_mode == BONUS_ADD and plain_bonus and foul_penalty_only):
        return SCHEME_MANDARIN
    return SCHEME_GENERAL


_SCOOP_COMMON = dict(deal_all_unseen=True, seats=(4,), row_points=(0, 0, 0),
                     scoop=SCOOP_NO_ROW_LOST, scoop_units=1)

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
        seats=(2, 3, 4), deal_all_unseen=False, foul_loses_rows=True,
    ),
    # docs/rules.md#classic.
    "classic": RuleSet(name="classic", majority_bonus=1, **_CLASSIC_COMMON),
    "classic:eastern": RuleSet(
        name="classic:eastern", bonus_mode=BONUS_REPLACE, **_CLASSIC_COMMON,
        row_bonus=_bonus_table({("front", "trips"): 3, **_CLASSIC_BONUS_HANDS}),
    ),
    "classic:mandarin": RuleSet(
        name="classic:mandarin", front_trips_points=3, shot_multiplier=2,
        home_run_multiplier=3, home_run_min_seats=4, **_CLASSIC_COMMON,
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
