"""The advisor: the expected deal score of every legal bid or play, by sampling.

For each sample, the cards the seat cannot see are dealt at random to the other seats
(and, in deals of fewer than 9 cards, to the undealt pile) consistently with what has
been seen: the seat's own cards, the turned card, every card played, the voids the
plays revealed and the rank caps left by high joker leads (``SeatView.rank_caps``).
Then each choice is tried on that same sampled deal and the deal is played out by the
fast baseline policy (``kernels.baseline_play``) for every seat; the seat's deal score
is averaged over the samples. Bids and the trump choice the others made are not used
as evidence (the sampler treats their hands as unconstrained by them).

The estimate is the expected score *if everyone then plays the baseline*; pulka
bonuses are not included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from . import kernels as k
from .cards import DECK, JOKER_IDS, NO_TRUMP, is_joker, mask_of, parse_card, parse_cards, parse_suit
from .engine import DealState, Play, SeatView
from .rules import STANDARD_SCORING, Scoring, forbidden_dealer_bid
from .simulate import BaselinePolicy


@dataclass(frozen=True)
class Advice:
    """One legal choice (a bid, or a ``Play``) with its estimated expected deal score
    and the standard error of that estimate."""

    choice: int | Play
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


def _kernel_state(rng: np.random.Generator) -> np.ndarray:
    """A fresh xorshift128 state for the kernels, drawn from ``rng`` (never all zero)."""
    return rng.integers(1, 2**32, size=4, dtype=np.int64)


def _summarise(choices: Sequence, scores: np.ndarray) -> tuple[Advice, ...]:
    n = scores.shape[0]
    means = scores.mean(axis=0)
    errors = scores.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(len(choices), np.nan)
    advice = [Advice(c, float(m), float(e)) for c, m, e in zip(choices, means, errors, strict=True)]
    # Best first; ties keep the order of the legal choices (stable sort).
    return tuple(sorted(advice, key=lambda a: -a.expected_score))


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
) -> tuple[Advice, ...]:
    """Expected deal score of each legal bid, best first.

    ``hand`` is the seat's whole hand (its size is the deal's); ``trump`` a suit or
    ``'none'``; ``bids_before`` the bids already made, in order from the dealer's left
    (so their number is the seat's place: 3 means the seat is the dealer, whose
    forbidden bid is left out). ``turned_card`` is the face-up card of a deal of fewer
    than 9 cards (it is then nobody's). The seats still to bid are assumed to bid as
    the baseline does.

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
    unseen, capacity, caps = _sampling_inputs(seat, known, [n] * 4, [[8] * 4] * 4)
    scores, ok = k.evaluate_bids(deal, seat, options, samples, unseen, capacity, caps,
                                 scoring.as_array(), _kernel_state(generator))
    if not ok:  # pragma: no cover - an unconstrained deal always exists
        raise ValueError("no deal of the unseen cards fits what was seen")
    return _summarise([int(b) for b in options], scores)


def advise_play(
    state: DealState | SeatView,
    *,
    samples: int = 100,
    rng: np.random.Generator | int,
) -> tuple[Advice, ...]:
    """Expected deal score of each legal play of the seat to move, best first.

    ``state`` is that seat's ``SeatView`` or a ``DealState`` (of which only the view of
    the seat to move is used, so hidden cards never leak into the advice).
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
    known = mask_of(view.hand) | mask_of(view.played)
    if view.turned_card is not None:
        known |= 1 << view.turned_card
    unseen, capacity, caps = _sampling_inputs(view.seat, known, view.hand_counts, view.rank_caps)
    choices = list(view.legal)
    options = np.array([p.code for p in choices], np.int64)
    deal = np.array(view.vector, np.int64)
    scores, ok = k.evaluate_plays(deal, view.seat, options, samples, unseen, capacity, caps,
                                  view.scoring.as_array(), _kernel_state(generator))
    if not ok:
        raise ValueError("no deal of the unseen cards fits what was seen (inconsistent view)")
    return _summarise(choices, scores)


class AdvisorPolicy:
    """A player that bids and plays the advisor's best choice (and chooses trump in
    9-card deals like the baseline). ``bid_samples``/``play_samples`` set the effort."""

    name = "advisor"

    def __init__(self, bid_samples: int = 200, play_samples: int = 100) -> None:
        self.bid_samples = _check_samples(bid_samples)
        self.play_samples = _check_samples(play_samples)
        self._baseline = BaselinePolicy()

    def choose_trump(self, view: SeatView, rng: np.random.Generator) -> int:
        """As the baseline: a suit held twice among the first three cards, else none."""
        return self._baseline.choose_trump(view, rng)

    def bid(self, view: SeatView, rng: np.random.Generator) -> int:
        """The bid with the highest expected deal score."""
        advice = advise_bid(view.hand, view.trump, view.bids_before(), turned_card=view.turned_card,
                            samples=self.bid_samples, rng=rng, scoring=view.scoring)
        return int(advice[0].choice)

    def play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """The play with the highest expected deal score (no sampling when forced)."""
        if len(view.legal) == 1:
            return view.legal[0]
        return advise_play(view, samples=self.play_samples, rng=rng)[0].choice
