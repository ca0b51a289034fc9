"""The one implementation of the scoring rules: a jitted core driven by rule-set data.

:func:`solver.settle` calls :func:`seat_score`, and the solver's expected-value loop
(:func:`score_kernel_for`) sums the same helpers for its seat as seat_score does
(:func:`pair_score` and the home runs); there is no second copy of the scoring rules
anywhere.

Inputs to the core: ``vals``, each seat's three row values (an (n, 3) array on the scale
of :mod:`solver.tables`, so ``value >> 20`` is the category); ``fouled``, a bitmask with
bit s set when seat s fouled; ``auto``, each seat's declared automatic win (special hand)
in four bits (bits 4s to 4s+3: :data:`AUTO_NONE`, or the special's code, 1 + its index in
:data:`solver.rules.AUTOMATIC_WINS`, as :mod:`solver.autowin`'s ``KIND_*``); see
:func:`pack_flags`.  The rules come as the
``params`` array of :func:`scoring_params`.  (Flags travel as integers, not arrays, because
every array a Numba function touches costs it reference counting on each call: with two
more arrays, seat_score took several times longer.)
"""
from __future__ import annotations

import functools

import numpy as np

from ._jit import in_ranges, njit, runnable
from .rules import (AUTOMATIC_WINS, BONUS_REPLACE, CATEGORIES, CATEGORY_INDEX, PAID_ROW_MADE,
                    SCHEME_EASTERN,
                    SCHEME_GENERAL, SCHEME_MANDARIN, SCHEME_ROWS, SCHEME_SCOOP, SCHEME_WESTERN,
                    SCOOP_NO_ROW_LOST, RuleSet)
from .tables import CATEGORY_SHIFT

# home_run_bits gives each seat a byte of the int64 (seat a's bit against seat b is
# HOME_RUN_STRIDE * a + b): with a stride of 4, five seats' bits overlapped (seat 0 against
# seat 4 is seat 1 against seat 0).  A constant, so the kernels' shifts cost the same.
HOME_RUN_STRIDE = 8
AUTO_NONE = 0                     # no automatic win; else the special's code (1..13)
AUTO_BITS = 4                     # bits a seat in ``auto``
N_AUTO_CODES = 1 + len(AUTOMATIC_WINS)
assert N_AUTO_CODES <= 1 << AUTO_BITS

# Layout of the params array.
P_SCHEME = 0
P_SCOOP = 1
P_HOME_RUN = 2
P_FRONT_TRIPS_POINTS = 3
P_MAJORITY = 4
P_FOUL_PENALTY = 5
P_SHOT_MULT = 6
P_HOME_RUN_MULT = 7
P_BONUS = 16                      # then 3 rows x N_CATEGORIES units
N_CATEGORIES = len(CATEGORIES)
TRIPS = CATEGORY_INDEX["trips"]
# Read only by the general scheme (SCHEME_GENERAL), after the bonus table so that the
# specialised schemes' slots stay where they were.  Filled for every rule set: a built-in
# rule set's params with P_SCHEME set to SCHEME_GENERAL settle exactly as its own kernel.
P_ROW_POINTS = P_BONUS + 3 * N_CATEGORIES     # then the Middle's and the Back's
P_SCOOP_NO_ROW_LOST = P_ROW_POINTS + 3        # 1: scoop = no row lost; 0: all rows won
P_HOME_RUN_MIN_SEATS = P_ROW_POINTS + 4
P_HOME_RUN_COUNTS = P_ROW_POINTS + 5          # 1: a home run changes some units
P_BONUS_REPLACES = P_ROW_POINTS + 6           # 1: a royalty replaces the row's points
P_BONUS_WHEN_MADE = P_ROW_POINTS + 7          # 1: a royalty is paid whenever made
P_BONUS_MULTIPLIED = P_ROW_POINTS + 8         # 1: multipliers apply to royalties too
P_FOULS_SCORED = P_ROW_POINTS + 9             # 1: a fouled hand is scored (else unplayable)
P_FOUL_LOSES_ROWS = P_ROW_POINTS + 10
# Then the special hands, each N_AUTO_CODES long, indexed by code (code 0: no special, 0
# units, strength 0): units, strength, and the rule set's codes strongest first (0-ended).
P_AUTO_UNITS = P_ROW_POINTS + 11
P_AUTO_STRENGTH = P_AUTO_UNITS + N_AUTO_CODES
P_AUTO_ORDER = P_AUTO_STRENGTH + N_AUTO_CODES
N_PARAMS = P_AUTO_ORDER + N_AUTO_CODES


