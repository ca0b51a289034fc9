"""The solver: the legal arrangement with the best mean score against sampled opponents.

``solve`` samples the unseen cards into the opponents' hands (seeded), lets each opponent
set its hand with the policy (:mod:`solver.sampling`), finds every legal arrangement of 13
of the solver's cards that no other dominates (:mod:`solver.search`, where the argument
that this is exact is written out) and scores each of those against every sample with
the settlement core (:mod:`solver.scoring`).  The answer is exact for its samples: no
legal arrangement of any 13 of the cards scores a higher mean against the same opponent
settings.  What it returns is a :class:`solver.solution.Solution`.
"""
from __future__ import annotations

import warnings
from typing import Optional, Sequence

import numpy as np

from . import _warmup
from ._checks import check_int
from ._jit import compile_progress, runnable
from .autowin import KIND_NAMES, special_of, special_split
from .cards import CardsLike, names
from .display import FEW_DEALS, reading_order
from .policy import POLICY_TABLE, builtin_policy, compile_model_kernel, set_hands_kernel
from .pool import MAX_DEALS
from .rules import ROWS, RuleSet
from .sampling import (DEPART_Z, Deals, Hand, Policy, adaptive_scores, anchor_setting,
                       check_memory, check_sampling, first_batch, given_opponents,
                       prepare_hand, use_pool)
from .scoring import (AUTO_SURRENDER, describe, describer, row_bonus, score_candidates,
                      scoring_kernel, scoring_params)
from .search import dominance_failure, front_bonus_is_monotone, nondominated_arrangements
from .solution import Alternative, Solution
from .tables import category_name, row_tables

__all__ = ["Alternative", "Solution", "solve"]


# What ``solve(cards, rules)`` does when ``samples`` is not given: adaptive sampling,
# anchored on the opponent model's own setting, to this precision (units an opponent)
# and at most this many opponent hands set, by the cards dealt (the work a deal costs
# is one setting per opponent; a 16- or 17-card hand costs about 2.5 times a 13-card
# one).  "fast" is sized by the time a solve may take: at 16 and 17 cards most hands
# stop after the first batch, and the tighter precision and larger cap, spent on the
# hands that do not, brought back most of what exactly 1000 deals chose better
# (benchmarks/README.md, "The default against the previous default").  "max" buys the
# last of the edge at a hundred times the work (benchmarks/README.md, "What the edge
# costs"), and never stops before the deals "fast" may use (its cap, for the same hand):
# every rival shown worse on a first batch ends "fast" early, and "max", with other
# deals (dealt, where "fast" heads-up takes the pool's), would otherwise stop as early.
# The held-out deals of adaptive sampling: a quarter of the deals it used, and at least
# this many opponent hands' worth (64 deals heads-up, 22 at four seats).
HOLDOUT_HANDS = 64
EFFORTS = {
    "fast": dict(precision={13: 0.05, 16: 0.025, 17: 0.025},
                 hands={13: 1024, 16: 4096, 17: 4096}),
    "max": dict(precision={13: 0.005, 16: 0.005, 17: 0.005},
                hands={13: 65536, 16: 32768, 17: 32768}),
}
# Where a heads-up solve's deals come from the pool (pagat and classic: solver.pool) a
# deal costs no setting, so "fast" spends what the pool saves on precision: 0.01 units
# and as many deals as the pool gives a solve.  (At three or four seats the pool saves
# one setting of a deal's two or three, and the preset stays the dealt one.)  In the
# heads-up classic truth tables that gains +0.0016 units a hand [+0.0007, +0.0024] over
# the dealt preset, in about 2 ms (benchmarks/README.md, "Heads-up deals from a pool of
# hands set in advance").
POOLED_FAST = dict(precision=0.01, samples=MAX_DEALS)


