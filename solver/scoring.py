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

from ._jit import in_ranges, njit, runnable, stand_in
from .rule_file import MULTIPLIER, UNITS
from .rules import (AUTOMATIC_WINS, BONUS_REPLACE, CATEGORIES, CATEGORY_INDEX, N_RANKS,
                    PAID_ROW_MADE, ROWS, SCHEME_EASTERN,
                    SCHEME_GENERAL, SCHEME_MANDARIN, SCHEME_ROWS, SCHEME_SCOOP, SCHEME_WESTERN,
                    SCOOP_NO_ROW_LOST, RuleSet)
from .tables import CATEGORY_SHIFT, PAIRED_FLUSH_RANK_DIGIT_SHIFT, RANK_DIGIT_SHIFT

# home_run_bits gives each seat a byte of the int64 (seat a's bit against seat b is
# HOME_RUN_STRIDE * a + b): with a stride of 4, five seats' bits overlapped (seat 0 against
# seat 4 is seat 1 against seat 0).  A constant, so the kernels' shifts cost the same.
HOME_RUN_STRIDE = 8
AUTO_NONE = 0                     # no automatic win; else the special's code (1..14)
AUTO_BITS = 4                     # bits a seat in ``auto``
N_AUTO_CODES = 1 + len(AUTOMATIC_WINS)
# A seat that surrendered (docs/rules.md#surrender): not compared, like a declared special,
# so it travels in the same four bits, as the last code.
AUTO_SURRENDER = (1 << AUTO_BITS) - 1
assert N_AUTO_CODES <= AUTO_SURRENDER

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
P_MAJORITY_MULTIPLIED = P_ROW_POINTS + 11     # 1: multipliers apply to the majority too
P_SCOOP_MULTIPLIED = P_ROW_POINTS + 12        # 1: multipliers apply to scoop_units too
P_PAIR_CAP = P_ROW_POINTS + 13                # loss_cap_per_pair (0: none)
P_DEAL_CAP = P_ROW_POINTS + 14                # loss_cap_per_deal (0: none)
# Then the special hands, each N_AUTO_CODES long, indexed by code (code 0: no special, 0
# units, strength 0): units, strength, and the rule set's codes strongest first (0-ended).
P_AUTO_UNITS = P_ROW_POINTS + 15
P_AUTO_STRENGTH = P_AUTO_UNITS + N_AUTO_CODES
P_AUTO_ORDER = P_AUTO_STRENGTH + N_AUTO_CODES
# Where the specials are found by the kernels of any deck (jokers, a second set of spades,
# 16 or 17 cards: not RuleSet.plain_deal), and whether jokers are wild in them.
P_AUTO_ANY_DECK = P_AUTO_ORDER + N_AUTO_CODES
P_AUTO_WILD = P_AUTO_ANY_DECK + 1
P_SURRENDER_COST = P_AUTO_WILD + 1                # 0: no surrender
N_PARAMS = P_SURRENDER_COST + 1
# Then, for royalties by rank (general scheme only), a block of N_RANKS units (rank 2
# first) for each (row, category) that has one; that category's entry of the bonus table
# is then -1 - (the block's number), which no royalty is (units are never negative).
P_RANK_BONUS = N_PARAMS
PAIRED_FLUSH = CATEGORY_INDEX["paired_flush"]