def scoring_params(rules: RuleSet) -> np.ndarray:
    """The rule set's scoring as one int64 array for the jitted core: scalars first, then
    the 3 x 16 row-bonus table, row-major (the indices are the ``P_*`` constants above).

    Here, beside the layout it fills, not on :class:`~solver.rules.RuleSet`: the rules
    are plain data below every other module and import none of them.

    >>> from solver import rule_set
    >>> int(scoring_params(rule_set("joker"))[P_HOME_RUN])
    3
    """
    p = np.zeros(N_PARAMS, np.int64)
    p[P_SCHEME] = rules.scheme
    p[P_SCOOP] = rules.scoop_units
    p[P_HOME_RUN] = rules.home_run_units
    p[P_FRONT_TRIPS_POINTS] = rules.front_trips_points
    p[P_MAJORITY] = rules.majority_bonus
    p[P_FOUL_PENALTY] = rules.foul_penalty
    p[P_SHOT_MULT] = rules.shot_multiplier
    p[P_HOME_RUN_MULT] = rules.home_run_multiplier
    p[P_BONUS:P_ROW_POINTS] = np.array(rules.row_bonus, np.int64).ravel()
    p[P_ROW_POINTS:P_ROW_POINTS + 3] = rules.row_points
    p[P_SCOOP_NO_ROW_LOST] = rules.scoop == SCOOP_NO_ROW_LOST
    p[P_HOME_RUN_MIN_SEATS] = rules.home_run_min_seats
    # Home runs are looked for only where one changes the units (each is 16 pair tests).
    p[P_HOME_RUN_COUNTS] = (rules.home_run_units != 0
                            or rules.home_run_multiplier != rules.shot_multiplier)
    p[P_BONUS_REPLACES] = rules.bonus_mode == BONUS_REPLACE
    p[P_BONUS_WHEN_MADE] = rules.bonus_paid == PAID_ROW_MADE
    p[P_BONUS_MULTIPLIED] = rules.bonus_multiplied
    p[P_FOULS_SCORED] = fouls_playable(rules)
    p[P_FOUL_LOSES_ROWS] = rules.foul_loses_rows
    strength = rules.automatic_win_strengths()
    for i, name in enumerate(rules.automatic_win_order()):
        code = 1 + AUTOMATIC_WINS.index(name)
        p[P_AUTO_UNITS + code] = rules.automatic_wins[name]
        p[P_AUTO_STRENGTH + code] = strength[name]
        p[P_AUTO_ORDER + i] = code
    return p


def fouls_playable(rules: RuleSet) -> bool:
    """Whether a fouled hand can be played under ``rules`` (it pays a penalty, or loses
    every row, or both); where not (``joker``, ``bonus``), a foul is an error.

    >>> from solver import rule_set
    >>> fouls_playable(rule_set("pagat")), fouls_playable(rule_set("joker"))
    (True, False)
    """
    return rules.foul_penalty != 0 or rules.foul_loses_rows


def auto_order(params: np.ndarray) -> np.ndarray:
    """The rule set's special-hand codes, strongest first, then zeros (a view of
    ``params``): what :func:`solver.autowin.best_kind` looks for, in that order."""
    return params[P_AUTO_ORDER:N_PARAMS]


def pack_flags(fouled, auto) -> tuple[int, int]:
    """(fouled, auto) bitmasks of the core from per-seat sequences of bools and
    automatic-win codes."""
    fouled_bits = sum(1 << s for s, f in enumerate(fouled) if f)
    auto_bits = sum(int(code) << (AUTO_BITS * s) for s, code in enumerate(auto))
    return fouled_bits, auto_bits


@njit(inline="always")
def is_fouled(fouled, s):
    return (fouled >> s) & 1 == 1


@njit(inline="always")
def auto_of(auto, s):
    return (auto >> (AUTO_BITS * s)) & ((1 << AUTO_BITS) - 1)


@njit(inline="always")
def row_bonus(params, row, value):
    """Units of the bonus table for a row won with this value (0 if none)."""
    return params[P_BONUS + row * N_CATEGORIES + (value >> CATEGORY_SHIFT)]