def solve(cards: CardsLike, rules: "str | RuleSet", cut: "str | int | None" = None, *,
          samples: Optional[int] = None, seed: int = 0, players: Optional[int] = None,
          opponents: Optional[Sequence] = None, policy: Optional[Policy] = None,
          top: int = 5, holdout: Optional[int] = None,
          precision: Optional[float] = None, effort: Optional[str] = None,
          pool: Optional[bool] = None) -> Solution:
    """The legal arrangement of 13 of ``cards`` with the best expected score against the
    opponent model (docs/rules.md#what-the-solver-optimises), and an unbiased estimate
    of its EV.

    Parameters
    ----------
    cards: 17 cards for ``joker``, 16 for ``bonus`` (plus ``cut``), 13 for ``pagat`` and
        ``classic``; text, a hand bitmask or card codes.
    rules: the rule set: ``"joker"``, ``"bonus"``, ``"pagat"``, ``"classic"`` (Western
        scoring), ``"classic:eastern"`` or ``"classic:mandarin"``, or a
        :class:`solver.RuleSet` (docs/rules.md).
    cut: the cut card of ``bonus`` (``"4c"``: its rank is the Bonus rank, and it is out of
        play); None for every other rule set.
    samples: None (the default): sample adaptively, as ``effort`` says (below).  An
        integer N: exactly N deals of the unseen cards, and the answer is exact for them:
        no legal arrangement of any 13 of the cards has a higher mean over those deals
        (at most what fits in ``SAMPLE_MEMORY_LIMIT`` bytes with every candidate setting
        scored on every deal: about 5 million deals heads-up for a hand of a dozen
        candidates, 360,000 for one of 2,555; more is refused before dealing).
        With ``precision``, N is the most adaptive sampling may use.
    seed: the seed of the deals: an ``int`` >= 0 (the same arguments give the same
        answer every time), None (fresh entropy) or a ``numpy.random.Generator`` (a seed
        drawn from it); ``Solution.seed`` is the seed used, to repeat the solve.
    players: seats at the table (``pagat``/``classic``: 2-4; default 4).
    opponents: instead of sampling, the opponents' settings for each sample: a sequence
        of samples, each a sequence of ``(front, middle, back)`` (add a fourth item
        ``"declare"`` for a declared automatic win, ``"surrender"`` for a surrender:
        docs/rules.md#surrender); the EV is then the mean over exactly
        those, with no randomness, and the answer is exact for them.  ``samples``, if
        given too, must be their number.
    policy: how each sampled opponent sets its hand: ``None`` or ``"table"`` (the default
        model, :mod:`solver.model`), a :class:`solver.model.TableModel`, ``"field"`` (the
        previous default, kept to compare with), ``"sbf"`` (strongest Back first) -- all
        jitted -- or any function ``(hand_text, rules, cut) -> (front, middle, back)``
        (called for every opponent hand, so slow; a fouled setting it returns is played
        and scored where the rule set scores fouls, ``classic`` and ``pagat``, and is an
        error in ``joker`` and ``bonus``, which cannot play one).
    top: how many alternative arrangements to report (0 for none), each with its mean
        and its paired difference from the best on the same samples.
    holdout: after the best arrangement is chosen, how many new deals (independent of the
        ones that chose it: seeded by :func:`holdout_seed`, opponents set by the same
        ``policy``) to score it on again: ``ev`` is its mean there, an unbiased estimate,
        while the mean over the deals that chose it (``ev_in_sample``) is biased upward.
        Default: a quarter of the deals used (with adaptive sampling, at least 64 opponent
        hands' worth: 64 deals heads-up, 22 at four seats); 0: no
        held-out deals (``ev`` is then the in-sample mean).  With ``opponents=`` there is nothing to hold out (0).
    precision, effort: adaptive sampling (the default).  Deals come in seeded batches
        (64 opponent hands' worth first -- 64 deals heads-up, 22 at four seats -- then as
        many again as all before), only the arrangements still in the running are scored
        on each, and every rival is compared, deal by deal, with the *anchor*: the
        setting the opponent model itself makes with these cards (:func:`solver.quick_set`,
        for the default model; a policy function gives no anchor, and the current leader
        serves instead).  A rival leaves the running when the 95% confidence interval of
        its paired difference from the anchor lies below 0 (it is worse); sampling stops
        when every rival left has that interval's half-width at most ``precision`` units,
        or at the cap (``Solution.capped``).  The choice is the anchor unless a rival
        still in the running leads it by more than one standard error; then the best of
        those.  (Picking the best of many noisy means would often pick a lucky one: the
        model's own setting is a strong prior, and a departure from it must be earned.)
        ``effort`` sets the defaults (:data:`EFFORTS`): ``"fast"`` (the default:
        ``precision`` 0.05 units an opponent and at most 1,024 opponent hands for 13
        cards, 0.025 and 4,096 for 16 or 17 -- about ten milliseconds for most hands,
        tens for the hardest; heads-up with deals from the pool, ``pool`` below, 0.01
        units and up to 3,500 deals, :data:`POOLED_FAST`, about two milliseconds) or ``"max"``
        (0.005 an opponent, up to 65,536 hands, 32,768 for 16 or 17 cards -- up to about
        a second -- and never fewer deals than ``"fast"`` may use, its cap for the same
        hand).  ``Solution.samples`` says how many deals it used.

    pool: where the deals come from.  None (the default): ``pagat`` and ``classic``
        with the shipped model take them from a pool of opponent hands set in advance and
        kept on disk (:mod:`solver.pool`: heads-up the whole deal, at three or four
        seats the first opponent's hand, the others dealt from the cards left; deals
        distributed exactly as dealt ones, each setting the model's; ``Solution.pooled``)
        when ``samples`` (or the
        adaptive cap) is at most ``solver.pool.MAX_DEALS`` (and the kernels are compiled:
        not with ``NUMBA_DISABLE_JIT=1``), and their held-out deals when
        ``holdout`` is at most ``solver.pool.MAX_HELD_OUT``; every other solve deals them.
        False: always deal them.  True: the pool, or a ``ValueError``.

    How the answer is found without scoring 171 million arrangements: see
    :mod:`solver.search`.  The ``samples``, ``seed``, ``precision`` and ``effort`` alone
    decide the answer: ``holdout`` only changes the numbers reported for it.

    While the kernels compile the first time, stderr says so, and every few seconds how
    long it has taken so far (:func:`solver._jit.compile_progress`; ``SOLVER_QUIET=1``
    turns it off).
    """
    hand = prepare_hand(cards, rules, cut, players, with_tables=False)   # (built below)
    return _solve_hand(hand, samples=samples, seed=seed, opponents=opponents, policy=policy,
                       top=top, holdout=holdout, precision=precision, effort=effort,
                       pool=pool)


