"""The rule-set file format (docs/rule-files.md): TOML, read with the standard library's
``tomllib`` and written by hand, so the format costs no dependency.

This module knows the file's layout -- its sections, their keys, what each key means, its
default and the range of its numbers -- and the TOML syntax; :mod:`solver.rules` knows
what the values mean (the ladder's categories, the scoring rules) and turns a file into a
:class:`solver.rules.RuleSet` (``RuleSet.from_file``, ``RuleSet.from_dict``,
``RuleSet.to_toml``).  It imports no other module of the package: the registry in
:mod:`solver.rules` reads the shipped files through it.

Every problem with a file is one :class:`RuleFileError` line naming the file, the key,
the value and the reason.
"""
from __future__ import annotations

import datetime
import difflib
import math
import re
import tomllib
from dataclasses import dataclass
from typing import Any, Iterable


class RuleFileError(ValueError):
    """A rule-set file that cannot be loaded: one line, ``FILE: KEY = VALUE: REASON``,
    the key as the file writes it (``[deal] seats``, ``[royalties] front.trips``) and a
    long value shortened.  ``key`` holds its dotted path (``deal.seats``)."""

    def __init__(self, source: str, key: str, value: Any, reason: str):
        self.source, self.key, self.value, self.reason = source, key, value, reason
        shown = "" if value is NO_VALUE else f" = {shown_value(value)}"
        super().__init__(": ".join(part for part in (source, file_key(key) + shown, reason)
                                   if part))


NO_VALUE = object()      # no value to show: the message names the key only

# The ranges of the numbers of a file (docs/rule-files.md).  A count of units (points,
# royalties, penalties, automatic wins) and a multiplier have ranges so that the largest
# deal -- five seats, every count and multiplier at its largest, a seat winning all of
# it from four others -- stays far inside the scoring kernels' integers and exact in a
# float64 mean: see solver.scoring.deal_units_bound and tests/test_rule_bounds.py.
MAX_NAME_CHARACTERS = 100          # a name is shown in every message about its rule set
MAX_UNITS = 1000
MAX_MULTIPLIER = 10
UNITS = (0, MAX_UNITS)
MULTIPLIER = (1, MAX_MULTIPLIER)


@dataclass(frozen=True)
class Key:
    """One key of the file: its section (``""``: the top of the file) and name, the type
    of its value, its default as written in a file, its meaning, and for a number (or a
    list of numbers) its range ``low``..``high``, checked at load.  The reference page,
    docs/rule-files.md, is checked against these."""

    section: str
    name: str
    type: str
    default: str
    meaning: str
    bounds: "tuple[int, int] | None" = None

    @property
    def path(self) -> str:
        return f"{self.section}.{self.name}" if self.section else self.name

    @property
    def kind(self) -> str:
        """The value as the reference page gives it: its type, then its range."""
        if self.bounds is None:
            return self.type
        return f"{self.type} {self.bounds[0]}-{self.bounds[1]}"


