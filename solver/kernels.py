"""Jitted row kernels: a row of card codes -> its ordinal or value, by table lookups only.

The tables (a :class:`solver.tables.RowTables`; its module docstring describes the
lookup) are passed in as arguments rather than read from module globals, because Numba
would freeze a global array into the compiled code.  Kernels assume clean input; the
public functions in :mod:`solver.rows` validate.
"""
import numpy as np

from ._jit import njit

# The layout of a row's word and of the packed tables (solver.tables builds the tables to
# match, and rebuilds them when this file changes).  Compiled in as constants, also into
# the kernels of other modules that inline the lookups below, whose cached code Numba does
# not recompile when only this file changes: after changing a constant, clear the
# __pycache__ folders.
SUIT_BITS = 16      # a word's low 16 bits: four 4-bit counts, one per suit; the key above
ROW_SHIFT = 7       # keys per block of the displacement table: 2 ** ROW_SHIFT


@njit(inline="always")
def position(word, t):
    """A row's position in the packed tables: its key's block offset plus its place in the
    block (row displacement, see :mod:`solver.tables`)."""
    key = word >> SUIT_BITS
    return t.disp[key >> ROW_SHIFT] + (key & ((1 << ROW_SHIFT) - 1))


@njit(inline="always")
def suited(word):
    """1 if the real cards of a five-card row's word share one suit, else 0: adding 3 to
    each 4-bit suit count (0..5; jokers count in every suit) sets a field's top bit only
    where the count is 5."""
    return 1 if (word + 0x3333) & 0x8888 else 0


@njit(inline="always")
def ordinal_of_word5(word, t):
    """Ordinal of a five-card row from its word (the sum of its cards' ``card_word``)."""
    return t.ord5[suited(word), position(word, t)]


# The lookups are inlined where they are called: a call that passes the tables (six
# arrays) costs Numba's reference counting more than the lookup itself.
@njit(inline="always")
def ordinal5(c0, c1, c2, c3, c4, t):
    """Ordinal of a five-card row (card codes c0..c4) under tables ``t``."""
    w = t.card_word
    return ordinal_of_word5(w[c0] + w[c1] + w[c2] + w[c3] + w[c4], t)


@njit(inline="always")
def ordinal3(c0, c1, c2, t):
    """Ordinal of a three-card Front (card codes c0..c2) under tables ``t``."""
    w = t.card_word
    return t.ord3[position(w[c0] + w[c1] + w[c2], t)]


@njit
def values5(rows, t):
    """Values of an (n, 5) array of card codes (straight from ``t.value5``: no ordinal)."""
    out = np.empty(rows.shape[0], np.int32)
    w = t.card_word
    for i in range(rows.shape[0]):
        word = w[rows[i, 0]] + w[rows[i, 1]] + w[rows[i, 2]] + w[rows[i, 3]] + w[rows[i, 4]]
        out[i] = t.value5[suited(word), position(word, t)]
    return out


@njit
def values3(rows, t):
    """Values of an (n, 3) array of card codes."""
    out = np.empty(rows.shape[0], np.int32)
    for i in range(rows.shape[0]):
        out[i] = t.values[ordinal3(rows[i, 0], rows[i, 1], rows[i, 2], t)]
    return out