# Notes for the kernels below: chains of Python ``and``/``or`` that produce a value
# compile to slow code in Numba, loops with early returns do not; and the small helpers
# are inlined (``inline="always"``) because a call passing arrays costs Numba reference
# counting that took most of seat_score's time (about 500 ns a call before, see
# benchmarks/README.md).
@njit(inline="always")
def scoops(vals, a, b):
    """Seat a loses no row to seat b (ties count as not losing)."""
    for r in range(3):
        if vals[a, r] < vals[b, r]:
            return False
    return True


@njit(inline="always")
def wins_all_rows(vals, a, b):
    for r in range(3):
        if vals[a, r] <= vals[b, r]:
            return False
    return True


@njit(inline="always")
def compared(fouled, auto, a, b):
    """Seats a and b compare rows: neither fouled nor declared an automatic win."""
    both = (1 << a) | (1 << b)
    return fouled & both == 0 and auto_of(auto, a) == AUTO_NONE and auto_of(auto, b) == AUTO_NONE


# The scheme is an argument of its own (it is also params[P_SCHEME]): the solver's
# scoring kernels are made one a scheme (score_kernel_for), closures over it, so in the
# helpers inlined into them every test of the scheme is a test of a constant, which
# Numba settles before it types the code: a first solve compiles half the scoring code
# (benchmarks/README.md).  Other callers (solver.settle, seat_score, and describer's one
# kernel, which runs once a solve) pass params[P_SCHEME] and compile the code of every
# scheme.
@njit(inline="always")
def home_run_bits(vals, fouled, auto, n, params, scheme):
    """Bit ``HOME_RUN_STRIDE * a + b`` set when seat a 'beats' seat b for home-run
    purposes: scoops it (scoop scheme; general scheme: by its scoop rule, see
    :func:`general_scoops`) or wins every compared row against it (mandarin); 0
    otherwise, and 0 at tables too small for home runs.  Computed once per deal, so each
    home run is a mask test."""
    bits = 0
    if scheme == SCHEME_SCOOP:
        for a in range(n):
            for b in range(n):
                if a != b and scoops(vals, a, b):
                    bits |= 1 << (HOME_RUN_STRIDE * a + b)
    elif scheme == SCHEME_MANDARIN and n == 4:
        for a in range(n):
            for b in range(n):
                if a != b and compared(fouled, auto, a, b) and wins_all_rows(vals, a, b):
                    bits |= 1 << (HOME_RUN_STRIDE * a + b)
    elif (scheme == SCHEME_GENERAL and params[P_HOME_RUN_COUNTS] != 0
          and n >= params[P_HOME_RUN_MIN_SEATS]):
        for a in range(n):
            for b in range(n):
                if a != b and general_scoops(vals, fouled, auto, a, b, params):
                    bits |= 1 << (HOME_RUN_STRIDE * a + b)
    return bits


@njit(inline="always")
def home_run_of(bits, n, a):
    """Seat a beats every other seat (see :func:`home_run_bits`); never with n < 2."""
    others = ((1 << n) - 1) & ~(1 << a)
    return n > 1 and ((bits >> (HOME_RUN_STRIDE * a)) & others) == others


@njit
def home_run(vals, fouled, auto, n, a, params, scheme):
    """Seat a scoops (scoop scheme) or wins every row against (mandarin) every other seat;
    in mandarin only with four seats, and only against seats whose rows are compared; in
    the general scheme as :func:`home_run_bits` says."""
    return home_run_of(home_run_bits(vals, fouled, auto, n, params, scheme), n, a)


@njit
def _won_row_units(params, row, value):
    """Eastern: a won row scores its bonus instead of 1."""
    bonus = row_bonus(params, row, value)
    return bonus if bonus > 0 else 1


@njit
def _mandarin_side(vals, a, b, multiplier, params):
    """Mandarin points seat a earns from rows it wins against b: multiplied row points,
    then the unmultiplied bonus hands."""
    points = 0
    bonus = 0
    for r in range(3):
        if vals[a, r] > vals[b, r]:
            if r == 0 and (vals[a, 0] >> CATEGORY_SHIFT) == TRIPS:
                points += params[P_FRONT_TRIPS_POINTS]
            else:
                points += 1
            bonus += row_bonus(params, r, vals[a, r])
    return points * multiplier + bonus


