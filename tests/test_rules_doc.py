"""The rules documents and the code agree.

``docs/rules.md`` and ``docs/georgian.md`` state the rules for people; ``solver/rules.py``
and ``solver/georgian/rules.py`` hold the same numbers as data.  The tables of the
documents that carry numbers are marked with an HTML comment on the line above them,
``<!-- table: KIND [RULE SET ...] -->``, and are parsed here and compared with the data:
decks and deals, the ladder, bonus tables, scoring fields, automatic wins, and the
Georgian scoring table and deal schedules.  Every ``docs/...md#anchor`` cited in the
code, tests, README and benchmarks must be a heading of the document it names.
"""
import re
from pathlib import Path

import numpy as np
import pytest

import solver
from solver.cards import deck_codes
from solver.georgian import STANDARD_SCORING, VARIANTS, deal_score
from solver.rules import CATEGORIES, CATEGORY_INDEX, ROWS, RULE_SET_NAMES, RuleSet
from solver.tables import CATEGORY_SHIFT, row_tables

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES_DOC = DOCS / "rules.md"
GEORGIAN_DOC = DOCS / "georgian.md"

# The scoring fields of a RuleSet that a "fields" table may document.
SCORING_FIELDS = ("scoop_units", "home_run_units", "majority_bonus", "foul_penalty",
                  "foul_loses_rows", "front_trips_points", "shot_multiplier",
                  "home_run_multiplier")


# --- parsing ---------------------------------------------------------------------------
def _lines_outside_code(text: str):
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield line


def github_anchor(heading: str) -> str:
    """GitHub's anchor of a heading's text: lower case, punctuation dropped, spaces to
    hyphens (markup such as backticks is punctuation too)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())   # links: their text
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Anchors of every heading of a Markdown file (repeats get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    out = set()
    for line in _lines_outside_code(path.read_text(encoding="utf-8")):
        m = re.match(r"#{1,6} +(.*?) *#* *$", line)
        if not m:
            continue
        base = github_anchor(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def _clean(cell: str) -> str:
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)    # [text](link) -> text
    return cell.replace("`", "").replace("−", "-").strip()


def tables(path: Path) -> list[tuple[str, tuple[str, ...], list[dict[str, str]]]]:
    """Every marked table: (kind, rule-set names, rows as {header: cell})."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"<!-- table: (\S+)((?: \S+)*) -->", line.strip())
        if not m:
            continue
        body = []
        for row in lines[i + 1:]:
            if not row.startswith("|"):
                break
            body.append([_clean(c) for c in row.strip().strip("|").split("|")])
        header, rows = body[0], body[2:]
        assert all(len(r) == len(header) for r in rows), f"{path.name}: ragged table {m.group(0)}"
        out.append((m.group(1), tuple(m.group(2).split()), [dict(zip(header, r)) for r in rows]))
    return out


def marked(path: Path, kind: str):
    found = [(names, rows) for k, names, rows in tables(path) if k == kind]
    assert found, f"{path.name} has no table marked {kind!r}"
    return found


def _number(cell: str):
    if cell in ("yes", "no"):
        return cell == "yes"
    return int(cell)


def _distinct_rule_sets() -> list[RuleSet]:
    """Every registered rule set once (``classic:western`` is ``classic``)."""
    out: list[RuleSet] = []
    for name in RULE_SET_NAMES:
        rs = solver.rule_set(name)
        if all(rs is not other for other in out):
            out.append(rs)
    return out


def _documented_names(names: tuple[str, ...]) -> list[str]:
    return [solver.rule_set(n).name for n in names]


# --- docs/rules.md: decks and deals ----------------------------------------------------
def test_rule_set_table_matches_decks_and_deals():
    (_, rows), = marked(RULES_DOC, "rule-sets")
    assert sorted(r["rule set"] for r in rows) == ["bonus", "capsa-susun", "classic",
                                                    "classic-1-6", "joker", "mau-binh", "pagat",
                                                    "pusoy", "shisanshui", "two-jokers"]
    for row in rows:
        rs = solver.rule_set(row["rule set"])
        assert int(row["cards in the deck"]) == rs.deck_size == len(deck_codes(rs)), rs
        assert int(row["spade sets"]) == rs.spade_copies, rs
        assert int(row["jokers"]) == rs.jokers, rs
        assert _number(row["cut card"]) == rs.cut_card, rs
        assert tuple(int(p) for p in row["players"].split(",")) == rs.seats, rs
        assert int(row["cards dealt"]) == rs.cards_dealt, rs
        assert int(row["cards set"]) == rs.cards_kept, rs
        assert int(row["cards discarded"]) == rs.discards, rs


