"""Settling a deal: :func:`settle` and its explanation for people.

The units come from the jitted core in :mod:`solver.scoring`; the explanation lists the
items behind each pair's units using the same core helpers, and its items sum to them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence, Union

import numpy as np

from . import scoring
from ._checks import is_int
from .autowin import KIND_NAMES, holds_special, kind_order, special_of
from .cards import to_codes
from .rows import RowValue, cut_taken, explain_cut, tables_for, _value_of_codes
from .rules import (BONUS_REPLACE, PAID_ROW_MADE, RANK_PLURALS, ROWS, SCHEME_GENERAL,
                    SCHEME_MANDARIN, SCHEME_ROWS, SCHEME_SCOOP, SCHEME_WESTERN, RuleSet, rule_set)
from .tables import value_rank

Arrangement = Union[str, Sequence]  # "FRONT / MIDDLE / BACK", or (front, middle, back)
_ROW_SEPARATOR = re.compile(r"\s*[/|]\s*")


@dataclass(frozen=True)
class PairResult:
    """What seat ``a`` won from seat ``b`` (``units``; b's are the negative), and why."""
    a: int
    b: int
    rows: tuple[str, str, str]          # "win" / "tie" / "loss" from a's side, or "-"
    units: int
    items: tuple[tuple[str, int], ...]  # (what, units to a); they sum to ``units``


@dataclass(frozen=True)
class Settlement:
    """A settled deal: each seat's units and the pair-by-pair breakdown."""
    scores: tuple[int, ...]
    pairs: tuple[PairResult, ...]
    rows: tuple[tuple[str, str, str], ...]     # each seat's rows as "category ranks"

    def __str__(self) -> str:
        from .display import settlement_pairs
        return "\n".join(settlement_pairs(self))


def split_arrangement(text: str) -> tuple[str, str, str]:
    """The three rows of an arrangement written as one text, ``"FRONT / MIDDLE / BACK"``
    (``|`` separates too), as the command line takes a seat.

    >>> split_arrangement("2s 2h Ad / 7c 7d 9s 5h 3d | Tc Jc Qc Kc Ac")
    ('2s 2h Ad', '7c 7d 9s 5h 3d', 'Tc Jc Qc Kc Ac')
    """
    rows = _ROW_SEPARATOR.split(text.strip())
    if len(rows) != 3:
        raise ValueError(f"give three rows 'FRONT / MIDDLE / BACK', not {text!r}")
    return rows[0], rows[1], rows[2]


def _seat_codes(arrangements, rules: RuleSet, out_of_play: "set[int] | None" = None
                ) -> list[list[list[int]]]:
    """Every seat's rows as codes, validated: sizes, and cards across all seats (with
    the cards ``out_of_play``, i.e. the cut card, already taken)."""
    taken: set[int] = set(out_of_play or ())
    seats = []
    for seat, arrangement in enumerate(arrangements):
        if isinstance(arrangement, str):
            try:
                arrangement = split_arrangement(arrangement)
            except ValueError as e:
                raise ValueError(f"seat {seat}: {e}") from None
        if isinstance(arrangement, str) or not _sized(arrangement) or len(arrangement) != 3:
            raise ValueError(f"seat {seat}: an arrangement is (front, middle, back), "
                             f"not {arrangement!r}")
        rows = []
        for name, size, cards in zip(ROWS, (3, 5, 5), arrangement):
            try:
                codes = to_codes(cards, rules, taken)
            except ValueError as e:
                raise ValueError(f"seat {seat} {name}: {explain_cut(e, out_of_play)}") from None
            if len(codes) != size:
                raise ValueError(f"seat {seat}: the {name} has {size} cards, not {len(codes)}")
            rows.append(codes)
        seats.append(rows)
    return seats


def _sized(x) -> bool:
    return hasattr(x, "__len__") and hasattr(x, "__getitem__")


def _seat_numbers(seats, n_seats: int, what: str) -> list[int]:
    """Seat numbers given as a sequence (``declared``, ``surrendered``), validated."""
    if isinstance(seats, str) or not hasattr(seats, "__iter__"):
        raise ValueError(f"{what} must be seat numbers, not {seats!r}")
    seats = list(seats)
    for seat in seats:
        if not (is_int(seat) and 0 <= seat < n_seats):
            raise ValueError(f"{what} seat {seat!r} is not a seat of this deal")
    return seats


def _declared_codes(declared, n_seats: int, seat_codes, rules: RuleSet,
                    surrendered=None) -> np.ndarray:
    auto = np.zeros(n_seats, np.int8)
    order = kind_order(rules)
    if rules.automatic_wins and not rules.automatic_wins_declared:
        # Special hands count automatically: every hand holding one is its strongest
        # (it is scored as it, whatever its player does: surrendering too).
        for seat in range(n_seats):
            auto[seat] = special_of([c for row in seat_codes[seat] for c in row], rules)
    if surrendered is not None:
        seats = _seat_numbers(surrendered, n_seats, "surrendered")
        if seats and not rules.surrender_cost:
            raise ValueError(f"the {rules.name} rule set has no surrender")
        for seat in seats:
            if auto[seat] == 0:
                auto[seat] = scoring.AUTO_SURRENDER
    if not declared:
        return auto
    if not rules.automatic_wins:
        raise ValueError(f"the {rules.name} rule set has no automatic wins")
    if not isinstance(declared, Mapping) and (isinstance(declared, str)
                                              or not hasattr(declared, "__iter__")):
        raise ValueError(f"declared must be seat numbers or {{seat: name}}, not {declared!r}")
    items = declared.items() if isinstance(declared, Mapping) else ((s, None) for s in declared)
    for seat, name in items:
        if not (is_int(seat) and 0 <= seat < n_seats):
            raise ValueError(f"declared seat {seat!r} is not a seat of this deal")
        if auto[seat] == scoring.AUTO_SURRENDER:
            raise ValueError(f"seat {seat} both declares and surrenders")
        codes = [c for row in seat_codes[seat] for c in row]
        kind = special_of(codes, rules)
        if kind == 0:
            raise ValueError(f"seat {seat}: declared an automatic win its cards do not hold")
        if name is not None:
            if name not in rules.automatic_wins:
                raise ValueError(f"seat {seat}: unknown automatic win {name!r}; valid: "
                                 f"{', '.join(KIND_NAMES[k] for k in order)}")
            # Any special the cards hold may be declared (a lesser claim than the best).
            if not holds_special(codes, KIND_NAMES.index(name), rules):
                what = f"a {name.replace('_', ' ')}" if name.endswith("dragon") else name
                raise ValueError(f"seat {seat}: declared {what} its cards do not hold")
            if rules.automatic_wins_declared:       # (else the hand is its strongest)
                kind = KIND_NAMES.index(name)
        if rules.automatic_wins_declared:
            auto[seat] = kind
    return auto


def _prepare(arrangements, rules, cut, declared, surrendered=None):
    rs = rule_set(rules)
    if isinstance(arrangements, str) or not hasattr(arrangements, "__iter__"):
        raise ValueError(f"arrangements must be a sequence of (front, middle, back), one a "
                         f"seat, not {arrangements!r}")
    arrangements = list(arrangements)
    n = len(arrangements)
    if n not in rs.seats:
        raise ValueError(f"the {rs.name} rule set settles {' or '.join(map(str, rs.seats))} "
                         f"seats, not {n}")
    rs = rs.at_seats(n)                     # (its scoring at this table size)
    tables = tables_for(rs, cut)
    seat_codes = _seat_codes(arrangements, rs, cut_taken(rs, cut))
    vals = np.array([[_value_of_codes(row, tables) for row in seat] for seat in seat_codes],
                    np.int32)
    auto = _declared_codes(declared, n, seat_codes, rs, surrendered)
    fouled = ~((vals[:, 0] < vals[:, 1]) & (vals[:, 1] <= vals[:, 2]))
    fouled &= auto == 0                  # a declared or surrendered hand is not compared
    if not scoring.fouls_playable(rs):
        for seat in np.nonzero(fouled)[0]:
            f, m, b = (RowValue(v) for v in vals[seat])
            raise ValueError(f"seat {seat}: fouled arrangement (front {f}, middle {m}, back "
                             f"{b}); the {rs.name} rule set requires Front < Middle <= Back")
    return rs, vals, fouled, auto


def settle(arrangements: Iterable[Arrangement], rules: "str | RuleSet",
           cut: "str | int | None" = None, declared=None, detail: bool = False,
           surrendered=None) -> Union[list[int], Settlement]:
    """Each seat's units for one deal (they sum to zero).

    ``arrangements``: one ``(front, middle, back)`` per seat, each row as text or card
    codes, or one text ``"FRONT / MIDDLE / BACK"`` (``|`` separates too, as on the
    command line).  ``cut``: the cut card (``bonus``).  ``declared`` (``classic``): the
    seats that declare an automatic win, as seat numbers or ``{seat: name}``; their split
    need not be legal.  ``surrendered``: the seats that surrender, where the rule set lets
    a player (docs/rules.md#surrender); their rows are not compared and need not be legal.
    ``detail=True`` (a real bool) returns a :class:`Settlement` with the pair-by-pair
    breakdown.

    ``joker``/``bonus`` reject a fouled arrangement (it cannot be played); ``pagat``
    and ``classic`` score it as their rules say (docs/rules.md#legality).
    """
    if not isinstance(detail, (bool, np.bool_)):
        raise ValueError(f"detail must be True or False, not {detail!r} "
                         f"({type(detail).__name__})")
    rs, vals, fouled, auto = _prepare(arrangements, rules, cut, declared, surrendered)
    params = scoring.scoring_params(rs)
    fouled_bits, auto_bits = scoring.pack_flags(fouled, auto)
    scores = [int(s) for s in scoring.settle_seats(vals, fouled_bits, auto_bits, params)]
    if not detail:
        return scores
    n = len(scores)
    pairs = tuple(_explain(vals, fouled, auto, a, b, rs, params)
                  for a in range(n) for b in range(a + 1, n))
    flag = ["FOULED " if fouled[s] else "SURRENDERED " if auto[s] == scoring.AUTO_SURRENDER
            else "" for s in range(n)]
    rows = tuple(tuple(flag[s] + _describe(RowValue(v)) for v in vals[s]) for s in range(n))
    return Settlement(tuple(scores), pairs, rows)


def _describe(v: RowValue) -> str:
    return f"{v.category} {v.ranks}".strip()


def _explain(vals, fouled, auto, a, b, rs: RuleSet, params) -> PairResult:
    """The items behind ``pair_score`` (and home runs) for seats a and b."""
    n = vals.shape[0]
    fouled_bits, auto_bits = scoring.pack_flags(fouled, auto)
    hr = [bool(scoring.home_run(vals, fouled_bits, auto_bits, n, s, params, rs.scheme))
          for s in range(n)]
    units = int(scoring.pair_score(vals, fouled_bits, auto_bits, n, a, b, hr[a], hr[b],
                                   params, rs.scheme))
    if rs.scheme in (SCHEME_SCOOP, SCHEME_GENERAL):
        units += rs.home_run_units * (int(hr[a]) - int(hr[b]))
    compared = not (fouled[a] or fouled[b] or auto[a] or auto[b])
    outcome = tuple(("win" if vals[a, r] > vals[b, r] else "loss" if vals[a, r] < vals[b, r]
                     else "tie") if compared or rs.scheme == SCHEME_SCOOP else "-"
                    for r in range(3))
    items: list[tuple[str, int]] = []
    gave_up = [s for s in (a, b) if auto[s] == scoring.AUTO_SURRENDER]
    if gave_up:
        items.append((" and ".join(f"seat {s}" for s in gave_up) + " surrendered", units))
    elif auto[a] or auto[b]:
        items.append(("automatic win(s)", units))
    elif rs.scheme == SCHEME_GENERAL and fouled[a] != fouled[b]:
        items = _general_items(vals, fouled, fouled_bits, auto_bits, a, b, hr, rs, params)
    elif fouled[a] or fouled[b]:
        items.append(("foul" + (f" by seat {a}" if fouled[a] else "")
                      + (f" by seat {b}" if fouled[b] else ""), units))
    elif rs.scheme == SCHEME_GENERAL:
        items = _general_items(vals, fouled, fouled_bits, auto_bits, a, b, hr, rs, params)
    elif rs.scheme == SCHEME_SCOOP:
        if scoring.scoops(vals, a, b):
            items.append((f"seat {a} scoops", rs.scoop_units))
        if scoring.scoops(vals, b, a):
            items.append((f"seat {b} scoops", -rs.scoop_units))
        if hr[a]:
            items.append((f"home run by seat {a}", rs.home_run_units))
        if hr[b]:
            items.append((f"home run by seat {b}", -rs.home_run_units))
        for r, row in enumerate(ROWS):
            for winner, loser, sign in ((a, b, 1), (b, a, -1)):
                if vals[winner, r] > vals[loser, r]:
                    bonus = int(scoring.row_bonus(params, r, vals[winner, r]))
                    if bonus:
                        cat = RowValue(vals[winner, r]).category
                        items.append((f"{row} {cat} bonus (seat {winner})", sign * bonus))
    else:
        wins, losses = outcome.count("win"), outcome.count("loss")
        if rs.scheme in (SCHEME_ROWS, SCHEME_WESTERN):
            items.append((f"rows {wins}-{losses}", wins - losses))
            if rs.scheme == SCHEME_WESTERN and wins >= 2:
                items.append(("majority", rs.majority_bonus))
            if rs.scheme == SCHEME_WESTERN and losses >= 2:
                items.append(("majority", -rs.majority_bonus))
        else:
            shot = rs.scheme == SCHEME_MANDARIN and 3 in (wins, losses)
            items.append((f"rows {wins}-{losses}" + (" (home run)" if hr[a] or hr[b] else
                                                       " (shot)" if shot else ""), units))
    if rs.scheme == SCHEME_GENERAL:
        units, caps = _general_caps(vals, fouled_bits, auto_bits, a, b, hr, units, rs, params)
        items += caps
    return PairResult(a, b, outcome, units, tuple(items))


def _general_caps(vals, fouled_bits, auto_bits, a, b, hr, units, rs: RuleSet, params
                  ) -> "tuple[int, list[tuple[str, int]]]":
    """The pair's units after the loss caps (docs/rules.md#loss-caps), and an item for
    each cap that changed them."""
    items = []
    n = vals.shape[0]
    capped = int(scoring.general_pair_units(vals, fouled_bits, auto_bits, n, a, b, hr[a],
                                            hr[b], params))
    if capped != units:
        items.append((f"loss cap per pair ({rs.loss_cap_per_pair})", capped - units))
    if rs.loss_cap_per_deal:
        scratch = np.zeros((2, n, n), np.int64)
        bits = scoring.home_run_bits(vals, fouled_bits, auto_bits, n, params, rs.scheme)
        scoring.deal_capped_units(vals, fouled_bits, auto_bits, n, a, bits, params,
                                  scratch[0], scratch[1])
        paid = scratch[1]
        final = int(paid[b, a] - paid[a, b])
        if final != capped:
            payer = a if capped < 0 else b
            items.append((f"loss cap per deal ({rs.loss_cap_per_deal}): seat {payer} pays "
                          f"{abs(final)} of {abs(capped)}", final - capped))
        capped = final
    return capped, items


def _general_items(vals, fouled, fouled_bits, auto_bits, a, b, hr, rs: RuleSet, params
                   ) -> list[tuple[str, int]]:
    """The general scoring's items for seats a and b (at most one of them fouled): each
    side's won rows (times its shot or home-run multiplier), its royalties, the scoops,
    the majority (each multiplied where the rule set says) and the home runs; a fouled
    hand's penalty, and where a foul loses every row, the valid hand's items as if it
    won them all (docs/rules.md#house-rules-the-general-scoring)."""
    items: list[tuple[str, int]] = []
    scooped = {(x, y): bool(scoring.general_scoops(vals, fouled_bits, auto_bits, x, y, params))
               for x, y in ((a, b), (b, a))}
    for x, y, sign in ((a, b, 1), (b, a, -1)):
        if fouled[x]:
            if rs.foul_penalty:
                items.append((f"foul by seat {x}: penalty", -sign * rs.foul_penalty))
            continue
        if fouled[y] and not rs.foul_loses_rows:
            continue                              # (the penalty, above, is all)
        multiplier = int(scoring.general_multiplier(scooped[x, y], hr[x], params))
        why = "home run" if hr[x] else "shot" if scooped[x, y] else ""
        note = f" (x{multiplier}, {why})" if multiplier != 1 else ""
        won = [r for r in range(3) if fouled[y] or vals[x, r] > vals[y, r]]
        points = 0
        for r in won:
            value = RowValue(vals[x, r])
            if rs.bonus_mode == BONUS_REPLACE and scoring.row_bonus(params, r, vals[x, r]):
                continue                          # its royalty is the row's score
            if r == 0 and rs.front_trips_points and value.category == "trips":
                points += rs.front_trips_points
            else:
                points += rs.row_points[r]
        lost = f" (seat {y} fouled)" if fouled[y] else ""
        if points:
            items.append((f"seat {x} wins {', '.join(ROWS[r] for r in won)}{lost}{note}",
                          sign * points * multiplier))
        for r in range(3):
            royalty = int(scoring.row_bonus(params, r, vals[x, r]))
            if royalty and (r in won or rs.bonus_paid == PAID_ROW_MADE):
                times = multiplier if rs.bonus_multiplied else 1
                items.append((f"{_royalty_name(rs, r, vals[x, r])} royalty (seat {x})"
                              + (note if times != 1 else ""), sign * royalty * times))
        if scooped[x, y] and rs.scoop_units:
            times = multiplier if rs.scoop_multiplied else 1
            items.append((f"seat {x} scoops" + (note if times != 1 else ""),
                          sign * rs.scoop_units * times))
        if len(won) >= 2 and rs.majority_bonus:
            times = multiplier if rs.majority_multiplied else 1
            items.append(("majority" + (note if times != 1 else ""),
                          sign * rs.majority_bonus * times))
        if hr[x] and rs.home_run_units:
            items.append((f"home run by seat {x}", sign * rs.home_run_units))
    return items


def _royalty_name(rs: RuleSet, row: int, value: int) -> str:
    """``"front pair"``, or where the rule set pays the category by rank, ``"front pair
    of 8s"`` (docs/rules.md#royalties-by-rank)."""
    v = RowValue(value)
    name = f"{ROWS[row]} {v.category}"
    if f"{ROWS[row]}.{v.category}" in rs.row_bonus_by_rank:
        name += f" of {RANK_PLURALS[value_rank(int(value))]}"
    return name