# --- the general scheme: every scoring field of the rule set, read from params -----------
# (docs/rules.md#house-rules-the-general-scoring states these rules for people.)
@njit(inline="always")
def general_scoops(vals, fouled, auto, a, b, params):
    """Seat a scoops seat b under the general scheme: by the rule set's scoop rule when
    their rows are compared; a valid hand scoops a fouled one where a foul loses every
    row; nobody scoops a declared automatic win, and a fouled hand scoops nobody.  Where
    fouls are not scored (they cannot be played), the foul bits are not read."""
    if auto_of(auto, a) != AUTO_NONE or auto_of(auto, b) != AUTO_NONE:
        return False
    if params[P_FOULS_SCORED] != 0:
        if is_fouled(fouled, a):
            return False
        if is_fouled(fouled, b):
            return params[P_FOUL_LOSES_ROWS] != 0
    if params[P_SCOOP_NO_ROW_LOST] != 0:
        return scoops(vals, a, b)
    return wins_all_rows(vals, a, b)


@njit
def general_side(vals, a, b, wins_every_row, multiplier, params):
    """Units seat a earns from its own rows against seat b (before b's are taken off):
    the points of each row it wins (``row_points``, or ``front_trips_points`` for a Front
    won with trips; the royalty instead, where royalties replace and the row has one),
    times ``multiplier``; and its royalties, for the rows it wins or, when paid whenever
    made, for every row, multiplied too only when ``bonus_multiplied``.
    ``wins_every_row``: b fouled and a foul loses every row."""
    points = 0
    royalties = 0
    for r in range(3):
        value = vals[a, r]
        won = True
        if not wins_every_row:
            won = value > vals[b, r]
        royalty = row_bonus(params, r, value)
        if won:
            if params[P_BONUS_REPLACES] != 0 and royalty > 0:
                pass                           # the royalty below is the row's score
            elif (r == 0 and params[P_FRONT_TRIPS_POINTS] != 0
                  and (value >> CATEGORY_SHIFT) == TRIPS):
                points += params[P_FRONT_TRIPS_POINTS]
            else:
                points += params[P_ROW_POINTS + r]
            royalties += royalty
        elif params[P_BONUS_WHEN_MADE] != 0:
            royalties += royalty
    if params[P_BONUS_MULTIPLIED] != 0:
        return (points + royalties) * multiplier
    return points * multiplier + royalties


@njit
def general_multiplier(scooped, home_run_, params):
    """The multiplier of a side's points: a home run's, else a scoop's (a shot), else 1."""
    if home_run_:
        return params[P_HOME_RUN_MULT]
    if scooped:
        return params[P_SHOT_MULT]
    return 1


@njit
def general_against_foul(vals, a, hr_a, params):
    """Units valid seat a wins from a fouled seat: the foul penalty, and where a foul
    loses every row, every row won with its points and royalties, the majority, the
    scoop and its multiplier (a shot, or a home run's)."""
    units = params[P_FOUL_PENALTY]
    if params[P_FOUL_LOSES_ROWS] != 0:
        units += general_side(vals, a, a, True, general_multiplier(True, hr_a, params), params)
        units += params[P_MAJORITY] + params[P_SCOOP]
    return units


@njit
def general_pair_score(vals, fouled, auto, a, b, hr_a, hr_b, params):
    """:func:`pair_score` of the general scheme once automatic wins are settled: units
    seat a wins from seat b, home-run units excluded (see :func:`seat_score`)."""
    if params[P_FOULS_SCORED] != 0:
        fouled_a = is_fouled(fouled, a)
        fouled_b = is_fouled(fouled, b)
        if fouled_a and fouled_b:
            return 0
        if fouled_a:
            return -general_against_foul(vals, b, hr_b, params)
        if fouled_b:
            return general_against_foul(vals, a, hr_a, params)
    wins = 0
    losses = 0
    for r in range(3):
        if vals[a, r] > vals[b, r]:
            wins += 1
        elif vals[a, r] < vals[b, r]:
            losses += 1
    scoop_a = general_scoops(vals, fouled, auto, a, b, params)
    scoop_b = general_scoops(vals, fouled, auto, b, a, params)
    units = (general_side(vals, a, b, False, general_multiplier(scoop_a, hr_a, params), params)
             - general_side(vals, b, a, False, general_multiplier(scoop_b, hr_b, params), params))
    units += params[P_SCOOP] * (int(scoop_a) - int(scoop_b))
    if wins >= 2:
        units += params[P_MAJORITY]
    if losses >= 2:
        units -= params[P_MAJORITY]
    return units


