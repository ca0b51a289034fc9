"""The advisor: the expected deal score of every legal trump choice, bid or play, by
sampling.

For each sample, the cards the seat cannot see are dealt at random to the other seats
(and, in deals of fewer than 9 cards, to the undealt pile) consistently with what has
been seen: the seat's own cards, the turned card, every card played, the voids the
plays revealed and the rank caps left by high joker leads (``SeatView.rank_caps``).
Then each choice is tried on that same sampled deal and the deal is played out by the
fast baseline policy (``kernels.baseline_play``) for every seat; the seat's deal score
is averaged over the samples.

**Bids as evidence** (``bid_evidence=True``; off by default). The advisor models the
other seats as baseline players, and a bid says something about the hand behind it: a
seat that bid 4 of 9 holds strong cards. So each sample is weighted by the likelihood
of the bids the other seats actually made, given the hands the sample dealt them, under
that same model: ``kernels.bid_probability``, the baseline's bidding rule applied to
its trick estimate plus a normal error. The baseline itself is deterministic (a hand
gives one bid), so a literal likelihood would be 0 or 1 and would throw away every
sample when a real opponent bids otherwise; the error softens it. Its standard
deviation is not a tuned knob: ``BID_NOISE[n]`` is the standard deviation of (tricks
taken - the baseline's estimate) in baseline self-play with n cards each (300 classic
games, ``benchmarks/georgian_bid_noise.py``). A bidder that knew its hand better than
the rule of thumb would bid closer to its true tricks, so it would stray from the
estimate by about that much at most: the evidence is, if anything, understated. The
weights come from the model only, never from game results. Expected scores are the
weighted means and their standard errors the self-normalised importance-sampling ones
(``kernels.weighted_summary``), so they grow when the weights are uneven. Weighting
keeps every sample (nothing is rejected, so nothing can loop), and sampling stays
seeded and reproducible. The trump choice the chooser made is not used as evidence.
It is off by default because it measured a gain only against the players it models:
+37.9 points a ``classic`` game (95% CI +10.8 to +65.1) against three baseline seats,
but -54.9 (CI -118.9 to +9.0) against three advisor seats (``benchmarks/GEORGIAN.md``).

The estimate is the expected score *if everyone then plays the baseline*; pulka
bonuses are not included. ``advise_trump`` goes one level further for the 9-card trump
choice, where the chooser's own bids and play decide most of the deal: its playouts
have the chooser bid and play as the advisor does. ``AdvisorPolicy`` chooses trump by
it only with ``trump_by_expected_score=True``: it measured no gain over the baseline's
rule (-22.9 points a ``nines`` game, 95% CI -90.0 to +44.2) at about eight times the
time per game (``benchmarks/GEORGIAN.md``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from . import kernels as k
from .cards import (DECK, JOKER_IDS, NO_TRUMP, cards_str, is_joker, mask_of, parse_card, parse_cards,
                    parse_suit, suit_str)
from .engine import DealState, Play, SeatView
from .rules import STANDARD_SCORING, Scoring, forbidden_dealer_bid
from .simulate import BaselinePolicy


@dataclass(frozen=True)
class Advice:
    """One legal choice (a trump as ``'s' 'h' 'd' 'c' 'none'``, a bid, or a ``Play``)
    with its estimated expected deal score and the standard error of that estimate."""

    choice: int | str | Play
    expected_score: float
    stderr: float

    def __str__(self) -> str:
        return f"{self.choice}: {self.expected_score:+.1f} (±{self.stderr:.1f})"


def _as_generator(rng: np.random.Generator | int) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) and rng >= 0:
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be a numpy Generator or a non-negative int seed, got {rng!r}")


def _check_samples(samples: object) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"samples must be a positive int, got {samples!r}")
    return int(samples)


SAMPLE_MEMORY_LIMIT = 4 * 10**9
"""Bytes of sampled scores one advice may keep (the bound ``solver``'s own sampling
has): a larger request is refused up front, before any sampling."""

MOST_CHOICES = 16
"""The most legal choices a decision can have: a 9-card lead holding one joker (eight
plain cards and the joker's eight leads, high or low naming each suit); a bid has at
most 10. ``check_memory`` with it bounds every decision of a game."""


def check_memory(samples: int, choices: int, name: str = "samples") -> None:
    """A ``ValueError`` naming ``name`` when ``samples`` sampled deals, each scoring
    ``choices`` choices, would keep more than ``SAMPLE_MEMORY_LIMIT`` bytes."""
    per_sample = 8 * (choices + 1)  # a float64 score per choice and the sample's log-weight
    if samples * per_sample > SAMPLE_MEMORY_LIMIT:
        raise ValueError(
            f"{name}={samples} would need about {samples * per_sample / 1e9:,.1f} GB of memory "
            f"({per_sample} bytes a sample for {choices} choices); at most "
            f"{SAMPLE_MEMORY_LIMIT // per_sample:,} samples fit in {SAMPLE_MEMORY_LIMIT / 1e9:g} GB")


# Numba kernels do not see signals: a kernel call of a million samples cannot be
# stopped by Ctrl+C until it returns. So sampling runs as a sequence of kernel calls of
# about CHUNK_SECONDS each, between which a KeyboardInterrupt can land (and progress be
# reported). The kernels draw every sample from the one xorshift state they are handed,
# in order, and it carries over from call to call: the samples, and so the advice, are
# exactly those of one call, whatever the chunk sizes.
CHUNK_SECONDS = 0.1


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl+C: a ``KeyboardInterrupt``, or the ``SystemError`` Numba
    raises around one that lands while a kernel calls back into Python."""
    while exc is not None:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _sample_in_chunks(run: Callable[[int], tuple[np.ndarray, np.ndarray, bool]], samples: int, choices: int,
                      first_chunk: int, progress: Callable[[int], None] | None
                      ) -> tuple[np.ndarray, np.ndarray, bool]:
    """``run(n)`` samples the next ``n`` deals: (scores[n, choices], log_weights[n], ok).
    Returns the same for all ``samples``; ok is False at the first chunk that fails."""
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be callable (it is given each number of samples done), got {progress!r}")
    scores = np.empty((samples, choices))
    log_weights = np.empty(samples)
    done, chunk = 0, first_chunk
    while done < samples:
        n = min(chunk, samples - done)
        start = time.perf_counter()
        try:
            part_scores, part_weights, ok = run(n)
        except SystemError as exc:
            if is_interrupt(exc):
                raise KeyboardInterrupt from None
            raise
        if not ok:
            return scores, log_weights, False
        scores[done:done + n] = part_scores
        log_weights[done:done + n] = part_weights
        done += n
        if progress is not None:
            progress(n)
        # The next chunk aims at CHUNK_SECONDS from this one's rate, growing at most 8-fold.
        elapsed = time.perf_counter() - start
        chunk = max(1, min(8 * n, int(n * CHUNK_SECONDS / max(elapsed, 1e-6))))
    return scores, log_weights, True


def _kernel_state(rng: np.random.Generator) -> np.ndarray:
    """A fresh xorshift128 state for the kernels, drawn from ``rng`` (never all zero)."""
    return rng.integers(1, 2**32, size=4, dtype=np.int64)


def _summarise(choices: Sequence, scores: np.ndarray, log_weights: np.ndarray) -> tuple[Advice, ...]:
    means, errors, _ = k.weighted_summary(scores, log_weights)
    advice = [Advice(c, float(m), float(e)) for c, m, e in zip(choices, means, errors, strict=True)]
    # Best first; ties keep the order of the legal choices (stable sort).
    return tuple(sorted(advice, key=lambda a: -a.expected_score))


def _bid_noise(hand_size: int, bid_evidence: object) -> float:
    """The error sd of the bid likelihood, or 0.0 (bids ignored) without evidence."""
    if not isinstance(bid_evidence, (bool, np.bool_)):
        raise ValueError(f"bid_evidence must be True or False, got {bid_evidence!r}")
    return BID_NOISE[hand_size] if bid_evidence else 0.0


def _played_by(view: SeatView) -> np.ndarray:
    """Mask of the cards each seat has played in the deal so far (jokers by count)."""
    played = np.zeros(4, np.int64)
    plays = [(t.seat_of(i), p) for t in view.tricks for i, p in enumerate(t.plays)]
    plays += [((view.leader + i) % 4, p) for i, p in enumerate(view.current_trick)]
    for seat, play in plays:
        card = play.card
        if is_joker(card) and (int(played[seat]) >> card) & 1:
            card = JOKER_IDS[1]
        played[seat] |= 1 << card
    return played


def _sampling_inputs(seat: int, known_mask: int, counts: Sequence[int],
                     rank_caps: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unseen cards, holder capacities (seats 0..3, pile 4) and rank caps per holder."""
    unseen = np.array([c for c in DECK if not (known_mask >> c) & 1], np.int64)
    capacity = np.zeros(5, np.int64)
    for p in range(4):
        capacity[p] = 0 if p == seat else counts[p]
    capacity[4] = len(unseen) - int(capacity[:4].sum())
    if capacity[4] < 0:
        raise ValueError("more cards are missing from the other hands than are unseen")
    caps = np.full((5, 4), 8, np.int64)
    caps[:4] = np.array(rank_caps, np.int64)
    return unseen, capacity, caps


def advise_bid(
    hand: str | Iterable[str | int],
    trump: str | int,
    bids_before: Sequence[int] = (),
    *,
    turned_card: str | int | None = None,
    samples: int = 200,
    rng: np.random.Generator | int,
    scoring: Scoring = STANDARD_SCORING,
    bid_evidence: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[Advice, ...]:
    """Expected deal score of each legal bid, best first.

    ``hand`` is the seat's whole hand (its size is the deal's); ``trump`` a suit or
    ``'none'``; ``bids_before`` the bids already made, in order from the dealer's left
    (so their number is the seat's place: 3 means the seat is the dealer, whose
    forbidden bid is left out). ``turned_card`` is the face-up card of a deal of fewer
    than 9 cards (it is then nobody's). The seats still to bid are assumed to bid as
    the baseline does; with ``bid_evidence`` the earlier bids weight the samples (see
    the module's docstring). ``progress``, if given, is called with each number of
    samples done (sampling runs in short steps, see ``CHUNK_SECONDS``).

    >>> best = advise_bid("Jk Ah Kh 7c", "h", [1, 0], turned_card="9h", samples=50, rng=1)[0]
    >>> best.choice
    3
    """
    cards = parse_cards(hand)
    n = len(cards)
    if not 1 <= n <= 9:
        raise ValueError(f"a hand has 1..9 cards, got {n}")
    trump_value = parse_suit(trump, allow_no_trump=True)
    if isinstance(bids_before, (str, bytes)) or len(bids_before) > 3:
        raise ValueError(f"bids_before holds at most the three earlier bids, got {bids_before!r}")
    for b in bids_before:
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not 0 <= b <= n:
            raise ValueError(f"an earlier bid {b!r} is not a number of tricks 0..{n}")
    samples = _check_samples(samples)
    generator = _as_generator(rng)
    noise = _bid_noise(n, bid_evidence)
    known = mask_of(cards)
    if turned_card is not None:
        if n == 9:
            raise ValueError("a 9-card deal deals the whole deck: there is no turned card")
        turned = int(turned_card) if isinstance(turned_card, (int, np.integer)) else parse_card(turned_card)
        if is_joker(turned):
            free = [j for j in JOKER_IDS if not (known >> j) & 1]
            if not free:
                raise ValueError("the turned card is a joker but both jokers are in the hand")
            turned = free[0]
        elif (known >> turned) & 1:
            raise ValueError(f"the turned card {turned_card!r} is also in the hand")
        turned_trump = NO_TRUMP if is_joker(turned) else turned // 9
        if turned_trump != trump_value:
            raise ValueError(f"trump {trump!r} disagrees with the turned card {turned_card!r}")
        known |= 1 << turned

    # Canonical seats: the dealer is seat 3, so the bidders are 0, 1, 2, 3 in order.
    dealer = 3
    seat = len(bids_before)
    deal = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
    deal[k.HAND + seat] = mask_of(cards)
    deal[k.BID:k.BID + 4] = -1
    for p, b in enumerate(bids_before):
        deal[k.BID + p] = b
    deal[k.TRUMP] = trump_value
    deal[k.HAND_SIZE] = n
    deal[k.DEALER] = dealer
    deal[k.LEADER] = 0
    deal[k.LEAD_JOKER] = k.NOT_JOKER
    forbidden = forbidden_dealer_bid(list(bids_before), n) if seat == dealer else None
    options = np.array([b for b in range(n + 1) if b != forbidden], np.int64)
    check_memory(samples, len(options))
    unseen, capacity, caps = _sampling_inputs(seat, known, [n] * 4, [[8] * 4] * 4)
    table, state = scoring.as_array(), _kernel_state(generator)
    scores, log_weights, ok = _sample_in_chunks(
        lambda count: k.evaluate_bids(deal, seat, options, count, unseen, capacity, caps, noise, table, state),
        samples, len(options), 256, progress)
    if not ok:  # pragma: no cover - an unconstrained deal always exists
        raise ValueError("no deal of the unseen cards fits what was seen")
    return _summarise([int(b) for b in options], scores, log_weights)


def advise_play(
    state: DealState | SeatView,
    *,
    samples: int = 100,
    rng: np.random.Generator | int,
    bid_evidence: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[Advice, ...]:
    """Expected deal score of each legal play of the seat to move, best first.

    ``state`` is that seat's ``SeatView`` or a ``DealState`` (of which only the view of
    the seat to move is used, so hidden cards never leak into the advice). With
    ``bid_evidence`` the other seats' bids weight the samples (see the module's
    docstring). ``progress`` as in ``advise_bid``.
    """
    if isinstance(state, DealState):
        if state.phase != "play":
            raise ValueError(f"advise_play needs a deal in its play phase, not {state.phase!r}")
        view = state.view(state.to_move)
    elif isinstance(state, SeatView):
        view = state
    else:
        raise ValueError(f"state must be a DealState or a SeatView, got {type(state).__name__}")
    if view.phase != "play" or view.to_move != view.seat:
        raise ValueError(f"seat {view.seat} is not the one to play (phase {view.phase!r}, to move {view.to_move})")
    samples = _check_samples(samples)
    generator = _as_generator(rng)
    noise = _bid_noise(view.hand_size, bid_evidence)
    known = mask_of(view.hand) | mask_of(view.played)
    if view.turned_card is not None:
        known |= 1 << view.turned_card
    unseen, capacity, caps = _sampling_inputs(view.seat, known, view.hand_counts, view.rank_caps)
    choices = list(view.legal)
    options = np.array([p.code for p in choices], np.int64)
    check_memory(samples, len(options))
    deal = np.array(view.vector, np.int64)
    played_by, table, kernel_state = _played_by(view), view.scoring.as_array(), _kernel_state(generator)
    scores, log_weights, ok = _sample_in_chunks(
        lambda count: k.evaluate_plays(deal, view.seat, options, count, unseen, capacity, caps, played_by, noise,
                                       table, kernel_state),
        samples, len(options), 256, progress)
    if not ok:
        raise ValueError("no deal of the unseen cards fits what was seen (inconsistent view)")
    return _summarise(choices, scores, log_weights)


def advise_trump(
    first_three: str | Iterable[str | int],
    dealer: int,
    *,
    samples: int = 40,
    playout_samples: int = 20,
    rng: np.random.Generator | int,
    scoring: Scoring = STANDARD_SCORING,
    bid_evidence: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[Advice, ...]:
    """Expected deal score of each trump choice of a 9-card deal, best first.

    The chooser, the seat to the dealer's left, has seen only ``first_three`` cards.
    Each of ``samples`` samples deals the other 33 cards at random (the chooser's six
    more and the others' nine); then for each choice (``'s' 'h' 'd' 'c'`` or
    ``'none'``), on that same deal, the chooser bids and plays as the advisor does
    (each of its decisions estimated from ``playout_samples`` samples of what it cannot
    see, with ``bid_evidence`` as in ``advise_play``) and the other seats bid and play
    as the baseline. The chooser's deal score is averaged over the samples. ``dealer``
    only names the seats: the advice does not depend on it. ``progress`` as in
    ``advise_bid`` (it counts sampled deals). Each sampled deal is one kernel step whose
    time grows with ``playout_samples`` (about 0.5 s at 100 on a busy 2-core machine).

    >>> advice = advise_trump("As Ks Qs", 0, samples=8, playout_samples=8, rng=1)
    >>> sorted(a.choice for a in advice), advice[0].choice
    (['c', 'd', 'h', 'none', 's'], 's')
    """
    cards = parse_cards(first_three)
    if len(cards) != 3:
        raise ValueError(f"the trump chooser has seen three cards, got {len(cards)}: {cards_str(cards)!r}")
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer <= 3:
        raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
    samples = _check_samples(samples)
    playout_samples = _check_samples(playout_samples)
    if not isinstance(scoring, Scoring):
        raise ValueError(f"scoring must be a Scoring, got {scoring!r}")
    generator = _as_generator(rng)
    noise = _bid_noise(9, bid_evidence)
    # Canonical seats, as in advise_bid: the dealer is seat 3, so the chooser is seat 0.
    dealer, chooser = 3, 0
    deal = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
    deal[k.HAND + chooser] = mask_of(cards)
    deal[k.BID:k.BID + 4] = -1
    deal[k.TRUMP] = -1
    deal[k.HAND_SIZE] = 9
    deal[k.DEALER] = dealer
    deal[k.LEADER] = chooser
    deal[k.LEAD_JOKER] = k.NOT_JOKER
    check_memory(samples, NO_TRUMP + 1)
    table, state = scoring.as_array(), _kernel_state(generator)
    scores, log_weights, _ = _sample_in_chunks(
        lambda count: (k.evaluate_trumps(deal, chooser, count, playout_samples, noise, table, state),
                       np.zeros(count), True),
        samples, NO_TRUMP + 1, 1, progress)
    return _summarise([suit_str(t) for t in range(NO_TRUMP + 1)], scores, log_weights)


class AdvisorPolicy:
    """A player that chooses trump, bids and plays the advisor's best choice.

    ``bid_samples``/``play_samples`` set the effort of each bid and play;
    ``trump_samples`` and ``trump_playout_samples`` those of ``advise_trump`` (its
    samples, and the samples of each decision inside its playouts). By default it
    chooses trump as the baseline does and ignores what the other seats' bids say about
    their hands: neither feature measured a gain in general (see the module's
    docstring). ``trump_by_expected_score=True`` chooses trump by ``advise_trump``;
    ``bid_evidence=True`` reads the bids, which gains against baseline players.
    """

    name = "advisor"

    def __init__(self, bid_samples: int = 200, play_samples: int = 100, trump_samples: int = 40,
                 trump_playout_samples: int = 20, *, trump_by_expected_score: bool = False,
                 bid_evidence: bool = False) -> None:
        self.bid_samples = _check_samples(bid_samples)
        self.play_samples = _check_samples(play_samples)
        self.trump_samples = _check_samples(trump_samples)
        self.trump_playout_samples = _check_samples(trump_playout_samples)
        for label, flag in (("trump_by_expected_score", trump_by_expected_score), ("bid_evidence", bid_evidence)):
            if not isinstance(flag, (bool, np.bool_)):
                raise ValueError(f"{label} must be True or False, got {flag!r}")
        self.trump_by_expected_score = bool(trump_by_expected_score)
        self.bid_evidence = bool(bid_evidence)
        self._baseline = BaselinePolicy()

    @classmethod
    def with_effort(cls, samples: int, *, trump_effort: int | None = None, **flags: bool) -> AdvisorPolicy:
        """The advisor at one level of effort: ``samples`` for each bid and play, and for
        the trump choice, with ``trump_effort`` (default ``samples``), ``trump_effort // 5``
        sampled deals, each played out with ``trump_effort // 10`` samples per decision
        (200 gives the defaults: 200, 200, 40, 20). ``flags`` are
        ``trump_by_expected_score`` and ``bid_evidence``."""
        samples = _check_samples(samples)
        trump = samples if trump_effort is None else _check_samples(trump_effort)
        return cls(samples, samples, max(1, trump // 5), max(1, trump // 10), **flags)

    def advise(self, view: SeatView, rng: np.random.Generator, *,
               progress: Callable[[int], None] | None = None) -> tuple[Advice, ...]:
        """Every legal choice of ``view``'s seat, which must be the one to move, with its
        expected deal score, best first: ``advise_trump``, ``advise_bid`` or
        ``advise_play`` at this policy's effort (``progress`` as there). Its decisions
        are the first of these (the trump, as ``choose_trump``, only when
        ``trump_by_expected_score``)."""
        if view.to_move != view.seat:
            raise ValueError(f"seat {view.seat} is not the one to move (seat {view.to_move} is)")
        if view.phase == "trump":
            # One draw, as choose_trump makes in either setting (see there).
            return advise_trump(view.hand, view.dealer, samples=self.trump_samples,
                                playout_samples=self.trump_playout_samples, rng=int(rng.integers(2**63)),
                                scoring=view.scoring, bid_evidence=self.bid_evidence, progress=progress)
        if view.phase == "bid":
            return advise_bid(view.hand, view.trump, view.bids_before(), turned_card=view.turned_card,
                              samples=self.bid_samples, rng=rng, scoring=view.scoring,
                              bid_evidence=self.bid_evidence, progress=progress)
        return advise_play(view, samples=self.play_samples, rng=rng, bid_evidence=self.bid_evidence,
                           progress=progress)

    def choose_trump(self, view: SeatView, rng: np.random.Generator) -> int:
        """The trump with the highest expected deal score (``advise_trump``), or the
        baseline's choice when ``trump_by_expected_score`` is off."""
        if not self.trump_by_expected_score:
            # The same one draw as advise makes, so that both settings leave the same
            # random numbers for the bids and plays that follow (paired comparisons of
            # the two stay paired).
            rng.integers(2**63)
            return self._baseline.choose_trump(view, rng)
        return parse_suit(self.advise(view, rng)[0].choice, allow_no_trump=True)

    def bid(self, view: SeatView, rng: np.random.Generator) -> int:
        """The bid with the highest expected deal score."""
        return int(self.advise(view, rng)[0].choice)

    def play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """The play with the highest expected deal score (no sampling when forced)."""
        if len(view.legal) == 1:
            return view.legal[0]
        return self.advise(view, rng)[0].choice


BID_NOISE = (0.0, 0.40, 0.60, 0.70, 0.80, 0.83, 0.94, 0.92, 0.97, 1.08)
"""``BID_NOISE[n]``: the error sd (in tricks) of the bid likelihood in a deal of n cards
each; the standard deviation of (tricks taken - ``kernels.estimate_tricks``) over the
seats of 300 baseline self-play ``classic`` games (``benchmarks/georgian_bid_noise.py``
prints it; 2400 seat-deals per size, 9600 for 9 cards)."""
