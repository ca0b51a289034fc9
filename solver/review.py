"""Grading a player's own setting: :func:`review`, and what it returns, a :class:`Review`.

The player's setting and the best one (:func:`solver.solve`'s exact answer) are scored
on the very same sampled deals, so the luck of the deal is shared and their difference
is measured deal by deal (a *paired* difference, with its standard error, as for
:class:`solver.Alternative`).  The setting is also ranked among every choice worth
considering: the legal arrangements no other one dominates (:mod:`solver.search`), and
declaring where the hand holds an automatic win.  A fouled setting is said to be one, and
scored as one where the rule set scores fouls (``pagat``, ``classic``); in ``joker`` and
``bonus`` it cannot be played at all.

>>> r = review("As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c",
...            "2h 2d 5c / 9h 9d 9c 6c 7c / As Ks Qs Js Ts", "classic", samples=100)
>>> r.rank, r.tied
(1, True)
"""
from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from collections import Counter
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .autowin import KIND_NAMES, special_of
from .cards import CardsLike, card_name, format_cards, parse_codes
from .display import arrangement_text, label, sort_row
from .rows import RowValue, _value_of_codes
from .rules import ROW_SIZES, ROWS, RuleSet, rule_set
from .sampling import Deals, Policy, check_sampling, prepare_hand
from .scoring import (AUTO_SURRENDER, describe, fouls_playable, row_bonus, score_candidates,
                      scoring_params)
from .search import nondominated_arrangements
from .settle import _ROW_SEPARATOR
from .solution import Solution, _plain
from .solve import _paired_difference, _solve_hand, _stderr

__all__ = ["DECLARE", "SURRENDER", "Review", "review"]

DECLARE = "declare"                       # the setting that declares an automatic win
SURRENDER = "surrender"                   # the setting that surrenders (docs/rules.md#surrender)
_TOKEN_SPLIT = re.compile(r"[\s,]+")
FRONT_NOT_BELOW_MIDDLE = "front >= middle"
MIDDLE_ABOVE_BACK = "middle > back"


