"""The rules engine of one deal: dealing, trump, bidding and play, every step checked.

``DealState`` is the referee of one deal. It validates each action in readable Python
(an illegal action raises ``ValueError`` saying why) and then applies it through the
kernels of ``kernels``, so the simulator, the baseline policy and the advisor's
playouts all share one implementation of the trick rules.

``SeatView`` is what one seat may see of a deal: its own cards, the trump, the bids,
the cards played, and what the plays revealed (voids and, after a high joker lead,
caps on the ranks a seat can still hold). The policies and the advisor only get views.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from . import kernels as k
from .cards import (
    DECK,
    JOKER_IDS,
    NO_TRUMP,
    SUITS,
    card_str,
    cards_of,
    cards_str,
    is_joker,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    sort_cards,
    suit_str,
)
from .rules import STANDARD_SCORING, Scoring, forbidden_dealer_bid

_MODES = {"high": k.HIGH, "low": k.LOW, "hi": k.HIGH, "lo": k.LOW, "+": k.HIGH, "-": k.LOW}


@dataclass(frozen=True)
class Play:
    """One card played: a plain card, or a joker played ``'high'`` or ``'low'``; a
    joker that leads also names a ``suit`` (0..3) that the others must play.

    >>> str(Play.parse("jk high h")), str(Play.parse("10d"))
    ('Jk high h', 'Td')
    """

    card: int
    joker: str | None = None
    suit: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.card, bool) or not isinstance(self.card, (int, np.integer)) or self.card not in DECK:
            raise ValueError(f"not a card id of the Georgian deck: {self.card!r}")
        object.__setattr__(self, "card", int(self.card))
        if is_joker(self.card):
            # The two jokers are interchangeable: a play names "a joker".
            object.__setattr__(self, "card", JOKER_IDS[0])
            if self.joker not in ("high", "low"):
                raise ValueError(f"a joker must be played 'high' or 'low', got {self.joker!r}")
            if self.suit is not None:
                object.__setattr__(self, "suit", parse_suit(self.suit))
        elif self.joker is not None or self.suit is not None:
            raise ValueError(f"only a joker is played high or low and names a suit, not {card_str(self.card)}")

    @classmethod
    def parse(cls, value: str | Play) -> Play:
        """A Play from text: ``As``, ``Jk high``, ``Jk low``, ``Jk high s`` (a lead).

        >>> Play.parse("Jk lo ♠") == Play(36, "low", 0)
        True
        """
        if isinstance(value, Play):
            return value
        if not isinstance(value, str):
            raise ValueError(f"not a play: {value!r}")
        tokens = value.split()
        if not tokens:
            raise ValueError("empty play")
        card = parse_card(tokens[0])
        if not is_joker(card):
            if len(tokens) > 1:
                raise ValueError(f"only a joker is played high or low and names a suit: {value!r}")
            return cls(card)
        if len(tokens) == 1 or tokens[1].lower() not in _MODES:
            raise ValueError(f"a joker must be played high or low, e.g. 'Jk high' or 'Jk low h': {value!r}")
        mode = "high" if _MODES[tokens[1].lower()] == k.HIGH else "low"
        if len(tokens) > 3:
            raise ValueError(f"not a play: {value!r}")
        suit = parse_suit(tokens[2]) if len(tokens) == 3 else None
        return cls(card, mode, suit)

    @property
    def code(self) -> int:
        """The kernel play code (see ``kernels``)."""
        if not is_joker(self.card):
            return self.card
        mode = k.HIGH if self.joker == "high" else k.LOW
        return k.JOKER_CODE + 5 * mode + (k.NO_SUIT if self.suit is None else self.suit)

    @classmethod
    def from_code(cls, code: int) -> Play:
        """The Play of a kernel play code."""
        code = int(code)
        if code < k.JOKER_CODE:
            return cls(code)
        mode, named = divmod(code - k.JOKER_CODE, 5)
        return cls(JOKER_IDS[0], "high" if mode == k.HIGH else "low", None if named == k.NO_SUIT else named)

    def __str__(self) -> str:
        if not is_joker(self.card):
            return card_str(self.card)
        text = f"Jk {self.joker}"
        return text if self.suit is None else f"{text} {SUITS[self.suit]}"


@dataclass(frozen=True)
class TrickRecord:
    """A finished trick: who led, the plays in order, and the seat that took it."""

    leader: int
    plays: tuple[Play, ...]
    winner: int

    def seat_of(self, index: int) -> int:
        """Seat that made the ``index``-th play of the trick."""
        return (self.leader + index) % 4


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` can see of a deal (built by ``DealState.view``).

    ``rank_caps[p][s]`` is the highest rank (0..8) seat ``p`` may still hold in suit
    ``s``, as revealed by its plays: -1 means void (it did not follow), and after a
    high joker lead naming ``s`` it is one below the card ``p`` had to play.
    """

    seat: int
    dealer: int
    hand_size: int
    phase: str
    to_move: int | None
    hand: tuple[int, ...]
    trump: int | None
    turned_card: int | None
    trump_chooser: int | None
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    current_trick: tuple[Play, ...]
    leader: int
    played: tuple[int, ...]
    hand_counts: tuple[int, ...]
    rank_caps: tuple[tuple[int, ...], ...]
    legal: tuple
    scoring: Scoring = STANDARD_SCORING
    vector: tuple[int, ...] = field(default=(), repr=False, compare=False)
    """The kernel deal vector with every other seat's hand blanked (internal)."""

    def bids_before(self) -> tuple[int, ...]:
        """Bids made before this seat's turn, in bidding order (from the dealer's left)."""
        order = [(self.dealer + 1 + i) % 4 for i in range(4)]
        result = []
        for p in order:
            if p == self.seat:
                break
            if self.bids[p] is not None:
                result.append(self.bids[p])
        return tuple(result)


