"""Duplicate-deal matches between setters: ``solver.arena`` and ``python3 -m solver.arena``.

A *setter* sets one hand: ``(cards, rules, cut) -> (front, middle, back)`` (texts or
codes), optionally with a fourth item ``"declare"`` to declare an automatic win
(``classic``; the rows the 13 cards that make it) or ``"surrender"`` to surrender where
the rule set allows it (docs/rules.md#surrender).  Built-in setters (:func:`setter`
makes them from a short text):

* ``solve`` -- :func:`solver.solve`, by default as ``solve(cards, rules)`` runs
  (``solve:samples=1000``: exactly 1000 deals; ``solve:effort=max``,
  ``solve:precision=0.02``: adaptive sampling's options; ``model=field``: the opponent
  policy it best-responds to; ``pool=false``: deal every deal, never from the pool);
* ``model`` -- the default opponent model's own setting (:func:`solver.quick_set`);
  ``model:name=field`` / ``field`` -- the previous default model; ``sbf`` --
  strongest-back-first; ``random`` -- a random legal arrangement;
* ``saved:FILE`` -- settings saved by an earlier run (``benchmarks/save_settings.py``),
  replayed hand by hand;
* ``module:function`` -- any importable function with the setter signature.

**Duplicate deals.**  Luck of the deal is taken out by playing each deal several times
with the hands moved between the setters.  Heads-up, each deal is played twice with the
hands swapped.  With 3 or 4 seats the hands rotate through every seat: ``one-v-rest``
puts setter A in one seat and B in the others, once for each seat; ``two-v-two``
(4 seats) puts A in every pair of seats.  Every setter sets every hand of a deal once,
whichever seat it is played from.  A deal's result is A's mean units per hand it
played; the match reports the mean over deals with a 95% confidence interval (the deal
is the unit: its plays share cards), each side's seconds per hand, and fouls.

Every setting is checked: its cards must be 13 of the hand's own, in rows of 3, 5 and
5.  A fouled setting is counted and played as a foul where the rule set scores fouls
(``pagat``, ``classic``) and is an error where it cannot be played (``joker``,
``bonus``).  Deals, and every setter's seed, come from the match seed, so a match split
over processes gives the same result as a serial one.

:func:`exploitability` is a match between the best response to a policy --
:func:`solver.solve` with that policy as its opponent model -- and the policy itself: a
lower bound on what a player who knows the policy wins from it.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import math
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import numpy as np

from . import _quiet_start
from ._checks import check_int, check_signature, is_int
from ._cli import Formatter, Parser, command_options, run_command
from ._inputs import SAVED_FILE_BYTES, read_text
from .batch import parallel_map
from .cards import format_cards, to_codes
from .rules import RuleSet, rule_set as _rules
from .sampling import deal_hands

LAYOUTS = ("heads-up", "one-v-rest", "two-v-two")


# --- setters ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setter:
    """A named way to set a hand.  Subclasses implement :meth:`set`; any function
    ``(cards, rules, cut) -> rows`` can be wrapped with :class:`FunctionSetter`."""
    name: str = ""

    def set(self, cards: str, rules: RuleSet, cut: Optional[str], players: int,
            seed: int) -> Sequence:
        raise NotImplementedError


@dataclass(frozen=True)
class SolveSetter(Setter):
    """:func:`solver.solve` with its sampling options (``samples``, ``precision``,
    ``effort``; all None: the default adaptive solve), an opponent ``model`` (a policy
    name, a :class:`solver.model.TableModel` or a setter function; None: the default)
    and ``pool`` (where the deals come from, as for solve)."""
    samples: Optional[int] = None
    model: Any = None
    precision: Optional[float] = None
    effort: Optional[str] = None
    pool: Optional[bool] = None

    def set(self, cards, rules, cut, players, seed):
        from .solve import solve
        sol = solve(cards, rules, cut, samples=self.samples, seed=seed, players=players,
                    policy=self.model, top=0, holdout=0, precision=self.precision,
                    effort=self.effort, pool=self.pool)     # only the setting is used
        if sol.declare:
            return tuple(sol.declare_rows) + ("declare",)
        rows = (sol.front, sol.middle, sol.back)
        return rows + ("surrender",) if sol.surrender else rows


@dataclass(frozen=True)
class ModelSetter(Setter):
    """An opponent model's own setting of the hand (no sampling): ``model`` is a policy
    name (``table``, ``field``, ``sbf``) or a :class:`solver.model.TableModel`.  Holding
    an automatic win (``classic``), it declares, as the sampled opponents of
    :func:`solver.solve` do (it never surrenders: it has no estimate of the hand here)."""
    model: Any = None

    def set(self, cards, rules, cut, players, seed):
        from .autowin import automatic_win
        win = automatic_win(cards, rules) if rules.automatic_wins else None
        if win is not None:
            return (win.front, win.middle, win.back, "declare")
        from .quickset import quick_set
        return quick_set(cards, rules, cut, players=players, policy=self.model)


@dataclass(frozen=True)
class RandomSetter(Setter):
    """A random legal arrangement of 13 of the cards (seeded)."""

    def set(self, cards, rules, cut, players, seed):
        from .rows import is_legal
        rng = np.random.default_rng(seed)
        names = cards.split()
        for _ in range(100000):
            pick = [names[i] for i in rng.permutation(len(names))[:13]]
            rows = (" ".join(pick[:3]), " ".join(pick[3:8]), " ".join(pick[8:]))
            if is_legal(*rows, rules, cut):
                return rows
        raise AssertionError(f"no legal arrangement found for {cards!r}")


@dataclass(frozen=True)
class SavedSetter(Setter):
    """Settings saved by an earlier run (``benchmarks/save_settings.py``), replayed: the
    JSON file's setting of each hand for the seed the match gives it.  So a match can
    play today's code against an earlier commit's settings without that commit's code."""
    path: str = ""

    def set(self, cards, rules, cut, players, seed):
        rows = _saved_dict(self.path).get((cards, int(seed)))
        if rows is None:
            raise ValueError(f"setter {self.name!r}: {self.path} holds no setting of "
                             f"{cards!r} for seed {seed} (it was saved for a match of "
                             f"{_saved_meta(self.path)})")
        return tuple(rows)


