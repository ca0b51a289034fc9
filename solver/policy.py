"""Opponent policies: how each sampled opponent sets its hand (jitted, fast).

The default policy, :func:`field_policy`, is a real setter.  It builds a short list of
sensible candidates -- for each of the strongest Back categories the hand can make, the
strongest Back of that category; with it, for each of the strongest Middle categories the
remaining cards can make (no stronger than the Back), the strongest such Middle; and the
strongest Front below that Middle -- and keeps the one that scores best, under the rule
set's own settlement core, against a *reference field*: a few deals' worth of opponent
settings learned by self-play (:mod:`solver.policy_training`, shipped in
``solver/data/``).  Weakening the Back to save a Middle, or the Middle to keep a pair in
the Front, is thus judged by what such a move earns against realistic rows, bonuses and
scoops included.

:func:`strongest_back_first` is the simple baseline: the strongest Back, then the
strongest Middle and Front of what is left (always legal).
"""
from __future__ import annotations

import functools
import threading
from pathlib import Path

import numpy as np
from ._jit import in_ranges, njit, runnable, stand_in
from .autowin import best_kind, best_kind_any
from .kernels import ordinal3, ordinal5
from .model import (ANY_SCHEME, M_OPPONENTS, M_SCHEME, TableModel, model_parts, model_seats,
                    placeholder_model_tables, table_kernel, table_setter)
from .rules import RuleSet, cache_name
from .scoring import (AUTO_SURRENDER, P_AUTO_ANY_DECK, P_AUTO_WILD, P_SCHEME,
                      P_SURRENDER_COST, auto_order, row_bonus, seat_score)
from .search import cards_of_mask, five_subsets, three_subsets
from .tables import CATEGORY_SHIFT, placeholder_tables

DATA = Path(__file__).parent / "data"
BACK_CATEGORIES = 3      # Back candidates: the strongest of each of this many categories
MIDDLE_CATEGORIES = 3    # Middle candidates per Back, likewise


@njit
def _best_front_below(masks3, ords3, used, cap):
    """Index of the strongest 3-subset disjoint from ``used`` with ordinal < cap, or -1."""
    best = -1
    best_ord = -1
    for i in range(ords3.shape[0]):
        if masks3[i] & used == 0 and ords3[i] < cap and ords3[i] > best_ord:
            best_ord = ords3[i]
            best = i
    return best


@njit
def _best_by_category(masks5, ords5, cats5, used, cap, out_idx):
    """For each category, the strongest 5-subset disjoint from ``used`` with ordinal <=
    cap (index into masks5, or -1); fills out_idx[16]."""
    out_idx[:] = -1
    for i in range(ords5.shape[0]):
        o = ords5[i]
        if masks5[i] & used or o > cap:
            continue
        c = cats5[i]
        if out_idx[c] == -1 or ords5[out_idx[c]] < o:
            out_idx[c] = i


@njit
def strongest_back_first(codes, t):
    """(front, middle, back) position masks: the strongest Back, then Middle, then Front."""
    masks5, ords5 = five_subsets(codes, t)
    masks3, ords3 = three_subsets(codes, t)
    b = np.argmax(ords5)
    m = -1
    for i in range(ords5.shape[0]):
        if masks5[i] & masks5[b] == 0 and (m == -1 or ords5[i] > ords5[m]):
            m = i
    f = _best_front_below(masks3, ords3, masks5[b] | masks5[m], 1 << 30)
    return masks3[f], masks5[m], masks5[b]


