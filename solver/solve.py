"""The solver: the legal arrangement with the best mean score against sampled opponents.

``solve`` samples the unseen cards into the opponents' hands (seeded), lets each opponent
set its hand with the policy, finds every legal arrangement of 13 of the solver's cards
that no other dominates (:mod:`solver.search`, where the argument that this is exact is
written out) and scores each of those against every sample with the settlement core.
The answer is exact for its samples: no legal arrangement of any 13 of the cards scores a
higher mean against the same opponent settings.
"""
from __future__ import annotations

import dataclasses
import json
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np
from numba import prange

from . import _warmup, scoring
from ._checks import check_int, is_int
from ._jit import compile_notice, njit, threads_for
from .autowin import KIND_NAMES, auto_code, automatic_win_kind
from .cards import CardsLike, card_name, deck_codes, format_cards, parse_codes, to_codes
from .policy import POLICY_NAMES, POLICY_TABLE, builtin_policy, set_hands, set_hands_kernel
from .rows import RowValue, _value_of_codes, bonus_rank_of, cut_taken, tables_for
from .rules import ROWS, SCHEME_SCOOP, RuleSet, rule_set
from .search import front_bonus_is_monotone, nondominated_arrangements
from .settle import _seat_codes

Policy = Callable[[str, RuleSet, Optional[str]], Sequence]


@dataclass(frozen=True)
class Alternative:
    """Another non-dominated arrangement: its mean score over the samples (``ev``, like
    the best's ``ev_in_sample``), and its paired difference from the best arrangement on
    those same samples (``diff`` <= 0, the mean of its score minus the best's, sample by
    sample) with that difference's standard error (``diff_stderr``).  A ``diff`` within
    two ``diff_stderr`` of 0 is no evidence that the best is really better (``tied``)."""
    front: str
    middle: str
    back: str
    ev: float
    diff: float
    diff_stderr: float
    categories: tuple[str, str, str] = ("", "", "")    # each row's category (API name)

    @property
    def tied(self) -> bool:
        """Statistically tied with the best: ``-diff <= 2 * diff_stderr``."""
        return -self.diff <= 2 * self.diff_stderr


@dataclass(frozen=True)
class Solution:
    """The best arrangement found by :func:`solve`, with its statistics.

    ``ev`` is the chosen arrangement's mean score on ``holdout`` deals independent of the
    ones that chose it, an unbiased estimate of its expected score, and ``stderr`` that
    mean's standard error.  ``ev_in_sample`` is its mean over the ``samples`` deals that
    chose it: the best of many noisy means, so *biased upward* whenever arrangements are
    close (the more candidates and the fewer samples, the more).  With ``holdout`` 0
    (``solve(..., holdout=0)``, or given ``opponents=``) ``ev`` is that in-sample mean.
    Units are the seat's net settlement units a deal (docs/rules.md#scoring).

    Probabilities are over the in-sample deals (and, per opponent, over that opponent's
    seat).  A *scoop* is losing no row to that opponent in ``joker``/``bonus`` and winning
    every row against it elsewhere (a *shot* in ``classic:mandarin``); ``p_scooped``
    likewise from the opponent's side.  ``row_rates`` and ``bonus_units`` count only
    opponents whose rows were compared (not those that fouled or declared an automatic
    win).  ``alternatives`` are the next best of the non-dominated arrangements (an
    arrangement another one dominates is never better than that one, so it is not
    scored), each with its paired difference from the best; ``tied`` lists those within
    two standard errors of it.  ``declare``/``ev_declare`` (``classic`` with an automatic
    win in hand): whether declaring beats playing the best arrangement over the samples,
    and its mean score there.  ``categories``: each row's category (API name); ``cut``:
    the cut card (``bonus``).

    ``str(solution)`` is the text :mod:`solver.display` lays out; :meth:`to_dict` and
    :meth:`to_json` give every field as plain Python values.
    """
    rules: str
    front: str
    middle: str
    back: str
    discards: str
    ev: float
    stderr: float
    samples: int
    ev_in_sample: float
    holdout: int
    categories: tuple[str, str, str]
    p_scoop: tuple[float, ...]
    p_scooped: tuple[float, ...]
    p_home_run: float
    row_rates: dict           # row -> (win, tie, loss) rates against one opponent
    bonus_units: float        # mean bonus-table units won minus paid
    alternatives: tuple[Alternative, ...]
    candidates: int           # non-dominated legal arrangements scored
    automatic_win: Optional[str] = None
    declare: Optional[bool] = None
    ev_declare: Optional[float] = None
    cut: Optional[str] = None
    precision: Optional[float] = None   # solve(..., precision=): samples is what it used

    @property
    def tied(self) -> tuple[Alternative, ...]:
        """The alternatives statistically tied with the best (see :class:`Alternative`)."""
        return tuple(a for a in self.alternatives if a.tied)

    @property
    def players(self) -> int:
        """Seats at the table, the solver's included."""
        return len(self.p_scoop) + 1

    def to_dict(self) -> dict:
        """Every field as plain Python values (lists for tuples), ready for ``json``;
        :meth:`from_dict` rebuilds the Solution.  Each alternative also says whether it
        is ``tied``."""
        d = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        d["alternatives"] = [dict(_plain(dataclasses.asdict(a)), tied=a.tied)
                             for a in self.alternatives]
        return d

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, d: dict) -> "Solution":
        """The Solution :meth:`to_dict` gave ``d`` for."""
        names = {f.name for f in dataclasses.fields(Alternative)}
        alternatives = tuple(
            Alternative(**{k: tuple(v) if isinstance(v, list) else v
                           for k, v in a.items() if k in names})
            for a in d["alternatives"])
        fields = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()
                  if k in fields}
        kwargs["row_rates"] = {row: tuple(r) for row, r in d["row_rates"].items()}
        return cls(**dict(kwargs, alternatives=alternatives))

    def __str__(self) -> str:
        from .display import solution_text
        return solution_text(self)


