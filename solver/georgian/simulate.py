"""Whole games among four policies, and the game record (print it, save it as JSON,
replay it through the rules engine).

A policy is any object with three methods, each given the seat's ``SeatView`` and the
seat's own ``numpy.random.Generator``:

* ``choose_trump(view, rng)`` -> a suit 0..3 or ``NO_TRUMP`` (9-card deals only);
* ``bid(view, rng)`` -> a number of tricks;
* ``play(view, rng)`` -> a ``Play``.

``play_game`` derives every generator from its ``seed`` (one for the shuffles, one per
seat), so a seed fixes the whole game.

An illegal action stops the game with the reason, unless the policy also has
``rejected(view, action, message)``: then it is told the engine's message and asked
again (a person at the terminal, ``solver.georgian.terminal``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from . import kernels as k
from .cards import NO_TRUMP, cards_str, mask_of, suit_str
from .engine import DealState, Play, SeatView
from .rules import GameVariant, get_variant, pulka_bonus


class Policy(Protocol):
    """What ``play_game`` needs of a player."""

    def choose_trump(self, view: SeatView, rng: np.random.Generator) -> int:
        """Trump for a 9-card deal, from the first three cards (``view.hand``)."""

    def bid(self, view: SeatView, rng: np.random.Generator) -> int:
        """Number of tricks to bid."""

    def play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """Card to play (one of ``view.legal``)."""


class BaselinePolicy:
    """The simple rule-based player: bids its rounded trick estimate (the dealer moves
    by one when it must) and plays to take exactly its bid (see
    ``kernels.baseline_play``). Deterministic: it ignores ``rng``."""

    name = "baseline"

    def choose_trump(self, view: SeatView, rng: np.random.Generator) -> int:
        """A suit held at least twice among the first three cards, else no trump."""
        return int(k.baseline_trump(mask_of(view.hand)))

    def bid(self, view: SeatView, rng: np.random.Generator) -> int:
        """The rounded trick estimate, moved by one if the dealer may not bid it."""
        return int(k.baseline_bid(np.array(view.vector, np.int64), view.seat))

    def play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """Win cheaply while short of the bid, duck once it is made."""
        buf = np.zeros(k.MAX_PLAYS, np.int64)
        return Play.from_code(k.baseline_play(np.array(view.vector, np.int64), view.seat, buf))


class RandomPolicy:
    """Uniformly random legal actions (for tests and as a floor)."""

    name = "random"

    def choose_trump(self, view: SeatView, rng: np.random.Generator) -> int:
        """Any suit or no trump."""
        return int(rng.integers(NO_TRUMP + 1))

    def bid(self, view: SeatView, rng: np.random.Generator) -> int:
        """Any legal bid."""
        return int(view.legal[int(rng.integers(len(view.legal)))])

    def play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """Any legal play."""
        return view.legal[int(rng.integers(len(view.legal)))]


@dataclass(frozen=True)
class DealRecord:
    """One deal as played. Lists by seat are indexed by seat; ``hands`` are the cards
    as dealt; each trick is ``{"leader": seat, "plays": [...], "winner": seat}``."""

    number: int
    pulka: int
    dealer: int
    hand_size: int
    hands: tuple[tuple[str, ...], ...]
    turned_card: str | None
    trump: str
    trump_chooser: int | None
    bids: tuple[int, ...]
    tricks: tuple[dict, ...]
    taken: tuple[int, ...]
    scores: tuple[int, ...]

    @classmethod
    def from_state(cls, number: int, pulka: int, state: DealState) -> DealRecord:
        """Record a finished deal."""
        return cls(
            number=number,
            pulka=pulka,
            dealer=state.dealer,
            hand_size=state.hand_size,
            hands=tuple(tuple(cards_str(h).split()) for h in state.initial_hands),
            turned_card=None if state.turned_card is None else cards_str([state.turned_card]),
            trump=suit_str(state.trump),
            trump_chooser=state.trump_chooser,
            bids=tuple(int(b) for b in state.bids),
            tricks=tuple({"leader": t.leader, "plays": [str(p) for p in t.plays], "winner": t.winner}
                         for t in state.tricks),
            taken=state.taken,
            scores=state.scores(),
        )

    @classmethod
    def from_dict(cls, data: dict) -> DealRecord:
        """Inverse of ``asdict`` (as read back from JSON)."""
        try:
            return cls(
                number=int(data["number"]),
                pulka=int(data["pulka"]),
                dealer=int(data["dealer"]),
                hand_size=int(data["hand_size"]),
                hands=tuple(tuple(h) for h in data["hands"]),
                turned_card=data["turned_card"],
                trump=str(data["trump"]),
                trump_chooser=None if data["trump_chooser"] is None else int(data["trump_chooser"]),
                bids=tuple(int(b) for b in data["bids"]),
                tricks=tuple({"leader": int(t["leader"]), "plays": list(t["plays"]), "winner": int(t["winner"])}
                             for t in data["tricks"]),
                taken=tuple(int(x) for x in data["taken"]),
                scores=tuple(int(x) for x in data["scores"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a deal record: missing or bad field {exc}") from exc


@dataclass(frozen=True)
class GameRecord:
    """A whole game: the deals, each pulka's bonuses (by seat) and the final totals."""

    variant: str
    seed: int | None
    players: tuple[str, ...]
    first_dealer: int
    deals: tuple[DealRecord, ...]
    pulka_bonuses: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    def to_dict(self) -> dict:
        """Plain data (lists, dicts, ints, strings) for JSON."""
        return json.loads(json.dumps(asdict(self)))

    def to_json(self, indent: int | None = 1) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        """Write the record as JSON to ``path``."""
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: dict) -> GameRecord:
        """Read a record from plain data (see ``to_dict``)."""
        try:
            return cls(
                variant=str(data["variant"]),
                seed=data["seed"],
                players=tuple(data["players"]),
                first_dealer=int(data["first_dealer"]),
                deals=tuple(DealRecord.from_dict(d) for d in data["deals"]),
                pulka_bonuses=tuple(tuple(int(x) for x in b) for b in data["pulka_bonuses"]),
                totals=tuple(int(x) for x in data["totals"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a game record: missing or bad field {exc}") from exc

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record from JSON text."""
        return cls.from_dict(json.loads(text))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record saved with ``save``."""
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    def winners(self) -> tuple[int, ...]:
        """Seats with the highest total (equal totals share the place)."""
        best = max(self.totals)
        return tuple(p for p in range(4) if self.totals[p] == best)

    def format(self, *, show_hands: bool = True) -> str:
        """A readable account of the game, deal by deal."""
        names = ", ".join(f"S{p} {n}" for p, n in enumerate(self.players))
        lines = [f"Georgian Joker, {self.variant} game, seed {self.seed}: {names}"]
        for d in self.deals:
            turned = f", turned {d.turned_card}" if d.turned_card else f", S{d.trump_chooser} chose"
            lines.append(f"Deal {d.number} (pulka {d.pulka}): dealer S{d.dealer}, "
                         f"{d.hand_size} card{'s' if d.hand_size > 1 else ''} each{turned}, trump {d.trump}")
            order = [(d.dealer + 1 + i) % 4 for i in range(4)]
            if show_hands:
                lines.append("  hands: " + " | ".join(f"S{p} {' '.join(d.hands[p])}" for p in order))
            lines.append("  bids:  " + ", ".join(f"S{p} {d.bids[p]}" for p in order))
            for i, t in enumerate(d.tricks, 1):
                plays = ", ".join(f"S{(t['leader'] + j) % 4} {p}" for j, p in enumerate(t["plays"]))
                lines.append(f"  trick {i}: {plays} -> S{t['winner']}")
            lines.append("  taken: " + " ".join(f"S{p} {d.taken[p]}" for p in range(4))
                         + "   scores: " + " ".join(f"S{p} {d.scores[p]:+d}" for p in range(4)))
        for i, bonus in enumerate(self.pulka_bonuses, 1):
            if any(bonus):
                lines.append(f"Pulka {i} bonus: " + ", ".join(f"S{p} +{b}" for p, b in enumerate(bonus) if b))
        lines.append("Totals: " + ", ".join(f"S{p} {t}" for p, t in enumerate(self.totals))
                     + "   winner: " + " and ".join(f"S{p}" for p in self.winners()))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _game_totals(variant: GameVariant,
                 deals: Sequence[DealRecord]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Pulka bonuses (per pulka, per seat) and totals of a complete game."""
    bonuses = []
    for pulka in range(len(variant.pulkas)):
        in_pulka = [d for d in deals if d.pulka == pulka + 1]
        bonuses.append(tuple(pulka_bonus([d.bids[p] for d in in_pulka], [d.taken[p] for d in in_pulka],
                                         [d.scores[p] for d in in_pulka]) for p in range(4)))
    totals = tuple(sum(d.scores[p] for d in deals) + sum(b[p] for b in bonuses) for p in range(4))
    return tuple(bonuses), totals


def play_game(
    policies: Sequence[Policy],
    variant: str | GameVariant = "classic",
    seed: int = 0,
    *,
    first_dealer: int = 0,
    names: Sequence[str] | None = None,
    on_deal: Callable[[DealRecord], None] | None = None,
) -> GameRecord:
    """Play a whole game among four policies (indexed by seat) and return its record.

    All randomness comes from ``seed``: the shuffles and each seat's generator are
    spawned from ``numpy.random.SeedSequence(seed)``. ``on_deal`` is called with the
    record of each deal as soon as it is over.

    >>> rec = play_game([BaselinePolicy()] * 4, "nines", seed=3)
    >>> len(rec.deals), rec.totals == play_game([BaselinePolicy()] * 4, "nines", seed=3).totals
    (16, True)
    """
    game = get_variant(variant)
    if len(policies) != 4:
        raise ValueError(f"a game needs four policies, got {len(policies)}")
    for policy in policies:
        for method in ("choose_trump", "bid", "play"):
            if not callable(getattr(policy, method, None)):
                raise ValueError(f"policy {policy!r} has no method {method}()")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, (int, np.integer)) or not 0 <= first_dealer <= 3:
        raise ValueError(f"first_dealer must be a seat 0..3, got {first_dealer!r}")
    if names is None:
        names = [getattr(p, "name", type(p).__name__) for p in policies]
    if len(names) != 4:
        raise ValueError("names must name the four seats")
    if on_deal is not None and not callable(on_deal):
        raise ValueError(f"on_deal must be callable, got {on_deal!r}")
    deck_seed, *seat_seeds = np.random.SeedSequence(int(seed)).spawn(5)
    deck_rng = np.random.default_rng(deck_seed)
    seat_rngs = [np.random.default_rng(s) for s in seat_seeds]

    deals = []
    pulka_of = game.pulka_of_deal
    for i, hand_size in enumerate(game.deal_sizes):
        dealer = (first_dealer + i) % 4
        state = DealState.deal(hand_size, dealer, deck_rng, game.scoring)
        while state.phase != "done":
            seat = state.to_move
            view = state.view(seat)
            policy = policies[seat]
            phase = state.phase
            decide = {"trump": policy.choose_trump, "bid": policy.bid, "play": policy.play}[phase]
            while True:
                action = decide(view, seat_rngs[seat])
                try:
                    state.apply(action)  # changes nothing when it raises
                    break
                except ValueError as exc:
                    rejected = getattr(policy, "rejected", None)
                    if rejected is None:
                        raise ValueError(f"seat {seat} ({names[seat]}) in deal {i + 1}: {exc}") from exc
                    rejected(view, action, str(exc))
        deals.append(DealRecord.from_state(i + 1, pulka_of[i] + 1, state))
        if on_deal is not None:
            on_deal(deals[-1])
    bonuses, totals = _game_totals(game, deals)
    return GameRecord(game.name, int(seed), tuple(names), int(first_dealer), tuple(deals), bonuses, totals)


def replay_deal(record: DealRecord) -> DealState:
    """Rebuild a deal from its record through the rules engine (every action checked).
    Raises ValueError if an action is illegal or a recorded result disagrees."""
    if record.hand_size < 9:
        state = DealState(record.hands, record.dealer, turned_card=record.turned_card,
                          trump=None if record.turned_card else record.trump)
    else:
        state = DealState(record.hands, record.dealer)
        state.choose_trump(record.trump)
    for seat in state.bidding_order:
        state.make_bid(record.bids[seat])
    for number, trick in enumerate(record.tricks, 1):
        if trick["leader"] != state.leader:
            raise ValueError(f"deal {record.number}, trick {number}: recorded leader S{trick['leader']}, "
                             f"but S{state.leader} leads")
        winner = None
        for play in trick["plays"]:
            winner = state.play(play)
        if winner != trick["winner"]:
            raise ValueError(f"deal {record.number}, trick {number}: recorded winner S{trick['winner']}, "
                             f"but the rules give S{winner}")
    if state.phase != "done":
        raise ValueError(f"deal {record.number}: the record stops before the deal is over")
    if state.taken != tuple(record.taken) or state.scores() != tuple(record.scores):
        raise ValueError(f"deal {record.number}: recorded taken/scores {record.taken}/{record.scores} "
                         f"disagree with the rules ({state.taken}/{state.scores()})")
    return state


def replay_game(record: GameRecord) -> GameRecord:
    """Check a game record against the rules: replay every deal, recompute the bonuses
    and totals, and return the recomputed record (equal to ``record`` when it is sound)."""
    game = get_variant(record.variant)
    if len(record.deals) != len(game.deal_sizes):
        raise ValueError(f"a {game.name} game has {len(game.deal_sizes)} deals, the record has {len(record.deals)}")
    deals = []
    for i, deal in enumerate(record.deals):
        if deal.hand_size != game.deal_sizes[i] or deal.dealer != (record.first_dealer + i) % 4:
            raise ValueError(f"deal {i + 1}: hand size or dealer does not follow the {game.name} schedule")
        state = replay_deal(deal)
        deals.append(DealRecord.from_state(i + 1, game.pulka_of_deal[i] + 1, state))
    bonuses, totals = _game_totals(game, deals)
    if bonuses != tuple(record.pulka_bonuses) or totals != tuple(record.totals):
        raise ValueError(f"recorded bonuses/totals {record.pulka_bonuses}/{record.totals} disagree with "
                         f"the rules ({bonuses}/{totals})")
    return GameRecord(record.variant, record.seed, record.players, record.first_dealer, tuple(deals), bonuses, totals)


__all__ = [
    "BaselinePolicy",
    "DealRecord",
    "GameRecord",
    "Policy",
    "RandomPolicy",
    "play_game",
    "replay_deal",
    "replay_game",
]