@njit
def field_policy(codes, t, params, field, n_seats):
    """(front, middle, back) position masks chosen against the reference ``field``
    (an (R, n_seats - 1, 3) array of opponents' row values); see the module docstring."""
    masks5, ords5 = five_subsets(codes, t)
    masks3, ords3 = three_subsets(codes, t)
    cats5 = t.values[ords5] >> CATEGORY_SHIFT
    backs = np.empty(16, np.int64)
    middles = np.empty(16, np.int64)
    _best_by_category(masks5, ords5, cats5, 0, 1 << 30, backs)
    # The candidates: (front, middle, back) values and masks.
    n_max = BACK_CATEGORIES * MIDDLE_CATEGORIES
    cand_vals = np.empty((n_max, 3), np.int32)
    cand_masks = np.empty((n_max, 3), np.int64)
    n_cand = 0
    n_back = 0
    for cb in range(15, -1, -1):
        b = backs[cb]
        if b == -1:
            continue
        n_back += 1
        if n_back > BACK_CATEGORIES:
            break
        _best_by_category(masks5, ords5, cats5, masks5[b], ords5[b], middles)
        n_mid = 0
        for cm in range(15, -1, -1):
            m = middles[cm]
            if m == -1:
                continue
            n_mid += 1
            if n_mid > MIDDLE_CATEGORIES:
                break
            f = _best_front_below(masks3, ords3, masks5[b] | masks5[m], ords5[m])
            if f == -1:
                continue
            cand_vals[n_cand, 0] = t.values[ords3[f]]
            cand_vals[n_cand, 1] = t.values[ords5[m]]
            cand_vals[n_cand, 2] = t.values[ords5[b]]
            cand_masks[n_cand, 0] = masks3[f]
            cand_masks[n_cand, 1] = masks5[m]
            cand_masks[n_cand, 2] = masks5[b]
            n_cand += 1
    if n_cand == 0:
        return strongest_back_first(codes, t)
    # Score against the field only the candidates no other candidate dominates (see
    # solver.search: a dominated one never scores more), in their order.
    vals = np.empty((n_seats, 3), np.int32)
    best_score = -(1 << 60)
    best = 0
    for i in range(n_cand):
        if _dominated_candidate(cand_vals, n_cand, i, params):
            continue
        for k in range(3):
            vals[0, k] = cand_vals[i, k]
        score = 0
        for r in range(field.shape[0]):
            for s in range(1, n_seats):
                for k in range(3):
                    vals[s, k] = field[r, s - 1, k]
            score += seat_score(vals, 0, 0, n_seats, 0, params,    # no fouls, no autos
                                params[P_SCHEME])
        if score > best_score:
            best_score = score
            best = i
    return cand_masks[best, 0], cand_masks[best, 1], cand_masks[best, 2]


@njit
def _dominated_candidate(cand_vals, n_cand, i, params):
    """Another candidate is at least as strong and earns at least as much bonus in every
    row (and differs, or comes first when equal)."""
    for j in range(n_cand):
        if j == i:
            continue
        ok = True
        same = True
        for r in range(3):
            vj = cand_vals[j, r]
            vi = cand_vals[i, r]
            if vj < vi or row_bonus(params, r, vj) < row_bonus(params, r, vi):
                ok = False
                break
            if vj != vi:
                same = False
        if ok and (not same or j < i):
            return True
    return False


def field_name(rules: RuleSet, n_seats: int) -> str:
    return f"field-{cache_name(rules)}-{n_seats}seats.npy"


@functools.lru_cache(maxsize=None)
def reference_field(rules: RuleSet, n_seats: int) -> np.ndarray:
    """The shipped self-play field of a rule set and seat count, an (R, n_seats - 1, 3)
    int32 array of row values; rebuilt by ``python -m solver.policy_training``.

    Row values are those of the rule set's tables with no Bonus rank (``bonus`` fields
    are trained with a random cut card per deal, so bonus categories appear in them)."""
    path = DATA / field_name(rules, n_seats)
    if not path.exists():
        raise FileNotFoundError(f"no reference field for {rules.name} with {n_seats} seats "
                                f"({path.name}); run python -m solver.policy_training")
    return np.load(path)


# --- the built-in policies, many hands at a time ---------------------------------------------
# Policies by code, for the kernels that set many hands (solve's opponents, self-play).
POLICY_TABLE = 0      # solver.model.table_kernel: the default opponent model
POLICY_FIELD = 1      # field_policy: the model before the table setter (kept to compare)
POLICY_SBF = 2        # strongest_back_first


def set_hand(codes, t, kind, mt, params, field, n_seats):
    """(front, middle, back) position masks of one hand set by built-in policy ``kind``."""
    if kind == POLICY_TABLE:
        f, m, b, _ = table_setter(int(mt.params[M_SCHEME]), len(codes))(codes, t, mt)
        return f, m, b
    if kind == POLICY_FIELD:
        return field_policy(codes, t, params, field, n_seats)
    return strongest_back_first(codes, t)