@dataclass(frozen=True)
class Review:
    """How a player's own setting of a hand compares with the best one (:func:`review`).

    Every number is over the same ``samples`` deals (seeded by ``seed``) that
    :func:`solver.solve` chose ``best`` on.  ``ev``, ``stderr``: your setting's mean
    score on them and its standard error (an unbiased estimate: your setting was not
    chosen on these deals).  ``best_ev``: the best choice's mean on the same deals --
    declaring, when ``best_declares`` (``best.ev_declare_in_sample``), else ``best``'s
    rows (``best.ev_in_sample``).  These deals chose it, so ``best_ev`` is the best of
    many noisy means, slightly biased upward, and it is *not* the EV a solve reports:
    that is ``best.action_ev`` (``best.ev`` for the rows), measured on ``best.holdout``
    new deals.  The two answer different questions: the held-out EV what the best is
    worth, ``best_ev`` what it scored on the very deals yours is compared on (the
    comparison must be on the same deals: the deal is the unit).  Where surrendering is
    the best choice, ``best_surrenders`` and ``best_ev`` is surrendering's mean
    (``best.ev_surrender_in_sample``); ``surrender``: your setting surrenders (its rows
    are then "").  ``diff``, ``diff_stderr``: your score minus the best's, deal by deal,
    averaged, and that mean's standard error; ``tied`` when within two of them (the rule
    of :attr:`solver.Alternative.tied`).  ``rank``: 1 + the number of ``choices`` (the
    non-dominated legal arrangements, declaring where the hand holds an automatic win,
    and surrendering where the rule set allows it) with a strictly higher mean, of
    ``ranked_among`` settings: the ``choices``, and yours where it is not one of them (a
    dominated or fouled setting), so that the rank is never past the last.  ``dominated_by``: a
    non-dominated arrangement at least as strong in every row and earning at least its
    bonus units, and stronger in one (so it scores at least as much on every deal), or
    None.  ``fouls``: the orders a fouled setting breaks (``"front >= middle"``,
    ``"middle > back"``); where a foul cannot be played (``playable`` False: ``joker``,
    ``bonus``) ``ev``, ``diff``, ``rank`` and ``ranked_among`` are None.  ``row_rates``:
    each row's (win, tie, loss) rates against one opponent's, as :attr:`solver.Solution.row_rates`
    (None for a foul or a declaration).  Units: docs/rules.md#scoring.

    :attr:`explanation` says all this in a player's words; ``str(review)`` is the
    command line's layout; :meth:`to_dict` / :meth:`to_json` give every field as plain
    values, ``best`` as :meth:`solver.Solution.to_dict`.
    """
    rules: str
    cut: Optional[str]
    players: int
    samples: int
    seed: int
    declare: bool                        # the setting declares an automatic win
    front: str                           # your rows ("" when declaring)
    middle: str
    back: str
    discards: str
    categories: tuple[str, str, str]     # your rows' categories ("" when declaring)
    fouls: tuple[str, ...]
    playable: bool
    ev: Optional[float]
    stderr: Optional[float]
    best_declares: bool
    best_ev: float
    diff: Optional[float]
    diff_stderr: Optional[float]
    rank: Optional[int]
    choices: int
    ranked_among: Optional[int]          # the choices, and yours if not one of them
    dominated_by: Optional[tuple[str, str, str]]
    row_rates: Optional[dict]
    automatic_win: Optional[str]          # the hand's automatic win, if any (classic)
    best: Solution
    surrender: bool = False               # the setting surrenders
    best_surrenders: bool = False         # surrendering is the best choice

    @property
    def tied(self) -> Optional[bool]:
        """Statistically tied with the best: ``-diff <= 2 * diff_stderr`` (always, when a
        single deal leaves the standard error undefined; None when the setting cannot be
        played)."""
        if self.diff is None:
            return None
        return self.diff_stderr is None or -self.diff <= 2 * self.diff_stderr

    @property
    def is_best(self) -> bool:
        """Your setting scores exactly what the best choice scores on every deal."""
        return self.diff == 0 and not self.diff_stderr       # 0, or None for one deal

    @property
    def explanation(self) -> str:
        """The result in a player's words, generated from the numbers."""
        return _explanation(self)

    def to_dict(self) -> dict:
        """Every field as plain Python values (lists for tuples), ``best`` as
        :meth:`solver.Solution.to_dict`, with ``tied``, ``is_best`` and ``explanation``."""
        d = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)
             if f.name != "best"}
        d.update(tied=self.tied, is_best=self.is_best, explanation=self.explanation,
                 best=self.best.to_dict())
        return d

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        return _layout(self)


