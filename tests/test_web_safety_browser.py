"""The study page server's defences seen from a real browser (headless Chromium; the
set-up and its skips are tests/test_web_browser.py's), whose resolver maps the names
``evil.test`` and ``attacker.test`` to 127.0.0.1, as an attacker's DNS would:

* DNS rebinding: the page under ``evil.test`` is refused (403), and so is every request
  a script there makes to "its own" server;
* another origin's page (``attacker.test``) cannot start a training, neither with a
  ``no-cors`` POST of a Blob (no Content-Type) nor with a JSON POST (the preflight gets
  no CORS answer);
* the study page itself works under each of its names (Chromium sends ``Origin`` on
  its own POSTs), and its "Stop the training" button cancels a training.

The server and its worker processes train a long preset (tests/training_hook), stopped
long before it ends."""
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_web_browser import CHROMIUM, CHROMIUM_ARGS, sync_api, until  # noqa: E402
from test_web_training import HOOK, HOUSE  # noqa: E402

import httpx  # noqa: E402

import solver  # noqa: E402
import solver.training as training  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import load_server  # noqa: E402

RESOLVER = "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP attacker.test 127.0.0.1"
# Chromium's own defence of local addresses (Private Network Access) off, as in browsers
# that have none: what is refused here, the server refuses.
NO_PNA = ("--disable-features=BlockInsecurePrivateNetworkRequests,"
          "PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,"
          "LocalNetworkAccessChecks")
ATTACK = """async ([url, text]) => {
    const body = JSON.stringify({rules: "house", rules_file: text, players: 2});
    const outcome = {};
    try {
        await fetch(url + "api/rules/train", {method: "POST", mode: "no-cors",
                                              body: new Blob([body])});
        outcome.noCors = "sent";
    } catch (e) { outcome.noCors = "refused"; }
    try {
        const r = await fetch(url + "api/rules/train", {
            method: "POST", headers: {"Content-Type": "application/json"}, body});
        outcome.cors = r.status;
    } catch (e) { outcome.cors = "refused"; }
    return outcome;
}"""
SAME_ORIGIN_POST = """async (path) => {
    const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify({rules: "pagat", seed: 3})});
    return [r.status, await r.json()];
}"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """(Chromium, the server's URL): a fresh browser whose resolver is the attacker's."""
    chromium = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOLVER_TEST_TRAINING", "30,20000,100")     # minutes: stopped before
        patch.setitem(training.PRESETS, "default", training.Preset(30, 20000))  # (its ids)
        patch.setenv("PYTHONPATH", os.pathsep.join(
            [str(HOOK)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        patch.setenv("SOLVER_CACHE_DIR", str(cache))
        with load_server.serving() as url, sync_api.sync_playwright() as playwright, \
                tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=chromium, headless=True,
                args=CHROMIUM_ARGS + [RESOLVER, NO_PNA], viewport={"width": 1200, "height": 900})
            try:
                yield context, url
            finally:
                context.close()


def port_of(url: str) -> int:
    return int(url.rstrip("/").rsplit(":", 1)[1])


def test_a_rebound_name_gets_nothing_from_the_server(browser):
    context, url = browser
    port = port_of(url)
    tab = context.new_page()
    response = tab.goto(f"http://evil.test:{port}/")
    assert response.status == 403
    assert response.json()["error"].startswith(f"Host: evil.test:{port}: not an address "
                                               f"this server is served at")
    # A script on a page under that name (here handed to the browser as if it came from
    # there) asking "its own" server: refused, and it can read why.
    tab.route(f"http://evil.test:{port}/", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>x</title>"))
    tab.goto(f"http://evil.test:{port}/")
    status, answer = tab.evaluate(SAME_ORIGIN_POST, "/api/deal")
    assert status == 403 and answer["error"].startswith(f"Host: evil.test:{port}: ")
    tab.close()


def test_another_origins_page_cannot_start_a_training(browser):
    context, url = browser
    tab = context.new_page()
    tab.route("http://attacker.test/", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>x</title>"))
    tab.goto("http://attacker.test/")
    rules = HOUSE.replace("penalty = 6", "penalty = 8")
    outcome = tab.evaluate(ATTACK, [url, rules])
    assert outcome["cors"] == "refused"            # (no CORS answer: the browser refuses)
    tab.close()
    # The server started nothing: it knows no training of those rules.
    path = training.model_path(solver.RuleSet.from_toml(rules), 2)
    assert httpx.get(url + f"api/rules/train/{path.stem}", timeout=30).status_code == 404


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_the_study_page_works_under_its_own_names(browser, name):
    context, url = browser
    tab = context.new_page()
    problems = []
    tab.on("console", lambda m: m.type == "error" and problems.append(m.text))
    tab.goto(f"http://{name}:{port_of(url)}/")
    tab.wait_for_selector("#deck button.card")
    status, answer = tab.evaluate(SAME_ORIGIN_POST, "/api/deal")    # (Origin sent)
    assert status == 200 and answer["seed"] == 3
    tab.click("#random-deal")
    until(tab, """() => {
        const [held, dealt] = document.getElementById("hand-count").textContent.split(" of ");
        return held === dealt; }""", seconds=60)
    assert problems == []
    tab.close()


def test_the_page_stops_a_training(browser):
    context, url = browser
    tab = context.new_page()
    tab.goto(url)
    tab.wait_for_selector("#deck button.card")
    tab.click("#rules-file summary")
    tab.fill("#rules-file-text", HOUSE)
    tab.click("#rules-file-use")
    tab.wait_for_selector('#rules option[value="house"]', state="attached")
    tab.select_option("#players", "2")
    tab.wait_for_selector("#training-cancel:not([hidden])", timeout=240_000)
    tab.click("#training-cancel")
    until(tab, "() => document.getElementById('training-text').textContent"
               ".includes('was stopped')", seconds=60)
    assert tab.inner_text("#training-text") == (
        "Training the opponent model of house (2 players) was stopped; nothing of it is "
        "kept.")
    assert tab.is_hidden("#training-cancel") and tab.is_hidden("#training-bar")
    path = training.model_path(solver.RuleSet.from_toml(HOUSE), 2)
    status = httpx.get(url + f"api/rules/train/{path.stem}", timeout=30).json()
    assert status["state"] == "cancelled"
    tab.close()