@functools.lru_cache(maxsize=8)
def _saved_file(path: str) -> dict:
    """The saved settings in ``path`` (a regular file of at most SAVED_FILE_BYTES, read
    by solver._inputs), as JSON: one line of error for anything else."""
    text = read_text(path, "saved settings file", SAVED_FILE_BYTES)
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError(f"saved settings {path!r}: JSON nested too deeply") from None
    except ValueError as e:
        raise ValueError(f"saved settings {path!r}: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("settings"), list):
        raise ValueError(f"saved settings {path!r}: not a file of benchmarks/"
                         f"save_settings.py (a JSON object with a list of settings)")
    return data


@functools.lru_cache(maxsize=8)
def _saved_dict(path: str) -> dict:
    settings = _saved_file(path)["settings"]        # (its own errors, as they are)
    try:
        return {(item["cards"], int(item["seed"])): item["rows"] for item in settings}
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"saved settings {path!r}: a setting without its cards, seed "
                         f"and rows ({type(e).__name__}: {e})") from None


def _saved_meta(path: str) -> str:
    meta = _saved_file(path).get("meta", {})
    meta = meta if isinstance(meta, dict) else {}
    return ", ".join(f"{k} {meta[k]}" for k in ("rules", "players", "deals", "seed", "commit")
                     if k in meta)


@dataclass(frozen=True)
class FunctionSetter(Setter):
    """A function ``(cards, rules, cut) -> (front, middle, back)``.  An exception it
    raises is a ``ValueError`` naming the setter and the hand, the cause chained."""
    function: Callable = None

    def set(self, cards, rules, cut, players, seed):
        try:
            return self.function(cards, rules, cut)
        except Exception as e:
            raise ValueError(f"setter {self.name!r} failed on the hand {cards!r}: "
                             f"{type(e).__name__}: {e}") from e


def _function_setter(name: str, function: Callable) -> FunctionSetter:
    """A :class:`FunctionSetter`, its signature checked once (not a TypeError a hand)."""
    check_signature(function, f"setter {name!r}", "(cards, rules, cut)")
    return FunctionSetter(name=name, function=function)


