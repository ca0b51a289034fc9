"""Grading a whole session of hands: :func:`review_many`, and what it returns, a
:class:`SessionReport`.

Each hand is graded by :func:`solver.review` (your setting against the best one, on the
same sampled deals), in parallel on :mod:`solver.batch`'s machinery; the report adds the
hands up: the EV lost in all and per hand, each with its standard error, how often your
setting was the best or statistically tied with it, the costliest mistakes, and the
patterns of the rows where your settings differ from the best (:data:`PATTERNS`).

The hand history
----------------
A file of JSON lines (``.jsonl``: one JSON object a line) or CSV (``.csv``: a header row
naming the columns), one hand a line, with these keys:

* ``cards`` (required): the hand dealt, one text in the notation of
  :func:`solver.parse_cards`;
* ``setting`` (required): your rows ``"FRONT / MIDDLE / BACK"`` (``|`` also separates the
  rows), or ``"declare"`` (declare the hand's automatic win);
* ``rules``: the rule set (default: ``review_many``'s ``rules=``);
* ``players``: seats at the table (default: ``players=``, else the rule set's largest);
* ``cut``: the cut card, where the rule set has one;
* ``id``: the hand's name, a text or an integer (default: its line number).

Blank lines and lines starting with ``#`` are skipped; in CSV an empty cell is a key not
given.  Any other key is an error.  A line that cannot be graded (not JSON, a key
missing, a card not in the hand, a setting of the wrong shape, ...) is reported as
``FILE line N: message`` (:class:`Skipped`), counted, and left out; the rest are graded.
A file whose name ends neither in ``.csv`` nor in ``.jsonl``/``.json``/``.ndjson`` is
read as JSON lines when its first line that is not blank or a comment starts with ``{``,
else as CSV.

The statistics
--------------
For hand *i*, ``loss_i`` is the best choice's mean score minus yours on the same deals
(``-Review.diff``, never negative: the best is exact for those deals) and ``se_i`` that
paired difference's standard error (``Review.diff_stderr``).  Over the *n* hands scored:
total loss ``L = sum(loss_i)`` with ``SE(L) = sqrt(sum(se_i**2))`` (hands are
independent), mean loss ``L / n`` with ``SE(L) / n``, and the best-or-tied rate: the
share of hands whose setting is ``Review.tied`` (within two standard errors of the best;
the best itself included).  A fouled setting in a rule set that does not let one be
played (``joker``, ``bonus``) has no score: it is graded (its patterns counted) but not
scored, and left out of *n* (:attr:`SessionReport.unplayable` counts those hands).

Determinism: hand *i* is graded with the seed :func:`hand_seed` ``(seed, index)``, where
``index`` is its line number in a file (its position, from 0, in a sequence), so a
session gives the same report whatever the number of workers or the cluster, and one
hand's grade is ``review(cards, setting, rules, cut, players=..., samples=samples,
seed=grade.seed)``.

>>> report = review_many([{"cards": "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c",
...                        "setting": "2h 2d 5c / 9h 9d 9c 6c 7c / As Ks Qs Js Ts"}],
...                      rules="classic", samples=100, workers=1)
>>> report.hands, report.best_or_tied_rate, report.total_loss
(1, 1.0, 0.0)
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

import numpy as np

from ._checks import check_int, is_int
from ._session_html import hand_name, report_html
from .batch import _check_backend, _cores, _map, _slots
from .cards import FIRST_JOKER, code_rank, format_cards, parse_codes
from .display import FEW_DEALS, label, sort_row
from .review import DECLARE, Review, _setting_codes, review
from .rows import row_value
from .rules import ROWS, RuleSet, rule_set
from .sampling import prepare_hand

__all__ = ["HandGrade", "PATTERNS", "PatternCount", "SessionReport", "Skipped",
           "hand_seed", "review_many"]

KEYS = ("cards", "setting", "rules", "players", "cut", "id")
REQUIRED_KEYS = ("cards", "setting")
JSON_SUFFIXES = (".jsonl", ".json", ".ndjson")
CSV_SUFFIXES = (".csv",)
COSTLIEST = 10                # mistakes a report shows by default

# A worker process takes seconds to start (Python, Numba and the cached kernels: 3-4 s on
# a busy 2-core machine) and a review of the default 1000 deals 0.2-0.5 s there: by
# default, no more than one process per this many hands (fewer are graded in this one).
HANDS_PER_WORKER = 32
# Hands a task: small tasks keep the workers evenly loaded at the end; each review
# outweighs a task's overhead many times.
_MAX_HANDS_PER_TASK = 4
_TASKS_PER_SLOT = 4

_FLUSHES = frozenset({"flush", "paired_flush", "straight_flush"})
_STRAIGHTS = frozenset({"straight", "straight_flush"})


# --- the patterns --------------------------------------------------------------------------
def _row_patterns():
    out = {}
    for row in ROWS:
        out[f"{row}_too_strong"] = (
            f"{row.title()} too strong",
            f"your {row.title()} is a stronger hand than the best setting's {row.title()}")
        out[f"{row}_too_weak"] = (
            f"{row.title()} too weak",
            f"your {row.title()} is a weaker hand than the best setting's {row.title()}")
    return out


#: Each pattern a hand's setting can show, by name: (its label, its definition), in a
#: player's words (:func:`_patterns` says each exactly).  A hand may show several (a
#: Front too strong often comes with a Middle too weak); each pattern's cost is the total
#: loss of the hands that show it, so the costs of different patterns overlap and do not
#: add up to the session's loss.  All but the first three are looked for only where
#: neither you nor the best declare an automatic win (:data:`PATTERNS_NOTE`).
PATTERNS: dict[str, tuple[str, str]] = {
    "foul": ("a foul", "your rows are out of order: the Front beats the Middle, or the "
                       "Middle beats the Back"),
    "not_declared": ("automatic win not declared",
                     "you set the rows where declaring the hand's automatic win was the best "
                     "choice"),
    "declared_wrongly": ("declared, better played",
                         "you declared the automatic win where playing the best setting "
                         "was worth more"),
    **_row_patterns(),
    "pair_split": ("a pair split",
                   "the best setting keeps a pair, trips or quads together in one row, and "
                   "you split them over rows or discarded one (jokers do not count)"),
    "flush_broken": ("a flush broken",
                     "the best setting makes more flushes than yours (a paired flush or a "
                     "straight flush counts as one)"),
    "straight_broken": ("a straight broken",
                        "the best setting makes more straights than yours (a straight "
                        "flush counts as one)"),
    "discards_differ": ("other discards",
                        "you discarded other cards than the best setting does (where 16 or "
                        "17 cards are dealt)"),
}

#: Said once beside the patterns, not in each definition.
PATTERNS_NOTE = ("Apart from a foul and the two about automatic wins, a pattern is looked "
                 "for only in hands where neither you nor the best setting declare an "
                 "automatic win.")


def _patterns(r: Review, rules, cut) -> tuple[str, ...]:
    """The names of :data:`PATTERNS` that your setting shows, in that order."""
    found = set()
    if r.fouls:
        found.add("foul")
    if r.best_declares and not r.declare:
        found.add("not_declared")
    if r.declare and not r.best_declares:
        found.add("declared_wrongly")
    if not (r.declare or r.best_declares):
        best = r.best
        mine, theirs = (r.front, r.middle, r.back), (best.front, best.middle, best.back)
        for row, a, b in zip(ROWS, mine, theirs):
            a, b = row_value(a, rules, cut).value, row_value(b, rules, cut).value
            if a != b:
                found.add(f"{row}_too_strong" if a > b else f"{row}_too_weak")
        if _splits_a_pair(mine, theirs):
            found.add("pair_split")
        if _count_in(best.categories, _FLUSHES) > _count_in(r.categories, _FLUSHES):
            found.add("flush_broken")
        if _count_in(best.categories, _STRAIGHTS) > _count_in(r.categories, _STRAIGHTS):
            found.add("straight_broken")
        if Counter(r.discards.split()) != Counter(best.discards.split()):
            found.add("discards_differ")
    return tuple(name for name in PATTERNS if name in found)


def _most_of_each_rank(rows: Sequence[str]) -> Counter:
    """For each rank (jokers aside), the most cards of it in one of the rows."""
    most: Counter = Counter()
    for row in rows:
        for rank, n in Counter(code_rank(c) for c in parse_codes(row, "joker")
                               if c < FIRST_JOKER).items():
            most[rank] = max(most[rank], n)
    return most


def _splits_a_pair(mine: Sequence[str], best: Sequence[str]) -> bool:
    yours, theirs = _most_of_each_rank(mine), _most_of_each_rank(best)
    return any(k >= 2 and yours[rank] < k for rank, k in theirs.items())


def _count_in(categories: Sequence[str], kinds: frozenset) -> int:
    return sum(c in kinds for c in categories)


# --- the values --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Skipped:
    """A line of the hand history that was not graded: ``where`` (``"FILE line N"``, or
    ``"hand N"`` for the N-th item, from 0, of a sequence), its ``line`` number (or
    index) and what is wrong, ``message``.  ``str(skipped)`` is ``"WHERE: MESSAGE"``."""
    where: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class HandGrade:
    """One hand of a session, graded (:func:`review_many`).

    ``line``: its line number in the file (its index in a sequence); ``id``: its own id,
    else ``line``; ``cards``, ``rules``, ``cut``, ``players``: the hand and the table;
    ``seed``: the seed it was graded with (:func:`hand_seed`), so ``review(cards,
    setting, rules, cut, players=players, samples=samples, seed=seed)`` is its
    :class:`solver.Review`.  ``setting``: your rows ``"FRONT / MIDDLE / BACK"`` in
    reading order, or ``"declare"``; ``best``: the best choice, the same way;
    ``categories`` and ``best_categories`` their rows' categories (empty for a
    declaration); ``discards`` and ``best_discards`` (16 or 17 cards dealt).  ``loss``:
    the best's mean score minus yours on the same deals (``-Review.diff``), ``loss_stderr``
    its standard error; both None for a foul that cannot be played (``playable`` False).
    ``tied``, ``is_best``, ``fouls``, ``rank``, ``ranked_among``: as in
    :class:`solver.Review`.  ``patterns``: the names of :data:`PATTERNS` it shows.
    """
    line: int
    id: Any
    cards: str
    rules: str
    cut: Optional[str]
    players: int
    samples: int
    seed: int
    setting: str
    best: str
    categories: tuple[str, str, str]
    best_categories: tuple[str, str, str]
    discards: str
    best_discards: str
    fouls: tuple[str, ...]
    playable: bool
    loss: Optional[float]
    loss_stderr: Optional[float]
    tied: Optional[bool]
    is_best: bool
    rank: Optional[int]
    ranked_among: Optional[int]
    patterns: tuple[str, ...]

    def to_dict(self) -> dict:
        """Every field as plain Python values (lists for tuples)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class PatternCount:
    """One of :data:`PATTERNS` over a session: ``count`` hands show it (``unplayable`` of
    them a foul that cannot be played, so not scored), and together they lost ``cost``
    units, ``cost_stderr`` its standard error (the root of the sum of their squared
    standard errors)."""
    name: str
    label: str
    definition: str
    count: int
    unplayable: int
    cost: float
    cost_stderr: float

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class SessionReport:
    """A session graded by :func:`review_many`: ``grades``, one :class:`HandGrade` a
    hand graded, in the order of the lines; ``skipped``, a :class:`Skipped` for each
    line left out; ``source`` (the file, or ``"hands"``), ``samples`` and ``seed``.

    The figures (the module's "The statistics"): :attr:`hands`, :attr:`scored`,
    :attr:`unplayable`, :attr:`total_loss` ± :attr:`total_loss_stderr`,
    :attr:`mean_loss` ± :attr:`mean_loss_stderr`, :attr:`best_or_tied` and
    :attr:`best_or_tied_rate`; :meth:`costliest` (the mistakes that cost most) and
    :attr:`patterns`.  ``str(report)`` is the command line's text, :meth:`to_dict` /
    :meth:`to_json` give everything as plain values and :meth:`to_html` a page of its own.
    """
    source: str
    samples: int
    seed: int
    grades: tuple[HandGrade, ...]
    skipped: tuple[Skipped, ...]

    @property
    def hands(self) -> int:
        """Hands graded (scored or not)."""
        return len(self.grades)

    @property
    def scored(self) -> int:
        """Hands whose setting has a score: *n* of the statistics."""
        return sum(g.loss is not None for g in self.grades)

    @property
    def unplayable(self) -> int:
        """Hands graded but not scored: fouls the rule set does not let be played."""
        return self.hands - self.scored

    @property
    def total_loss(self) -> float:
        """EV lost against the best over the session, in units: the sum of the losses."""
        return math.fsum(g.loss for g in self.grades if g.loss is not None)

    @property
    def total_loss_stderr(self) -> float:
        """The total loss's standard error: the root of the sum of the squared standard
        errors (hands are independent)."""
        return math.sqrt(math.fsum(g.loss_stderr ** 2 for g in self.grades
                                   if g.loss is not None))

    @property
    def mean_loss(self) -> Optional[float]:
        """EV lost per hand scored (None without one)."""
        return self.total_loss / self.scored if self.scored else None

    @property
    def mean_loss_stderr(self) -> Optional[float]:
        return self.total_loss_stderr / self.scored if self.scored else None

    @property
    def best_or_tied(self) -> int:
        """Hands set best, or statistically tied with the best (:attr:`solver.Review.tied`)."""
        return sum(bool(g.tied) for g in self.grades)

    @property
    def best_or_tied_rate(self) -> Optional[float]:
        """:attr:`best_or_tied` over :attr:`scored` (None without a hand scored)."""
        return self.best_or_tied / self.scored if self.scored else None

    def costliest(self, n: int = COSTLIEST) -> tuple[HandGrade, ...]:
        """The ``n`` hands that lost most (a loss above 0), costliest first (on equal
        losses, in the order of the lines)."""
        n = check_int("n", n, 0)
        lost = [g for g in self.grades if g.loss]
        return tuple(sorted(lost, key=lambda g: -g.loss)[:n])

    @property
    def patterns(self) -> tuple[PatternCount, ...]:
        """Each pattern some hand shows, costliest first (then most frequent, then in
        :data:`PATTERNS`' order)."""
        out = []
        for name, (what, definition) in PATTERNS.items():
            shown = [g for g in self.grades if name in g.patterns]
            if not shown:
                continue
            scored = [g for g in shown if g.loss is not None]
            out.append(PatternCount(
                name, what, definition, count=len(shown),
                unplayable=len(shown) - len(scored),
                cost=math.fsum(g.loss for g in scored),
                cost_stderr=math.sqrt(math.fsum(g.loss_stderr ** 2 for g in scored))))
        order = list(PATTERNS)
        return tuple(sorted(out, key=lambda p: (-p.cost, -p.count, order.index(p.name))))

    @property
    def headline(self) -> str:
        """``you found the best setting in 71% of hands (...)``: the one line to read."""
        if not self.scored:
            return (f"no hand scored: all {self.hands} fouled, which their rules do not let "
                    f"be played" if self.hands else "no hand graded")
        return (f"you found the best setting in {self.best_or_tied_rate:.0%} of hands "
                f"({self.best_or_tied} of {self.scored}: the best, or statistically tied "
                f"with it)")

    def to_dict(self, costliest: int = COSTLIEST) -> dict:
        """The figures, the ``costliest`` mistakes, the patterns, every hand's grade and
        the skipped lines, as plain Python values."""
        return dict(
            source=self.source, samples=self.samples, seed=self.seed, hands=self.hands,
            scored=self.scored, unplayable=self.unplayable, total_loss=self.total_loss,
            total_loss_stderr=self.total_loss_stderr, mean_loss=self.mean_loss,
            mean_loss_stderr=self.mean_loss_stderr, best_or_tied=self.best_or_tied,
            best_or_tied_rate=self.best_or_tied_rate, headline=self.headline,
            costliest=[g.to_dict() for g in self.costliest(costliest)],
            patterns=[p.to_dict() for p in self.patterns],
            grades=[g.to_dict() for g in self.grades],
            skipped=[dict(where=s.where, line=s.line, message=s.message, text=str(s))
                     for s in self.skipped])

    def to_json(self, costliest: int = COSTLIEST, **kwargs) -> str:
        return json.dumps(self.to_dict(costliest), **kwargs)

    def text(self, costliest: int = COSTLIEST) -> str:
        """The command line's text, with the ``costliest`` mistakes."""
        return _layout(self, costliest)

    def __str__(self) -> str:
        return self.text()

    def to_html(self, costliest: int = COSTLIEST) -> str:
        """The report as one HTML page needing nothing else (styles inline, cards drawn
        in text and CSS, no script, no outside file): it opens offline."""
        return report_html(self, costliest, PATTERNS, PATTERNS_NOTE)