@njit(inline="always")
def _automatic_win_units(params, code):
    return params[P_AUTO_UNITS + code]


@njit(inline="always")
def _automatic_win_strength(params, code):
    return params[P_AUTO_STRENGTH + code]     # 0 for AUTO_NONE, at least 1 for a special


@njit(inline="always")
def pair_score(vals, fouled, auto, n, a, b, hr_a, hr_b, params, scheme):
    """Units seat a wins from seat b (negative: pays), home-run extras excluded for the
    scoop scheme (see :func:`seat_score`); ``hr_a``/``hr_b``: home_run() of each."""
    if scheme == SCHEME_SCOOP:
        units = params[P_SCOOP] * (int(scoops(vals, a, b)) - int(scoops(vals, b, a)))
        for r in range(3):
            if vals[a, r] > vals[b, r]:
                units += row_bonus(params, r, vals[a, r])
            elif vals[a, r] < vals[b, r]:
                units -= row_bonus(params, r, vals[b, r])
        return units
    # Automatic wins (special hands): a declared hand is not compared; of two, the stronger
    # collects its units, equal strengths tie (docs/rules.md#special-hands; classic: a
    # dragon beats the others).  Against a fouled hand the automatic win alone settles the
    # pair (the classic rules are silent; the declared hand is never compared, so no
    # showdown exposes the foul: docs/rules.md#automatic-wins-and-fouls).
    auto_a = auto_of(auto, a)
    auto_b = auto_of(auto, b)
    if auto_a != AUTO_NONE or auto_b != AUTO_NONE:
        strength_a = _automatic_win_strength(params, auto_a)
        strength_b = _automatic_win_strength(params, auto_b)
        if strength_a == strength_b:
            return 0
        if strength_a > strength_b:
            return _automatic_win_units(params, auto_a)
        return -_automatic_win_units(params, auto_b)
    if scheme == SCHEME_GENERAL:
        return general_pair_score(vals, fouled, auto, a, b, hr_a, hr_b, params)
    fouled_a = is_fouled(fouled, a)
    fouled_b = is_fouled(fouled, b)
    if fouled_a and fouled_b:
        return 0
    if scheme == SCHEME_ROWS:            # a foul loses every row to a valid hand
        if fouled_a:
            return -3
        if fouled_b:
            return 3
    elif fouled_a:
        return -params[P_FOUL_PENALTY]
    elif fouled_b:
        return params[P_FOUL_PENALTY]
    wins = 0
    losses = 0
    for r in range(3):
        if vals[a, r] > vals[b, r]:
            wins += 1
        elif vals[a, r] < vals[b, r]:
            losses += 1
    if scheme == SCHEME_ROWS:
        return wins - losses
    if scheme == SCHEME_WESTERN:
        majority = params[P_MAJORITY]
        return wins - losses + (majority if wins >= 2 else 0) - (majority if losses >= 2 else 0)
    if scheme == SCHEME_EASTERN:
        units = 0
        for r in range(3):
            if vals[a, r] > vals[b, r]:
                units += _won_row_units(params, r, vals[a, r])
            elif vals[a, r] < vals[b, r]:
                units -= _won_row_units(params, r, vals[b, r])
        return units
    # Mandarin: a shot (every row won against this opponent) doubles row points, a home
    # run triples them instead.
    mult_a = params[P_HOME_RUN_MULT] if hr_a else (params[P_SHOT_MULT] if wins == 3 else 1)
    mult_b = params[P_HOME_RUN_MULT] if hr_b else (params[P_SHOT_MULT] if losses == 3 else 1)
    return _mandarin_side(vals, a, b, mult_a, params) - _mandarin_side(vals, b, a, mult_b, params)


@njit
def seat_score(vals, fouled, auto, n, a, params, scheme):
    """Units seat ``a`` wins in a deal of ``n`` seats (rows ``vals[:n]``); ``scheme`` is
    ``params[P_SCHEME]`` (see the note above)."""
    bits = home_run_bits(vals, fouled, auto, n, params, scheme)
    hr_a = home_run_of(bits, n, a)
    total = 0
    for b in range(n):
        if b == a:
            continue
        hr_b = home_run_of(bits, n, b)
        total += pair_score(vals, fouled, auto, n, a, b, hr_a, hr_b, params, scheme)
        if scheme == SCHEME_SCOOP:   # a home run: more from each scooped seat
            total += params[P_HOME_RUN] * (int(hr_a) - int(hr_b))
        if scheme == SCHEME_GENERAL:
            total += params[P_HOME_RUN] * (int(hr_a) - int(hr_b))
    return total


