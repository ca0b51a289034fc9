"""The study page plays under a rule-set file of the user's own, in a real browser (the
set-up and its skips are tests/test_web_browser.py's): pasted, it joins the rule sets,
the page shows its name and summary, and a solve under it shows the library's answer;
loaded from a file, the box names the file and sums its rules up; a bad one gets one
line saying what is wrong."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_web_browser import page  # noqa: E402,F401  (the browser, with the page open)

import solver  # noqa: E402

HOUSE = solver.rule_set("classic").to_toml().replace('name = "classic"', 'name = "our table"')
HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"


def test_a_pasted_rules_file_is_played_under(page):  # noqa: F811
    page.click("#rules-file summary")
    page.fill("#rules-file-text", HOUSE.replace("majority_bonus = 1", "majority = 1"))
    page.click("#rules-file-use")
    page.wait_for_selector("#error-rules-file:not([hidden])", timeout=30_000)
    assert page.inner_text("#error-rules-file") == (
        "the rules file: [scoring] majority = 1: unknown key (did you mean 'majority_bonus'?)")
    assert [p for p in page.problems if "400 (Bad Request)" not in p] == []
    page.problems.clear()                    # (the browser logs the refused request)

    page.fill("#rules-file-text", HOUSE)
    page.click("#rules-file-use")
    page.wait_for_selector('#rules option[value="our table"]', state="attached")
    assert page.input_value("#rules") == "our table"
    note = page.inner_text("#rules-note")          # its name, its deal, its scoring
    assert note.startswith("our table: 13 cards dealt; ")
    assert note.endswith(f"Scoring: {solver.rule_set('classic').summary().split('; ')[1]}.")

    page.select_option("#samples", "200")
    page.fill("#seed", "0")
    page.fill("#hand-text", HAND)
    page.click("#use-text")
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])", timeout=120_000)
    rs = solver.RuleSet.from_toml(HOUSE)
    sol = solver.solve(HAND, rs, samples=200, seed=0, players=4, top=5)
    shown = {row: page.get_attribute(f"#best-rows .row-line[data-row={row}]", "data-cards")
             for row in ("front", "middle", "back")}
    assert shown == dict(front=sol.front, middle=sol.middle, back=sol.back)
    assert page.inner_text("#headline").startswith("our table, 4 players: the best setting")
    assert page.problems == []


def test_a_loaded_rules_file_is_named_and_summed_up_and_a_bad_one_refused(page):  # noqa: F811
    kitchen = HOUSE.replace('name = "our table"', 'name = "kitchen table"').replace(
        "majority_bonus = 1", "majority_bonus = 2")
    if not page.is_visible("#rules-file-text"):
        page.click("#rules-file summary")
    page.set_input_files("#rules-file-pick", files=[dict(
        name="kitchen.toml", mimeType="text/plain", buffer=kitchen.encode())])
    # (The file pasted before is still in play, and said so, until this one is taken.)
    page.wait_for_selector('#rules-file-loaded:not([hidden]):has-text("kitchen.toml")')
    rs = solver.RuleSet.from_toml(kitchen)
    assert page.inner_text("#rules-file-loaded") == (
        f"Playing under kitchen table (from kitchen.toml): {rs.summary()}.")
    assert "+2 for two rows" in rs.summary()
    assert page.input_value("#rules") == "kitchen table"
    assert page.input_value("#rules-file-text") == kitchen
    # A bad file: one line saying what is wrong, and nothing said to be in play.
    page.set_input_files("#rules-file-pick", files=[dict(
        name="bad.toml", mimeType="text/plain",
        buffer=kitchen.replace("cards = 13", "cards = 12").encode())])
    page.wait_for_selector("#error-rules-file:not([hidden])")
    error = page.inner_text("#error-rules-file")
    assert error.startswith("the rules file: [deal] cards = 12") and "\n" not in error
    assert page.is_hidden("#rules-file-loaded")
    assert page.input_value("#rules") == "kitchen table"       # still the last good one
    assert [p for p in page.problems if "400 (Bad Request)" not in p] == []
    page.problems.clear()
