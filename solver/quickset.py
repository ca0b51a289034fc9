"""``quick_set``: the default opponent model's own setting of one hand, no sampling."""
from __future__ import annotations

import functools
from typing import Optional

import numpy as np

from .cards import CardsLike, names
from .display import reading_order
from .policy import builtin_policy, set_hands
from .rows import bonus_rank_of
from .sampling import prepare_hand


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
    rs, tables, own, _, _, n_seats = prepare_hand(cards, rules, cut, players)
    builtin = builtin_policy(policy, rs, n_seats, bonus_rank_of(rs, cut))
    if builtin is None:
        raise ValueError(f"quick_set takes a built-in policy or a TableModel, not {policy!r}")
    kind, mt, field = builtin
    # One kernel call for the setting and its rows' values (a hand as a batch of one).
    vals, _, masks = set_hands(np.array(own, np.int64)[None, None, :], tables, kind, mt,
                               _params(rs), field, n_seats, False)
    # In a player's reading order, as solve's rows (the hand each row counts as).
    return tuple(names(reading_order([own[p] for p in range(len(own)) if int(m) >> p & 1],
                                     value=int(v)))
                 for m, v in zip(masks[0, 0], vals[0, 0]))


@functools.lru_cache(maxsize=None)
def _params(rules) -> np.ndarray:
    """The rule set's scoring parameters, made once (quick_set is called hand after hand)."""
    return rules.scoring_params()