@njit
def settle_seats(vals, fouled, auto, params):
    """Every seat's units; they sum to zero (``fouled``/``auto``: see pack_flags)."""
    n = vals.shape[0]
    out = np.zeros(n, np.int64)
    for a in range(n):
        out[a] = seat_score(vals, fouled, auto, n, a, params, params[P_SCHEME])
    return out


# --- many candidate arrangements against many sampled deals (the solver's loops) ----------
# The solver's seat is seat 0 of every deal; opp_vals[s, j] are opponent j's rows in deal
# s, opp_fouled[s, j] and opp_auto[s, j] (0 or a special's code) its foul and declared
# automatic win.
@njit
def sample_flags(opp_fouled, opp_auto, s):
    """The core's (fouled, auto) bitmasks for sample s, the solver in seat 0."""
    fouled = 0
    auto = 0
    for j in range(opp_fouled.shape[1]):
        if opp_fouled[s, j]:
            fouled |= 1 << (j + 1)
        auto |= np.int64(opp_auto[s, j]) << (AUTO_BITS * (j + 1))
    return fouled, auto


def score_candidates(cand_vals, our_auto, opp_vals, opp_fouled, opp_auto, params, *,
                     our_fouled=False):
    """scores[k, s]: units of arrangement k (or of declaring, when our_auto) in sample s.

    ``our_fouled``: the solver's seat fouled (every arrangement k is scored as a foul;
    :func:`solver.review` grades a fouled setting with it, where the rule set scores
    fouls).  The samples are shared out between threads (:func:`solver._jit.in_ranges`);
    each range writes only its own columns, so the scores are the same whatever the
    number of threads."""
    K, S = cand_vals.shape[0], opp_vals.shape[0]
    out = np.empty((K, S), np.int32)
    fouled_bit = 1 if our_fouled else 0
    kernel = score_kernel_for(int(params[P_SCHEME]))

    def run(start, stop):
        kernel(cand_vals, our_auto, fouled_bit, opp_vals, opp_fouled, opp_auto, params, out,
               start, stop)
    in_ranges(run, S, K * S * opp_vals.shape[1] / 1000)
    return out


def describe(our_vals, opp_vals, opp_fouled, opp_auto, params):
    """Counts for the Solution: per-row win/tie/loss (rows[r] = wins, ties, losses against
    each compared opponent), scoops each way per opponent, home runs, and net bonus units
    of the rows ``our_vals`` over the sampled deals (by :func:`describer`'s kernel, or its
    source run as Python while another process compiles it: :func:`solver._jit.runnable`)."""
    rows, scoop, scooped, home_runs, bonus = runnable(describer(int(params[P_SCHEME])))(
        our_vals, opp_vals, opp_fouled, opp_auto, params)
    return rows.reshape(3, 3), scoop, scooped, int(home_runs), int(bonus)


# The kernels, one a scheme (closures over numbers cache on disk like functions; they
# call the helpers by their global names).
@functools.lru_cache(maxsize=None)
def score_kernel_for(scheme: int):
    """:func:`score_candidates`' kernel for rule sets of ``scheme``: ``f(cand_vals,
    our_auto, our_fouled, opp_vals, opp_fouled, opp_auto, params, out, start, stop)``
    scores the samples start..stop-1 (``our_fouled``: 1 sets seat 0's foul bit)."""
    @njit
    def score_kernel(cand_vals, our_auto, our_fouled, opp_vals, opp_fouled, opp_auto, params,
                     out, start, stop):
        K, n_opp = cand_vals.shape[0], opp_vals.shape[1]
        n = n_opp + 1
        me = np.int64(0)       # seat 0
        vals = np.empty((n, 3), np.int32)
        for s in range(start, stop):
            fouled, auto = sample_flags(opp_fouled, opp_auto, s)
            fouled |= our_fouled
            auto |= our_auto
            for j in range(n_opp):
                for r in range(3):
                    vals[j + 1, r] = opp_vals[s, j, r]
            for k in range(K):
                for r in range(3):
                    vals[0, r] = cand_vals[k, r]
                # seat_score(vals, fouled, auto, n, me, params, scheme), written out:
                # Numba drops the other schemes' branches of the helpers inlined here,
                # not of helpers inlined into an inlined seat_score (a test checks that
                # the two agree).
                bits = home_run_bits(vals, fouled, auto, n, params, scheme)
                hr_a = home_run_of(bits, n, me)
                total = 0
                for b in range(1, n):
                    hr_b = home_run_of(bits, n, b)
                    total += pair_score(vals, fouled, auto, n, me, b, hr_a, hr_b, params, scheme)
                    if scheme == SCHEME_SCOOP:
                        total += params[P_HOME_RUN] * (int(hr_a) - int(hr_b))
                    if scheme == SCHEME_GENERAL:
                        total += params[P_HOME_RUN] * (int(hr_a) - int(hr_b))
                out[k, s] = total
    return score_kernel


