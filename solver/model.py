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
branch and bound over the hand's 5-card subsets (:func:`table_set`).

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

The estimate ignores card removal (our own cards change the opponents' distribution)
and the correlation of an opponent's rows; :func:`solver.solve` does not: it settles
each sampled deal exactly.  The model only has to say how opponents set their hands.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ._jit import njit
from .rules import (CATEGORIES, CATEGORY_INDEX, SCHEME_EASTERN, SCHEME_MANDARIN, SCHEME_ROWS,
                    SCHEME_SCOOP, SCHEME_WESTERN, RuleSet, rule_set as _rules)
from .search import best_front_below, five_subsets, fronts_by_positions
from .tables import CATEGORY_SHIFT, RowTables

DATA = Path(__file__).parent / "data"
N_CATEGORIES = len(CATEGORIES)

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
# Mandarin's row points, in ModelTables.points (other schemes do not read it).
PTS_WON = 0        # the row points we get when we win the row (Front trips 3, else 1)
PTS_LOST = 1       # E[their row points; they win the row]

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
N_PARAMS = 9


class ModelTables(NamedTuple):
    """What the jitted setter needs: ``rows[r, o, R_*]``, the record of row r (0 Front,
    1 Middle, 2 Back) with ordinal o of one RowTables; ``points[r, o, PTS_*]``
    (mandarin); the ``M_*`` scalars."""
    rows: np.ndarray     # float32[3, n_ordinals + 1, N_RECORD]
    points: np.ndarray   # float32[3, n_ordinals + 1, 2] (mandarin; else [3, 1, 2])
    params: np.ndarray   # float64[N_PARAMS]


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


@njit(inline="always")
def _ev(mt, of, om, ob, sep):
    """Model estimate of our score for rows with ordinals (of, om, ob) against the
    table's opponents, each opponent's rows drawn independently from the field.

    ``sep`` is R_SEP for the estimate, or R_ENV for an upper bound (every other term
    rises with each row's strength)."""
    rows, params = mt.rows, mt.params
    f = rows[0, of]
    m = rows[1, om]
    b = rows[2, ob]
    k = params[M_OPPONENTS]
    s = np.float64(f[sep]) + m[sep] + b[sep]
    scheme = params[M_SCHEME]
    if scheme == SCHEME_WESTERN:
        wins2 = _two_or_more(np.float64(f[R_P]), m[R_P], b[R_P])
        losses2 = _two_or_more(np.float64(f[R_Q]), m[R_Q], b[R_Q])
        return k * (s + params[M_MAJORITY] * (wins2 - losses2))
    if scheme == SCHEME_SCOOP:
        ours = np.float64(f[R_P]) * m[R_P] * b[R_P]
        theirs = np.float64(f[R_Q]) * m[R_Q] * b[R_Q]
        home_run = params[M_HOME_RUN] * k * (ours ** k - theirs * params[M_Q_OTHER_SCOOP])
        return k * (s + params[M_SCOOP] * (ours - theirs)) + home_run
    if scheme == SCHEME_MANDARIN:
        pf, pm, pb = mt.points[0, of], mt.points[1, om], mt.points[2, ob]
        sweep = np.float64(f[R_P]) * m[R_P] * b[R_P]
        points = np.float64(pf[PTS_WON]) + pm[PTS_WON] + pb[PTS_WON]
        l0, l1, l2 = np.float64(f[R_Q]), np.float64(m[R_Q]), np.float64(b[R_Q])
        swept = pf[PTS_LOST] * l1 * l2 + pm[PTS_LOST] * l0 * l2 + pb[PTS_LOST] * l0 * l1
        shots = params[M_SHOT_EXTRA] * (sweep * points - swept)
        home_run = params[M_HOME_RUN_EXTRA] * (points * sweep ** k
                                               - swept * params[M_Q_OTHER_SWEEP])
        return k * (s + shots + home_run)
    return k * s                      # rows, eastern: the rows add up


# --- the setter (jitted) ---------------------------------------------------------------------
@njit
def _by_ordinal_desc(ords, n_ordinals):
    """The indices of ``ords`` in (nearly) descending order, by a one-pass counting sort
    into at most 256 buckets of consecutive ordinals: ``(order, bucket_start,
    bucket_max, shift)``, bucket 0 the strongest, bucket k holding ordinals o with
    ``o >> shift == n_buckets - 1 - k``.  Within a bucket the order is arbitrary; the
    branch and bound bounds a bucket by its strongest member."""
    shift = 0
    while (n_ordinals >> shift) >= 256:
        shift += 1
    nb = (n_ordinals >> shift) + 1
    start = np.zeros(nb + 1, np.int64)
    bmax = np.zeros(nb, np.int64)
    for i in range(ords.shape[0]):
        k = nb - 1 - (ords[i] >> shift)
        start[k + 1] += 1
        if ords[i] > bmax[k]:
            bmax[k] = ords[i]
    for k in range(nb):
        start[k + 1] += start[k]
    fill = start[:nb].copy()
    order = np.empty(ords.shape[0], np.int64)
    for i in range(ords.shape[0]):
        k = nb - 1 - (ords[i] >> shift)
        order[fill[k]] = i
        fill[k] += 1
    return order, start, bmax, shift


@njit(inline="always")
def _best_disjoint(used, masks, order, start, bmax):
    """An upper bound of the strongest subset disjoint from ``used``: the top of the
    first bucket holding one (0 when none is)."""
    for k in range(bmax.shape[0]):
        for p in range(start[k], start[k + 1]):
            if masks[order[p]] & used == 0:
                return bmax[k]
    return 0


@njit
def _search_back(b, masks5, ords5, order, start, bmax, shift, full, n, by_pos, f_bound,
                 pos, mt, best, best_masks):
    """Improve ``best`` (returned) and ``best_masks`` with the arrangements whose Back is
    subset ``b``: Middles strongest first (bucket by bucket), skipping those that even
    with the strongest Front the Back leaves (``f_bound``) cannot beat ``best``, and
    stopping at the first bucket that cannot."""
    mb = masks5[b]
    ob = ords5[b]
    nb = bmax.shape[0]
    for k in range(nb - 1 - (ob >> shift), nb):
        lo, hi = start[k], start[k + 1]
        if lo == hi:
            continue
        cap = min(bmax[k], ob)
        if _ev(mt, min(f_bound, cap - 1), cap, ob, R_ENV) <= best:
            break                     # this bucket and every weaker one
        for p in range(lo, hi):
            i = order[p]
            mm = masks5[i]
            om = ords5[i]
            if mm & mb or om > ob:
                continue
            if _ev(mt, min(f_bound, om - 1), om, ob, R_ENV) <= best:
                continue
            of, mf = best_front_below(full ^ mb ^ mm, om, n, by_pos, pos)
            if of == 0:
                continue
            ev = _ev(mt, of, om, ob, R_SEP)
            if ev > best:
                best = ev
                best_masks[0] = mf
                best_masks[1] = mm
                best_masks[2] = mb
    return best


@njit
def table_set(codes, t, mt):
    """(front, middle, back) position masks of the arrangement of 13 of ``codes`` with
    the highest model estimate :func:`_ev`, and that estimate.

    Exact branch and bound: Backs and Middles are visited strongest first (in buckets
    of consecutive ordinals), and a subset -- or a whole bucket and every weaker one --
    is skipped when an upper bound of every arrangement it could head (:func:`_ev` with
    R_ENV, the strongest Middle the hand has and the strongest Front the Back leaves) is
    no better than the best found."""
    n = codes.shape[0]
    full = (1 << n) - 1
    n_ord = t.values.shape[0]
    masks5, ords5 = five_subsets(codes, t)
    order, start, bmax, shift = _by_ordinal_desc(ords5, n_ord)
    by_pos, masks3, ords3 = fronts_by_positions(codes, t)
    order3, start3, bmax3, _ = _by_ordinal_desc(ords3, n_ord)
    m_star = _best_disjoint(0, masks5, order, start, bmax)
    f_star = _best_disjoint(0, masks3, order3, start3, bmax3)
    pos = np.empty(n, np.int64)
    best_masks = np.zeros(3, np.int64)
    best = -np.inf
    for k in range(bmax.shape[0]):
        lo, hi = start[k], start[k + 1]
        if lo == hi:
            continue
        mid = min(m_star, bmax[k])
        if _ev(mt, min(f_star, mid - 1), mid, bmax[k], R_ENV) <= best:
            break
        for p in range(lo, hi):
            b = order[p]
            ob = ords5[b]
            mid = min(m_star, ob)
            if _ev(mt, min(f_star, mid - 1), mid, ob, R_ENV) <= best:
                continue
            f_bound = _best_disjoint(masks5[b], masks3, order3, start3, bmax3)
            if _ev(mt, min(f_bound, mid - 1), mid, ob, R_ENV) <= best:
                continue
            best = _search_back(b, masks5, ords5, order, start, bmax, shift, full, n,
                                by_pos, f_bound, pos, mt, best, best_masks)
    return best_masks[0], best_masks[1], best_masks[2], best


# --- building the tables (plain Python, once per field and row tables) -----------------------
def _gain(rs: RuleSet, row: int, values: np.ndarray) -> np.ndarray:
    """Units a won row pays, by value, outside the multiplied terms: 1 a row (pagat,
    western), max(1, bonus) (eastern), the bonus (scoop), row points + bonus (mandarin)."""
    cats = np.clip(values >> CATEGORY_SHIFT, 0, N_CATEGORIES - 1)
    bonus = np.array(rs.row_bonus[row], np.float64)[cats]
    if rs.scheme in (SCHEME_ROWS, SCHEME_WESTERN):
        return np.ones(len(values))
    if rs.scheme == SCHEME_EASTERN:
        return np.maximum(1.0, bonus)
    if rs.scheme == SCHEME_SCOOP:
        return bonus
    return _points(rs, row, values) + bonus


def _points(rs: RuleSet, row: int, values: np.ndarray) -> np.ndarray:
    """Mandarin row points of a won row: Front trips score ``front_trips_points``."""
    pts = np.ones(len(values))
    if row == 0:
        pts[(values >> CATEGORY_SHIFT) == CATEGORY_INDEX["trips"]] = rs.front_trips_points
    return pts


def model_tables(field: Field, rules: "str | RuleSet", t: RowTables, n_seats: int) -> ModelTables:
    """The setter's tables for one field, rule set, seat count and set of row tables."""
    rs = _rules(rules)
    values = t.values.astype(np.int64)
    n_ord = len(values)
    rows = np.zeros((3, n_ord, N_RECORD))
    points = np.zeros((3, n_ord, 2))
    scoop = rs.scheme == SCHEME_SCOOP
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
        rows[r, :, R_P] = win + tie if scoop else win
        rows[r, :, R_Q] = lose + tie if scoop else lose
        points[r, :, PTS_WON] = _points(rs, r, values)
        points[r, :, PTS_LOST] = paid_on_loss(_points(rs, r, v))
    rows[:, 0, R_SEP] = -1e9            # ordinal 0 is no row at all
    rows[:, :, R_ENV] = np.maximum.accumulate(rows[:, :, R_SEP], axis=1)
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
    if rs.scheme != SCHEME_MANDARIN:
        points = points[:, :1]
    # float32 keeps the records small; rounding is monotone, so the envelope stays >= the
    # value it bounds.
    return ModelTables(np.ascontiguousarray(rows, np.float32),
                       np.ascontiguousarray(points, np.float32), params)


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
def save_fields(path: Path, fields: "dict[int, Field]", meta: dict) -> None:
    """Write fields (keyed by Bonus rank, -1 where the rule set has none) to one .npz."""
    arrays = {}
    for rank, f in fields.items():
        for r in range(3):
            arrays[f"b{rank}_values{r}"] = f.values[r].astype(np.int32)
            arrays[f"b{rank}_weights{r}"] = f.weights[r].astype(np.float64)
        arrays[f"b{rank}_q"] = np.array([f.q_scoop, f.q_sweep])
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    np.savez_compressed(path, **arrays)


def load_fields(path: Path) -> "dict[int, Field]":
    with np.load(path) as data:
        ranks = sorted({int(k[1:].split("_")[0]) for k in data.files if k.startswith("b")})
        return {rank: Field(tuple(data[f"b{rank}_values{r}"].astype(np.int64) for r in range(3)),
                            tuple(data[f"b{rank}_weights{r}"] for r in range(3)),
                            float(data[f"b{rank}_q"][0]), float(data[f"b{rank}_q"][1]))
                for rank in ranks}


class TableModel:
    """An opponent model: the table setter (:func:`table_set`) fitted to a field.

    ``fields`` maps the Bonus rank (``bonus``) or -1 to a :class:`Field`.  The tables
    for a set of row tables are built on first use and kept.  :meth:`shipped` is the
    library's default for a rule set and seat count; :mod:`solver.policy_training` makes
    others.  Picklable (the cached tables are not pickled)."""

    def __init__(self, rules: "str | RuleSet", n_seats: int, fields: "dict[int, Field]",
                 name: str = "table"):
        self.rules = _rules(rules)
        self.n_seats = int(n_seats)
        self.fields = dict(fields)
        self.name = name
        self._tables: dict = {}

    @classmethod
    def shipped(cls, rules: "str | RuleSet", n_seats: int) -> "TableModel":
        rs = _rules(rules)
        return _shipped_model(rs, model_seats(rs, n_seats), n_seats)

    def tables(self, bonus_rank: int = -1) -> ModelTables:
        """ModelTables over the row tables of this rule set and Bonus rank."""
        mt = self._tables.get(bonus_rank)
        if mt is None:
            from .tables import row_tables
            if bonus_rank not in self.fields:
                raise ValueError(f"model {self.name!r} has no field for Bonus rank "
                                 f"{bonus_rank}")
            mt = model_tables(self.fields[bonus_rank], self.rules,
                              row_tables(self.rules, bonus_rank), self.n_seats)
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
    return 0


def model_file(rules: RuleSet, seats_key: int) -> Path:
    suffix = f"{seats_key}seats" if seats_key else "any-seats"
    return DATA / f"model-{rules.name.replace(':', '-')}-{suffix}.npz"


@functools.lru_cache(maxsize=None)
def _shipped_model(rules: RuleSet, seats_key: int, n_seats: int) -> TableModel:
    path = model_file(rules, seats_key)
    if not path.exists():
        raise FileNotFoundError(f"no opponent model for {rules.name} with {n_seats} seats "
                                f"({path.name}); run python -m solver.policy_training")
    return TableModel(rules, n_seats, load_fields(path), name="table")
