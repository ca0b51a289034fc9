"""Rule sets as data: what every number of the rules (docs/rules.md) means, and the
registry of the shipped rule sets.

A rule set is an immutable :class:`RuleSet` value.  Kernels never read this module; the
public functions turn a rule set into small integer arrays
(:func:`solver.scoring.scoring_params`, :func:`solver.tables.row_tables`) and pass those
to the jitted code.  This module is the bottom layer with :mod:`solver.rule_file`, the
rule-set file format (docs/rule-files.md), the only module of the package it imports;
every module that needs the rules imports it.

The shipped rule sets are files, ``solver/data/rules/*.toml``, loaded here; their names
(docs/rules.md#rule-sets): ``joker``, ``bonus``, ``pagat``, ``classic`` (Western scoring,
also ``classic:western``) with the variants ``classic:eastern`` and ``classic:mandarin``,
the house rule sets ``classic-1-6``, ``two-jokers`` and ``shisanshui``
(docs/rules.md#house-rule-sets), and the regional games ``mau-binh``, ``capsa-susun`` and
``pusoy`` (docs/rules.md#regional-games).
:func:`rule_set` also reads a rule set of one's own from a file.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, SimpleNamespace
from typing import Mapping

from .rule_file import AUTOMATIC_WIN_SETTINGS, KEYS, NO_VALUE, SECTIONS, RuleFileError, nearest
from .rule_file import read as read_toml, write as write_toml

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
# The categories a 3-card Front can make, weakest first (docs/rules.md#the-ladder: no
# straights or flushes); joker trips exist only there.
FRONT_CATEGORIES = ("high_card", "pair", "trips", "bonus_trips", "joker_trips")

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
# other special hands of 十三水 (shisanshui), strongest first by the common table, then
# those of the regional games (Mậu Binh's 12 lá đồng màu).  A name's place is its code in
# the scoring core, so new ones go at the end.
AUTOMATIC_WINS = (
    "dragon", "six_pairs", "three_flushes", "three_straights",
    "suited_dragon", "twelve_royals", "three_straight_flushes", "three_quads", "all_big",
    "all_small", "all_one_colour", "four_trips", "five_pairs_and_trips",
    "twelve_one_colour",
)

MAX_CARDS_DEALT = 17          # cards a seat may be dealt; 13 of them are set
SEAT_COUNTS = (2, 3, 4, 5)    # table sizes a rule set may deal to (where the deck holds them)


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
        if not self.cards_kept <= self.cards_dealt <= MAX_CARDS_DEALT:
            raise ValueError(f"cards_dealt must be 13..{MAX_CARDS_DEALT}, not "
                             f"{self.cards_dealt!r}")
        if not self.seats or not set(self.seats) <= set(SEAT_COUNTS):
            raise ValueError(f"seats must be counts out of {SEAT_COUNTS}, not {self.seats!r}")
        if max(self.seats) * self.cards_dealt + self.cut_card > self.deck_size:
            raise ValueError(f"{max(self.seats)} seats of {self.cards_dealt} cards do not "
                             f"fit in a deck of {self.deck_size}")
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
        digest = self.__dict__.get("_digest")       # (computed once: caches ask often)
        if digest is None:
            content = self.content()
            for name in DIGEST_OMITS_AT_DEFAULT:
                if content[name] == _json_ready(_FIELD_DEFAULTS[name]):
                    del content[name]
            text = json.dumps(content, sort_keys=True, separators=(",", ":"),
                              ensure_ascii=True)
            digest = hashlib.sha256(text.encode()).hexdigest()[:16]
            object.__setattr__(self, "_digest", digest)
        return digest

    def content(self) -> dict:
        """What decides the game, as JSON-ready data: every field but the name, whatever
        fields the class has (mappings as objects, tuples as lists), so a field added
        later is in the :attr:`digest` without a line here."""
        return {f.name: _json_ready(getattr(self, f.name))
                for f in dataclasses.fields(self) if f.name != "name"}

    @classmethod
    def from_dict(cls, data: Mapping, source: str = "") -> "RuleSet":
        """The rule set a rule-set file's tables describe (docs/rule-files.md), e.g.
        ``{"name": "mine", "scoring": {"scoop_units": 3}}``; a missing key takes its
        default.  A bad key or value raises :class:`solver.rule_file.RuleFileError` (a
        ``ValueError``) naming ``source``, the key, the value and the reason.

        >>> RuleSet.from_dict(rule_set("pagat").to_dict()) == rule_set("pagat")
        True
        """
        return _rule_set_from_dict(data, source)

    @classmethod
    def from_toml(cls, text: str, source: str = "") -> "RuleSet":
        """The rule set of a rule-set file's text (docs/rule-files.md); errors name
        ``source``.  The text must give the rule set's ``name``.

        >>> RuleSet.from_toml(rule_set("joker").to_toml()) == rule_set("joker")
        True
        """
        return _rule_set_from_dict(read_toml(text, source), source)

    @classmethod
    def from_file(cls, path: "str | os.PathLike") -> "RuleSet":
        """The rule set in the TOML file ``path`` (docs/rule-files.md); its ``name``
        defaults to the file's name without ``.toml``."""
        return _rule_set_from_file(path)

    def to_dict(self) -> dict:
        """The tables of this rule set's file: :meth:`from_dict` of them is this rule set."""
        return _rule_set_to_dict(self)

    def to_toml(self, header: "tuple[str, ...]" = ()) -> str:
        """This rule set as a rule-set file (TOML, docs/rule-files.md), every key written
        out; ``header``: comment lines to put on top.  Loading it gives this rule set."""
        return write_toml(header, self.to_dict())

    def summary(self) -> str:
        """One line of what the rule set is: its deck, deal and scoring in short.

        >>> rule_set("classic").summary()
        '52 cards, 13 each to 2, 3 or 4 seats; 1 a row, +1 for two rows, a foul pays 4, 4 automatic wins'
        """
        deck = f"{52 + 13 * (self.spade_copies - 1)} cards" + (
            f" and {self.jokers} joker{'s' if self.jokers > 1 else ''}" if self.jokers else ""
        ) + (", a cut card" if self.cut_card else "")
        seats = " or ".join([", ".join(map(str, self.seats[:-1])), str(self.seats[-1])]
                            if len(self.seats) > 1 else [str(self.seats[0])])
        kept = " (13 set)" if self.cards_dealt > self.cards_kept else ""
        parts = []
        if any(self.row_points):
            points = self.row_points
            parts.append(f"{points[0]} a row" if len(set(points)) == 1
                         else "rows " + "/".join(map(str, points)))
        if self.front_trips_points:
            parts.append(f"Front trips {self.front_trips_points}")
        if self.majority_bonus:
            parts.append(f"+{self.majority_bonus} for two rows")
        scoop = "all three rows" if self.scoop == SCOOP_ALL_ROWS_WON else "no row lost"
        if self.scoop_units:
            parts.append(f"+{self.scoop_units} for {scoop}")
        if self.shot_multiplier > 1:
            parts.append(f"x{self.shot_multiplier} for {scoop}")
        home = (f" (at {self.home_run_min_seats}+ seats)"
                if self.home_run_min_seats > min(self.seats) else "")
        if self.home_run_units:
            parts.append(f"+{self.home_run_units} a home run{home}")
        if self.home_run_multiplier > 1:
            parts.append(f"x{self.home_run_multiplier} a home run{home}")
        if any(any(row) for row in self.row_bonus):
            how = (["paid whenever the row is made"] if self.bonus_paid == PAID_ROW_MADE
                   else []) + (["multiplied with the row's points"] if self.bonus_multiplied
                               else [])
            parts.append("royalties" + (" instead of the row's points"
                                        if self.bonus_mode == BONUS_REPLACE else "")
                         + (f" ({'; '.join(how)})" if how else ""))
        fouls = " and ".join(([f"pays {self.foul_penalty}"] if self.foul_penalty else [])
                             + (["loses every row"] if self.foul_loses_rows else []))
        parts.append(f"a foul {fouls or 'cannot be played'}")
        if self.automatic_wins:
            # (Declared, as in classic, is the default and goes without saying.)
            how = ([] if self.automatic_wins_declared else ["counted without declaring"]) + (
                ["ranked by their own strengths"] if self.automatic_win_strength else [])
            parts.append(f"{len(self.automatic_wins)} automatic win"
                         f"{'s' if len(self.automatic_wins) > 1 else ''}"
                         + (f" ({'; '.join(how)})" if how else ""))
        return f"{deck}, {self.cards_dealt} each{kept} to {seats} seats; " + ", ".join(parts)

    def __reduce__(self):
        # Pickled for worker processes; the read-only mapping does not pickle itself.
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        mappings = [name for name, v in fields.items() if isinstance(v, Mapping)]
        for name in mappings:
            fields[name] = dict(fields[name])
        return _unpickle_rule_set, (fields, mappings)