# The layout, in the order a file is written.  Royalty and automatic-win keys are tables
# of names (a row's categories, the automatic wins), listed by their own entry.  A key
# holding a number gets its range here, and nowhere else.
KEYS: tuple[Key, ...] = (
    Key("", "name", "string", "the file's name without .toml",
        "the rule set's name, shown in answers and messages: 1 to 100 characters, none of "
        "them a control character (a line break, a tab)"),
    Key("deck", "extra_spades", "boolean", "false",
        "a second full set of spades is shuffled in (65 cards before jokers)"),
    Key("deck", "jokers", "integer", "0", "wild jokers in the deck", (0, 3)),
    Key("deck", "cut_card", "boolean", "false",
        "a card is cut before the deal; its rank is the Bonus rank"),
    Key("deal", "cards", "integer", "13",
        "cards dealt to each seat; 13 of them are set, the rest discarded", (13, 17)),
    Key("deal", "seats", "list of integers", "[2, 3, 4]",
        "the numbers of seats a deal may have; each must fit in the deck", (2, 5)),
    Key("deal", "deal_all_unseen", "boolean", "true",
        "every card a seat cannot see is in another seat's hand (the deck is dealt out)"),
    Key("scoring", "row_points", "list of 3 integers", "[1, 1, 1]",
        "points for winning the Front, Middle and Back against a player", UNITS),
    Key("scoring", "front_trips_points", "integer", "0",
        "a Front won with trips scores this instead of its row point (0: no such rule)",
        UNITS),
    Key("scoring", "majority_bonus", "integer", "0",
        "extra points for winning at least two rows against a player", UNITS),
    Key("scoring", "scoop", "\"all_rows_won\" or \"no_row_lost\"", "\"all_rows_won\"",
        "what scooping a player means: winning all three rows, or losing none (ties count)"),
    Key("scoring", "scoop_units", "integer", "0", "units for scooping a player", UNITS),
    Key("scoring", "shot_multiplier", "integer", "1",
        "a scoop multiplies the pair's row points by this", MULTIPLIER),
    Key("scoring", "home_run_units", "integer", "0",
        "scooping every other player: extra units from each of them", UNITS),
    Key("scoring", "home_run_multiplier", "integer", "the shot_multiplier",
        "scooping every other player multiplies the row points by this instead of by "
        "shot_multiplier", MULTIPLIER),
    Key("scoring", "home_run_min_seats", "integer", "2",
        "home runs count only at tables of at least this many seats", (2, 5)),
    Key("scoring", "majority_multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to the majority bonus too"),
    Key("scoring", "scoop_multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to scoop_units too"),
    Key("scoring", "loss_cap_per_pair", "integer", "0",
        "the most one player pays another in a deal, everything included (0: no cap)", UNITS),
    Key("scoring", "loss_cap_per_deal", "integer", "0",
        "the most a player loses in a deal, everything included (0: no cap)", UNITS),
    Key("royalties", "mode", "\"add\" or \"replace\"", "\"add\"",
        "a royalty is added to the row's points, or a won row scores its royalty instead"),
    Key("royalties", "paid", "\"row_won\" or \"row_made\"", "\"row_won\"",
        "a royalty is paid when its row wins, or whenever the row is made"),
    Key("royalties", "multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to royalties too"),
    Key("royalties", "ROW.CATEGORY", "integer", "none",
        "units for a row (front, middle, back) of that hand category, e.g. "
        "front.trips = 3 (a category left out has none)", (1, MAX_UNITS)),
    Key("royalties", "ROW.CATEGORY.RANK", "integer", "none",
        "the category's royalty by the row's rank instead, as a table, e.g. "
        "front.pair = { 6 = 1, 7 = 2, A = 9 } (a rank left out has none)", (1, MAX_UNITS)),
    Key("fouls", "rule", "\"penalty\", \"loses_rows\" or \"not_allowed\"", "\"not_allowed\"",
        "a fouled hand pays a penalty to each player, or loses every row (and the scoop), "
        "or cannot be played"),
    Key("fouls", "penalty", "integer", "0",
        "units a fouled hand pays each other player: all it pays with rule = \"penalty\", "
        "on top of the rows it loses with \"loses_rows\"", UNITS),
    Key("surrender", "cost", "integer", "0",
        "a player may surrender before the showdown, paying this to each other player "
        "still in the hand (not surrendered, not fouled) and nothing else; 0: no surrender",
        UNITS),
    Key("automatic_wins", "declared", "boolean", "true",
        "a player holding an automatic win may declare it instead of setting (the solver "
        "declares when that is worth more); false: a hand holding one is scored as it"),
    Key("automatic_wins", "wild_jokers", "boolean", "false",
        "a joker stands for any card in a special hand; false: a joker is a card of no "
        "rank and no suit there (true needs jokers in the deck and automatic wins)"),
    Key("automatic_wins", "strength.NAME", "integer", "the units",
        "how two automatic wins at one table compare (larger is stronger): given for every "
        "automatic win of the rule set, or for none", (1, MAX_UNITS)),
    Key("automatic_wins", "NAME", "integer", "none",
        "units of an automatic win the rule set allows, e.g. dragon = 13", (1, MAX_UNITS)),
    Key("", "at_N_seats.SECTION.KEY", "as the key", "the key's",
        "at tables of N seats, this value of a scoring, royalties, fouls or automatic_wins "
        "key instead, e.g. [at_4_seats.scoring] shot_multiplier = 2"),
)
# Keys of [automatic_wins] that are not names of automatic wins.
AUTOMATIC_WIN_SETTINGS = ("declared", "wild_jokers", "strength")
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


