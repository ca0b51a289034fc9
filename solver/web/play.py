"""The study page's Practice and Match tabs, server side: your hand of a seeded deal, and
the showdown of a match deal.

* ``POST /api/match/deal`` -- seat 0's hand (yours) of deal ``index`` of the deals
  seeded by ``seed`` (``solver.sampling.deal_hands``: the deals of ``python3 -m solver
  deal`` and of the arena), its cut card, and the automatic win it holds, if any.  The
  other seats' hands stay on the server until the showdown.  No seed: a random one, and
  the answer says which.
* ``POST /api/match/showdown`` -- that deal played: your ``setting`` against the other
  seats, each set by the library (``quick``: ``solver.quick_set``, declaring an automatic
  win it holds, as the opponents :func:`solver.solve` samples do; ``fast`` / ``max``:
  ``solver.solve`` at that effort), settled by ``solver.settle(..., detail=True)``: every
  seat's rows face up, each pair's row results and the items behind its units (scoops,
  home runs, bonuses, automatic wins, fouls), and each seat's units.

A showdown runs in one of the server's worker processes (:func:`showdown` is the task),
as solves and reviews do, so it can be stopped when its time is up.  Their request
bodies are :mod:`solver.web.bodies`' (``rules`` a registered rule set's name, as
everywhere).  Nothing here keeps state between requests: a deal is its seed and index,
so a match can be replayed.
"""
from __future__ import annotations

import secrets
from collections import Counter
from typing import Optional

import solver
from .._checks import check_int
from ..display import sort_row
from ..sampling import RANDOM_SEEDS, deal_hands
from ..settle import split_arrangement

OPPONENTS = ("quick", "fast", "max")      # quick_set, or solve at that effort
DEFAULT_OPPONENTS = "quick"


def _deal(rules: "str | solver.RuleSet", players: Optional[int], seed: int, index: int):
    """(rule set, seats, hands, cut) of deal ``index`` seeded by ``seed``, validated."""
    rs = solver.rule_set(rules)
    seed = check_int("seed", seed, 0)
    index = check_int("index", index, 0)
    players = rs.max_seats if players is None else players
    if players not in rs.seats:
        raise ValueError(f"the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players, not {players}")
    hands, cut = deal_hands(rs, players, seed, index)
    return rs, players, hands, cut


def _automatic_win(hand: str, rs) -> Optional[solver.AutomaticWin]:
    if not rs.automatic_wins or rs.cards_dealt != 13:
        return None
    return solver.automatic_win(hand, rs)


def match_deal(rules: "str | solver.RuleSet", players: Optional[int], seed: Optional[int],
               index: int) -> dict:
    """Your hand (seat 0) of deal ``index`` seeded by ``seed`` (None: a random seed)."""
    seed = secrets.randbelow(RANDOM_SEEDS) if seed is None else seed
    rs, players, hands, cut = _deal(rules, players, seed, index)
    win = _automatic_win(hands[0], rs)
    return dict(rules=rs.name, players=players, seed=seed, index=index, cut=cut,
                hand=sort_row(hands[0], group=False),
                automatic_win=None if win is None else win.name)


def opponent_seed(seed: int, index: int, seat: int) -> int:
    """The sampling seed of the solve that sets ``seat`` in deal ``index`` of match
    ``seed``: fixed by them, so a replayed match is the same match."""
    return (seed * 7919 + index * 4 + seat) % RANDOM_SEEDS