@pytest.mark.parametrize("scheme", ["classic:western", "classic:eastern", "classic:mandarin"])
def test_classic_schemes_share_the_classic_deal(scheme):
    rs, classic = solver.rule_set(scheme), solver.rule_set("classic")
    for field in ("spade_copies", "jokers", "cut_card", "cards_dealt", "seats",
                  "deal_all_unseen", "foul_penalty", "automatic_wins"):
        assert getattr(rs, field) == getattr(classic, field), field


# --- docs/rules.md: the ladder ---------------------------------------------------------
def _categories_made(rs: RuleSet) -> tuple[set[str], set[str]]:
    """(categories of any row, categories of a Front) the rule set's tables can produce."""
    t = row_tables(rs, 5 if rs.cut_card else -1)
    def names(ordinals):
        ordinals = np.unique(ordinals)
        ordinals = ordinals[ordinals > 0]
        return {CATEGORIES[v >> CATEGORY_SHIFT] for v in t.values[ordinals]}
    return names(np.concatenate([t.ord5.ravel(), t.ord3.ravel()])), names(t.ord3.ravel())


def test_ladder_table_is_the_category_order():
    (_, rows), = marked(RULES_DOC, "ladder")
    assert tuple(r["API name"] for r in rows) == CATEGORIES
    assert [int(r["#"]) for r in rows] == list(range(1, len(CATEGORIES) + 1))


def test_ladder_table_says_which_categories_each_rule_set_makes():
    (_, rows), = marked(RULES_DOC, "ladder")
    front_doc = {r["API name"] for r in rows if _number(r["Front"])}
    front_made = set()
    for name in ("joker", "bonus", "pagat", "classic"):
        made, front = _categories_made(solver.rule_set(name))
        assert {r["API name"] for r in rows if _number(r[name])} == made, name
        front_made |= front
    assert front_doc == front_made


# --- docs/rules.md: scoring ------------------------------------------------------------
def test_bonus_tables_match_row_bonus():
    documented = {}
    for names, rows in marked(RULES_DOC, "row-bonus"):
        table = [[0] * len(CATEGORIES) for _ in ROWS]
        for r in rows:
            row, category = ROWS.index(r["row"].lower()), CATEGORY_INDEX[r["category"]]
            assert table[row][category] == 0, f"{names}: {r} twice"
            table[row][category] = int(r["units"])
        for name in _documented_names(names):
            assert name not in documented, f"two bonus tables for {name}"
            documented[name] = tuple(tuple(t) for t in table)
    for rs in _distinct_rule_sets():
        if any(any(r) for r in rs.row_bonus):
            assert documented.get(rs.name) == rs.row_bonus, rs
        else:
            assert rs.name not in documented, rs


def test_field_tables_match_the_scoring_fields():
    documented: dict[str, set[str]] = {}
    for names, rows in marked(RULES_DOC, "fields"):
        for name in _documented_names(names):
            rs = solver.rule_set(name)
            for r in rows:
                assert r["field"] in SCORING_FIELDS, r
                assert _number(r["units"]) == getattr(rs, r["field"]), (name, r)
                documented.setdefault(name, set()).add(r["field"])
    defaults = RuleSet.__dataclass_fields__
    for rs in _distinct_rule_sets():
        for field in SCORING_FIELDS:
            if getattr(rs, field) != defaults[field].default:
                assert field in documented.get(rs.name, ()), f"{rs.name}: {field} undocumented"


def test_automatic_wins_table_matches():
    documented = {}
    for names, rows in marked(RULES_DOC, "automatic-wins"):
        for name in _documented_names(names):
            documented[name] = {r["API name"]: int(r["units from each opponent"]) for r in rows}
    for rs in _distinct_rule_sets():
        assert documented.get(rs.name, {}) == dict(rs.automatic_wins), rs


def _interpretation(title: str) -> str:
    """The text of the Interpretations item whose bold title starts with ``title``."""
    section = RULES_DOC.read_text(encoding="utf-8").split("## Interpretations", 1)[1]
    items = re.split(r"(?m)^\d+\. ", section.split("\n## ", 1)[0])
    found = [item for item in items if item.startswith(f"**{title}")]
    assert len(found) == 1, f"no single Interpretations item {title!r}"
    return " ".join(found[0].split())


def test_interpretations_are_numbered_in_order():
    section = RULES_DOC.read_text(encoding="utf-8").split("## Interpretations", 1)[1]
    numbers = [int(n) for n in re.findall(r"(?m)^(\d+)\. \*\*", section.split("\n## ", 1)[0])]
    assert numbers == list(range(1, len(numbers) + 1))


