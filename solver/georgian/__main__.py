"""Command line of Georgian Joker: ``python3 -m solver.georgian``.

::

    python3 -m solver.georgian play [--seat 0] [--opponents advisor] [--variant classic]
                                    [--seed 0] [--samples 200] [--bid-evidence auto|on|off]
                                    [--trump-by-score]
    python3 -m solver.georgian advise --hand CARDS --dealer SEAT [--trump S | --turned CARD]
                                      [--bids "1 0"] [--plays "As, Kh, ..."] [--bid-evidence off|on]
                                      [--json]
    python3 -m solver.georgian advise --position JSON|FILE|- [--json]
    python3 -m solver.georgian simulate [--players advisor baseline baseline baseline]
                                        [--games 10] [--variant classic] [--seed 0]
                                        [--bid-evidence auto|on|off] [--trump-by-score] [--json]

Bad input prints one line on stderr and exits with 2; Ctrl+C stops any command within
about a second (sampling runs in short kernel steps), prints one line "interrupted" (in
``play``, with the totals so far) and exits with 130. Long work shows progress on
stderr when it is a terminal. The text UI of ``play`` is ``solver.georgian.terminal``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .. import _jit, _quiet_start
from . import VARIANTS, AdvisorPolicy, BaselinePolicy, Position, RandomPolicy, cards_str, get_variant, play_game
from ._warmup import ENTRY_KERNELS, compile_kernels
from .advisor import MOST_CHOICES, check_memory, is_interrupt
from .terminal import GameStopped, TerminalPlayer, advice_table

POLICIES = ("advisor", "baseline", "random")
DEFAULT_SAMPLES = 200
# A trump choice's advice plays each sampled deal out with N/10 samples a decision, in
# one kernel step that Ctrl+C cannot stop: about 4.6 ms per sample a decision on the busy
# 2-core machine of benchmarks/GEORGIAN.md. N = 2000 keeps a step near a second.
TRUMP_MOST_SAMPLES = 2000
TRUMP_STEP_SECONDS_PER_SAMPLE = 0.0046
INTERRUPTED = "interrupted"
EFFORT_NOTE = (f"--samples N is the advisor's effort: N sampled deals behind each bid or play, and for "
               f"the advice on a 9-card trump choice N/5 sampled deals each played out with N/10 samples "
               f"a decision (the default {DEFAULT_SAMPLES} gives 40 and 20). Each sampled deal of that "
               f"advice is one step Ctrl+C cannot stop, so it takes at most N = {TRUMP_MOST_SAMPLES}: "
               f"'advise' and --trump-by-score refuse more, and play's hints use {TRUMP_MOST_SAMPLES} "
               f"there. Every decision's sampled scores must fit in 4 GB.")
BID_EVIDENCE_HELP = ("read the other seats' bids as evidence of their hands (weighting each sampled deal "
                     "by how likely the bids are for a baseline player): auto turns it on only for an "
                     "advisor whose other three seats are all baseline players, the one table where it "
                     "measured a gain (benchmarks/GEORGIAN.md: +37.9 points a classic game, 95%% CI "
                     "+10.8 to +65.1; against advisor seats -54.9, CI -118.9 to +9.0)")
TRUMP_BY_SCORE_HELP = ("advisor seats choose a 9-card deal's trump by the advice's expected scores instead "
                       "of the baseline's rule (a suit held twice among the three cards, else no trump); "
                       "off by default: it measured no gain (-22.9 points a nines game, 95%% CI -90.0 to "
                       "+44.2, benchmarks/GEORGIAN.md) and makes a game about 8 times slower")
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
        p.add_argument("--bid-evidence", choices=("auto", "on", "off"), default="auto", help=BID_EVIDENCE_HELP)
        p.add_argument("--trump-by-score", action="store_true", help=TRUMP_BY_SCORE_HELP)

    p = sub.add_parser("play", formatter_class=_Formatter, help="play a game at the terminal",
                       description="Play a whole game in one seat against three seats of your choice. "
                                   "Each turn shows your hand, the trump, the bids, the trick so far "
                                   "and the scores; type a bid, a card (As, Td), a joker with its mode "
                                   "(Jk high, Jk low; leading, with a suit: Jk high h), 'hint' for the "
                                   "advisor's ranked choices (the same each time you ask at a turn), "
                                   "'help', or 'quit'. Reads standard input a line at a time (a pipe works "
                                   "too; its end ends the game). Ctrl+C stops the game with the totals "
                                   "so far.",
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
    a.add_argument("--bid-evidence", choices=("on", "off"), default="off",
                   help="read the other seats' bids as evidence of their hands, as if they were baseline "
                        "players (see 'simulate --help'; off, since who they are is not known)")
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
    _quiet_start.restore()          # from here on, Ctrl+C is each command's own
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
    except (KeyboardInterrupt, SystemError) as exc:
        if not is_interrupt(exc):
            raise
        print(INTERRUPTED, file=sys.stderr)
        return 130


def _check_count(name: str, value: int, low: int) -> int:
    if value < low:
        raise ValueError(f"--{name} must be at least {low}, got {value}")
    return value


def _check_samples(samples: int, trump_advice: bool, choices: int | None = MOST_CHOICES) -> int:
    """``--samples`` within its bounds: the memory of the sampled scores of a decision
    of ``choices`` choices (None: checked later, when they are known), and, when a trump
    choice is advised, the time of one sampled deal, which Ctrl+C cannot interrupt."""
    _check_count("samples", samples, 1)
    if choices is not None:
        check_memory(samples, choices, "--samples")
    if trump_advice and samples > TRUMP_MOST_SAMPLES:
        step = samples // 10 * TRUMP_STEP_SECONDS_PER_SAMPLE
        raise ValueError(
            f"--samples={samples} is too many for a trump choice's advice: each of its {samples // 5:,} sampled "
            f"deals would be played out with {samples // 10:,} samples a decision, one step of about "
            f"{_duration(step)} that Ctrl+C cannot stop; at most {TRUMP_MOST_SAMPLES} (about "
            f"{_duration(TRUMP_MOST_SAMPLES // 10 * TRUMP_STEP_SECONDS_PER_SAMPLE)} a sampled deal)")
    return samples


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:,.0f} hours"


@contextmanager
def _progress(total: int, unit: str, desc: str):
    """A progress bar on stderr (count, rate and time left) when stderr is a terminal
    and notices are on (not ``SOLVER_QUIET=1``), shown only once the work has taken a
    second; yields its ``update`` (called with each amount done), or None."""
    if not (sys.stderr.isatty() and _jit.notices_enabled()):
        yield None
        return
    from tqdm import tqdm
    with tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, delay=1.0, leave=False) as bar:
        yield bar.update


def _check_policy(name: str) -> str:
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; valid: {', '.join(POLICIES)}")
    return name


def _bid_evidence(mode: str, others: list[str]) -> bool:
    """Whether an advisor reads bids as evidence, given the players of the other three
    seats: "auto" only when all three are baseline players (see BID_EVIDENCE_HELP)."""
    if mode == "auto":
        return all(name == "baseline" for name in others)
    return mode == "on"


def _advisor(samples: int, bid_evidence: bool, trump_by_score: bool = False) -> AdvisorPolicy:
    """The advisor at effort ``samples``, its trump advice at most at TRUMP_MOST_SAMPLES."""
    return AdvisorPolicy.with_effort(samples, trump_effort=min(samples, TRUMP_MOST_SAMPLES),
                                     bid_evidence=bid_evidence, trump_by_expected_score=trump_by_score)


def _policies(names: list[str], args) -> list:
    """The policies of four seats named ``names``; None for the person's seat ("you")."""
    policies = []
    for seat, name in enumerate(names):
        if name == "advisor":
            others = [n for p, n in enumerate(names) if p != seat]
            policies.append(_advisor(args.samples, _bid_evidence(args.bid_evidence, others), args.trump_by_score))
        elif name == "you":
            policies.append(None)
        else:
            policies.append(BaselinePolicy() if name == "baseline" else RandomPolicy())
    return policies


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
    names = [_check_policy(n.strip()) for n in args.opponents.split(",")]
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise ValueError(f"--opponents names one policy or three, got {len(names)}: {args.opponents!r}")
    samples = _check_samples(args.samples, trump_advice=args.trump_by_score and "advisor" in names)
    variant = get_variant(args.variant)
    seats = [(args.seat + 1 + i) % 4 for i in range(3)]
    players = ["you"] * 4
    for seat, name in zip(seats, names, strict=True):
        players[seat] = name
    # The hints are the advice of an advisor in the person's seat, facing the opponents.
    hints = _advisor(samples, _bid_evidence(args.bid_evidence, names))
    person = TerminalPlayer(args.seat, players, variant, hints, sys.stdin, sys.stdout, hint_seed=args.seed)
    table = _policies(players, args)
    table[args.seat] = person
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
    except (KeyboardInterrupt, SystemError) as exc:
        if not is_interrupt(exc):
            raise
        print(f"\n{INTERRUPTED} after {len(person.deals)} of {len(variant.deal_sizes)} deals. "
              f"Totals: {person.totals_text()}", flush=True)
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
        elif not text.lstrip().startswith("{"):
            text = _read_file(text)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--position is not a JSON object (nor a file holding one): {exc}") from None
        return Position.from_dict(data)
    if args.hand is None or args.dealer is None:
        raise ValueError("give the position: at least --hand and --dealer (or --position JSON)")
    return Position.from_dict(given)


