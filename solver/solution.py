"""What :func:`solver.solve` returns: a :class:`Solution` and its :class:`Alternative`\\ s.

Plain values only (texts, floats, tuples), so a Solution prints, compares, pickles and
travels as JSON (:meth:`Solution.to_dict`, :meth:`Solution.from_dict`); the text layout
is :mod:`solver.display`'s, which this module imports (display knows a Solution only by
its fields, and imports nothing of this module).
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .display import solution_text


@dataclass(frozen=True)
class Alternative:
    """Another non-dominated arrangement, the next best after the solution's choice.

    Every number is over the same ``samples`` deals as the best's ``ev_in_sample``: all
    the deals the solve used (a rival adaptive sampling stopped scoring once it was shown
    worse is scored again on the rest).  ``ev``: its mean score there, on the footing of
    the best's ``ev_in_sample`` (both in-sample; the best's held-out ``ev`` is another
    footing).  ``diff``: its paired difference from the best, its score minus the best's
    deal by deal, averaged (``ev - ev_in_sample``; usually <= 0, and above 0 only where
    adaptive sampling kept the opponent model's setting against a rival that led it by
    less than a standard error), and ``diff_stderr`` that mean's standard error (None
    from a single deal, where it is undefined).  A ``diff`` within two ``diff_stderr``
    of 0 is no evidence that the best is really better (``tied``).  A Solution lists
    its alternatives closest first: by ``diff``, highest first."""
    front: str
    middle: str
    back: str
    ev: float
    diff: float
    diff_stderr: Optional[float]
    categories: tuple[str, str, str] = ("", "", "")    # each row's category (API name)
    samples: Optional[int] = None

    @property
    def tied(self) -> bool:
        """Statistically tied with the best: ``-diff <= 2 * diff_stderr`` (always, when a
        single deal leaves the standard error undefined: nothing tells them apart)."""
        return self.diff_stderr is None or -self.diff <= 2 * self.diff_stderr


class RowRates(Mapping):
    """An immutable, hashable mapping: row name -> (win, tie, loss) rates."""

    def __init__(self, items=()):
        self._items = {str(k): tuple(float(x) for x in v) for k, v in dict(items).items()}

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __hash__(self):
        return hash(tuple(self._items.items()))

    def __repr__(self):
        return repr(self._items)


@dataclass(frozen=True)
class Solution:
    """The best arrangement found by :func:`solve`, with its statistics.

    ``ev`` is the chosen arrangement's mean score on ``holdout`` deals independent of the
    ones that chose it, an unbiased estimate of its expected score, and ``stderr`` that
    mean's standard error.  ``ev_in_sample`` is its mean over the ``samples`` deals that
    chose it: the best of many noisy means, so *biased upward* whenever arrangements are
    close (the more candidates and the fewer samples, the more).  With ``holdout`` 0
    (``solve(..., holdout=0)``, or given ``opponents=``) ``ev`` is that in-sample mean.
    Units are the seat's net settlement units a deal (docs/rules.md#scoring).

    Probabilities are over the in-sample deals (and, per opponent, over that opponent's
    seat).  A *scoop* is losing no row to that opponent in ``joker``/``bonus`` and winning
    every row against it elsewhere (a *shot* in ``classic:mandarin``); ``p_scooped``
    likewise from the opponent's side.  ``row_rates`` and ``bonus_units`` count only
    opponents whose rows were compared (not those that fouled or declared an automatic
    win).  ``alternatives`` are the next best of the non-dominated arrangements (an
    arrangement another one dominates is never better than that one, so it is not
    scored), closest first, each with its paired difference from the best on the same
    deals (:class:`Alternative`); ``tied`` lists those within two standard errors of it.

    An automatic win (``classic``): ``automatic_win`` names the hand's, ``declare_rows``
    the 13 cards that show it, as rows (``declare_discards``: the cards a 16- or 17-card
    hand does not keep), and ``declare`` says whether declaring it is the best action
    over the deals that chose (its mean there: ``ev_declare_in_sample``, against
    ``ev_in_sample``; and against surrendering's, where the rule set allows that).
    ``ev_declare`` and ``stderr_declare``: declaring's mean on the same held-out deals
    as ``ev`` and its standard error (the same footing as ``ev``; in-sample where
    ``ev`` is).  Surrender (docs/rules.md#surrender; None where the rule set has none):
    ``surrender`` says whether surrendering is the best action, on the same terms, with
    ``ev_surrender``, ``stderr_surrender`` and ``ev_surrender_in_sample``.  ``ev``,
    ``stderr`` and the rows are always the best *setting*'s, the one to play if you
    neither declare nor surrender: :attr:`action` says which action the solver
    recommends (``"declare"``, ``"surrender"`` or ``"set"``), and :attr:`action_ev` /
    :attr:`action_stderr` give that action's held-out EV (``ev_declare`` when
    declaring, ``ev_surrender`` when surrendering, else ``ev``); :meth:`to_dict`
    includes all three.

    ``categories``: each row's category (API name); ``cut``:
    the cut card (``bonus``).  Adaptive sampling (``solve``'s default): ``precision`` and
    ``effort`` it ran with, ``samples`` the deals it used, ``capped`` whether it stopped at
    its cap with rivals unresolved, ``in_running`` the arrangements not ruled out (the
    choice included), ``anchored`` whether the choice is the opponent
    model's own setting of the hand (None without one).

    ``hand``, ``players``, ``seed``, with ``rules``, ``cut`` and ``samples``: the question
    it answers (``seed`` is the one used: drawn afresh for ``solve(..., seed=None)``).
    ``pooled``: the deals came from the pool of opponent hands set in advance
    (:mod:`solver.pool`; ``pagat`` and ``classic``: heads-up the whole deal, else the
    first opponent's hand) rather than all dealt.  Rows, discards and hand are in a
    player's reading order (most repeated ranks first, high to low, a joker where the
    card it stands for goes: :func:`solver.display.sort_row`).
    A Solution is immutable and hashable (``row_rates`` is a read-only mapping).

    ``str(solution)`` is the text :mod:`solver.display` lays out; :meth:`to_dict` and
    :meth:`to_json` give every field as plain Python values.
    """
    rules: str
    front: str
    middle: str
    back: str
    discards: str
    ev: float
    stderr: Optional[float]   # None from a single deal: undefined
    samples: int
    ev_in_sample: float
    holdout: int
    categories: tuple[str, str, str]
    p_scoop: tuple[float, ...]
    p_scooped: tuple[float, ...]
    p_home_run: float
    row_rates: Mapping        # row -> (win, tie, loss) rates against one opponent
    bonus_units: float        # mean bonus-table units won minus paid
    alternatives: tuple[Alternative, ...]
    candidates: int           # non-dominated legal arrangements scored
    automatic_win: Optional[str] = None
    declare: Optional[bool] = None
    ev_declare: Optional[float] = None          # held out, as ``ev``
    cut: Optional[str] = None
    precision: Optional[float] = None   # adaptive sampling's precision (None: exactly
                                        # ``samples`` deals)
    effort: Optional[str] = None        # adaptive sampling's preset ("fast", "max")
    capped: bool = False                # adaptive sampling stopped at its cap, unresolved
    anchored: Optional[bool] = None     # the choice is the opponent model's own setting
    in_running: Optional[int] = None    # arrangements adaptive sampling had not ruled out
    # The question it answers: the hand (reading order), the seats and the seed used.
    hand: str = ""
    players: int = 0
    seed: Optional[int] = None
    pooled: bool = False
    stderr_declare: Optional[float] = None      # ``ev_declare``'s standard error
    ev_declare_in_sample: Optional[float] = None   # declaring's mean over ``samples``
    # The 13 cards that show the automatic win, as rows, and those a 16- or 17-card hand
    # does not keep when it declares ("" for 13 dealt).
    declare_rows: Optional[tuple[str, str, str]] = None
    declare_discards: str = ""
    # Surrender (where the rule set allows it): whether to, and its numbers, as declaring's.
    surrender: Optional[bool] = None
    ev_surrender: Optional[float] = None
    stderr_surrender: Optional[float] = None
    ev_surrender_in_sample: Optional[float] = None

    def __post_init__(self):
        object.__setattr__(self, "row_rates", RowRates(self.row_rates))

    @property
    def tied(self) -> tuple[Alternative, ...]:
        """The alternatives statistically tied with the best (see :class:`Alternative`)."""
        return tuple(a for a in self.alternatives if a.tied)

    @property
    def action(self) -> str:
        """What the solver recommends: ``"declare"`` the automatic win, ``"surrender"``,
        or ``"set"`` the hand as the rows say."""
        return "declare" if self.declare else "surrender" if self.surrender else "set"

    @property
    def action_ev(self) -> float:
        """The held-out EV of :attr:`action` (``ev_declare`` when declaring,
        ``ev_surrender`` when surrendering, else ``ev``): what following the advice is
        worth, a deal."""
        return (self.ev_declare if self.declare else self.ev_surrender if self.surrender
                else self.ev)

    @property
    def action_stderr(self) -> Optional[float]:
        """:attr:`action_ev`'s standard error."""
        return (self.stderr_declare if self.declare
                else self.stderr_surrender if self.surrender else self.stderr)

    def to_dict(self) -> dict:
        """Every field as plain Python values (lists for tuples), ready for ``json``,
        and ``action``, ``action_ev`` and ``action_stderr``; :meth:`from_dict` rebuilds
        the Solution.  Each alternative also says whether it is ``tied``."""
        d = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        d["alternatives"] = [dict(_plain(dataclasses.asdict(a)), tied=a.tied)
                             for a in self.alternatives]
        d.update(action=self.action, action_ev=self.action_ev,
                 action_stderr=self.action_stderr)
        return d

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, d: dict) -> "Solution":
        """The Solution :meth:`to_dict` gave ``d`` for."""
        names = {f.name for f in dataclasses.fields(Alternative)}
        alternatives = tuple(
            Alternative(**{k: tuple(v) if isinstance(v, list) else v
                           for k, v in a.items() if k in names})
            for a in d["alternatives"])
        fields = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()
                  if k in fields}
        kwargs["row_rates"] = RowRates(d["row_rates"])
        return cls(**dict(kwargs, alternatives=alternatives))

    def __str__(self) -> str:
        return solution_text(self)


def _plain(x):
    """``x`` with numpy scalars as Python numbers and tuples as lists (for JSON)."""
    if isinstance(x, Mapping):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


