"""A game at the terminal: one seat played by a person, through text in and text out.

``TerminalPlayer`` is a policy (``simulate.Policy``) whose decisions are read from a
stream. Each turn shows the hand, the trump, the bids, the trick so far and the scores;
``hint`` prints the advisor's ranked choices (seeded by the turn, so asking again
gives the same answer); an illegal move is answered with the rules engine's message,
in the second person (``play_game`` calls ``rejected``), and asked again; ``quit`` or
the end of the input raises ``GameStopped``. ``deal_over`` and ``game_over`` print the
tables of scores. Reading a line at a time works the same from a keyboard and from a
pipe; from a pipe the answers are echoed, so the transcript reads as a session.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TextIO

import numpy as np

from .advisor import Advice, AdvisorPolicy
from .cards import NO_TRUMP, cards_str, is_joker, suit_str
from .engine import Play, SeatView
from .rules import GameVariant, pulka_bonus
from .simulate import DealRecord, GameRecord

HELP = """\
Type, at your turn:
  a trump      s h d c, or none                 (9-card deals, seeing three cards)
  a bid        a number of tricks, e.g. 2 (the prompt lists the legal bids)
  a card       e.g. As, Td, 10d, 7h
  a joker      on a follow: Jk high, Jk low; leading, name a suit: Jk high h, Jk low s
  hint         the advisor's choices, with expected deal scores +- standard errors
  help         this text;  quit  ends the game"""


class GameStopped(Exception):
    """The person ended the game: ``quit``, or the end of the input."""


class TerminalPlayer:
    """The person's seat. ``names`` are the four seats' player names (this seat's is
    shown as "you"); ``adviser`` gives the hints, each seeded by ``hint_seed`` and the
    turn (the deal, the phase, the bids and cards so far), never by the game's random
    numbers: the hint at a turn is the same however often it is asked."""

    name = "you"

    def __init__(self, seat: int, names: Sequence[str], variant: GameVariant, adviser: AdvisorPolicy,
                 stdin: TextIO, stdout: TextIO, *, hint_seed: int = 0) -> None:
        self.seat = seat
        self.hint_seed = hint_seed
        self.names = list(names)
        self.variant = variant
        self.adviser = adviser
        self.stdin = stdin
        self.stdout = stdout
        self.echo = not _is_terminal(stdin)
        self.deals: list[DealRecord] = []
        self.totals = [0, 0, 0, 0]
        self._shown_turn: tuple | None = None
        self._shown_deal = 0
        self._shown_tricks = 0

    # ------------------------------------------------------------------ the policy
    def choose_trump(self, view: SeatView, rng: np.random.Generator) -> str:
        """Read the trump (the rules engine parses and checks it)."""
        return self._ask(view, "Your trump (s h d c none)")

    def bid(self, view: SeatView, rng: np.random.Generator) -> int | str:
        """Read a bid: a number (the engine checks its range and the dealer's rule)."""
        allowed = " ".join(str(b) for b in view.legal)
        while True:
            text = self._ask(view, f"Your bid (legal: {allowed})")
            if text.isdigit():
                return int(text)
            self._say(f"  a bid is a number of tricks, 0 to {view.hand_size}: not {text!r}")

    def play(self, view: SeatView, rng: np.random.Generator) -> str:
        """Read a play (the engine parses and checks it)."""
        return self._ask(view, "Your play")

    def rejected(self, view: SeatView, action: object, message: str) -> None:
        """An illegal move: say why (the engine's message); play_game asks again."""
        self._say(f"  not allowed: {in_second_person(message, self.seat)}")

    # ---------------------------------------------------------------- the tables
    def deal_over(self, record: DealRecord) -> None:
        """The last trick and the table of the deal's scores (and the pulka bonus)."""
        self._show_tricks(record.tricks, record.hand_size)
        self.deals.append(record)
        for p in range(4):
            self.totals[p] += record.scores[p]
        self._say(f"Deal {record.number} is over (trump {record.trump}):")
        self._say(f"  {'seat':<14}{'bid':>4}{'took':>6}{'score':>7}{'total':>7}")
        for p in range(4):
            self._say(f"  {self._label(p):<14}{record.bids[p]:>4}{record.taken[p]:>6}{record.scores[p]:>+7d}"
                      f"{self.totals[p]:>7d}")
        pulka = self.variant.pulkas[record.pulka - 1]
        in_pulka = [d for d in self.deals if d.pulka == record.pulka]
        if len(in_pulka) == len(pulka):
            bonuses = [pulka_bonus([d.bids[p] for d in in_pulka], [d.taken[p] for d in in_pulka],
                                   [d.scores[p] for d in in_pulka]) for p in range(4)]
            for p in range(4):
                self.totals[p] += bonuses[p]
            won = [f"{self._label(p)} +{b}" for p, b in enumerate(bonuses) if b]
            self._say(f"Pulka {record.pulka} is over. Bonus: {', '.join(won) if won else 'nobody made every bid'}. "
                      f"Totals: {self.totals_text()}")
        self._say("")

    def game_over(self, record: GameRecord) -> None:
        """The final table: deal scores, pulka bonuses, totals and the winner."""
        self._say(f"Game over ({record.variant} game, seed {record.seed}):")
        self._say(f"  {'seat':<14}{'deals':>7}{'bonus':>7}{'total':>7}")
        for p in range(4):
            bonus = sum(b[p] for b in record.pulka_bonuses)
            self._say(f"  {self._label(p):<14}{record.totals[p] - bonus:>7d}{bonus:>7d}{record.totals[p]:>7d}")
        winners = " and ".join(self._label(p) for p in record.winners())
        self._say(f"Winner: {winners} with {max(record.totals)}")

    # ------------------------------------------------------------------ internals
    def _ask(self, view: SeatView, prompt: str) -> str:
        """Show the turn (once), then read until a move: hint, help and blank lines are
        answered here; quit and the end of the input stop the game."""
        turn = self._turn(view)
        if turn != self._shown_turn:
            self._show_turn(view)
            self._shown_turn = turn
        while True:
            self.stdout.write(f"{prompt}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self._say("")
                raise GameStopped("the input ended")
            text = line.strip()
            if self.echo:
                self.stdout.write(text + "\n")
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise GameStopped("you quit")
            if word in ("help", "?", "h"):
                self._say(HELP)
            elif word == "hint":
                self._hint(view)
            elif text:
                return text

    def _turn(self, view: SeatView) -> tuple:
        return (len(self.deals), view.phase, view.bids, len(view.played))

    def _hint(self, view: SeatView) -> None:
        deal, phase, bids, played = self._turn(view)
        turn_seed = [self.hint_seed, deal, ("trump", "bid", "play").index(phase),
                     sum(b is not None for b in bids), played]
        advice = self.adviser.advise(view, np.random.default_rng(turn_seed))
        what = {"trump": "trump choices", "bid": "bids", "play": "plays"}[phase]
        effort = {"trump": f"{self.adviser.trump_samples} sampled deals, {self.adviser.trump_playout_samples} "
                           f"samples a decision",
                  "bid": f"{self.adviser.bid_samples} samples", "play": f"{self.adviser.play_samples} samples"}[phase]
        self._say(f"  advisor's {what}, best first (expected deal score ± standard error, {effort}):")
        self._say(advice_table(advice, indent="    "))

    def _show_turn(self, view: SeatView) -> None:
        number = len(self.deals) + 1
        if number != self._shown_deal:
            self._shown_deal = number
            self._shown_tricks = 0
            self._say(self._deal_header(view, number))
        self._show_tricks([{"leader": t.leader, "plays": [str(p) for p in t.plays], "winner": t.winner}
                           for t in view.tricks], view.hand_size)
        if view.phase == "trump":
            self._say(f"  Your first three cards: {cards_str(view.hand)}. You choose the trump.")
            return
        trump = suit_str(view.trump)
        self._say(f"  Your hand: {cards_str(view.hand)}    trump: {trump}")
        order = [(view.dealer + 1 + i) % 4 for i in range(4)]
        bids = ", ".join(f"{self._short(p)} {view.bids[p]}" for p in order if view.bids[p] is not None)
        self._say(f"  Bids: {bids or 'none yet'}")
        if view.phase == "play":
            self._say("  Taken: " + ", ".join(f"{self._short(p)} {view.taken[p]}" for p in range(4))
                      + "    Scores: " + self.totals_text())
            trick = ", ".join(f"{self._short((view.leader + i) % 4)} {p}" for i, p in enumerate(view.current_trick))
            self._say(f"  Trick {len(view.tricks) + 1}: {trick or 'you lead'}")
            self._say(f"  You may play: {_playable(view.legal)}")
        else:
            self._say("  Scores: " + self.totals_text())

    def _deal_header(self, view: SeatView, number: int) -> str:
        pulka = self.variant.pulka_of_deal[number - 1] + 1
        cards = f"{view.hand_size} card{'s' if view.hand_size > 1 else ''} each"
        if view.turned_card is not None:
            trump = f"turned {cards_str([view.turned_card])}: trump {suit_str(view.trump)}"
            if view.trump == NO_TRUMP:
                trump = f"turned {cards_str([view.turned_card])}: no trump"
        elif view.trump is None:
            trump = f"{self._label(view.trump_chooser)} chooses trump"
        else:
            trump = f"{self._label(view.trump_chooser)} chose trump {suit_str(view.trump)}"
        return (f"== Deal {number} of {len(self.variant.deal_sizes)} (pulka {pulka}): {cards}, "
                f"dealer {self._label(view.dealer)}; {trump} ==")

    def _show_tricks(self, tricks: Sequence[dict], hand_size: int) -> None:
        """Print the finished tricks not shown yet, with who took each."""
        for number in range(self._shown_tricks, len(tricks)):
            t = tricks[number]
            plays = ", ".join(f"{self._short((t['leader'] + i) % 4)} {p}" for i, p in enumerate(t["plays"]))
            taker = "you take" if t["winner"] == self.seat else f"S{t['winner']} takes"
            self._say(f"  Trick {number + 1}: {plays} -> {taker} it")
        self._shown_tricks = len(tricks)

    def _label(self, p: int) -> str:
        return f"S{p} you" if p == self.seat else f"S{p} {self.names[p]}"

    def _short(self, p: int) -> str:
        return "you" if p == self.seat else f"S{p}"

    def totals_text(self) -> str:
        """The running totals (deal scores and the bonuses of finished pulkas)."""
        return ", ".join(f"{self._short(p)} {self.totals[p]}" for p in range(4))

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


# The rules engine names the seat ("seat 2 must follow h"); the screen calls the person
# "you". Each pattern is one of the engine's phrasings (DealState.make_bid, _check_play).
_SECOND_PERSON = (
    (r"the dealer \(seat {seat}\) may not", "you are the dealer and may not"),
    (r"\bseat {seat}'s hand", "your hand"),
    (r"\bseat {seat} holds\b", "you hold"),
    (r"\bseat {seat} has no\b", "you have no"),
    (r"\bseat {seat} must play its\b", "you must play your"),
    (r"\bseat {seat} must\b", "you must"),
)


def in_second_person(message: str, seat: int) -> str:
    """The engine's ``message`` about ``seat`` as said to the person in that seat."""
    for pattern, words in _SECOND_PERSON:
        message = re.sub(pattern.format(seat=seat), words, message)
    return message


def advice_table(advice: Sequence[Advice], indent: str = "") -> str:
    """Ranked choices, one a line: rank, choice, expected score ± standard error."""
    width = max(len(str(a.choice)) for a in advice)
    return "\n".join(f"{indent}{i:>2}. {str(a.choice):<{width}}  {a.expected_score:+8.1f} ± {a.stderr:.1f}"
                     for i, a in enumerate(advice, 1))


def _playable(legal: Sequence[Play]) -> str:
    """The legal plays, the jokers summed up (a lead has eight joker plays)."""
    plain = [str(p) for p in legal if not is_joker(p.card)]
    jokers = [p for p in legal if is_joker(p.card)]
    if jokers:
        plain.append("Jk high|low SUIT" if jokers[0].suit is not None else "Jk high|low")
    return " ".join(plain)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
