"""The rule-set file format (docs/rule-files.md): TOML, read with the standard library's
``tomllib`` and written by hand, so the format costs no dependency.

This module knows the file's layout -- its sections, their keys, what each key means and
its default -- and the TOML syntax; :mod:`solver.rules` knows what the values mean (the
ladder's categories, the scoring rules) and turns a file into a
:class:`solver.rules.RuleSet` (``RuleSet.from_file``, ``RuleSet.from_dict``,
``RuleSet.to_toml``).  It imports no other module of the package: the registry in
:mod:`solver.rules` reads the shipped files through it.

Every problem with a file is one :class:`RuleFileError` line naming the file, the key,
the value and the reason.
"""
from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass
from typing import Any, Iterable


class RuleFileError(ValueError):
    """A rule-set file that cannot be loaded: one line, ``FILE: KEY = VALUE: REASON``."""

    def __init__(self, source: str, key: str, value: Any, reason: str):
        self.source, self.key, self.value, self.reason = source, key, value, reason
        shown = "" if value is NO_VALUE else f" = {toml_value(value)}"
        super().__init__(": ".join(part for part in (source, key + shown, reason) if part))


NO_VALUE = object()      # no value to show: the message names the key only


@dataclass(frozen=True)
class Key:
    """One key of the file: its section (``""``: the top of the file) and name, the type
    of its value, its default as written in a file, and its meaning (the reference page,
    docs/rule-files.md, is checked against these)."""

    section: str
    name: str
    kind: str
    default: str
    meaning: str

    @property
    def path(self) -> str:
        return f"{self.section}.{self.name}" if self.section else self.name


# The layout, in the order a file is written.  Royalty and automatic-win keys are tables
# of names (a row's categories, the automatic wins), listed by their own entry.
KEYS: tuple[Key, ...] = (
    Key("", "name", "string", "the file's name without .toml",
        "the rule set's name, shown in answers and messages"),
    Key("deck", "extra_spades", "boolean", "false",
        "a second full set of spades is shuffled in (65 cards before jokers)"),
    Key("deck", "jokers", "integer 0-3", "0", "wild jokers in the deck"),
    Key("deck", "cut_card", "boolean", "false",
        "a card is cut before the deal; its rank is the Bonus rank"),
    Key("deal", "cards", "integer 13-17", "13",
        "cards dealt to each seat; 13 of them are set, the rest discarded"),
    Key("deal", "seats", "list of integers 2-5", "[2, 3, 4]",
        "the numbers of seats a deal may have; each must fit in the deck"),
    Key("deal", "deal_all_unseen", "boolean", "true",
        "every card a seat cannot see is in another seat's hand (the deck is dealt out)"),
    Key("scoring", "row_points", "list of 3 integers 0 or more", "[1, 1, 1]",
        "points for winning the Front, Middle and Back against a player"),
    Key("scoring", "front_trips_points", "integer 0 or more", "0",
        "a Front won with trips scores this instead of its row point (0: no such rule)"),
    Key("scoring", "majority_bonus", "integer 0 or more", "0",
        "extra points for winning at least two rows against a player"),
    Key("scoring", "scoop", "\"all_rows_won\" or \"no_row_lost\"", "\"all_rows_won\"",
        "what scooping a player means: winning all three rows, or losing none (ties count)"),
    Key("scoring", "scoop_units", "integer 0 or more", "0", "units for scooping a player"),
    Key("scoring", "shot_multiplier", "integer 1 or more", "1",
        "a scoop multiplies the pair's row points by this"),
    Key("scoring", "home_run_units", "integer 0 or more", "0",
        "scooping every other player: extra units from each of them"),
    Key("scoring", "home_run_multiplier", "integer 1 or more", "the shot_multiplier",
        "scooping every other player multiplies the row points by this instead of by "
        "shot_multiplier"),
    Key("scoring", "home_run_min_seats", "integer 2-5", "2",
        "home runs count only at tables of at least this many seats"),
    # range: true or false
    Key("scoring", "majority_multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to the majority bonus too"),
    # range: true or false
    Key("scoring", "scoop_multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to scoop_units too"),
    # range: 0 (no cap) or more
    Key("scoring", "loss_cap_per_pair", "integer 0 or more", "0",
        "the most one player pays another in a deal, everything included (0: no cap)"),
    # range: 0 (no cap) or more
    Key("scoring", "loss_cap_per_deal", "integer 0 or more", "0",
        "the most a player loses in a deal, everything included (0: no cap)"),
    Key("royalties", "mode", "\"add\" or \"replace\"", "\"add\"",
        "a royalty is added to the row's points, or a won row scores its royalty instead"),
    Key("royalties", "paid", "\"row_won\" or \"row_made\"", "\"row_won\"",
        "a royalty is paid when its row wins, or whenever the row is made"),
    Key("royalties", "multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to royalties too"),
    Key("royalties", "ROW.CATEGORY", "integer 0 or more", "none",
        "units for a row (front, middle, back) of that hand category, e.g. "
        "front.trips = 3"),
    # range: each 0 or more; RANK one of 2-9, T (or 10), J, Q, K, A
    Key("royalties", "ROW.CATEGORY.RANK", "integer 0 or more", "0",
        "the category's royalty by the row's rank instead, as a table, e.g. "
        "front.pair = { 6 = 1, 7 = 2, A = 9 }; a rank left out pays 0"),
    Key("fouls", "rule", "\"penalty\", \"loses_rows\" or \"not_allowed\"", "\"not_allowed\"",
        "a fouled hand pays a penalty to each player, or loses every row (and the scoop), "
        "or cannot be played"),
    # range: 0 or more; at least 1 with rule = "penalty"
    Key("fouls", "penalty", "integer 0 or more", "0",
        "units a fouled hand pays each other player: all it pays with rule = \"penalty\", "
        "on top of the rows it loses with \"loses_rows\""),
    Key("automatic_wins", "declared", "boolean", "true",
        "a player holding an automatic win may declare it instead of setting (the solver "
        "declares when that is worth more); false: a hand holding one is scored as it"),
    Key("automatic_wins", "strength.NAME", "integer 1 or more", "the units",
        "how two automatic wins at one table compare (larger is stronger): given for every "
        "automatic win of the rule set, or for none"),
    Key("automatic_wins", "NAME", "integer 1 or more", "none",
        "units of an automatic win the rule set allows, e.g. dragon = 13"),
    # range: N one of deal.seats; the value as the key's own range
    Key("", "at_N_seats.SECTION.KEY", "as the key", "the key's",
        "at tables of N seats, this value of a scoring, royalties, fouls or automatic_wins "
        "key instead, e.g. [at_4_seats.scoring] shot_multiplier = 2"),
)
# Keys of [automatic_wins] that are not names of automatic wins.
AUTOMATIC_WIN_SETTINGS = ("declared", "strength")
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(k.section for k in KEYS if k.section))
# The sections a table of one seat count (at_N_seats) may change: how a deal scores.
SEAT_SECTIONS = ("scoring", "royalties", "fouls", "automatic_wins")
# Ranks of a royalty table by rank, lowest first, as a file writes them (10 reads as T,
# and case does not matter, as in card notation).
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def seat_table(key: str) -> "int | None":
    """N of a top-level key ``at_N_seats``, or None for any other key."""
    match = re.fullmatch(r"at_(\d+)_seats", key)
    return int(match.group(1)) if match else None