def test_the_mandarin_bonus_hands_are_listed_as_an_interpretation_with_the_codes_numbers():
    # The Mandarin text names no bonus hands: the choice is listed, with the numbers
    # solver/rules.py has, and they are the Eastern table's without its Front trips.
    text = _interpretation("Mandarin's bonus hands")
    stated = text.split("Middle ", 1)[1].split(". ", 1)[0]          # "full house 2, ..."
    middle, back = stated.split("; Back ")
    words = {"full house": "full_house", "quads": "quads", "straight flush": "straight_flush"}
    listed = [[0] * len(CATEGORIES) for _ in ROWS]
    for row, part in ((1, middle), (2, back)):
        for hand, units in re.findall(r"(full house|quads|straight flush) (\d+)", part):
            listed[row][CATEGORY_INDEX[words[hand]]] = int(units)
    mandarin, eastern = solver.rule_set("classic:mandarin"), solver.rule_set("classic:eastern")
    assert tuple(map(tuple, listed)) == mandarin.row_bonus
    without_front = (tuple(0 for _ in CATEGORIES),) + eastern.row_bonus[1:]
    assert mandarin.row_bonus == without_front
    assert f"Front trips ({eastern.row_bonus[0][CATEGORY_INDEX['trips']]})" in text


# --- docs/georgian.md ------------------------------------------------------------------
def test_georgian_scoring_fields_match():
    (_, rows), = marked(GEORGIAN_DOC, "scoring-fields")
    doc = {r["field"]: int(r["points"]) for r in rows}
    assert doc == {name: getattr(STANDARD_SCORING, name)
                   for name in STANDARD_SCORING.__dataclass_fields__}


def test_georgian_score_examples():
    (_, rows), = marked(GEORGIAN_DOC, "score-examples")
    for r in rows:
        assert deal_score(int(r["bid"]), int(r["tricks taken"]), int(r["cards each"])) \
            == int(r["points"]), r


def test_georgian_games_match_the_schedules():
    (_, rows), = marked(GEORGIAN_DOC, "games")
    assert {r["API name"] for r in rows} == set(VARIANTS)
    for r in rows:
        game = VARIANTS[r["API name"]]
        pulkas = tuple(tuple(int(x) for x in r[f"pulka {i}"].split()) for i in (1, 2, 3, 4))
        assert pulkas == game.pulkas
        assert int(r["deals"]) == len(game.deal_sizes)


# --- anchors ---------------------------------------------------------------------------
def _cited_files():
    yield ROOT / "README.md"
    for folder in ("solver", "tests", "benchmarks", "docs", "notebooks"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".md") and path.is_file():
                yield path


CITATION = re.compile(r"docs/(rules|georgian)\.md#([\w-]+)")
LOCAL_LINK = re.compile(r"\]\((rules\.md|georgian\.md)?#([\w-]+)\)")


def test_every_cited_anchor_is_a_heading():
    docs = {"rules": anchors(RULES_DOC), "georgian": anchors(GEORGIAN_DOC)}
    cited = 0
    for path in _cited_files():
        text = path.read_text(encoding="utf-8")
        for doc, anchor in CITATION.findall(text):
            cited += 1
            assert anchor in docs[doc], f"{path.relative_to(ROOT)} cites docs/{doc}.md#{anchor}"
        if path.parent == DOCS:
            for target, anchor in LOCAL_LINK.findall(text):
                doc = target[:-3] if target else path.stem
                assert anchor in docs[doc], f"{path.name} links {target}#{anchor}"
    assert cited > 0


@pytest.mark.parametrize("path", [RULES_DOC, GEORGIAN_DOC], ids=lambda p: p.name)
def test_contents_lists_every_section(path):
    text = path.read_text(encoding="utf-8")
    contents = text.split("## Contents", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"\]\(#([\w-]+)\)", contents))
    headings = set()
    for line in _lines_outside_code(text):
        m = re.match(r"#{2,3} +(.*)$", line)
        if m:
            headings.add(github_anchor(m.group(1)))
    assert listed == headings - {"contents"}


def test_github_anchor():
    assert github_anchor("What the solver optimises") == "what-the-solver-optimises"
    assert github_anchor("Rows and `joker`, bonus!") == "rows-and-joker-bonus"


# --- no pointers to documents outside the project --------------------------------------
# The rules live in docs/; nothing the project ships or tests may send a reader to the
# internal rule documents or issue numbers that users never see.
INTERNAL = re.compile(r"RULINGS|R§|\bS00\d\b|[Ss]eeds? ?0\d\d|/work/|\b[Ii]ssue \d")


def test_no_references_to_internal_documents():
    found = []
    for path in _cited_files():
        rel = path.relative_to(ROOT).as_posix()
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if INTERNAL.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