class DealState:
    """One deal of Georgian Joker from the deal to the last trick.

    ``hands`` are indexed by seat, each in the order dealt (in a 9-card deal, the first
    three cards of the seat left of the dealer are the ones it sees before choosing
    trump). In a deal of fewer than 9 cards the ``turned_card`` sets the trump (a joker:
    no trump); a 9-card deal starts in the ``'trump'`` phase unless ``trump`` is given.

    >>> d = DealState(["Ah", "Kh", "7s", "Jk"], dealer=3, turned_card="9h")
    >>> d.phase, d.to_move, d.legal_actions()
    ('bid', 0, [0, 1])
    """

    def __init__(
        self,
        hands: Sequence[str | Iterable[str | int]],
        dealer: int,
        *,
        turned_card: str | int | None = None,
        trump: str | int | None = None,
        scoring: Scoring = STANDARD_SCORING,
    ) -> None:
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer <= 3:
            raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
        if not isinstance(scoring, Scoring):
            raise ValueError(f"scoring must be a Scoring, got {scoring!r}")
        if isinstance(hands, str) or len(hands) != 4:
            raise ValueError("hands must be four hands, one per seat")
        parsed = _parse_hands(hands)
        n = len(parsed[0])
        if any(len(h) != n for h in parsed) or not 1 <= n <= 9:
            raise ValueError(f"every seat needs the same number of cards, 1..9: got {[len(h) for h in parsed]}")
        self.hand_size = n
        self.dealer = int(dealer)
        self.scoring = scoring
        self.initial_hands: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in parsed)
        self.turned_card: int | None = None
        self.trump: int | None = None
        self.trump_chooser: int | None = None
        dealt = {c for h in parsed for c in h}
        if n == 9:
            if turned_card is not None:
                raise ValueError("a 9-card deal deals the whole deck: there is no turned card")
            self.trump_chooser = (self.dealer + 1) % 4
            if trump is not None:
                self.trump = parse_suit(trump, allow_no_trump=True)
        else:
            if turned_card is not None:
                card = turned_card if isinstance(turned_card, (int, np.integer)) else parse_card(turned_card)
                card = int(card)
                if is_joker(card):
                    free = [j for j in JOKER_IDS if j not in dealt]
                    if not free:
                        raise ValueError("the turned card is a joker but both jokers are in the hands")
                    card = free[0]
                elif card in dealt:
                    raise ValueError(f"the turned card {card_str(card)} is also in a hand")
                elif card not in DECK:
                    raise ValueError(f"not a card id of the Georgian deck: {turned_card!r}")
                self.turned_card = card
                self.trump = NO_TRUMP if is_joker(card) else card // 9
                if trump is not None and parse_suit(trump, allow_no_trump=True) != self.trump:
                    raise ValueError(f"trump {trump!r} disagrees with the turned card {card_str(card)}")
            elif trump is not None:
                self.trump = parse_suit(trump, allow_no_trump=True)
            else:
                raise ValueError("a deal of fewer than 9 cards needs its turned card (or its trump)")
        self.bids: list[int | None] = [None] * 4
        self.tricks: list[TrickRecord] = []
        self.current: list[Play] = []
        self.rank_caps = np.full((4, 4), 8, np.int64)
        vec = np.zeros(k.DEAL_VECTOR_SIZE, np.int64)
        for seat in range(4):
            vec[k.HAND + seat] = mask_of(parsed[seat])
            vec[k.BID + seat] = -1
        vec[k.TRUMP] = -1 if self.trump is None else self.trump
        vec[k.HAND_SIZE] = n
        vec[k.DEALER] = self.dealer
        vec[k.LEADER] = (self.dealer + 1) % 4
        vec[k.LEAD_JOKER] = k.NOT_JOKER
        self._vec = vec

    # ------------------------------------------------------------------ construction
    @classmethod
    def deal(cls, hand_size: int, dealer: int, rng: np.random.Generator,
             scoring: Scoring = STANDARD_SCORING) -> DealState:
        """Shuffle the deck with ``rng`` and deal ``hand_size`` cards to each seat,
        starting left of the dealer; with fewer than 9 cards the next card is turned."""
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy Generator, got {rng!r}")
        if isinstance(hand_size, bool) or not isinstance(hand_size, (int, np.integer)) or not 1 <= hand_size <= 9:
            raise ValueError(f"hand_size must be an int 1..9, got {hand_size!r}")
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer <= 3:
            raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
        order = rng.permutation(len(DECK))
        shuffled = [DECK[i] for i in order]
        hands: list[list[int]] = [[] for _ in range(4)]
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            hands[seat] = shuffled[i * hand_size:(i + 1) * hand_size]
        turned = shuffled[4 * hand_size] if hand_size < 9 else None
        return cls(hands, dealer, turned_card=turned, scoring=scoring)

    def copy(self) -> DealState:
        """An independent copy of this state."""
        other = object.__new__(DealState)
        other.__dict__.update(self.__dict__)
        other.bids = list(self.bids)
        other.tricks = list(self.tricks)
        other.current = list(self.current)
        other.rank_caps = self.rank_caps.copy()
        other._vec = self._vec.copy()
        return other

    # ------------------------------------------------------------------------ queries
    @property
    def phase(self) -> str:
        """``'trump'``, ``'bid'``, ``'play'`` or ``'done'``."""
        if self.trump is None:
            return "trump"
        if any(b is None for b in self.bids):
            return "bid"
        if len(self.tricks) < self.hand_size:
            return "play"
        return "done"

    @property
    def bidding_order(self) -> tuple[int, ...]:
        """Seats in bidding order: from the dealer's left, the dealer last."""
        return tuple((self.dealer + 1 + i) % 4 for i in range(4))

    @property
    def to_move(self) -> int | None:
        """Seat to act now (None when the deal is over)."""
        phase = self.phase
        if phase == "trump":
            return self.trump_chooser
        if phase == "bid":
            return next(p for p in self.bidding_order if self.bids[p] is None)
        if phase == "play":
            return int((self._vec[k.LEADER] + self._vec[k.COUNT]) % 4)
        return None

    @property
    def leader(self) -> int:
        """Seat that leads (or led) the current trick."""
        return int(self._vec[k.LEADER])

    @property
    def taken(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat."""
        return tuple(int(self._vec[k.TAKEN + p]) for p in range(4))

    def hand(self, seat: int) -> tuple[int, ...]:
        """Cards ``seat`` holds now, sorted for display."""
        _check_seat(seat)
        return tuple(sort_cards(cards_of(int(self._vec[k.HAND + seat]))))

    def legal_actions(self) -> list:
        """Legal actions of the seat to move: trump values (0..3, NO_TRUMP), bids (ints)
        or ``Play`` values; empty when the deal is over."""
        phase = self.phase
        if phase == "trump":
            return [0, 1, 2, 3, NO_TRUMP]
        if phase == "bid":
            seat = self.to_move
            forbidden = self._forbidden_bid(seat)
            return [b for b in range(self.hand_size + 1) if b != forbidden]
        if phase == "play":
            return [Play.from_code(c) for c in self._legal_codes(self.to_move)]
        return []

    def scores(self) -> tuple[int, ...]:
        """Each seat's deal score; only when the deal is over."""
        if self.phase != "done":
            raise ValueError(f"the deal is not over (phase {self.phase!r})")
        return tuple(self.scoring.score(self.bids[p], self.taken[p], self.hand_size) for p in range(4))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` can see now (its own cards only)."""
        _check_seat(seat)
        phase = self.phase
        vec = self._vec.copy()
        for p in range(4):
            if p != seat:
                vec[k.HAND + p] = 0
        if phase == "trump":
            hand = tuple(self.initial_hands[seat][:3]) if seat == self.trump_chooser else ()
            vec[k.HAND + seat] = mask_of(hand)
            counts = tuple(0 for _ in range(4))
        else:
            hand = self.hand(seat)
            counts = tuple(int(k.popcount(self._vec[k.HAND + p])) for p in range(4))
        to_move = self.to_move
        return SeatView(
            seat=seat,
            dealer=self.dealer,
            hand_size=self.hand_size,
            phase=phase,
            to_move=to_move,
            hand=hand,
            trump=self.trump,
            turned_card=self.turned_card,
            trump_chooser=self.trump_chooser,
            bids=tuple(self.bids),
            taken=self.taken,
            tricks=tuple(self.tricks),
            current_trick=tuple(self.current),
            leader=self.leader,
            played=tuple(cards_of(int(self._vec[k.PLAYED]))),
            hand_counts=counts,
            rank_caps=tuple(tuple(int(x) for x in row) for row in self.rank_caps),
            legal=tuple(self.legal_actions()) if to_move == seat else (),
            scoring=self.scoring,
            vector=tuple(int(x) for x in vec),
        )

    # ------------------------------------------------------------------------ actions
    def apply(self, action: object) -> int | None:
        """Apply the action of the seat to move, whatever the phase (trump, bid, play).
        Return the trick's winner when a play completes a trick, else None."""
        phase = self.phase
        if phase == "trump":
            self.choose_trump(action)  # type: ignore[arg-type]
            return None
        if phase == "bid":
            self.make_bid(action)  # type: ignore[arg-type]
            return None
        return self.play(action)  # type: ignore[arg-type]

    def choose_trump(self, trump: str | int) -> None:
        """The seat left of the dealer names trump (a suit or no trump) in a 9-card deal."""
        if self.phase != "trump":
            raise ValueError(_phase_error(self.phase, "choose trump",
                                          "only a 9-card deal has a trump choice" if self.hand_size < 9 else ""))
        self.trump = parse_suit(trump, allow_no_trump=True)
        self._vec[k.TRUMP] = self.trump

    def make_bid(self, bid: int) -> None:
        """The seat to move bids ``bid`` tricks."""
        if self.phase != "bid":
            raise ValueError(_phase_error(self.phase, "bid"))
        if isinstance(bid, bool) or not isinstance(bid, (int, np.integer)):
            raise ValueError(f"a bid is a whole number of tricks, got {bid!r}")
        bid = int(bid)
        seat = self.to_move
        if not 0 <= bid <= self.hand_size:
            raise ValueError(f"bid {bid} is out of range 0..{self.hand_size}")
        if bid == self._forbidden_bid(seat):
            others = [self.bids[p] for p in range(4) if p != seat]
            raise ValueError(
                f"the dealer (seat {seat}) may not bid {bid}: with the other bids {others} "
                f"the bids would add up to the {self.hand_size} "
                f"trick{'s' if self.hand_size != 1 else ''} of the deal")
        self.bids[seat] = bid
        self._vec[k.BID + seat] = bid

    def play(self, play: Play | str) -> int | None:
        """The seat to move plays a card. Return the winner when the trick is complete."""
        if self.phase != "play":
            raise ValueError(_phase_error(self.phase, "play a card"))
        play = Play.parse(play)
        seat = self.to_move
        self._check_play(seat, play)
        count = int(self._vec[k.COUNT])
        lead_suit = int(self._vec[k.LEAD_SUIT])
        lead_joker = int(self._vec[k.LEAD_JOKER])
        if count > 0 and not is_joker(play.card):
            # What the card reveals about the rest of the hand (voids, caps): public.
            k.record_inference(self.rank_caps, seat, play.card, lead_suit, lead_joker, self.trump)
        leader = self.leader
        self.current.append(play)
        winner = int(k.apply_play(self._vec, seat, play.code))
        if winner < 0:
            return None
        self.tricks.append(TrickRecord(leader, tuple(self.current), winner))
        self.current = []
        return winner

    # ---------------------------------------------------------------------- internals
    def _forbidden_bid(self, seat: int) -> int | None:
        if seat != self.dealer:
            return None
        return forbidden_dealer_bid([self.bids[p] for p in range(4) if p != seat], self.hand_size)

    def _legal_codes(self, seat: int) -> list[int]:
        buf = np.zeros(k.MAX_PLAYS, np.int64)
        n = k.legal_plays(self._vec, seat, buf)
        return [int(c) for c in buf[:n]]

    def _check_play(self, seat: int, play: Play) -> None:
        """Raise ValueError saying why ``play`` is illegal for ``seat`` now."""
        hand_mask = int(self._vec[k.HAND + seat])
        hand_text = cards_str(self.hand(seat))
        count = int(self._vec[k.COUNT])
        if is_joker(play.card):
            if not hand_mask & k.JOKER_BITS:
                raise ValueError(f"seat {seat} holds no joker (hand: {hand_text})")
            if count == 0 and play.suit is None:
                raise ValueError("a joker that leads must be played high or low and name a suit, e.g. 'Jk high h'")
            if count > 0 and play.suit is not None:
                raise ValueError("only a joker that leads names a suit; on a follow play 'Jk high' or 'Jk low'")
        elif not (hand_mask >> play.card) & 1:
            raise ValueError(f"{card_str(play.card)} is not in seat {seat}'s hand ({hand_text})")
        elif count > 0:
            lead_suit = int(self._vec[k.LEAD_SUIT])
            lead_joker = int(self._vec[k.LEAD_JOKER])
            trump = self.trump
            suit = play.card // 9
            in_suit = hand_mask & k.suit_bits(lead_suit)
            trumps = hand_mask & k.suit_bits(trump) if trump != NO_TRUMP else 0
            if in_suit:
                if lead_joker == k.HIGH:
                    top = int(k.highest_card(in_suit))
                    if play.card != top:
                        raise ValueError(
                            f"a joker led high naming {SUITS[lead_suit]}: seat {seat} must play its highest "
                            f"{SUITS[lead_suit]} ({card_str(top)}) or a joker")
                elif suit != lead_suit:
                    raise ValueError(
                        f"seat {seat} must follow {SUITS[lead_suit]} "
                        f"({cards_str(sort_cards(cards_of(in_suit)))}) or play a joker")
            elif trumps and suit != trump:
                raise ValueError(
                    f"seat {seat} has no {SUITS[lead_suit]} and must play a trump "
                    f"({cards_str(sort_cards(cards_of(trumps)))}) or a joker")
        # The readable checks above and the kernel must agree.
        if play.code not in self._legal_codes(seat):  # pragma: no cover - a bug if reached
            raise AssertionError(f"engine and kernel disagree about {play}")

    def __repr__(self) -> str:
        trump = "?" if self.trump is None else suit_str(self.trump)
        return (f"DealState(hand_size={self.hand_size}, dealer={self.dealer}, trump={trump}, "
                f"phase={self.phase!r}, bids={self.bids}, taken={list(self.taken)})")


def _check_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat <= 3:
        raise ValueError(f"a seat is 0..3, got {seat!r}")


def _phase_error(phase: str, action: str, extra: str = "") -> str:
    text = f"cannot {action} now: the deal is in its {phase!r} phase"
    return f"{text} ({extra})" if extra else text


def _parse_hands(hands: Sequence[str | Iterable[str | int]]) -> list[list[int]]:
    """Parse four hands; the jokers (interchangeable) get ids 36 then 37 across hands."""
    parsed = [parse_cards(h) for h in hands]
    seen: dict[int, int] = {}
    jokers = 0
    for seat, hand in enumerate(parsed):
        for i, card in enumerate(hand):
            if is_joker(card):
                if jokers == 2:
                    raise ValueError("more than two jokers (Jk) in the hands")
                hand[i] = JOKER_IDS[jokers]
                jokers += 1
            elif card in seen:
                raise ValueError(f"{card_str(card)} is dealt to both seat {seen[card]} and seat {seat}")
            else:
                seen[card] = seat
    return parsed
