"""The default opponent model: a table setter fitted to a self-play field.

What it is
----------
A *field* is the distribution of the rows that players of a rule set (and seat count)
set: for each row (Front, Middle, Back), how often each row value occurs.  From it the
model derives, for every row value ``v`` of the row tables, what that row is worth
against one opponent drawn from the field: the chance to beat, tie or lose to the
opponent's row, and the expected bonus units won and paid (:func:`model_tables`).  An
arrangement's expected score is then the rule set's settlement applied to those
per-row chances as if the opponent's three rows were independent draws (:func:`_ev`;
scoops, majorities, shots and home runs are products of the per-row chances).  The
model sets a hand by the arrangement that maximises that estimate, found exactly by
branch and bound over the hand's 5-card subsets (:func:`table_kernel`).

The field is the model's own play: :mod:`solver.policy_training` starts from
strongest-back-first settings and, round after round, lets the table setter fit to the
average of the fields so far and play new deals (fictitious play).  The result ships in
``solver/data/`` as row-value histograms.

Why this shape
--------------
Strong trained setters work this way (win-probability tables indexed by row value,
scoring every split); what matters for :func:`solver.solve` is that the model predicts
the rows real opponents set, and a player near equilibrium is the best guess of an
unknown strong opponent.  The tables cost one lookup per row, so the setter is fast
enough to set thousands of sampled opponents per solve.

The estimate carries card removal (our own cards change the opponents' rows) one way: a
model may keep a field for each group of hands by a key of their cards, the rows that
hands of that group meet, and set a hand against its group's (:class:`GroupKey`, chosen
for a rule set by :func:`group_key`): where the deck has jokers, the number of jokers
held, since a joker is the card that changes the opponents' rows most; in the western
scheme, the hand's high cards.  It ignores the correlation of an opponent's rows.
:func:`solver.solve` ignores neither: it settles each sampled deal exactly.  The model
only has to say how opponents set their hands.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np
from llvmlite import ir
from numba import typeof
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, overload

from ._jit import njit
from .cards import FIRST_JOKER, N_CODES, code_rank
from .rules import (BONUS_REPLACE, CATEGORIES, CATEGORY_INDEX, PAID_ROW_MADE, RULE_SET_NAMES,
                    SCHEME_EASTERN, SCHEME_GENERAL, SCHEME_MANDARIN, SCHEME_ROWS, SCHEME_SCOOP,
                    SCHEME_WESTERN, SCOOP_NO_ROW_LOST, RuleSet, rule_set as _rules)
from .kernels import ROW_SHIFT, SUIT_BITS
from .tables import CATEGORY_SHIFT, RowTables, royalties_by_value

DATA = Path(__file__).parent / "data"

# Per-row record of a row value against one field opponent: the last axis of
# ModelTables.rows, float32, 16 bytes, so that the records of every value of a rule set
# stay in the L2 cache with the row tables (the setter's time goes mostly to these
# lookups).  What P and Q hold depends on the scheme; every term of the estimate rises
# with P and falls with Q.
R_SEP = 0          # the row's part of the estimate that no other row affects: row points
                   # and bonus units won minus paid
R_ENV = 1          # the running maximum of R_SEP over weaker values (bonus units need not
                   # grow with strength): with it, the estimate becomes an upper bound
R_P = 2            # western, mandarin: P(our row beats the opponent's);
                   # scoop: P(ours >= theirs), the row counts toward our scoop
R_Q = 3            # western, mandarin: P(ours < theirs);
                   # scoop: P(ours <= theirs), the row counts toward their scoop
N_RECORD = 4
# Mandarin's row points, in ModelTables.points (other schemes do not read it; the general
# scheme's: the multiplied units of a won row, royalties too where they are multiplied).
PTS_WON = 0        # the row points we get when we win the row (Front trips 3, else 1)
PTS_LOST = 1       # E[their row points; they win the row]
PTS_ENV = 2        # general: the running maximum of PTS_WON over weaker values (bounds)

# Layout of ModelTables.params (float64).
M_SCHEME = 0
M_OPPONENTS = 1        # opponents at the table (seats - 1)
M_MAJORITY = 2         # western majority point
M_SCOOP = 3            # scoop units (scoop scheme)
M_HOME_RUN = 4         # home-run units from each scooped seat (scoop scheme)
M_Q_OTHER_SCOOP = 5    # P(an opponent scoops each of the other opponents)
M_SHOT_EXTRA = 6       # mandarin: shot multiplier - 1
M_HOME_RUN_EXTRA = 7   # mandarin: home-run multiplier - shot multiplier (4 seats; else 0)
M_Q_OTHER_SWEEP = 8    # mandarin: P(an opponent wins every row against each other one)
M_MONOTONE = 9         # 1 where the estimate never falls as a row gets stronger (see
                       # _monotone): a setting no stronger in any row than the best found
                       # cannot beat it, so the search need not score it
N_PARAMS = 10


class ModelTables(NamedTuple):
    """What the jitted setter needs: ``rows[r, o, R_*]``, the record of row r (0 Front,
    1 Middle, 2 Back) with ordinal o of one RowTables; ``points[r, o, PTS_*]``
    (mandarin); the ``M_*`` scalars.

    A model of G groups (:class:`GroupKey`) has the tables of its G fields one after the
    other: rows ``3 g .. 3 g + 2``, and ``params[g * N_PARAMS:(g + 1) * N_PARAMS]``, are
    group g's (:func:`stacked`).  The setter sets a hand with the group whose number is
    how many of ``key_cuts`` are below the sum of ``key_weights`` over the hand's card
    codes (:func:`hand_tables`).  The scalars every group shares (the scheme, the
    opponents) are read from group 0's."""
    rows: np.ndarray     # float32[3 G, n_ordinals + 1, N_RECORD]
    points: np.ndarray   # float32[3 G, n_ordinals + 1, 2] (mandarin; general: 3 columns;
                         # else [3 G, 1, 2])
    params: np.ndarray   # float64[G N_PARAMS]
    key_weights: np.ndarray  # int32[N_CODES]: each card code's weight in the hand's key
    key_cuts: np.ndarray     # float64[G - 1], ascending


class GroupKey(NamedTuple):
    """How a model groups hands by their cards, to carry card removal (the cards a hand
    holds are cards its opponents do not, so hands of different cards meet different
    rows): a hand's key is the sum of its cards' weights, by rank (``rank_weights``,
    deuce .. ace, every suit and copy alike) and for a joker (``joker_weight``); its
    group is how many of ``cuts`` (ascending) are below its key.  A model keeps a field
    for each group, the rows that hands of that group meet in self-play
    (:mod:`solver.policy_training`), and sets a hand against its group's
    (:func:`hand_tables`).  Which key a rule set's model has: :func:`group_key`.

    >>> key = GroupKey(HIGH_CARD_POINTS, 0, (4.0, 9.5))
    >>> [int(g) for g in key.of(np.array([[0, 1], [12, 11], [12, 25]]))]   # 2s 3s, As Ks, As Ah
    [0, 1, 1]
    """
    rank_weights: tuple
    joker_weight: int
    cuts: tuple

    @property
    def groups(self) -> int:
        return len(self.cuts) + 1

    def code_weights(self) -> np.ndarray:
        """Each card code's weight (int32[N_CODES])."""
        return np.array([self.joker_weight if c >= FIRST_JOKER
                         else self.rank_weights[code_rank(c)] for c in range(N_CODES)],
                        np.int32)

    def arrays(self) -> "tuple[np.ndarray, np.ndarray]":
        """(ModelTables.key_weights, ModelTables.key_cuts)."""
        return self.code_weights(), np.array(self.cuts, np.float64)

    def keys(self, hands) -> np.ndarray:
        """The key of each hand of ``hands`` (card codes, (..., cards))."""
        return self.code_weights()[np.asarray(hands)].sum(axis=-1)

    def of(self, hands) -> np.ndarray:
        """The group of each hand of ``hands`` (card codes, (..., cards)), as the setter
        chooses it."""
        return np.searchsorted(np.array(self.cuts, np.float64), self.keys(hands), side="left")


def cut_at_quantiles(key: GroupKey, hands, groups: int) -> GroupKey:
    """``key`` with cuts into ``groups`` groups of about equal size among ``hands`` (fewer
    where the keys take few values: those of equal keys share a group)."""
    qs = np.quantile(key.keys(hands).astype(np.float64), np.linspace(0, 1, groups + 1)[1:-1])
    return key._replace(cuts=tuple(float(c) for c in np.unique(qs)))


# One field for every hand.
ONE_GROUP = GroupKey((0,) * 13, 0, ())
# High-card points, deuce .. ace: jack 1, queen 2, king 3, ace 4.
HIGH_CARD_POINTS = (0,) * 9 + (1, 2, 3, 4)
# Groups of hands by their high-card points, of about equal size in self-play's first
# round.  6 is what was measured (12 did no better: benchmarks/details/exploitability.md).
HIGH_CARD_GROUPS = 6


def jokers_held(groups: int) -> GroupKey:
    """The key of a field for each number of jokers a hand holds, 0 .. ``groups`` - 1
    (the last for that many or more)."""
    if groups == 1:
        return ONE_GROUP
    return GroupKey((0,) * 13, 1, tuple(g + 0.5 for g in range(groups - 1)))


def group_kind(rules: "str | RuleSet") -> "str | None":
    """What a model of ``rules`` groups hands by: ``"jokers"`` (where the deck has
    jokers: the jokers a hand holds are the cards that change the rows it meets most),
    ``"high cards"`` (the western scheme: its high-card points, :data:`HIGH_CARD_POINTS`),
    or None (one field for every hand).

    Measured, against the models of one field, paired on the same hands and deals: the
    jokers held took a best response's gain over the model from +0.0399 to +0.0231 in
    ``joker`` 4 and from +0.0200 to +0.0107 in ``two-jokers`` 2; the high cards in
    ``classic`` from about +0.026 to +0.017 at four seats, 0.005-0.006 less at three and
    0.0024 heads-up, and bought nothing measurable in the eastern, mandarin and general
    schemes (benchmarks/details/exploitability.md)."""
    rs = _rules(rules)
    if rs.jokers:
        return "jokers"
    if rs.scheme == SCHEME_WESTERN:
        return "high cards"
    return None


