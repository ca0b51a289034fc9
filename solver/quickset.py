"""``quick_set``: the default opponent model's own setting of one hand, no sampling."""
from __future__ import annotations

import functools
import operator
from typing import Callable, NamedTuple, Optional

import numpy as np

from .cards import CardsLike, names, parse_codes
from .display import _as_counted
from .policy import builtin_policy, one_hand_setter
from .rules import RuleSet
from .sampling import cut_codes_beside, hand_codes, prepare_hand
from .scoring import scoring_params


class _Setup(NamedTuple):
    """What a quick_set call computes that does not depend on the hand, kept for the
    next call with the same arguments (bots and servers call it hand after hand)."""
    given_rules: object       # the rules argument, held so that its id stays its own
    rules: RuleSet
    set_one: Callable         # codes -> (row masks, row values): policy.one_hand_setter
    cut_code: int             # the cut card's first free code in an empty hand, or -1


_SETUPS: dict = {}
_MAX_SETUPS = 64              # a few rule sets, cuts and table sizes; more are dropped


def quick_set(cards: CardsLike, rules, cut=None, *, players: Optional[int] = None,
              policy=None) -> tuple[str, str, str]:
    """How the default opponent model sets ``cards``: ``(front, middle, back)`` texts,
    each in a player's reading order.

    No sampling: one jitted setting, tens of microseconds.  This is the setting
    :func:`solver.solve` assumes each opponent makes; it is a strong setter in its own
    right (see README), for bots, servers and comparisons.  ``players``: seats at the
    table (default: the rule set's largest); ``policy``: another built-in policy
    (``"field"``, ``"sbf"``) or a :class:`solver.model.TableModel`.

    >>> quick_set("As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7c", "classic")
    ('2h 2d 7c', '9h 9d 9c 6c 5c', 'As Ks Qs Js Ts')
    """
    key = _setup_key(rules, cut, players, policy)
    setup = _SETUPS.get(key) if key is not None else None
    if setup is None:
        setup, own = _first_call(cards, rules, cut, players, policy)
        if key is not None:
            if len(_SETUPS) >= _MAX_SETUPS:
                _SETUPS.clear()
            _SETUPS[key] = setup
    else:
        own = _checked_hand(cards, cut, setup)
    # One kernel call for the setting and its rows' values.
    masks, values = setup.set_one(own)
    return _row_texts(own, masks, values)


def _setup_key(rules, cut, players, policy):
    """The key of the arguments' :class:`_Setup`, or None where they are not kept (a
    policy other than a built-in name: a model can change; an unhashable argument).
    Types are part of the key: ``True == 1``, but ``players=True`` is refused."""
    if not (policy is None or type(policy) is str):
        return None
    key = (rules if type(rules) is str else id(rules), type(cut), cut,
           type(players), players, policy)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _first_call(cards, rules, cut, players, policy) -> "tuple[_Setup, list[int]]":
    """The general path: every argument validated in the order of the errors' priority
    (the hand's before the table size's, the policy's last), and the setup it finds."""
    hand = prepare_hand(cards, rules, cut, players)
    rs, tables, own, n_seats = hand.rules, hand.tables, hand.own, hand.seats
    builtin = builtin_policy(policy, rs, n_seats, hand.bonus_rank)
    if builtin is None:
        raise ValueError(f"quick_set takes a built-in policy or a TableModel, not {policy!r}")
    kind, mt, field = builtin
    cut_code = -1
    if rs.cut_card:
        cut_code = parse_codes(hand.cut_name, rs)[0]
    set_one = one_hand_setter(kind, tables, mt, _params(rs), field, n_seats, rs.cards_dealt)
    return _Setup(rules, rs, set_one, cut_code), own


def _checked_hand(cards, cut, setup: _Setup) -> list[int]:
    """The hand's codes, checked as prepare_hand checks them where the other arguments
    are known to be valid: the cards, and the cut card beside them, which can only
    clash when the hand holds the cut card's first copy."""
    own = hand_codes(cards, setup.rules)
    if setup.cut_code in own:
        cut_codes_beside(own, setup.rules, cut)
    return own


def _row_texts(own: list[int], masks: list[int], values: list[int]) -> tuple[str, str, str]:
    """The rows' texts in a player's reading order, as solve's rows (the hand each row
    counts as): ``reading_order(row, value=v)``, whose work for a row of 3 or 5 real
    codes (Python ints, as here) is ``_as_counted``'s."""
    (front, middle, back), (v_front, v_middle, v_back) = masks, values
    # The three rows written out: a loop over them costs a tenth of this function's time.
    return (names(_as_counted(_cards_at(front)(own), v_front)),
            names(_as_counted(_cards_at(middle)(own), v_middle)),
            names(_as_counted(_cards_at(back)(own), v_back)))


@functools.lru_cache(maxsize=None)
def _cards_at(mask: int) -> Callable:
    """``operator.itemgetter`` of the positions of the bits of ``mask``, in order: a
    row's codes taken from the hand's in one call, made once a mask (a row is 3 or 5 of
    at most 17 positions: 6,868 masks)."""
    return operator.itemgetter(*[p for p in range(mask.bit_length()) if mask >> p & 1])


@functools.lru_cache(maxsize=None)
def _params(rules) -> np.ndarray:
    """The rule set's scoring parameters, made once (quick_set is called hand after hand)."""
    return scoring_params(rules)