def review(cards: CardsLike, setting, rules: "str | RuleSet", cut: "str | int | None" = None,
           *, players: Optional[int] = None, samples: int = 1000, seed: int = 0,
           policy: Optional[Policy] = None) -> Review:
    """Grade a player's own ``setting`` of ``cards`` against the best one.

    ``setting``: ``(front, middle, back)`` (each row text, card texts or codes), or one
    text ``"FRONT / MIDDLE / BACK"`` (``|`` works too); in ``classic`` also ``"declare"``
    (declare the hand's automatic win), and where the rule set allows it ``"surrender"``
    (docs/rules.md#surrender).  Its 13 cards must be the hand's own, in rows of
    3, 5 and 5; in ``joker`` and ``bonus`` the cards left over are the discards.
    ``samples`` (default 1000), ``seed``, ``players``, ``policy``: as for
    :func:`solver.solve`, which this calls with exactly these, so ``review(...).best`` is
    ``solve(cards, rules, cut, samples=samples, seed=seed, players=players,
    policy=policy)``; the setting is scored on the very same deals
    (:class:`solver.sampling.Deals`: dealt, or from the pool as that solve's are).  See
    :class:`Review` for what comes back.

    Bad input is a ``ValueError`` naming the problem: a card not in the hand, a row of the
    wrong size, a card set more often than the hand holds it (``As As`` is two cards in
    ``joker`` and ``bonus`` when the hand holds both), ``"declare"`` without an automatic
    win, ``"surrender"`` where the rule set has no surrender, and everything
    :func:`solver.solve` refuses.
    """
    hand = prepare_hand(cards, rules, cut, players)
    rs, tables = hand.rules, hand.tables
    rows = _setting_codes(setting, hand)          # or DECLARE, or SURRENDER
    own = np.array(hand.own, np.int64)
    kind = special_of(own, rs)
    counted = bool(kind) and not rs.automatic_wins_declared
    surrendering = rows == SURRENDER and not counted
    if counted:
        rows = DECLARE               # the hand is scored as its special, however it is set
    if surrendering and not rs.surrender_cost:
        raise ValueError(f"the {rs.name} rule set has no surrender")
    if rows == DECLARE:
        if not rs.automatic_wins:
            raise ValueError(f"the {rs.name} rule set has no automatic wins to declare")
        if not kind:
            raise ValueError(f"the hand holds no automatic win to declare (the {rs.name} "
                             f"rule set's are {', '.join(label(k) for k in rs.automatic_wins)})")
    if isinstance(rows, str):
        rows = None                  # (declaring or surrendering: no rows of yours)
    samples, seed, _, checked_policy = check_sampling(rs, hand.seats, samples, seed, None,
                                                      policy)
    # solve(cards, rules, cut, samples=samples, seed=seed, players=players, policy=policy)
    # of the hand resolved above.
    best = _solve_hand(hand, samples=samples, seed=seed, policy=policy)
    opp = Deals(hand, seed, checked_policy, None, samples).fixed(samples)
    params = scoring_params(rs)

    masks, ords = nondominated_arrangements(own, tables, params)
    cand_vals = tables.values[ords].astype(np.int32)
    cand_scores = score_candidates(cand_vals, 0, *opp, params)
    # Exact integer totals: a setting equal to a candidate ties it exactly.
    totals = [int(t) for t in cand_scores.sum(axis=1, dtype=np.int64)]
    declared = (score_candidates(cand_vals[:1], kind, *opp, params)[0]
                if kind else None)
    if kind:
        totals.append(int(declared.sum(dtype=np.int64)))
    given_up = (score_candidates(cand_vals[:1], AUTO_SURRENDER, *opp, params)[0]
                if rs.surrender_cost and not counted else None)
    if given_up is not None:
        totals.append(int(given_up.sum(dtype=np.int64)))
    if best.declare:
        best_scores = declared
    elif best.surrender:
        best_scores = given_up
    else:
        best_vals = np.array([[_row_value(row, rs, tables) for row in
                               (best.front, best.middle, best.back)]], np.int32)
        best_scores = score_candidates(best_vals, 0, *opp, params)[0]

    vals = None if rows is None else [_value_of_codes(r, tables) for r in rows]
    # Rows as a player reads them, as solve gives its own (solver.display.sort_row).
    texts = ("", "", "") if rows is None else tuple(
        sort_row(format_cards(r), value=v) for r, v in zip(rows, vals))
    used = {c for r in rows or () for c in r}       # each of the hand's codes set once
    discards = (sort_row(format_cards([c for c in hand.own if c not in used]), group=False)
                if rows and rs.discards else "")
    fouls = () if vals is None else _fouls(vals)
    playable = not fouls or fouls_playable(rs)
    scores = None
    if surrendering:
        scores = given_up
    elif rows is None:
        scores = declared
    elif playable:
        scores = score_candidates(np.array([vals], np.int32), 0, *opp, params,
                                  our_fouled=bool(fouls))[0]
    row_rates = None
    if vals is not None and not fouls:
        counts = describe(np.array(vals, np.int32), *opp, params)[0]
        compared = int(counts[0].sum())
        row_rates = {name: tuple(float(x) / compared if compared else 0.0
                                 for x in counts[r]) for r, name in enumerate(ROWS)}
    dominated_by = None
    if vals is not None and not fouls:
        dominated_by = _dominating(vals, cand_vals, totals, masks, own, params)
    diff = diff_stderr = rank = ranked_among = None
    if scores is not None:
        diff, diff_stderr = _paired_difference(scores, best_scores)
        total = int(scores.sum(dtype=np.int64))
        rank = 1 + sum(t > total for t in totals)
        # Declaring and surrendering are choices, and so is a setting with a candidate's
        # row values (it scores as that one on every deal); any other setting is ranked
        # beside them.
        one_of_them = vals is None or bool((cand_vals == np.array(vals, np.int32))
                                           .all(axis=1).any())
        ranked_among = len(totals) + (0 if one_of_them else 1)
    result = Review(
        rules=rs.name, cut=best.cut, players=hand.seats, samples=samples, seed=seed,
        declare=rows is None and not surrendering, front=texts[0], middle=texts[1],
        back=texts[2],
        discards=discards,
        categories=("", "", "") if vals is None else tuple(RowValue(v).category
                                                           for v in vals),
        fouls=fouls, playable=playable,
        ev=None if scores is None else float(scores.mean()),
        stderr=None if scores is None else _stderr(scores),
        best_declares=bool(best.declare), best_ev=float(best_scores.mean()),
        diff=diff, diff_stderr=diff_stderr, rank=rank, choices=len(totals),
        ranked_among=ranked_among,
        dominated_by=dominated_by, row_rates=row_rates,
        automatic_win=KIND_NAMES[kind], best=best, surrender=surrendering,
        best_surrenders=bool(best.surrender))
    # The rule set itself, for the explanation: a rule-set file's name is in no registry.
    object.__setattr__(result, "_rule_set", rs)
    return result


