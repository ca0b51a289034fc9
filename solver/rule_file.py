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
    Key("royalties", "mode", "\"add\" or \"replace\"", "\"add\"",
        "a royalty is added to the row's points, or a won row scores its royalty instead"),
    Key("royalties", "paid", "\"row_won\" or \"row_made\"", "\"row_won\"",
        "a royalty is paid when its row wins, or whenever the row is made"),
    Key("royalties", "multiplied", "boolean", "false",
        "the shot and home-run multipliers apply to royalties too"),
    Key("royalties", "ROW.CATEGORY", "integer 0 or more", "none",
        "units for a row (front, middle, back) of that hand category, e.g. "
        "front.trips = 3"),
    Key("fouls", "rule", "\"penalty\", \"loses_rows\" or \"not_allowed\"", "\"not_allowed\"",
        "a fouled hand pays a penalty to each player, or loses every row (and the scoop), "
        "or cannot be played"),
    Key("fouls", "penalty", "integer 0 or more", "0",
        "units a fouled hand pays each other player (rule = \"penalty\" only)"),
    # range: 0 or more (no upper bound: a house may make surrender as dear as it likes)
    Key("surrender", "cost", "integer 0 or more", "0",
        "a player may surrender before the showdown, paying this to each other player "
        "still in the hand (not surrendered, not fouled) and nothing else; 0: no surrender"),
    Key("automatic_wins", "declared", "boolean", "true",
        "a player holding an automatic win may declare it instead of setting (the solver "
        "declares when that is worth more); false: a hand holding one is scored as it"),
    # range: true or false; true needs jokers in the deck and automatic wins
    Key("automatic_wins", "wild_jokers", "boolean", "false",
        "a joker stands for any card in a special hand; false: a joker is a card of no "
        "rank and no suit there (a deck with jokers only)"),
    Key("automatic_wins", "strength.NAME", "integer 1 or more", "the units",
        "how two automatic wins at one table compare (larger is stronger): given for every "
        "automatic win of the rule set, or for none"),
    Key("automatic_wins", "NAME", "integer 1 or more", "none",
        "units of an automatic win the rule set allows, e.g. dragon = 13"),
)
# Keys of [automatic_wins] that are not names of automatic wins.
AUTOMATIC_WIN_SETTINGS = ("declared", "wild_jokers", "strength")
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(k.section for k in KEYS if k.section))


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
    (``front.trips = 3``), so a rule set reads as a few short sections."""
    lines = [f"# {line}".rstrip() for line in header]
    for key, value in document.items():
        if not isinstance(value, dict):
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    for section, table in document.items():
        if isinstance(table, dict):
            lines += ["", f"[{toml_key(section)}]"]
            lines += [f"{dotted} = {toml_value(value)}" for dotted, value in _dotted(table)]
    return "\n".join(lines) + "\n"


def _dotted(table: dict, prefix: str = ""):
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _dotted(value, f"{prefix}{toml_key(key)}.")
        else:
            yield f"{prefix}{toml_key(key)}", value
