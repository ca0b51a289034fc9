"""solver: the best way to set a Chinese Poker hand (十三支, Pusoy, Sap Sam Cheung).

Public API (see README.md for a tour):

* cards: :func:`parse_cards`, :func:`format_cards`
* rule sets: :func:`rules`, :data:`RULE_SET_NAMES`, :data:`CATEGORIES`
* rows: :func:`row_value`, :func:`is_legal`, :func:`evaluate_rows`
* settlement: :func:`settle`, :func:`automatic_win`
* the solver: :func:`solve` (a :class:`Solution`), :func:`sample_opponents`
* many hands: :func:`solve_many` (in parallel; :mod:`solver.batch`)
"""
from .autowin import AutomaticWin, automatic_win
from .cards import format_cards, parse_cards
from .rows import RowValue, evaluate_rows, is_legal, row_value
from .rules import CATEGORIES, RULE_SET_NAMES, RuleSet, rules
from .settle import PairResult, Settlement, settle
from .solve import Alternative, Solution, sample_opponents, solve
from .batch import solve_many

__all__ = [
    "Alternative",
    "AutomaticWin",
    "CATEGORIES",
    "PairResult",
    "RULE_SET_NAMES",
    "RowValue",
    "RuleSet",
    "Settlement",
    "Solution",
    "automatic_win",
    "evaluate_rows",
    "format_cards",
    "is_legal",
    "parse_cards",
    "row_value",
    "rules",
    "sample_opponents",
    "settle",
    "solve",
    "solve_many",
]