# --- the setting, validated against the hand -------------------------------------------------
def _setting_codes(setting, hand) -> "list[list[int]] | str":
    """The setting's rows as codes of the hand's own cards, or :data:`DECLARE` or
    :data:`SURRENDER`; a ``ValueError`` naming what does not fit the hand."""
    rs = hand.rules
    shape = ("a setting is (front, middle, back) or one text 'FRONT / MIDDLE / BACK' "
             "(rows split by '/' or '|')" + (", or 'declare'" if rs.automatic_wins else "")
             + (", or 'surrender'" if rs.surrender_cost else ""))
    if isinstance(setting, str):
        if setting.strip().lower() in (DECLARE, SURRENDER):
            return setting.strip().lower()
        rows = _ROW_SEPARATOR.split(setting.strip())
    elif isinstance(setting, (list, tuple)):
        rows = list(setting)
    else:
        raise ValueError(f"{shape}, not {setting!r}")
    if len(rows) != 3:
        raise ValueError(f"{shape}; {setting!r} has {len(rows)} rows")
    names = []
    for name, size, row in zip(ROWS, ROW_SIZES, rows):
        try:
            row_names = _card_names(row)
        except ValueError as e:
            raise ValueError(f"the setting's {name}: {e}") from None
        if len(row_names) != size:
            raise ValueError(f"the setting's {name} has {len(row_names)} cards; a {name} "
                             f"has {size}")
        names.append(row_names)
    held = Counter(card_name(c) for c in hand.own)
    cut_names = {card_name(c) for c in hand.cut_codes}
    for card, count in Counter(n for row in names for n in row).items():
        where = " and ".join(r for r, row in zip(ROWS, names) if card in row)
        if not held[card]:
            note = " (it is the cut card, out of play)" if card in cut_names else ""
            raise ValueError(f"the setting's {where} holds {card}, which is not in the "
                             f"hand{note}")
        if count > held[card]:
            raise ValueError(f"{card} is set {_times(count)} (in the {where}), but the "
                             f"hand holds {_count(held[card])}")
    # Give each card name one of the hand's codes of that name, each code once.
    free: dict[str, list[int]] = {}
    for c in hand.own:
        free.setdefault(card_name(c), []).append(c)
    return [[free[n].pop() for n in row] for row in names]


def _card_names(row) -> list[str]:
    """The canonical names of a row's cards, as written (repeats kept: the hand decides
    how many of a card there may be)."""
    if isinstance(row, (list, tuple)) and row and all(isinstance(x, str) for x in row):
        row = " ".join(row)
    if not isinstance(row, str):
        return format_cards(row).split()        # card codes; ValueError for anything else
    # Each word alone, against the largest deck: notation only (a word may hold several
    # cards written without separators, AsKsQs).
    return [card_name(code) for word in _TOKEN_SPLIT.split(row.strip()) if word
            for code in parse_codes(word, "joker")]


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _count(n: int) -> str:
    return {1: "one", 2: "two"}.get(n, str(n))


