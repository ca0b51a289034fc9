"""Command line: ``python3 -m solver`` (installed as the console script
``chinese-poker-solver``).

::

    python3 -m solver [solve] [CARDS ...] [--rules joker] [--cut 4c] [--players N]
                      [--samples N] [--seed 0] [--holdout N] [--effort fast|max]
                      [--precision U] [--no-pool]
                      [--top 5] [--json]
                      [--batch FILE] [--workers N] [--quiet]
    python3 -m solver eval ROW ... [--rules joker] [--cut 4c] [--json]
    python3 -m solver settle SEAT ... [--rules joker] [--cut 4c] [--declare SEAT[,SEAT]]
                      [--surrender SEAT[,SEAT]] [--json]
    python3 -m solver deal [--rules joker] [--cut 4c] [--seed N] [--players N] [--json]
    python3 -m solver review CARDS ... --setting 'FRONT / MIDDLE / BACK' [--rules joker]
                      [--cut 4c] [--players N] [--samples 1000] [--seed 0] [--json]
    python3 -m solver review --batch FILE [--rules joker] [--players N] [--samples 1000]
                      [--seed 0] [--workers N] [--top 10] [--json] [--html OUT.html]
    python3 -m solver train RULES [--players N] [--quick] [--quiet]
    python3 -m solver exploitability [--rules joker] [--players N] [--strategy model|solve]
                      [--hands 200] [--deals 4096] [--seed 0] [--json] [--quiet]
    python3 -m solver rules list
    python3 -m solver rules show NAME|FILE
    python3 -m solver serve [--host 127.0.0.1] [--port 8000] [--max-samples 4000]
                      [--timeout 60]
    python3 -m solver warm [--rules NAME|FILE ...] [--all] [--processes N] [--portable]
    python3 -m solver help [COMMAND]

``--rules`` takes a rule set's name or a rule-set file (``--rules house.toml``:
docs/rule-files.md).  ``solve`` is the default when the first argument is not a command; with no arguments it
solves a sample ``joker`` hand.  Bad input prints one line on stderr, in the command
line's words (``--cut 4c``, not the library's ``cut='4c'``: :func:`solver._checks.cli_words`),
and exits with 2.  Ctrl+C prints ``interrupted`` and exits with 130; a reader that stops
early (``| head -1``) ends it quietly, with exit code 0 (text or ``--json`` alike).  The
text layout is :mod:`solver.display`'s.
"""
from __future__ import annotations

import argparse
import atexit
import dataclasses
import contextlib
import json
import os
import secrets
import sys
import time
import warnings

import solver
from . import _jit, _progress, _quiet_start
from ._checks import check_int, cli_words
from ._cli import Formatter, Parser, command_options, run_command, subparsers
from ._inputs import BATCH_FILE_BYTES, LineTooLong, lines, open_regular
from .display import deal_text, row_value_text, settlement_text, sort_row
from .rules import RULE_SET_NAMES, is_rule_file, rule_set
from .sampling import RANDOM_SEEDS, deal_hands
from .settle import split_arrangement

# A sample hand for each deal size (17: joker, 16: bonus, 13: pagat and classic).
SAMPLE_HANDS = {17: "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc",
                16: "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Kd Qc",
                13: "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"}
SAMPLE_CUT = "4c"                 # the cut card of the sample bonus hand
SAMPLE_HAND = SAMPLE_HANDS[17]

RULES_HELP = (f"rule set: a name ({', '.join(RULE_SET_NAMES)}) or a rule-set file, "
              "FILE.toml (docs/rule-files.md; 'rules show NAME' prints one to start from)")

PROGRESS_NOTE = """\
progress: the first run compiles the solver's kernels (see README.md; cached on disk
afterwards) and says so on stderr. On a terminal, --batch draws a progress bar of the
hands, and a solve of many deals (--samples 200000, say) one of the opponent hands it
sets. --quiet, or SOLVER_QUIET=1 in the environment, turns them off. Ctrl+C stops
any of it within about a second."""


def _prog() -> str:
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return name if name == "chinese-poker-solver" else "python3 -m solver"