def group_key(rules: "str | RuleSet", hands: "np.ndarray | None" = None) -> GroupKey:
    """The key the model of ``rules`` groups hands by (:func:`group_kind`).  High cards
    are cut into :data:`HIGH_CARD_GROUPS` groups at the quantiles of the keys of
    ``hands`` (self-play's first round: the same cuts for the same seed; required)."""
    kind = group_kind(rules)
    if kind == "jokers":
        return jokers_held(joker_groups(_rules(rules)))
    if kind == "high cards":
        if hands is None:
            raise ValueError("a key by high cards is cut at the quantiles of hands: none given")
        return cut_at_quantiles(GroupKey(HIGH_CARD_POINTS, 0, ()), hands, HIGH_CARD_GROUPS)
    return ONE_GROUP


@functools.lru_cache(maxsize=None)
def placeholder_model_tables() -> ModelTables:
    """ModelTables of the right types and no content (as
    :func:`solver.tables.placeholder_tables` for the row tables): the model's kernel
    compiled for them serves every rule set's (tests/test_notice.py checks that a solve
    calls it with these types), and the policies that read no model tables get them."""
    return ModelTables(np.zeros((3, 1, N_RECORD), np.float32), np.zeros((3, 1, 2), np.float32),
                       np.zeros(N_PARAMS), *ONE_GROUP.arrays())


class Field(NamedTuple):
    """Row-value histograms of a field: ``values[r]`` ascending, ``weights[r]`` their
    frequencies; ``q_scoop``: how often one field hand loses no row to another of the
    same deal; ``q_sweep``: how often it wins every row."""
    values: tuple[np.ndarray, np.ndarray, np.ndarray]
    weights: tuple[np.ndarray, np.ndarray, np.ndarray]
    q_scoop: float
    q_sweep: float


# --- the expected score of an arrangement (jitted) ------------------------------------------
@njit(inline="always")
def _two_or_more(p0, p1, p2):
    """P(at least two of three independent events with these chances)."""
    return p0 * p1 + p0 * p2 + p1 * p2 - 2.0 * p0 * p1 * p2


# The estimate, one function a scheme.  The setter is compiled for one scheme at a time
# (table_kernel makes its kernel one a scheme, a constant that it passes down as a
# literal), and _ev picks that scheme's function while Numba types the call, so neither
# the compiler nor the search sees the other schemes (with the other hand size dropped
# too, see table_kernel, the model's kernel compiles in about 5 s instead of 7.5, and the
# search alone is 1.14-1.35 times as fast: benchmarks/README.md).  sep and up are
# literals where a bound is wanted (_bound), run-time values for the exact estimate.
def _ev(mt, of, om, ob, sep, up, scheme):
    """Model estimate of our score for rows with ordinals (of, om, ob) against the
    table's opponents, each opponent's rows drawn independently from the field, for
    the rule set's ``scheme`` (``mt.params[M_SCHEME]``).

    ``sep`` is R_SEP for the estimate, or R_ENV for an upper bound (every other term
    rises with each row's strength).  With ``up``, an upper bound of that value that
    does not call ``pow`` (a third of the time of a scoop estimate): the power of one to
    three opponents is a product bounded from above, and every term rises with it
    (rounding keeps order), so the result is at least the exact one."""
    return _estimate_of(scheme)(mt, of, om, ob, sep, up)


def _estimate_of(scheme):
    """The estimate's function for one scheme (rows and eastern just add up the rows)."""
    return {SCHEME_WESTERN: _ev_western, SCHEME_SCOOP: _ev_scoop,
            SCHEME_MANDARIN: _ev_mandarin, SCHEME_GENERAL: _ev_general}.get(int(scheme),
                                                                          _ev_additive)


@overload(_ev, prefer_literal=True)
def _ev_compiled(mt, of, om, ob, sep, up, scheme):
    if isinstance(scheme, types.IntegerLiteral):
        estimate = _estimate_of(scheme.literal_value)
        return lambda mt, of, om, ob, sep, up, scheme: estimate(mt, of, om, ob, sep, up)

    def by_value(mt, of, om, ob, sep, up, scheme):
        # A scheme known only at run time (the tests' exhaustive references): all four.
        if scheme == SCHEME_WESTERN:
            return _ev_western(mt, of, om, ob, sep, up)
        if scheme == SCHEME_SCOOP:
            return _ev_scoop(mt, of, om, ob, sep, up)
        if scheme == SCHEME_MANDARIN:
            return _ev_mandarin(mt, of, om, ob, sep, up)
        if scheme == SCHEME_GENERAL:
            return _ev_general(mt, of, om, ob, sep, up)
        return _ev_additive(mt, of, om, ob, sep, up)
    return by_value


# Scalar reads in these: a view of a record (rows[0, of]) would cost reference counting.
@njit
def _ev_western(mt, of, om, ob, sep, up):
    rows, params = mt.rows, mt.params
    k = params[M_OPPONENTS]
    s = np.float64(rows[0, of, sep]) + rows[1, om, sep] + rows[2, ob, sep]
    wins2 = _two_or_more(np.float64(rows[0, of, R_P]), rows[1, om, R_P], rows[2, ob, R_P])
    losses2 = _two_or_more(np.float64(rows[0, of, R_Q]), rows[1, om, R_Q], rows[2, ob, R_Q])
    return k * (s + params[M_MAJORITY] * (wins2 - losses2))


@njit
def _ev_scoop(mt, of, om, ob, sep, up):
    rows, params = mt.rows, mt.params
    k = params[M_OPPONENTS]
    s = np.float64(rows[0, of, sep]) + rows[1, om, sep] + rows[2, ob, sep]
    ours = np.float64(rows[0, of, R_P]) * rows[1, om, R_P] * rows[2, ob, R_P]
    theirs = np.float64(rows[0, of, R_Q]) * rows[1, om, R_Q] * rows[2, ob, R_Q]
    if up and params[M_HOME_RUN] >= 0 and (k == 1.0 or k == 2.0 or k == 3.0):
        power = ours if k == 1.0 else ours * ours if k == 2.0 else ours * ours * ours
        power = power * POWER_UP + POWER_TINY
    else:
        power = ours ** k
    home_run = params[M_HOME_RUN] * k * (power - theirs * params[M_Q_OTHER_SCOOP])
    return k * (s + params[M_SCOOP] * (ours - theirs)) + home_run


@njit
def _ev_mandarin(mt, of, om, ob, sep, up):
    rows, params, pts = mt.rows, mt.params, mt.points
    k = params[M_OPPONENTS]
    s = np.float64(rows[0, of, sep]) + rows[1, om, sep] + rows[2, ob, sep]
    sweep = np.float64(rows[0, of, R_P]) * rows[1, om, R_P] * rows[2, ob, R_P]
    points = np.float64(pts[0, of, PTS_WON]) + pts[1, om, PTS_WON] + pts[2, ob, PTS_WON]
    l0 = np.float64(rows[0, of, R_Q])
    l1 = np.float64(rows[1, om, R_Q])
    l2 = np.float64(rows[2, ob, R_Q])
    swept = (pts[0, of, PTS_LOST] * l1 * l2 + pts[1, om, PTS_LOST] * l0 * l2
             + pts[2, ob, PTS_LOST] * l0 * l1)
    shots = params[M_SHOT_EXTRA] * (sweep * points - swept)
    if up and params[M_HOME_RUN_EXTRA] >= 0 and (k == 1.0 or k == 2.0 or k == 3.0):
        power = sweep if k == 1.0 else sweep * sweep if k == 2.0 else sweep * sweep * sweep
        power = power * POWER_UP + POWER_TINY
    else:
        power = sweep ** k
    home_run = params[M_HOME_RUN_EXTRA] * (points * power - swept * params[M_Q_OTHER_SWEEP])
    return k * (s + shots + home_run)


@njit
def _ev_general(mt, of, om, ob, sep, up):
    """Any combination of the scoring fields: the rows add up (points and royalties,
    R_SEP), the majority (as western, from R_P and R_Q, which hold the chances the row
    counts toward a scoop by the rule set's rule), the scoop units (as the scoop
    scheme), the shots' and home runs' extra multiplied units (as mandarin, from the
    multiplied units of won rows, ``points``) and the home-run units (as the scoop
    scheme).  With every field at a built-in's values, it is that built-in's estimate."""
    rows, params, pts = mt.rows, mt.params, mt.points
    k = params[M_OPPONENTS]
    s = np.float64(rows[0, of, sep]) + rows[1, om, sep] + rows[2, ob, sep]
    p0 = np.float64(rows[0, of, R_P])
    p1 = np.float64(rows[1, om, R_P])
    p2 = np.float64(rows[2, ob, R_P])
    l0 = np.float64(rows[0, of, R_Q])
    l1 = np.float64(rows[1, om, R_Q])
    l2 = np.float64(rows[2, ob, R_Q])
    ours = p0 * p1 * p2
    theirs = l0 * l1 * l2
    majority = params[M_MAJORITY] * (_two_or_more(p0, p1, p2) - _two_or_more(l0, l1, l2))
    won = PTS_ENV if sep == R_ENV else PTS_WON     # (an upper bound: the envelope)
    points = np.float64(pts[0, of, won]) + pts[1, om, won] + pts[2, ob, won]
    swept = (pts[0, of, PTS_LOST] * l1 * l2 + pts[1, om, PTS_LOST] * l0 * l2
             + pts[2, ob, PTS_LOST] * l0 * l1)
    shots = params[M_SHOT_EXTRA] * (ours * points - swept)
    if up and (k == 1.0 or k == 2.0 or k == 3.0):
        power = ours if k == 1.0 else ours * ours if k == 2.0 else ours * ours * ours
        power = power * POWER_UP + POWER_TINY
    else:
        power = ours ** k
    home_run_points = params[M_HOME_RUN_EXTRA] * (points * power
                                                  - swept * params[M_Q_OTHER_SWEEP])
    home_run_units = params[M_HOME_RUN] * k * (power - theirs * params[M_Q_OTHER_SCOOP])
    return (k * (s + majority + params[M_SCOOP] * (ours - theirs) + shots + home_run_points)
            + home_run_units)