def _row_value(text: str, rs: RuleSet, tables) -> int:
    return _value_of_codes(parse_codes(text, rs), tables)


def _fouls(vals) -> tuple[str, ...]:
    """The orders of docs/rules.md#legality that three row values break."""
    front, middle, back = vals
    return tuple(name for name, broken in ((FRONT_NOT_BELOW_MIDDLE, front >= middle),
                                           (MIDDLE_ABOVE_BACK, middle > back)) if broken)


def _dominating(vals, cand_vals, totals, masks, own, params):
    """The best-scoring non-dominated arrangement that dominates ``vals`` (every row's
    value and bonus units at least as high, one value higher), as row texts; or None."""
    bonus = [int(row_bonus(params, r, v)) for r, v in enumerate(vals)]
    best = None
    for k, cand in enumerate(cand_vals):
        cand = [int(v) for v in cand]
        if cand == list(vals) or any(c < v for c, v in zip(cand, vals)):
            continue
        if any(int(row_bonus(params, r, c)) < b for r, (c, b) in enumerate(zip(cand, bonus))):
            continue
        if best is None or totals[k] > totals[best]:
            best = k
    if best is None:
        return None
    return tuple(sort_row(format_cards([int(own[p]) for p in range(len(own))
                                        if masks[best, r] >> p & 1]),
                          value=int(cand_vals[best, r]))
                 for r in range(3))


# --- words -------------------------------------------------------------------------------------
def _units(x: float) -> str:
    return f"{x:.2f}" if abs(x) >= 0.095 else f"{x:.3f}"


def _row_clause(mine: dict, best: dict) -> str:
    """``your Middle wins 41% of the time against 63% for the best setting's``: the row
    that loses most against the best setting's, and the one that gains most (half a
    percentage point or more)."""
    gaps = {row: mine[row][0] - best[row][0] for row in ROWS}
    worst = min(ROWS, key=lambda r: gaps[r])
    gain = max(ROWS, key=lambda r: gaps[r])

    def pct(row, rates):
        return f"{rates[row][0]:.0%}"

    def wins(row):
        return (f"your {row.title()} wins {pct(row, mine)} of the time against "
                f"{pct(row, best)} for the best setting's")

    losing, gaining = gaps[worst] <= -0.005, gaps[gain] >= 0.005
    if losing and gaining:
        return (f"{wins(gain)}, but your {worst.title()} only {pct(worst, mine)} against "
                f"{pct(worst, best)}")
    return wins(worst) if losing else wins(gain) if gaining else ""


def _foul_words(r: Review) -> str:
    front, middle, back = (f"{cards}, {_a(label(c))}" for cards, c in
                           zip((r.front, r.middle, r.back), r.categories))
    parts = []
    if FRONT_NOT_BELOW_MIDDLE in r.fouls:
        parts.append(f"your Front ({front}) is not below your Middle ({middle})")
    if MIDDLE_ABOVE_BACK in r.fouls:
        parts.append(f"your Middle ({middle}) is above your Back ({back})")
    return "Your setting fouls: " + " and ".join(parts)