def set_hands(hands, t, kind, mt, params, field, n_seats, detect_auto):
    """Row values, automatic-win codes (0, a special's, or ``AUTO_SURRENDER``) and row
    position masks of many hands set by built-in policy ``kind``.  hands: (S, k, dealt)
    card codes.  With ``detect_auto``, a hand holding an automatic win declares it (a
    sensible player does) and is not set.  Where the rule set lets a player surrender,
    the model (``POLICY_TABLE``) surrenders a hand whose best setting it estimates at
    less than the surrender costs: its estimate against the field (``estimates`` of
    :func:`solver.model.table_kernel`) below ``-surrender_cost`` units an opponent (the
    hand is still set: its rows are in ``vals`` and ``masks``; docs/rules.md#surrender).
    The deals are shared out between threads (:func:`solver._jit.in_ranges`); each hand
    is set alone, so the result does not depend on the number of threads."""
    S, n_opp = hands.shape[0], hands.shape[1]
    vals = np.zeros((S, n_opp, 3), np.int32)
    auto = np.zeros((S, n_opp), np.int8)
    masks = np.zeros((S, n_opp, 3), np.int64)
    work = S * n_opp
    if detect_auto:
        order = auto_order(params)
        if params[P_AUTO_ANY_DECK]:
            declared = runnable(_declared_automatic_wins_any)
            wild = bool(params[P_AUTO_WILD])
            in_ranges(lambda a, b: declared(hands, auto, order, wild, a, b), S, work / 8)
        else:
            declared = runnable(_declared_automatic_wins)   # (as Python on a first solve)
            in_ranges(lambda a, b: declared(hands, auto, order, a, b), S, work / 8)
    run = _policy_runner(kind, t, mt, params, field, n_seats, hands.shape[2])
    cost = int(params[P_SURRENDER_COST])
    if cost and kind == POLICY_TABLE:
        estimates = np.empty((S, n_opp))
        in_ranges(lambda a, b: run(hands, auto, vals, masks, a, b, estimates), S, work)
        # The estimate is of the whole table (M_OPPONENTS opponents); surrendering pays
        # each of them.  (Set hands only: a declared special never surrenders.)
        opponents = float(mt.params[M_OPPONENTS])
        auto[(auto == 0) & (estimates < -cost * opponents)] = AUTO_SURRENDER
    else:
        in_ranges(lambda a, b: run(hands, auto, vals, masks, a, b), S, work)
    return vals, auto, masks


def _kernel_call(kind, t, mt, params, field, n_seats, n_cards):
    """(kernel, arguments) of policy ``kind``: its jitted kernel (the model's found once
    for the scheme and hand size) and ``arguments(hands, auto, vals, masks, estimates,
    start, stop)``, the kernel's arguments for the deals start..stop-1 with the others
    bound (``estimates``, the model's own, is passed to the model's kernel only)."""
    if kind == POLICY_TABLE:
        def arguments(hands, auto, vals, masks, estimates, start, stop):
            return hands, t, mt, auto, vals, masks, estimates, start, stop
        return model_kernel(int(mt.params[M_SCHEME]), n_cards), arguments
    if kind == POLICY_FIELD:
        def arguments(hands, auto, vals, masks, estimates, start, stop):
            return hands, t, params, field, n_seats, auto, vals, masks, start, stop
        return _set_hands_field, arguments

    def arguments(hands, auto, vals, masks, estimates, start, stop):
        return hands, t, auto, vals, masks, start, stop
    return _set_hands_sbf, arguments


def _policy_runner(kind, t, mt, params, field, n_seats, n_cards):
    """``run(hands, auto, vals, masks, start, stop, estimates=None)``: policy ``kind``'s
    kernel on the deals start..stop-1, with its other arguments bound
    (:func:`_kernel_call`); the model's estimates of its settings go to ``estimates``
    where given."""
    kernel, arguments = _kernel_call(kind, t, mt, params, field, n_seats, n_cards)

    def run(hands, auto, vals, masks, start, stop, estimates=None):
        if estimates is None:
            estimates = np.empty(hands.shape[:2])     # (the model's own: not needed)
        kernel(*arguments(hands, auto, vals, masks, estimates, start, stop))
    return run


def _one_hand_call(kind, t, mt, params, field, n_seats, n_cards):
    """``bind(arrays) -> call``: ``call()`` runs policy ``kind``'s kernel on one hand's
    ``arrays`` (made as :func:`_one_hand_arrays` makes them) as ``run`` of
    :func:`_policy_runner` would for that one deal, every argument bound once (a
    ``functools.partial``: nothing is made per call) and without Numba's dispatch (the
    machine code, compiled here for those arrays' types: :func:`_machine_code`)."""
    kernel, arguments = _kernel_call(kind, t, mt, params, field, n_seats, n_cards)
    code = _machine_code(kernel, arguments(*_one_hand_arrays(n_cards), 0, 1))
    return lambda arrays: functools.partial(code, *arguments(*arrays, 0, 1))