def _plain(x):
    if isinstance(x, tuple):
        return [_plain(v) for v in x]
    return x


# --- grading ------------------------------------------------------------------------------------
def hand_seed(seed: int, index: int) -> int:
    """The seed hand ``index`` of a session graded with ``seed`` is reviewed with: a
    number below 2**32 drawn from ``numpy.random.SeedSequence([seed, index])``, so the
    hands' deals are independent of one another and of the worker that grades them.

    >>> hand_seed(0, 1) == hand_seed(0, 1) != hand_seed(0, 2)
    True
    """
    seed, index = check_int("seed", seed, 0), check_int("index", index, 0)
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint32)[0])


def review_many(hands_or_path, *, rules: "str | RuleSet | None" = None,
                players: Optional[int] = None, samples: int = 1000, seed: int = 0,
                workers: Optional[int] = None, progress: Optional[bool] = None,
                client: Any = None) -> SessionReport:
    """Grade every hand of a session with :func:`solver.review`, and add them up.

    ``hands_or_path``: a hand history file (a path, or an open file: JSON lines or CSV,
    the module's "The hand history"; an open file's ``name``, if any, names it in the
    messages), or a sequence of mappings with the same keys (``rules`` may be a
    :class:`solver.RuleSet` there, ``cut`` a card code).  ``rules``, ``players``: the
    default of a hand that does not give its own (``rules`` None: every hand must).
    ``samples`` (at least 2: a standard error needs two deals) and ``seed``: each hand is
    reviewed on ``samples`` deals with the seed :func:`hand_seed` ``(seed, index)``.
    ``workers``, ``client``, ``progress``: as for :func:`solver.solve_many` (default: one
    local process per core, but no more than one per HANDS_PER_WORKER hands; ``workers=1``
    in this process; the bar counts hands).

    A line that cannot be graded is a :class:`Skipped` in the report, not an error; a
    bad argument (``rules``, ``samples``, ...) or a file that cannot be read at all (no
    such file, a CSV header naming an unknown column) is a ``ValueError`` (``OSError``
    for the file) before any work starts.  See :class:`SessionReport` for what comes back.
    """
    samples = check_int("samples", samples, 2)
    seed = check_int("seed", seed, 0)
    if rules is not None:
        rule_set(rules)                               # a bad default fails once, here
    if players is not None:
        check_int("players", players, 1)
    workers = _check_backend(workers, client)
    if samples < FEW_DEALS:
        warnings.warn(f"{samples} deals a hand cannot tell settings apart: the standard "
                      f"errors of fewer than {FEW_DEALS} deals mean little (use more "
                      f"samples)", UserWarning, stacklevel=2)
    source, records, skipped = _records(hands_or_path)
    jobs = []
    for where, line, fields in records:
        try:
            jobs.append(_job(line, fields, rules, players, samples, seed))
        except ValueError as e:
            skipped.append(Skipped(where, line, " ".join(str(e).split())))
    grades = []
    if jobs:
        if workers is None and client is None:
            workers = max(1, min(_cores(), len(jobs) // HANDS_PER_WORKER))
        per_task = max(1, min(_MAX_HANDS_PER_TASK,
                              math.ceil(len(jobs) / (_TASKS_PER_SLOT * _slots(workers,
                                                                              client)))))
        where_of = {line: where for where, line, _ in records}
        for job, result in zip(jobs, _map(_grade, jobs, workers=workers, client=client,
                                          progress=progress, desc="hands",
                                          chunksize=per_task, label="hand",
                                          total=len(jobs))):
            if isinstance(result, str):
                skipped.append(Skipped(where_of[job[0]], job[0], result))
            else:
                grades.append(result)
    skipped.sort(key=lambda s: s.line)
    return SessionReport(source=source, samples=samples, seed=seed, grades=tuple(grades),
                         skipped=tuple(skipped))


def _job(line: int, fields: dict, rules, players, samples: int, seed: int) -> tuple:
    """What a worker needs to grade a hand, checked as far as is quick (the hand, the
    setting's cards), so that a bad line is found before the work starts."""
    hand_rules = fields.get("rules", rules)
    if hand_rules is None:
        raise ValueError("no rule set: give the hand a 'rules' key (or review_many a "
                         "rules=)")
    hand_players = fields.get("players", players)
    cut = fields.get("cut")
    hand = prepare_hand(fields["cards"], hand_rules, cut, hand_players)
    _setting_codes(fields["setting"], hand)
    return (line, fields.get("id", line), fields["cards"], fields["setting"], hand_rules,
            cut, hand_players, samples, hand_seed(seed, line))


def _grade(job) -> "HandGrade | str":
    """A hand's :class:`HandGrade`, or what is wrong with it (a ``ValueError``'s words:
    the line is skipped, not the session)."""
    line, hand_id, cards, setting, rules, cut, players, samples, seed = job
    try:
        with warnings.catch_warnings():
            # Said once for the session (review_many), not once a hand.
            warnings.filterwarnings("ignore", message=".*cannot tell settings apart",
                                    category=UserWarning)
            r = review(cards, setting, rules, cut, players=players, samples=samples,
                       seed=seed)
    except ValueError as e:
        return " ".join(str(e).split())
    best = r.best
    loss = None if r.diff is None else -r.diff + 0.0          # (no -0.0)
    return HandGrade(
        line=line, id=hand_id, cards=_hand_text(cards), rules=r.rules, cut=r.cut,
        players=r.players, samples=r.samples, seed=r.seed,
        setting=DECLARE if r.declare else f"{r.front} / {r.middle} / {r.back}",
        best=DECLARE if r.best_declares else f"{best.front} / {best.middle} / {best.back}",
        categories=r.categories,
        best_categories=("", "", "") if r.best_declares else tuple(best.categories),
        discards=r.discards, best_discards="" if r.best_declares else best.discards,
        fouls=r.fouls, playable=r.playable, loss=loss, loss_stderr=r.diff_stderr,
        tied=r.tied, is_best=r.is_best, rank=r.rank, ranked_among=r.ranked_among,
        patterns=_patterns(r, rules, cut))


def _hand_text(cards) -> str:
    return sort_row(format_cards(cards), group=False)


# --- reading the hand history -------------------------------------------------------------------
def _records(hands_or_path) -> tuple[str, list, list]:
    """(source, [(where, line, fields)], [Skipped]) of a file or a sequence of mappings."""
    if isinstance(hands_or_path, (str, os.PathLike)):
        path = Path(hands_or_path)
        with open(path, "rb") as f:
            data = f.read()
        return (str(hands_or_path),) + _read_history(data, str(hands_or_path),
                                                    _format_of(path, data))
    if callable(getattr(hands_or_path, "read", None)):
        data = hands_or_path.read()
        data = data.encode() if isinstance(data, str) else data
        source = str(getattr(hands_or_path, "name", None) or "hands")
        return (source,) + _read_history(data, source, _format_of(Path(source), data))
    if isinstance(hands_or_path, bytes) or not isinstance(hands_or_path, Iterable):
        raise ValueError(f"hands_or_path must be a file's path or a sequence of hands "
                         f"(mappings with the keys {', '.join(KEYS)}), not "
                         f"{hands_or_path!r}")
    records, skipped = [], []
    for i, item in enumerate(hands_or_path):
        where = f"hand {i}"
        try:
            if not isinstance(item, Mapping):
                raise ValueError(f"a hand is a mapping with the keys {', '.join(KEYS)}, not "
                                 f"{item!r}")
            records.append((where, i, _checked_fields(dict(item), loose=True)))
        except ValueError as e:
            skipped.append(Skipped(where, i, str(e)))
    return "hands", records, skipped


def _format_of(path: Path, data: bytes) -> str:
    suffix = path.suffix.lower()
    if suffix in CSV_SUFFIXES:
        return "csv"
    if suffix in JSON_SUFFIXES:
        return "jsonl"
    for line in data.splitlines():
        text = line.strip()
        if text and not text.startswith(b"#"):
            return "jsonl" if text.startswith(b"{") else "csv"
    return "jsonl"


def _read_history(data: bytes, source: str, form: str) -> tuple[list, list]:
    """([(where, line, fields)], [Skipped]) of a hand history's bytes, ``form``
    ``"jsonl"`` or ``"csv"``: each line's keys checked (not yet against its hand)."""
    records, skipped = [], []
    texts = []                        # each line as text ("" where it is not UTF-8)
    for number, raw in enumerate(data.splitlines(keepends=True), 1):
        try:
            texts.append(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            skipped.append(Skipped(f"{source} line {number}", number,
                                   f"not text: byte 0x{raw[e.start]:02x} at column "
                                   f"{e.start + 1} is not UTF-8"))
            texts.append("\n")
    if texts and texts[0].startswith("\ufeff"):      # a byte-order mark
        texts[0] = texts[0][1:]
    rows = _jsonl_rows(texts) if form == "jsonl" else _csv_rows(texts, source)
    for number, fields in rows:
        where = f"{source} line {number}"
        try:
            if isinstance(fields, Exception):
                raise fields
            records.append((where, number, _checked_fields(fields, loose=False)))
        except ValueError as e:
            skipped.append(Skipped(where, number, str(e)))
    return records, skipped


def _skipped_line(text: str) -> bool:
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def _jsonl_rows(texts: list[str]):
    for number, text in enumerate(texts, 1):
        if _skipped_line(text):
            continue
        try:
            fields = json.loads(text.rstrip())        # (a column on this line)
        except json.JSONDecodeError as e:
            yield number, ValueError(f"not JSON: {e.msg} at column {e.colno}")
            continue
        if not isinstance(fields, dict):
            yield number, ValueError(f"a line is one JSON object ({{\"cards\": ..., "
                                     f"\"setting\": ...}}), not {type(fields).__name__}")
            continue
        yield number, fields


def _csv_rows(texts: list[str], source: str):
    reader = csv.reader(io.StringIO("".join("\n" if _skipped_line(t) else t for t in texts)))
    header = None
    for row in reader:
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [cell.strip() for cell in row]
            unknown = [c for c in header if c not in KEYS]
            missing = [k for k in REQUIRED_KEYS if k not in header]
            repeated = [c for c, n in Counter(header).items() if n > 1]
            if unknown or missing or repeated:
                what = (f"unknown column {unknown[0]!r}" if unknown else
                        f"no column {missing[0]!r}" if missing else
                        f"the column {repeated[0]!r} twice")
                raise ValueError(f"{source} line {number}: the header row names the "
                                 f"columns ({', '.join(KEYS)}; cards and setting "
                                 f"required): {what}")
            continue
        if len(row) != len(header):
            yield number, ValueError(f"{len(row)} fields, but the header has "
                                     f"{len(header)}")
            continue
        yield number, {k: v.strip() for k, v in zip(header, row) if v.strip()}


def _checked_fields(fields: dict, *, loose: bool) -> dict:
    """A line's keys, checked: the required ones there, no unknown one, each of the
    right type (``players`` read from a CSV cell's text).  ``loose``: a Python
    sequence's item, whose ``rules`` may be a RuleSet and ``cut`` a card code."""
    unknown = [k for k in fields if k not in KEYS]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (the keys: {', '.join(KEYS)})")
    for key in REQUIRED_KEYS:
        if key not in fields:
            raise ValueError(f"no {key!r}: a hand gives its 'cards' and your 'setting'")
    for key in ("cards", "setting"):
        if not isinstance(fields[key], str) or not fields[key].strip():
            raise ValueError(f"{key} must be a text, not {fields[key]!r}")
    if "rules" in fields and not (isinstance(fields["rules"], str)
                                  or loose and isinstance(fields["rules"], RuleSet)):
        raise ValueError(f"rules must be a rule set's name, not {fields['rules']!r}")
    if "cut" in fields and not (isinstance(fields["cut"], str) or loose
                                and is_int(fields["cut"])):
        raise ValueError(f"cut must be a card, not {fields['cut']!r}")
    if "players" in fields:
        players = fields["players"]
        if isinstance(players, str) and players.strip().isdigit():
            players = int(players)
        fields["players"] = check_int("players", players, 1)
    if "id" in fields and not (isinstance(fields["id"], str) or is_int(fields["id"])):
        raise ValueError(f"id must be a text or an integer, not {fields['id']!r}")
    if "id" in fields and is_int(fields["id"]):
        fields["id"] = int(fields["id"])
    return fields


# --- the command line's text --------------------------------------------------------------------
def _pm(x: Optional[float], se: Optional[float], digits: int = 2) -> str:
    if x is None:
        return "n/a"
    return f"{x:.{digits}f} ± {se:.{digits}f}"


def _layout(report: SessionReport, costliest: int) -> str:
    s = "s" if report.hands != 1 else ""
    lines = [f"Session {report.source}: {report.hands} hand{s} graded, each against the "
             f"best setting on the same {report.samples} deals (seed {report.seed})"]
    lines.append(report.headline[0].upper() + report.headline[1:] + ".")
    if report.scored:
        lines.append(f"EV lost against the best: {_pm(report.total_loss, report.total_loss_stderr)}"
                     f" units in all, {_pm(report.mean_loss, report.mean_loss_stderr, 3)} "
                     f"a hand (± one standard error)")
    if report.unplayable:
        lines.append(f"{report.unplayable} more hand{'s' if report.unplayable != 1 else ''} "
                     f"fouled where the rules do not let a foul be played: graded, not "
                     f"scored")
    if report.skipped:
        n = len(report.skipped)
        lines.append(f"{n} line{'s' if n != 1 else ''} skipped (not graded):")
        lines += [f"  {s}" for s in report.skipped[:COSTLIEST]]
        if n > COSTLIEST:
            lines.append(f"  ... and {n - COSTLIEST} more")
    patterns = report.patterns
    if patterns:
        lines.append("")
        lines.append("Where your settings differ from the best (a hand may show several; "
                     "cost: the loss of those hands, units):")
        width = max(len(p.label) for p in patterns)
        for p in patterns:
            extra = f" ({p.unplayable} not scored)" if p.unplayable else ""
            lines.append(f"  {p.label:{width}s}  {p.count:5d} hand{'s' if p.count != 1 else ' '}"
                         f"  cost {_pm(p.cost, p.cost_stderr)}{extra}")
    worst = report.costliest(costliest)
    if worst:
        lines.append("")
        lines.append("The costliest mistakes (units lost a deal, ± one standard error):")
        for k, g in enumerate(worst, 1):
            tied = ", tied" if g.tied else ""
            lines.append(f"  {k}. {hand_name(report, g)}: {g.cards}   ({g.rules}"
                         + (f", cut {g.cut}" if g.cut else "") + f", {g.players} players)")
            lines.append(f"     yours  {_setting_text(g.setting, g.categories)}")
            lines.append(f"     best   {_setting_text(g.best, g.best_categories)}")
            what = ", ".join(PATTERNS[p][0] for p in g.patterns)
            lines.append(f"     cost {_pm(g.loss, g.loss_stderr, 3)}{tied}"
                         + (f"; {what}" if what else "") + f"   (review seed {g.seed})")
    return "\n".join(lines)


def _setting_text(setting: str, categories: Sequence[str]) -> str:
    if setting == DECLARE:
        return "declare the automatic win"
    rows = setting.split(" / ")
    return " / ".join(f"{row} ({label(c)})" if c else row for row, c in zip(rows, categories))