def _a(name: str) -> str:
    return ("" if name.endswith("trips") else "an " if name[0] in "aeiou" else "a ") + name


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _explanation(r: Review) -> str:
    rs = r.__dict__.get("_rule_set") or rule_set(r.rules)
    best_name = ("declaring the automatic win" if r.best_declares
                 else "surrendering" if r.best_surrenders else "the best setting")
    best_rows = arrangement_text((r.best.front, r.best.middle, r.best.back),
                                 r.best.categories)
    if r.best_declares:
        best_what = f"declaring the automatic win ({label(r.automatic_win)})"
    elif r.best_surrenders:
        best_what = f"surrendering (paying {rs.surrender_cost} to each other player still in)"
    else:
        best_what = f"the best setting, {best_rows},"
    sentences = []
    if r.fouls:
        sentences.append(_foul_words(r) + ".")
        if not r.playable:
            sentences.append(f"The {r.rules} rules do not let a fouled setting be played: "
                             f"set it again so that Front < Middle <= Back. For comparison, "
                             f"{best_what} averages {r.best_ev:+.2f} units a deal on these "
                             f"{r.samples} deals.")
            return " ".join(sentences)
        penalty = " and ".join(
            ([f"pays {rs.foul_penalty} to each other player"] if rs.foul_penalty else [])
            + (["loses all three rows to every valid hand"] if rs.foul_loses_rows else []))
        sentences.append(f"In {r.rules} a fouled hand {penalty}: over these {r.samples} "
                         f"deals yours averages {r.ev:+.2f} units a deal, against "
                         f"{r.best_ev:+.2f} for {best_name}.")
    elif r.declare:
        sentences.append(f"You declare the automatic win ({label(r.automatic_win)}): over "
                         f"these {r.samples} deals it averages {r.ev:+.2f} units a deal.")
    elif r.surrender:
        sentences.append(f"You surrender, paying {rs.surrender_cost} to each other player "
                         f"still in: over these {r.samples} deals it averages {r.ev:+.2f} "
                         f"units a deal.")
    elif r.best_surrenders:
        sentences.append(f"Surrendering beats every setting of this hand: over these "
                         f"{r.samples} deals it averages {r.best_ev:+.2f} units a deal, "
                         f"your setting {r.ev:+.2f}.")
    elif r.best_declares:
        sentences.append(f"Declaring the automatic win ({label(r.automatic_win)}) beats every "
                         f"setting of this hand: over these {r.samples} deals it averages "
                         f"{r.best_ev:+.2f} units a deal, your setting {r.ev:+.2f}.")
    if r.dominated_by:
        text = arrangement_text(r.dominated_by)
        sentences.append(f"Your setting is dominated by {text}: each of its rows is at least "
                         f"as strong as yours and earns at least the same bonus, so it "
                         f"scores at least as much on every deal.")
    if r.is_best:
        sentences.append(f"Your setting scores what {best_name} scores on every one of the "
                         f"{r.samples} deals: it is the best one.")
    else:
        cost = []
        if r.row_rates and not (r.best_declares or r.best_surrenders):
            clause = _row_clause(r.row_rates, r.best.row_rates)
            if clause:
                cost.append(clause)
        if r.diff > 0:
            cost.append(f"you gain {_units(r.diff)} units a deal over {best_name}")
        elif r.diff_stderr is None:
            cost.append(f"you give up {_units(-r.diff)} units on the one deal, which cannot "
                        f"tell settings apart")
        elif r.diff_stderr == 0:
            cost.append(f"you give up {_units(-r.diff)} units on every deal")
        elif r.tied:
            cost.append(f"you give up {_units(-r.diff)} units a deal, within two standard "
                        f"errors ({_units(r.diff_stderr)} each) of {best_name}: no evidence "
                        f"that it is really better")
        else:
            errors = -r.diff / r.diff_stderr
            cost.append(f"you give up {_units(-r.diff)} units a deal, " +
                        (f"about {errors:.0f} standard errors" if errors <= 20 else
                         "more than 20 standard errors"))
        sentence = "; ".join(cost)
        sentences.append(sentence[0].upper() + sentence[1:] + ".")
    others = (["declaring"] if r.automatic_win else []) + (
        ["surrendering"] if r.best.surrender is not None else [])
    kinds = (f"the {r.choices} choices worth considering (the non-dominated arrangements"
             + (f", and {' and '.join(others)})" if others else ")"))
    more = r.rank - 1
    if r.rank == 1:
        sentences.append(f"None of {kinds} scores more.")
    elif r.ranked_among == r.choices:
        sentences.append(f"It ranks {_ordinal(r.rank)} of {kinds}: {more} score"
                         f"{'s' if more == 1 else ''} more.")
    else:
        sentences.append(f"It ranks {_ordinal(r.rank)} of {r.ranked_among}, beside {kinds}: "
                         f"{'all' if more == r.choices else more} of them score"
                         f"{'s' if more == 1 else ''} more.")
    return " ".join(sentences)