def _machine_code(kernel, args):
    """The compiled function that the jitted ``kernel`` runs for arguments of the types of
    ``args``, compiled (or loaded from the disk cache) now, to be called without Numba's
    dispatch.  The dispatcher types every argument on every call, 2 µs of a 37 µs
    :func:`solver.quick_set`, most of it for the two NamedTuples of arrays
    (benchmarks/README.md); the compiled function does not check its arguments' types,
    so it is only for arguments whose types its caller fixes.  A kernel that runs as
    Python (``NUMBA_DISABLE_JIT=1``) is returned as it is."""
    if not hasattr(kernel, "compile"):
        return kernel
    # (Dispatcher.compile returns that function, compiled or loaded for the signature
    # only if it is not there yet.)
    return kernel.compile(tuple(kernel.typeof_pyval(a) for a in args))


def _one_hand_arrays(n_cards: int):
    """(hands, auto, vals, masks, estimates) for one hand: the types set_hands and
    one_hand_setter pass the policies' kernels (no automatic win declared)."""
    return (np.empty((1, 1, n_cards), np.int64), np.zeros((1, 1), np.int8),
            np.empty((1, 1, 3), np.int32), np.empty((1, 1, 3), np.int64),
            np.empty((1, 1)))


def model_kernel(scheme: int, n_cards: int):
    """The model's kernel that sets hands of ``n_cards`` under a rule set of ``scheme``:
    its own (:func:`solver.model.table_kernel`), or while another process compiles that
    for this one, the kernel of every scheme where it is compiled (the same settings:
    solver._warmup, "stand-ins")."""
    own = table_kernel(scheme, n_cards)
    return stand_in(own, table_kernel(ANY_SCHEME, n_cards))


def compile_model_kernel(scheme: int, n_cards: int) -> None:
    """Compile (or load from the disk cache) the model's kernel for the argument types
    :func:`set_hands` passes it, from the types alone: no row tables are needed, so a
    first solve does it while the other process builds them (solver._warmup).  (While
    another process compiles it, :func:`model_kernel`'s stand-in is loaded instead.)"""
    hands, auto, vals, masks, estimates = _one_hand_arrays(n_cards)
    _machine_code(model_kernel(scheme, n_cards),
                  (hands, placeholder_tables(), placeholder_model_tables(), auto, vals, masks,
                   estimates, 0, 1))


def compile_model_parts(scheme: int) -> None:
    """Compile (or load from the disk cache) the callees of the model's kernel for
    ``scheme`` that :func:`solver.model.model_parts` lists, for the types the kernel
    passes them: a first solve's other process does it while the solving process
    compiles the kernel (solver._warmup), which then loads them instead."""
    for kernel, argument_types in model_parts(scheme):
        if hasattr(kernel, "compile"):          # (not as plain Python: NUMBA_DISABLE_JIT)
            kernel.compile(argument_types)


def one_hand_setter(kind, t, mt, params, field, n_seats, n_cards):
    """``set_one(codes) -> (masks, values)``: :func:`set_hands` for one hand of
    ``n_cards`` codes that declares no automatic win, its kernel and arguments found once
    (:func:`solver.quick_set` sets hand after hand, and finding them is a tenth of a
    setting's time), and its machine code called directly.  Safe to share between
    threads: each thread writes only arrays of its own, made on its first call and
    kept for the next (made on every call, they cost 1 µs of a 30 µs quick_set)."""
    bind = _one_hand_call(kind, t, mt, params, field, n_seats, n_cards)
    mine = threading.local()

    def thread_arrays():
        """This thread's hand codes, kernel call, row masks and row values (views of
        one hand's arrays)."""
        arrays = _one_hand_arrays(n_cards)
        hands, _, vals, masks, _ = arrays
        mine.arrays = hands[0, 0], bind(arrays), masks[0, 0], vals[0, 0]
        return mine.arrays

    def set_one(codes):
        try:
            hand, call, masks, vals = mine.arrays
        except AttributeError:                  # this thread's first call
            hand, call, masks, vals = thread_arrays()
        hand[:] = codes
        call()
        return masks.tolist(), vals.tolist()
    return set_one


def set_hands_kernel(kind, scheme, n_cards):
    """The jitted kernel :func:`set_hands` runs for policy ``kind``, a rule set of
    ``scheme`` and hands of ``n_cards`` (one a policy, and the model's one a scheme and
    hand size: each compiles only when it is first used, so a solve with the default
    model does not wait for the others)."""
    if kind == POLICY_TABLE:
        return table_kernel(scheme, n_cards)
    return _set_hands_field if kind == POLICY_FIELD else _set_hands_sbf