@njit
def _ev_additive(mt, of, om, ob, sep, up):
    """Rows, eastern: the rows add up."""
    rows = mt.rows
    s = np.float64(rows[0, of, sep]) + rows[1, om, sep] + rows[2, ob, sep]
    return mt.params[M_OPPONENTS] * s


# x * x * x rounds twice, pow once (within an ulp): a margin of 1e-12 more than covers it.
POWER_UP = 1.0 + 1e-12
POWER_TINY = 1e-300


@njit(inline="always")
def hand_tables(mt, codes):
    """The tables the setter sets the hand ``codes`` with: those of its group, the field
    hands of its key meet (:class:`ModelTables`, :class:`GroupKey`; with one group, all
    of them).  Views: nothing is copied."""
    key = 0
    for c in range(codes.shape[0]):
        key += mt.key_weights[codes[c]]
    g = 0
    for i in range(mt.key_cuts.shape[0]):
        g += mt.key_cuts[i] < key
    return ModelTables(mt.rows[3 * g:3 * g + 3], mt.points[3 * g:3 * g + 3],
                       mt.params[g * N_PARAMS:(g + 1) * N_PARAMS], mt.key_weights,
                       mt.key_cuts)


# --- the setter (jitted) ---------------------------------------------------------------------
# A subset of the hand is packed into one int32: its ordinal above ORD_SHIFT, its mask of
# positions (at most 17 cards) below, so that a scan reads one array, 4 bytes a subset,
# and "disjoint from used, ordinal at most cap" is two integer tests.
ORD_SHIFT = 17
POS_MASK = (1 << ORD_SHIFT) - 1
# Subsets are bucket-sorted (buckets of 2**shift consecutive ordinals, at most 256) only
# as far as the search reaches: at first about 1 in SORTED_SHARE, by bucket sizes
# estimated from every SAMPLE_EVERY-th subset, then about as many again each time.
SAMPLE_EVERY = 8
SORTED_SHARE = 6
BATCH = 64             # candidates (Middle, Front) scored by one call of _score
ALL = (1 << 31) - 1    # a mask that keeps every bit of a packed value


