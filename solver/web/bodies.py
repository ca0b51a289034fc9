"""What each POST endpoint of the study page's API takes: its request body, a pydantic
model whose fields are the library's arguments, and the one-line message of a body that
is not what it takes.

The rule set a request plays under is one of two things, and never a path: ``rules``, the
name of a rule set the library registers (:data:`solver.RULE_SET_NAMES`; a name that is
not one is refused, before anything runs, with the same message whatever it looks like),
or, in the bodies that take one, ``rules_file``, a rule-set file's *text*
(docs/rule-files.md), which the server parses and never looks up on disk (``rules`` is
then only its label).  :func:`rules_of` is the one place a body becomes a
:class:`solver.RuleSet`, so no client string ever reaches ``solver.rule_set``, which
would read a ``.toml`` path as a file of this server.
"""
from __future__ import annotations

import json
from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

import solver
from .errors import one_line
from .play import DEFAULT_OPPONENTS, OPPONENTS

DEFAULT_SAMPLES = 1000           # review's (it compares on exactly this many deals)
SAMPLES_HELP = ("exactly this many sampled deals, at most the server's --max-samples "
                "(default: solve's adaptive sampling, as effort says)")
REVIEW_SAMPLES_HELP = (f"sampled deals (default {DEFAULT_SAMPLES}, or the server's "
                       f"--max-samples if smaller; at most --max-samples)")
RULES_HELP = "a rule set's name: " + ", ".join(solver.RULE_SET_NAMES)
RULES_FILE_HELP = ("the text of a rule-set file (docs/rule-files.md) to play under instead "
                   "of a shipped rule set; rules is then its name")

Cards = Union[StrictStr, list[StrictStr]]


def registered(name: str) -> str:
    """``name`` when it is a registered rule set's (as ``solver.rule_set`` reads one:
    case and surrounding spaces aside); else a ``ValueError``, the same for every other
    string -- a path, whether or not a file is there, is just not a name."""
    if name.strip().lower() in solver.RULE_SET_NAMES:
        return name
    valid = ", ".join(repr(n) for n in solver.RULE_SET_NAMES)
    raise ValueError(f"unknown rule set {one_line(name, 100)!r}; valid names: {valid} (the "
                     f"text of a rule-set file goes in rules_file)")


class _Body(BaseModel):
    """A request body: no field but its own, and ``rules`` a registered rule set's name
    unless the body carries a rules file."""
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="after")
    def _rules_registered(self):
        rules = getattr(self, "rules", None)
        if rules is not None and getattr(self, "rules_file", None) is None:
            registered(rules)
        return self


class SolveRequest(_Body):
    cards: Cards = Field(description="the hand: one text ('As Ks Qh ...') or card texts")
    rules: StrictStr = Field(description=RULES_HELP)
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    cut: Optional[StrictStr] = Field(None, description="the cut card (bonus), e.g. '4c'")
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    samples: Optional[StrictInt] = Field(None, description=SAMPLES_HELP)
    effort: Optional[StrictStr] = Field(None, description="adaptive sampling: 'fast' (the "
                                                          "default) or 'max'")
    seed: StrictInt = Field(0, description="seed of the sampled deals")
    top: StrictInt = Field(5, description="alternative settings to report")


class ReviewRequest(_Body):
    cards: Cards = Field(description="the hand")
    setting: Cards = Field(description="your rows 'FRONT / MIDDLE / BACK' or [front, "
                                       "middle, back]; 'declare' (classic)")
    rules: StrictStr = Field(description=RULES_HELP)
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    cut: Optional[StrictStr] = Field(None, description="the cut card (bonus)")
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    samples: Optional[StrictInt] = Field(None, description=REVIEW_SAMPLES_HELP)
    seed: StrictInt = Field(0, description="seed of the sampled deals")


class CardsRequest(_Body):
    cards: StrictStr = Field(description="card texts in any notation the library reads "
                                         "('As Kd', 'AsKd', 'A♠️ K♦️', '10h', 'Jk')")


class RulesFileRequest(_Body):
    text: StrictStr = Field(description="the text of a rule-set file (docs/rule-files.md)")


class TrainRequest(_Body):
    rules: StrictStr = Field(description=RULES_HELP)
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")