# Fields added after digests were first given out (caches on users' disks are named by
# them): left out of the digest while at their default, so a rule set that does not use
# them keeps the digest it had before they existed.
DIGEST_OMITS_AT_DEFAULT = ("automatic_wins_declared", "automatic_win_strength")
_FIELD_DEFAULTS = {f.name: (f.default_factory() if f.default_factory is not dataclasses.MISSING
                            else f.default)
                   for f in dataclasses.fields(RuleSet)}


def _json_ready(value):
    """``value`` with one JSON spelling: mappings as objects with text keys, tuples and
    lists as lists (a RuleSet's fields hold only these, numbers, text and booleans)."""
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    return value


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
    # (Mandarin's kernel and model look for home runs at exactly four seats.)
    if (ones and rs.majority_bonus == 0 and rs.scoop == SCOOP_ALL_ROWS_WON
            and rs.scoop_units == 0 and rs.home_run_units == 0 and rs.home_run_min_seats == 4
            and max(rs.seats) <= 4
            and rs.bonus_mode == BONUS_ADD and plain_bonus and foul_penalty_only):
        return SCHEME_MANDARIN
    return SCHEME_GENERAL


# ---------------------------------------------------------------------------------------
# Rule-set files (docs/rule-files.md).  solver.rule_file holds the layout and the TOML
# syntax; here is what each value means and which field it sets, one key to one field.