def scoring_params(rules: RuleSet) -> np.ndarray:
    """The rule set's scoring as one int64 array for the jitted core: scalars first, then
    the 3 x 16 row-bonus table, row-major (the indices are the ``P_*`` constants above).

    Here, beside the layout it fills, not on :class:`~solver.rules.RuleSet`: the rules
    are plain data below every other module and import none of them.

    Royalties by rank follow, one block a (row, category) (see :data:`P_RANK_BONUS`).  A
    rule set scored otherwise at some table sizes has no parameters of its own: those of
    ``rules.at_seats(n)`` score a table of ``n`` seats.

    A rule set whose units could overflow the kernels (:func:`deal_units_bound` above
    :data:`DEAL_UNITS_LIMIT`, possible only for a :class:`~solver.rules.RuleSet` made in
    Python: a file's ranges keep it below) is a ``ValueError`` here, before any kernel
    runs, rather than a silent wrong answer.

    >>> from solver import rule_set
    >>> int(scoring_params(rule_set("joker"))[P_HOME_RUN])
    3
    """
    if rules.seat_scoring:
        raise ValueError(f"the {rules.name} rule set scores otherwise at "
                         f"{' and '.join(map(str, rules.seat_scoring))} seats: score a table "
                         f"with the rule set's at_seats(n)")
    bound = deal_units_bound(rules)
    if bound > DEAL_UNITS_LIMIT:
        raise ValueError(f"the {rules.name} rule set's units are too large for the solver: "
                         f"a seat could win or pay up to {bound:,} units in one deal, above "
                         f"the {DEAL_UNITS_LIMIT:,} its kernels keep exact (a rule-set file "
                         f"keeps every count of units within {UNITS[0]}-{UNITS[1]} and every "
                         f"multiplier within {MULTIPLIER[0]}-{MULTIPLIER[1]})")
    p = np.zeros(N_PARAMS + N_RANKS * len(rules.row_bonus_by_rank), np.int64)
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
    p[P_MAJORITY_MULTIPLIED] = rules.majority_multiplied
    p[P_SCOOP_MULTIPLIED] = rules.scoop_multiplied
    p[P_PAIR_CAP] = rules.loss_cap_per_pair
    p[P_DEAL_CAP] = rules.loss_cap_per_deal
    for block, (key, units) in enumerate(rules.row_bonus_by_rank.items()):
        row, _, category = key.partition(".")
        p[P_BONUS + ROWS.index(row) * N_CATEGORIES + CATEGORY_INDEX[category]] = -1 - block
        p[P_RANK_BONUS + N_RANKS * block:P_RANK_BONUS + N_RANKS * (block + 1)] = units
    strength = rules.automatic_win_strengths()
    for i, name in enumerate(rules.automatic_win_order()):
        code = 1 + AUTOMATIC_WINS.index(name)
        p[P_AUTO_UNITS + code] = rules.automatic_wins[name]
        p[P_AUTO_STRENGTH + code] = strength[name]
        p[P_AUTO_ORDER + i] = code
    p[P_AUTO_ANY_DECK] = not rules.plain_deal
    p[P_AUTO_WILD] = rules.automatic_wins_wild
    p[P_SURRENDER_COST] = rules.surrender_cost
    return p


# The most units one seat may win or pay in one deal (its deal_units_bound), for any rule
# set the kernels are given.  The integers on the way: score_candidates keeps a deal's
# units in int32 (2**31); exploitability subtracts two of those in int32 (twice the
# limit); adaptive sampling (solver.sampling.adaptive_scores) sums the squares of such
# differences over every deal of a solve in int64, at most (2 * 2**19)**2 = 2**40 a deal
# over at most SAMPLE_MEMORY_LIMIT / 786 bytes, about 5.1 million deals: below 2**63;
# and a candidate's total over those deals (below 2**42) is exact in a float64 mean
# (2**53).  tests/test_rule_bounds.py checks these sums against the constants they
# depend on; a rule-set file at the end of every range stays below half of it.
DEAL_UNITS_LIMIT = 1 << 19


@functools.lru_cache(maxsize=64)      # (scoring_params asks it on every solve)
def deal_units_bound(rules: RuleSet) -> int:
    """At least the units any seat can win or pay in one deal of ``rules`` at its
    largest table (every scheme; any RuleSet, negative counts included): each other
    seat pays it at most every row's points and royalty (its largest by rank, where it is
    by rank), times the largest multiplier, plus the foul penalty, the scoop and majority
    units (times that multiplier too, where they are multiplied) and a home run's, or the
    largest automatic win and a home run's units, or the surrender's cost.  A loss cap
    only lowers a payment.

    >>> from solver import rule_set
    >>> deal_units_bound(rule_set("classic"))       # a dragon's 13 from each of three
    39
    """
    counts = (*rules.row_points, rules.front_trips_points, rules.majority_bonus,
              rules.scoop_units, rules.home_run_units, rules.foul_penalty,
              *(u for row in rules.row_bonus for u in row),
              *(u for units in rules.row_bonus_by_rank.values() for u in units))
    points = max(abs(x) for x in (*rules.row_points, rules.front_trips_points))
    royalty = max(abs(u) for u in counts[len(rules.row_points) + 5:])
    multiplier = max(1, abs(rules.shot_multiplier), abs(rules.home_run_multiplier))
    side = 3 * (points + royalty) * multiplier        # what one side's rows pay
    # Both sides of a pair pay for their rows; with no negative count one side's payment
    # is between 0 and side, so the difference is too.
    sides = side if min(counts) >= 0 else 2 * side
    extras = abs(rules.home_run_units)
    scoop = abs(rules.scoop_units) * (multiplier if rules.scoop_multiplied else 1)
    majority = abs(rules.majority_bonus) * (multiplier if rules.majority_multiplied else 1)
    pair = sides + abs(rules.foul_penalty) + scoop + majority + extras
    special = max((abs(u) for u in rules.automatic_wins.values()), default=0) + extras
    # A surrender settles its pair alone: the cost (docs/rules.md#surrender).
    return (max(rules.seats) - 1) * max(pair, special, abs(rules.surrender_cost))


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
    return params[P_AUTO_ORDER:P_AUTO_ORDER + N_AUTO_CODES]


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
def category_bonus(params, row, value):
    """Units of the bonus table for a row of this value's category (0 if none): the
    specialised schemes' royalty, which never depends on a rank."""
    return params[P_BONUS + row * N_CATEGORIES + (value >> CATEGORY_SHIFT)]


