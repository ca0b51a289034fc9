"""The study page's Practice and Match tabs in a real browser (headless Chromium driven by
Playwright, against the real server on a free loopback port, as test_web_browser.py).

Practice: three hands are dealt and set (by clicking, and one from the keyboard alone),
and the tally is checked against ``solver.review`` of the same hands; after a reload the
session is still there; its export parses line by line as the hand-history format says
and re-grades to the same figures; imported back (with a bad line, reported and skipped)
it gives them again.  Match: a two-deal match against ``quick_set`` opponents, whose
ledger is checked against ``solver.settle`` of the same rows.  At a phone's width (390
px) nothing is wider than the screen and the cards keep a finger's size; every control
can be reached with Tab and has a label.  ``SOLVER_SCREENSHOTS=DIR`` saves
``practice.png``, ``match.png`` and ``match-phone.png`` there (``docs/`` holds them)."""
import json
import math
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="the study page needs the web extra")
CHROMIUM = os.environ.get("SOLVER_CHROMIUM", "/usr/bin/chromium")
if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
    pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run "
                f"installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the browser test drives Chromium with playwright")

import solver  # noqa: E402
from solver.sampling import deal_hands  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import load_server  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}
SLOW = 180_000                   # ms: a first request compiles the solver's kernels
KEYS = {"cards", "setting", "rules", "players", "cut", "id"}
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll("body *")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5)
        && !e.closest(".skip");
  }).map((e) => e.id || e.className || e.tagName)"""
# Visible controls of a panel without a name a screen reader can read, or out of Tab's reach.
UNLABELLED = """(panel) => [...document.querySelectorAll(`#${panel} button, #${panel} input,
    #${panel} select`)].filter((c) => c.getClientRects().length).filter((c) => {
      const name = (c.getAttribute("aria-label") || c.textContent || "").trim()
        || (c.labels && [...c.labels].map((l) => l.textContent).join("").trim());
      return !name || c.tabIndex < 0;
    }).map((c) => c.id || c.outerHTML.slice(0, 80))"""


@pytest.fixture(scope="module")
def browser():
    chromium = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    with load_server.serving() as url, sync_api.sync_playwright() as playwright, \
            tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1200, "height": 900}, accept_downloads=True)
        context.url = url
        yield context
        context.close()


def _open(browser, tab, viewport=None):
    page = browser.new_page()
    if viewport:
        page.set_viewport_size(viewport)
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{browser.url}#{tab}")
    page.wait_for_selector(f"#{'p' if tab == 'practice' else 'm'}-rules option", state="attached")
    return page


def _figures(reviews):
    """The session figures of the hand-history format, from the library's reviews."""
    n = len(reviews)
    total = sum(0 - r.diff for r in reviews)
    se = math.sqrt(sum((r.diff_stderr or 0.0) ** 2 for r in reviews))
    good = sum(bool(r.tied) for r in reviews)
    return dict(n=str(n), total=f"{total:.3f} ± {se:.3f}",
                mean=f"{total / n:.3f} ± {se / n:.3f}",
                best=f"{good} of {n} ({100 * good / n:.0f}%)")


def _shown(page, prefix):
    return {k: page.inner_text(f"#{prefix}-{k}") for k in ("n", "total", "mean", "best")}


def _hand(page, setter):
    return page.get_attribute(f"#{setter}", "data-hand") or " ".join(
        page.eval_on_selector_all(f"#{setter} .pool button.card",
                                  "bs => bs.map((b) => b.dataset.card)"))


def _set_by_clicking(page, setter, rows):
    for row, text in zip(("front", "middle", "back"), rows):
        page.click(f'#{setter} .target[data-slot="{row}"] .target-name')
        for card in text.split():
            page.locator(f'#{setter} .pool button[data-card="{card}"]').first.click()