FOUL_PENALTY, FOUL_LOSES_ROWS, FOUL_NOT_ALLOWED = "penalty", "loses_rows", "not_allowed"
FOUL_RULES = (FOUL_PENALTY, FOUL_LOSES_ROWS, FOUL_NOT_ALLOWED)


def _rule_set_from_dict(data: Mapping, source: str = "", default_name: "str | None" = None
                        ) -> RuleSet:
    """The rule set a file's tables describe (see :meth:`RuleSet.from_dict`)."""
    reader = _FileReader(data, source)
    name = reader.string("", "name", default_name)
    if not name:
        raise RuleFileError(source, "name", NO_VALUE if name is None else name,
                            "a rule set needs a name")
    spade_copies = 2 if reader.boolean("deck", "extra_spades", False) else 1
    jokers = reader.integer("deck", "jokers", 0, 0, 3)
    cut_card = reader.boolean("deck", "cut_card", False)
    cards = reader.integer("deal", "cards", 13, RuleSet.cards_kept, MAX_CARDS_DEALT)
    seats = reader.seats(13 * (3 + spade_copies) + jokers, cards, cut_card)
    deal_all_unseen = reader.boolean("deal", "deal_all_unseen", True)

    row_points = tuple(reader.integers("scoring", "row_points", (1, 1, 1), len(ROWS)))
    scoring = dict(
        front_trips_points=reader.integer("scoring", "front_trips_points", 0, 0),
        majority_bonus=reader.integer("scoring", "majority_bonus", 0, 0),
        scoop=reader.choice("scoring", "scoop", SCOOP_ALL_ROWS_WON, SCOOP_RULES),
        scoop_units=reader.integer("scoring", "scoop_units", 0, 0),
        shot_multiplier=reader.integer("scoring", "shot_multiplier", 1, 1),
        home_run_units=reader.integer("scoring", "home_run_units", 0, 0),
    )
    # Unsaid, a home run multiplies as a shot does (it is a shot against everyone).
    scoring.update(
        home_run_multiplier=reader.integer("scoring", "home_run_multiplier",
                                           scoring["shot_multiplier"], 1),
        home_run_min_seats=reader.integer("scoring", "home_run_min_seats", 2, 2,
                                          max(SEAT_COUNTS)),
    )
    if ((scoring["home_run_units"]
         or scoring["home_run_multiplier"] != scoring["shot_multiplier"])
            and scoring["home_run_min_seats"] > max(seats)):
        raise RuleFileError(source, "scoring.home_run_min_seats",
                            scoring["home_run_min_seats"],
                            f"a home run pays, but never happens: deals have at most "
                            f"{max(seats)} seats")
    # A home run is a shot against every other player, and its multiplier replaces the
    # shot's: a smaller one would make scooping everyone pay less than scooping one.
    if _home_run_pays_less_than_a_shot(SimpleNamespace(seats=seats, **scoring)):
        raise RuleFileError(source, "scoring.home_run_multiplier",
                            scoring["home_run_multiplier"],
                            f"a home run would pay less than a shot (shot_multiplier = "
                            f"{scoring['shot_multiplier']}); make it at least that, or "
                            f"home_run_min_seats larger than the largest table")

    royalties = dict(bonus_mode=reader.choice("royalties", "mode", BONUS_ADD, BONUS_MODES),
                     bonus_paid=reader.choice("royalties", "paid", PAID_ROW_WON, BONUS_PAID),
                     bonus_multiplied=reader.boolean("royalties", "multiplied", False))
    royalty_units = {}
    for row in ROWS:
        for category, units in reader.units("royalties", row, CATEGORIES, 0).items():
            if (category not in FRONT_CATEGORIES if row == "front"
                    else category == "joker_trips"):
                raise RuleFileError(source, f"royalties.{row}.{category}", units,
                                    f"a {row.title()} of {ROW_SIZES[ROWS.index(row)]} cards is "
                                    f"never {category}")
            royalty_units[row, category] = units
    row_bonus = _bonus_table(royalty_units)

    rule = reader.choice("fouls", "rule", FOUL_NOT_ALLOWED, FOUL_RULES)
    penalty = reader.integer("fouls", "penalty", 0, 0)
    if rule == FOUL_PENALTY and penalty == 0:
        raise RuleFileError(source, "fouls.penalty", penalty,
                            'rule = "penalty" needs a penalty of at least 1 unit')
    if rule != FOUL_PENALTY and penalty:
        raise RuleFileError(source, "fouls.penalty", penalty,
                            f'a penalty is paid only with rule = "penalty", not {rule!r}')

    automatic_wins = reader.units("automatic_wins", None, AUTOMATIC_WINS, 1,
                                  skip=AUTOMATIC_WIN_SETTINGS)
    declared = reader.boolean("automatic_wins", "declared", True)
    strength = reader.units("automatic_wins", "strength", AUTOMATIC_WINS, 1)
    if strength and set(strength) != set(automatic_wins):
        raise RuleFileError(source, "automatic_wins.strength", ", ".join(strength),
                            "must rank every automatic win of the rule set ("
                            + (", ".join(automatic_wins) or "it has none") + ") or none")
    try:
        return RuleSet(name=name, spade_copies=spade_copies, jokers=jokers, cut_card=cut_card,
                       cards_dealt=cards, seats=seats, deal_all_unseen=deal_all_unseen,
                       row_points=row_points, **scoring, row_bonus=row_bonus, **royalties,
                       foul_penalty=penalty, foul_loses_rows=rule == FOUL_LOSES_ROWS,
                       automatic_wins=MappingProxyType(automatic_wins),
                       automatic_wins_declared=declared,
                       automatic_win_strength=MappingProxyType(strength))
    except ValueError as e:        # a rule RuleSet checks that the file's keys do not
        raise RuleFileError(source, "rules", NO_VALUE, str(e)) from None


