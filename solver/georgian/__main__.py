"""Command line of Georgian Joker: ``python3 -m solver.georgian``.

::

    python3 -m solver.georgian play [--seat 0] [--opponents advisor] [--variant classic]
                                    [--seed 0] [--samples 200]
    python3 -m solver.georgian advise --hand CARDS --dealer SEAT [--trump S | --turned CARD]
                                      [--bids "1 0"] [--plays "As, Kh, ..."] [--json]
    python3 -m solver.georgian advise --position JSON|FILE|- [--json]
    python3 -m solver.georgian simulate [--players advisor baseline baseline baseline]
                                        [--games 10] [--variant classic] [--seed 0] [--json]

Bad input prints one line on stderr and exits with 2. Only the public API of
``solver.georgian`` is used, and the text UI of ``play`` is ``solver.georgian.terminal``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from .. import _jit
from . import VARIANTS, AdvisorPolicy, BaselinePolicy, Position, RandomPolicy, cards_str, get_variant, play_game
from ._warmup import ENTRY_KERNELS, compile_kernels
from .terminal import GameStopped, TerminalPlayer, advice_table

POLICIES = ("advisor", "baseline", "random")
DEFAULT_SAMPLES = 200
EFFORT_NOTE = (f"--samples N is the advisor's effort: N sampled deals behind each bid or play, and for "
               f"a 9-card trump choice N/5 sampled deals each played out with N/10 samples a "
               f"decision (the default {DEFAULT_SAMPLES} gives 40 and 20).")
COMPILE_NOTE = ("The first run compiles the kernels (about 20 s; cached on disk afterwards) and says so "
                "on stderr, with the time so far; SOLVER_QUIET=1 turns that off.")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit code 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Formatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows every default but None and False."""

    def _get_help_string(self, action):
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def _parser() -> argparse.ArgumentParser:
    prog = "python3 -m solver.georgian"
    parser = _Parser(prog=prog, formatter_class=_Formatter,
                     description="Georgian Joker, the four-player trick-taking game with bidding "
                                 "(rules in docs/georgian.md): play it, get advice, simulate games.",
                     epilog=f"'{prog} COMMAND --help' tells more. {COMPILE_NOTE}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def game_options(p):
        p.add_argument("--variant", default="classic", choices=sorted(VARIANTS),
                       help="classic: 24 deals (1..8, four 9s, 8..1, four 9s); nines: 16 deals of 9")
        p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="the advisor's effort (below)")

    p = sub.add_parser("play", formatter_class=_Formatter, help="play a game at the terminal",
                       description="Play a whole game in one seat against three seats of your choice. "
                                   "Each turn shows your hand, the trump, the bids, the trick so far "
                                   "and the scores; type a bid, a card (As, Td), a joker with its mode "
                                   "(Jk high, Jk low; leading, with a suit: Jk high h), 'hint' for the "
                                   "advisor's ranked choices, 'help', or 'quit'. Reads standard input a "
                                   "line at a time (a pipe works too; its end ends the game).",
                       epilog=f"{EFFORT_NOTE} {COMPILE_NOTE}")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0..3 (seat 0 deals first)")
    p.add_argument("--opponents", default="advisor",
                   help=f"the other three seats, in turn after yours: one of {', '.join(POLICIES)} for all "
                        "three, or three names separated by commas, e.g. advisor,baseline,random")
    p.add_argument("--seed", type=int, default=0, help="seed of the game (the deals and every seat's choices)")
    game_options(p)

    a = sub.add_parser("advise", formatter_class=_Formatter, help="the advised trump, bid or play of a position",
                       description="The advised trump choice, bid or play of the seat to move, as "
                                   "ranked choices with expected deal scores ± standard errors. The "
                                   "position is the seat's cards, the dealer, the trump or the turned card, "
                                   "the bids so far (in order from the dealer's left) and every card played "
                                   "so far (in order from the first lead); whose turn it is follows from "
                                   "them. With no trump and no turned card it is the trump choice of a "
                                   "9-card deal, and --hand is the chooser's first three cards.",
                       epilog=f"examples: {prog} advise --hand 'Jk Ah Kh 7c' --dealer 3 --turned 9h --bids '1 0'; "
                              f"{prog} advise --hand 'As Ks 7h' --dealer 0; "
                              f"{prog} advise --position '{{\"hand\": \"Kh 7h Qd\", \"dealer\": 3, "
                              f"\"turned\": \"6h\", \"bids\": [1, 1, 0, 0], \"plays\": [\"Jk high s\", \"As\"]}}'. "
                              f"{EFFORT_NOTE}")
    a.add_argument("--position", default=None, metavar="JSON",
                   help="the position as a JSON object (keys hand, dealer, trump, turned, bids, plays), "
                        "a file holding one, or - to read it from standard input")
    a.add_argument("--hand", default=None, help="the cards you hold now, e.g. 'Jk Ah Kh 7c'")
    a.add_argument("--dealer", default=None, help="the dealer's seat, 0..3")
    a.add_argument("--trump", default=None, help="the trump: s h d c or none")
    a.add_argument("--turned", default=None, help="the turned card of a deal of fewer than 9 cards")
    a.add_argument("--bids", default=None, help="the bids so far in bidding order, e.g. '1 0 2'")
    a.add_argument("--plays", default=None, help="the cards played so far, separated by commas, "
                                                 "e.g. 'Jk high s, As, 7h'")
    a.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="the advisor's effort (below)")
    a.add_argument("--seed", type=int, default=0, help="seed of the sampling")
    a.add_argument("--json", action="store_true", help="print JSON instead of text")

    s = sub.add_parser("simulate", formatter_class=_Formatter, help="seeded games among chosen policies",
                       description="Play N seeded games (game g has seed SEED + g) among four policies and "
                                   "print each seat's mean total with its 95% confidence interval "
                                   "(mean ± 1.96 sd / sqrt(N)).",
                       epilog=f"{EFFORT_NOTE} {COMPILE_NOTE}")
    s.add_argument("--players", nargs=4, default=["advisor", "baseline", "baseline", "baseline"],
                   metavar="POLICY", help=f"the policies of seats 0..3, each one of {', '.join(POLICIES)}")
    s.add_argument("--games", type=int, default=10, help="number of games")
    s.add_argument("--seed", type=int, default=0, help="game g has seed SEED + g")
    game_options(s)
    s.add_argument("--json", action="store_true", help="print the summary and every game record as JSON")
    return parser