def _rank_line(r: Review) -> str:
    """``rank 2 of the 494 choices worth considering (1 scores more)``; a setting that is
    not one of the choices is ranked among them and itself."""
    more = r.rank - 1
    if r.ranked_among == r.choices:
        where = f"of the {r.choices} choices worth considering"
    else:
        where = f"of {r.ranked_among}: yours and the {r.choices} choices worth considering"
    more = "none scores" if more == 0 else f"{more} score{'s' if more == 1 else ''}"
    return f"rank {r.rank} {where} ({more} more)"


# --- the command line's layout ----------------------------------------------------------------
def _pm(stderr: Optional[float]) -> str:
    """``± 0.084``, or ``± n/a`` where one deal leaves the standard error undefined."""
    return "± n/a" if stderr is None else f"± {stderr:.3f}"


def _layout(r: Review) -> str:
    title = f"{r.rules}" + (f" (cut {r.cut})" if r.cut else "") + f", {r.players} players"
    lines = [f"{title}: your setting against the best, on the same {r.samples} deals"]
    best = r.best
    width = max(len(t) for t in (r.front, r.middle, r.back, best.front, best.middle,
                                 best.back))

    def rows_block(rows, categories, rates):
        for name, cards, category in zip(ROWS, rows, categories):
            line = f"    {name:7s} {cards:{width}s}   {label(category):16s}"
            if rates:
                w, t, l = rates[name]
                line += f"win {w:6.1%}  tie {t:6.1%}  loss {l:6.1%}"
            lines.append(line.rstrip())

    if r.declare:
        lines.append(f"  yours: declare the automatic win ({label(r.automatic_win)})   "
                     f"EV {r.ev:+.3f} {_pm(r.stderr)} on these deals")
    elif r.surrender:
        lines.append(f"  yours: surrender   EV {r.ev:+.3f} {_pm(r.stderr)} on these deals")
    else:
        ev = (f"EV {r.ev:+.3f} {_pm(r.stderr)} on these deals" if r.ev is not None
              else "cannot be played")
        foul = f"   FOULED ({', '.join(r.fouls)})" if r.fouls else ""
        lines.append(f"  yours   {ev}{foul}")
        rows_block((r.front, r.middle, r.back), r.categories, r.row_rates)
        if r.discards:
            lines.append(f"    {'discard':7s} {r.discards}")
    # The best's mean on these deals, which chose it, is not the held-out EV a solve
    # reports for it: say which is which.
    held_out = (f"          held out: EV {best.action_ev:+.3f} {_pm(best.action_stderr)} "
                f"on {best.holdout} new deals, the EV solve reports" if best.holdout else "")
    if r.best_declares or r.best_surrenders:
        what = (f"declare the automatic win ({label(r.automatic_win)})" if r.best_declares
                else "surrender")
        lines.append(f"  best: {what}   EV {r.best_ev:+.3f} on these deals (they chose it)")
        lines += [held_out] if held_out else []
        lines.append("  the best setting if played:")
    else:
        lines.append(f"  best    EV {r.best_ev:+.3f} on these deals (they chose it: biased "
                     f"upward)")
        lines += [held_out] if held_out else []
    rows_block((best.front, best.middle, best.back), best.categories, best.row_rates)
    if best.discards:
        lines.append(f"    {'discard':7s} {best.discards}")
    tied = "   tied" if r.tied else ""
    who = "the other player" if r.players == 2 else f"the {r.players - 1} other players together"
    units = f"  units: your net score in one deal, from {who} (docs/rules.md#scoring)"
    if r.diff is not None:
        lines.append(f"difference {r.diff:+.3f} {_pm(r.diff_stderr)} units a deal (yours "
                     f"minus the best's, deal by deal){tied}")
        lines.append(units)
        lines.append(_rank_line(r))
    else:
        lines.append(units)
    lines += textwrap.wrap(r.explanation, 88)
    return "\n".join(lines)
