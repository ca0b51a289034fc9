"""The study page trains the opponent model of a rules file that has none, in a real
browser (the set-up and its skips are tests/test_web_browser.py's): loaded, the file's
rule set shows that its model is being trained, deal by deal with a progress bar, while
the page stays usable; a solve asked for meanwhile waits for it, then shows the
library's answer under the trained model.  ``SOLVER_SCREENSHOT_TRAINING=path`` saves a
picture of the progress there (``docs/training-progress.png`` was made so).

The server and its worker processes train a small preset (tests/training_hook)."""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_web_browser import study_page  # noqa: E402
from test_web_training import HOOK  # noqa: E402

import solver  # noqa: E402
import solver.training as training  # noqa: E402

PRESET, CHUNK = (2, 5000), 250        # 15,000 deals, 250 at a time: seconds, step by step
HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
HOUSE = solver.rule_set("classic").to_toml().replace(
    'name = "classic"', 'name = "our house"').replace("penalty = 4", "penalty = 5")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOLVER_TEST_TRAINING", ",".join(map(str, PRESET + (CHUNK,))))
        patch.setenv("PYTHONPATH", os.pathsep.join(
            [str(HOOK)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        patch.setenv("SOLVER_CACHE_DIR", str(cache))
        patch.setitem(training.PRESETS, "default", training.Preset(*PRESET))
        with study_page(viewport=(1000, 700)) as tab:
            yield tab


@pytest.mark.slow
def test_a_new_rules_file_shows_its_training_then_solves(page):
    page.click("#rules-file summary")
    page.fill("#rules-file-text", HOUSE)
    page.click("#rules-file-use")
    page.wait_for_selector('#rules option[value="our house"]', state="attached")
    page.select_option("#players", "2")
    # The training shows, deal by deal: a count of the deals and a bar that fills.
    page.wait_for_function("""() => {
        const bar = document.getElementById("training-bar");
        return !document.getElementById("training").hidden && bar.hasAttribute("value")
            && bar.value > 0 && bar.value < bar.max; }""", timeout=240_000)
    text = page.inner_text("#training-text")
    assert text.startswith("No opponent model for our house (2 players) yet: the server is "
                           "training one by self-play, once. Deal ")
    assert f" of {(PRESET[0] + 1) * PRESET[1]:,}" in text
    assert page.get_attribute("#training-bar", "max") == str((PRESET[0] + 1) * PRESET[1])
    assert page.is_visible("#training-cancel")            # (Stop the training)
    if os.environ.get("SOLVER_SCREENSHOT_TRAINING"):
        # (Once the time left is estimated: from the third round on.)
        page.wait_for_function("""() =>
            document.getElementById("training-text").textContent.endsWith(" left.")""",
            timeout=240_000)
        page.locator("#game").screenshot(path=os.environ["SOLVER_SCREENSHOT_TRAINING"])
    # The page stays usable meanwhile: a hand is taken, and Solve waits for the model.
    page.select_option("#samples", "200")
    page.fill("#seed", "0")
    page.fill("#hand-text", HAND)
    page.click("#use-text")
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])", timeout=240_000)
    assert page.inner_text("#training-text").startswith(
        "Trained the opponent model of our house (2 players) in ")
    assert page.is_hidden("#training-bar")
    rs = solver.RuleSet.from_toml(HOUSE)
    sol = solver.solve(HAND, rs, samples=200, seed=0, players=2, top=5)   # the same model
    shown = {row: page.get_attribute(f"#best-rows .row-line[data-row={row}]", "data-cards")
             for row in ("front", "middle", "back")}
    assert shown == dict(front=sol.front, middle=sol.middle, back=sol.back)
    assert page.inner_text("#ev").startswith(f"EV {sol.ev:+.3f}")
    # The news goes after a while (it stayed up for good), and a page that did not watch
    # the training (a new tab, another browser) does not show it at all.
    page.wait_for_selector("#training", state="hidden", timeout=30_000)
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#deck button.card")
    other.click("#rules-file summary")
    other.fill("#rules-file-text", HOUSE)
    other.click("#rules-file-use")
    other.wait_for_selector('#rules option[value="our house"]', state="attached")
    other.select_option("#players", "2")
    other.wait_for_timeout(1500)                      # (its look at the model: ready)
    assert other.is_hidden("#training")
    other.close()
    assert page.problems == []