def _plain(x):
    """``x`` with numpy scalars as Python numbers and tuples as lists (for JSON)."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


# --- kernels ------------------------------------------------------------------------------
@njit
def _sample_flags(opp_fouled, opp_auto, s):
    """The core's (fouled, auto) bitmasks for sample s, the solver in seat 0."""
    fouled = 0
    auto = 0
    for j in range(opp_fouled.shape[1]):
        if opp_fouled[s, j]:
            fouled |= 1 << (j + 1)
        auto |= np.int64(opp_auto[s, j]) << (2 * (j + 1))
    return fouled, auto


# Samples a thread takes at a time in the parallel kernels: enough work to pay for the
# hand-off, small enough to share a 1000-sample solve evenly between cores.
SAMPLE_CHUNK = 64


def _score_candidates(cand_vals, our_auto, opp_vals, opp_fouled, opp_auto, params):
    """scores[k, s]: units of arrangement k (or of declaring, when our_auto) in sample s.

    Chunks of samples go to Numba's threads (little work stays on one thread:
    :func:`solver._jit.threads_for`); each writes only its own columns, so the scores
    are the same whatever the number of threads."""
    pairs = cand_vals.shape[0] * opp_vals.shape[0] * opp_vals.shape[1]
    with threads_for(pairs / 1000):
        return _score_kernel(cand_vals, our_auto, opp_vals, opp_fouled, opp_auto, params)