class DealRequest(_Body):
    rules: StrictStr = Field(description=RULES_HELP)
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    seed: Optional[StrictInt] = Field(None, description="seed of the deal (default: random)")


class MatchDealRequest(_Body):
    rules: StrictStr = Field(description=RULES_HELP)
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    seed: Optional[StrictInt] = Field(None, description="seed of the match's deals "
                                                        "(default: random)")
    index: StrictInt = Field(0, description="which deal of the match, from 0")


class ShowdownRequest(_Body):
    rules: StrictStr = Field(description=RULES_HELP)
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    seed: StrictInt = Field(description="seed of the match's deals")
    index: StrictInt = Field(0, description="which deal of the match, from 0")
    setting: Cards = Field(description="your rows 'FRONT / MIDDLE / BACK' or [front, "
                                       "middle, back]; 'declare'")
    opponents: Literal[OPPONENTS] = Field(DEFAULT_OPPONENTS, description="how the other seats are "
                                          "set: 'quick' (quick_set), 'fast' or 'max' (solve "
                                          "at that effort)")


# --- a body's rule set -------------------------------------------------------------------------
def rule_set_from_text(text: str) -> "solver.RuleSet":
    """The rule set of a rule-set file's text, as the page sends it (pasted or loaded);
    a ``ValueError`` in one line for a bad one, a file nested too deeply to read
    included (Python's recursion runs out before the parser does)."""
    try:
        return solver.RuleSet.from_toml(text, source="the rules file")
    except RecursionError:
        raise ValueError("the rules file: its arrays or tables nest too deeply to read") \
            from None


def rules_of(body) -> "solver.RuleSet":
    """The rule set a request plays under: its rules file's, else the registered one
    ``rules`` names (checked when the body was read; checked again here, so that this
    is the only way in)."""
    if getattr(body, "rules_file", None) is not None:
        return rule_set_from_text(body.rules_file)
    return solver.rule_set(registered(body.rules).strip().lower())


# --- a body the endpoint does not take, in one line -------------------------------------------
_EXPECTED = {"string_type": "a string", "int_type": "a whole number",
             "int_parsing": "a whole number", "int_from_float": "a whole number",
             "list_type": "a list"}
# A union's members, as pydantic names them in an error's place: Cards' two forms.
_MEMBERS = {"str": "a string", "list[str]": "a list of strings"}


def _shown(value) -> str:
    """A value a client sent, as JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = "that value"
    return one_line(text, 60)


def validation_message(errors) -> str:
    """The errors of a body the endpoint does not take (pydantic's ``errors()``) in one
    plain line, in this server's words: which field, what it must be, what was sent --
    never pydantic's own text or its links."""
    by_field: dict[str, list] = {}
    for error in errors:
        kind = error.get("type", "")
        if kind == "json_invalid":
            return "the request body is not valid JSON"
        loc = [x for x in error.get("loc", ()) if x != "body"]
        if kind in ("model_type", "model_attributes_type", "dict_type", "missing") \
                and not loc:                           # (missing: an empty body)
            return "the request body must be a JSON object"
        by_field.setdefault(str(loc[0]) if loc else "", []).append((loc[1:], error))
    problems = []
    for field, found in by_field.items():
        rest, first = min(found, key=lambda item: len(item[0]))    # (the field's own value)
        kind = first.get("type", "")
        sent = _shown(first.get("input"))
        if kind == "value_error":                      # our own check: its own words
            problems.append(one_line(first.get("ctx", {}).get("error", "invalid value")))
        elif kind == "extra_forbidden":
            problems.append(f"{field}: not a field this request takes")
        elif kind == "missing":
            problems.append(f"{field}: required")
        elif kind == "literal_error":
            expected = str(first.get("ctx", {}).get("expected", "")).replace("'", "")
            problems.append(f"{field}: one of {expected.replace(' or ', ', ')}, not {sent}")
        else:
            # One of a union's members (Cards: a string, or a list of strings) or the
            # field's one type.
            expected = " or ".join(dict.fromkeys(
                _MEMBERS.get(str(place[0]) if place else "",
                             _EXPECTED.get(e.get("type", ""), "a value of another kind"))
                for place, e in found))
            problems.append(f"{field or 'the request body'}: {expected}, not {sent}")
    return one_line("; ".join(dict.fromkeys(problems)) or "bad request")