def setter(spec: "str | Setter | Callable") -> Setter:
    """A :class:`Setter` from its text (see the module docstring), a Setter, or a
    function ``(cards, rules, cut) -> rows``.

    >>> setter("solve:samples=200").samples
    200
    """
    if isinstance(spec, Setter):
        return spec
    if callable(spec):
        return _function_setter(getattr(spec, "__name__", "function"), spec)
    if not isinstance(spec, str):
        raise ValueError(f"a setter is a name, a Setter or a function, not {spec!r}")
    head, _, options = spec.partition(":")
    kwargs = {}
    if head in ("solve", "model") and options:
        for item in options.split(","):
            key, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"setter {spec!r}: options are key=value, not {item!r}")
            kwargs[key.strip()] = value.strip()
    if head == "solve":
        unknown = set(kwargs) - {"samples", "model", "precision", "effort", "pool"}
        if unknown:
            raise ValueError(f"setter {spec!r}: unknown options {sorted(unknown)} "
                             f"(solve takes samples, precision, effort, model, pool)")
        pool = kwargs.get("pool")
        if pool is not None:
            if pool.lower() not in ("true", "false"):
                raise ValueError(f"setter {spec!r}: pool must be true or false, not {pool!r}")
            pool = pool.lower() == "true"
        samples = kwargs.get("samples")
        if samples is not None:
            if not samples.isdigit():
                raise ValueError(f"setter {spec!r}: samples must be a positive integer, "
                                 f"not {samples!r}")
            samples = check_int(f"setter {spec!r}: samples", int(samples), 1)
        precision = kwargs.get("precision")
        if precision is not None:
            try:
                precision = float(precision)
            except ValueError:
                raise ValueError(f"setter {spec!r}: precision must be a number of units, "
                                 f"not {precision!r}") from None
        return SolveSetter(name=spec, samples=samples, model=kwargs.get("model"),
                           precision=precision, effort=kwargs.get("effort"), pool=pool)
    if head == "model":
        unknown = set(kwargs) - {"name"}
        if unknown:
            raise ValueError(f"setter {spec!r}: unknown options {sorted(unknown)} "
                             f"(model takes name)")
        return ModelSetter(name=spec, model=kwargs.get("name"))
    if head == "saved" and options:
        _saved_dict(options)          # (read now: a file that cannot be is said before a deal)
        return SavedSetter(name=spec, path=options)
    if head in ("field", "sbf") and not options:
        return ModelSetter(name=spec, model=head)
    if head == "random" and not options:
        return RandomSetter(name=spec)
    if options and all(part.isidentifier() for part in head.split(".")):
        try:
            module = importlib.import_module(head)
        except ImportError as e:
            raise ValueError(f"setter {spec!r}: cannot import {head} ({e})") from e
        function = getattr(module, options, None)
        if not callable(function):
            raise ValueError(f"setter {spec!r}: {head} has no function {options!r}")
        return _function_setter(spec, function)
    raise ValueError(f"unknown setter {spec!r}; built-in: solve[:samples=N,precision=P,"
                     f"effort=E,model=M,pool=B], model[:name=M], field, sbf, random, saved:FILE, "
                     f"or module:function")


# --- deals and plays ------------------------------------------------------------------------
def _seating(layout: str, n_seats: int) -> list[tuple[int, ...]]:
    """The seats setter A takes in each play of a deal (B takes the others)."""
    if layout == "heads-up":
        return [(0,), (1,)]
    if layout == "one-v-rest":
        return [(s,) for s in range(n_seats)]
    return [(a, b) for a in range(4) for b in range(a + 1, 4)]           # two-v-two


def _setter_seed(seed: int, index: int, hand: int, side: int) -> int:
    return int(np.random.SeedSequence([seed, index, hand, side]).generate_state(1)[0])


