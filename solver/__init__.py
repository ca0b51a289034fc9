"""solver: the best way to set a Chinese Poker hand (十三支, Pusoy, Sap Sam Cheung).

The rules it implements are in docs/rules.md.  Public API (a tour: docs/guide/api.md):

* cards: :func:`parse_cards`, :func:`format_cards`
* rule sets: :func:`rule_set`, :data:`RULE_SET_NAMES`, :data:`CATEGORIES` (the module
  :mod:`solver.rules` holds them all); a rule set of one's own is a rule-set file
  (docs/rule-files.md): ``rule_set("house.toml")``, :meth:`RuleSet.to_toml`
* rows: :func:`row_value`, :func:`is_legal`, :func:`evaluate_rows`
* settlement: :func:`settle`, :func:`automatic_win`
* the solver: :func:`solve` (a :class:`Solution`), :func:`sample_opponents`,
  :func:`holdout_seed` (the seed of its held-out deals)
* grading a player's own setting: :func:`review` (a :class:`Review`); a whole session
  of hands: :func:`review_many` (a :class:`SessionReport`; :mod:`solver.session`)
* many hands: :func:`solve_many` (in parallel; :mod:`solver.batch`)
* the opponent model: :func:`quick_set` (its setting of one hand), :class:`TableModel`,
  :func:`exploitability` (how far a best response beats it; an :class:`Exploitability`),
  :func:`train_model` (a rule set without a shipped model gets one by self-play; a
  :class:`TrainedModel`)
* matches between setters: :mod:`solver.arena` (``python -m solver.arena``)
"""
__version__ = "0.1.0"     # the one place the version is written (pyproject.toml reads it)

from . import _quiet_start
_quiet_start.install()          # before the slow imports below (see its docstring)

from .autowin import AutomaticWin, automatic_win
from .batch import solve_many
from .cards import format_cards, parse_cards
from .exploitability import Exploitability, exploitability
from .model import TableModel
from .quickset import quick_set
from .review import Review, review
from .session import SessionReport, review_many
from .rows import RowValue, evaluate_rows, is_legal, row_value
from .rules import CATEGORIES, RULE_SET_NAMES, RuleSet, rule_set
from .settle import PairResult, Settlement, settle
from .sampling import holdout_seed, sample_opponents
from .solution import Alternative, Solution
from .solve import solve
from .training import TrainedModel, train_model

__all__ = [
    "Alternative",
    "AutomaticWin",
    "CATEGORIES",
    "Exploitability",
    "PairResult",
    "RULE_SET_NAMES",
    "Review",
    "RowValue",
    "RuleSet",
    "SessionReport",
    "Settlement",
    "Solution",
    "TableModel",
    "TrainedModel",
    "automatic_win",
    "evaluate_rows",
    "exploitability",
    "format_cards",
    "holdout_seed",
    "is_legal",
    "parse_cards",
    "quick_set",
    "review",
    "review_many",
    "row_value",
    "rule_set",
    "sample_opponents",
    "settle",
    "solve",
    "solve_many",
    "train_model",
]