@njit(inline="always")
def row_bonus(params, row, value):
    """The royalty of a row (0 Front, 1 Middle, 2 Back) of this value: its category's,
    or where the rule set pays that category by rank, its rank's (0 if none)."""
    units = params[P_BONUS + row * N_CATEGORIES + (value >> CATEGORY_SHIFT)]
    if units < 0:
        return _rank_bonus(params, units, value)
    return units


@njit
def _rank_bonus(params, entry, value):
    """The royalty of a row by its rank (:func:`solver.tables.value_rank`; joker trips,
    which have none, are never paid by rank) from the block ``-1 - entry``."""
    shift = (PAIRED_FLUSH_RANK_DIGIT_SHIFT if (value >> CATEGORY_SHIFT) == PAIRED_FLUSH
             else RANK_DIGIT_SHIFT)
    rank = ((value >> shift) & 15) - 1
    if rank < 0:
        rank = 0
    return params[P_RANK_BONUS + (-1 - entry) * N_RANKS + rank]


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
    bonus = category_bonus(params, row, value)
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
            bonus += category_bonus(params, r, vals[a, r])
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


@njit(inline="always")
def _times(units, multiplied, multiplier):
    """``units`` times ``multiplier`` where that item is multiplied (``multiplied`` != 0)."""
    if multiplied != 0:
        return units * multiplier
    return units


@njit
def general_against_foul(vals, a, hr_a, params):
    """Units valid seat a wins from a fouled seat: the foul penalty, and where a foul
    loses every row, every row won with its points and royalties, the majority, the
    scoop and its multiplier (a shot, or a home run's; the majority and the scoop units
    multiplied where the rule set says)."""
    units = params[P_FOUL_PENALTY]
    if params[P_FOUL_LOSES_ROWS] != 0:
        multiplier = general_multiplier(True, hr_a, params)
        units += general_side(vals, a, a, True, multiplier, params)
        units += _times(params[P_MAJORITY], params[P_MAJORITY_MULTIPLIED], multiplier)
        units += _times(params[P_SCOOP], params[P_SCOOP_MULTIPLIED], multiplier)
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
    mult_a = general_multiplier(scoop_a, hr_a, params)
    mult_b = general_multiplier(scoop_b, hr_b, params)
    units = (general_side(vals, a, b, False, mult_a, params)
             - general_side(vals, b, a, False, mult_b, params))
    if scoop_a:
        units += _times(params[P_SCOOP], params[P_SCOOP_MULTIPLIED], mult_a)
    if scoop_b:
        units -= _times(params[P_SCOOP], params[P_SCOOP_MULTIPLIED], mult_b)
    if wins >= 2:
        units += _times(params[P_MAJORITY], params[P_MAJORITY_MULTIPLIED], mult_a)
    if losses >= 2:
        units -= _times(params[P_MAJORITY], params[P_MAJORITY_MULTIPLIED], mult_b)
    return units


@njit(inline="always")
def general_pair_units(vals, fouled, auto, n, a, b, hr_a, hr_b, params):
    """Everything seat a wins from seat b under the general scheme, home-run units
    included, at most ``loss_cap_per_pair`` either way."""
    units = (pair_score(vals, fouled, auto, n, a, b, hr_a, hr_b, params, SCHEME_GENERAL)
             + params[P_HOME_RUN] * (int(hr_a) - int(hr_b)))
    cap = params[P_PAIR_CAP]
    if cap != 0:
        if units > cap:
            return cap
        if units < -cap:
            return -cap
    return units