def _parser() -> argparse.ArgumentParser:
    prog = _prog()
    parser = Parser(prog=prog, formatter_class=Formatter,
                     description="Best setting of a Chinese Poker hand (rule sets: "
                                 f"{', '.join(RULE_SET_NAMES)}, or any rule-set file; "
                                 "rules in docs/rules.md, files in docs/rule-files.md).",
                     epilog=f"'solve' is the default command: '{prog} CARDS' solves a hand, "
                            f"'{prog}' alone solves a sample joker hand. "
                            f"'{prog} help COMMAND' tells more.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {solver.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def rules_options(p):
        p.add_argument("--rules", default="joker", metavar="NAME|FILE", help=RULES_HELP)
        p.add_argument("--cut", default=None, help="the cut card (bonus), e.g. 4c")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")

    s = sub.add_parser("solve", formatter_class=Formatter, help="the best setting of a hand",
                       description="The best setting of a hand against sampled opponents, "
                                   "its EV measured on new deals, and the next best "
                                   "settings with their differences from it.",
                       epilog=PROGRESS_NOTE)
    s.add_argument("cards", nargs="*",
                   help="the hand, as separate words or one quoted string (default: a sample "
                        f"hand for the rule set, for joker {SAMPLE_HAND!r})")
    rules_options(s)
    s.add_argument("--players", type=int, default=None,
                   help="seats at the table (default: the rule set's largest, 4)")
    s.add_argument("--samples", type=int, default=None,
                   help="exactly this many sampled deals choose the setting, and the answer "
                        "is exact for them (default: adaptive sampling, as --effort says; "
                        "with --precision: the most it may use)")
    s.add_argument("--seed", type=int, default=0, help="seed of the sampled deals")
    s.add_argument("--holdout", type=int, default=None,
                   help="new deals the chosen setting is scored on again for an unbiased EV "
                        "(default: a quarter of the deals used; 0: report the in-sample mean)")
    s.add_argument("--effort", choices=("fast", "max"), default=None,
                   help="adaptive sampling: 'fast' (the default, milliseconds) or 'max' (about "
                        "a hundred times the work, for the last of the edge)")
    s.add_argument("--precision", type=float, default=None,
                   help="adaptive sampling: stop once every rival's difference from the "
                        "opponent model's own setting is resolved to this many units of "
                        "the seat's score (default, an opponent: 0.05 for 13 cards and "
                        "0.025 for 16 or 17 with --effort fast, 0.01 heads-up with deals "
                        "from the pool, 0.005 with max)")
    s.add_argument("--no-pool", action="store_true",
                   help="deal every deal (pagat and classic take hands from the pool of "
                        "opponent hands set in advance by default: solver.pool)")
    s.add_argument("--top", type=int, default=5, help="alternative settings to show")
    s.add_argument("--batch", metavar="FILE", default=None,
                   help="solve every hand in FILE ('-': standard input), one a line ('#' "
                        "comments; a line may end with 'cut 4c' for its own cut card), in "
                        "parallel")
    s.add_argument("--workers", type=_workers, default=None,
                   help="--batch: local processes (default: one per core)")
    s.add_argument("--quiet", action="store_true",
                   help="no compile notice, no progress bar")

    e = sub.add_parser("eval", formatter_class=Formatter, help="the value of one row",
                       description="The category and value of a 3- or 5-card row "
                                   "(docs/rules.md#the-ladder).")
    e.add_argument("row", nargs="+", help="the row's cards, as words or one quoted string")
    rules_options(e)

    t = sub.add_parser("settle", formatter_class=Formatter, help="settle one deal",
                       description="Each seat's units for one deal, and the pair by pair "
                                   "breakdown (docs/rules.md#scoring).",
                       epilog=f"example: {prog} settle --rules pagat "
                              "'2s 2h Ad / 7c 7d 9s 5h 3d / Tc Jc Qc Kc Ac' "
                              "'3s 3h 4d / 6c 6d 8s 5c 2d / 9c 9d Th Ts As'")
    t.add_argument("seats", nargs="+", metavar="SEAT",
                   help="one seat's rows 'FRONT / MIDDLE / BACK' (quoted; '|' works too)")
    rules_options(t)
    # One value an option (repeated, or seats separated by commas), so that the seats'
    # rows after it are not taken for more seat numbers.
    t.add_argument("--declare", type=_seat_numbers, action="append", default=None,
                   metavar="SEAT[,SEAT]",
                   help="seats that declare an automatic win (classic): '--declare 0', "
                        "'--declare 0,2' or '--declare 0 --declare 2'")
    t.add_argument("--surrender", type=_seat_numbers, action="append", default=None,
                   metavar="SEAT[,SEAT]",
                   help="seats that surrender, where the rule set allows it "
                        "(docs/rules.md#surrender), given as --declare's")

    d = sub.add_parser("deal", formatter_class=Formatter, help="a random deal to try",
                       description="A random deal (the first deal of a "
                                   "'python3 -m solver.arena' match with its seed).")
    rules_options(d)
    d.add_argument("--seed", type=int, default=None,
                   help="seed of the deal (default: a random one; the output says which)")
    d.add_argument("--players", type=int, default=None,
                   help="seats (default: the rule set's largest, 4)")

    r = sub.add_parser("review", formatter_class=Formatter, help="grade your own setting",
                       description="Your own setting of a hand against the best one, on the "
                                   "same sampled deals: both EVs, the paired difference, the "
                                   "rank among the settings worth considering, and why.",
                       epilog=f"example: {prog} review 'As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c "
                              "2d' --rules classic --setting 'As Kd 9c / 3d 3c Qh 5d 2d / "
                              "9s 8c 7h 6h 5s'\n"
                              f"a session: {prog} review --batch docs/examples/session.jsonl "
                              "--html report.html")
    r.add_argument("cards", nargs="*", help="the hand, as separate words or one quoted string")
    r.add_argument("--setting", default=None,
                   help="your rows 'FRONT / MIDDLE / BACK' (quoted; '|' works too), or "
                        "'declare' (classic: declare the hand's automatic win), or "
                        "'surrender' (where the rule set allows it); required with the cards")
    rules_options(r)
    r.add_argument("--players", type=int, default=None,
                   help="seats at the table (default: the rule set's largest, 4)")
    r.add_argument("--samples", type=int, default=1000,
                   help="sampled deals both settings are scored on (with --batch: each "
                        "hand's)")
    r.add_argument("--seed", type=int, default=0,
                   help="seed of the sampled deals (with --batch: of the session; each "
                        "hand's own seed is drawn from it and the hand's line)")
    r.add_argument("--batch", metavar="FILE", default=None,
                   help="grade a whole session: every hand of the hand history FILE (JSON "
                        "lines or CSV, '-': standard input; docs/sessions.md), and add "
                        "them up; --rules and --players are the default of a line that "
                        "does not give its own")
    r.add_argument("--workers", type=_workers, default=None,
                   help="--batch: local processes (default: one per core, but one per 32 "
                        "hands at most)")
    r.add_argument("--html", metavar="OUT", default=None,
                   help="--batch: also write the report as one HTML page (it opens "
                        "offline)")
    r.add_argument("--top", type=int, default=10,
                   help="--batch: the costliest mistakes to show")
    r.add_argument("--quiet", action="store_true",
                   help="no compile notice, no progress bar")

    tr = sub.add_parser("train", formatter_class=Formatter,
                        help="train the opponent model of a rule set ahead of time",
                        description="Train the opponent model of a rule set that has none "
                                    "shipped with the library, by self-play, and keep it in "
                                    "the cache folder (a solve would train it on first use). "
                                    "A built-in rule set, or one with the same content, uses "
                                    "its shipped model: nothing to train.",
                        epilog="progress: a bar of the deals played on stderr (on a "
                               "terminal; --quiet turns it off). Ctrl+C stops it within "
                               "about a second and leaves nothing half-written; run it "
                               "again to start over.")
    tr.add_argument("rules", help=RULES_HELP)
    tr.add_argument("--players", type=int, default=None,
                    help="seats at the table (default: the rule set's largest); one model "
                         "serves every seat count where the best setting does not depend "
                         "on it")
    tr.add_argument("--quick", action="store_true",
                    help="the quick preset: about a fifth of the work, a weaker model")
    tr.add_argument("--quiet", action="store_true", help="no progress bar")

    x = sub.add_parser("exploitability", formatter_class=Formatter,
                       help="how much a best response gains over the opponent model or "
                            "the default solve",
                       description="Exploitability: what the best setting of a hand gains "
                                   "over a strategy's own setting (the opponent model's, or "
                                   "the default solve's answer), against opponents who play "
                                   "the model, in units a hand, with a 95% confidence "
                                   "interval over hands (docs/exploitability.md). The best "
                                   "setting is chosen on half of each hand's deals and "
                                   "judged on the other half.",
                       epilog="the default size takes a minute or two for a 13-card rule "
                              "set heads-up, longer for more seats and for joker and bonus. "
                              "progress: a bar of the deals on stderr (on a terminal; "
                              "--quiet turns it off); Ctrl+C stops it within about a second.")
    x.add_argument("--rules", default="joker", metavar="NAME|FILE", help=RULES_HELP)
    x.add_argument("--players", type=int, default=None,
                   help="seats at the table (default: the rule set's largest)")
    x.add_argument("--strategy", choices=("model", "solve"), default="model",
                   help="what the best response plays against: the model's own setting "
                        "(quick_set), or the answer of solve with every default (what a "
                        "user gets)")
    x.add_argument("--hands", type=int, default=200, help="random hands measured (at least 2)")
    x.add_argument("--deals", type=int, default=4096,
                   help="deals of the unseen cards a hand (half choose, half judge; at "
                        "least 1024)")
    x.add_argument("--seed", type=int, default=0, help="seed of the hands and deals")
    x.add_argument("--json", action="store_true", help="print JSON instead of text")
    x.add_argument("--quiet", action="store_true", help="no progress bar")

    u = sub.add_parser("rules", formatter_class=Formatter, help="list or show rule sets",
                       description="The shipped rule sets ('rules list'), or one rule set "
                                   "as a rule-set file ('rules show NAME' or 'rules show "
                                   "FILE.toml': every key, as the solver reads it; "
                                   "docs/rule-files.md explains them).",
                       epilog=f"example: {prog} rules show classic > house.toml, edit it, "
                              f"then {prog} CARDS --rules house.toml")
    u.add_argument("action", choices=("list", "show"), help="list the rule sets, or show one")
    u.add_argument("rule_set", nargs="?", metavar="NAME|FILE", default=None,
                   help="show: a rule set's name or a rule-set file")

    v = sub.add_parser("serve", formatter_class=Formatter, help="the study page (a local web "
                       "page)", description="Serve the study page: set a hand by clicking, "
                       "solve it, grade your own setting. Needs the web extra: "
                       "python3 -m pip install -e '.[web]'. Ctrl+C stops it.")
    v.add_argument("--host", default="127.0.0.1",
                   help="address to listen on; anything but loopback (127.0.0.1) lets anyone "
                        "on the network use every endpoint: solve, review, train (no "
                        "authentication)")
    v.add_argument("--port", type=int, default=8000, help="port (0: a free one)")
    v.add_argument("--max-samples", type=int, default=4000,
                   help="the most sampled deals a request may use (a solve without "
                        "samples samples adaptively up to it)")
    v.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a request may take before it is answered with an error "
                        "and its work stopped (compiling the kernels, on a first "
                        "request, does not count)")
    v.add_argument("--max-body", type=int, default=65536,
                   help="the largest request body accepted, in bytes")
    v.add_argument("--max-models", type=int, default=20,
                   help="the opponent models this server trains for rule-set files that it "
                        "keeps on disk; beyond it the least recently used are deleted "
                        "(never a shipped model, nor one trained with the train command)")

    w = sub.add_parser("warm", formatter_class=Formatter,
                       help="compile the solver's kernels now, in parallel",
                       description="Compile what a first solve of each rule set compiles "
                                   "(the opponent model, the scoring, the search, the "
                                   "description, the automatic-win check) and build its "
                                   "row tables, into the caches on disk, in parallel "
                                   "processes, and say what it did: later solves start "
                                   "at once. Rule sets share kernels; each is compiled "
                                   "once. What is on disk already is only loaded.",
                       epilog=f"example: {prog} warm --rules joker classic")
    w.add_argument("--rules", nargs="+", metavar="NAME|FILE", default=None,
                   help=f"the rule sets (default: joker); {RULES_HELP}")
    w.add_argument("--all", action="store_true",
                   help="every shipped rule set, and the stand-ins that let a first solve "
                        "of a rule set of another kind answer without compiling its own "
                        "model and scoring first")
    w.add_argument("--processes", type=int, default=None, metavar="N",
                   help="worker processes (default: one a core)")
    w.add_argument("--portable", action="store_true",
                   help="compile for any processor of this machine's architecture (a "
                        "cache to copy to other machines: copy the package's folder whole, "
                        "its __pycache__ folders included; docs/guide/install.md)")

    h = sub.add_parser("help", formatter_class=Formatter, help="this help, or a command's",
                       description="The help of the command line, or of one command.")
    h.add_argument("topic", nargs="?", metavar="COMMAND", default=None,
                   help="the command to tell about")
    return parser