# The kernels that set many hands (the model's is solver.model.table_kernel): each sets
# the deals start..stop-1 (one thread's range) and writes only their slots, skipping the
# hands that declared an automatic win.
# Automatic wins are found by a kernel of their own, so a rule set without them never
# compiles that code.
@njit
def _declared_automatic_wins(hands, auto, order, start, stop):
    """Each hand's strongest special of ``order`` (codes, strongest first), or 0."""
    for s in range(start, stop):
        for k in range(hands.shape[1]):
            auto[s, k] = best_kind(hands[s, k], order)


@njit
def _declared_automatic_wins_any(hands, auto, order, wild, start, stop):
    """:func:`_declared_automatic_wins` of hands of any deck and size (jokers, a second set
    of spades, 16 or 17 cards: :func:`solver.autowin.best_kind_any`)."""
    for s in range(start, stop):
        for k in range(hands.shape[1]):
            auto[s, k] = best_kind_any(hands[s, k], order, wild)


@njit(inline="always")
def _record(codes, f, m, b, t, vals, masks, s, k):
    """Store a setting's masks and row values."""
    masks[s, k, 0] = f
    masks[s, k, 1] = m
    masks[s, k, 2] = b
    row = cards_of_mask(f, codes)
    vals[s, k, 0] = t.values[ordinal3(row[0], row[1], row[2], t)]
    row = cards_of_mask(m, codes)
    vals[s, k, 1] = t.values[ordinal5(row[0], row[1], row[2], row[3], row[4], t)]
    row = cards_of_mask(b, codes)
    vals[s, k, 2] = t.values[ordinal5(row[0], row[1], row[2], row[3], row[4], t)]


@njit
def _set_hands_field(hands, t, params, field, n_seats, auto, vals, masks, start, stop):
    for s in range(start, stop):
        for k in range(hands.shape[1]):
            if auto[s, k] == 0:
                codes = hands[s, k]
                f, m, b = field_policy(codes, t, params, field, n_seats)
                _record(codes, f, m, b, t, vals, masks, s, k)


@njit
def _set_hands_sbf(hands, t, auto, vals, masks, start, stop):
    for s in range(start, stop):
        for k in range(hands.shape[1]):
            if auto[s, k] == 0:
                codes = hands[s, k]
                f, m, b = strongest_back_first(codes, t)
                _record(codes, f, m, b, t, vals, masks, s, k)


POLICY_NAMES = ("table", "field", "sbf")


def builtin_policy(policy, rules: RuleSet, n_seats: int, bonus_rank: "int | None"):
    """(kind, model tables, field) for :func:`set_hands`, or None when ``policy`` is not
    a built-in policy: None or ``"table"`` (the shipped model), ``"field"`` (the previous
    default), ``"sbf"`` (strongest-back-first) or a :class:`solver.model.TableModel`.
    ``bonus_rank`` None only validates ``policy`` (and returns (kind, None, None))."""
    no_field = np.zeros((1, n_seats - 1, 3), np.int32)
    if policy is None or (isinstance(policy, str) and policy == "table"):
        policy = TableModel.shipped(rules, n_seats)
    if isinstance(policy, TableModel):
        if policy.rules.digest != rules.digest:          # (the same rules, any name)
            raise ValueError(f"the model {policy!r} is for {policy.rules.name}, not {rules.name}")
        if model_seats(rules, policy.n_seats) != model_seats(rules, n_seats):
            # Where the best setting depends on the table size (scoop scoring, Mandarin
            # home runs at four seats), a model of another table sets hands for the
            # wrong game (solver.model.model_seats).
            raise ValueError(f"the model {policy!r} is trained for {policy.n_seats} seats, "
                             f"not {n_seats}: a {rules.name} hand's best setting depends "
                             f"on the table size (train one with solver.policy_training."
                             f"self_play(rules, {n_seats}, ...))")
        if bonus_rank is None:
            return POLICY_TABLE, None, None
        return POLICY_TABLE, policy.tables(bonus_rank), no_field
    if isinstance(policy, str):
        if policy == "field":
            if bonus_rank is None:
                return POLICY_FIELD, None, None
            return POLICY_FIELD, placeholder_model_tables(), reference_field(rules, n_seats)
        if policy == "sbf":
            return POLICY_SBF, placeholder_model_tables(), no_field
        raise ValueError(f"unknown policy {policy!r}; built-in policies: "
                         f"{', '.join(POLICY_NAMES)}, or a function (hand, rules, cut) -> rows")
    return None