@njit
def deal_capped_units(vals, fouled, auto, n, a, bits, params, owed, paid):
    """Seat a's units under a loss cap per deal (docs/rules.md#loss-caps): every pair
    settled (and capped per pair), then no seat loses more than the cap: a seat pays the
    seats it lost to at most the cap plus what it collects, its largest debt first (equal
    debts in seat order from the payer's left: seat x + 1, x + 2, ...).  What a seat
    collects counts the others' capped payments, so the payments are found by lowering
    them from the full debts until every seat's cap holds: the largest that do (each
    pass can only lower them, and units are whole, so it ends).  ``owed``, ``paid``:
    scratch of at least n x n."""
    for x in range(n):
        owed[x, x] = 0
        hr_x = home_run_of(bits, n, x)
        for y in range(x + 1, n):
            units = general_pair_units(vals, fouled, auto, n, x, y, hr_x,
                                       home_run_of(bits, n, y), params)
            owed[x, y] = -units if units < 0 else 0
            owed[y, x] = units if units > 0 else 0
    for x in range(n):
        for y in range(n):
            paid[x, y] = owed[x, y]
    cap = params[P_DEAL_CAP]
    changed = True
    while changed:
        changed = False
        for x in range(n):
            debt = 0
            collected = 0
            for y in range(n):
                debt += owed[x, y]
                collected += paid[y, x]
            budget = cap + collected
            if budget > debt:
                budget = debt
            # Pay the debts largest first, equal ones from x's left, within the budget.
            done = 0                       # bit y: creditor y served
            while True:
                best = -1
                for step in range(1, n):
                    y = (x + step) % n
                    if (done >> y) & 1 == 0 and owed[x, y] > 0 and (
                            best < 0 or owed[x, y] > owed[x, best]):
                        best = y
                if best < 0:
                    break
                done |= 1 << best
                pay = owed[x, best] if owed[x, best] < budget else budget
                budget -= pay
                if paid[x, best] != pay:
                    paid[x, best] = pay
                    changed = True
    units = 0
    for y in range(n):
        units += paid[y, a] - paid[a, y]
    return units


@njit(inline="always")
def _automatic_win_units(params, code):
    return params[P_AUTO_UNITS + code]


@njit(inline="always")
def _automatic_win_strength(params, code):
    return params[P_AUTO_STRENGTH + code]     # 0 for AUTO_NONE, at least 1 for a special


@njit(inline="always")
def _surrender_units(fouled, auto_a, auto_b, a, b, params):
    """Units seat a wins from seat b when one of them surrendered: the one who did pays
    the other its cost, unless the other fouled or surrendered too (a surrender pays
    the players still in the hand), and nothing else is paid between them."""
    if auto_a == AUTO_SURRENDER and auto_b == AUTO_SURRENDER:
        return 0
    if auto_a == AUTO_SURRENDER:
        return 0 if is_fouled(fouled, b) else -params[P_SURRENDER_COST]
    return 0 if is_fouled(fouled, a) else params[P_SURRENDER_COST]


@njit(inline="always")
def pair_score(vals, fouled, auto, n, a, b, hr_a, hr_b, params, scheme):
    """Units seat a wins from seat b (negative: pays), home-run extras excluded for the
    scoop scheme (see :func:`seat_score`); ``hr_a``/``hr_b``: home_run() of each."""
    if scheme == SCHEME_SCOOP:
        units = params[P_SCOOP] * (int(scoops(vals, a, b)) - int(scoops(vals, b, a)))
        for r in range(3):
            if vals[a, r] > vals[b, r]:
                units += category_bonus(params, r, vals[a, r])
            elif vals[a, r] < vals[b, r]:
                units -= category_bonus(params, r, vals[b, r])
        return units
    # Automatic wins (special hands): a declared hand is not compared; of two, the stronger
    # collects its units, equal strengths tie (docs/rules.md#special-hands; classic: a
    # dragon beats the others).  A surrender settles its pairs alone (_surrender_units).
    # Against a fouled hand the automatic win alone settles the pair (the classic rules
    # are silent; the declared hand is never compared, so no showdown exposes the foul:
    # docs/rules.md#automatic-wins-and-fouls).
    auto_a = auto_of(auto, a)
    auto_b = auto_of(auto, b)
    if auto_a != AUTO_NONE or auto_b != AUTO_NONE:
        if auto_a == AUTO_SURRENDER or auto_b == AUTO_SURRENDER:
            return _surrender_units(fouled, auto_a, auto_b, a, b, params)
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
    if scheme == SCHEME_GENERAL and params[P_DEAL_CAP] != 0:
        scratch = np.empty((2, n, n), np.int64)
        return deal_capped_units(vals, fouled, auto, n, a, bits, params, scratch[0],
                                 scratch[1])
    for b in range(n):
        if b == a:
            continue
        hr_b = home_run_of(bits, n, b)
        if scheme == SCHEME_GENERAL:
            total += general_pair_units(vals, fouled, auto, n, a, b, hr_a, hr_b, params)
            continue
        total += pair_score(vals, fouled, auto, n, a, b, hr_a, hr_b, params, scheme)
        if scheme == SCHEME_SCOOP:   # a home run: more from each scooped seat
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
    kernel, params = scoring_call(params)

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


