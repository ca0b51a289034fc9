"""The study page in a real browser: headless Chromium (Debian's ``chromium`` package)
driven by Playwright against the real server on a free loopback port.  It picks a hand
by clicking the deck, solves it and checks the rows shown against ``solver.solve`` for
the same arguments; sets its own rows by clicking and checks the review shown against
``solver.review``; and saves a screenshot (``SOLVER_SCREENSHOT=path`` saves one there
too: ``docs/study-page.png`` was made so); and at a phone's width (390 x 844) checks that
nothing is wider than the screen, that Enter solves and the answer is scrolled into view,
that the paste box takes every notation (emoji suits, no separators), and saves
``SOLVER_SCREENSHOT_PHONE=path`` (``docs/study-page-phone.png``).  Skipped, saying why,
where Chromium or Playwright is missing; ``.ci/run`` installs Chromium, so CI runs it."""
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import load_server  # noqa: E402

HAND = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"     # both As, a joker
MINE = ("Ks Kd Qh", "As As Jk 2h 3c", "Qc Jd Td 9c 8c")            # a dominated setting
SAMPLES, SEED = 200, 0
# Debian's chromium, fresh and quiet: no first-run pages, no network of its own.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@contextlib.contextmanager
def study_page(viewport=(1200, 900)):
    """The study page served on a free loopback port, open in a fresh headless Chromium
    of ``viewport`` (width, height), its deck drawn; ``tab.problems`` collects the page's
    console errors and uncaught exceptions."""
    chromium = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    with load_server.serving() as url, sync_api.sync_playwright() as playwright, \
            tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": viewport[0], "height": viewport[1]})
        tab = browser.new_page()
        tab.problems = []
        tab.on("console", lambda m: m.type == "error" and tab.problems.append(m.text))
        tab.on("pageerror", lambda e: tab.problems.append(str(e)))
        tab.goto(url)
        tab.wait_for_selector("#deck button.card")
        try:
            yield tab
        finally:
            browser.close()


@pytest.fixture(scope="module")
def page():
    with study_page() as tab:
        yield tab


def _shown_rows(tab, container):
    return {row: tab.get_attribute(f"{container} .row-line[data-row={row}]", "data-cards")
            for row in ("front", "middle", "back", "discard")}


def test_click_a_hand_solve_it_and_grade_your_own_setting(page, tmp_path):
    page.select_option("#rules", "joker")
    page.select_option("#samples", str(SAMPLES))
    page.fill("#seed", str(SEED))
    copies = Counter()
    for card in HAND.split():                  # the deck picture: the second As, a joker
        copies[card] += 1
        page.click(f'#deck button[data-card="{card}"][data-copy="{copies[card]}"]')
    assert page.inner_text("#hand-count") == "17 of 17"
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])", timeout=120_000)

    cards = solver.format_cards(solver.parse_cards(HAND, "joker"))    # as the page sends it
    sol = solver.solve(cards, "joker", samples=SAMPLES, seed=SEED, players=4, top=5)
    shown = _shown_rows(page, "#best-rows")            # the library's rows, in its order
    assert shown == dict(front=sol.front, middle=sol.middle, back=sol.back,
                         discard=sol.discards)
    assert page.inner_text("#ev") == f"EV {sol.ev:+.3f} ± {sol.stderr:.3f} units a deal"
    assert page.locator("#alternatives tbody tr").count() == len(sol.alternatives)
    # Closest rival first, by its paired difference from the best, with the deals compared.
    closest = max(sol.alternatives, key=lambda a: a.diff)
    first = page.locator("#alternatives tbody tr").first.locator("td")
    assert first.nth(2).inner_text() == f"{closest.diff:+.3f} ± {closest.diff_stderr:.3f}"
    assert first.nth(3).inner_text() == str(closest.samples)
    shown = [float(t.split()[0]) for t in
             page.locator("#alternatives tbody td.diff").all_inner_texts()]
    assert shown == sorted(shown, reverse=True)

    for row, text in zip(("front", "middle", "back"), MINE):
        page.click(f'.target[data-row="{row}"] .target-name')
        for card in text.split():
            page.locator(f'#pool button[data-card="{card}"]').first.click()
    page.click("#grade")
    page.wait_for_selector("#review:not([hidden])", timeout=120_000)
    r = solver.review(cards, MINE, "joker", samples=SAMPLES, seed=SEED, players=4)
    assert r.dominated_by is not None                      # so the page shows that too
    assert page.inner_text("#review-diff") == f"{r.diff:+.3f} ± {r.diff_stderr:.3f}"
    assert page.inner_text("#review-ev") == f"{r.ev:+.3f} ± {r.stderr:.3f}"
    assert page.inner_text("#review-rank") == str(r.rank)
    assert page.inner_text("#review-choices") == str(r.choices)
    assert page.inner_text("#review-explanation") == r.explanation
    assert page.is_visible("#review-dominated")
    mine = _shown_rows(page, "#review-mine")
    assert mine == dict(front=r.front, middle=r.middle, back=r.back, discard=r.discards)
    assert all(Counter(mine[row].split()) == Counter(text.split())       # my own cards
               for row, text in zip(("front", "middle", "back"), MINE))

    shot = tmp_path / "study-page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("SOLVER_SCREENSHOT"):
        page.screenshot(path=os.environ["SOLVER_SCREENSHOT"], full_page=True)
    assert page.problems == []                  # no script error, nothing blocked