def _lowest_bit(x):
    """The index of the lowest set bit of ``x`` > 0 (plain Python; compiled kernels use
    the processor's instruction, below)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@overload(_lowest_bit)
def _lowest_bit_compiled(x):
    return lambda x: trailing_zeros(x)


FITS = 8               # packed subsets tested at once by _fits


def _fits(packed, at, used, cap):
    """Bit i set where ``packed[at + i]`` (i < FITS) is disjoint from the positions
    ``used`` and at most ``cap``: a Middle the Back ``used`` leaves, no stronger than
    ``cap`` (plain Python; compiled kernels test the FITS values at once, below)."""
    hits = 0
    for i in range(FITS):
        v = int(packed[at + i])
        if v & int(used) == 0 and v <= int(cap):
            hits |= 1 << i
    return hits


@overload(_fits)
def _fits_compiled(packed, at, used, cap):
    return lambda packed, at, used, cap: _fits_vector(packed, at, used, cap)


@intrinsic
def _fits_vector(typingctx, packed, at, used, cap):
    """:func:`_fits` as one load of FITS int32 values and two vector tests, their
    results packed into the bits of an integer (LLVM's vector types: SSE, AVX or NEON
    instructions, as the processor has).  A scan of the sorted subsets for the Middles a
    Back leaves tests one value in eight or so true, at random: one value at a time it
    spends most of its time on the loop and its branch (benchmarks/README.md)."""
    sig = types.int64(packed, types.intp, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        i32 = ir.IntType(32)
        vec = ir.VectorType(i32, FITS)

        def splat(x):
            one = builder.insert_element(ir.Constant(vec, ir.Undefined),
                                         builder.trunc(x, i32), ir.Constant(i32, 0))
            return builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                          ir.Constant(vec, [0] * FITS))

        values = builder.load(builder.bitcast(builder.gep(data, [args[1]], inbounds=True),
                                              vec.as_pointer()), align=4)
        disjoint = builder.icmp_signed("==", builder.and_(values, splat(args[2])),
                                       ir.Constant(vec, [0] * FITS))
        below = builder.icmp_signed("<=", values, splat(args[3]))
        bits = builder.bitcast(builder.and_(disjoint, below), ir.IntType(FITS))
        return builder.zext(bits, ir.IntType(64))
    return sig, codegen


@njit
def _subsets(codes, t, tab, word, words3, masks3, first, fives, threes):
    """Fill ``fives`` and ``threes`` with every 5-card and every 3-card subset of the
    hand, packed, in lexicographic order of positions (the lookups of
    :func:`solver.kernels.ordinal5` and ``ordinal3``, from shared sums as in
    :func:`solver.search.five_subsets`, with unsigned indices, which Numba does not test
    for being negative).  With ``tab`` (13 cards; None for more), also ``tab[mask] =
    ordinal`` for both.  ``word``, ``words3``, ``masks3`` and ``first`` are scratch
    space (first[c]: the first triple of cards c and above)."""
    n = codes.shape[0]
    for c in range(n):
        word[c] = t.card_word[codes[c]]
    disp, ord5, ord3 = t.disp, t.ord5, t.ord3
    low = np.uint64((1 << ROW_SHIFT) - 1)
    n3 = threes.shape[0]
    q = 0
    for c in range(n):
        first[c] = q
        for d in range(c + 1, n):
            for e in range(d + 1, n):
                w = word[c] + word[d] + word[e]
                m = (1 << c) | (1 << d) | (1 << e)
                words3[q] = w
                masks3[q] = m
                key = np.uint64(w) >> np.uint64(SUIT_BITS)
                threes[q] = (np.int64(ord3[np.uint64(disp[key >> np.uint64(ROW_SHIFT)])
                                           + (key & low)]) << ORD_SHIFT) | m
                q += 1
    first[n] = n3
    k = 0
    for a in range(n):
        for b in range(a + 1, n):
            w, m = word[a] + word[b], (1 << a) | (1 << b)
            # Views, so that every index in the loop counts from 0 (see five_subsets).
            tail_words, tail_masks = words3[first[b + 1]:], masks3[first[b + 1]:]
            size = tail_words.shape[0]
            dest = fives[k:k + size]
            for i in range(size):
                w5 = np.uint64(w + tail_words[i])
                key = w5 >> np.uint64(SUIT_BITS)
                suited = np.uint64(1) if (w5 + np.uint64(0x3333)) & np.uint64(0x8888) else np.uint64(0)
                o = np.int64(ord5[suited, np.uint64(disp[key >> np.uint64(ROW_SHIFT)]) + (key & low)])
                dest[i] = (o << ORD_SHIFT) | m | tail_masks[i]
            k += size
    if tab is not None:
        for v in fives:
            tab[v & POS_MASK] = v >> ORD_SHIFT
        for v in threes:
            tab[v & POS_MASK] = v >> ORD_SHIFT


@njit
def _sort(packed, out, start, k0, sample, shift, nb, k_min, tmp, count, at):
    """Bucket-sort ``packed`` into ``out`` from bucket ``k0`` (at ``start[k0]``) on,
    each bucket in input order (a stable counting sort), set ``start`` up to the new
    end, and return it (buckets 0..end-1 are sorted): through bucket ``k_min`` and about
    as many subsets again as are sorted (1 in SORTED_SHARE at first), as ``sample`` (the
    sizes of the buckets among every SAMPLE_EVERY-th subset) estimates.  ``tmp`` and
    ``at`` (the size of ``packed``) and ``count`` (``nb + 1``) are scratch space."""
    want = max(packed.shape[0] // SORTED_SHARE, start[k0]) // SAMPLE_EVERY
    have = 0
    end = k0
    while end < nb and (end <= k_min or have < want):
        have += sample[end]
        end += 1
    sh = shift + ORD_SHIFT
    lo = (nb - end) << sh             # the smallest packed value of bucket end - 1
    hi = (nb - k0) << sh              # above bucket k0
    c = 0
    for i in range(packed.shape[0]):  # the range's subsets, in order, without a branch
        v = packed[i]
        tmp[c] = v
        c += (v >= lo) & (v < hi)
    for j in range(end - k0 + 1):
        count[j] = 0
    for i in range(c):
        count[np.uint64(nb - (tmp[i] >> sh) - k0)] += 1
    # count[j]: where bucket k0 + j begins
    count[0] = start[k0]
    for j in range(end - k0):
        count[j + 1] += count[j]
        start[k0 + j + 1] = count[j + 1]
    _scatter(tmp, c, out, count, at, nb - 1 - k0, sh, ALL)
    return end


@njit(inline="always")
def _scatter(src, n, dst, count, at, top, sh, mask):
    """``dst[count[j]++] = v``, ``j = top - ((v >> sh) & mask)``, for the first ``n``
    values ``v`` of ``src`` in order (the last step of a counting sort), in two passes:
    every value's place first, then the stores.  (In one pass a store whose address
    waits on a count kept the next counts waiting too: about twice as slow, measured.)
    ``at`` is scratch."""
    for i in range(n):
        j = np.uint64(top - ((src[i] >> sh) & mask))
        at[i] = count[j]
        count[j] += 1
    for i in range(n):
        dst[np.uint64(at[i])] = src[i]


@njit
def _sort_fully(packed, tmp, start, shift, nb, count, at):
    """Sort ``packed`` in place by ordinal, strongest first, equals in input order, and
    set ``start[k]``: where bucket ``k`` begins (``start[nb]``: the end).  Two stable
    counting sorts: by the ordinals' low ``shift`` bits into ``tmp``, then by bucket back
    into ``packed``.  ``count`` (at least ``max(2 ** shift, nb) + 2``) and ``at`` (the
    size of ``packed``) are scratch."""
    low = (1 << shift) - 1
    sh = shift + ORD_SHIFT
    m = packed.shape[0]
    for j in range(low + 2):
        count[j] = 0
    for k in range(nb + 1):
        start[k] = 0
    for i in range(m):                # both counts in one pass
        v = packed[i]
        count[np.uint64(low + 1 - ((v >> ORD_SHIFT) & low))] += 1
        start[np.uint64(nb - (v >> sh))] += 1
    for j in range(low + 1):
        count[j + 1] += count[j]
    for k in range(nb):
        start[k + 1] += start[k]
    _scatter(packed, m, tmp, count, at, low, ORD_SHIFT, low)
    for k in range(nb + 1):
        count[k] = start[k]
    _scatter(tmp, m, packed, count, at, nb - 1, sh, ALL)


# _bound and _score are inlined by LLVM (forceinline): it would otherwise decline for a
# caller as large as the model's kernel, and the search would pay a call for each of
# its thousands of bounds a hand (1-7% of the setter's time, measured).
@njit(forceinline=True)
def _bound(mt, of, om, ob, scheme):
    """An upper bound of the estimate of every arrangement whose rows are no stronger
    than ordinals (of, om, ob): :func:`_ev` with R_ENV, ``up`` (as literals, so that
    the bound is compiled for them: thousands a hand, 5 ns each where LLVM inlines it)."""
    return _ev(mt, of, om, ob, R_ENV, True, scheme)


@njit(forceinline=True)
def _score(mt, ob, mb, cand_m, cand_f, n_cand, shift, best, found, scheme):
    """Score the candidates (Middle, Front, packed) of Back ``mb`` in order; return the
    new best, and in ``found`` its (front, middle, back) masks, in found[3], when this
    Back holds it, the bucket of its Middle (else -1), and in found[4:7] its rows'
    ordinals.

    Ties are settled as a scan of the Middles, strongest bucket first and in position
    order within a bucket, meets them: an earlier Back keeps the best; within this Back
    a Middle of a stronger bucket wins, else the first.  (Candidates come in that
    order, but for 13 cards, whose splits come in position order.)  Where the estimate
    calls ``pow``, a bound without it rules out most candidates first."""
    up = scheme == SCHEME_SCOOP or scheme == SCHEME_MANDARIN or scheme == SCHEME_GENERAL
    for i in range(n_cand):
        om = cand_m[i] >> ORD_SHIFT
        of = cand_f[i] >> ORD_SHIFT
        exact = not up
        while True:                   # the bound (where up), then the exact estimate
            ev = _ev(mt, of, om, ob, np.int64(R_SEP), not exact, scheme)
            if ev < best or (ev == best and (found[3] < 0 or om >> shift <= found[3])):
                break
            if exact:
                best = ev
                found[0] = cand_f[i] & POS_MASK
                found[1] = cand_m[i] & POS_MASK
                found[2] = mb
                found[3] = om >> shift
                found[4] = of
                found[5] = om
                found[6] = ob
                break
            exact = True
    return best


def front_words(n_cards: int) -> int:
    """The uint64 words of a row of the model's ``bits``: one bit a Front."""
    return (n_cards * (n_cards - 1) * (n_cards - 2) // 6 + 63) >> 6


def table_kernel(scheme: int, n_cards: int, backs: "int | None" = None):
    """The model's setter, compiled for one scoring ``scheme`` (the rule set's,
    ``mt.params[M_SCHEME]``) and hand size alone: ``set_tables(hands, t, mt, auto, vals,
    masks, estimates, first_deal, end_deal)`` sets every hand ``hands[s, k]`` of
    ``n_cards`` codes of the deals ``first_deal..end_deal-1`` whose ``auto[s, k]`` is 0
    by the arrangement of 13 of its cards with the highest model estimate :func:`_ev`,
    and writes its (front, middle, back) position masks to ``masks[s, k]``, its row
    values to ``vals[s, k]`` and the estimate to ``estimates[s, k]``; other slots are
    left as they are.  Each hand is set
    alone, so a range of deals gets the same settings whichever thread sets it.
    :func:`table_setter` sets one hand.

    ``backs``: None (exact, what the library ships: Numba drops the limit's code, as it
    drops the other schemes' and the other hand size's), or a limit that makes the search
    inexact: only the first ``backs`` Backs that pass the bound with their strongest
    Front and Middle are searched, or more until one holds a legal setting
    (benchmarks/setter_speed.py measures what that saves and what it costs).

    Exact branch and bound: Backs and Middles are visited strongest first (in buckets
    of consecutive ordinals, in position order within a bucket), and a Back, a Middle or
    a whole bucket and every weaker one is skipped when an upper bound of every
    arrangement it could head (:func:`_ev` with R_ENV at the strongest rows it leaves)
    is no better than the best found; the first best found is kept.  A 13-card Back is
    completed by every split of its other 8 cards (its Front is what the Middle leaves),
    after a bound from the strongest bucket that can hold its Middle; where the estimate
    is monotone (M_MONOTONE), the splits the best found dominates row by row are not
    scored.  A 16- or 17-card Back is completed by its Middles in order, each with the
    strongest Front below it that the two leave (the Fronts are sorted fully, so the
    first one disjoint from both is it).  Pruning never drops an arrangement that could
    beat the best found, and ties go as that visiting order meets them, so the result
    does not depend on how fast the search is: tests/test_model.py checks it against an
    exhaustive scan, benchmarks/compare_model.py against an older model.

    Where the time goes, and what made it faster (measured: benchmarks/README.md, "The
    model's kernel: branches, sorts and bounds"): no branch where a test goes either way
    at random (a mispredicted branch costs more than the work it skips), counting sorts
    that place every value before they store it, scratch arrays made once a call.

    The loop over the hands and the search are one kernel: Numba links a kernel's callees
    into it and has LLVM optimise and emit them again there, so a search of its own,
    called by a loop kernel, cost a first run about 0.6 s more (benchmarks/README.md).

    One kernel serves every scheme of one estimate (:func:`_estimate_of`): the rows and
    eastern schemes add up the rows alike, so ``pagat`` and ``classic:eastern`` share
    theirs (a first solve of one after the other compiles no model).

    ``scheme`` :data:`ANY_SCHEME`: the kernel of every scheme of one hand size, which
    reads the scheme from the tables (``mt.params[M_SCHEME]``) and calls the same
    estimate as the scheme's own kernel, so it sets every hand the same way, and about
    as fast; it compiles about 1.5 times as long (benchmarks/details/first-run.md,
    "stand-ins").  A first solve of a rule set whose own kernel is not compiled yet runs it
    instead where it is (solver._warmup, "stand-ins")."""
    return _table_kernel(_ESTIMATE_FAMILY.get(scheme, scheme), n_cards, backs)


# table_kernel's scheme for the kernel of every scheme (one a hand size).
ANY_SCHEME = -1


# The schemes whose estimates are one function (_estimate_of), each to the one whose
# kernel it runs.
_ESTIMATE_FAMILY = {SCHEME_ROWS: SCHEME_EASTERN}


def model_parts(scheme: int) -> "list[tuple]":
    """The callees of :func:`table_kernel`'s kernel for ``scheme`` that a first solve's
    warm-up process compiles while the solving process compiles the kernel itself
    (solver._warmup), as (dispatcher, argument types): Numba compiles a kernel's callees
    first, each into the disk cache, and a kernel being compiled takes a callee that is
    on disk by the time it gets there instead of compiling it (Numba keeps each
    callee's code for linking, so the kernel's machine code is the same either way).
    Those the kernel reaches last come first: the other process starts later.  The
    argument types are those the kernel passes (scratch arrays of its own, the
    hand's group of model tables, the scheme family as a literal; the same for every
    hand size), which tests/test_notice.py checks against a compiled kernel.  A first
    run took 0.89 as long with them (benchmarks/README.md, "The first run")."""
    i64, f64, a64, a32 = types.int64, types.float64, types.int64[::1], types.int32[::1]
    own = typeof(placeholder_model_tables())        # (hand_tables' type: views)
    family = types.literal(_ESTIMATE_FAMILY.get(scheme, scheme))
    return [(_score, (own, i64, i64, a32, a32, i64, i64, f64, a64, family)),
            (_bound, (own, i64, i64, i64, family)),
            (_sort, (a32, a32, a64, i64, a64, i64, i64, i64, a32, a64, a32)),
            (_sort_fully, (a32, a32, a64, i64, i64, a64, a32))]


def model_schemes(scheme: int) -> "tuple[int, ...]":
    """The schemes whose rule sets share ``scheme``'s model kernel (:func:`table_kernel`)."""
    family = _ESTIMATE_FAMILY.get(scheme, scheme)
    return tuple(sorted({family} | {s for s, f in _ESTIMATE_FAMILY.items() if f == family}))


@functools.lru_cache(maxsize=None)
def _table_kernel(scheme: int, n_cards: int, backs: "int | None"):
    """:func:`table_kernel`'s kernels, one a scheme family, hand size and ``backs``."""
    n13, words = n_cards == 13, front_words(n_cards)

    @njit
    def set_tables(hands, t, mt, auto, vals, masks, estimates, first_deal, end_deal):
        # Scratch space, kept from hand to hand, that also tells the hand size: for 13
        # cards ``tab`` (by position mask: the hand's subsets' ordinals) and ``bits``
        # None; for 16 or 17, ``tab`` None and ``bits`` (which Fronts hold each position,
        # 64 a word).  Numba drops the code of the other hand size when it compiles, as
        # it drops the other schemes' (a branch on a constant None is settled then),
        # about a second less of a first run.
        # The scheme: the kernel's own (a literal: Numba compiles its estimate alone), or
        # for the kernel of any scheme (ANY_SCHEME), the tables' (each estimate is
        # then chosen where it is called, by a branch that always goes the same way).
        the_scheme = np.int64(mt.params[M_SCHEME]) if scheme == ANY_SCHEME else scheme
        tab = np.empty(1 << 13, np.uint16) if n13 else None
        bits = None if n13 else np.empty((words, n_cards), np.uint64)
        # Buckets of ordinals: at most 256, each 2 ** shift consecutive ordinals.
        n_ord = t.values.shape[0]
        shift = 0
        while (n_ord >> shift) >= 256:
            shift += 1
        nb = (n_ord >> shift) + 1
        sh = shift + ORD_SHIFT
        n_opp = hands.shape[1]
        # Scratch space, made once for every hand of the call (the sizes depend only on
        # n_cards and the tables).  (np.empty and a fill, here and below: np.zeros would
        # compile two more of Numba's implementations, a tenth of a second of a first run.)
        n3 = n_cards * (n_cards - 1) * (n_cards - 2) // 6
        n5 = n3 * (n_cards - 3) * (n_cards - 4) // 20
        card_words = np.empty(n_cards, np.int64)
        words3 = np.empty(n3, np.int64)
        masks3 = np.empty(n3, np.int64)
        first = np.empty(n_cards + 1, np.int64)
        packed = np.empty(n5, np.int32)          # the 5-card subsets, in position order
        subsets = np.empty(n5, np.int32)         # ... and sorted, as far as sorted_to
        tmp5 = np.empty(n5, np.int32)
        fronts = np.empty(n3, np.int32)          # the 3-card subsets, sorted (below)
        tmp3 = np.empty(n3, np.int32)
        sample = np.empty(nb, np.int64)
        fstart = np.empty(nb + 1, np.int64)
        start = np.empty(nb + 1, np.int64)
        count = np.empty(max(nb, 1 << shift) + 2, np.int64)
        at = np.empty(n5, np.int32)              # (the sorts' places)
        meets = np.empty(words, np.uint64)       # the Fronts meeting the Back
        mpos = np.empty(5, np.int64)             # positions of a Back or Middle
        bpos = np.empty(5, np.int64)
        pos = np.empty(8, np.int64)
        cand_m = np.empty(max(56, BATCH), np.int32)
        cand_f = np.empty(max(56, BATCH), np.int32)
        mids = np.empty(BATCH, np.int32)         # a batch of Middles (16, 17 cards)
        found = np.empty(7, np.int64)            # masks, bucket, ordinals: see _score
        # 13 cards: bits5[w, x], bit j: whether sorted subset 64 w + j holds position x
        # (made as far as the subsets are sorted), for a Back's bound (below).
        bits5 = np.empty(((n5 + 63) >> 6, 13), np.uint64) if n13 else None
        nf = n3
        nw = words                               # words of Front bits (front_words)
        last = (~np.uint64(0) if nf & 63 == 0    # the Fronts of the last word
                else (np.uint64(1) << np.uint64(nf & 63)) - np.uint64(1))
        for hand in range(first_deal * n_opp, end_deal * n_opp):
            deal, seat = hand // n_opp, hand % n_opp
            if auto[deal, seat] != 0:
                continue
            codes = hands[deal, seat]
            own = hand_tables(mt, codes)            # (its group's)
            monotone = own.params[M_MONOTONE] != 0
            _subsets(codes, t, tab, card_words, words3, masks3, first, packed, fronts)
            sample[:] = 0
            for i in range(0, n5, SAMPLE_EVERY):
                sample[nb - 1 - (packed[i] >> sh)] += 1
            # The Fronts in full order, strongest first (equals in position order), so that
            # the first Front a search finds disjoint from some cards is the strongest.
            _sort_fully(fronts, tmp3, fstart, shift, nb, count, at)
            f_star = fronts[0] >> ORD_SHIFT           # the strongest
            start[:] = 0
            sorted_to = _sort(packed, subsets, start, np.int64(0), sample, shift, nb,
                              np.int64(0), tmp5, count, at)
            m_star = np.int64(0)
            for k in range(sorted_to):               # the strongest: in the first bucket
                for p in range(start[k], start[k + 1]):
                    m_star = max(m_star, subsets[p] >> ORD_SHIFT)
                if m_star:
                    break

            # 16 or 17 cards: bits[w, x], bit j: whether Front 64 w + j holds position x, so
            # that the Fronts disjoint from a Back and Middle come 64 at a time.
            if bits is not None:
                bits[:] = 0
                for i in range(nf):
                    m = fronts[i] & POS_MASK
                    while m:
                        bits[i >> 6, np.int64(_lowest_bit(m))] |= np.uint64(1) << np.uint64(i & 63)
                        m &= m - 1
            if bits5 is not None:
                bits5[:] = 0
            bits5_to = 0                             # sorted subsets in bits5
            found[:] = 0
            best = -np.inf
            # Backs ruled out by the bound at this best: the strongest Front left by one of an
            # earlier bucket, and the last one of this bucket.
            rej_prev = rej_here = rej_f = rej_b = -1
            searched = 0                             # Backs past their bound (for ``backs``)
            for k in range(nb):
                if backs is not None:
                    if searched >= backs and best > -np.inf:
                        break
                if k >= sorted_to:
                    sorted_to = _sort(packed, subsets, start, sorted_to, sample, shift, nb, k,
                                      tmp5, count, at)
                lo, hi = start[k], start[k + 1]
                if lo == hi:
                    continue
                rej_prev = max(rej_prev, rej_here)
                rej_here = rej_f = rej_b = -1
                top = min(((nb - k) << shift) - 1, m_star)     # the bucket's strongest
                if _bound(own, min(f_star, top - 1), top, top, the_scheme) <= best:
                    break                     # this bucket and every weaker one
                for p in range(lo, hi):
                    v = subsets[p]
                    mb = v & POS_MASK
                    ob = v >> ORD_SHIFT
                    # The strongest Front the Back leaves: the first disjoint from it (16, 17
                    # cards: 64 Fronts at a time).
                    f_bound = np.int64(0)
                    if tab is not None:
                        q = 0
                        while fronts[q] & mb:         # 8 cards left: there is one
                            q += 1
                        f_bound = fronts[q] >> ORD_SHIFT
                    if bits is not None:
                        x = mb
                        for i in range(5):
                            bpos[i] = np.int64(_lowest_bit(x))
                            x &= x - 1
                        for word in range(nw):
                            free = ~(bits[word, bpos[0]] | bits[word, bpos[1]] | bits[word, bpos[2]]
                                     | bits[word, bpos[3]] | bits[word, bpos[4]])
                            if word == nw - 1:
                                free &= last
                            if free:
                                f_bound = fronts[(word << 6) + np.int64(_lowest_bit(free))] \
                                    >> ORD_SHIFT
                                break
                        if f_bound == 0:
                            continue
                    # The bound with the strongest Middle there is rises with f_bound and ob: a
                    # Back no better than one it ruled out (at this best) is ruled out too.
                    if f_bound <= rej_prev or (f_bound <= rej_f and ob <= rej_b):
                        continue
                    mid = min(m_star, ob)
                    if _bound(own, min(f_bound, mid - 1), mid, ob, the_scheme) <= best:
                        rej_f, rej_b = f_bound, ob
                        rej_here = max(rej_here, f_bound)
                        continue
                    if bits5 is not None:
                        # 13 cards: a tighter bound before the 56 splits.  A Middle is no
                        # stronger than the Back, so it lies in the Back's bucket or after
                        # (in sorted order): its strength is at most the strongest of the
                        # bucket of the first sorted subset from there disjoint from the
                        # Back (64 subsets at a time), or, if none is sorted, of the first
                        # bucket not sorted yet.
                        end5 = start[sorted_to]
                        while bits5_to < end5:
                            x = subsets[bits5_to] & POS_MASK
                            while x:
                                bits5[bits5_to >> 6, np.int64(_lowest_bit(x))] |= \
                                    np.uint64(1) << np.uint64(bits5_to & 63)
                                x &= x - 1
                            bits5_to += 1
                        x = mb
                        for i in range(5):
                            bpos[i] = np.int64(_lowest_bit(x))
                            x &= x - 1
                        m_top = ((nb - sorted_to) << shift) - 1
                        word = lo >> 6
                        free = ~np.uint64(0) << np.uint64(lo & 63)
                        while (word << 6) < end5:
                            free &= ~(bits5[word, bpos[0]] | bits5[word, bpos[1]]
                                      | bits5[word, bpos[2]] | bits5[word, bpos[3]]
                                      | bits5[word, bpos[4]])
                            if free:
                                j = (word << 6) + np.int64(_lowest_bit(free))
                                if j < end5:
                                    m_top = (((subsets[j] >> sh) + 1) << shift) - 1
                                break
                            word += 1
                            free = ~np.uint64(0)
                        mid = min(m_top, ob)
                        if _bound(own, min(f_bound, mid - 1), mid, ob, the_scheme) <= best:
                            continue
                    if backs is not None:
                        if searched >= backs and best > -np.inf:
                            break             # (but not before a setting is found)
                        searched += 1
                    if tab is not None:
                        # The Front is what the Back and Middle leave: every split of the other
                        # 8 cards.  First the strongest legal Middle and Front, for the bound.
                        rest = 0x1FFF ^ mb
                        n_pos = 0
                        for x in range(13):
                            if rest >> x & 1:
                                pos[n_pos] = 1 << x
                                n_pos += 1
                        m_bound = np.int64(0)
                        f_bound = np.int64(0)
                        for i in range(6):
                            for j in range(i + 1, 7):
                                pij = pos[i] | pos[j]
                                for l in range(j + 1, 8):
                                    mf = pij | pos[l]
                                    om = np.int64(tab[rest ^ mf])
                                    of = np.int64(tab[mf])
                                    legal = (of < om) & (om <= ob)
                                    m_bound = max(m_bound, om if legal else 0)
                                    f_bound = max(f_bound, of if legal else 0)
                        if m_bound == 0 or _bound(own, f_bound, m_bound, ob, the_scheme) <= best:
                            continue
                        # The legal splits, Middles in position order (Fronts in reverse order).
                        # Where the estimate is monotone, a split whose Middle and Front are
                        # no stronger than the best setting's, under a Back no stronger than
                        # its Back, cannot beat it, nor replace it on a tie (_score): left out.
                        dom_f = dom_m = np.int64(-1)
                        if monotone and best > -np.inf and ob <= found[6]:
                            dom_f, dom_m = found[4], found[5]
                        n_cand = np.int64(0)
                        # (Trip counts from n_pos: unrolled like the first loop, this one, run
                        # for one Back in six, would only cost compiling time.)
                        for i in range(n_pos - 3, -1, -1):
                            for j in range(n_pos - 2, i, -1):
                                for l in range(n_pos - 1, j, -1):
                                    mf = pos[i] | pos[j] | pos[l]
                                    om = np.int64(tab[rest ^ mf])
                                    of = np.int64(tab[mf])
                                    # (Written whether legal or not, kept if legal: a
                                    # branch here would be mispredicted one time in five.)
                                    cand_m[n_cand] = (om << ORD_SHIFT) | (rest ^ mf)
                                    cand_f[n_cand] = (of << ORD_SHIFT) | mf
                                    n_cand += (of < om) & (om <= ob) & ((of > dom_f)
                                                                        | (om > dom_m))
                        found[3] = -1
                        new = _score(own, ob, mb, cand_m, cand_f, n_cand, shift, best, found,
                                     the_scheme)
                        if new != best:
                            best = new
                            rej_prev = rej_here = rej_f = rej_b = -1
                        continue
                    if bits is None:
                        continue
                    # The strongest Middle: the first subset disjoint from the Back and no
                    # stronger, from its bucket on, and the strongest of that bucket.
                    cap = (ob << ORD_SHIFT) | POS_MASK         # packed values of ordinal <= ob
                    q = lo
                    while True:
                        end = start[sorted_to]
                        while q + FITS <= end:              # FITS subsets at a time, then
                            hits = _fits(subsets, q, mb, cap)   # one at a time
                            if hits:
                                q += np.int64(_lowest_bit(hits))
                                break
                            q += FITS
                        while q < end and (subsets[q] & mb or subsets[q] > cap):
                            q += 1
                        if q < end or sorted_to == nb:
                            break
                        sorted_to = _sort(packed, subsets, start, sorted_to, sample, shift, nb,
                                          sorted_to, tmp5, count, at)
                    if q == start[sorted_to]:
                        continue                               # no Middle
                    km = nb - 1 - (subsets[q] >> sh)
                    m_bound = subsets[q] >> ORD_SHIFT
                    for r in range(q + 1, start[km + 1]):
                        legal = ((subsets[r] & mb) == 0) & (subsets[r] <= cap)
                        m_bound = max(m_bound, (subsets[r] >> ORD_SHIFT) if legal else 0)
                    if _bound(own, min(f_bound, m_bound - 1), m_bound, ob, the_scheme) <= best:
                        continue
                    # The Middles bucket by bucket, each with the strongest Front below it of
                    # those the two leave.
                    found[3] = -1
                    was = best
                    for w in range(nw):
                        meets[w] = (bits[w, bpos[0]] | bits[w, bpos[1]] | bits[w, bpos[2]]
                                    | bits[w, bpos[3]] | bits[w, bpos[4]])
                    while km < nb:
                        if km >= sorted_to:
                            sorted_to = _sort(packed, subsets, start, sorted_to, sample, shift, nb,
                                              km, tmp5, count, at)
                        lo2, hi2 = max(q, start[km]), start[km + 1]
                        km += 1
                        if lo2 == hi2:
                            continue
                        # (The first bucket passes: its strongest is at least m_bound.)
                        m_cap = min(((nb - km + 1) << shift) - 1, ob)   # the bucket's strongest
                        if lo2 != q and _bound(own, min(f_bound, m_cap - 1), m_cap, ob,
                                               the_scheme) <= best:
                            break             # this bucket and every weaker one
                        # The bucket's Middles a batch at a time: first those disjoint from
                        # the Back and no stronger, gathered without a branch (one Middle in
                        # five passes, at random: a branch would be mispredicted often).
                        for p2 in range(lo2, hi2, BATCH):
                            n_mid = 0
                            for p in range(p2, min(p2 + BATCH, hi2)):
                                w = subsets[p]
                                mids[n_mid] = w
                                n_mid += ((w & mb) == 0) & (w <= cap)
                            n_cand = np.int64(0)
                            for j in range(n_mid):
                                w = mids[j]
                                f_cap = (w >> ORD_SHIFT) << ORD_SHIFT    # packed Fronts below it
                                x = w & POS_MASK
                                for i in range(5):
                                    mpos[i] = np.int64(_lowest_bit(x))
                                    x &= x - 1
                                # The strongest Front below the Middle disjoint from both: the
                                # first, from the bucket that holds the Middle's ordinal - 1
                                # (the first of equals in position order, as a scan of the
                                # positions keeps).
                                i = fstart[nb - 1 - (((w >> ORD_SHIFT) - 1) >> shift)]
                                word = i >> 6
                                free = ~np.uint64(0) << np.uint64(i & 63)
                                u = -1
                                while u < 0 and word < nw:
                                    free &= ~(meets[word] | bits[word, mpos[0]]
                                              | bits[word, mpos[1]] | bits[word, mpos[2]]
                                              | bits[word, mpos[3]] | bits[word, mpos[4]])
                                    if word == nw - 1:
                                        free &= last
                                    while free:
                                        x = fronts[(word << 6) + np.int64(_lowest_bit(free))]
                                        free &= free - np.uint64(1)
                                        if x < f_cap:
                                            u = x
                                            break
                                    word += 1
                                    free = ~np.uint64(0)
                                if u < 0:
                                    continue              # no legal Front below this Middle
                                cand_m[n_cand] = w
                                cand_f[n_cand] = u
                                n_cand += 1
                            best = _score(own, ob, mb, cand_m, cand_f, n_cand, shift, best,
                                          found, the_scheme)
                    if best != was:
                        rej_prev = rej_here = rej_f = rej_b = -1
            for r in range(3):
                masks[deal, seat, r] = found[r]
                vals[deal, seat, r] = t.values[found[4 + r]]
            estimates[deal, seat] = best
    return set_tables


def table_setter(scheme: int, n_cards: int, backs: "int | None" = None):
    """One hand set by :func:`table_kernel`: ``f(codes, t, mt)`` -> (front, middle, back
    position masks, estimate)."""
    kernel = table_kernel(scheme, n_cards, backs)

    def set_table(codes, t, mt):
        hands = np.ascontiguousarray(codes, np.int64).reshape(1, 1, n_cards)
        vals = np.empty((1, 1, 3), np.int32)
        masks = np.empty((1, 1, 3), np.int64)
        estimates = np.empty((1, 1))
        kernel(hands, t, mt, np.zeros((1, 1), np.int8), vals, masks, estimates, 0, 1)
        return (int(masks[0, 0, 0]), int(masks[0, 0, 1]), int(masks[0, 0, 2]),
                float(estimates[0, 0]))
    return set_table


# --- building the tables (plain Python, once per field and row tables) -----------------------
def _royalties(rs: RuleSet, row: int, values: np.ndarray) -> np.ndarray:
    """The row's royalty (``row_bonus``, by rank where the rule set says), by value."""
    return royalties_by_value(rs, row, values).astype(np.float64)


def _gain(rs: RuleSet, row: int, values: np.ndarray) -> np.ndarray:
    """Units a won row pays, by value, outside the multiplied terms: 1 a row (pagat,
    western), max(1, bonus) (eastern), the bonus (scoop), row points + bonus (mandarin);
    the general scheme's: row points (or the royalty instead, where it replaces them)
    and the royalty where it is paid when the row wins."""
    bonus = _royalties(rs, row, values)
    if rs.scheme in (SCHEME_ROWS, SCHEME_WESTERN):
        return np.ones(len(values))
    if rs.scheme == SCHEME_EASTERN:
        return np.maximum(1.0, bonus)
    if rs.scheme == SCHEME_SCOOP:
        return bonus
    if rs.scheme == SCHEME_GENERAL and rs.bonus_paid == PAID_ROW_MADE:
        return _points(rs, row, values)               # (royalties: _made)
    return _points(rs, row, values) + bonus


def _points(rs: RuleSet, row: int, values: np.ndarray) -> np.ndarray:
    """Row points of a won row: Front trips score ``front_trips_points`` (mandarin).  In
    the general scheme, the row's ``row_points``, or nothing where a royalty replaces
    them (the royalty is counted as such)."""
    if rs.scheme != SCHEME_GENERAL:
        pts = np.ones(len(values))
    else:
        pts = np.full(len(values), float(rs.row_points[row]))
    if row == 0 and rs.front_trips_points:     # 0: no exception for Front trips
        pts[(values >> CATEGORY_SHIFT) == CATEGORY_INDEX["trips"]] = rs.front_trips_points
    if rs.scheme == SCHEME_GENERAL and rs.bonus_mode == BONUS_REPLACE:
        pts[_royalties(rs, row, values) > 0] = 0.0
    return pts


def _multiplied(rs: RuleSet, row: int, values: np.ndarray) -> np.ndarray:
    """The units of a won row that shots and home runs multiply: its points (mandarin),
    and in the general scheme its royalty too where royalties are multiplied."""
    pts = _points(rs, row, values)
    if rs.scheme == SCHEME_GENERAL and rs.bonus_multiplied:
        pts = pts + _royalties(rs, row, values)
    return pts


def model_tables(field: "Fields", rules: "str | RuleSet", t: RowTables,
                 n_seats: int, key: "GroupKey | None" = None) -> ModelTables:
    """The setter's tables for one field, rule set, seat count and set of row tables; for
    a tuple of fields (one a group of ``key``: by default, of jokers held), theirs
    :func:`stacked`."""
    if not isinstance(field, Field):
        fields = tuple(field)
        return stacked([model_tables(f, rules, t, n_seats) for f in fields],
                       jokers_held(len(fields)) if key is None else key)
    if key is not None and key.groups != 1:
        raise ValueError(f"one field for a key of {key.groups} groups")
    rs = _rules(rules)
    values = t.values.astype(np.int64)
    n_ord = len(values)
    rows = np.zeros((3, n_ord, N_RECORD))
    general = rs.scheme == SCHEME_GENERAL
    points = np.zeros((3, n_ord, 3 if general else 2))
    scoop = rs.scheme == SCHEME_SCOOP or (general and rs.scoop == SCOOP_NO_ROW_LOST)
    for r in range(3):
        v = np.asarray(field.values[r], np.int64)
        w = np.asarray(field.weights[r], np.float64)
        total = w.sum()
        cum = np.concatenate([[0.0], np.cumsum(w)]) / total
        lo = np.searchsorted(v, values, "left")
        hi = np.searchsorted(v, values, "right")
        win, tie = cum[lo], cum[hi] - cum[lo]
        lose = np.maximum(0.0, 1.0 - cum[hi])

        def paid_on_loss(per_value):
            # E[units(their row) ; their row beats ours], by our value.
            c = np.concatenate([[0.0], np.cumsum(per_value * w)]) / total
            return c[-1] - c[hi]

        rows[r, :, R_SEP] = win * _gain(rs, r, values) - paid_on_loss(_gain(rs, r, v))
        if general and rs.bonus_paid == PAID_ROW_MADE:
            # Royalties paid whenever made: ours from each opponent, theirs to each.
            rows[r, :, R_SEP] += _royalties(rs, r, values) - (_royalties(rs, r, v) * w).sum() / total
        rows[r, :, R_P] = win + tie if scoop else win
        rows[r, :, R_Q] = lose + tie if scoop else lose
        points[r, :, PTS_WON] = _multiplied(rs, r, values)
        points[r, :, PTS_LOST] = paid_on_loss(_multiplied(rs, r, v))
    rows[:, 0, R_SEP] = -1e9            # ordinal 0 is no row at all
    rows[:, :, R_ENV] = np.maximum.accumulate(rows[:, :, R_SEP], axis=1)
    if general:
        points[:, :, PTS_ENV] = np.maximum.accumulate(points[:, :, PTS_WON], axis=1)
    k = n_seats - 1
    params = np.zeros(N_PARAMS)
    params[M_SCHEME] = rs.scheme
    params[M_OPPONENTS] = k
    params[M_MAJORITY] = rs.majority_bonus
    params[M_SCOOP] = rs.scoop_units
    params[M_HOME_RUN] = rs.home_run_units
    params[M_Q_OTHER_SCOOP] = field.q_scoop ** (k - 1)
    params[M_SHOT_EXTRA] = rs.shot_multiplier - 1
    params[M_HOME_RUN_EXTRA] = (rs.home_run_multiplier - rs.shot_multiplier) if n_seats == 4 else 0
    params[M_Q_OTHER_SWEEP] = field.q_sweep ** (k - 1)
    if general:
        # Home runs at tables big enough; scoops (and so home runs) by the scoop rule.
        home_runs = n_seats >= max(2, rs.home_run_min_seats)
        params[M_HOME_RUN] = rs.home_run_units if home_runs else 0
        params[M_HOME_RUN_EXTRA] = ((rs.home_run_multiplier - rs.shot_multiplier)
                                    if home_runs else 0)
        q_other = (field.q_scoop if scoop else field.q_sweep) ** (k - 1)
        params[M_Q_OTHER_SCOOP] = params[M_Q_OTHER_SWEEP] = q_other
    elif rs.scheme != SCHEME_MANDARIN:
        points = points[:, :1]
    # float32 keeps the records small; rounding is monotone, so the envelope stays >= the
    # value it bounds.
    rows = np.ascontiguousarray(rows, np.float32)
    params[M_MONOTONE] = _monotone(rs, rows)
    return ModelTables(rows, np.ascontiguousarray(points, np.float32), params,
                       *ONE_GROUP.arrays())


def _monotone(rs: RuleSet, rows: np.ndarray) -> bool:
    """Whether the estimate :func:`_ev` rises (or stays) with every row's ordinal: each
    row's R_SEP never falls (it equals its envelope R_ENV), R_P never falls and R_Q never
    rises, under a scheme whose estimate rises with R_SEP and R_P and falls with R_Q
    (rows and eastern add the rows up, western adds the chance of a majority, scoop the
    chances of scoops; mandarin's shots weigh the chances by row points, so it is left
    out).  Where some row's R_SEP falls somewhere as the row gets stronger (the shipped
    ``joker``, ``bonus`` and eastern models: rows that pay bonus units), it is not.  The
    search's bounds rely on the estimate never exceeding its value at the envelope of
    stronger rows; where the estimate is monotone as well, the 13-card search also skips
    the splits that the best setting found dominates row by row (table_kernel)."""
    if rs.scheme == SCHEME_MANDARIN or min(rs.majority_bonus, rs.scoop_units,
                                           rs.home_run_units) < 0:
        return False
    if rs.scheme == SCHEME_GENERAL and (rs.shot_multiplier != 1
                                        or rs.home_run_multiplier != rs.shot_multiplier):
        return False                     # multiplied units weigh the chances, as mandarin
    body = rows[:, 1:]                   # ordinal 0 is no row at all
    return bool((body[:, :, R_SEP] == body[:, :, R_ENV]).all()
                and (np.diff(body[:, :, R_P], axis=1) >= 0).all()
                and (np.diff(body[:, :, R_Q], axis=1) <= 0).all())


def joker_groups(rules: RuleSet) -> int:
    """How many fields a model of ``rules`` has for a Bonus rank: one for each number of
    jokers a hand can hold (0 .. the deck's jokers), where the deck has jokers; else one.

    Why: the jokers a hand holds are jokers no opponent holds, and a joker makes a row
    much stronger, so the rows that hand meets are weaker than the field's at large.
    The shipped ``joker`` and ``two-jokers`` models have these fields: a best response
    gains about half as much from them as from the models of one field they replaced
    (benchmarks/details/exploitability.md, "the joker fields, shipped")."""
    return min(rules.jokers, rules.cards_dealt) + 1 if rules.jokers else 1


def stacked(tables: "list[ModelTables]", key: GroupKey) -> ModelTables:
    """One ModelTables holding the tables of ``key``'s groups one after the other
    (:class:`ModelTables`)."""
    if len(tables) != key.groups:
        raise ValueError(f"{len(tables)} fields for a key of {key.groups} groups")
    if len(tables) == 1:
        return tables[0]
    return ModelTables(np.ascontiguousarray(np.concatenate([t.rows for t in tables])),
                       np.ascontiguousarray(np.concatenate([t.points for t in tables])),
                       np.concatenate([t.params for t in tables]), *key.arrays())


def field_from_rows(rows: np.ndarray, weights: "np.ndarray | None" = None, *,
                    q_scoop: float, q_sweep: float) -> Field:
    """A Field from an (N, 3) array of row values (one line per hand set)."""
    rows = np.asarray(rows, np.int64)
    w_all = np.ones(len(rows)) if weights is None else np.asarray(weights, np.float64)
    values, weights_out = [], []
    for r in range(3):
        v, inverse = np.unique(rows[:, r], return_inverse=True)
        values.append(v)
        weights_out.append(np.bincount(inverse, weights=w_all, minlength=len(v)))
    return Field(tuple(values), tuple(weights_out), float(q_scoop), float(q_sweep))


def mix_fields(a: Field, b: Field, weight_b: float) -> Field:
    """The field (1 - weight_b) * a + weight_b * b (each normalised first)."""
    values, weights = [], []
    for r in range(3):
        v = np.union1d(a.values[r], b.values[r])
        w = np.zeros(len(v))
        for f, share in ((a, 1.0 - weight_b), (b, weight_b)):
            idx = np.searchsorted(v, f.values[r])
            w[idx] += share * f.weights[r] / f.weights[r].sum()
        values.append(v)
        weights.append(w)
    return Field(tuple(values), tuple(weights),
                 (1 - weight_b) * a.q_scoop + weight_b * b.q_scoop,
                 (1 - weight_b) * a.q_sweep + weight_b * b.q_sweep)


# --- the shipped fields ----------------------------------------------------------------------
def fields_arrays(fields: "dict[int, Fields]", meta: dict,
                  key: "GroupKey | None" = None) -> "dict[str, np.ndarray]":
    """The arrays of a model file: fields (keyed by Bonus rank, -1 where the rule set
    has none; for each, one field a group of ``key``, :class:`GroupKey`), ``meta`` (JSON
    text) and ``key`` unless it is the key of jokers held (the default: files before
    keys were kept are of it).  Group 0's arrays are named as a model of one field's
    were (``b{rank}_values{row}``...), group g's ``b{rank}_j{g}_values{row}``...: a file
    of one field a rank reads as before."""
    arrays = {}
    if key is not None and key != jokers_held(key.groups):
        arrays["key_weights"] = np.array(key.rank_weights + (key.joker_weight,), np.int32)
        arrays["key_cuts"] = np.array(key.cuts, np.float64)
    for rank, groups in fields.items():
        for g, f in enumerate(_as_groups(groups)):
            name = f"b{rank}" + (f"_j{g}" if g else "")
            for r in range(3):
                arrays[f"{name}_values{r}"] = f.values[r].astype(np.int32)
                arrays[f"{name}_weights{r}"] = f.weights[r].astype(np.float64)
            arrays[f"{name}_q"] = np.array([f.q_scoop, f.q_sweep])
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    return arrays


def save_fields(path: Path, fields: "dict[int, Fields]", meta: dict,
                key: "GroupKey | None" = None) -> None:
    """Write fields and their key (as :func:`fields_arrays` keys them) to one .npz."""
    np.savez_compressed(path, **fields_arrays(fields, meta, key))


def load_fields(path: Path) -> "dict[int, tuple[Field, ...]]":
    """The fields of a model file (:func:`save_fields`)."""
    return load_model_file(path)[0]


def load_model_file(path: Path) -> "tuple[dict[int, tuple[Field, ...]], GroupKey]":
    """The fields of a model file and the key of their groups (:func:`save_fields`)."""
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    fields = fields_of_arrays(arrays)
    return fields, key_of_arrays(arrays, fields)


def key_of_arrays(data: "dict[str, np.ndarray]", fields: dict) -> GroupKey:
    """The key of the groups of ``fields``, the fields held in the arrays ``data`` of a
    model file (:func:`fields_arrays`): the one they keep, else jokers held."""
    groups = {len(g) for g in fields.values()}
    if len(groups) != 1:
        raise ValueError(f"Bonus ranks with different numbers of groups: {sorted(groups)}")
    groups = groups.pop()
    if "key_weights" not in data:
        return jokers_held(groups)
    weights, cuts = data["key_weights"], data["key_cuts"]
    if (weights.shape != (14,) or cuts.ndim != 1 or len(cuts) != groups - 1
            or (np.diff(cuts) <= 0).any()):
        raise ValueError(f"a key of {weights.shape} weights and {cuts.shape} cuts for "
                         f"{groups} groups")
    return GroupKey(tuple(int(w) for w in weights[:13]), int(weights[13]),
                    tuple(float(c) for c in cuts))


def fields_of_arrays(data: "dict[str, np.ndarray]") -> "dict[int, tuple[Field, ...]]":
    """The fields held in the arrays of a model file (:func:`fields_arrays`): by Bonus
    rank, a tuple of one field a group."""
    keys = set()
    for name in data:
        if name.startswith("b") and name.endswith("_q"):
            parts = name[1:-2].split("_j")
            keys.add((int(parts[0]), int(parts[1]) if len(parts) > 1 else 0))
    out = {}
    for rank in sorted({rank for rank, _ in keys}):
        groups = sorted(g for r, g in keys if r == rank)
        if groups != list(range(len(groups))):
            raise ValueError(f"the fields of Bonus rank {rank} skip a group: {groups}")
        out[rank] = tuple(_field_of(data, f"b{rank}" + (f"_j{g}" if g else ""))
                          for g in groups)
    return out


def _field_of(data, name: str) -> Field:
    return Field(tuple(data[f"{name}_values{r}"].astype(np.int64) for r in range(3)),
                 tuple(data[f"{name}_weights{r}"] for r in range(3)),
                 float(data[f"{name}_q"][0]), float(data[f"{name}_q"][1]))


# A rank's fields: one Field (a model of one field), or one a group (GroupKey).
Fields = "Field | tuple[Field, ...]"


def _as_groups(fields) -> "tuple[Field, ...]":
    return (fields,) if isinstance(fields, Field) else tuple(fields)


class TableModel:
    """An opponent model: the table setter (:func:`table_kernel`) fitted to a field.

    ``fields`` maps the Bonus rank (``bonus``) or -1 to a :class:`Field`, or to a tuple
    of them, one for each group of hands by ``key`` (:class:`GroupKey`; by default, the
    number of jokers a hand holds; kept as tuples, ``fields[rank][g]``).  The tables for
    a set of row tables are built on first use and kept.  :meth:`shipped` is the
    library's default for a rule set and seat count; :mod:`solver.policy_training` makes
    others.  Picklable (the cached tables are not pickled)."""

    def __init__(self, rules: "str | RuleSet", n_seats: int, fields: "dict[int, Field]",
                 name: str = "table", key: "GroupKey | None" = None):
        self.rules = _rules(rules)
        self.n_seats = int(n_seats)
        self.fields = {rank: _as_groups(f) for rank, f in fields.items()}
        self.name = name
        groups = {len(g) for g in self.fields.values()}
        if not groups:
            raise ValueError("a model needs a field")
        if len(groups) != 1:
            raise ValueError(f"Bonus ranks with different numbers of groups: {sorted(groups)}")
        self.key = jokers_held(groups.pop()) if key is None else key
        if self.key.groups != len(next(iter(self.fields.values()))):
            raise ValueError(f"{len(next(iter(self.fields.values())))} fields a rank for "
                             f"a key of {self.key.groups} groups")
        self._tables: dict = {}

    @classmethod
    def shipped(cls, rules: "str | RuleSet", n_seats: int) -> "TableModel":
        """The library's model for a rule set and seat count: the file shipped in
        ``solver/data/`` for a rule set whose content is a built-in one's (whatever its
        name), else the one trained for it by self-play and kept in the cache folder,
        trained first if there is none (:func:`solver.train_model`)."""
        rs = _rules(rules)
        return _shipped_model(rs, model_seats(rs, n_seats), n_seats)

    def tables(self, bonus_rank: int = -1) -> ModelTables:
        """ModelTables over the row tables of this rule set and Bonus rank (every
        group's, :func:`stacked`)."""
        mt = self._tables.get(bonus_rank)
        if mt is None:
            from .tables import row_tables
            if bonus_rank not in self.fields:
                raise ValueError(f"model {self.name!r} has no field for Bonus rank "
                                 f"{bonus_rank}")
            mt = model_tables(self.fields[bonus_rank], self.rules,
                              row_tables(self.rules, bonus_rank), self.n_seats, self.key)
            self._tables[bonus_rank] = mt
        return mt

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_tables"] = {}
        return state

    def __repr__(self) -> str:
        return f"TableModel({self.rules.name!r}, {self.n_seats} seats, {self.name!r})"


def model_seats(rules: RuleSet, n_seats: int) -> int:
    """The seat count a model is trained for, or 0 when the setter does not depend on it.

    Scored pair by pair with nothing won across the table (pagat, western, eastern, and
    mandarin below four seats, where home runs do not exist), a hand's expected score is
    the number of opponents times its score against one, so the best setting -- and
    the self-play field -- is the same at every table size."""
    if rules.scheme == SCHEME_SCOOP or (rules.scheme == SCHEME_MANDARIN and n_seats == 4):
        return n_seats
    if (rules.scheme == SCHEME_GENERAL and n_seats >= rules.home_run_min_seats
            and (rules.home_run_units or rules.home_run_multiplier != rules.shot_multiplier)):
        return n_seats                   # a home run is won across the table
    return 0


def seats_suffix(seats_key: int) -> str:
    """How a model file's name says the seats it is for (:func:`model_seats`)."""
    return f"{seats_key}seats" if seats_key else "any-seats"


def model_file(rules: RuleSet, seats_key: int) -> Path:
    """The shipped model file of a built-in rule set (it may not exist)."""
    return DATA / f"model-{rules.name.replace(':', '-')}-{seats_suffix(seats_key)}.npz"


# --- which model a rule set gets --------------------------------------------------------------
def rules_digest(rules: "str | RuleSet") -> str:
    """:attr:`RuleSet.digest <solver.rules.RuleSet.digest>` of a rule set or its name: the
    same for two rule sets that play the same game, whatever their names.  A model
    trained for a rule set is kept under it, so a changed rule set gets a model of its own.

    >>> rules_digest("classic") == rules_digest("classic:western") != rules_digest("pagat")
    True
    """
    return _rules(rules).digest


@functools.lru_cache(maxsize=256)
def shipped_twin(rules: RuleSet, seats_key: int) -> "RuleSet | None":
    """The built-in rule set with the same content as ``rules`` (:func:`rules_digest`)
    and a model shipped for ``seats_key`` seats, or None.  (Kept: every solve of a
    52-card rule set asks, solver.pool.applies.)"""
    digest = rules_digest(rules)
    for name in RULE_SET_NAMES:
        builtin = _rules(name)
        if rules_digest(builtin) == digest and model_file(builtin, seats_key).exists():
            return builtin
    return None


# Who trains the model of a rule set that has none: solver.training registers itself
# here when the package is imported.  (It plays hands with solver.policy, which sits on
# this module: this module cannot import it.)
_trainer: "Callable[[RuleSet, int], TableModel] | None" = None


def set_trainer(train: "Callable[[RuleSet, int], TableModel]") -> None:
    """Make ``train(rules, n_seats)`` the way a rule set without a shipped model gets
    one (:mod:`solver.training` calls this)."""
    global _trainer
    _trainer = train


@functools.lru_cache(maxsize=None)
def _shipped_model(rules: RuleSet, seats_key: int, n_seats: int) -> TableModel:
    twin = shipped_twin(rules, seats_key)
    if twin is not None:
        fields, key = load_model_file(model_file(twin, seats_key))
        return TableModel(rules, n_seats, fields, name="table", key=key)
    if _trainer is None:
        raise FileNotFoundError(f"no opponent model for {rules.name} with {n_seats} seats; "
                                f"train one with python3 -m solver train")
    return _trainer(rules, n_seats)