def scoring_call(params) -> tuple:
    """(kernel, params) that :func:`score_candidates` runs for a rule set's ``params``:
    its scheme's kernel (:func:`score_kernel_for`), or while another process compiles
    that for this one, the general kernel where it is compiled, with the params of the
    general scheme (which settle every rule set as its own kernel does:
    tests/test_scoring_general.py; solver._warmup, "stand-ins").  A loss cap per deal
    has a kernel of its own and no stand-in."""
    key = score_kernel_key(params)
    own = score_kernel_for(*key)
    if key[0] == SCHEME_GENERAL or key[1]:
        return own, params
    kernel = stand_in(own, score_kernel_for(SCHEME_GENERAL))
    if kernel is own:
        return own, params
    general = params.copy()
    general[P_SCHEME] = SCHEME_GENERAL
    return kernel, general


def score_kernel_key(params) -> "tuple[int, bool]":
    """The arguments of :func:`score_kernel_for` for a rule set's ``params``: its scheme,
    and whether it caps a seat's loss per deal."""
    scheme = int(params[P_SCHEME])
    return scheme, bool(scheme == SCHEME_GENERAL and params[P_DEAL_CAP] != 0)


def scoring_kernel(rules: RuleSet):
    """:func:`score_candidates`' kernel for ``rules`` (scored at ``n`` seats: ``rules``
    is then ``rules.at_seats(n)``)."""
    capped = rules.scheme == SCHEME_GENERAL and rules.loss_cap_per_deal != 0
    return score_kernel_for(rules.scheme, capped)


# The kernels, one a scheme (closures over numbers cache on disk like functions; they
# call the helpers by their global names).
@functools.lru_cache(maxsize=None)
def score_kernel_for(scheme: int, deal_cap: bool = False):
    """:func:`score_candidates`' kernel for rule sets of ``scheme``: ``f(cand_vals,
    our_auto, our_fouled, opp_vals, opp_fouled, opp_auto, params, out, start, stop)``
    scores the samples start..stop-1 (``our_fouled``: 1 sets seat 0's foul bit).
    ``deal_cap``: the general scheme with a loss cap per deal (:func:`deal_capped_units`,
    a kernel of its own: compiled into every general kernel, it doubled the time a first
    solve of a rule set of the general scheme waited for its scoring)."""
    @njit
    def score_kernel(cand_vals, our_auto, our_fouled, opp_vals, opp_fouled, opp_auto, params,
                     out, start, stop):
        K, n_opp = cand_vals.shape[0], opp_vals.shape[1]
        n = n_opp + 1
        me = np.int64(0)       # seat 0
        vals = np.empty((n, 3), np.int32)
        if deal_cap:
            scratch = np.empty((2, n, n), np.int64)     # (for a loss cap per deal)
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
                if deal_cap:
                    out[k, s] = deal_capped_units(vals, fouled, auto, n, me, bits, params,
                                                  scratch[0], scratch[1])
                    continue
                for b in range(1, n):
                    hr_b = home_run_of(bits, n, b)
                    if scheme == SCHEME_GENERAL:
                        total += general_pair_units(vals, fouled, auto, n, me, b, hr_a, hr_b,
                                                    params)
                        continue
                    total += pair_score(vals, fouled, auto, n, me, b, hr_a, hr_b, params, scheme)
                    if scheme == SCHEME_SCOOP:
                        total += params[P_HOME_RUN] * (int(hr_a) - int(hr_b))
                out[k, s] = total
    return score_kernel


@njit(inline="always")
def _royalty(params, row, value, general):
    """The general scheme's royalty (by rank where it says), or a specialised one's."""
    if general:
        return row_bonus(params, row, value)
    return category_bonus(params, row, value)


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
                        bonus += _royalty(params, r, vals[0, r], general)
                    elif vals[0, r] == vals[j, r]:
                        rows[3 * r + 1] += 1
                    else:
                        rows[3 * r + 2] += 1
                        bonus -= _royalty(params, r, vals[j, r], general)
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
