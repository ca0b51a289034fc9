"""The HTML page of a :class:`solver.session.SessionReport` (:meth:`~solver.session.SessionReport.to_html`).

One file that needs nothing else: the styles are inline, the cards are text (rank and
suit symbol) in CSS boxes, there is no script and no outside file, so the page opens
offline, is the same for the same report (no date in it), and prints.  Every text from
the hand history (ids, file names) is escaped.
"""
from __future__ import annotations

import html
from typing import Optional

from .display import label
from .review import DECLARE

_SUITS = {"s": ("♠", "k"), "h": ("♥", "r"), "d": ("♦", "r"), "c": ("♣", "k")}

_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d232a;
background:#f6f7f4}
main{max-width:960px;margin:0 auto;padding:16px}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em}
.headline{font-size:1.3em;font-weight:600;background:#fff;border-left:6px solid #2c7a4b;
padding:10px 14px;margin:12px 0}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:8px}
.figure{background:#fff;border:1px solid #d9ddd5;border-radius:6px;padding:8px 10px}
.figure b{display:block;font-size:1.2em}
.scroll{overflow-x:auto}
table{border-collapse:collapse;background:#fff;width:100%}
th,td{border-bottom:1px solid #e2e5de;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#eef0eb;font-weight:600}td.n{text-align:right;white-space:nowrap}
.def{color:#5b636b;font-size:.9em}
.mistake{background:#fff;border:1px solid #d9ddd5;border-radius:6px;padding:8px 10px;
margin:8px 0}
.rows{display:grid;grid-template-columns:4.5em 1fr;gap:4px 8px;align-items:center}
.cards{display:inline-flex;flex-wrap:wrap;gap:3px}.sep{margin:0 6px;color:#8a9199}
.card{display:inline-block;min-width:1.9em;padding:2px 3px;border:1px solid #9aa19a;
border-radius:4px;background:#fff;text-align:center;font-weight:600;
font-family:ui-monospace,Menlo,Consolas,monospace}
.card.r{color:#c0262d}.card.k{color:#1d232a}.card.j{color:#6a3fa0}
.cat{color:#5b636b;font-size:.85em;margin-left:4px}
.tag{display:inline-block;background:#fbeee0;border-radius:3px;padding:0 5px;margin:1px;
font-size:.85em}
.ok{color:#2c7a4b}.bad{color:#a3262b}
footer{color:#5b636b;font-size:.85em;margin-top:2em}
"""


def _card(name: str) -> str:
    if name.lower() == "jk":
        return '<span class="card j" title="joker">Jk</span>'
    rank, suit = name[:-1], name[-1].lower()
    symbol, colour = _SUITS[suit]
    shown = "10" if rank == "T" else rank
    return f'<span class="card {colour}" title="{html.escape(name)}">{shown}{symbol}</span>'


def _cards(text: str) -> str:
    return '<span class="cards">' + "".join(_card(c) for c in text.split()) + "</span>"


def _setting(setting: str, categories, discards: str = "") -> str:
    if setting == DECLARE:
        return "declare the automatic win"
    parts = []
    for row, category in zip(setting.split(" / "), categories):
        cat = f'<span class="cat">{html.escape(label(category))}</span>' if category else ""
        parts.append(_cards(row) + cat)
    out = '<span class="sep">/</span>'.join(parts)
    if discards:
        out += f'<span class="sep">discard</span>{_cards(discards)}'
    return out


def _pm(x: Optional[float], se: Optional[float], digits: int = 2) -> str:
    return "n/a" if x is None else f"{x:.{digits}f} ± {se:.{digits}f}"


def _e(x) -> str:
    return html.escape(str(x))


def report_html(report, costliest: int, patterns: dict, note: str = "") -> str:
    """The page (see the module's docstring); ``patterns``: the labels and definitions
    of the patterns by name (:data:`solver.session.PATTERNS`); ``note``: what holds for
    them all, said once above their table (:data:`solver.session.PATTERNS_NOTE`)."""
    r = report
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Session report: {_e(r.source)}</title><style>{_STYLE}</style></head>",
           "<body><main>", f"<h1>Session report: {_e(r.source)}</h1>",
           f'<p class="def">Each hand graded against the best setting on the same '
           f"{r.samples} sampled deals (seed {r.seed}).</p>",
           f'<p class="headline">{_e(r.headline[0].upper() + r.headline[1:])}.</p>',
           '<div class="figures">']

    def figure(name, value):
        out.append(f'<div class="figure">{_e(name)}<b>{_e(value)}</b></div>')

    figure("hands graded", r.hands)
    figure("best or tied", "n/a" if r.best_or_tied_rate is None
           else f"{r.best_or_tied} of {r.scored} ({r.best_or_tied_rate:.0%})")
    figure("EV lost in all (units)", _pm(r.total_loss if r.scored else None,
                                         r.total_loss_stderr))
    figure("EV lost a hand (units)", _pm(r.mean_loss, r.mean_loss_stderr, 3))
    if r.unplayable:
        figure("fouls that cannot be played (not scored)", r.unplayable)
    figure("lines skipped", len(r.skipped))
    out.append("</div>")
    out.append('<p class="def">± one standard error: each hand\'s loss is a paired '
               "difference on the same deals; the total's error treats the hands as "
               "independent.</p>")

    if r.patterns:
        out.append("<h2>Where your settings differ from the best</h2>")
        out.append('<p class="def">A hand may show several patterns; a pattern\'s cost is '
                   f"the loss of the hands that show it, so the costs overlap. {_e(note)}</p>")
        out.append('<div class="scroll"><table><tr><th>pattern</th><th>hands</th>'
                   "<th>cost (units)</th></tr>")
        for p in r.patterns:
            extra = (f'<br><span class="def">{p.unplayable} not scored</span>'
                     if p.unplayable else "")
            # (The definition under the name: a column of its own is too wide for a phone.)
            out.append(f'<tr><td>{_e(p.label)}<div class="def">{_e(p.definition)}</div></td>'
                       f"<td class=n>{p.count}{extra}</td>"
                       f"<td class=n>{_pm(p.cost, p.cost_stderr)}</td></tr>")
        out.append("</table></div>")

    worst = r.costliest(costliest)
    if worst:
        out.append("<h2>The costliest mistakes</h2>")
        for k, g in enumerate(worst, 1):
            tags = "".join(f'<span class="tag">{_e(patterns[p][0])}</span>'
                           for p in g.patterns)
            table = _e(g.rules) + (f", cut {_e(g.cut)}" if g.cut else "") + \
                f", {g.players} players"
            out.append(f'<div class="mistake"><b>{k}. {_e(hand_name(r, g))}</b> '
                       f'<span class="def">({table})</span> — cost '
                       f"<b>{_pm(g.loss, g.loss_stderr, 3)}</b> units a deal"
                       f"{' (tied)' if g.tied else ''} {tags}"
                       f'<div class="rows"><span>hand</span>{_cards(g.cards)}'
                       f"<span>yours</span><span>{_setting(g.setting, g.categories, g.discards)}"
                       f"</span><span>best</span><span>"
                       f"{_setting(g.best, g.best_categories, g.best_discards)}</span></div>"
                       f'<div class="def">python3 -m solver review \'{_e(g.cards)}\' '
                       f"--setting '{_e(g.setting)}' --rules {_e(g.rules)}"
                       + (f" --cut {_e(g.cut)}" if g.cut else "")
                       + f" --players {g.players} --samples {g.samples} --seed {g.seed}"
                       "</div></div>")

    if r.grades:
        out.append(f"<h2>Every hand</h2><details><summary>all {r.hands} hands</summary>"
                   '<div class="scroll"><table><tr><th>hand</th><th>yours / best</th>'
                   "<th>loss (units)</th><th></th></tr>")
        for g in r.grades:
            verdict = ('<span class="ok">best or tied</span>' if g.tied else
                       '<span class="bad">fouled: cannot be played</span>'
                       if g.loss is None else '<span class="bad">worse</span>')
            tags = "".join(f'<span class="tag">{_e(patterns[p][0])}</span>'
                           for p in g.patterns)
            out.append(f"<tr><td>{_e(hand_name(r, g))}</td><td>"
                       f"{_setting(g.setting, g.categories, g.discards)}<br>"
                       f"{_setting(g.best, g.best_categories, g.best_discards)}</td>"
                       f"<td class=n>{_pm(g.loss, g.loss_stderr, 3)}</td>"
                       f"<td>{verdict} {tags}</td></tr>")
        out.append("</table></div></details>")

    if r.skipped:
        out.append(f"<h2>Lines skipped ({len(r.skipped)})</h2><ul>")
        out += [f"<li>{_e(s)}</li>" for s in r.skipped]
        out.append("</ul>")
    out.append('<footer>Made by chinese-poker-solver (python3 -m solver review --batch). '
               "EV: your net score a deal, in units of the hand's rule set.</footer>")
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"


def hand_name(report, g) -> str:
    """``line 17 (id a7)``, or ``hand 3`` for the item of a sequence."""
    where = "hand" if report.source == "hands" else "line"
    return f"{where} {g.line}" + (f" (id {g.id})" if g.id != g.line else "")
