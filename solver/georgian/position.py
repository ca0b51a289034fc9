"""A position of one deal as the seat to move sees it, given as plain data (the
command line's ``advise`` reads it as options or JSON), and the view it gives.

A position is the seat's cards, the dealer, the trump (or the turned card), the bids
made so far and every card played so far, in order. That is all a seat can know, and
enough to tell whose turn it is: bids go round from the dealer's left, the first trick
is led from there and each trick's winner leads the next. With no trump and no turned
card the position is the trump choice of a 9-card deal, and the cards are the
chooser's first three.

>>> p = Position.from_dict({"hand": "Kh 7h Qd", "dealer": 3, "turned": "6h",
...                         "bids": [1, 1, 0, 0], "plays": ["Jk high s", "As"]})
>>> p.phase, p.seat, p.hand_size, [str(x) for x in p.view().legal]  # S2 has no spade: it must trump
('play', 2, 3, ['7h', 'Kh'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from . import kernels as k
from .cards import (DECK, NO_TRUMP, card_str, cards_of, cards_str, is_joker, mask_of, parse_card, parse_cards,
                    parse_suit, suit_str)
from .engine import DealState, Play, SeatView
from .rules import STANDARD_SCORING, Scoring

_KEYS = ("hand", "dealer", "trump", "turned", "bids", "plays")

_FILL_STATE = (12345, 67890, 13579, 24680)
"""Seed of the cards filled in for the hidden hands. They are never shown to anyone
(the advice reads only the seat's view), so any consistent fill gives the same advice."""


@dataclass(frozen=True)
class Position:
    """One deal as the seat to move sees it.

    ``hand``: the cards the seat holds now (for a trump choice, its first three);
    ``dealer``: a seat 0..3; ``trump``: a suit 0..3 or NO_TRUMP, None when it is still
    to choose; ``turned_card``: the face-up card of a deal of fewer than 9 cards (or
    None); ``bids``: the bids made, in bidding order from the dealer's left; ``plays``:
    every card played so far, in order from the first lead.
    """

    hand: tuple[int, ...]
    dealer: int
    trump: int | None = None
    turned_card: int | None = None
    bids: tuple[int, ...] = ()
    plays: tuple[Play, ...] = ()
    scoring: Scoring = STANDARD_SCORING

    @classmethod
    def from_dict(cls, data: Mapping) -> Position:
        """A position from plain data (as read from JSON): ``hand`` (text or a list of
        cards), ``dealer`` (a seat), ``trump`` (``s h d c none``) and/or ``turned`` (a
        card), ``bids`` (numbers, in bidding order; or text like ``"1 0"``), ``plays``
        (a list of plays, or text with the plays separated by commas)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a position is an object with the keys {', '.join(_KEYS)}, got {data!r}")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise ValueError(f"unknown key(s) {', '.join(map(repr, unknown))} in the position; "
                             f"valid: {', '.join(_KEYS)}")
        if "hand" not in data or "dealer" not in data:
            raise ValueError("a position needs at least 'hand' and 'dealer'")
        hand = tuple(parse_cards(data["hand"]))
        dealer = _seat(data["dealer"])
        trump = None if data.get("trump") is None else parse_suit(data["trump"], allow_no_trump=True)
        turned = data.get("turned")
        if turned is not None:
            turned = parse_card(turned) if isinstance(turned, str) else _card_id(turned)
            if is_joker(turned):
                turned = next(j for j in (36, 37) if j not in hand)
            turned_trump = NO_TRUMP if is_joker(turned) else turned // 9
            if trump is not None and trump != turned_trump:
                raise ValueError(f"trump {data['trump']!r} disagrees with the turned card {card_str(turned)}")
            trump = turned_trump
        return cls(hand, dealer, trump, turned, _bids(data.get("bids", ())), _plays(data.get("plays", ())))

    # ------------------------------------------------------------------ what it says
    @property
    def phase(self) -> str:
        """``'trump'``, ``'bid'`` or ``'play'``: what the seat to move decides."""
        if self.trump is None:
            return "trump"
        return "bid" if len(self.bids) < 4 else "play"

    @property
    def seat(self) -> int:
        """The seat to move."""
        return self._replay()[1]

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 9 for a trump choice; else the seat's cards now and
        the ones it has played (one a finished trick)."""
        if self.phase == "trump":
            return 9
        return len(self.hand) + len(self.plays) // 4

    def view(self) -> SeatView:
        """The seat to move's view of the position, after the rules engine has checked
        every bid and play in it (ValueError says what is wrong)."""
        state, seat = self._replay()
        return state.view(seat)

    def to_dict(self) -> dict:
        """Plain data that ``from_dict`` reads back."""
        return {"hand": cards_str(self.hand), "dealer": self.dealer,
                "trump": None if self.trump is None else suit_str(self.trump),
                "turned": None if self.turned_card is None else card_str(self.turned_card),
                "bids": list(self.bids), "plays": [str(p) for p in self.plays]}

    # ---------------------------------------------------------------------- internals
    def _replay(self) -> tuple[DealState, int]:
        """A deal that fits everything public in the position, replayed through the
        rules engine, and the seat to move. The other seats' hidden cards are filled in
        at random consistently with what their plays revealed."""
        phase = self.phase
        n = self.hand_size
        if phase == "trump":
            if len(self.hand) != 3 or self.bids or self.plays:
                raise ValueError("with no trump and no turned card the position is the trump choice of a "
                                 "9-card deal: give the chooser's first three cards, and no bids or plays "
                                 f"(got {len(self.hand)} cards, {len(self.bids)} bids, {len(self.plays)} plays)")
        elif self.plays and phase != "play":
            raise ValueError(f"cards are played only after all four bids (got {len(self.bids)} bids)")
        if not 1 <= n <= 9:
            raise ValueError(f"the position has {n} cards each (cards held and tricks played); a deal has 1..9")
        if n == 9 and self.turned_card is not None:
            raise ValueError("a 9-card deal deals the whole deck: there is no turned card")
        if len(self.bids) > 4:
            raise ValueError(f"four seats bid, got {len(self.bids)} bids")
        if len(self.plays) >= 4 * n:
            raise ValueError("the deal is over: every trick has been played")

        leaders, caps, played_by = self._public_history()
        seat = (self.dealer + 1 + len(self.bids)) % 4 if phase != "play" else \
            (leaders[-1] + len(self.plays) % 4) % 4
        hidden = self._fill(seat, n, caps, played_by)
        hands = []
        for p in range(4):
            # As dealt: the cards played first, then the ones held (for the trump
            # chooser, its first three, then the six it has not seen yet).
            held = (list(self.hand) if p == seat else []) + cards_of(int(hidden[p]))
            hands.append([card_str(c) for c in played_by[p] + held])
        if phase == "trump":
            state = DealState(hands, self.dealer, scoring=self.scoring)
        else:
            state = DealState(hands, self.dealer, turned_card=self.turned_card,
                              trump=None if self.turned_card is not None else self.trump, scoring=self.scoring)
            for number, bid in enumerate(self.bids, 1):
                try:
                    state.make_bid(bid)
                except ValueError as exc:
                    raise ValueError(f"bid {number} of the position: {exc}") from None
            for number, play in enumerate(self.plays, 1):
                try:
                    state.play(play)
                except ValueError as exc:
                    raise ValueError(f"play {number} of the position ({play}): {exc}") from None
        return state, seat

    def _public_history(self) -> tuple[list[int], np.ndarray, list[list[int]]]:
        """From the plays alone: the leader of each trick so far, what the plays reveal
        (rank caps, as the engine infers them) and the cards each seat played."""
        leaders = [(self.dealer + 1) % 4]
        caps = np.full((4, 4), 8, np.int64)
        played_by: list[list[int]] = [[] for _ in range(4)]
        trump = NO_TRUMP if self.trump is None else self.trump
        cards = np.zeros(4, np.int64)
        modes = np.zeros(4, np.int64)
        for start in range(0, len(self.plays), 4):
            trick = self.plays[start:start + 4]
            leader = leaders[-1]
            lead = trick[0]
            if is_joker(lead.card) and lead.suit is None:
                raise ValueError(f"a joker that leads names a suit, e.g. 'Jk high h': play {start + 1} ({lead})")
            lead_suit = lead.suit if is_joker(lead.card) else lead.card // 9
            lead_joker = (k.HIGH if lead.joker == "high" else k.LOW) if is_joker(lead.card) else k.NOT_JOKER
            for i, play in enumerate(trick):
                seat = (leader + i) % 4
                played_by[seat].append(play.card)
                cards[i] = play.card
                modes[i] = k.NOT_JOKER if play.joker is None else (k.HIGH if play.joker == "high" else k.LOW)
                if i > 0 and not is_joker(play.card):
                    k.record_inference(caps, seat, play.card, lead_suit, lead_joker, trump)
            if len(trick) == 4:
                leaders.append((leader + int(k.trick_winner(cards, modes, 4, lead_suit, lead_joker, trump))) % 4)
        for p in range(4):  # the second joker a position names is the other one
            jokers = [i for i, c in enumerate(played_by[p]) if is_joker(c)]
            for i in jokers[1:]:
                played_by[p][i] = 37
        return leaders, caps, played_by

    def _fill(self, seat: int, n: int, caps: np.ndarray, played_by: list[list[int]]) -> np.ndarray:
        """The other seats' cards still held (and the undealt pile), at random but
        consistent with the rank caps; ValueError when no deal fits."""
        seen = [c for cards in played_by for c in cards] + list(self.hand)
        if self.turned_card is not None:
            seen.append(self.turned_card)
        jokers_seen = sum(is_joker(c) for c in seen)
        if jokers_seen > 2:
            raise ValueError("the position shows more than two jokers")
        plain = [c for c in seen if not is_joker(c)]
        repeated = sorted({c for c in plain if plain.count(c) > 1})
        if repeated:
            raise ValueError(f"the position shows {cards_str(repeated)} twice")
        known = mask_of(plain) | sum(1 << j for j in (36, 37)[:jokers_seen])
        unseen = np.array([c for c in DECK if not (known >> c) & 1], np.int64)
        capacity = np.zeros(5, np.int64)
        for p in range(4):
            capacity[p] = n - len(played_by[p]) - (len(self.hand) if p == seat else 0)
        capacity[4] = len(unseen) - int(capacity.sum())
        if (capacity < 0).any() or (n == 9 and capacity[4] != 0):
            raise ValueError(f"the cards in the position do not add up to a deal of {n} cards each "
                             f"(the seat to move, S{seat}, holds {len(self.hand)})")
        full_caps = np.full((5, 4), 8, np.int64)
        full_caps[:4] = caps
        hidden = np.zeros(5, np.int64)
        if not k.sample_hidden(unseen, capacity, full_caps, np.array(_FILL_STATE, np.int64), hidden):
            raise ValueError("no deal fits the position: the plays reveal voids or caps that the unseen cards "
                             "cannot meet")
        return hidden


def _seat(value: object) -> int:
    if isinstance(value, str) and value.strip().lstrip("sS").isdigit():
        value = int(value.strip().lstrip("sS"))
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 3:
        raise ValueError(f"dealer must be a seat 0..3, got {value!r}")
    return int(value)


def _card_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) not in DECK:
        raise ValueError(f"not a card: {value!r}")
    return int(value)


def _bids(value: object) -> tuple[int, ...]:
    items: Iterable = value.replace(",", " ").split() if isinstance(value, str) else value  # type: ignore[union-attr]
    if not isinstance(items, Iterable):
        raise ValueError(f"bids must be a list of numbers, got {value!r}")
    bids = []
    for item in items:
        if isinstance(item, str) and item.strip().isdigit():
            item = int(item)
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)) or item < 0:
            raise ValueError(f"a bid is a number of tricks, got {item!r}")
        bids.append(int(item))
    return tuple(bids)


def _plays(value: object) -> tuple[Play, ...]:
    if isinstance(value, str):
        items: Sequence = [t for t in value.split(",") if t.strip()]
    elif isinstance(value, Sequence):
        items = value
    else:
        raise ValueError(f"plays must be a list of plays, got {value!r}")
    return tuple(Play.parse(item.strip() if isinstance(item, str) else item) for item in items)