class _FileReader:
    """Reads a file's values key by key, each checked for type and range, once every key
    of the file is known to be one of the layout's (solver.rule_file.KEYS)."""

    def __init__(self, data: Mapping, source: str):
        if not isinstance(data, Mapping):
            raise RuleFileError(source, "rules", data, "a rule set is a table of keys")
        self.data, self.source = data, source
        for section in SECTIONS:
            if section in data and not isinstance(data[section], Mapping):
                raise RuleFileError(source, section, data[section],
                                    f"must be a table ([{section}])")
        self._no_unknown_keys()

    def _no_unknown_keys(self):
        top = {"name"} | set(SECTIONS)
        for key, value in self.data.items():
            if key not in top:
                home = [k.section for k in KEYS if k.name == key and k.section]
                reason = (f"unknown key; it belongs in [{home[0]}]" if home
                          else f"unknown key{nearest(key, top)}")
                raise RuleFileError(self.source, key, value, reason)
        for section in SECTIONS:
            if section == "automatic_wins":        # names, checked as they are read
                continue
            valid = [k.name for k in KEYS if k.section == section and not k.name.isupper()]
            valid += list(ROWS) if section == "royalties" else []
            for key, value in self.data.get(section, {}).items():
                if key not in valid:
                    raise RuleFileError(self.source, f"{section}.{key}", value,
                                        f"unknown key{nearest(key, valid)}")

    def raw(self, section: str, key: str, default):
        table = self.data.get(section, {}) if section else self.data
        return table.get(key, default)

    def fail(self, section: str, key: str, value, reason: str):
        raise RuleFileError(self.source, f"{section}.{key}" if section else key, value, reason)

    def string(self, section, key, default):
        value = self.raw(section, key, default)
        if value is not None and not isinstance(value, str):
            self.fail(section, key, value, "must be a string")
        return value

    def boolean(self, section, key, default):
        value = self.raw(section, key, default)
        if not isinstance(value, bool):
            self.fail(section, key, value, "must be true or false")
        return value

    def integer(self, section, key, default, low, high=None, value=NO_VALUE):
        if value is NO_VALUE:
            value = self.raw(section, key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(section, key, value, "must be a whole number")
        if value < low or (high is not None and value > high):
            span = f"at least {low}" if high is None else f"from {low} to {high}"
            self.fail(section, key, value, f"must be {span}")
        return value

    def integers(self, section, key, default, length):
        value = self.raw(section, key, default)
        if not isinstance(value, (list, tuple)) or len(value) != length:
            self.fail(section, key, value, f"must be a list of {length} whole numbers")
        for v in value:
            self.integer(section, key, None, 0, value=v)
        return value

    def choice(self, section, key, default, valid):
        value = self.raw(section, key, default)
        if value not in valid or not isinstance(value, str):
            self.fail(section, key, value, "must be one of "
                      + ", ".join(f'"{v}"' for v in valid)
                      + (nearest(value, valid) if isinstance(value, str) else ""))
        return value

    def seats(self, deck_size: int, cards: int, cut_card: bool) -> tuple[int, ...]:
        value = self.raw("deal", "seats", [2, 3, 4])
        if not isinstance(value, (list, tuple)) or not value:
            self.fail("deal", "seats", value, "must be a list of seat counts, e.g. [2, 3, 4]")
        for n in value:
            self.integer("deal", "seats", None, min(SEAT_COUNTS), max(SEAT_COUNTS), value=n)
        if len(set(value)) != len(value):
            self.fail("deal", "seats", value, "lists a seat count twice")
        needed = max(value) * cards + cut_card
        if needed > deck_size:
            self.fail("deal", "seats", value,
                      f"{max(value)} seats of {cards} cards"
                      + (" and the cut card" if cut_card else "")
                      + f" need {needed} cards; the deck has {deck_size}")
        return tuple(sorted(value))

    def units(self, section: str, table: "str | None", valid, low: int,
              skip=()) -> dict[str, int]:
        """The table ``section.table`` (``table`` None: the section itself, but for its
        keys ``skip``) of names in ``valid`` -> units of at least ``low``."""
        key = f"{section}.{table}" if table else section
        entries = self.data.get(section, {})
        entries = entries.get(table, {}) if table else entries
        if not isinstance(entries, Mapping):
            raise RuleFileError(self.source, key, entries,
                                f"must be a table of {', '.join(valid[:3])}, ... = units")
        out = {}
        for name, units in entries.items():
            if name in skip:
                continue
            if name not in valid:
                raise RuleFileError(self.source, f"{key}.{name}", units,
                                    f"unknown name{nearest(name, valid)}")
            out[name] = self.integer(key, name, None, low, value=units)
        return out


def _home_run_pays_less_than_a_shot(rs) -> bool:
    """Whether a home run can happen under ``rs`` and multiplies less than a shot.  Only
    the file format refuses it: a :class:`RuleSet` so made still settles as its fields say
    (the scoring tests draw such combinations at random), and :func:`solver.solve`
    refuses it (its pruning assumes a home run never pays less than a shot)."""
    return (rs.home_run_multiplier < rs.shot_multiplier
            and rs.home_run_min_seats <= max(rs.seats))


def _rule_set_to_dict(rs: RuleSet) -> dict:
    """The file's tables for ``rs`` (see :meth:`RuleSet.to_dict`)."""
    if rs.foul_penalty and rs.foul_loses_rows:
        raise ValueError(f"the {rs.name} rule set both charges a foul penalty and makes a "
                         "foul lose every row; a rule-set file says one or the other")
    if _home_run_pays_less_than_a_shot(rs):
        raise ValueError(f"the {rs.name} rule set has a home run multiplying less than a "
                         "shot; a rule-set file refuses that")
    royalties: dict = dict(mode=rs.bonus_mode, paid=rs.bonus_paid,
                           multiplied=rs.bonus_multiplied)
    for row, units in zip(ROWS, rs.row_bonus):
        entries = {category: u for category, u in zip(CATEGORIES, units) if u}
        if entries:
            royalties[row] = entries
    rule = (FOUL_PENALTY if rs.foul_penalty else
            FOUL_LOSES_ROWS if rs.foul_loses_rows else FOUL_NOT_ALLOWED)
    return {
        "name": rs.name,
        "deck": dict(extra_spades=rs.spade_copies == 2, jokers=rs.jokers,
                     cut_card=rs.cut_card),
        "deal": dict(cards=rs.cards_dealt, seats=list(rs.seats),
                     deal_all_unseen=rs.deal_all_unseen),
        "scoring": dict(row_points=list(rs.row_points),
                        front_trips_points=rs.front_trips_points,
                        majority_bonus=rs.majority_bonus, scoop=rs.scoop,
                        scoop_units=rs.scoop_units, shot_multiplier=rs.shot_multiplier,
                        home_run_units=rs.home_run_units,
                        home_run_multiplier=rs.home_run_multiplier,
                        home_run_min_seats=rs.home_run_min_seats),
        "royalties": royalties,
        "fouls": dict(rule=rule, penalty=rs.foul_penalty),
        "automatic_wins": _automatic_wins_table(rs),
    }


def _automatic_wins_table(rs: RuleSet) -> dict:
    """The ``[automatic_wins]`` table: the units of each, then whether they are declared
    (where there are any, or it is not the default) and their strengths (where given)."""
    table: dict = {name: rs.automatic_wins[name] for name in AUTOMATIC_WINS
                   if name in rs.automatic_wins}
    if rs.automatic_wins or not rs.automatic_wins_declared:
        table["declared"] = rs.automatic_wins_declared
    if rs.automatic_win_strength:
        table["strength"] = {name: rs.automatic_win_strength[name] for name in AUTOMATIC_WINS
                             if name in rs.automatic_win_strength}
    return table


def _rule_set_from_file(path: "str | os.PathLike") -> RuleSet:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such rule-set file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot read the rule-set file ({e})") from None
    return _rule_set_from_dict(read_toml(text, str(path)), str(path), default_name=path.stem)


# The shipped rule sets (solver/data/rules/*.toml; docs/rules.md#rule-sets), and the
# other names of some of them.
RULES_DIR = Path(__file__).parent / "data" / "rules"
_ALIASES = {"classic:western": "classic"}


def _load_registry() -> dict[str, RuleSet]:
    registry = {}
    for path in sorted(RULES_DIR.glob("*.toml")):
        rs = _rule_set_from_file(path)
        registry[rs.name] = rs
    for alias, name in _ALIASES.items():
        registry[alias] = registry[name]
    return registry


_REGISTRY: dict[str, RuleSet] = _load_registry()

RULE_SET_NAMES: tuple[str, ...] = tuple(sorted(_REGISTRY))


def is_rule_file(name: "str | os.PathLike | RuleSet") -> bool:
    """Whether ``name`` names a rule-set file rather than a registered rule set: a path,
    or a string ending in ``.toml``."""
    return isinstance(name, os.PathLike) or (isinstance(name, str)
                                             and name.strip().lower().endswith(".toml"))


def rule_set(name: "str | os.PathLike | RuleSet") -> RuleSet:
    """The rule set called ``name``, or the one in the file ``name`` (a path, or a string
    ending in ``.toml``: docs/rule-files.md); a :class:`RuleSet` is returned as it is.

    >>> rule_set("joker").cards_dealt
    17
    >>> rule_set("poker")
    Traceback (most recent call last):
    ...
    ValueError: unknown rule set 'poker'; valid names: 'bonus', 'capsa-susun', 'classic', 'classic-1-6', 'classic:eastern', 'classic:mandarin', 'classic:western', 'joker', 'mau-binh', 'pagat', 'pusoy', 'shisanshui', 'two-jokers' (or a rule-set file, NAME.toml)
    """
    if isinstance(name, RuleSet):
        return name
    if is_rule_file(name):
        return _rule_set_from_file(name)
    try:
        return _REGISTRY[str(name).strip().lower()]
    except KeyError:
        valid = ", ".join(repr(n) for n in RULE_SET_NAMES)
        raise ValueError(f"unknown rule set {name!r}; valid names: {valid} "
                         "(or a rule-set file, NAME.toml)") from None


def builtin_name(rs: RuleSet) -> "str | None":
    """The registry name of the shipped rule set with the same rules as ``rs`` (whatever
    ``rs`` is called), or None.  What is shipped for a rule set -- its opponent model, its
    reference field -- is found under this name, so a file that restates a built-in's
    rules uses the built-in's, and a file that changes them, even under a built-in's
    name, does not.

    >>> builtin_name(rule_set("classic:western"))
    'classic'
    """
    if rs.name in _REGISTRY and _REGISTRY[rs.name].digest == rs.digest:
        return _REGISTRY[rs.name].name
    return _BUILTIN_BY_DIGEST.get(rs.digest)


# Aliases share their rule set, so each digest names one shipped rule set.
_BUILTIN_BY_DIGEST = {rs.digest: rs.name for name, rs in _REGISTRY.items()
                      if name not in _ALIASES}


def cache_name(rs: RuleSet) -> str:
    """The name a cache on disk files ``rs``'s derived data under (its pool of opponent
    hands): the shipped rule set's name for a built-in's rules, else the name and the
    rules' :attr:`RuleSet.digest`, so a file never reads the cache of another rule set of
    the same name.  ``:`` becomes ``-`` (a file name).

    >>> cache_name(rule_set("classic:eastern"))
    'classic-eastern'
    """
    builtin = builtin_name(rs)
    label = builtin if builtin else f"{rs.name}-{rs.digest}"
    return re.sub(r"[^A-Za-z0-9_.-]", "-", label)