def _solve_hand(hand: Hand, *, samples: Optional[int] = None, seed: int = 0,
                opponents: Optional[Sequence] = None, policy: Optional[Policy] = None,
                top: int = 5, holdout: Optional[int] = None,
                precision: Optional[float] = None, effort: Optional[str] = None,
                pool: Optional[bool] = None) -> Solution:
    """:func:`solve` of a :class:`solver.sampling.Hand` already resolved (its rule set,
    cards, cut card and seats; its row tables built here when it has none), the other
    arguments and their defaults as :func:`solve`'s: :func:`solver.review` solves the
    hand it has resolved."""
    rs, n_seats = hand.rules, hand.seats
    if not front_bonus_is_monotone(rs):
        raise ValueError(f"{rs.name}: a stronger Front earns fewer units than a weaker one; "
                         f"the solver's pruning assumes it never does")
    failure = dominance_failure(rs)
    if failure is not None:
        raise ValueError(f"{rs.name}: {failure}; the solver's pruning assumes a stronger "
                         f"row never scores less")
    adaptive = opponents is None and (samples is None or precision is not None)
    minimum = 0                 # the deals adaptive sampling uses at least
    if effort is not None and not (adaptive and samples is None):
        raise ValueError(f"effort={effort!r} sets the adaptive sampling of a solve with no "
                         f"samples= (samples=N asks for exactly N deals)")
    if adaptive:
        if effort is None:
            effort = "fast"
        if effort not in EFFORTS:
            raise ValueError(f"effort must be one of {', '.join(map(repr, EFFORTS))}, "
                             f"not {effort!r}")
        if samples is None:
            samples, preset_precision = _preset(effort, hand, policy, pool)
            if precision is None:
                precision = preset_precision
        if effort == "max":                 # never fewer deals than "fast" may spend
            minimum = min(samples, _preset("fast", hand, policy, pool)[0])
    samples, seed, opponents, policy = check_sampling(rs, n_seats, samples, seed, opponents,
                                                      policy)
    top = check_int("top", top, 0)
    holdout = _check_holdout(holdout, opponents, rs, n_seats)
    if adaptive or precision is not None:
        precision = _check_precision(precision, opponents)
    if opponents is not None and pool:
        raise ValueError("pool=True: with opponents= there is nothing to deal")
    if opponents is None:
        use_pool(hand, policy, pool, samples)          # (a bad pool=, before compiling)
    builtin = None if opponents is not None else builtin_policy(policy, rs, n_seats, None)
    # A first solve builds the row tables and compiles the scoring kernel in another
    # process while this one compiles the opponents' (from their types, then by drawing
    # the first deals and setting its own hand as the model would); that process then
    # compiles the search and the description, which this one runs as Python meanwhile
    # (solver._warmup).  It needs no row tables, so it starts before they are built.
    warming = None if builtin is None else _warmup.start(
        set_hands_kernel(builtin[0], rs.scheme, rs.cards_dealt), rs, hand.cut_name)
    # A first solve compiles its kernels: say so, and how long it has taken so far.
    with compile_progress(_kernels(None if builtin is None else builtin[0], rs),
                          "the solver's kernels"):
        if warming is not None and builtin[0] == POLICY_TABLE:
            compile_model_kernel(rs.scheme, rs.cards_dealt)   # (the tables: being built)
        if hand.tables is None:
            hand = hand._replace(tables=row_tables(rs, hand.bonus_rank))
        return _solved(hand, samples, seed, opponents, policy, top, holdout, precision,
                       effort, adaptive, builtin, warming, pool, minimum)