def _read_file(name: str) -> str:
    path = Path(name)
    if not path.exists():
        raise ValueError(f"--position {name}: file not found (nor a JSON object, which starts with '{{')")
    if not path.is_file():
        raise ValueError(f"--position {name}: not a file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"--position {name}: not a text file (UTF-8)") from None
    except OSError as exc:
        raise ValueError(f"--position {name}: cannot be read ({exc.strerror})") from None


def _advise(args) -> int:
    _check_count("samples", args.samples, 1)
    _check_count("seed", args.seed, 0)
    position = _read_position(args)
    samples = _check_samples(args.samples, trump_advice=position.phase == "trump", choices=None)
    _compile()
    view = position.view()  # checks the position through the rules engine
    adviser = _advisor(samples, args.bid_evidence == "on")
    phase = view.phase
    sampled = adviser.trump_samples if phase == "trump" else samples
    check_memory(sampled, len(view.legal), "--samples")
    with _progress(sampled, "sampled deals" if phase == "trump" else "samples", "advise") as progress:
        advice = adviser.advise(view, np.random.default_rng(args.seed), progress=progress)
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
    for name in args.players:
        _check_policy(name)  # an unknown name fails before any game is played
    samples = _check_samples(args.samples, trump_advice=args.trump_by_score and "advisor" in args.players)
    variant = get_variant(args.variant)
    _compile()
    start = time.perf_counter()
    deals = len(variant.deal_sizes)
    with _progress(games * deals, "deals", f"{games} game{'s' if games > 1 else ''}") as progress:
        records = [play_game(_policies(args.players, args), variant, seed=seed + g,
                             on_deal=None if progress is None else lambda _: progress(1))
                   for g in range(games)]
    seconds = time.perf_counter() - start
    policies = _policies(args.players, args)
    advisors = [p for p in range(4) if args.players[p] == "advisor"]
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
               "bid_evidence": [p for p in advisors if policies[p].bid_evidence],
               "trump_by_score": bool(advisors) and args.trump_by_score, "seats": seats}
    if args.json:
        print(json.dumps({"summary": summary, "games": [r.to_dict() for r in records]}, indent=1))
        return 0
    effort = ""
    if advisors:
        reading = " ".join(f"S{p}" for p in advisors if policies[p].bid_evidence)
        effort = (f", advisor effort {samples} samples, bid evidence {'read by ' + reading if reading else 'off'}, "
                  f"trump {'by score' if args.trump_by_score else 'by the baseline rule'}")
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