def bounds(section: str, name: str) -> "tuple[int, int]":
    """The range of the number at ``section.name`` (for a table of names, its entry:
    ``("royalties", "ROW.CATEGORY")``)."""
    return next(k.bounds for k in KEYS if (k.section, k.name) == (section, name))


def file_key(path: str) -> str:
    """A key's dotted path as the file writes it: ``[deal] seats``, ``[royalties]
    front.trips``, ``[at_4_seats.scoring] scoop_units``; a key at the top of the file
    (``name``, a section) as it is.

    >>> file_key("deal.seats"), file_key("royalties.front.trips"), file_key("name")
    ('[deal] seats', '[royalties] front.trips', 'name')
    >>> file_key("at_4_seats.scoring.scoop_units"), file_key("at_4_seats.fouls")
    ('[at_4_seats.scoring] scoop_units', '[at_4_seats.fouls]')
    """
    section, _, rest = path.partition(".")
    if seat_table(section) is not None and rest:
        inner, _, key = rest.partition(".")
        return f"[{section}.{inner}] {key}" if key else f"[{section}.{inner}]"
    return f"[{section}] {rest}" if section in SECTIONS and rest else path


# A value in a message is cut to this many characters (a file may hold a list of a
# million numbers, or tables nested thousands deep: the message stays one short line).
SHOWN_CHARACTERS = 80


def shown_value(value: Any) -> str:
    """``value`` as TOML for a message, cut at SHOWN_CHARACTERS (and at a few levels of
    nesting) with ``...``."""
    text = _shown(value, 4, SHOWN_CHARACTERS + 1)
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 3] + "..."


def _shown(value: Any, depth: int, room: int) -> str:
    """toml_value of ``value``, but ``...`` below ``depth`` levels of lists and tables
    and no more items than fill ``room`` characters."""
    if isinstance(value, (list, tuple, dict)):
        if depth == 0:
            return "..."
        items, used = [], 0
        pairs = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for key, item in pairs:
            text = _shown(item, depth - 1, room - used)
            if key is not None:
                text = f"{toml_key(str(key))} = {text}"
            items.append(text)
            used += len(text) + 2
            if used > room:
                break
        inner = ", ".join(items)
        return "{" + inner + "}" if isinstance(value, dict) else "[" + inner + "]"
    text = toml_value(value)
    return text if len(text) <= room else text[:room] + "..."


def read(text: str, source: str) -> dict:
    """The TOML ``text`` as nested dicts (a leading byte-order mark is skipped); invalid
    TOML is a :class:`RuleFileError` with its line (``tomllib`` puts "(at line L, column
    C)" in its message), and so is TOML nested too deeply for the parser or a number too
    long for Python, one line rather than a ``RecursionError``'s thousands."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RuleFileError(source, "", NO_VALUE, f"invalid TOML: {e}") from None
    except RecursionError:
        raise RuleFileError(source, "", NO_VALUE, "invalid TOML: lists or tables nested "
                            "too deeply") from None
    except ValueError:          # (Python refuses an integer of more than 4,300 digits)
        raise RuleFileError(source, "", NO_VALUE, "invalid TOML: a number with too many "
                            "digits") from None


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
    if isinstance(value, (datetime.date, datetime.time)):       # (TOML has them: a mistake)
        return value.isoformat()
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