def main(argv=None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exc:  # --help, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return {"play": _play, "advise": _advise, "simulate": _simulate}[args.command](args)
    except (ValueError, OSError) as err:
        message = " ".join(str(err).split())
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
        return 2


def _check_count(name: str, value: int, low: int) -> int:
    if value < low:
        raise ValueError(f"--{name} must be at least {low}, got {value}")
    return value


def _policy(name: str, samples: int):
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; valid: {', '.join(POLICIES)}")
    if name == "advisor":
        return AdvisorPolicy.with_effort(samples)
    return BaselinePolicy() if name == "baseline" else RandomPolicy()


def _compile() -> None:
    """Compile the kernels now if they are cold, saying so and for how long."""
    with _jit.compile_progress(ENTRY_KERNELS, "the Georgian Joker kernels") as cold:
        if cold:
            compile_kernels()


# --- play -----------------------------------------------------------------------------------------------
def _play(args) -> int:
    if not 0 <= args.seat <= 3:
        raise ValueError(f"--seat must be a seat 0..3, got {args.seat}")
    _check_count("seed", args.seed, 0)
    samples = _check_count("samples", args.samples, 1)
    names = [n.strip() for n in args.opponents.split(",")]
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise ValueError(f"--opponents names one policy or three, got {len(names)}: {args.opponents!r}")
    policies = [_policy(n, samples) for n in names]
    variant = get_variant(args.variant)
    seats = [(args.seat + 1 + i) % 4 for i in range(3)]
    players = ["you"] * 4
    for seat, name in zip(seats, names, strict=True):
        players[seat] = name
    person = TerminalPlayer(args.seat, players, variant, AdvisorPolicy.with_effort(samples), sys.stdin, sys.stdout)
    table = [None] * 4
    table[args.seat] = person
    for seat, policy in zip(seats, policies, strict=True):
        table[seat] = policy
    _compile()
    others = ", ".join(f"S{s} {players[s]}" for s in seats)
    print(f"Georgian Joker, {variant.name} game ({len(variant.deal_sizes)} deals), seed {args.seed}. "
          f"You are S{args.seat}; {others}. Type 'help' for what to type.\n", flush=True)
    try:
        record = play_game(table, variant, seed=args.seed, names=players, on_deal=person.deal_over)
    except GameStopped as stop:
        print(f"Game stopped ({stop}) after {len(person.deals)} of {len(variant.deal_sizes)} deals. "
              f"Totals: {person.totals_text()}", flush=True)
        return 0
    except KeyboardInterrupt:
        print("\nGame stopped.", flush=True)
        return 130
    person.game_over(record)
    return 0


# --- advise ---------------------------------------------------------------------------------------------
def _read_position(args) -> Position:
    fields = {"hand": args.hand, "dealer": args.dealer, "trump": args.trump, "turned": args.turned,
              "bids": args.bids, "plays": args.plays}
    given = {key: value for key, value in fields.items() if value is not None}
    if args.position is not None:
        if given:
            raise ValueError(f"give the position with --position or with --hand etc., not both "
                             f"(also got --{', --'.join(given)})")
        text = args.position
        if text == "-":
            text = sys.stdin.read()
        elif not text.lstrip().startswith("{") and os.path.exists(text):
            with open(text, encoding="utf-8") as f:
                text = f.read()
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--position is not a JSON object (nor a file holding one): {exc}") from None
        return Position.from_dict(data)
    if args.hand is None or args.dealer is None:
        raise ValueError("give the position: at least --hand and --dealer (or --position JSON)")
    return Position.from_dict(given)


def _advise(args) -> int:
    samples = _check_count("samples", args.samples, 1)
    _check_count("seed", args.seed, 0)
    position = _read_position(args)
    _compile()
    view = position.view()  # checks the position through the rules engine
    adviser = AdvisorPolicy.with_effort(samples)
    advice = adviser.advise(view, np.random.default_rng(args.seed))
    phase = view.phase
    effort = {"trump": f"{adviser.trump_samples} sampled deals, {adviser.trump_playout_samples} samples a decision",
              "bid": f"{adviser.bid_samples} samples", "play": f"{adviser.play_samples} samples"}[phase]
    if args.json:
        print(json.dumps({
            "position": position.to_dict(), "phase": phase, "seat": view.seat, "hand_size": view.hand_size,
            "samples": samples, "seed": args.seed,
            "choices": [{"choice": a.choice if isinstance(a.choice, (int, str)) else str(a.choice),
                         "expected_score": round(a.expected_score, 2),
                         "stderr": None if math.isnan(a.stderr) else round(a.stderr, 2)} for a in advice],
        }, indent=1))
        return 0
    what = {"trump": "trump choice", "bid": "bid", "play": "play"}[phase]
    print(f"S{view.seat} to {'choose trump' if phase == 'trump' else phase}: {_position_text(position, view)}")
    print(f"advised {what}, best first (expected deal score ± standard error; {effort}, seed {args.seed}):")
    print(advice_table(advice, indent="  "))
    return 0


def _position_text(position: Position, view) -> str:
    parts = [f"{view.hand_size} cards each, dealer S{view.dealer}"]
    if view.phase == "trump":
        parts.append(f"first three cards {cards_str(view.hand)}")
        return "; ".join(parts)
    given = position.to_dict()
    parts.append(f"hand {cards_str(view.hand)}")
    parts.append(f"trump {given['trump']}" + (f" (turned {given['turned']})" if given["turned"] else ""))
    order = [(view.dealer + 1 + i) % 4 for i in range(4)]
    bids = [f"S{p} {view.bids[p]}" for p in order if view.bids[p] is not None]
    parts.append("bids " + (", ".join(bids) if bids else "none yet"))
    if position.plays:
        parts.append(f"{len(position.plays)} card{'s' if len(position.plays) > 1 else ''} played")
    return "; ".join(parts)


# --- simulate -------------------------------------------------------------------------------------------
def _simulate(args) -> int:
    games = _check_count("games", args.games, 1)
    seed = _check_count("seed", args.seed, 0)
    samples = _check_count("samples", args.samples, 1)
    variant = get_variant(args.variant)
    for name in args.players:
        _policy(name, samples)  # an unknown name fails before any game is played
    _compile()
    start = time.perf_counter()
    records = [play_game([_policy(n, samples) for n in args.players], variant, seed=seed + g)
               for g in range(games)]
    seconds = time.perf_counter() - start
    seats = []
    for p in range(4):
        totals = np.array([r.totals[p] for r in records], float)
        sd = float(totals.std(ddof=1)) if games > 1 else float("nan")
        half = 1.96 * sd / math.sqrt(games)
        wins = sum(1 / len(r.winners()) for r in records if p in r.winners())
        seats.append({"seat": p, "player": args.players[p], "mean_total": round(float(totals.mean()), 1),
                      "sd": None if math.isnan(sd) else round(sd, 1),
                      "ci95": None if math.isnan(half) else [round(totals.mean() - half, 1),
                                                             round(totals.mean() + half, 1)],
                      "wins": round(wins, 2)})
    summary = {"variant": variant.name, "games": games, "seeds": [seed, seed + games - 1], "samples": samples,
               "seats": seats}
    if args.json:
        print(json.dumps({"summary": summary, "games": [r.to_dict() for r in records]}, indent=1))
        return 0
    effort = f", advisor effort {samples} samples" if "advisor" in args.players else ""
    print(f"{games} {variant.name} game{'s' if games > 1 else ''}, seeds {seed}..{seed + games - 1}{effort} "
          f"({seconds:.1f} s)")
    print(f"  {'seat':<12}{'mean total':>11}   {'95% CI':<19}{'wins':>6}")
    for s in seats:
        ci = "n/a" if s["ci95"] is None else f"[{s['ci95'][0]:.1f}, {s['ci95'][1]:.1f}]"
        print(f"  S{s['seat']} {s['player']:<9}{s['mean_total']:>11.1f}   {ci:<19}{s['wins']:>6.2f}")
    print("  (wins: games with the highest total; a tie shares the game)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