def _check_setting(rows, hand: str, rs: RuleSet, cut, who: str):
    """The setting as (front, middle, back) texts and its fourth item ("declare",
    "surrender" or None); ValueError unless it is 13 of the hand's own cards in rows of
    3, 5 and 5."""
    returned = rows
    try:
        rows = [] if isinstance(rows, (str, bytes)) else list(rows)
    except TypeError:                                # None, a number: not a setting
        rows = []
    action = rows[3] if len(rows) == 4 and rows[3] in ("declare", "surrender") else None
    if len(rows) not in (3, 4) or (len(rows) == 4 and action is None):
        raise ValueError(f"{who} returned {returned!r} for {hand!r}: a setting is "
                         f"(front, middle, back), optionally with 'declare' or 'surrender'")
    texts = []
    for name, size, row in zip(("front", "middle", "back"), (3, 5, 5), rows[:3]):
        codes = to_codes(row, rs)
        if len(codes) != size:
            raise ValueError(f"{who} set a {name} of {len(codes)} cards for {hand!r}")
        texts.append(format_cards(codes))
    used = Counter(" ".join(texts).split())
    if used - Counter(hand.split()):
        raise ValueError(f"{who} set cards that are not in the hand {hand!r}: {texts}")
    if action == "declare" and not rs.automatic_wins:
        raise ValueError(f"{who} declared an automatic win; {rs.name} has none")
    if action == "surrender" and not rs.surrender_cost:
        raise ValueError(f"{who} surrendered; {rs.name} has no surrender")
    return tuple(texts), action


@dataclass
class _DealResult:
    index: int
    value: float                   # A's mean units per hand played
    seconds: tuple[list, list]     # each side's seconds per hand
    fouls: tuple[int, int]


def _play_deal(a: Setter, b: Setter, rs: RuleSet, n_seats: int, layout: str, seed: int,
               index: int) -> _DealResult:
    from .rows import is_legal
    from .settle import settle
    hands, cut = deal_hands(rs, n_seats, seed, index)
    settings, seconds, fouls = [], ([], []), [0, 0]
    for side, player in enumerate((a, b)):
        mine = []
        for h, hand in enumerate(hands):
            start = time.perf_counter()
            rows = player.set(hand, rs, cut, n_seats, _setter_seed(seed, index, h, side))
            seconds[side].append(time.perf_counter() - start)
            texts, action = _check_setting(rows, hand, rs, cut, f"setter {player.name!r}")
            legal = is_legal(*texts, rs, cut)
            if not legal and action is None:
                if not (rs.foul_penalty or rs.foul_loses_rows):
                    raise ValueError(f"setter {player.name!r} fouled {hand!r} as {texts}: "
                                     f"{rs.name} does not allow a fouled arrangement")
                fouls[side] += 1
            mine.append((texts, action))
        settings.append(mine)
    total = plays = 0
    for seats in _seating(layout, n_seats):
        table = [settings[0 if s in seats else 1][s] for s in range(n_seats)]
        declared = [s for s in range(n_seats) if table[s][1] == "declare"]
        surrendered = [s for s in range(n_seats) if table[s][1] == "surrender"]
        scores = settle([t[0] for t in table], rs, cut, declared=declared or None,
                        surrendered=surrendered or None)
        total += sum(scores[s] for s in seats)
        plays += len(seats)
    return _DealResult(index, total / plays, seconds, tuple(fouls))


# --- matches ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchResult:
    """A match between setters ``a`` and ``b``: ``mean`` is A's mean units per hand (per
    deal, then over deals), ``ci95`` its 95% confidence interval over deals."""
    a: str
    b: str
    rules: str
    players: int
    layout: str
    deals: int
    seed: int
    mean: float
    stderr: float
    ci95: tuple[float, float]
    seconds_per_hand: dict          # side -> {"mean": s, "median": s}
    fouls: dict                     # side -> fouled settings
    values: tuple[float, ...] = field(repr=False)   # each deal's result, in deal order

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["ci95"] = list(self.ci95)
        d["values"] = list(self.values)
        return d

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        lo, hi = self.ci95
        sa, sb = self.seconds_per_hand["a"], self.seconds_per_hand["b"]
        return (f"{self.a} vs {self.b}: {self.rules}, {self.players} seats ({self.layout}), "
                f"{self.deals} duplicate deals, seed {self.seed}\n"
                f"  {self.a}: {self.mean:+.3f} units a hand, 95% CI [{lo:+.3f}, {hi:+.3f}]\n"
                f"  seconds a hand (median): {self.a} {sa['median']:.2e}, "
                f"{self.b} {sb['median']:.2e}\n"
                f"  fouls: {self.a} {self.fouls['a']}, {self.b} {self.fouls['b']}")