def _workers(text: str) -> int:
    """``--workers``' value, in the command line's words: the library's "(or None: one
    per core)" is, here, leaving the option out."""
    try:
        workers = int(text)
    except ValueError:
        workers = None
    if workers is None or workers < 1:
        raise argparse.ArgumentTypeError(f"a number of processes, at least 1, not {text!r} "
                                         f"(leave --workers out for one per core)")
    return workers


def _seat_numbers(text: str) -> list[int]:
    """``--declare``'s value: seat numbers separated by commas."""
    try:
        return [int(seat) for seat in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seat numbers (0, 1, ...) separated by commas, "
                                         f"not {text!r}") from None


def _is_a_mistyped_command(word: str) -> bool:
    """Whether the first word, not a command, is not a card either: one word (a hand in
    one quoted string is cards) that does not read as cards."""
    if word.startswith("-") or len(word.replace(",", " ").split()) != 1:
        return False
    try:
        solver.format_cards(word)
    except ValueError as e:
        return str(e).startswith("unknown card")
    return False


def main(argv=None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); the exit code."""
    _quiet_start.restore()          # from here on, Ctrl+C is run_command's
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    commands = tuple(subparsers(parser))
    try:
        if not argv or argv[0] not in commands + ("-h", "--help", "--version"):
            if argv and _is_a_mistyped_command(argv[0]):
                parser.error(f"unknown command or card {argv[0]!r}; commands: "
                             f"{', '.join(commands)}")
            argv = ["solve"] + argv
        args = parser.parse_args(argv)
        if args.command == "help":
            return _help(parser, args.topic)
    except SystemExit as e:                       # --help, --version, a usage error
        return e.code if isinstance(e.code, int) else 2
    # (The server handles its own signals.)
    return run_command(lambda: {"solve": _solve, "eval": _eval, "settle": _settle,
                                "deal": _deal, "review": _review,
                                "train": _train, "exploitability": _exploitability,
                                "deal": _deal, "review": _review, "rules": _rules,
                                "serve": _serve, "warm": _warm}[args.command](args),
                       parser.prog, command_options(parser, args.command),
                       watch_interrupts=args.command != "serve")


def _help(parser: argparse.ArgumentParser, topic: "str | None") -> int:
    """``help`` and ``help COMMAND``: the help of the command line or of a command."""
    commands = subparsers(parser)
    if topic is None:
        parser.print_help()
        return 0
    if topic not in commands:
        parser.error(f"no command {topic!r}; commands: {', '.join(commands)}")
    commands[topic].print_help()
    return 0


def _print_json(data) -> None:
    print(json.dumps(data, indent=1))


# --- solve --------------------------------------------------------------------------------------
def _solve(args) -> int:
    rs = rule_set(args.rules)
    options = dict(samples=args.samples, seed=args.seed, players=args.players,
                   holdout=args.holdout, top=args.top, precision=args.precision,
                   effort=args.effort, pool=False if args.no_pool else None)
    if args.batch is not None:
        if args.cards:
            raise ValueError("give the cards or --batch FILE, not both")
        return _solve_batch(args, rs, options)
    if args.workers is not None:
        raise ValueError("--workers sets the processes of --batch; without it one hand is "
                         "solved, in this process")
    cards = " ".join(args.cards) if args.cards else SAMPLE_HANDS.get(rs.cards_dealt, "")
    cut = args.cut
    if not args.cards and rs.cut_card and cut is None:
        cut = SAMPLE_CUT
    start = time.perf_counter()
    with _jit.quiet(args.quiet), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)      # the text says it (or the JSON)
        solution = solver.solve(cards, rs, cut, **options)
    if args.json:
        _print_json(solution.to_dict())
        return 0
    print(f"hand: {sort_row(solver.format_cards(cards), group=False)}")
    print(solution)
    print(f"({time.perf_counter() - start:.2f} s)")
    return 0


STDIN = "-"                       # --batch -: the hands come on standard input


def _batch_name(path: str) -> str:
    return "standard input" if path == STDIN else path


# A bad --batch file: its first this many bad lines are named, then their count.
BAD_LINES_SHOWN = 10


def _lines(n: int) -> str:
    return f"{n} line{'s' if n != 1 else ''}"


def _say_skipped(lines: list) -> None:
    """Name a batch's bad lines on stderr, up to BAD_LINES_SHOWN, then their count: as
    skipped lines, not errors (the run goes on with the others, and exits 0)."""
    prog = _prog()
    for line in lines[:BAD_LINES_SHOWN]:
        print(f"{prog}: skipped {line}", file=sys.stderr)
    if len(lines) > BAD_LINES_SHOWN:
        print(f"{prog}: ... and {len(lines) - BAD_LINES_SHOWN} more skipped lines",
              file=sys.stderr)


def _read_batch(path: str, cut) -> tuple[list[tuple[str, object, int]], list[tuple[int, str]]]:
    """(hand, cut card, line number) of each hand in a batch file (``-``: standard
    input), and (line number, what is wrong) of each line that is not text (UTF-8) or is
    longer than LINE_BYTES.  The file must be a regular file of at most BATCH_FILE_BYTES
    (standard input: no more than that is read); see solver._inputs."""
    entries, bad = [], []
    # Read as bytes, so that a line that is not text is named (decoding the whole file
    # would fail at its first such byte, naming no line).  Standard input is read but
    # left open: it is not ours to close (nor is it bytes when a caller replaced it).
    if path != STDIN:
        stream = open_regular(path, "batch file", BATCH_FILE_BYTES)
    else:
        stream = contextlib.nullcontext(getattr(sys.stdin, "buffer", None) or sys.stdin)
    with stream as f:
        for number, raw in enumerate(lines(f, source=_batch_name(path),
                                           total=BATCH_FILE_BYTES), 1):
            if isinstance(raw, LineTooLong):
                bad.append((number, str(raw)))
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                bad.append((number, f"not text: byte 0x{raw[e.start]:02x} at column "
                                    f"{e.start + 1} is not UTF-8 (is it a binary file?)"))
                continue
            if number == 1 and line.startswith("\ufeff"):       # a byte-order mark
                line = line[1:]
            control = next((i for i, c in enumerate(line)
                            if ord(c) < 32 and c not in "\t\r\n"), None)
            text = line.split("#", 1)[0].strip()
            if control is not None:
                bad.append((number, f"not text: the control character "
                                    f"0x{ord(line[control]):02x} at column {control + 1} (is "
                                    f"it a binary file?)"))
            elif text:
                hand, _, own_cut = text.partition(" cut ")
                entries.append((hand.strip(), own_cut.strip() or cut, number))
    return entries, bad


def _solve_batch(args, rs, options) -> int:
    from .batch import _check_hand
    source = _batch_name(args.batch)
    entries, bad = _read_batch(args.batch, args.cut)
    good = []
    for hand, cut, number in entries:
        try:
            _check_hand(hand, cut, rs)
        except ValueError as e:
            bad.append((number, str(e)))
        else:
            good.append((hand, cut, number))
    # Every bad line is named (up to a limit) and the others solved: a long file is not
    # lost for one typo.  Only a file with nothing to solve is an error.
    bad.sort()
    words = command_options(_parser(), "solve")
    _say_skipped([f"{source} line {number}: {cli_words(' '.join(message.split()), words)}"
                  for number, message in bad])
    if not good:
        raise ValueError(f"{source}: no hands to solve ({_lines(len(bad))} skipped)" if bad
                         else f"{source}: no hands (give one a line)")
    if bad:
        print(f"{_prog()}: {_lines(len(bad))} skipped; solving the other "
              f"{len(good)} hand{'s' if len(good) != 1 else ''}", file=sys.stderr)
    hands = [h for h, _, _ in good]
    cuts = [c for _, c, _ in good]
    if not args.quiet:
        from .policy import POLICY_TABLE
        from .solve import _kernels
        _jit.compile_notice(_kernels(POLICY_TABLE, rs))
    start = time.perf_counter()
    # The notice is given once, here, and the bar is the batch's: the solves (and worker
    # processes) inherit SOLVER_QUIET=1.
    progress = _progress.shown(False if args.quiet else None)
    try:
        with _jit.quiet(), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)   # each solution's text says it
            solutions = solver.solve_many(hands, rs, cuts, workers=args.workers,
                                          progress=progress, **options)
    except ValueError as e:
        # solve_many names a hand by its index; the file's user knows it by its line.
        index, colon, rest = str(e).removeprefix("hand ").partition(": ")
        if not (colon and index.isdigit() and int(index) < len(good)):
            raise
        raise ValueError(f"{source} line {good[int(index)][2]}: {rest}") from None
    if args.json:
        # Each with its line: a skipped line leaves no gap to count by.
        _print_json([dict(line=number, **s.to_dict())
                     for (_, _, number), s in zip(good, solutions)])
        return 0
    for (hand, _, number), solution in zip(good, solutions):
        print(f"hand (line {number}): {sort_row(solver.format_cards(hand), group=False)}")
        print(solution)
        print()
    skipped = f", {_lines(len(bad))} skipped" if bad else ""
    print(f"({len(solutions)} hand{'s' if len(solutions) != 1 else ''} solved{skipped}, "
          f"{time.perf_counter() - start:.2f} s)")
    return 0


# --- eval, settle, deal ---------------------------------------------------------------------
def _eval(args) -> int:
    cards = " ".join(args.row)
    value = solver.row_value(cards, args.rules, args.cut)
    text = solver.format_cards(cards)
    if args.json:
        _print_json(dict(cards=sort_row(text, value.category), category=value.category,
                         ranks=value.ranks, value=value.value))
    else:
        print(row_value_text(text, value))
    return 0


def _split_seat(seat: int, text: str) -> tuple[str, str, str]:
    try:
        rows = split_arrangement(text)
    except ValueError as e:
        raise ValueError(f"seat {seat}: {e}") from None
    return tuple(solver.format_cards(r) for r in rows)


def _settle(args) -> int:
    seats = [_split_seat(i, text) for i, text in enumerate(args.seats)]
    declared = [seat for seats_given in args.declare or () for seat in seats_given] or None
    surrendered = [seat for given in args.surrender or () for seat in given] or None
    settlement = solver.settle(seats, args.rules, args.cut, declared=declared, detail=True,
                               surrendered=surrendered)
    if args.json:
        _print_json(dataclasses.asdict(settlement))
        return 0
    categories = [[solver.row_value(r, args.rules, args.cut).category for r in seat]
                  for seat in seats]
    print(settlement_text(settlement, seats, categories, declared=declared or (),
                          surrendered=surrendered or ()))
    return 0


def _deal(args) -> int:
    rs = rule_set(args.rules)
    seed = secrets.randbelow(RANDOM_SEEDS) if args.seed is None else check_int(
        "seed", args.seed, 0)
    players = rs.max_seats if args.players is None else args.players
    if players not in rs.seats:
        raise ValueError(f"players={players}: the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players")
    hands, cut = deal_hands(rs, players, seed, 0, cut=args.cut)
    if args.json:
        _print_json(dict(rules=rs.name, seed=seed, cut=cut,
                         hands=[sort_row(h, group=False) for h in hands]))
    else:
        print(deal_text(args.rules if is_rule_file(args.rules) else rs.name, hands, cut, seed,
                        _prog()))
    return 0


# --- rules ---------------------------------------------------------------------------------------
def _rules(args) -> int:
    """``rules list``: each shipped rule set and its summary; ``rules show NAME|FILE``:
    the rule set as a rule-set file, every key written out."""
    if args.action == "list":
        if args.rule_set is not None:
            raise ValueError(f"rules list takes no rule set (rules show {args.rule_set})")
        width = max(map(len, RULE_SET_NAMES))
        for name in RULE_SET_NAMES:
            rs = rule_set(name)
            same = f" (the same as {rs.name})" if rs.name != name else ""
            print(f"{name:<{width}}  {rs.summary()}{same}")
        return 0
    if args.rule_set is None:
        raise ValueError("rules show needs a rule set: rules show NAME or rules show FILE")
    rs = rule_set(args.rule_set)
    print(rs.to_toml(header=(f"{rs.name}: {rs.summary()}",)), end="")
    return 0


# --- review, serve -----------------------------------------------------------------------------
def _review(args) -> int:
    if args.batch is not None:
        return _review_batch(args)
    for option in ("workers", "html"):
        if getattr(args, option) is not None:
            raise ValueError(f"--{option} is for --batch FILE (a session); without it one "
                             f"hand is reviewed")
    if not args.cards or args.setting is None:
        raise ValueError("give the hand's cards and --setting 'FRONT / MIDDLE / BACK', or "
                         "--batch FILE (a session)")
    cards = " ".join(args.cards)
    with _jit.quiet(args.quiet), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        result = solver.review(cards, args.setting, args.rules, args.cut, players=args.players,
                               samples=args.samples, seed=args.seed)
    # The library's warnings (too few deals), as solve's text gives them: one line each,
    # not Python's two with a line of the library's source.
    for message in dict.fromkeys(str(w.message) for w in caught):
        print(f"warning: {message}", file=sys.stderr)
    if args.json:
        _print_json(result.to_dict())
        return 0
    print(f"hand: {sort_row(solver.format_cards(cards), group=False)}")
    print(result)
    return 0


class _NamedStream:
    """A stream read a line at a time (``readline``), under another ``name``."""

    def __init__(self, stream, name: str):
        self.stream, self.name = stream, name

    def readline(self, size: int = -1):
        return self.stream.readline(size)


def _review_batch(args) -> int:
    """``review --batch FILE``: a session's report (text, --json, --html OUT)."""
    from .session import review_many
    if args.cards or args.setting is not None or args.cut is not None:
        raise ValueError("with --batch FILE every line gives its own cards, setting and cut "
                         "card: no cards, --setting or --cut here")
    top = check_int("top", args.top, 0)
    source = args.batch
    if args.batch == STDIN:
        # Read a line at a time, named as the messages say it.
        source = _NamedStream(getattr(sys.stdin, "buffer", None) or sys.stdin,
                              _batch_name(STDIN))
    progress = _progress.shown(False if args.quiet else None)
    if not args.quiet:
        from .policy import POLICY_TABLE
        from .solve import _kernels
        _jit.compile_notice(_kernels(POLICY_TABLE, rule_set(args.rules)))
    with _jit.quiet(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        report = review_many(source, rules=args.rules, players=args.players,
                             samples=args.samples, seed=args.seed, workers=args.workers,
                             progress=progress)
    for message in dict.fromkeys(str(w.message) for w in caught):
        print(f"warning: {message}", file=sys.stderr)
    # (In the file's words: a line's players= is its key, not the option --players.)
    _say_skipped([str(s) for s in report.skipped])
    if not report.grades:
        n = len(report.skipped)
        raise ValueError(f"{report.source}: no hands to grade ({_lines(n)} skipped)" if n
                         else f"{report.source}: no hands (give one a line)")
    if args.html is not None:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(report.to_html(top))
        print(f"HTML report: {args.html}", file=sys.stderr)
    if args.json:
        print(report.to_json(top, indent=1))
    else:
        print(report.text(top))
    return 0


# --- train, exploitability --------------------------------------------------------------------
def _train(args) -> int:
    rs = solver.rule_set(args.rules)
    with _jit.quiet(args.quiet):
        result = solver.train_model(rs, args.players, quick=args.quick,
                                    progress=False if args.quiet else None)
    print(result)
    return 0


def _exploitability(args) -> int:
    rs = solver.rule_set(args.rules)
    with _jit.quiet(args.quiet):
        result = solver.exploitability(rs, args.players, hands=args.hands, deals=args.deals,
                                       seed=args.seed, strategy=args.strategy,
                                       progress=False if args.quiet else None)
    if args.json:
        _print_json(result.to_dict())
        return 0
    print(result)
    print(result.details())
    return 0


def _serve(args) -> int:
    try:
        from .web import serve
    except ImportError as e:
        raise ValueError(f"the study page needs the web extra ({e.name} is missing): "
                         f"python3 -m pip install -e '.[web]'") from None
    try:
        return serve(host=args.host, port=args.port, max_samples=args.max_samples,
                     timeout=args.timeout, max_body=args.max_body,
                     max_models=args.max_models)
    except ValueError as e:              # (Limits' and the socket's words are Python's)
        raise ValueError(cli_words(str(e), {name: f"--{name.replace('_', '-')}" for name in
                                            ("host", "port", "max_samples", "timeout",
                                             "max_body", "max_models")})) from None
    except KeyboardInterrupt:            # Ctrl+C: the server has stopped, its work with it
        print("interrupted", file=sys.stderr)
        return 130


def _warm(args) -> int:
    """``warm``: compile the rule sets' kernels and build their tables (solver._warmup)."""
    from ._warmup import warm
    if args.all and args.rules:
        raise ValueError("give --rules or --all, not both")
    names = list(RULE_SET_NAMES) if args.all else (args.rules or ["joker"])
    rule_sets = [rule_set(name) for name in names]          # (a bad name: one line)
    if args.processes is not None:
        check_int("--processes", args.processes, 1)
    return warm(rule_sets, processes=args.processes, portable=args.portable,
                stand_ins=args.all)


def cli() -> None:
    """``python3 -m solver`` and the console script: :func:`main`, then the process ends at
    once with its exit code: its output flushed and the exit handlers run (the
    multiprocessing module's among them, which let go of a worker pool's semaphores),
    but not the teardown of every object, which after a first run's compiling took 0.4 s
    after the answer was printed (benchmarks/README.md, "The first run").  Nothing else
    is left to do by then: the compiled kernels, row tables and pools are on disk (each
    written whole and renamed into place before the command returns), every thread of
    ours is a daemon, and a command's worker processes are stopped by it (after Ctrl+C
    too, which can end the process the same way: :func:`solver._cli.interrupts_watched`)."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass                    # (a reader that stopped early: run_command's to say)
    atexit._run_exitfuncs()         # (what a normal exit runs first: CPython's own call)
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


if __name__ == "__main__":
    cli()