def rank_index(name: str) -> "int | None":
    """The index in :data:`RANK_NAMES` of a rank as a file may write it, or None."""
    name = name.strip().upper()
    name = "T" if name == "10" else name
    return RANK_NAMES.index(name) if name in RANK_NAMES else None


class InlineTable(dict):
    """A table :func:`write` puts on one line (``{ 6 = 1, 7 = 2 }``), as a royalty's
    ranks read best."""


def nearest(name: str, valid: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the valid name closest to ``name``, or ``""``."""
    close = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read(text: str, source: str) -> dict:
    """The TOML ``text`` as nested dicts; invalid TOML is a :class:`RuleFileError` with
    its line (``tomllib`` puts "(at line L, column C)" in its message)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RuleFileError(source, "", NO_VALUE, f"invalid TOML: {e}") from None


def toml_value(value: Any) -> str:
    """``value`` written as a TOML value (strings, integers, booleans, lists of them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}",
                            escaped) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def toml_key(key: str) -> str:
    """``key`` as a TOML key: bare where TOML allows it, else quoted."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_value(key)


def write(header: Iterable[str], document: dict) -> str:
    """``document`` (nested dicts) as TOML: the comment lines ``header``, the top-level
    values, then each table as a ``[section]``, a table inside it as dotted keys
    (``front.trips = 3``), an :class:`InlineTable` on one line, so a rule set reads as a
    few short sections; a table of tables only (``at_4_seats``) as ``[at_4_seats.scoring]``
    and so on."""
    lines = [f"# {line}".rstrip() for line in header]
    for key, value in document.items():
        if not _is_table(value):
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    for section, table in document.items():
        if _is_table(table):
            lines += _section(toml_key(section), table)
    return "\n".join(lines) + "\n"


def _is_table(value) -> bool:
    return isinstance(value, dict) and not isinstance(value, InlineTable)


def _section(name: str, table: dict, tables_of_tables: bool = True) -> list[str]:
    if tables_of_tables and table and all(_is_table(v) for v in table.values()):
        return [line for key, sub in table.items()
                for line in _section(f"{name}.{toml_key(key)}", sub, False)]
    return ["", f"[{name}]"] + [f"{dotted} = {toml_value(value)}"
                                for dotted, value in _dotted(table)]


def _dotted(table: dict, prefix: str = ""):
    for key, value in table.items():
        if _is_table(value):
            yield from _dotted(value, f"{prefix}{toml_key(key)}.")
        else:
            yield f"{prefix}{toml_key(key)}", value
