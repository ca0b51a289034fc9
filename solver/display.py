"""Text for people: rows in the order a poker player reads them, labelled with their
hands, and the layout of a :class:`solver.Solution`, a settlement and a row value.

The command line (``python -m solver``) and ``str(Solution)`` both print through here;
nothing here changes a number, only how it is shown.  It sits below
:mod:`solver.solution`: it reads a Solution's fields and never imports that module.

>>> sort_row("9s Kh 9d Kd Kc")
'Kh Kd Kc 9s 9d'
>>> sort_row("As 2h 3d 4c 5s", "straight")          # the wheel: the ace plays low
'5s 4c 3d 2h As'
>>> row_line("back", "9s Kh 9d Kd Kc", "full_house")
'back    Kh Kd Kc 9s 9d   full house'
"""
from __future__ import annotations

import functools
import shlex
from collections import Counter
from typing import Optional, Sequence

from .cards import FIRST_JOKER, card_name, code_rank, code_suit, parse_codes
from .rules import ROWS, SCOOP_NO_ROW_LOST, RuleSet, is_rule_file, rule_set
from .tables import category_name, value_digits

ROW_WIDTH = 14            # "Kh Kd Kc 9s 9d"
# Fewer deals than this and a solve's numbers cannot tell settings apart: solve warns,
# and the solution's text says so.
FEW_DEALS = 20
_STRAIGHTS = ("straight", "straight_flush")


# --- rows -----------------------------------------------------------------------------------
def label(category: str) -> str:
    """A category's name for people: ``full_house`` -> ``full house``."""
    return category.replace("_", " ")


def sort_row(cards: str, category: Optional[str] = None, group: bool = True,
             value: Optional[int] = None) -> str:
    """Cards (canonical text) in reading order: the most repeated ranks first (pairs and
    trips together; ``group=False``: ranks only, as for a whole hand), ranks high to low,
    suits s h d c, jokers last; the ace low in a straight to the five (the wheel), when
    ``category`` says the row is a straight.

    Given the row's ``value``, the cards are shown as the hand they count as: each joker
    in the place of the card it stands for (``As Jk 7s 7s 5s``: aces and sevens,
    a paired flush), and the order is the value's own (the ranks that break ties, in
    order)."""
    codes = parse_codes(cards, "joker")          # the deck every other deck fits in
    return " ".join(card_name(c) for c in reading_order(codes, category, group, value))


def reading_order(codes, category: Optional[str] = None, group: bool = True,
                  value: Optional[int] = None) -> list[int]:
    """:func:`sort_row`'s order of card codes (for callers that hold codes, not text)."""
    codes = [int(c) for c in codes]
    if value is not None and len(codes) in (3, 5):
        return _as_counted(codes, value)
    real = [c for c in codes if c < FIRST_JOKER]
    counts = Counter(code_rank(c) for c in real)
    wheel = category in _STRAIGHTS and 12 in counts and any(r <= 3 for r in counts)

    def key(code):
        if code >= FIRST_JOKER:
            return (1, 0, 0, 0)
        rank = code_rank(code)
        high = -1 if wheel and rank == 12 else rank
        return (0, -counts[rank] if group else 0, -high, code_suit(code))

    return sorted(codes, key=key)


def counted_ranks(value: int, size: int) -> list[int]:
    """The ranks (0..12) a row of ``size`` cards with this ``value`` counts as, in reading
    order: ``[12, 12, 5, 5, 3]`` for a paired flush A-A-7-7-5; [] for joker trips.

    >>> from solver import row_value
    >>> counted_ranks(row_value("As 7s 7s 5s Jk", "joker").value, 5)
    [12, 12, 5, 5, 3]
    >>> sort_row("As 7s 7s 5s Jk", value=row_value("As 7s 7s 5s Jk", "joker").value)
    'As Jk 7s 7s 5s'
    >>> sort_row("Jk Jk Jk Kh 8d", value=row_value("Jk Jk Jk Kh 8d", "joker").value)
    'Kh Jk Jk Jk 8d'
    """
    category = category_name(value)
    digits = [d - 1 for d in value_digits(value) if d]          # ranks, in tie-break order
    if category == "joker_trips":
        return []
    if category in _STRAIGHTS:
        top = digits[0]
        return [top - i if top - i >= 0 else 12 for i in range(5)]   # the wheel: 5 4 3 2 A
    if category in ("joker_five", "natural_five"):
        return digits[:1] * 5
    if category == "paired_flush":
        pairs = digits[0] + 1                    # the first digit counts the pairs (+1)
        ranks = digits[1:]
        return [r for r in ranks[:pairs] for _ in (0, 1)] + ranks[pairs:]
    groups = _GROUPS.get(category, ())
    out = [r for r, n in zip(digits, groups) for _ in range(n)] + digits[len(groups):]
    return out[:size]


