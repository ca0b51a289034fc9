"""Jitted row kernels: a row of card codes -> its ordinal or value, by table lookups only.

The tables (a :class:`solver.tables.RowTables`) are passed in as arguments rather than
read from module globals, because Numba would freeze a global array into the compiled
code.  Kernels assume clean input; the public functions in :mod:`solver.rows` validate.
"""
import numpy as np

from ._jit import njit


# The two lookups are inlined where they are called: a call that passes the tables (six
# arrays) costs Numba's reference counting more than the lookup itself.
@njit(inline="always")
def ordinal5(c0, c1, c2, c3, c4, t):
    """Ordinal of a five-card row (card codes c0..c4) under tables ``t``."""
    key = t.card_key[c0] + t.card_key[c1] + t.card_key[c2] + t.card_key[c3] + t.card_key[c4]
    jokers = (t.card_joker[c0] + t.card_joker[c1] + t.card_joker[c2] + t.card_joker[c3]
              + t.card_joker[c4])
    suits = (t.card_suit_bit[c0] | t.card_suit_bit[c1] | t.card_suit_bit[c2]
             | t.card_suit_bit[c3] | t.card_suit_bit[c4])
    suited = 1 if (suits & (suits - 1)) == 0 else 0   # at most one suit bit set
    return t.ord5[suited, jokers, key]


@njit(inline="always")
def ordinal3(c0, c1, c2, t):
    """Ordinal of a three-card Front (card codes c0..c2) under tables ``t``."""
    key = t.card_key[c0] + t.card_key[c1] + t.card_key[c2]
    jokers = t.card_joker[c0] + t.card_joker[c1] + t.card_joker[c2]
    return t.ord3[jokers, key]


@njit
def values5(rows, t):
    """Values of an (n, 5) array of card codes."""
    out = np.empty(rows.shape[0], np.int32)
    for i in range(rows.shape[0]):
        out[i] = t.values[ordinal5(rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3],
                                   rows[i, 4], t)]
    return out


@njit
def values3(rows, t):
    """Values of an (n, 3) array of card codes."""
    out = np.empty(rows.shape[0], np.int32)
    for i in range(rows.shape[0]):
        out[i] = t.values[ordinal3(rows[i, 0], rows[i, 1], rows[i, 2], t)]
    return out