def test_bad_input_shows_the_librarys_message_next_to_the_paste_box(page):
    page.select_option("#rules", "classic")
    page.fill("#hand-text", "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c Zz")
    page.click("#use-text")
    page.wait_for_selector("#error-hand:not([hidden])", timeout=60_000)
    with pytest.raises(ValueError) as e:
        solver.format_cards("As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c Zz")
    assert page.inner_text("#error-hand") == " ".join(str(e.value).split())
    assert page.is_hidden("#error")                     # not a banner at the top


def until(tab, script, arg=None, seconds=30):
    """Wait until ``script`` (a function) is true in the page, asking from here: the
    page's Content-Security-Policy stops Playwright's own polling (it evaluates strings)."""
    for _ in range(seconds * 10):
        if tab.evaluate(script, arg):
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {script}")


PHONE = {"width": 390, "height": 844}
DRAGON = "A♠️ K♠️ Q♥️ J♦️ T♦️ 9♣️ 8♣️ 7♥️ 6♥️ 5♠️ 4♦️ 3♣️ 2♥️"    # emoji suits (U+FE0F)
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll("body *")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5)
        && !e.closest(".skip");
  }).map((e) => e.id || e.className || e.tagName)"""
IN_VIEW = """(id) => { const r = document.getElementById(id).getBoundingClientRect();
  return r.top >= 0 && r.top < window.innerHeight; }"""


def test_a_phone_solves_from_the_keyboard_and_nothing_is_wider_than_the_screen(page):
    tab = page.context.new_page()
    tab.problems = []
    tab.on("pageerror", lambda e: tab.problems.append(str(e)))
    tab.set_viewport_size(PHONE)
    tab.goto(page.url)
    tab.wait_for_selector("#deck button.card")
    assert tab.evaluate(WIDER_THAN_THE_SCREEN) == []
    card = tab.locator("#deck button.card").first.bounding_box()
    assert card["width"] >= 36 and card["height"] >= 44            # a finger's size
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    tab.select_option("#rules", "classic")
    tab.select_option("#samples", "200")
    tab.fill("#seed", "7")
    tab.fill("#hand-text", DRAGON)
    tab.press("#hand-text", "Enter")                      # takes the text and solves
    tab.wait_for_selector("#result:not([hidden])", timeout=120_000)
    until(tab, IN_VIEW, "result")   # scrolled to the answer
    sol = solver.solve(DRAGON, "classic", samples=200, seed=7, players=4, top=5)
    assert tab.get_attribute("#best-rows .row-line[data-row=back]", "data-cards") == sol.back
    assert sol.automatic_win and tab.is_visible("#declare")   # a hand that has one
    assert tab.evaluate(WIDER_THAN_THE_SCREEN) == []
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if os.environ.get("SOLVER_SCREENSHOT_PHONE"):
        tab.evaluate("window.scrollTo(0, 0)")
        tab.screenshot(path=os.environ["SOLVER_SCREENSHOT_PHONE"], full_page=True)

    # The same deck and hand size: the hand stays.
    tab.select_option("#rules", "classic:eastern")
    assert tab.inner_text("#hand-count") == "13 of 13"
    # No separators; and a hand without an automatic win has no Declare button.
    tab.fill("#hand-text", "AsKdQh9s9c8c7h6h5s5d3d3c2d")
    tab.click("#use-text")
    until(tab, "() => document.getElementById('hand-count').textContent === '13 of 13' "
               "&& document.getElementById('declare').hidden")
    # An empty Seed is a random one, shown; Enter there solves.
    tab.fill("#seed", "")
    tab.press("#seed", "Enter")
    tab.wait_for_selector("#result:not([hidden])", timeout=120_000)
    assert tab.input_value("#seed").isdigit()
    # From the paste box, a few Tabs and the skip link reach Solve, not the deck's cards.
    tab.focus("#hand-text")
    for _ in range(5):
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement.id") == "skip-deck":
            break
    tab.keyboard.press("Enter")
    assert tab.evaluate("document.activeElement.id") == "solve"
    # A bad card: the library's message, next to the paste box, in view.
    tab.fill("#hand-text", "As Kd Zz")
    tab.press("#hand-text", "Enter")
    tab.wait_for_selector("#error-hand:not([hidden])", timeout=60_000)
    until(tab, IN_VIEW, "error-hand")
    # The two spades of a doubled deck are told apart by name.
    tab.select_option("#rules", "joker")
    names = tab.eval_on_selector_all('#deck button[data-card="As"]',
                                     "bs => bs.map((b) => b.getAttribute('aria-label'))")
    assert len(set(names)) == 2
    assert tab.problems == []
    tab.close()


def _grade(page, rows):
    page.click("#clear-rows")
    for row, text in zip(("front", "middle", "back"), rows):
        page.click(f'.target[data-row="{row}"] .target-name')
        for card in text.split():
            page.locator(f'#pool button[data-card="{card}"]').first.click()
    page.evaluate('document.querySelector("#review").hidden = true')
    page.click("#grade")
    page.wait_for_selector("#review:not([hidden])", timeout=120_000)


def test_the_review_reads_a_foul_as_a_foul_and_ranks_within_its_count(page):
    page.problems.clear()                 # (the test before ends on a refused request)
    page.select_option("#rules", "joker")
    page.select_option("#samples", str(SAMPLES))
    page.fill("#seed", str(SEED))
    page.fill("#hand-text", HAND)
    page.click("#use-text")
    cards = solver.format_cards(solver.parse_cards(HAND, "joker"))
    # A dominated setting, worse than every choice: "Rank 15 of 15: yours and the 14".
    _grade(page, MINE)
    r = solver.review(cards, MINE, "joker", samples=SAMPLES, seed=SEED, players=4)
    assert r.ranked_among == r.choices + 1 and r.rank <= r.ranked_among
    shown = " ".join(page.inner_text("#review-numbers").split())
    assert (f"Rank {r.rank} of {r.ranked_among}: yours and the {r.choices} choices worth "
            f"considering.") in shown
    best = r.best                   # the best's average here, and its held-out EV, named
    assert (f"on {best.holdout} new deals (held out) it averages {best.ev:+.3f} "
            f"± {best.stderr:.3f}") in page.inner_text("#review-held-out")
    # A foul the joker rules cannot play: no EV, difference or rank, only the foul.
    foul = ("As As Jk", "Ks Qh Jd Td 9c", "8c 7h 6h 5s 4d")          # middle > back
    _grade(page, foul)
    assert not page.is_visible("#review-numbers")
    assert page.inner_text("#review-foul") == ("Fouled: middle > back. The joker rules do "
                                               "not let a fouled setting be played.")
    text = page.inner_text("#review")
    assert "nothing" not in text and "none" not in text.lower().replace("none of", "")
    assert page.problems == []


def test_the_declare_note_compares_held_out_evs(page):
    page.problems.clear()
    dragon = "As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h"
    page.select_option("#rules", "classic")
    page.select_option("#samples", str(SAMPLES))
    page.fill("#seed", str(SEED))
    page.fill("#hand-text", dragon)
    page.click("#use-text")
    page.evaluate('document.querySelector("#result").hidden = true')
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])", timeout=120_000)
    sol = solver.solve(dragon, "classic", samples=SAMPLES, seed=SEED, players=4, top=5)
    assert sol.action == "declare"
    assert page.inner_text("#declare-note") == (
        f"Automatic win (dragon): declaring averages {sol.ev_declare:+.3f} ± "
        f"{sol.stderr_declare:.3f} a deal, the best setting played {sol.ev:+.3f}, both on "
        f"the same {sol.holdout} new deals: declare.")
    assert page.problems == []