@njit(parallel=True)
def _score_kernel(cand_vals, our_auto, opp_vals, opp_fouled, opp_auto, params):
    """:func:`_score_candidates`' kernel."""
    K, S, n_opp = cand_vals.shape[0], opp_vals.shape[0], opp_vals.shape[1]
    n = n_opp + 1
    out = np.empty((K, S), np.int32)
    for c in prange((S + SAMPLE_CHUNK - 1) // SAMPLE_CHUNK):
        vals = np.empty((n, 3), np.int32)
        for s in range(c * SAMPLE_CHUNK, min(S, (c + 1) * SAMPLE_CHUNK)):
            fouled, auto = _sample_flags(opp_fouled, opp_auto, s)
            auto |= our_auto
            for j in range(n_opp):
                for r in range(3):
                    vals[j + 1, r] = opp_vals[s, j, r]
            for k in range(K):
                for r in range(3):
                    vals[0, r] = cand_vals[k, r]
                out[k, s] = scoring.seat_score(vals, fouled, auto, n, 0, params)
    return out


@njit
def _describe(our_vals, opp_vals, opp_fouled, opp_auto, params):
    """Counts for the Solution: per-row win/tie/loss, scoops each way per opponent, home
    runs, and net bonus units, all from the settlement core's helpers."""
    S, n_opp = opp_vals.shape[0], opp_vals.shape[1]
    n = n_opp + 1
    rows = np.zeros((3, 3), np.int64)
    scoop = np.zeros(n_opp, np.int64)
    scooped = np.zeros(n_opp, np.int64)
    home_runs = 0
    bonus = 0
    vals = np.empty((n, 3), np.int32)
    vals[0] = our_vals
    scoop_scheme = params[scoring.P_SCHEME] == SCHEME_SCOOP
    for s in range(S):
        fouled, auto = _sample_flags(opp_fouled, opp_auto, s)
        for j in range(n_opp):
            vals[j + 1] = opp_vals[s, j]
        if scoring.home_run(vals, fouled, auto, n, 0, params):
            home_runs += 1
        for j in range(1, n):
            if not scoring.compared(fouled, auto, 0, j):
                continue
            for r in range(3):
                if vals[0, r] > vals[j, r]:
                    rows[r, 0] += 1
                    bonus += scoring.row_bonus(params, r, vals[0, r])
                elif vals[0, r] == vals[j, r]:
                    rows[r, 1] += 1
                else:
                    rows[r, 2] += 1
                    bonus -= scoring.row_bonus(params, r, vals[j, r])
            if scoop_scheme:
                scoop[j - 1] += scoring.scoops(vals, 0, j)
                scooped[j - 1] += scoring.scoops(vals, j, 0)
            else:
                scoop[j - 1] += scoring.wins_all_rows(vals, 0, j)
                scooped[j - 1] += scoring.wins_all_rows(vals, j, 0)
    return rows, scoop, scooped, home_runs, bonus


# --- the public function --------------------------------------------------------------------
def _sample_hands(unseen: list[int], n_opp: int, dealt: int, samples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deck = np.tile(np.array(unseen, np.int64), (samples, 1))
    deals = rng.permuted(deck, axis=1)[:, :n_opp * dealt]
    return np.ascontiguousarray(deals.reshape(samples, n_opp, dealt))


def _given_opponents(opponents, rs: RuleSet, tables, own: list[int], cut_codes: list[int],
                     n_opp: int):
    """Row values, fouls and declared automatic wins of the caller's opponents, validated
    sample by sample with the solver's own cards and the cut card."""
    if len(opponents) == 0:
        raise ValueError("opponents= needs at least one sample")
    S = len(opponents)
    vals = np.zeros((S, n_opp, 3), np.int32)
    fouled = np.zeros((S, n_opp), np.bool_)
    auto = np.zeros((S, n_opp), np.int8)
    own_text = format_cards(own)
    for s, sample in enumerate(opponents):
        sample = list(sample)
        if len(sample) != n_opp:
            raise ValueError(f"sample {s}: {len(sample)} opponent arrangements, not {n_opp}")
        try:
            # Validate every card of the sample together with the solver's own cards.
            taken = set(parse_codes(own_text, rs)) | set(cut_codes)
            for j, arrangement in enumerate(sample):
                if isinstance(arrangement, str) or len(arrangement) not in (3, 4):
                    raise ValueError(f"opponent {j}: an arrangement is (front, middle, back)")
                declares = len(arrangement) == 4
                if declares and (arrangement[3] != "declare" or not rs.automatic_wins):
                    raise ValueError(f"opponent {j}: a fourth item can only be 'declare', in "
                                     f"a rule set with automatic wins")
                rows = []
                hand = []
                for name, size, cards in zip(ROWS, (3, 5, 5), arrangement[:3]):
                    text = cards if isinstance(cards, str) else format_cards(to_codes(cards, rs))
                    try:
                        codes = parse_codes(text, rs, taken)
                    except ValueError as e:
                        raise ValueError(f"opponent {j} {name}: {e}") from None
                    if len(codes) != size:
                        raise ValueError(f"opponent {j}: the {name} has {size} cards, "
                                         f"not {len(codes)}")
                    rows.append(_value_of_codes(codes, tables))
                    hand += codes
                if declares:
                    kind = int(automatic_win_kind(np.array(hand, np.int64)))
                    if kind == 0:
                        raise ValueError(f"opponent {j}: declared an automatic win its "
                                         f"cards do not hold")
                    auto[s, j] = auto_code(kind)
                    continue
                vals[s, j] = rows
                fouled[s, j] = not (rows[0] < rows[1] <= rows[2])
                if fouled[s, j] and rs.scheme == SCHEME_SCOOP:
                    raise ValueError(f"opponent {j}: fouled arrangement; the {rs.name} "
                                     f"rule set requires Front < Middle <= Back")
        except ValueError as e:
            raise ValueError(f"sample {s}: {e}") from None
    return vals, fouled, auto


def _policy_opponents(policy: Policy, hands: np.ndarray, rs: RuleSet, cut, tables):
    S, n_opp = hands.shape[:2]
    vals = np.zeros((S, n_opp, 3), np.int32)
    for s in range(S):
        for j in range(n_opp):
            hand = format_cards([int(c) for c in hands[s, j]])
            rows = policy(hand, rs, cut)
            seat = _seat_codes([rows], rs)[0]
            given = Counter(card_name(c) for row in seat for c in row)
            if given - Counter(card_name(int(c)) for c in hands[s, j]):
                raise ValueError(f"policy set cards not in the hand {hand!r}: {rows!r}")
            vals[s, j] = [_value_of_codes(row, tables) for row in seat]
            if not (vals[s, j, 0] < vals[s, j, 1] <= vals[s, j, 2]):
                raise ValueError(f"policy returned a fouled arrangement for {hand!r}: {rows!r}")
    return vals


def _prepare_hand(cards, rules, cut, players):
    """Validated (rule set, tables, own codes, cut codes, seats) for solve-like calls."""
    rs = rule_set(rules)
    tables = tables_for(rs, cut)
    own = to_codes(cards, rs)
    if len(own) != rs.cards_dealt:
        raise ValueError(f"the {rs.name} rule set deals {rs.cards_dealt} cards, "
                         f"not {len(own)}")
    cut_codes: list[int] = []
    if rs.cut_card:
        cut_text = cut if isinstance(cut, str) else card_name(int(cut))
        try:
            cut_codes = parse_codes(cut_text, rs, set(parse_codes(format_cards(own), rs)))
        except ValueError as e:
            raise ValueError(f"the cut card {cut_text} and the hand: {e}") from None
    n_seats = rs.max_seats if players is None else check_int("players", players)
    if n_seats not in rs.seats:
        raise ValueError(f"the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players, not {n_seats}")
    return rs, tables, own, cut_codes, n_seats


def _unseen_hands(rs, own, cut_codes, n_seats, samples, seed):
    own_canonical = set(parse_codes(format_cards(own), rs))
    unseen = [c for c in deck_codes(rs) if c not in own_canonical and c not in cut_codes]
    return _sample_hands(unseen, n_seats - 1, rs.cards_dealt, samples, seed)


# solve keeps, per sample, the unseen cards three times as int64 (the tiled deck, its
# shuffle, the opponents' hands), the opponents' row values, row masks and flags, and one
# int32 score per candidate arrangement (usually a few to a hundred are scored).
SAMPLE_MEMORY_LIMIT = 4 * 10**9          # bytes: refuse larger requests up front
_CANDIDATES_ESTIMATE = 100


def _check_memory(name: str, samples: int, rs: RuleSet, n_seats: int) -> None:
    """A ``ValueError`` naming ``name`` when ``samples`` deals would not fit in memory."""
    n_opp = n_seats - 1
    unseen = rs.deck_size - rs.cards_dealt - int(rs.cut_card)
    per_sample = (8 * (2 * unseen + n_opp * rs.cards_dealt) + n_opp * (3 * 4 + 3 * 8 + 2)
                  + 4 * _CANDIDATES_ESTIMATE)
    if samples * per_sample > SAMPLE_MEMORY_LIMIT:
        gb = samples * per_sample / 1e9
        raise ValueError(
            f"{name}={samples} would need about {gb:,.0f} GB of memory ({per_sample} "
            f"bytes a sample for {rs.name} with {n_seats} players); at most "
            f"{SAMPLE_MEMORY_LIMIT // per_sample} samples fit in "
            f"{SAMPLE_MEMORY_LIMIT / 1e9:g} GB")


def _check_arguments(rs: RuleSet, n_seats: int, samples, seed, top=0, opponents=None,
                     policy=None):
    """``(samples, seed, top, opponents, policy)`` of :func:`solve` and
    :func:`sample_opponents`, validated: a ``ValueError`` naming the argument otherwise.

    ``opponents`` comes back as lists (its cards are checked later, sample by sample);
    ``policy`` comes back wrapped so that a bad return value is an error naming it."""
    samples = check_int("samples", samples)
    seed = check_int("seed", seed, 0)
    top = check_int("top", top, 0)
    if opponents is None:
        check_int("samples", samples, 1)
        _check_memory("samples", samples, rs, n_seats)
    else:
        arrangement_is = "an arrangement is (front, middle, back), each row text or codes"
        if isinstance(opponents, str) or not hasattr(opponents, "__iter__"):
            raise ValueError(f"opponents must be a sequence of samples, each a sequence of "
                             f"arrangements (front, middle, back), not {opponents!r}")
        checked = []
        for s, sample in enumerate(opponents):
            if isinstance(sample, str) or not hasattr(sample, "__iter__"):
                raise ValueError(f"opponents: sample {s} must be a sequence of arrangements "
                                 f"(front, middle, back), one an opponent, not {sample!r}")
            sample = list(sample)
            for j, arrangement in enumerate(sample):
                rows = ([] if isinstance(arrangement, str) or not hasattr(arrangement, "__len__")
                        else list(arrangement))
                if len(rows) not in (3, 4) or not all(
                        isinstance(row, str) or is_int(row) or hasattr(row, "__iter__")
                        for row in rows[:3]):
                    raise ValueError(f"opponents: sample {s}: opponent {j}: {arrangement_is}, "
                                     f"not {arrangement!r}")
            checked.append(sample)
        opponents = checked
    if policy is not None and builtin_policy(policy, rs, n_seats, None) is None:
        if not callable(policy):
            raise ValueError(f"policy must be one of {', '.join(POLICY_NAMES)}, a TableModel "
                             f"or a function (hand, rules, cut) -> (front, middle, back), "
                             f"not {policy!r}")
        given = policy

        def policy(hand, rules, cut):
            rows = given(hand, rules, cut)
            try:
                _seat_codes([rows], rules)
            except ValueError as e:
                raise ValueError(f"policy returned {rows!r} for the hand {hand!r}: "
                                 f"{str(e).removeprefix('seat 0: ')}") from None
            return rows
    return samples, seed, top, opponents, policy


def _sampled_opponents(rs: RuleSet, tables, own: list[int], cut, cut_codes: list[int],
                       n_seats: int, samples: int, seed: int, policy):
    """Row values, fouls and automatic-win codes of the opponents in ``samples`` deals of
    the unseen cards drawn from ``seed``, each opponent set by ``policy``."""
    params = rs.scoring_params()
    hands = _unseen_hands(rs, own, cut_codes, n_seats, samples, seed)
    opp_fouled = np.zeros(hands.shape[:2], np.bool_)
    builtin = builtin_policy(policy, rs, n_seats, bonus_rank_of(rs, cut))
    if builtin is not None:
        kind, mt, field = builtin
        opp_vals, opp_auto, _ = set_hands(hands, tables, kind, mt, params, field, n_seats,
                                          bool(rs.automatic_wins))
    else:
        opp_vals = _policy_opponents(policy, hands, rs, cut, tables)
        opp_auto = np.zeros(hands.shape[:2], np.int8)
    return opp_vals, opp_fouled, opp_auto


def sample_opponents(cards: CardsLike, rules: "str | RuleSet", cut: "str | int | None" = None,
                     *, samples: int = 1000, seed: int = 0, players: Optional[int] = None):
    """The opponents' settings :func:`solve` plays against with the same arguments and the
    default policy: one list per sample of ``(front, middle, back)`` texts, with a fourth
    item ``"declare"`` for an opponent declaring an automatic win (``classic``).

    ``solve(cards, rules, cut, opponents=sample_opponents(...))`` gives the same answer as
    ``solve(cards, rules, cut, ...)`` with those sampling arguments.
    """
    rs, tables, own, cut_codes, n_seats = _prepare_hand(cards, rules, cut, players)
    samples, seed, _, _, _ = _check_arguments(rs, n_seats, samples, seed)
    hands = _unseen_hands(rs, own, cut_codes, n_seats, samples, seed)
    kind, mt, field = builtin_policy(None, rs, n_seats, bonus_rank_of(rs, cut))
    _, auto, masks = set_hands(hands, tables, kind, mt, rs.scoring_params(), field, n_seats,
                               bool(rs.automatic_wins))
    out = []
    for s in range(samples):
        sample = []
        for j in range(n_seats - 1):
            hand = [int(c) for c in hands[s, j]]
            if auto[s, j]:
                sample.append((format_cards(hand[:3]), format_cards(hand[3:8]),
                               format_cards(hand[8:13]), "declare"))
                continue
            sample.append(tuple(format_cards([hand[p] for p in range(len(hand))
                                              if masks[s, j, r] >> p & 1]) for r in range(3)))
        out.append(sample)
    return out


def solve(cards: CardsLike, rules: "str | RuleSet", cut: "str | int | None" = None, *,
          samples: int = 1000, seed: int = 0, players: Optional[int] = None,
          opponents: Optional[Sequence] = None, policy: Optional[Policy] = None,
          top: int = 5, holdout: Optional[int] = None,
          precision: Optional[float] = None) -> Solution:
    """The legal arrangement of 13 of ``cards`` with the best mean score
    (docs/rules.md#what-the-solver-optimises), and an unbiased estimate of its EV.

    Parameters
    ----------
    cards: 17 cards for ``joker``, 16 for ``bonus`` (plus ``cut``), 13 for ``pagat`` and
        ``classic``; text, a hand bitmask or card codes.
    samples, seed: how many deals of the unseen cards to sample (at most what fits in
        ``SAMPLE_MEMORY_LIMIT`` bytes: two to three million), and the seed (an ``int`` >= 0);
        the same arguments give the same answer every time.
    players: seats at the table (``pagat``/``classic``: 2-4; default 4).
    opponents: instead of sampling, the opponents' settings for each sample: a sequence
        of samples, each a sequence of ``(front, middle, back)`` (add a fourth item
        ``"declare"`` for a declared automatic win); the EV is then the mean over exactly
        those, with no randomness.
    policy: how each sampled opponent sets its hand: ``None`` or ``"table"`` (the default
        model, :mod:`solver.model`), a :class:`solver.model.TableModel`, ``"field"`` (the
        previous default, kept to compare with), ``"sbf"`` (strongest Back first) -- all
        jitted -- or any function ``(hand_text, rules, cut) -> (front, middle, back)``.
    top: how many alternative arrangements to report (0 for none), each with its mean
        and its paired difference from the best on the same samples.
    holdout: after the best arrangement is chosen, how many new deals (independent of the
        ``samples`` ones: seeded by :func:`holdout_seed`, opponents set by the same
        ``policy``) to score it on again: ``ev`` is its mean there, an unbiased estimate,
        while the mean over the samples that chose it (``ev_in_sample``) is biased upward.
        Default ``max(1, samples // 4)``; 0: no held-out deals (``ev`` is then the
        in-sample mean).  With ``opponents=`` there is nothing to hold out (0).

    precision: sample adaptively instead: deals come in seeded batches (100, 100, 200,
        400, ...; ``samples`` is the most it may use), only the candidates still in the
        running are scored on each, and sampling stops as soon as the leader's lead over
        every rival is resolved to ``precision`` units.  A rival leaves the running when
        the 95% confidence interval of its paired difference from the leader lies below
        0; sampling stops when every rival left has that interval's half-width at most
        ``precision``.  Guarantee: each arrangement still in the running at the end is,
        at 95% confidence (each on its own, not jointly), at most ``precision`` units
        better than the choice, and each one dropped was worse.  ``Solution.samples``
        says how many deals it used.  None (the default): exactly ``samples`` deals.

    How the answer is exact for its samples without scoring 171 million arrangements:
    see :mod:`solver.search`.  The ``samples`` and ``seed`` (and ``precision``) alone
    decide the answer: ``holdout`` only changes the numbers reported for it.

    A notice goes to stderr while the kernels compile the first time (see
    :func:`solver._jit.compile_notice`; ``SOLVER_QUIET=1`` turns it off).
    """
    rs, tables, own, cut_codes, n_seats = _prepare_hand(cards, rules, cut, players)
    if not front_bonus_is_monotone(rs):
        raise ValueError(f"{rs.name}: a stronger Front earns fewer units than a weaker one; "
                         f"the solver's pruning assumes it never does")
    samples, seed, top, opponents, policy = _check_arguments(rs, n_seats, samples, seed, top,
                                                             opponents, policy)
    holdout_default = holdout is None
    holdout = _check_holdout(holdout, samples, opponents, rs, n_seats)
    if precision is not None:
        precision = _check_precision(precision, opponents)
    n_opp = n_seats - 1
    params = rs.scoring_params()
    codes = np.array(own, np.int64)

    builtin = None if opponents is not None else builtin_policy(policy, rs, n_seats, None)
    _notice_compiling(None if builtin is None else builtin[0])
    # A first solve compiles its kernels: the search and scoring ones in another process
    # while this one compiles the opponents' (solver._warmup), the opponents first.
    warming = None
    if builtin is not None and precision is None:
        warming = _warmup.start(set_hands_kernel(builtin[0]))
    if precision is None:
        if opponents is not None:
            opp_vals, opp_fouled, opp_auto = _given_opponents(opponents, rs, tables, own,
                                                              cut_codes, n_opp)
        else:
            opp_vals, opp_fouled, opp_auto = _sampled_opponents(
                rs, tables, own, cut, cut_codes, n_seats, samples, seed, policy)
    _warmup.finish(warming)
    masks, ords = nondominated_arrangements(codes, tables, params)
    if len(masks) == 0:
        raise AssertionError("a hand always has a legal arrangement")
    cand_vals = tables.values[ords].astype(np.int32)
    if precision is not None:
        scores, scored, running, opp_vals, opp_fouled, opp_auto = _adaptive_scores(
            precision, samples, seed, rs, tables, own, cut, cut_codes, n_seats, policy,
            cand_vals, params)
    else:
        scores = _score_candidates(cand_vals, 0, opp_vals, opp_fouled, opp_auto, params)
        scored = np.full(len(cand_vals), scores.shape[1])
        running = np.arange(len(cand_vals))
    # A candidate's mean over the deals it was scored on (all of them, unless adaptive
    # sampling dropped it on the way); the best is among those still in the running.
    means = np.array([scores[k, :scored[k]].mean() for k in range(len(cand_vals))])
    S = scores.shape[1]
    best = int(running[np.argmax(means[running])])
    order = [best] + [int(i) for i in np.argsort(-means, kind="stable") if i != best]

    def rows_text(i):
        return tuple(format_cards([int(c) for c in codes[[p for p in range(len(own))
                                                           if masks[i, r] >> p & 1]]])
                     for r in range(3))

    front, middle, back = rows_text(best)
    used = int(masks[best, 0] | masks[best, 1] | masks[best, 2])
    discards = format_cards([own[p] for p in range(len(own)) if not used >> p & 1])
    rows, scoop, scooped, home_runs, bonus = _describe(cand_vals[best], opp_vals, opp_fouled,
                                                        opp_auto, params)
    compared = int(rows[0].sum())
    row_rates = {name: tuple(float(x) / compared if compared else 0.0 for x in rows[r])
                 for r, name in enumerate(ROWS)}
    alternatives = tuple(Alternative(*rows_text(i), float(means[i]),
                                     *_paired_difference(scores[i, :scored[i]],
                                                         scores[best, :scored[i]]),
                                     categories=_categories(cand_vals[i]))
                         for i in order[1:1 + top])
    auto_name, declare, ev_declare = None, None, None
    if rs.automatic_wins and len(own) == 13:
        kind = int(automatic_win_kind(codes))
        if kind:
            auto_name = KIND_NAMES[kind]
            declared = _score_candidates(cand_vals[:1], auto_code(kind), opp_vals, opp_fouled,
                                         opp_auto, params)
            ev_declare = float(declared.mean())
            declare = ev_declare > float(means[best])
    if precision is not None and holdout_default:
        holdout = max(1, S // 4)                # a quarter of the deals it used
    if holdout:
        held = _score_candidates(cand_vals[best:best + 1], 0,
                                 *_sampled_opponents(rs, tables, own, cut, cut_codes, n_seats,
                                                     holdout, holdout_seed(seed), policy),
                                 params)[0]
    else:
        held = scores[best]
    return Solution(
        rules=rs.name, front=front, middle=middle, back=back, discards=discards,
        ev=float(held.mean()), stderr=_stderr(held), samples=S,
        ev_in_sample=float(means[best]), holdout=holdout,
        categories=_categories(cand_vals[best]),
        p_scoop=tuple(float(x) / S for x in scoop),
        p_scooped=tuple(float(x) / S for x in scooped), p_home_run=home_runs / S,
        row_rates=row_rates, bonus_units=float(bonus) / S, alternatives=alternatives,
        candidates=len(masks), automatic_win=auto_name, declare=declare,
        ev_declare=ev_declare, cut=_cut_text(rs, cut), precision=precision)


# Adaptive sampling: the first batch of deals, and the z of a 95% confidence interval.
ADAPTIVE_FIRST_BATCH = 100
Z95 = 1.96


def _batch_seed(seed: int, batch: int) -> int:
    """The seed of adaptive sampling's batch ``batch`` (independent of the held-out
    deals, which are the first child of ``SeedSequence(seed)``)."""
    child = np.random.SeedSequence(seed, spawn_key=(1, batch))
    return int(child.generate_state(1, np.uint64)[0])


def _adaptive_scores(precision, cap, seed, rs, tables, own, cut, cut_codes, n_seats, policy,
                     cand_vals, params):
    """Adaptive sampling (see :func:`solve`'s ``precision``): (scores[k, s], deals each
    candidate was scored on -- a prefix of the deals --, the candidates still in the
    running at the end, and the opponents of every deal used)."""
    K = len(cand_vals)
    n_opp = n_seats - 1
    scores = np.zeros((K, cap), np.int32)
    opp_vals = np.zeros((cap, n_opp, 3), np.int32)
    opp_fouled = np.zeros((cap, n_opp), np.bool_)
    opp_auto = np.zeros((cap, n_opp), np.int8)
    scored = np.zeros(K, np.int64)
    alive = np.arange(K)
    used = 0
    batch = 0
    while used < cap:
        size = min(cap - used, max(ADAPTIVE_FIRST_BATCH, used))
        new = slice(used, used + size)
        opp_vals[new], opp_fouled[new], opp_auto[new] = _sampled_opponents(
            rs, tables, own, cut, cut_codes, n_seats, size, _batch_seed(seed, batch), policy)
        scores[alive, new] = _score_candidates(cand_vals[alive], 0, opp_vals[new],
                                               opp_fouled[new], opp_auto[new], params)
        used += size
        batch += 1
        scored[alive] = used
        mine = scores[alive, :used].astype(np.float64)
        leader = int(np.argmax(mine.mean(axis=1)))
        diff = mine - mine[leader]
        half = Z95 * diff.std(axis=1, ddof=1) / np.sqrt(used)
        keep = diff.mean(axis=1) + half >= 0           # not yet shown to be worse
        alive, half = alive[keep], half[keep]
        if np.all(half <= precision):
            break
    return (scores[:, :used], scored, alive, opp_vals[:used], opp_fouled[:used],
            opp_auto[:used])


def _check_precision(precision, opponents) -> float:
    """The adaptive-sampling precision, validated: a positive number of units."""
    if opponents is not None:
        raise ValueError("precision= samples adaptively; with opponents= there is nothing "
                         "to sample")
    if isinstance(precision, bool) or not isinstance(precision, (int, float, np.number)) \
            or not np.isfinite(precision) or precision <= 0:
        raise ValueError(f"precision must be a positive number of units, not {precision!r}")
    return float(precision)


def holdout_seed(seed: int) -> int:
    """The seed of the held-out deals of ``solve(..., seed=seed)``: drawn from
    ``numpy.random.SeedSequence(seed).spawn``, so independent of the ``seed`` deals.
    ``sample_opponents(cards, rules, cut, samples=holdout, seed=holdout_seed(seed))``
    are the opponents the held-out EV is measured against.

    >>> holdout_seed(0) == holdout_seed(0) != holdout_seed(1)
    True
    """
    seed = check_int("seed", seed, 0)
    child = np.random.SeedSequence(seed).spawn(1)[0]
    return int(child.generate_state(1, np.uint64)[0])


def _check_holdout(holdout, samples: int, opponents, rs: RuleSet, n_seats: int) -> int:
    """The number of held-out deals: validated, defaulted, 0 with given opponents."""
    if opponents is not None:
        if holdout is not None and check_int("holdout", holdout, 0) > 0:
            raise ValueError(f"holdout={holdout}: with opponents= there is nothing to hold "
                             f"out (the EV is the mean over exactly those opponents)")
        return 0
    if holdout is None:
        return max(1, samples // 4)
    holdout = check_int("holdout", holdout, 0)
    # The in-sample deals' hands are freed before the held-out ones are drawn: the same
    # limit applies to each.
    _check_memory("holdout", holdout, rs, n_seats)
    return holdout


def _stderr(scores: np.ndarray) -> float:
    """The standard error of the mean of ``scores`` (0.0 for a single sample)."""
    n = len(scores)
    return float(np.std(scores, ddof=1) / np.sqrt(n)) if n > 1 else 0.0


def _paired_difference(scores: np.ndarray, best: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of ``scores - best``, sample by sample."""
    diff = scores.astype(np.float64) - best.astype(np.float64)
    return float(diff.mean()), _stderr(diff)


def _categories(values) -> tuple[str, str, str]:
    return tuple(RowValue(int(v)).category for v in values)


def _cut_text(rs: RuleSet, cut) -> Optional[str]:
    """The cut card as canonical text (None where the rule set has none)."""
    return card_name(min(cut_taken(rs, cut))) if rs.cut_card else None


def _notice_compiling(policy_kind: Optional[int] = POLICY_TABLE) -> bool:
    """The compile notice (:func:`solver._jit.compile_notice`) for the kernels a solve
    runs: with ``policy_kind`` not None, the opponents are set by that built-in policy."""
    kernels = [nondominated_arrangements, _score_kernel, _describe]
    if policy_kind is not None:
        kernels.append(set_hands_kernel(policy_kind))
    return compile_notice(kernels)