def _summarise(a, b, rs, n_seats, layout, seed, results: list[_DealResult]) -> MatchResult:
    values = np.array([r.value for r in results], float)
    n = len(values)
    mean = float(values.mean())
    stderr = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    half = 1.96 * stderr
    secs = {}
    for side, key in ((0, "a"), (1, "b")):
        flat = np.array([s for r in results for s in r.seconds[side]], float)
        secs[key] = {"mean": float(flat.mean()), "median": float(np.median(flat))}
    fouls = {"a": sum(r.fouls[0] for r in results), "b": sum(r.fouls[1] for r in results)}
    return MatchResult(a.name, b.name, rs.name, n_seats, layout, n, seed, mean, stderr,
                       (mean - half, mean + half), secs, fouls,
                       tuple(float(v) for v in values))


def _play_chunk(args) -> list[_DealResult]:
    # The rule set itself travels, not its name: a file's is in no registry.
    a, b, rs, n_seats, layout, seed, indices = args
    results = []
    for i in indices:
        try:
            results.append(_play_deal(a, b, rs, n_seats, layout, seed, i))
        except ValueError as e:
            raise ValueError(f"deal {i}: {e}") from e
    return results


def match(a, b, rules: "str | RuleSet", *, players: Optional[int] = None,
          deals: int = 100, seed: int = 0, layout: Optional[str] = None,
          workers: Optional[int] = 1, client=None, progress=None) -> MatchResult:
    """A duplicate-deal match of setter ``a`` against setter ``b`` (see the module
    docstring).  ``players``: seats (default: the rule set's largest table); ``layout``:
    ``heads-up`` (2 seats), ``one-v-rest`` (default with 3 or 4) or ``two-v-two``;
    ``workers``/``client``: spread the deals over local processes or a Dask cluster
    (the result is the same as serial)."""
    a, b = setter(a), setter(b)
    rs = _rules(rules)
    n_seats = rs.max_seats if players is None else players
    if not is_int(n_seats) or n_seats not in rs.seats:
        raise ValueError(f"players={players!r}: {rs.name} plays with "
                         f"{' or '.join(map(str, rs.seats))} players")
    rs = rs.at_seats(n_seats)               # (its scoring at this table size)
    if layout is None:
        layout = "heads-up" if n_seats == 2 else "one-v-rest"
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; layouts: {', '.join(LAYOUTS)}")
    if (layout == "heads-up") != (n_seats == 2) or (layout == "two-v-two" and n_seats != 4):
        raise ValueError(f"layout {layout!r} does not fit {n_seats} seats")
    deals = check_int("deals", deals, 1)
    seed = check_int("seed", seed, 0)
    chunk = max(1, min(25, deals // 40 or 1))
    tasks = [(a, b, rs, n_seats, layout, int(seed), list(range(i, min(deals, i + chunk))))
             for i in range(0, deals, chunk)]
    try:
        chunks = parallel_map(_play_chunk, tasks, workers=workers, client=client,
                              progress=progress, desc=f"{a.name} vs {b.name}")
    except ValueError as e:
        # parallel_map names the failing task ("item 3: ..."), a chunk of deals: the
        # message already names the deal.
        raise ValueError(re.sub(r"^items? \d+(-\d+)?: (?=deal \d+: )", "", str(e))) from e
    results = [r for c in chunks for r in c]
    return _summarise(a, b, rs, n_seats, layout, int(seed), results)


def exploitability(policy=None, rules: "str | RuleSet" = "joker",
                   players: Optional[int] = None, *,
                   deals: int = 200, samples: int = 1000, seed: int = 0,
                   workers: Optional[int] = 1, client=None, progress=None) -> MatchResult:
    """What the best response to ``policy`` wins from the policy itself, in units a hand
    (``mean``, with its 95% CI): a match of ``solve(..., policy=policy, samples=samples)``
    against the policy's own settings, on duplicate deals, one best responder against
    the rest.  A lower bound on the policy's exploitability: a better response (more
    samples) can only win more.  ``players``: default 2 where the rule set seats two
    (heads-up: the plainest measure), else its largest table (``joker``, ``bonus``: 4).

    ``policy``: None or ``"table"`` (the default model), ``"field"``, ``"sbf"``, a
    :class:`solver.model.TableModel`, or a setter function ``(cards, rules, cut) ->
    rows`` (slow: called for every sampled opponent)."""
    name = policy if isinstance(policy, str) else getattr(policy, "name", None) or "policy"
    if policy is None or isinstance(policy, str) or hasattr(policy, "tables"):
        own = ModelSetter(name=f"model:{name or 'table'}", model=policy)
    else:
        own = FunctionSetter(name=getattr(policy, "__name__", "policy"), function=policy)
    best = SolveSetter(name=f"best response ({samples} samples)", samples=samples,
                       model=policy)
    if players is None:
        rs = _rules(rules)
        players = 2 if 2 in rs.seats else rs.max_seats
    return match(best, own, rules, players=players, deals=deals, seed=seed,
                 workers=workers, client=client, progress=progress)



# --- command line -----------------------------------------------------------------------------
def main(argv=None) -> int:
    """``python3 -m solver.arena``: a match, or the exploitability of a policy.  The same
    conventions as ``python3 -m solver``: the ``joker`` rule set by default, one default
    shown per option, bad input as one line on stderr with exit code 2, and Ctrl+C as
    the line ``interrupted`` with exit code 130 (:func:`solver._cli.run_command`)."""
    _quiet_start.restore()          # from here on, Ctrl+C is run_command's
    prog = "python3 -m solver.arena"
    parser = Parser(prog=prog, formatter_class=Formatter,
                     description="Duplicate-deal matches between Chinese Poker setters.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(p):
        p.add_argument("--rules", default="joker", metavar="NAME|FILE",
                       help="rule set: a name or a rule-set file, FILE.toml (as python3 -m "
                            "solver)")
        p.add_argument("--players", type=int, default=None,
                       help="seats (default: the rule set's largest table; exploitability: "
                            "2 where the rule set seats two)")
        p.add_argument("--deals", type=int, default=200, help="duplicate deals")
        p.add_argument("--seed", type=int, default=0, help="match seed")
        p.add_argument("--workers", type=int, default=1, help="local processes")
        p.add_argument("--json", metavar="FILE", help="also write the result as JSON")
        p.add_argument("--quiet", action="store_true", help="no progress bar")

    m = sub.add_parser("match", help="setter A against setter B", formatter_class=Formatter)
    m.add_argument("a", help="setter A: solve[:samples=N,precision=P,effort=E,model=M,pool=B], "
                             "model[:name=M], field, sbf, random, saved:FILE, or "
                             "module:function")
    m.add_argument("b", help="setter B (same forms)")
    m.add_argument("--layout", choices=LAYOUTS, default=None,
                   help="seating (default: heads-up with 2 seats, else one-v-rest)")
    common(m)
    e = sub.add_parser("exploitability", help="the best response to a policy against it",
                       formatter_class=Formatter)
    e.add_argument("--policy", default="table", help="table, field or sbf")
    e.add_argument("--samples", type=int, default=1000, help="the best response's samples")
    common(e)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:                   # --help, a usage error
        return exit_.code if isinstance(exit_.code, int) else 2
    return run_command(lambda: _run(args), prog, command_options(parser, args.command))


def _run(args) -> int:
    """The command line's command, on parsed arguments."""
    progress = False if args.quiet else None
    if args.command == "match":
        result = match(args.a, args.b, args.rules, players=args.players, deals=args.deals,
                       seed=args.seed, layout=args.layout, workers=args.workers,
                       progress=progress)
    else:
        result = exploitability(args.policy, args.rules, args.players,
                                deals=args.deals, samples=args.samples, seed=args.seed,
                                workers=args.workers, progress=progress)
    print(result)
    if args.json:
        with open(args.json, "w") as f:
            f.write(result.to_json(indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
