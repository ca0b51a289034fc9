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
from typing import Mapping, NamedTuple

from ._inputs import RULE_FILE_BYTES, read_text
from .rule_file import (AUTOMATIC_WIN_SETTINGS, KEYS, MAX_NAME_CHARACTERS, NO_VALUE, RANK_NAMES,
                        SEAT_SECTIONS, SECTIONS, InlineTable, RuleFileError, bounds, file_key,
                        nearest, rank_index, seat_table, shown_value)
from .rule_file import read as read_toml, toml_key, write as write_toml

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

# The specials whose shapes solver.autowin knows in any deck (jokers, a second set of
# spades, 16 or 17 cards dealt: docs/rules.md#special-hands-with-jokers-and-longer-deals).
# A special added to the catalogue for the plain pack alone is refused in those decks
# until it has one (tests/test_specials_any_deck.py checks that each here has one).
ANY_DECK_SPECIALS = (
    "dragon", "six_pairs", "three_flushes", "three_straights",
    "suited_dragon", "twelve_royals", "three_straight_flushes", "three_quads", "all_big",
    "all_small", "all_one_colour", "four_trips", "five_pairs_and_trips",
    "twelve_one_colour",
)

MAX_CARDS_DEALT = 17          # cards a seat may be dealt; 13 of them are set
SEAT_COUNTS = (2, 3, 4, 5)    # table sizes a rule set may deal to (where the deck holds them)
N_RANKS = len(RANK_NAMES)     # a royalty table by rank has one entry a rank, 2 first
# The ranks as a row of them is named: "a pair of 8s", "trips of queens".
RANK_PLURALS = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens",
                "kings", "aces")