def _your_rows(setting, hand: str, rs, win) -> tuple[tuple[str, str, str], bool]:
    """Your setting as rows (a declared automatic win: the split that shows it) and
    whether you declare; its cards must be 13 of your hand's."""
    if isinstance(setting, str) and setting.strip().lower() == "declare":
        if not rs.automatic_wins:
            raise ValueError(f"the {rs.name} rule set has no automatic wins to declare")
        if win is None:
            raise ValueError("your hand holds no automatic win to declare")
        return (win.front, win.middle, win.back), True
    rows = split_arrangement(setting) if isinstance(setting, str) else tuple(setting)
    if len(rows) != 3:
        raise ValueError(f"give three rows 'FRONT / MIDDLE / BACK', not {setting!r}")
    texts = tuple(solver.format_cards(row) for row in rows)
    used = Counter(" ".join(texts).split())
    extra = used - Counter(hand.split())
    if extra:
        raise ValueError(f"your setting holds {sort_row(' '.join(extra.elements()))}, "
                         f"not in your hand ({sort_row(hand, group=False)})")
    return texts, False


def showdown(rules: "str | solver.RuleSet", players: Optional[int], seed: int, index: int,
             setting, opponents: str = DEFAULT_OPPONENTS,
             solve_options: Optional[dict] = None) -> dict:
    """Deal ``index`` of match ``seed`` played: your ``setting`` (seat 0) against the
    other seats as ``opponents`` set them, settled by :func:`solver.settle`.

    ``solve_options``: sampling arguments for the opponents' solves (the server's limit);
    by default ``effort=opponents``.  Returns ``{rules, players, seed, index, cut,
    opponents, seats: [{seat, hand, front, middle, back, discards, declare, rows}],
    scores, pairs: [{a, b, rows, units, items}]}`` where a seat's ``rows`` are its rows'
    values as ``settle`` reads them (``"FOULED "`` first for a foul).  A fouled setting
    the rule set cannot play (``joker``, ``bonus``) is refused (``ValueError``)."""
    if opponents not in OPPONENTS:
        raise ValueError(f"opponents={opponents!r}: one of {', '.join(OPPONENTS)}")
    rs, players, hands, cut = _deal(rules, players, seed, index)
    seat_rows, declared = [], []
    mine, declare = _your_rows(setting, hands[0], rs, _automatic_win(hands[0], rs))
    seat_rows.append(mine)
    declared.append(declare)
    for seat in range(1, players):
        if opponents == "quick":
            rows = tuple(solver.quick_set(hands[seat], rs, cut, players=players))
            declare = _automatic_win(hands[seat], rs) is not None
        else:
            options = dict(solve_options or dict(effort=opponents))
            sol = solver.solve(hands[seat], rs, cut, players=players, top=0,
                               seed=opponent_seed(seed, index, seat), **options)
            rows, declare = (sol.front, sol.middle, sol.back), bool(sol.declare)
        seat_rows.append(rows)
        declared.append(declare)
    try:
        result = solver.settle(seat_rows, rs, cut,
                               declared=[s for s in range(players) if declared[s]] or None,
                               detail=True)
    except ValueError as e:
        if "seat 0:" in str(e) and "fouled" in str(e):
            raise ValueError(f"your setting is fouled and the {rs.name} rules do not let a "
                             f"fouled setting be played: the Front must be weaker than the "
                             f"Middle, the Middle no stronger than the Back") from None
        if str(e).startswith("seat 0"):
            raise ValueError("your setting" + str(e)[len("seat 0"):]) from None
        raise
    seats = []
    for seat, (rows, hand) in enumerate(zip(seat_rows, hands)):
        kept = Counter(" ".join(rows).split())
        discards = list((Counter(hand.split()) - kept).elements())
        seats.append(dict(seat=seat, hand=sort_row(hand, group=False),
                          front=sort_row(rows[0]), middle=sort_row(rows[1]),
                          back=sort_row(rows[2]),
                          discards=sort_row(" ".join(discards), group=False) if discards
                          else "",
                          declare=declared[seat], rows=list(result.rows[seat])))
    pairs = [dict(a=p.a, b=p.b, rows=list(p.rows), units=p.units,
                  items=[[what, units] for what, units in p.items]) for p in result.pairs]
    return dict(rules=rs.name, players=players, seed=seed, index=index, cut=cut,
                opponents=opponents, seats=seats, scores=list(result.scores), pairs=pairs)
