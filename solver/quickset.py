"""``quick_set``: the default opponent model's own setting of one hand, no sampling."""
from __future__ import annotations

from typing import Optional

import numpy as np

from .cards import CardsLike, format_cards
from .policy import builtin_policy, set_hand
from .display import sort_row
from .rows import _value_of_codes, bonus_rank_of
from .sampling import prepare_hand
from .search import cards_of_mask


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
    codes = np.array(own, np.int64)
    masks = set_hand(codes, tables, kind, mt, rs.scoring_params(), field, n_seats)
    rows = [[int(c) for c in cards_of_mask(int(m), codes)] for m in masks]
    # In a player's reading order, as solve's rows (the hand each row counts as).
    return tuple(sort_row(format_cards(row), value=_value_of_codes(row, tables))
                 for row in rows)