def describer(scheme: int):
    """:func:`describe`'s kernel for rule sets of ``scheme``: one for every scheme, which
    it reads from ``params`` (a first solve runs it once, on a few hundred deals: made one
    a scheme, as the scoring is, it compiled in 1.0 s instead of 1.7 s once for all, but
    once for each scheme; benchmarks/README.md, "The first run")."""
    return _describer()


@functools.lru_cache(maxsize=None)
def _describer():
    """:func:`describer`'s kernel, all from the settlement core's helpers."""
    @njit
    def describe_kernel(our_vals, opp_vals, opp_fouled, opp_auto, params):
        scheme = params[P_SCHEME]
        scoop_scheme = scheme == SCHEME_SCOOP
        general = scheme == SCHEME_GENERAL
        S, n_opp = opp_vals.shape[0], opp_vals.shape[1]
        n = n_opp + 1
        me = np.int64(0)       # seat 0 (see score_kernel_for)
        # One dimension, np.empty and a fill: np.zeros, and another dimension, would each
        # compile more of Numba's implementations (tenths of a second of a first run).
        rows = np.empty(9, np.int64)           # rows[3 r + 0, 1, 2]: wins, ties, losses
        scoop = np.empty(n_opp, np.int64)
        scooped = np.empty(n_opp, np.int64)
        rows[:] = 0
        scoop[:] = 0
        scooped[:] = 0
        home_runs = 0
        bonus = 0
        vals = np.empty((n, 3), np.int32)
        for r in range(3):      # loops, not slice assignments: see solver.search._doubled
            vals[0, r] = our_vals[r]
        for s in range(S):
            fouled, auto = sample_flags(opp_fouled, opp_auto, s)
            for j in range(n_opp):
                for r in range(3):
                    vals[j + 1, r] = opp_vals[s, j, r]
            if home_run_of(home_run_bits(vals, fouled, auto, n, params, scheme), n, me):
                home_runs += 1
            for j in range(1, n):
                if not compared(fouled, auto, 0, j):
                    continue
                for r in range(3):
                    if vals[0, r] > vals[j, r]:
                        rows[3 * r] += 1
                        bonus += row_bonus(params, r, vals[0, r])
                    elif vals[0, r] == vals[j, r]:
                        rows[3 * r + 1] += 1
                    else:
                        rows[3 * r + 2] += 1
                        bonus -= row_bonus(params, r, vals[j, r])
                    if general and params[P_BONUS_WHEN_MADE] != 0:
                        # Royalties paid whenever made: the rows not won pay too.
                        if vals[0, r] <= vals[j, r]:
                            bonus += row_bonus(params, r, vals[0, r])
                        if vals[0, r] >= vals[j, r]:
                            bonus -= row_bonus(params, r, vals[j, r])
                if general:
                    scoop[j - 1] += general_scoops(vals, fouled, auto, 0, j, params)
                    scooped[j - 1] += general_scoops(vals, fouled, auto, j, 0, params)
                elif scoop_scheme:
                    scoop[j - 1] += scoops(vals, 0, j)
                    scooped[j - 1] += scoops(vals, j, 0)
                else:
                    scoop[j - 1] += wins_all_rows(vals, 0, j)
                    scooped[j - 1] += wins_all_rows(vals, j, 0)
        return rows, scoop, scooped, home_runs, bonus
    return describe_kernel