def _preset(effort: str, hand, policy, pool) -> tuple[int, float]:
    """An ``effort`` preset's cap of deals and precision (units of the seat's score) for
    ``hand``: "fast" heads-up with deals from the pool, :data:`POOLED_FAST`; else
    :data:`EFFORTS`' (a preset's precision is per opponent: a seat's EV sums them)."""
    rs, n_seats = hand.rules, hand.seats
    # (Whether the pool would apply; a bad or impossible pool= is refused later.)
    if effort == "fast" and n_seats == 2 and pool is not False \
            and use_pool(hand, policy, None, POOLED_FAST["samples"]):
        return POOLED_FAST["samples"], POOLED_FAST["precision"]
    preset = EFFORTS[effort]
    return (max(first_batch(n_seats), preset["hands"][rs.cards_dealt] // (n_seats - 1)),
            preset["precision"][rs.cards_dealt] * (n_seats - 1))


def _solved(hand, samples, seed, opponents, policy, top, holdout, precision, effort, adaptive,
            builtin, warming, pool, minimum=0) -> Solution:
    """:func:`solve` on validated arguments; ``warming``: :func:`solver._warmup.start`'s
    process, or None."""
    rs, tables, own, n_seats = hand.rules, hand.tables, hand.own, hand.seats
    params = scoring_params(rs)
    codes = np.array(own, np.int64)
    deals = None if opponents is not None else Deals(hand, seed, policy, pool, samples)
    masks, ords = runnable(nondominated_arrangements)(codes, tables, params)
    if len(masks) == 0:
        raise AssertionError("a hand always has a legal arrangement")
    if opponents is None:             # (every candidate is scored on every deal: before dealing)
        check_memory("samples", samples, rs, n_seats, len(masks), adaptive=adaptive)
    if opponents is not None:
        opp = given_opponents(opponents, hand)
    elif adaptive:
        first = deals.batch(0, min(samples, first_batch(n_seats)))
        prior = anchor_setting(hand, policy)
    else:
        opp = deals.fixed(samples)
    _warmup.finish(warming)
    cand_vals = tables.values[ords].astype(np.int32)
    anchor = None
    if adaptive:
        anchor = _anchor_candidate(cand_vals, prior, params)
        scores, scored, running, opp, diff_means, diff_stderrs = adaptive_scores(
            hand, deals, cand_vals, params, precision=precision, cap=samples,
            anchor=anchor, first=first, minimum=minimum)
    else:
        scores = score_candidates(cand_vals, 0, *opp, params)
        scored = np.full(len(cand_vals), scores.shape[1])
        running = np.arange(len(cand_vals))
        diff_means = diff_stderrs = None
    # A candidate's mean over the deals it was scored on (all of them, unless adaptive
    # sampling dropped it on the way).
    totals = scores.sum(axis=1)                  # (the deals not scored hold zeros)
    means = totals / scored
    S = scores.shape[1]
    best = _choice(means, running, anchor, diff_means, diff_stderrs, S)

    def rows_text(i):
        """Arrangement i's rows as a player reads them (as the hands they count as)."""
        return tuple(names(reading_order([own[p] for p in range(len(own))
                                          if masks[i, r] >> p & 1], value=int(cand_vals[i, r])))
                     for r in range(3))

    front, middle, back = rows_text(best)
    used = int(masks[best, 0] | masks[best, 1] | masks[best, 2])
    discards = names(reading_order([own[p] for p in range(len(own)) if not used >> p & 1],
                                   group=False))
    rows, scoop, scooped, home_runs, bonus = describe(cand_vals[best], *opp, params)
    compared = int(rows[0].sum())
    row_rates = {name: tuple(float(x) / compared if compared else 0.0 for x in rows[r])
                 for r, name in enumerate(ROWS)}
    alternatives = tuple(Alternative(*rows_text(i), float(row.sum() / S),
                                     *_paired_difference(row, scores[best]),
                                     categories=_categories(cand_vals[i]), samples=S)
                         for i, row in _next_best(scores, totals, scored, best, cand_vals,
                                                  opp, params, top))
    if S < FEW_DEALS:
        warnings.warn(f"{S} deal{'s' if S > 1 else ''} cannot tell settings apart: the "
                      f"standard errors of fewer than {FEW_DEALS} deals mean little "
                      f"(use more samples)", UserWarning, stacklevel=2)
    # The other actions than setting, scored on the same deals: declaring the hand's
    # special (where it holds one) and surrendering (where the rule set allows it).  A
    # special that counts whether the player likes it or not leaves no choice.
    auto_name, declare, kind, surrender = None, None, 0, None
    declaring, surrendering = {}, {}      # their numbers, as the setting's
    kind = special_of(codes, rs)
    counted = bool(kind) and not rs.automatic_wins_declared
    if kind:
        auto_name = KIND_NAMES[kind]
        declared = score_candidates(cand_vals[:1], kind, *opp, params)[0]
        declaring["ev_declare_in_sample"] = float(declared.mean())
        declare_rows, declare_discards = _declare_rows(kind, own, rs)
        declaring.update(declare_rows=declare_rows, declare_discards=declare_discards)
    if rs.surrender_cost and not counted:
        given_up = score_candidates(cand_vals[:1], AUTO_SURRENDER, *opp, params)[0]
        surrendering["ev_surrender_in_sample"] = float(given_up.mean())
    # The action: the highest mean over the deals that chose the setting (a tie keeps
    # the setting, then declaring).
    setting_mean = float(means[best])
    declare_mean = declaring.get("ev_declare_in_sample", -np.inf)
    surrender_mean = surrendering.get("ev_surrender_in_sample", -np.inf)
    if kind:
        declare = counted or (declare_mean > setting_mean and declare_mean >= surrender_mean)
    if surrendering:
        surrender = not declare and surrender_mean > setting_mean
    if holdout is None:                         # a quarter of the deals it used, and
        holdout = max(S // 4, 1 if not adaptive  # with adaptive sampling 64 opponent hands
                      else -(-HOLDOUT_HANDS // (n_seats - 1)))           # at least
    if holdout:
        held_opp = deals.held_out(holdout)
        held = score_candidates(cand_vals[best:best + 1], 0, *held_opp, params)[0]
    else:
        held_opp, held = opp, scores[best]
    if kind:                 # declaring on the setting's footing: the same (held-out) deals
        held_declared = declared if held_opp is opp else score_candidates(
            cand_vals[:1], kind, *held_opp, params)[0]
        declaring.update(ev_declare=float(held_declared.mean()),
                         stderr_declare=_stderr(held_declared))
    if surrendering:         # surrendering, likewise
        held_given_up = given_up if held_opp is opp else score_candidates(
            cand_vals[:1], AUTO_SURRENDER, *held_opp, params)[0]
        surrendering.update(ev_surrender=float(held_given_up.mean()),
                            stderr_surrender=_stderr(held_given_up))
    solution = Solution(
        rules=rs.name, front=front, middle=middle, back=back, discards=discards,
        ev=float(held.mean()), stderr=_stderr(held), samples=S,
        ev_in_sample=float(means[best]), holdout=holdout,
        categories=_categories(cand_vals[best]),
        p_scoop=tuple(float(x) / S for x in scoop),
        p_scooped=tuple(float(x) / S for x in scooped), p_home_run=home_runs / S,
        row_rates=row_rates, bonus_units=float(bonus) / S, alternatives=alternatives,
        candidates=len(masks), automatic_win=auto_name, declare=declare, **declaring,
        surrender=surrender, **surrendering,
        cut=hand.cut_name,
        precision=precision if adaptive else None, effort=effort,
        capped=adaptive and S == samples and len(running) > 1, in_running=len(running),
        anchored=None if anchor is None else best == anchor,
        hand=names(reading_order(own, group=False)), players=n_seats, seed=seed,
        pooled=deals is not None and deals.pooled)
    # The rule set itself, for the text of the answer (solver.display): a rule-set file's
    # name is in no registry.  (As solver.review does; it travels with a pickled answer.)
    object.__setattr__(solution, "_rule_set", rs)
    return solution


def _declare_rows(kind: int, own: list, rs: RuleSet) -> tuple[tuple[str, str, str], str]:
    """The rows that show the hand's special ``kind`` -- 13 of its cards -- as a player
    reads them, and the cards it does not keep (16 or 17 dealt)."""
    front, middle, back, discards = special_split(kind, own, rs)
    return (tuple(names(reading_order(row, group=False)) for row in (front, middle, back)),
            names(reading_order(discards, group=False)) if discards else "")


def _next_best(scores: np.ndarray, totals: np.ndarray, scored: np.ndarray, best: int,
               cand_vals: np.ndarray, opp, params, top: int) -> list[tuple[int, np.ndarray]]:
    """The ``top`` rivals closest to ``best``, closest first, each with its scores on
    every deal of the solve: ``(candidate, scores)``.

    A rival's distance is its paired difference from the best, its score minus the
    best's deal by deal, averaged over the deals it was scored on (adaptive sampling
    stops scoring a rival once it is shown worse: a prefix of the deals).  Those kept
    are scored again on every deal where they were not, so that each is compared with
    the best on the same deals as every other (its mean then on the footing of the
    best's ``ev_in_sample``), and ordered by that difference (exact integer totals:
    ties keep the first order).  ``totals``: each candidate's scores summed."""
    if top == 0 or len(scores) < 2:
        return []
    S = scores.shape[1]
    if (scored == S).all():                  # (every one on every deal: by its total)
        best_totals = totals[best]
    else:                                    # (the best's total over each one's deals)
        prefix = np.concatenate(([0], np.cumsum(scores[best], dtype=np.int64)))
        best_totals = prefix[scored]
    diff_means = (totals - best_totals) / scored
    diff_means[best] = -np.inf
    closest = np.argsort(-diff_means, kind="stable")[:min(top, len(scores) - 1)]
    rivals = [int(i) for i in closest]
    rows = scores[rivals]
    dropped = [k for k, i in enumerate(rivals) if scored[i] < S]
    if dropped:                  # (every deal: the ones it had are scored again alike)
        rows = rows.copy()
        rows[dropped] = score_candidates(cand_vals[[rivals[k] for k in dropped]], 0, *opp,
                                         params)
    totals = rows.sum(axis=1, dtype=np.int64)
    return [(rivals[k], rows[k]) for k in np.argsort(-totals, kind="stable")]


def _anchor_candidate(cand_vals: np.ndarray, anchor_vals, params) -> Optional[int]:
    """The candidate that stands for the opponent model's own setting: the one with its
    row values, else the first that dominates it (as good in every row, bonus units
    included: solver.search), else None (a fouled setting, or no model)."""
    if anchor_vals is None or not anchor_vals[0] < anchor_vals[1] <= anchor_vals[2]:
        return None
    same = np.flatnonzero((cand_vals == anchor_vals).all(axis=1))
    if len(same):
        return int(same[0])
    for k, vals in enumerate(cand_vals):
        if all(vals[r] >= anchor_vals[r]
               and row_bonus(params, r, vals[r]) >= row_bonus(params, r, anchor_vals[r])
               for r in range(3)):
            return k
    return None


def _choice(means: np.ndarray, running: np.ndarray, anchor: Optional[int],
            diff_means: Optional[np.ndarray], diff_stderrs: Optional[np.ndarray],
            deals: int) -> int:
    """The arrangement chosen: without an anchor, the best mean still in the running;
    with one, the anchor unless rivals still in the running lead it, deal by deal, by
    more than DEPART_Z standard errors, and then the best mean of those.  (``diff_means``
    and ``diff_stderrs``: the running candidates' paired differences from the anchor
    over all ``deals``, from :func:`solver.sampling.adaptive_scores`.)"""
    if anchor is None or anchor not in running:
        return int(running[np.argmax(means[running])])
    if deals < 2:
        return anchor                 # (one deal: no standard error, no departure)
    ahead = [int(k) for k, d, e in zip(running, diff_means, diff_stderrs)
             if k != anchor and d > DEPART_Z * e]
    return max(ahead, key=lambda k: means[k]) if ahead else anchor


def _check_precision(precision, opponents) -> float:
    """The adaptive-sampling precision, validated: a positive number of units."""
    if opponents is not None:
        raise ValueError("precision= samples adaptively; with opponents= there is nothing "
                         "to sample")
    if isinstance(precision, bool) or not isinstance(precision, (int, float, np.number)) \
            or not np.isfinite(precision) or precision <= 0:
        raise ValueError(f"precision must be a positive number of units, not {precision!r}")
    return float(precision)


def _check_holdout(holdout, opponents, rs: RuleSet, n_seats: int) -> Optional[int]:
    """The number of held-out deals: validated, 0 with given opponents, None for the
    default (a quarter of the deals used)."""
    if opponents is not None:
        if holdout is not None and check_int("holdout", holdout, 0) > 0:
            raise ValueError(f"holdout={holdout}: with opponents= there is nothing to hold "
                             f"out (the EV is the mean over exactly those opponents)")
        return 0
    if holdout is None:
        return None
    holdout = check_int("holdout", holdout, 0)
    # The in-sample deals' hands are freed before the held-out ones are drawn: the same
    # limit applies to each.
    check_memory("holdout", holdout, rs, n_seats)
    return holdout


def _stderr(scores: np.ndarray) -> Optional[float]:
    """The standard error of the mean of ``scores`` (None for a single sample: undefined).
    The reported numbers keep this two-pass formula, bit for bit as before; adaptive
    sampling's running tests use integer sums (solver.sampling.paired_statistics)."""
    n = len(scores)
    return float(np.std(scores, axis=-1, ddof=1) / np.sqrt(scores.shape[-1])) if n > 1 else None


def _paired_difference(scores: np.ndarray, best: np.ndarray) -> tuple[float, Optional[float]]:
    """Mean and standard error of ``scores - best``, sample by sample."""
    diff = scores.astype(np.float64) - best.astype(np.float64)
    return float(diff.mean()), _stderr(diff)


def _categories(values) -> tuple[str, str, str]:
    """The rows' category names (values from the row tables: no check needed)."""
    return tuple(category_name(int(v)) for v in values)


def _kernels(policy_kind: Optional[int], rules: RuleSet) -> list:
    """The kernels a solve runs (for the compile notices of :mod:`solver._jit`): with
    ``policy_kind`` not None, the opponents are set by that built-in policy, for
    ``rules``."""
    kernels = [nondominated_arrangements, scoring_kernel(rules),
               describer(rules.scheme)]
    if policy_kind is not None:
        kernels.append(set_hands_kernel(policy_kind, rules.scheme, rules.cards_dealt))
    return kernels