# The fields of a rule set that say how a deal scores: what a rule set may change at one
# table size (RuleSet.seat_scoring; a file's [at_N_seats] tables).
SEAT_FIELDS = (
    "row_points", "front_trips_points", "majority_bonus", "scoop", "scoop_units",
    "shot_multiplier", "home_run_units", "home_run_multiplier", "home_run_min_seats",
    "majority_multiplied", "scoop_multiplied", "loss_cap_per_pair", "loss_cap_per_deal",
    "row_bonus", "row_bonus_by_rank", "bonus_mode", "bonus_paid", "bonus_multiplied",
    "foul_penalty", "foul_loses_rows", "automatic_wins", "automatic_wins_declared",
    "automatic_win_strength",
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

    majority_multiplied: the shot and home-run multipliers apply to ``majority_bonus``
        too.

    scoop_multiplied: the shot and home-run multipliers apply to ``scoop_units`` too.

    loss_cap_per_pair: the most one player pays another in a deal, everything included
        (0: no cap).

    loss_cap_per_deal: the most a player loses in a deal, everything included (0: no
        cap); how the others share what a capped player does not pay is
        docs/rules.md#loss-caps.

    row_bonus_by_rank: royalties by the row's rank, ``"ROW.CATEGORY"`` -> 13 units (rank
        2 first) for a (row, category) whose ``row_bonus`` is 0
        (docs/rules.md#royalties-by-rank; the rank of a row is :func:`solver.tables.value_rank`).

    seat_scoring: at tables of some sizes, other values of the scoring fields
        (:data:`SEAT_FIELDS`): seat count -> {field: value}.  Such a rule set is scored
        at ``n`` seats as :meth:`at_seats` ``(n)``, a rule set without them.

    automatic_wins_wild: ``True``: a joker stands for any card in a special hand (a
        hand with jokers holds a special when its jokers can complete one); ``False``
        (the default): a joker is a card of no rank and no suit there
        (docs/rules.md#special-hands-with-jokers-and-longer-deals).  Only with jokers.

    surrender_cost: a player may surrender (十三水 投降) before the showdown instead of
        playing: it then pays this many units to each other player still in the hand
        (one who neither surrendered nor fouled), and nothing else; 0 (the default): no
        surrender (docs/rules.md#surrender).

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
    majority_multiplied: bool = False
    scoop_multiplied: bool = False
    loss_cap_per_pair: int = 0
    loss_cap_per_deal: int = 0
    row_bonus_by_rank: Mapping[str, tuple[int, ...]] = field(
        default_factory=lambda: MappingProxyType({}))
    seat_scoring: Mapping[int, Mapping[str, object]] = field(
        default_factory=lambda: MappingProxyType({}))
    automatic_wins_wild: bool = False
    surrender_cost: int = 0

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
        for name in ("loss_cap_per_pair", "loss_cap_per_deal"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more, not {value!r}")
        self._check_royalties_by_rank()
        self._check_seat_scoring()
        # Derived once: the kernels' dispatch code, and a hash over the whole content
        # (two rule sets of one name but different rules must not share a cache entry).
        object.__setattr__(self, "scheme", kernel_scheme(self))
        object.__setattr__(self, "_hash", hash(json.dumps(
            _json_ready({f.name: getattr(self, f.name) for f in dataclasses.fields(self)}),
            sort_keys=True)))

    def _check_royalties_by_rank(self) -> None:
        """``row_bonus_by_rank`` as a read-only mapping of "ROW.CATEGORY" -> 13 units,
        each for a (row, category) a row can be, that has a rank, and whose ``row_bonus``
        is 0 (a royalty is one number or a table by rank, never both)."""
        table = {}
        for key, units in dict(self.row_bonus_by_rank).items():
            row, _, category = str(key).partition(".")
            if row not in ROWS or category not in CATEGORIES:
                raise ValueError(f"row_bonus_by_rank: {key!r} is not 'ROW.CATEGORY' (a row "
                                 f"of {ROWS} and a category of the ladder)")
            if category == "joker_trips":
                raise ValueError("row_bonus_by_rank: joker trips have no rank; give them one "
                                 "number in row_bonus")
            units = tuple(units)
            if len(units) != N_RANKS or any(
                    not isinstance(u, int) or isinstance(u, bool) or u < 0 for u in units):
                raise ValueError(f"row_bonus_by_rank[{key!r}] must be {N_RANKS} whole numbers "
                                 f"of 0 or more (rank 2 first), not {units!r}")
            if self.row_bonus[ROWS.index(row)][CATEGORY_INDEX[category]]:
                raise ValueError(f"{key} has a royalty in row_bonus and one by rank; give one "
                                 "or the other")
            if any(units):
                table[key] = units
        object.__setattr__(self, "row_bonus_by_rank",
                           MappingProxyType(dict(sorted(table.items()))))

    def _check_seat_scoring(self) -> None:
        """``seat_scoring`` as a read-only mapping of seat count -> {field: value}, each a
        table size the rule set deals to and a field of :data:`SEAT_FIELDS`, keeping only
        the values that differ from the rule set's own; each table's rule set is made here
        (so an invalid one fails now) and kept for :meth:`at_seats`."""
        overrides = {}
        for n, changes in dict(self.seat_scoring).items():
            if n not in self.seats:
                raise ValueError(f"seat_scoring: {n!r} seats is not a table size of the rule "
                                 f"set ({', '.join(map(str, self.seats))})")
            unknown = set(changes) - set(SEAT_FIELDS)
            if unknown:
                raise ValueError(f"seat_scoring[{n}]: {', '.join(sorted(unknown))} cannot "
                                 "change with the table size")
            changed = {name: value for name, value in changes.items()
                       if _json_ready(value) != _json_ready(getattr(self, name))}
            # A hand's special is found before the table is known (solver.automatic_win
            # takes no table size): which specials there are, and whether they are
            # declared, is the same at every table; their units and strengths may not be.
            if ("automatic_wins_declared" in changed or set(changed.get(
                    "automatic_wins", self.automatic_wins)) != set(self.automatic_wins)):
                raise ValueError(f"seat_scoring[{n}]: the automatic wins and whether they "
                                 "are declared are the same at every table size (their "
                                 "units and strengths may differ)")
            if changed:
                overrides[n] = changed
        plain = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        plain["seat_scoring"] = MappingProxyType({})
        at_seats = {}
        if overrides:
            base = RuleSet(**plain)
            for n, changed in overrides.items():
                # The table's own rule set, its fields as that rule set normalised them.
                at_seats[n] = RuleSet(**{**plain, **changed})
                overrides[n] = MappingProxyType({name: getattr(at_seats[n], name)
                                                 for name in changed})
            at_seats.update({n: base for n in self.seats if n not in overrides})
        object.__setattr__(self, "seat_scoring", MappingProxyType(dict(sorted(overrides.items()))))
        object.__setattr__(self, "_at_seats", at_seats)

    def at_seats(self, n: int) -> "RuleSet":
        """The rule set as it scores a table of ``n`` seats: this one where its scoring
        is the same at every table size (every shipped rule set), else one without
        :attr:`seat_scoring`, with the values of table ``n`` (docs/rule-files.md,
        ``at_N_seats``).  Everything that scores a deal of ``n`` seats uses it.

        >>> rule_set("classic").at_seats(3) is rule_set("classic")
        True
        """
        if not self.seat_scoring:
            return self
        if n not in self._at_seats:
            raise ValueError(f"the {self.name} rule set plays with "
                             f"{' or '.join(map(str, self.seats))} players, not {n}")
        return self._at_seats[n]

    def royalty_units(self, row: int, category: str) -> tuple[int, ...]:
        """A royalty by rank: the units of a row (0 Front, 1 Middle, 2 Back) of
        ``category`` for each rank, 2 first: its table by rank, else its one number at
        every rank.

        >>> rule_set("classic:eastern").royalty_units(2, "quads")[-1]
        4
        """
        by_rank = self.row_bonus_by_rank.get(f"{ROWS[row]}.{category}")
        return by_rank or (self.row_bonus[row][CATEGORY_INDEX[category]],) * N_RANKS

    @property
    def has_royalties(self) -> bool:
        """Whether any row of any category (and rank) earns a royalty."""
        return bool(self.row_bonus_by_rank) or any(any(row) for row in self.row_bonus)

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
        plain_only = [n for n in self.automatic_wins if n not in ANY_DECK_SPECIALS]
        if plain_only and not self.plain_deal:
            raise ValueError(f"the special hands {', '.join(plain_only)} are defined for 13 "
                             f"cards of the plain 52-card pack only (spade_copies 1, jokers "
                             f"0, cards_dealt 13)")
        if not isinstance(self.automatic_wins_wild, bool):
            raise ValueError(f"automatic_wins_wild must be true or false, not "
                             f"{self.automatic_wins_wild!r}")
        if self.automatic_wins_wild and not (self.jokers and self.automatic_wins):
            raise ValueError("automatic_wins_wild: jokers count toward special hands, but "
                             + ("the deck has no jokers" if not self.jokers
                                else "the rule set has no special hands"))
        if (not isinstance(self.surrender_cost, int) or isinstance(self.surrender_cost, bool)
                or self.surrender_cost < 0):
            raise ValueError(f"surrender_cost must be a whole number of units, 0 or more, "
                             f"not {self.surrender_cost!r}")

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
    def plain_deal(self) -> bool:
        """13 cards dealt from the plain 52-card pack (no jokers, no second spades): the
        deal the special hands' first definitions are of; in any other, they are found
        by their shapes (docs/rules.md#special-hands-with-jokers-and-longer-deals)."""
        return self.spade_copies == 1 and self.jokers == 0 and self.cards_dealt == 13

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
        defaults to the file's name without ``.toml``.  A file that cannot be one -- not
        a regular file (a directory, a FIFO, a device, a link to one), over 1 MiB, not
        UTF-8 or TOML, a key or value the format does not allow -- is a ``ValueError`` of
        one line (a :class:`~solver.rule_file.RuleFileError` naming the key, for the
        file's content), read no further than needed."""
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
        multiplied = [what for what, flag in (("the majority", self.majority_multiplied),
                                              ("the scoop units", self.scoop_multiplied))
                      if flag]
        if multiplied and max(self.shot_multiplier, self.home_run_multiplier) > 1:
            parts.append(f"{' and '.join(multiplied)} multiplied too")
        if self.has_royalties:
            how = (["some by rank"] if self.row_bonus_by_rank else []) + (
                ["paid whenever the row is made"] if self.bonus_paid == PAID_ROW_MADE
                else []) + (["multiplied with the row's points"] if self.bonus_multiplied
                            else [])
            parts.append("royalties" + (" instead of the row's points"
                                        if self.bonus_mode == BONUS_REPLACE else "")
                         + (f" ({'; '.join(how)})" if how else ""))
        fouls = " and ".join(([f"pays {self.foul_penalty}"] if self.foul_penalty else [])
                             + (["loses every row"] if self.foul_loses_rows else []))
        parts.append(f"a foul {fouls or 'cannot be played'}")
        if self.loss_cap_per_pair:
            parts.append(f"a player pays another at most {self.loss_cap_per_pair} a deal")
        if self.loss_cap_per_deal:
            parts.append(f"a player loses at most {self.loss_cap_per_deal} a deal")
        if self.automatic_wins:
            # (Declared, as in classic, is the default and goes without saying.)
            how = ([] if self.automatic_wins_declared else ["counted without declaring"]) + (
                ["ranked by their own strengths"] if self.automatic_win_strength else [])
            how += ["jokers wild"] if self.automatic_wins_wild else []
            parts.append(f"{len(self.automatic_wins)} automatic win"
                         f"{'s' if len(self.automatic_wins) > 1 else ''}"
                         + (f" ({'; '.join(how)})" if how else ""))
        if self.seat_scoring:
            parts.append("scored otherwise at "
                         + " and ".join(str(n) for n in self.seat_scoring) + " seats")
        if self.surrender_cost:
            parts.append(f"surrender for {self.surrender_cost}")
        return f"{deck}, {self.cards_dealt} each{kept} to {seats} seats; " + ", ".join(parts)

    def __reduce__(self):
        # Pickled for worker processes; the read-only mapping does not pickle itself.
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        mappings = [name for name, v in fields.items() if isinstance(v, Mapping)]
        for name in mappings:
            fields[name] = _plain_mappings(fields[name])
        return _unpickle_rule_set, (fields, mappings)


# Fields added after digests were first given out (caches on users' disks are named by
# them): left out of the digest while at their default, so a rule set that does not use
# them keeps the digest it had before they existed.
DIGEST_OMITS_AT_DEFAULT = ("automatic_wins_declared", "automatic_win_strength",
                           "majority_multiplied", "scoop_multiplied", "loss_cap_per_pair",
                           "loss_cap_per_deal", "row_bonus_by_rank", "seat_scoring",
                           "automatic_wins_wild", "surrender_cost")
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


def _plain_mappings(value):
    """``value`` with every mapping in it a plain dict (read-only mappings do not pickle)."""
    if isinstance(value, Mapping):
        return {k: _plain_mappings(v) for k, v in value.items()}
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
    if (rs.row_bonus_by_rank or rs.majority_multiplied or rs.scoop_multiplied
            or rs.loss_cap_per_pair or rs.loss_cap_per_deal):
        return SCHEME_GENERAL              # (only the general scheme reads these)
    no_bonus = not any(any(row) for row in rs.row_bonus)
    plain_bonus = (rs.bonus_paid == PAID_ROW_WON and not rs.bonus_multiplied)
    foul_penalty_only = rs.foul_penalty > 0 and not rs.foul_loses_rows
    if (rs.row_points == (0, 0, 0) and rs.front_trips_points == 0 and rs.majority_bonus == 0
            and rs.scoop == SCOOP_NO_ROW_LOST and rs.shot_multiplier == 1
            and rs.home_run_multiplier == 1 and rs.home_run_min_seats <= 2
            and rs.bonus_mode == BONUS_ADD and plain_bonus and rs.foul_penalty == 0
            and not rs.foul_loses_rows and not rs.automatic_wins and not rs.surrender_cost):
        return SCHEME_SCOOP
    ones = rs.row_points == (1, 1, 1)
    no_extras = (rs.scoop_units == 0 and rs.shot_multiplier == 1 and rs.home_run_units == 0
                 and rs.home_run_multiplier == 1)
    if (ones and rs.front_trips_points == 0 and rs.majority_bonus == 0 and no_extras
            and no_bonus and rs.foul_loses_rows and rs.foul_penalty == 0
            and not rs.automatic_wins and not rs.surrender_cost):
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
# What the solver needs of a rule set.  The search (solver.search) keeps only the
# arrangements no other one dominates, and takes the strongest legal Front; that is
# exact only where a stronger row never scores less.  solver.solve refuses a rule set
# where it is not so, and a file is refused at load, naming its key: a file that loads
# can be solved.

class Premise(NamedTuple):
    """Why the solver's search would not be exact under a rule set: the file key
    (dotted path) whose value makes it so, that value, and the reason."""
    key: str
    value: object
    reason: str


def _front_categories(rs: RuleSet) -> list[str]:
    """The Front categories a deal of ``rs`` can make, weakest first (joker trips are
    three jokers, bonus trips need the cut card's rank)."""
    return [c for c in FRONT_CATEGORIES
            if (c != "bonus_trips" or rs.cut_card) and (c != "joker_trips" or rs.jokers >= 3)]


def _won_row_points(rs: RuleSet, row: int, category: str) -> int:
    """The general scoring's points of a row won with ``category``, royalty apart (0
    where the royalty replaces them)."""
    if rs.bonus_mode == BONUS_REPLACE and rs.row_bonus[row][CATEGORY_INDEX[category]]:
        return 0
    if row == 0 and category == "trips" and rs.front_trips_points:
        return rs.front_trips_points
    return rs.row_points[row]


def front_premise_failure(rs: RuleSet) -> "Premise | None":
    """Where a stronger Front can earn fewer units than a weaker one when it wins (its
    royalty, and Front-trips points), the key that makes it so; None where it never does,
    the premise of taking the strongest legal Front.  For the general scoring, what a won
    Front earns must grow under every multiplier (none, a shot's, a home run's), and
    where royalties are paid whenever made, so must they."""
    if any(key.startswith("front.") for key in rs.row_bonus_by_rank):
        # Royalties by rank (only the general scoring has them): Fronts compared rank by
        # rank as well as category by category.
        fall = front_earnings_fall(rs)
        return None if fall is None else Premise(f"royalties.{fall[0]}",
                                                 _royalty_value(rs, fall[0]), fall[1])
    possible = _front_categories(rs)
    royalty = {c: rs.row_bonus[0][CATEGORY_INDEX[c]] for c in possible}
    if rs.scheme == SCHEME_GENERAL:
        points = {c: _won_row_points(rs, 0, c) for c in possible}
        earned = [{c: points[c] * m + royalty[c] * (m if rs.bonus_multiplied else 1)
                   for c in possible}
                  for m in sorted({1, rs.shot_multiplier, rs.home_run_multiplier})]
        if rs.bonus_paid == PAID_ROW_MADE:
            earned.append(royalty)
    else:
        points = {c: max(1, rs.front_trips_points) if c == "trips" else 1 for c in possible}
        earned = [{c: max(1, royalty[c]) * points[c] for c in possible}]
    for units in earned:
        for weak, strong in zip(possible, possible[1:]):
            if units[weak] <= units[strong]:
                continue
            says = (f"a Front of {weak} earns {units[weak]} units and a stronger one of "
                    f"{strong} {units[strong]}: the solver sets the strongest Front a hand "
                    f"can make, so a stronger Front must never earn less")
            if royalty[weak] > royalty[strong]:
                return Premise(f"royalties.front.{weak}", royalty[weak],
                               f"{says} (give front.{strong} at least as much)")
            if weak == "trips" and rs.front_trips_points > rs.row_points[0]:
                return Premise("scoring.front_trips_points", rs.front_trips_points,
                               f"{says} (give [royalties] front.{strong} a royalty that "
                               f"makes up the difference)")
            return Premise(f"royalties.front.{strong}", royalty[strong] or NO_VALUE,
                           f"{says} (its royalty replaces the row's points)")
    return None


def front_earnings_fall(rules: RuleSet) -> "tuple[str, str] | None":
    """Where a stronger Front would earn less than a weaker one when it wins under the
    general scoring -- under every multiplier (none, a shot's, a home run's), and, where
    royalties are paid whenever made, by its royalty alone -- as ``("front.CATEGORY",
    reason)`` naming the stronger Front's category, or None.  The solver's search takes
    the strongest legal Front of the cards a Middle and Back leave
    (:func:`solver.search.front_bonus_is_monotone`), which is exact only where none does.

    Fronts are compared in the ladder's order, and within a category by rank (the rank
    that names the row: its pair, its trips, its top card; :func:`solver.tables.value_rank`),
    which is their order on the value scale.  Bonus trips of different ranks never meet
    (a deal has one Bonus rank), so they are not compared with each other."""
    possible = [c for c in FRONT_CATEGORIES       # (joker trips are three jokers)
                if (c != "bonus_trips" or rules.cut_card) and (c != "joker_trips"
                                                               or rules.jokers == 3)]
    levels = []          # (what, category, [royalty of each rank of the level])
    for category in possible:
        units = rules.royalty_units(0, category)
        if category in ("bonus_trips", "joker_trips"):
            levels.append((category.replace("_", " "), category,
                           list(units[:1] if category == "joker_trips" else units)))
        else:
            what = {"high_card": "{}-high", "pair": "a pair of {}",
                    "trips": "trips of {}"}[category]
            levels += [(what.format(RANK_NAMES[r] if category == "high_card"
                                    else RANK_PLURALS[r]), category, [u])
                       for r, u in enumerate(units)]

    def earned(category, royalty, multiplier):
        if rules.bonus_mode == BONUS_REPLACE and royalty:
            points = 0
        elif category == "trips" and rules.front_trips_points:
            points = rules.front_trips_points
        else:
            points = rules.row_points[0]
        return points * multiplier + royalty * (multiplier if rules.bonus_multiplied else 1)

    ways = [lambda c, u, m=m: earned(c, u, m)
            for m in sorted({1, rules.shot_multiplier, rules.home_run_multiplier})]
    if rules.bonus_paid == PAID_ROW_MADE:
        ways.append(lambda c, u: u)
    for way in ways:
        for (low, low_cat, low_units), (high, high_cat, high_units) in zip(levels, levels[1:]):
            most = max(way(low_cat, u) for u in low_units)
            least = min(way(high_cat, u) for u in high_units)
            if least < most:
                return (f"front.{high_cat}",
                        f"a stronger Front would earn less: {high} {least}, {low} {most} "
                        f"(the solver takes the strongest legal Front, so what a Front "
                        f"earns must never fall as it gets stronger)")
    return None


def royalty_below_points(rules: RuleSet) -> "tuple[str, str] | None":
    """A royalty replacing a won row's points (``bonus_mode`` "replace") that is worth
    less than those points (times the largest multiplier, where royalties are not
    multiplied), as ``("ROW.CATEGORY", reason)``, or None: winning the row with a
    stronger hand could then score less, which the search's pruning assumes never
    happens (:func:`solver.search.dominance_failure`)."""
    if rules.bonus_mode != BONUS_REPLACE:
        return None
    most = 1 if rules.bonus_multiplied else max(rules.shot_multiplier,
                                                rules.home_run_multiplier)
    for r, row in enumerate(ROWS):
        points = max(rules.row_points[r], rules.front_trips_points if r == 0 else 0)
        for category in CATEGORIES:
            units = rules.royalty_units(r, category)
            low = [u for u in units if 0 < u < points * most]
            if low:
                return (f"{row}.{category}",
                        f"a {row.title()} royalty worth less than the row points it replaces: "
                        f"{min(low)}, where the row scores {points * most} (a stronger row "
                        f"would score less than a weaker one, which the solver's search "
                        f"cannot allow)")
    return None


def deal_cap_failure(rules: RuleSet) -> "str | None":
    """Why a loss cap per deal would make the search's pruning inexact under ``rules``,
    or None.  Under the cap a seat pays the seats it lost to within its cap, largest debt
    first; a stronger row of ours changes only our own pairs, and then never lowers our
    result.  But a home run also changes its maker's pairs with the others: where
    royalties are paid whenever made, a seat can scoop everyone and still owe some of
    them (their royalties), and our stronger row, ending its home run, raises what it owes
    a seat ahead of us in its order of debts and lowers what it collects -- and so what
    it pays us (docs/rules.md#loss-caps, tests/test_house_rules.py has such a deal)."""
    if (rules.loss_cap_per_deal and rules.bonus_paid == PAID_ROW_MADE
            and (rules.home_run_units or rules.home_run_multiplier != rules.shot_multiplier)
            and rules.home_run_min_seats <= max(rules.seats)):
        return ("a loss cap per deal with royalties paid whenever made and home runs that "
                "change the units: a stronger row could score less")
    return None


# The file key (its dotted path; solver.rule_file.KEYS) that sets each RuleSet field, so
# that a message about a file names the key it wrote, never the field.
FIELD_KEYS: Mapping[str, str] = MappingProxyType({
    "name": "name", "spade_copies": "deck.extra_spades", "jokers": "deck.jokers",
    "cut_card": "deck.cut_card", "cards_dealt": "deal.cards", "seats": "deal.seats",
    "deal_all_unseen": "deal.deal_all_unseen", "row_points": "scoring.row_points",
    "front_trips_points": "scoring.front_trips_points",
    "majority_bonus": "scoring.majority_bonus", "scoop": "scoring.scoop",
    "scoop_units": "scoring.scoop_units", "shot_multiplier": "scoring.shot_multiplier",
    "home_run_units": "scoring.home_run_units",
    "home_run_multiplier": "scoring.home_run_multiplier",
    "home_run_min_seats": "scoring.home_run_min_seats", "row_bonus": "royalties",
    "bonus_mode": "royalties.mode", "bonus_paid": "royalties.paid",
    "bonus_multiplied": "royalties.multiplied", "foul_penalty": "fouls.penalty",
    "foul_loses_rows": "fouls.rule", "automatic_wins": "automatic_wins",
    "automatic_wins_declared": "automatic_wins.declared",
    "automatic_win_strength": "automatic_wins.strength",
    "majority_multiplied": "scoring.majority_multiplied",
    "scoop_multiplied": "scoring.scoop_multiplied",
    "loss_cap_per_pair": "scoring.loss_cap_per_pair",
    "loss_cap_per_deal": "scoring.loss_cap_per_deal", "row_bonus_by_rank": "royalties",
    "seat_scoring": "at_N_seats.SECTION.KEY",
    "automatic_wins_wild": "automatic_wins.wild_jokers", "surrender_cost": "surrender.cost",
})

# The fields that count units (never negative, for the search's premise).
_COUNT_FIELDS = ("row_points", "front_trips_points", "majority_bonus", "scoop_units",
                 "home_run_units", "foul_penalty")


def dominance_premise_failure(rs: RuleSet) -> "Premise | None":
    """Where pruning by dominance (solver.search's docstring) would not be exact under
    ``rs``, the key that makes it so; None where it is (every specialised scheme).  The
    general scoring keeps its premise -- a row's value rising while its royalty does not
    drop never lowers our score -- where no unit is negative, a royalty that replaces a
    row's points is never worth less than them (times the largest multiplier, where
    royalties are not multiplied), and a home run never multiplies less than the shot it
    also is."""
    if rs.scheme != SCHEME_GENERAL:
        return None
    for name in _COUNT_FIELDS:
        value = getattr(rs, name)
        if min(value if isinstance(value, tuple) else (value,)) < 0:
            return Premise(FIELD_KEYS[name], value, "a negative number of units")
    if any(u < 0 for row in rs.row_bonus for u in row):
        return Premise("royalties", NO_VALUE, "a negative number of units")
    for name in ("shot_multiplier", "home_run_multiplier"):
        if getattr(rs, name) < 1:
            return Premise(f"scoring.{name}", getattr(rs, name), "a multiplier below 1")
    if _home_run_pays_less_than_a_shot(rs):
        return Premise("scoring.home_run_multiplier", rs.home_run_multiplier,
                       "a home run multiplies less than a shot")
    if rs.bonus_mode == BONUS_REPLACE:
        most = 1 if rs.bonus_multiplied else max(rs.shot_multiplier, rs.home_run_multiplier)
        for r, row in enumerate(ROWS):
            points = max(rs.row_points[r], rs.front_trips_points if r == 0 else 0)
            for category, u in zip(CATEGORIES, rs.row_bonus[r]):
                if 0 < u < points * most:
                    return Premise(
                        f"royalties.{row}.{category}", u,
                        f"a {row.title()} royalty worth less than the row points it "
                        f"replaces ({points}"
                        + (f" times a multiplier of up to {most}, as royalties are not "
                           f"multiplied" if most > 1 else "")
                        + f"): a stronger row would score less than a weaker one, which "
                          f"the solver's search cannot allow; make it at least "
                          f"{points * most}")
    below = royalty_below_points(rs)           # (royalties by rank: those above are not)
    if below is not None:
        return Premise(f"royalties.{below[0]}", _royalty_value(rs, below[0]), below[1])
    failure = deal_cap_failure(rs)
    if failure is not None:
        return Premise("scoring.loss_cap_per_deal", rs.loss_cap_per_deal,
                       failure + " (the solver prunes by strength; pay royalties when the "
                       "row wins, or leave home runs out)")
    return None


def _royalty_value(rs: RuleSet, key: str):
    """The royalty ``key`` ("ROW.CATEGORY") as the file writes it: its table by rank, or
    its number (NO_VALUE: none)."""
    if key in rs.row_bonus_by_rank:
        return _rank_table(rs.row_bonus_by_rank[key])
    row, _, category = key.partition(".")
    return rs.row_bonus[ROWS.index(row)][CATEGORY_INDEX[category]] or NO_VALUE


def _home_run_pays_less_than_a_shot(rs) -> bool:
    """Whether a home run can happen under ``rs`` and multiplies less than a shot.  Only
    the file format refuses it: a :class:`RuleSet` so made still settles as its fields say
    (the scoring tests draw such combinations at random), and :func:`solver.solve`
    refuses it (its pruning assumes a home run never pays less than a shot)."""
    return (rs.home_run_multiplier < rs.shot_multiplier
            and rs.home_run_min_seats <= max(rs.seats))


# ---------------------------------------------------------------------------------------
# Rule-set files (docs/rule-files.md).  solver.rule_file holds the layout and the TOML
# syntax; here is what each value means and which field it sets, one key to one field.

FOUL_PENALTY, FOUL_LOSES_ROWS, FOUL_NOT_ALLOWED = "penalty", "loses_rows", "not_allowed"
FOUL_RULES = (FOUL_PENALTY, FOUL_LOSES_ROWS, FOUL_NOT_ALLOWED)


def _rule_set_from_dict(data: Mapping, source: str = "", default_name: "str | None" = None
                        ) -> RuleSet:
    """The rule set a file's tables describe (see :meth:`RuleSet.from_dict`): its own
    tables, then each ``at_N_seats`` table read as the file with that table's keys in
    place of its own (so each is checked as a whole file is), kept as the fields it
    changes (:attr:`RuleSet.seat_scoring`)."""
    if not isinstance(data, Mapping):
        raise RuleFileError(source, "", NO_VALUE, f"a rule set is a table of keys, not "
                                                  f"{shown_value(data)}")
    own = {key: value for key, value in data.items() if seat_table(key) is None}
    rs = _rule_set_of_tables(own, source, default_name)
    seat_scoring = {}
    for key, table in data.items():
        n = seat_table(key)
        if n is None:
            continue
        if n not in rs.seats:
            raise RuleFileError(source, key, NO_VALUE,
                                f"the rule set deals to {' or '.join(map(str, rs.seats))} "
                                f"seats, not {n}")
        if not isinstance(table, Mapping):
            raise RuleFileError(source, key, table,
                                f"must be tables ([{key}.scoring] and so on)")
        for section, entries in table.items():
            if section not in SEAT_SECTIONS:
                raise RuleFileError(source, f"{key}.{section}", NO_VALUE,
                                    f"only {', '.join(SEAT_SECTIONS)} can change with the "
                                    f"table size{nearest(section, SEAT_SECTIONS)}")
            if not isinstance(entries, Mapping):
                raise RuleFileError(source, f"{key}.{section}", entries,
                                    f"must be a table ([{key}.{section}])")
        try:
            at_n = _rule_set_of_tables(_with_table(own, table), source, default_name)
        except RuleFileError as e:
            raise RuleFileError(source, f"{key}.{e.key}" if e.key else key, e.value,
                                e.reason) from None
        if (set(at_n.automatic_wins) != set(rs.automatic_wins)
                or at_n.automatic_wins_declared != rs.automatic_wins_declared):
            raise RuleFileError(source, f"{key}.automatic_wins", NO_VALUE,
                                "which automatic wins there are, and whether they are "
                                "declared, is the same at every table size (their units "
                                "and strengths may differ)")
        if at_n.automatic_wins_wild != rs.automatic_wins_wild:
            raise RuleFileError(source, f"{key}.automatic_wins.wild_jokers",
                                at_n.automatic_wins_wild,
                                "whether jokers are wild in special hands is the same at "
                                "every table size")
        seat_scoring[n] = {name: getattr(at_n, name) for name in SEAT_FIELDS}
    if not seat_scoring:
        return rs
    try:
        return dataclasses.replace(rs, seat_scoring=seat_scoring)
    except ValueError as e:      # (every table was read as a whole file: not expected)
        raise RuleFileError(source, "", NO_VALUE, in_file_words(str(e))) from None


def _with_table(own: Mapping, table: Mapping) -> dict:
    """A file's tables with the keys of one ``at_N_seats`` table in place of its own: a
    key replaces the file's; a table of tables (``royalties.front``,
    ``automatic_wins.strength``) replaces its entries one by one, and a royalty of 0
    there removes the file's (a file's own royalty is never 0: a category left out has
    none)."""
    merged = {key: dict(value) if isinstance(value, Mapping) else value
              for key, value in own.items()}
    for section, entries in table.items():
        target = merged.setdefault(section, {})
        if not isinstance(target, dict):
            continue                      # (the file's own section is refused as it is read)
        for key, value in entries.items():
            if isinstance(value, Mapping) and isinstance(target.get(key), Mapping):
                target[key] = {**target[key], **value}
            else:
                target[key] = value
            if section == "royalties" and isinstance(target[key], Mapping):
                target[key] = {category: units for category, units in target[key].items()
                               if not (type(units) is int and units == 0)}
    return merged


def _rule_set_of_tables(data: Mapping, source: str, default_name: "str | None") -> RuleSet:
    """The rule set of a file's own tables (no ``at_N_seats``)."""
    reader = _FileReader(data, source)
    name = reader.string("", "name", default_name)
    if not name:
        raise RuleFileError(source, "name", NO_VALUE if name is None else name,
                            "a rule set needs a name")
    if len(name) > MAX_NAME_CHARACTERS or re.search(r"[\x00-\x1f\x7f]", name):
        raise RuleFileError(source, "name", name,
                            f"a name is 1 to {MAX_NAME_CHARACTERS} characters, none of them "
                            f"a control character (a line break, a tab)"
                            + ("" if "name" in data else " (this one is the file's name)"))
    extra_spades = reader.boolean("deck", "extra_spades", False)
    spade_copies = 2 if extra_spades else 1
    jokers = reader.integer("deck", "jokers", 0)
    cut_card = reader.boolean("deck", "cut_card", False)
    cards = reader.integer("deal", "cards", 13)
    seats = reader.seats(13 * (3 + spade_copies) + jokers, cards, cut_card)
    deal_all_unseen = reader.boolean("deal", "deal_all_unseen", True)

    row_points = tuple(reader.integers("scoring", "row_points", (1, 1, 1), len(ROWS)))
    scoring = dict(
        front_trips_points=reader.integer("scoring", "front_trips_points", 0),
        majority_bonus=reader.integer("scoring", "majority_bonus", 0),
        scoop=reader.choice("scoring", "scoop", SCOOP_ALL_ROWS_WON, SCOOP_RULES),
        scoop_units=reader.integer("scoring", "scoop_units", 0),
        shot_multiplier=reader.integer("scoring", "shot_multiplier", 1),
        home_run_units=reader.integer("scoring", "home_run_units", 0),
        majority_multiplied=reader.boolean("scoring", "majority_multiplied", False),
        scoop_multiplied=reader.boolean("scoring", "scoop_multiplied", False),
        loss_cap_per_pair=reader.integer("scoring", "loss_cap_per_pair", 0),
        loss_cap_per_deal=reader.integer("scoring", "loss_cap_per_deal", 0),
    )
    # Unsaid, a home run multiplies as a shot does (it is a shot against everyone).
    scoring.update(
        home_run_multiplier=reader.integer("scoring", "home_run_multiplier",
                                           scoring["shot_multiplier"]),
        home_run_min_seats=reader.integer("scoring", "home_run_min_seats", 2),
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
    royalty_units, by_rank = {}, {}
    for row in ROWS:
        for category, units in reader.royalties(row).items():
            if (category not in FRONT_CATEGORIES if row == "front"
                    else category == "joker_trips"):
                raise RuleFileError(source, f"royalties.{row}.{category}", units,
                                    f"a {row.title()} of {ROW_SIZES[ROWS.index(row)]} cards is "
                                    f"never {category}")
            if isinstance(units, tuple):
                by_rank[f"{row}.{category}"] = units
            else:
                royalty_units[row, category] = units
    row_bonus = _bonus_table(royalty_units)

    rule = reader.choice("fouls", "rule", FOUL_NOT_ALLOWED, FOUL_RULES)
    penalty = reader.integer("fouls", "penalty", 0)
    if rule == FOUL_PENALTY and penalty == 0:
        raise RuleFileError(source, "fouls.penalty", penalty,
                            'rule = "penalty" needs a penalty of at least 1 unit')
    if rule == FOUL_NOT_ALLOWED and penalty:
        raise RuleFileError(source, "fouls.penalty", penalty,
                            'a fouled hand that cannot be played pays no penalty (rule = '
                            '"penalty", or "loses_rows" to lose every row and pay it too)')

    surrender_cost = reader.integer("surrender", "cost", 0)

    automatic_wins = reader.units("automatic_wins", None, AUTOMATIC_WINS, "NAME",
                                  skip=AUTOMATIC_WIN_SETTINGS)
    declared = reader.boolean("automatic_wins", "declared", True)
    wild = reader.boolean("automatic_wins", "wild_jokers", False)
    if wild and not (jokers and automatic_wins):
        raise RuleFileError(source, "automatic_wins.wild_jokers", wild,
                            "jokers count toward special hands, but "
                            + ("the deck has no jokers ([deck] jokers = 0)" if not jokers
                               else "the rule set has no special hands"))
    strength = reader.units("automatic_wins", "strength", AUTOMATIC_WINS, "strength.NAME")
    if strength and set(strength) != set(automatic_wins):
        raise RuleFileError(source, "automatic_wins.strength", ", ".join(strength),
                            "must rank every automatic win of the rule set ("
                            + (", ".join(automatic_wins) or "it has none") + ") or none")
    plain_only = [n for n in automatic_wins if n not in ANY_DECK_SPECIALS]
    if plain_only and (extra_spades or jokers or cards != 13):
        raise RuleFileError(source, f"automatic_wins.{plain_only[0]}",
                            automatic_wins[plain_only[0]],
                            "defined for 13 cards dealt from the plain 52-card pack only "
                            "([deck] extra_spades = false and jokers = 0, [deal] cards = 13)")
    try:
        rs = RuleSet(name=name, spade_copies=spade_copies, jokers=jokers, cut_card=cut_card,
                     cards_dealt=cards, seats=seats, deal_all_unseen=deal_all_unseen,
                     row_points=row_points, **scoring, row_bonus=row_bonus, **royalties,
                     row_bonus_by_rank=by_rank,
                     foul_penalty=penalty, foul_loses_rows=rule == FOUL_LOSES_ROWS,
                     automatic_wins=MappingProxyType(automatic_wins),
                     automatic_wins_declared=declared,
                     automatic_win_strength=MappingProxyType(strength),
                     automatic_wins_wild=wild, surrender_cost=surrender_cost)
    except ValueError as e:
        # Every rule RuleSet checks is checked above, in the file's words; should a rule
        # reach RuleSet unchecked (a key added without its check), its message still
        # names the file's keys, not RuleSet's fields.
        raise RuleFileError(source, "", NO_VALUE, in_file_words(str(e))) from None
    failure = front_premise_failure(rs) or dominance_premise_failure(rs)
    if failure is not None:
        raise RuleFileError(source, failure.key, failure.value, failure.reason)
    return rs


# The fields whose names are not the file's (a file's ``jokers`` is the field jokers).
_FIELD_NAME = re.compile(r"\b(" + "|".join(
    sorted((f for f, key in FIELD_KEYS.items() if key.rpartition(".")[2] != f),
           key=len, reverse=True)) + r")\b")


def in_file_words(message: str) -> str:
    """``message`` (about a :class:`RuleSet`) with each field name that is not the
    file's replaced by the file key that sets it.

    >>> in_file_words("cards_dealt must be 13..17, not 12")
    '[deal] cards must be 13..17, not 12'
    """
    return _FIELD_NAME.sub(lambda m: file_key(FIELD_KEYS[m.group(1)]), message)


# The section each key of the layout belongs in, by name ("": the top of the file), for
# a key written in another: a row's royalties, an automatic win's units and its strength
# included.
_HOME: Mapping[str, str] = MappingProxyType({
    **{k.name: k.section for k in KEYS if not k.name.isupper() and "." not in k.name},
    **{row: "royalties" for row in ROWS},
    **{name: "automatic_wins" for name in (*AUTOMATIC_WINS, *AUTOMATIC_WIN_SETTINGS)},
})


class _FileReader:
    """Reads a file's values key by key, each checked for type and range (the ranges
    of solver.rule_file.KEYS), once every key of the file is known to be one of the
    layout's.  A message names a key as the file writes it (``[deal] seats``)."""

    def __init__(self, data: Mapping, source: str):
        if not isinstance(data, Mapping):
            raise RuleFileError(source, "", NO_VALUE, f"a rule set is a table of keys, not "
                                                      f"{shown_value(data)}")
        self.data, self.source = data, source
        self._no_unknown_keys()
        for section in SECTIONS:
            if section in data and not isinstance(data[section], Mapping):
                raise RuleFileError(source, section, data[section],
                                    f"must be a table ([{section}])")

    def _no_unknown_keys(self):
        top = {"name"} | set(SECTIONS)
        for key, value in self.data.items():
            if key in top:
                continue
            shown = toml_key(str(key))              # (a key of any text, written as TOML)
            if key in _HOME:
                reason = f"unknown key at the top of the file; it belongs in [{_HOME[key]}]"
            elif isinstance(value, Mapping):
                reason = f"unknown section{nearest(str(key), SECTIONS)}"
                shown, value = f"[{shown}]", NO_VALUE
            else:
                reason = f"unknown key{nearest(str(key), top)}"
            raise RuleFileError(self.source, shown, value, reason)
        for section in SECTIONS:
            table = self.data.get(section, {})
            if not isinstance(table, Mapping):
                continue
            valid = {k.name for k in KEYS if k.section == section
                     and not k.name.isupper() and "." not in k.name}
            valid |= set(ROWS) if section == "royalties" else set()
            valid |= (set(AUTOMATIC_WINS) | set(AUTOMATIC_WIN_SETTINGS)
                      if section == "automatic_wins" else set())
            for key, value in table.items():
                if key in valid:
                    continue
                home = _HOME.get(key)
                if home is not None:
                    reason = (f"unknown key in [{section}]; it belongs "
                              + (f"in [{home}]" if home else "at the top of the file, "
                                 "before any [section]"))
                elif key in SECTIONS:
                    reason = (f"unknown key in [{section}]; [{key}] is a section of its own, "
                              f"not inside another")
                elif section == "royalties" and key in CATEGORIES:
                    reason = (f"a royalty names its row: front.{key}, middle.{key} or "
                              f"back.{key}")
                else:
                    names = sorted(valid) if section != "automatic_wins" else (
                        [*AUTOMATIC_WINS, *AUTOMATIC_WIN_SETTINGS])
                    reason = (f"unknown {'name' if section == 'automatic_wins' else 'key'}"
                              f"{nearest(str(key), names)}")
                raise RuleFileError(self.source, f"{section}.{toml_key(str(key))}", value,
                                    reason)

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

    def integer(self, section, key, default, *, entry=None, value=NO_VALUE):
        """The whole number at ``section.key`` (or ``value``, read there) in the range of
        its layout entry: the key's own, or ``entry`` (a table's ``"ROW.CATEGORY"``)."""
        if value is NO_VALUE:
            value = self.raw(section, key, default)
        low, high = bounds(section.partition(".")[0], entry or key)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(section, key, value, "must be a whole number")
        if not low <= value <= high:
            extra = ("; a category left out has no royalty" if entry == "ROW.CATEGORY"
                     and value == 0 else "; a rank left out has no royalty"
                     if entry == "ROW.CATEGORY.RANK" and value == 0 else "")
            self.fail(section, key, value, f"must be from {low} to {high}{extra}")
        return value

    def integers(self, section, key, default, length):
        value = self.raw(section, key, default)
        if not isinstance(value, (list, tuple)) or len(value) != length:
            self.fail(section, key, value, f"must be a list of {length} whole numbers")
        self._in_range(section, key, value, "each")
        return value

    def _in_range(self, section, key, values, each):
        low, high = bounds(section, key)
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int):
                self.fail(section, key, values, f"{each} must be a whole number, not "
                                                f"{shown_value(v)}")
            if not low <= v <= high:
                self.fail(section, key, values, f"{each} must be from {low} to {high}, not "
                                                f"{shown_value(v)}")

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
        self._in_range("deal", "seats", value, "a seat count")
        if len(set(value)) != len(value):
            self.fail("deal", "seats", value, "lists a seat count twice")
        needed = max(value) * cards + cut_card
        if needed > deck_size:
            self.fail("deal", "seats", value,
                      f"{max(value)} seats of {cards} cards"
                      + (" and the cut card" if cut_card else "")
                      + f" need {needed} cards; the deck has {deck_size}")
        return tuple(sorted(value))

    def royalties(self, row: str) -> "dict[str, int | tuple[int, ...]]":
        """The table ``royalties.ROW``: category -> units, or -> 13 units (rank 2 first)
        where the file gives a table of ranks."""
        key = f"royalties.{row}"
        entries = self.data.get("royalties", {}).get(row, {})
        if not isinstance(entries, Mapping):
            raise RuleFileError(self.source, key, entries,
                                "must be a table of high_card, pair, two_pair, ... = units")
        out: "dict[str, int | tuple[int, ...]]" = {}
        for category, units in entries.items():
            if category not in CATEGORIES:
                raise RuleFileError(self.source, f"{key}.{category}", units,
                                    f"unknown name{nearest(category, CATEGORIES)}")
            if not isinstance(units, Mapping):
                out[category] = self.integer(key, category, None, entry="ROW.CATEGORY",
                                             value=units)
                continue
            if category == "joker_trips":
                raise RuleFileError(self.source, f"{key}.{category}", units,
                                    "joker trips have no rank: give one number")
            table = [0] * N_RANKS
            given: dict[int, str] = {}
            for rank, value in units.items():
                index = rank_index(str(rank))
                if index is None:
                    raise RuleFileError(self.source, f"{key}.{category}.{rank}", value,
                                        "unknown rank (ranks: " + ", ".join(RANK_NAMES) + ")")
                if index in given:
                    raise RuleFileError(self.source, f"{key}.{category}.{rank}", value,
                                        f"rank {RANK_NAMES[index]} given twice "
                                        f"(also as {given[index]!r})")
                given[index] = str(rank)
                table[index] = self.integer(f"{key}.{category}", str(rank), None,
                                            entry="ROW.CATEGORY.RANK", value=value)
            out[category] = tuple(table)
        return out

    def units(self, section: str, table: "str | None", valid, entry: str,
              skip=()) -> dict[str, int]:
        """The table ``section.table`` (``table`` None: the section itself, but for its
        keys ``skip``) of names in ``valid`` -> units in the range of the layout's
        ``entry``."""
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
                raise RuleFileError(self.source, f"{key}.{toml_key(str(name))}", units,
                                    f"unknown name{nearest(str(name), valid)}")
            out[name] = self.integer(key, name, None, entry=entry, value=units)
        return out


def _rule_set_to_dict(rs: RuleSet) -> dict:
    """The file's tables for ``rs`` (see :meth:`RuleSet.to_dict`): its own, then an
    ``at_N_seats`` table of the keys each table size changes."""
    if not rs.seat_scoring:
        return _own_tables(rs)
    own = _own_tables(dataclasses.replace(rs, seat_scoring={}))
    for n in rs.seat_scoring:
        table = _changed_keys(own, _own_tables(rs.at_seats(n)), rs, n)
        if table:
            own[f"at_{n}_seats"] = table
    return own


def _changed_keys(own: dict, at_n: dict, rs: RuleSet, n: int) -> dict:
    """The keys of the sections a table size may change whose values differ between a
    file's own tables and those of the table of ``n`` seats."""
    table: dict = {}
    for section in SEAT_SECTIONS:
        mine, theirs = own[section], at_n[section]
        changed = {}
        for key in dict.fromkeys([*mine, *theirs]):
            a, b = mine.get(key), theirs.get(key)
            if isinstance(a, dict) and not isinstance(a, InlineTable) or \
                    isinstance(b, dict) and not isinstance(b, InlineTable):
                a, b = a or {}, b or {}
                inner = {k: b.get(k, 0) for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)}
                if any(v == 0 for v in inner.values()) and section == "automatic_wins":
                    raise ValueError(f"the {rs.name} rule set has other automatic-win "
                                     f"strengths at {n} seats than a file can say")
                if inner:
                    changed[key] = inner
            elif a != b:
                if b is None:
                    if section != "royalties":
                        raise ValueError(f"the {rs.name} rule set drops {section}.{key} at "
                                         f"{n} seats; a rule-set file cannot say that")
                    b = 0
                changed[key] = b
        if changed:
            table[section] = changed
    return table


def _rank_table(units: "tuple[int, ...]") -> InlineTable:
    """A royalty by rank as a file writes it: ``{ 6 = 1, 7 = 2, ... }``, ranks paying 0
    left out."""
    return InlineTable((RANK_NAMES[i], u) for i, u in enumerate(units) if u)


def _own_tables(rs: RuleSet) -> dict:
    """The tables of a rule set scored alike at every table size."""
    if _home_run_pays_less_than_a_shot(rs):
        raise ValueError(f"the {rs.name} rule set has a home run multiplying less than a "
                         "shot; a rule-set file refuses that")
    if rs.foul_penalty and not rs.foul_loses_rows:
        rule = FOUL_PENALTY
    else:
        rule = FOUL_LOSES_ROWS if rs.foul_loses_rows else FOUL_NOT_ALLOWED
    royalties: dict = dict(mode=rs.bonus_mode, paid=rs.bonus_paid,
                           multiplied=rs.bonus_multiplied)
    for r, (row, units) in enumerate(zip(ROWS, rs.row_bonus)):
        entries = {}
        for category, u in zip(CATEGORIES, units):
            by_rank = rs.row_bonus_by_rank.get(f"{row}.{category}")
            if by_rank:
                entries[category] = _rank_table(by_rank)
            elif u:
                entries[category] = u
        if entries:
            royalties[row] = entries
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
                        home_run_min_seats=rs.home_run_min_seats,
                        majority_multiplied=rs.majority_multiplied,
                        scoop_multiplied=rs.scoop_multiplied,
                        loss_cap_per_pair=rs.loss_cap_per_pair,
                        loss_cap_per_deal=rs.loss_cap_per_deal),
        "royalties": royalties,
        "fouls": dict(rule=rule, penalty=rs.foul_penalty),
        "surrender": dict(cost=rs.surrender_cost),
        "automatic_wins": _automatic_wins_table(rs),
    }


def _automatic_wins_table(rs: RuleSet) -> dict:
    """The ``[automatic_wins]`` table: the units of each, then whether they are declared
    (where there are any, or it is not the default) and their strengths (where given)."""
    table: dict = {name: rs.automatic_wins[name] for name in AUTOMATIC_WINS
                   if name in rs.automatic_wins}
    if rs.automatic_wins or not rs.automatic_wins_declared:
        table["declared"] = rs.automatic_wins_declared
    if (rs.automatic_wins and rs.jokers) or rs.automatic_wins_wild:
        table["wild_jokers"] = rs.automatic_wins_wild
    if rs.automatic_win_strength:
        table["strength"] = {name: rs.automatic_win_strength[name] for name in AUTOMATIC_WINS
                             if name in rs.automatic_win_strength}
    return table


def _rule_set_from_file(path: "str | os.PathLike") -> RuleSet:
    """The rule set in the file ``path``: a regular file of at most RULE_FILE_BYTES
    (solver._inputs), UTF-8, TOML."""
    text = read_text(path, "rule-set file", RULE_FILE_BYTES)
    return _rule_set_from_dict(read_toml(text, str(path)), str(path),
                               default_name=Path(path).stem)


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