# The groups of equal ranks a category's tie-break digits stand for, in order.
_GROUPS = {"pair": (2,), "two_pair": (2, 2), "trips": (3,), "bonus_trips": (3,),
           "full_house": (3, 2), "bonus_full_house": (3, 2), "quads": (4,), "bonus_quads": (4,)}


@functools.lru_cache(maxsize=65536)        # a deck's rows have a few thousand values
def _counted(value: int, size: int) -> tuple[int, ...]:
    return tuple(counted_ranks(value, size))


# A real card code's suit in reading order, s h d c (its slot code // 13; the second
# spade set, after the clubs, is the same suit as slot 0), and its place in reading
# order: high rank first (a code's rank is code % 13), then that suit.  Equal for the two
# copies of a spade, which keep their order.
_SUIT_SLOT = tuple(0 if c >= 52 else c // 13 for c in range(FIRST_JOKER))
_HIGH_FIRST = tuple((12 - c % 13) * 4 + _SUIT_SLOT[c] for c in range(FIRST_JOKER))


@functools.lru_cache(maxsize=65536)
def _reading_keys(value: int, size: int) -> tuple[int, ...]:
    """For each real card code, its sort key in a row of real cards of this value: 4
    times the place of its rank's first card in :func:`counted_ranks`' order (a rank
    such a row does not hold: past the end), plus its suit.  Kept whole for each value
    (65 keys, where 13 places would do: under 8 MB for the 13,000 values of every rule
    set), so that a row sorts by a lookup a card, with no Python function called per
    card (quick_set sorts three rows a call)."""
    places = [4 * size] * 13
    for place, rank in reversed(list(enumerate(_counted(value, size)))):
        places[rank] = 4 * place
    return tuple(places[c % 13] + _SUIT_SLOT[c] for c in range(FIRST_JOKER))


def _as_counted(codes: Sequence[int], value: int) -> list[int]:
    """``codes`` ordered as :func:`counted_ranks` says, a joker where no real card of
    the counted rank is left (suits s h d c among equal ranks)."""
    if max(codes) < FIRST_JOKER:
        # No joker (every row of a 52-card deck): each card's rank is counted as often as
        # the row holds it, so the order is each rank's place, then the suit.  Twice as
        # fast as the general way below, which quick_set and solve pay for each row.
        return sorted(codes, key=_reading_keys(value, len(codes)).__getitem__)
    return _as_counted_with_jokers(codes, value)


def _as_counted_with_jokers(codes: Sequence[int], value: int) -> list[int]:
    """:func:`_as_counted` in general: the counted ranks one by one, each taking the first
    real card of that rank left in reading order, else a joker."""
    jokers = [c for c in codes if c >= FIRST_JOKER]
    real = sorted([c for c in codes if c < FIRST_JOKER], key=_HIGH_FIRST.__getitem__)
    out = []
    for rank in _counted(value, len(codes)):
        for i, c in enumerate(real):
            if c % 13 == rank:
                out.append(real.pop(i))
                break
        else:
            out.append(jokers.pop())
    return out + real + jokers          # (nothing is left over unless a table is wrong)


def row_line(name: str, cards: str, category: Optional[str] = None, width: int = ROW_WIDTH,
             extra: str = "") -> str:
    """``back    Kh Kd Kc 9s 9d   full house``: a row's name, its sorted cards, its hand."""
    text = f"{name:7s} {sort_row(cards, category):{width}s}"
    if category:
        text += f"   {label(category)}"
    return (text + extra).rstrip()


def arrangement_text(rows: Sequence[str], categories: Sequence[str] = ("", "", "")) -> str:
    """``As As 6h | Jd Td 9c 8c 7h | Ks Kd Qh Qc Jk``: three rows on one line."""
    return " | ".join(sort_row(r, c or None) for r, c in zip(rows, categories))


# --- a solution -------------------------------------------------------------------------------
def _pct(p: float) -> str:
    return f"{p:.1%}"


def _deals(n: int, new: bool = False) -> str:
    """``1 deal``, ``64 deals`` (``64 new deals``)."""
    return f"{n} {'new ' if new else ''}deal{'' if n == 1 else 's'}"


def _pm(stderr) -> str:
    """``± 0.093``, or ``± n/a`` where one deal leaves the standard error undefined."""
    return "± n/a" if stderr is None else f"± {stderr:.3f}"


# --- what a rule set's scoring counts, read from its fields (any rule set: a file's too) ------
def scoop_word(rules: RuleSet) -> Optional[str]:
    """What scooping an opponent is called where it scores: ``"shot"`` where it
    multiplies the pair's points (``shot_multiplier`` above 1, as in ``classic:mandarin``),
    ``"scoop"`` where it pays units or only a home run counts it; None where it scores
    nothing of its own (``pagat``, ``classic``)."""
    if rules.shot_multiplier > 1:
        return "shot"
    if rules.scoop_units or home_runs_count(rules):
        return "scoop"
    return None


def scoop_meaning(rules: RuleSet) -> str:
    """What scooping one opponent takes, in the page's words."""
    if rules.scoop == SCOOP_NO_ROW_LOST:
        return "lose no row to that opponent"
    return "win every row against that opponent"


def home_runs_count(rules: RuleSet, players: Optional[int] = None) -> bool:
    """Whether scooping every other player (a home run) scores more than the scoops do
    -- at a table of ``players`` seats, or at some table the rule set allows."""
    extra = bool(rules.home_run_units) or rules.home_run_multiplier != rules.shot_multiplier
    seats = max(rules.seats) if players is None else players
    return extra and seats >= rules.home_run_min_seats


def foul_text(rules: RuleSet) -> str:
    """What a fouled hand does, in the page's words (\"a foul: ...\")."""
    if not rules.foul_penalty and not rules.foul_loses_rows:
        return "cannot be played"
    return " and ".join(
        (["lose every row to each valid hand"] if rules.foul_loses_rows else [])
        + ([f"pay {rules.foul_penalty} to each other player"] if rules.foul_penalty else []))


def solution_text(sol) -> str:
    """The layout of ``str(Solution)``: a declaration first when it beats playing, the
    rows with their hands and win/tie/loss rates, the EV and what its numbers mean, the
    scoop / home-run odds where the rule set has them, and the alternatives with their
    paired differences from the best."""
    rs = sol.__dict__.get("_rule_set") or rule_set(sol.rules)
    others = sol.players - 1
    lines = []
    title = f"{sol.rules}" + (f" (cut {sol.cut})" if sol.cut else "") + f", {sol.players} players"
    tied = [i for i, a in enumerate(sol.alternatives, 1) if a.tied]
    tied_text = (f"alternative{'s' if len(tied) > 1 else ''} {', '.join(map(str, tied))}"
                 if tied else "")
    if sol.declare:
        lines.append(f"{title}: DECLARE the automatic win ({label(sol.automatic_win)})")
        lines.append(f"  declaring: EV {sol.ev_declare:+.3f} {_pm(sol.stderr_declare)} units a "
                     f"deal; playing the best setting: EV {sol.ev:+.3f}")
        lines.append(_declaring_note(sol))
        lines.append("if you play the hand instead, the best setting is")
    else:
        lines.append(f"{title}: the best setting"
                     + (f", statistically tied with {tied_text}" if tied else ""))
    width = max(len(r) for r in (sol.front, sol.middle, sol.back))
    for name, cards, category in zip(ROWS, (sol.front, sol.middle, sol.back), sol.categories):
        w, t, l = sol.row_rates[name]
        lines.append(f"  {name:7s} {sort_row(cards, category):{width}s}   "
                     f"{label(category):16s}win {_pct(w):>6s}  tie {_pct(t):>6s}  "
                     f"loss {_pct(l):>6s}")
    if sol.discards:
        lines.append("  " + row_line("discard", sol.discards, None, width))
    lines += _how_chosen(sol)
    if sol.pooled:
        lines.append("  the deals: real deals, with hands from the pool set in advance "
                     "(solver.pool)")

    lines.append(f"EV {sol.ev:+.3f} {_pm(sol.stderr)} units a deal")
    who = "the other player" if others == 1 else f"the {others} other players together"
    lines.append(f"  units: your net score in one deal, from {who} (docs/rules.md#scoring)")
    if sol.holdout:
        lines.append(f"  ±: one standard error; measured on {_deals(sol.holdout, new=True)}, not the "
                     f"{sol.samples} that chose the setting")
        lines.append(f"  (on those {sol.samples} it averaged {sol.ev_in_sample:+.3f}: a mean "
                     f"chosen among many, biased upward)")
    else:
        lines.append(f"  ±: one standard error over the {_deals(sol.samples)} that chose the "
                     f"setting")
        lines.append("  (an in-sample mean, biased upward: no new deals held out)")
    if sol.automatic_win and not sol.declare:
        lines.append(f"automatic win ({label(sol.automatic_win)}): play, do not declare: "
                     f"declaring EV {sol.ev_declare:+.3f} {_pm(sol.stderr_declare)} units a deal")
        lines.append(_declaring_note(sol))

    opp = " ".join(_pct(p) for p in sol.p_scoop)
    against = " ".join(_pct(p) for p in sol.p_scooped)
    word = scoop_word(rs)
    if word is not None:
        text = (f"shot {opp}   shot against you {against}" if word == "shot"
                else f"scoop {opp}   scooped {against}")
        if home_runs_count(rs, sol.players):
            text += f"   home run {_pct(sol.p_home_run)}"
        lines.append(text + f"   ({word}s: each opponent)")
    if any(any(row) for row in rs.row_bonus):
        lines.append(f"bonus units {sol.bonus_units:+.3f} a deal (bonus hands won minus paid)")

    if sol.samples < FEW_DEALS:
        lines.append(f"warning: {sol.samples} deal{'s' if sol.samples > 1 else ''} cannot "
                     f"tell settings apart (standard errors of fewer than {FEW_DEALS} deals "
                     f"mean little: use more samples)")
    if sol.alternatives:
        # Each rival's mean is on the deals that chose the best, where the best's own is
        # its in-sample mean, not the held-out EV above: the best is listed first on that
        # footing, so that no rival's mean is read beside the held-out EV (a rival could
        # look the better at a glance), and none is called an EV.
        held_out = (f" (its EV above is on {sol.holdout} new one{'s' if sol.holdout > 1 else ''})"
                    if sol.holdout else "")
        lines.append(f"next best, closest first, on the same {_deals(sol.samples)} as the "
                     f"best{held_out}:")
        lines.append("  mean on those deals; difference from the best (deal by deal) "
                     "± standard error")
        texts = [arrangement_text((a.front, a.middle, a.back), a.categories)
                 for a in sol.alternatives]
        best = arrangement_text((sol.front, sol.middle, sol.back), sol.categories)
        w = max(len(t) for t in texts + [best])
        marks = ["best"] + [f"{i}." for i in range(1, len(texts) + 1)]
        m = max(map(len, marks))
        lines.append(f"  {marks[0]:{m}s} {best:{w}s}   mean {sol.ev_in_sample:+.3f}")
        for mark, a, text in zip(marks[1:], sol.alternatives, texts):
            lines.append(f"  {mark:{m}s} {text:{w}s}   mean {a.ev:+.3f}   {a.diff:+.3f} "
                         f"{_pm(a.diff_stderr)}" + ("   tied" if a.tied else ""))
        if tied:
            lines.append(f"  tied: {tied_text} within 2 standard errors of the best "
                         f"(no telling them apart)")
        else:
            lines.append("  the best is ahead of each by more than 2 standard errors")
    return "\n".join(lines)


def _declaring_note(sol) -> str:
    """Where declaring's EV and the best setting's are measured (the same deals), and
    their means on the deals that decided between them."""
    if not sol.holdout:
        return f"  (both over the same {_deals(sol.samples)}, which decided)"
    return (f"  (both on {_deals(sol.holdout, new=True)}; on the {sol.samples} that "
            f"decided: declaring {sol.ev_declare_in_sample:+.3f}, playing "
            f"{sol.ev_in_sample:+.3f})")


def _how_chosen(sol) -> list[str]:
    """How the setting was chosen: exactly over fixed deals, or by adaptive sampling
    (anchored on the opponent model's own setting), and what it resolved."""
    scored = f"{sol.candidates} non-dominated arrangement{'s' if sol.candidates > 1 else ''}"
    rates = "win/tie/loss: each row against one opponent's"
    if sol.precision is None:
        return [f"  (exact among {scored} for its {_deals(sol.samples)};", f"  {rates})"]
    lines = [f"  ({scored} scored; {rates})"]
    if sol.anchored is None:
        lines.append(f"  chosen over {_deals(sol.samples)} ({sol.effort or 'adaptive'} "
                     f"sampling): the best mean of the arrangements left")
        against = "the leader"
    elif sol.anchored:
        lines.append(f"  chosen over {_deals(sol.samples)} ({sol.effort or 'adaptive'} "
                     f"sampling): the opponent model's own")
        lines.append("  setting; no rival led it by more than one standard error")
        against = "that setting"
    else:
        lines.append(f"  chosen over {_deals(sol.samples)} ({sol.effort or 'adaptive'} "
                     f"sampling): it led the opponent")
        lines.append("  model's own setting by more than one standard error")
        against = "the model's setting"
    rivals = (sol.in_running or 1) - 1
    if sol.capped:
        lines.append(f"  stopped at the cap of {_deals(sol.samples)}: {rivals} rival"
                     f"{'s' if rivals > 1 else ''} not yet resolved to ±{sol.precision:g} "
                     f"units against {against}")
    elif rivals:
        lines.append(f"  {rivals} rival{'s' if rivals > 1 else ''} left, {'each' if rivals > 1 else 'its'} "
                     f"difference from {against} resolved to ±{sol.precision:g} units (95%);")
        lines.append("  the others were shown worse")
    else:
        lines.append(f"  every rival was shown worse than {against} (95%)")
    return lines


# --- a row value, a settlement, a deal --------------------------------------------------------
def row_value_text(cards: str, value) -> str:
    """``Kh Kd Kc 9s 9d   full house   ranks K 9   value 10256384``: ``eval``'s output
    (the ranks that break ties, in order; the value that orders rows, docs/rules.md)."""
    ranks = f"   ranks {' '.join(value.ranks)}" if value.ranks else ""
    return (f"{sort_row(cards, value.category)}   {label(value.category)}{ranks}   "
            f"value {value.value}")


def settlement_pairs(settlement) -> list[str]:
    """The seat totals and pair-by-pair lines of ``str(Settlement)``."""
    lines = []
    for seat, (rows, score) in enumerate(zip(settlement.rows, settlement.scores)):
        lines.append(f"seat {seat}: {score:+d}   " + " | ".join(rows))
    for p in settlement.pairs:
        outcome = "/".join(p.rows)
        items = ", ".join(f"{what} {u:+d}" for what, u in p.items) or "nothing"
        lines.append(f"  seat {p.a} v seat {p.b}: {p.units:+d}  (rows {outcome}; {items})")
    return lines


def settlement_text(settlement, arrangements: Sequence[Sequence[str]],
                    categories: Sequence[Sequence[str]], declared=()) -> str:
    """Each seat's units and its rows (sorted, labelled), then the pair by pair breakdown."""
    lines = []
    width = max(len(r) for seat in arrangements for r in seat)
    for seat, (rows, cats, score) in enumerate(zip(arrangements, categories,
                                                   settlement.scores)):
        note = "   (declares an automatic win)" if seat in declared else ""
        fouled = any(r.startswith("FOULED") for r in settlement.rows[seat])
        note += "   (fouled)" if fouled else ""
        lines.append(f"seat {seat}: {score:+d} units{note}")
        for name, cards, cat in zip(ROWS, rows, cats):
            lines.append("  " + row_line(name, cards, cat, width))
    lines.append("pair by pair (units to the first seat):")
    lines += [line for line in settlement_pairs(settlement) if line.startswith("  ")]
    return "\n".join(lines)


def deal_text(rules: str, hands: Sequence[str], cut: Optional[str], seed: int,
              prog: str = "python -m solver") -> str:
    """A random deal: each seat's hand, sorted, and the command that solves seat 0's
    (``rules``: a rule set's name, or a rule-set file's path, as the command says it)."""
    rs = rule_set(rules)
    lines = [f"{rs.name} deal, seed {seed}: {len(hands)} players, {rs.cards_dealt} cards each"
             + (f", cut card {cut}" if cut else "")]
    for seat, hand in enumerate(hands):
        lines.append(f"  seat {seat}: {sort_row(hand, group=False)}")
    cut_opt = f" --cut {cut}" if cut else ""
    players = f" --players {len(hands)}" if len(hands) != rs.max_seats else ""
    hand = sort_row(hands[0], group=False)
    rules_opt = shlex.quote(str(rules)) if is_rule_file(rules) else rs.name
    lines.append(f"solve seat 0: {prog} \"{hand}\" --rules {rules_opt}{cut_opt}{players}")
    return "\n".join(lines)