def _read_history(text):
    """The hand-history lines of an export, read by the format's rules."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = json.loads(line)
        assert isinstance(item, dict) and set(item) <= KEYS, (number, item)
        assert isinstance(item["cards"], str) and isinstance(item["setting"], str)
        setting = item["setting"]
        if setting != "declare":
            rows = [r.strip() for r in setting.replace("|", "/").split("/")]
            assert len(rows) == 3 and [len(r.split()) for r in rows] == [3, 5, 5]
        lines.append(item)
    return lines


def _regrade(lines):
    return [solver.review(item["cards"], item["setting"], item.get("rules", "joker"),
                          item.get("cut"), players=item.get("players")) for item in lines]


def test_practise_three_hands_reload_export_and_import(browser, tmp_path):
    page = _open(browser, "practice")
    page.select_option("#p-rules", "pagat")
    page.select_option("#p-players", "2")
    reviews = []
    for k in range(3):
        page.click("#p-deal")
        page.wait_for_selector("#p-table:not([hidden])", timeout=SLOW)
        hand = _hand(page, "p-setter")
        assert len(hand.split()) == 13
        if k == 2:                     # the keyboard alone: Enter sets each card, then grades
            assert page.evaluate("document.activeElement.dataset.card") is not None
            for _ in range(13):
                page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.id") == "p-grade"
            page.keyboard.press("Enter")
        else:
            rows = solver.quick_set(hand, "pagat", players=2)
            if k == 1:                 # a weaker setting: the front and middle traded
                rows = (" ".join(rows[1].split()[:3]),
                        " ".join(rows[0].split() + rows[1].split()[3:]), rows[2])
            _set_by_clicking(page, "p-setter", rows)
            page.click("#p-grade")
        page.wait_for_function(f"() => document.getElementById('p-n').textContent === "
                               f"'{k + 1}'", timeout=SLOW)
        shown_setting = page.evaluate(
            "() => JSON.parse(localStorage.getItem('solver.practice.v1')).entries"
            f"[{k}].setting")
        reviews.append(solver.review(hand, shown_setting, "pagat", players=2))
        assert page.inner_text("#p-review .explanation") == reviews[-1].explanation
    assert _shown(page, "p") == _figures(reviews)
    assert page.locator("#p-history li").count() == 3
    if os.environ.get("SOLVER_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["SOLVER_SCREENSHOTS"], "practice.png"),
                        full_page=True)

    page.reload()                     # the session is kept by the browser
    page.wait_for_selector("#p-history li")
    assert _shown(page, "p") == _figures(reviews)
    page.click("#p-history li:nth-child(2) button")      # a past hand, seen again
    assert page.inner_text("#p-review .explanation") == reviews[1].explanation

    with page.expect_download() as done:
        page.click("#p-export")
    exported = tmp_path / "session.jsonl"
    done.value.save_as(exported)
    lines = _read_history(exported.read_text())
    assert len(lines) == 3
    again = _regrade(lines)
    assert [(r.diff, r.diff_stderr, r.tied) for r in again] == \
        [(r.diff, r.diff_stderr, r.tied) for r in reviews]
    assert _figures(again) == _figures(reviews)

    page.click("#p-reset")            # (its confirmation is accepted)
    assert page.inner_text("#p-n") == "0"
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(exported.read_text() + '{"cards": "As Kd", "setting": "x", "seat": 1}\n')
    page.set_input_files("#p-import", str(mixed))
    page.wait_for_function("() => document.getElementById('p-import-note').textContent",
                           timeout=SLOW)
    assert "3 hands added, 1 line skipped: mixed.jsonl line 4: unknown key seat" in \
        page.inner_text("#p-import-note")
    assert _shown(page, "p") == _figures(reviews)
    assert page.evaluate(UNLABELLED, "panel-practice") == []
    assert page.problems == []
    page.close()


def test_a_two_deal_match_settles_as_the_library_does(browser, tmp_path):
    page = _open(browser, "match")
    rules, players, seed = "pagat", 3, 11
    page.select_option("#m-rules", rules)
    page.select_option("#m-players", str(players))
    page.select_option("#m-opponents", "quick")
    page.fill("#m-deals", "2")
    page.fill("#m-seed", str(seed))
    page.click("#m-start")
    totals, reviews = [0] * players, []
    for index in range(2):
        page.wait_for_selector("#m-table:not([hidden])", timeout=SLOW)
        assert f"seed {seed}" in page.inner_text("#m-status")
        hands, cut = deal_hands(solver.rule_set(rules), players, seed, index)
        assert sorted(_hand(page, "m-setter").split()) == sorted(hands[0].split())
        mine = solver.quick_set(hands[0], rules, players=players)
        if index == 1:                 # not the model's own setting: a foul (pagat scores it)
            mine = (mine[2].split()[0] + " " + " ".join(mine[0].split()[1:]), mine[1],
                    " ".join([mine[0].split()[0]] + mine[2].split()[1:]))
        _set_by_clicking(page, "m-setter", mine)
        page.click("#m-show")
        page.wait_for_function("() => !document.getElementById('m-showdown').hidden && "
                               f"document.querySelectorAll('#m-ledger tbody tr').length === "
                               f"{index + 1}", timeout=SLOW)
        rows = [mine] + [solver.quick_set(h, rules, players=players) for h in hands[1:]]
        settled = solver.settle(rows, rules, cut, detail=True)
        for s in range(players):
            totals[s] += settled.scores[s]
            shown = page.get_attribute(f"#m-seats .seat[data-seat='{s}'] "
                                       f".row-line[data-row=back]", "data-cards")
            assert sorted(shown.split()) == sorted(rows[s][2].split())    # face up
        units = page.eval_on_selector_all("#m-pairs li", "ls => ls.map((l) => "
                                          "[+l.dataset.a, +l.dataset.b, +l.dataset.units])")
        assert units == [[p.a, p.b, p.units] for p in settled.pairs]
        ledger = page.eval_on_selector_all("#m-ledger tfoot th[data-seat]",
                                           "ts => ts.map((t) => t.textContent)")
        assert ledger == [f"{t:+d}" for t in totals]
        reviews.append(solver.review(hands[0], " / ".join(mine), rules, players=players))
        if index == 0:
            if os.environ.get("SOLVER_SCREENSHOTS"):
                page.screenshot(path=os.path.join(os.environ["SOLVER_SCREENSHOTS"],
                                                  "match.png"), full_page=True)
            page.click("#m-next")
    page.wait_for_selector("#m-end:not([hidden])")
    assert _shown(page, "m") == _figures(reviews)
    assert page.is_hidden("#m-next")
    with page.expect_download() as done:
        page.click("#m-export")
    exported = tmp_path / "match.jsonl"
    done.value.save_as(exported)
    lines = _read_history(exported.read_text())
    assert [line["id"] for line in lines] == ["deal 1", "deal 2"]
    assert _figures(_regrade(lines)) == _figures(reviews)
    assert page.evaluate(UNLABELLED, "panel-match") == []
    page.click("#m-replay")            # the same seed: the same first hand again
    page.wait_for_selector("#m-table:not([hidden])", timeout=SLOW)
    hands, _ = deal_hands(solver.rule_set(rules), players, seed, 0)
    assert sorted(_hand(page, "m-setter").split()) == sorted(hands[0].split())
    assert page.locator("#m-ledger tbody tr").count() == 0
    assert page.problems == []
    page.close()


def test_a_phone_plays_a_match_deal_and_nothing_is_wider_than_the_screen(browser):
    page = _open(browser, "match", PHONE)
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    page.select_option("#m-rules", "joker")
    page.fill("#m-deals", "1")
    page.fill("#m-seed", "3")
    page.press("#m-seed", "Enter")                 # Enter starts the match
    page.wait_for_selector("#m-table:not([hidden])", timeout=SLOW)
    card = page.locator("#m-setter .pool button.card").first.bounding_box()
    assert card["width"] >= 38 and card["height"] >= 52          # a finger's size
    hands, _ = deal_hands(solver.rule_set("joker"), 4, 3, 0)
    _set_by_clicking(page, "m-setter", solver.quick_set(hands[0], "joker"))
    page.keyboard.press("Enter")                   # the last card sent the focus to Show down
    page.wait_for_selector("#m-end:not([hidden])", timeout=SLOW)
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if os.environ.get("SOLVER_SCREENSHOTS"):
        page.evaluate("document.getElementById('m-showdown').scrollIntoView()")
        page.screenshot(path=os.path.join(os.environ["SOLVER_SCREENSHOTS"],
                                          "match-phone.png"))
    page.click("#tab-practice")
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    assert page.problems == []
    page.close()


# --- for players: their words, and lines that do not break badly, at both widths ----------
DESKTOP = {"width": 1280, "height": 900}
CLASSIC = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"          # its best Front: high card
# The lines a text of each element takes (its text's boxes, by their tops).
TEXT_LINES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  })"""
# Separators of an arrangement with no card beside them on their line.
LONE_SEPARATORS = """(selector) => [...document.querySelectorAll(selector)].filter((item) =>
    [...item.querySelectorAll(".sep")].some((sep) => {
      const s = sep.getBoundingClientRect(), middle = (s.top + s.bottom) / 2;
      return ![...item.querySelectorAll(".card")].some((c) => {
        const r = c.getBoundingClientRect();
        return r.top <= middle && middle <= r.bottom;
      });
    })).length"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "390px"])
def test_the_page_speaks_to_players_and_its_lines_break_between_words(browser, viewport):
    page = _open(browser, "study", viewport)
    # The rules in a player's words: the deal and the scoring, no path into the docs.
    page.select_option("#rules", "classic")
    scoring = solver.rule_set("classic").summary().split("; ", 1)[1]
    assert page.inner_text("#rules-note").endswith(f"Scoring: {scoring}.")
    page.select_option("#samples", "200")
    page.fill("#hand-text", CLASSIC)
    page.press("#hand-text", "Enter")
    page.wait_for_selector("#result:not([hidden])", timeout=SLOW)
    names = page.eval_on_selector_all("#best-rows .hand-name", "es => es.map((e) => e.textContent)")
    assert "high card" in names
    assert page.evaluate(TEXT_LINES, "#best-rows .hand-name") == [1, 1, 1]
    text = page.evaluate("document.body.innerText")
    assert "docs/" not in text and ".md" not in text, "a path into the docs, shown as text"
    # Match opponents named for players.
    page.click("#tab-match")
    assert page.eval_on_selector_all("#m-opponents option", "os => os.map((o) => o.text)") \
        == ["quick (instant)", "strong", "strongest (slow)"]
    assert "quick_set" not in page.inner_text("#panel-match")
    # A hand played in Practice: its line in the history breaks between rows, never
    # leaving a "|" alone on a line.
    page.click("#tab-practice")
    page.click("#p-reset")
    page.select_option("#p-rules", "pagat")
    page.select_option("#p-players", "2")
    page.click("#p-deal")
    page.wait_for_selector("#p-table:not([hidden])", timeout=SLOW)
    _set_by_clicking(page, "p-setter", solver.quick_set(_hand(page, "p-setter"), "pagat",
                                                        players=2))
    page.click("#p-grade")
    page.wait_for_function("() => document.getElementById('p-n').textContent === '1'",
                           timeout=SLOW)
    assert page.locator("#p-history .sep").count() == 2
    assert page.evaluate(LONE_SEPARATORS, "#p-history .history-item") == 0
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    assert page.problems == []
    page.close()
