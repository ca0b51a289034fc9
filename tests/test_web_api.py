"""The study page's JSON API, in process (FastAPI's TestClient): every endpoint answers
what the library answers for the same arguments, and every kind of bad input gets a 400
(or 413, 504) with a JSON message, never a 500 or a traceback."""
import json
import random
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")

from fastapi.testclient import TestClient  # noqa: E402

import solver  # noqa: E402
from solver.arena import deal_hands  # noqa: E402
from solver.display import sort_row  # noqa: E402
from solver.web import Limits, create_app  # noqa: E402
from solver.web.app import PAGE_RULE_SETS, STATIC  # noqa: E402

CLASSIC = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
JOKER = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"
BONUS = "Ah Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 5h 4d 3c 2s"
DRAGON = "As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h"
LIMITS = Limits(max_samples=300, timeout=60, max_body=4096)
LOCAL = "http://127.0.0.1"    # the Host the app answers to (the server's own address)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(LIMITS), base_url=LOCAL, raise_server_exceptions=False) as c:
        yield c


def plain(value):
    """A library result as the JSON the API sends."""
    return json.loads(value.to_json())


# --- every endpoint ---------------------------------------------------------------------------
def test_rules_list_the_rule_sets_with_their_decks(client):
    data = client.get("/api/rules").json()
    assert [rs["name"] for rs in data["rule_sets"]] == list(PAGE_RULE_SETS)
    assert data["max_samples"] == LIMITS.max_samples and data["version"] == solver.__version__
    by_name = {rs["name"]: rs for rs in data["rule_sets"]}
    joker = by_name["joker"]
    assert len(joker["deck"]) == 68 and joker["deck"].count("As") == 2
    assert joker["deck"].count("Jk") == 3 and joker["spade_sets"] == 2
    assert joker["cards_dealt"] == 17 and joker["players"] == [4] and not joker["cut_card"]
    assert by_name["bonus"]["cut_card"] and len(by_name["bonus"]["deck"]) == 65
    assert by_name["pagat"]["players"] == [2, 3, 4] and len(by_name["pagat"]["deck"]) == 52
    assert by_name["classic"]["automatic_wins"] and by_name["classic:mandarin"]["shots"]
    for name, rs in by_name.items():
        assert sorted(rs["deck"]) == sorted(solver.format_cards(
            solver.cards.deck_codes(name)).split())


@pytest.mark.parametrize("request_body, args", [
    (dict(cards=CLASSIC, rules="classic", samples=80, seed=3, top=2),
     (CLASSIC, "classic", None, dict(samples=80, seed=3, top=2))),
    (dict(cards=CLASSIC.split(), rules="pagat", players=2, samples=50),
     (CLASSIC.split(), "pagat", None, dict(samples=50, players=2))),
    (dict(cards=BONUS, rules="bonus", cut="7c", samples=60),
     (BONUS, "bonus", "7c", dict(samples=60))),
    (dict(cards=JOKER, rules="joker", samples=60, seed=1),
     (JOKER, "joker", None, dict(samples=60, seed=1))),
    (dict(cards=DRAGON, rules="classic:mandarin", samples=40),
     (DRAGON, "classic:mandarin", None, dict(samples=40))),
])
def test_solve_is_the_librarys_solve(client, request_body, args):
    response = client.post("/api/solve", json=request_body)
    assert response.status_code == 200
    cards, rules, cut, kwargs = args
    assert response.json() == plain(solver.solve(cards, rules, cut, **kwargs))


def test_solve_defaults_to_the_librarys_adaptive_sampling(client):
    data = client.post("/api/solve", json=dict(cards=CLASSIC, rules="classic")).json()
    assert data["precision"] is not None and data["effort"] == "fast"
    assert data == plain(solver.solve(CLASSIC, "classic"))


@pytest.mark.parametrize("players, effort", [(2, None), (2, "max"), (4, "max")])
def test_max_samples_caps_adaptive_sampling_too(players, effort):
    # A solve without samples= (either effort) runs to at most --max-samples deals, at
    # the effort's precision; it used to deal the library's cap (3,500 heads-up).
    cap = 30
    with TestClient(create_app(Limits(max_samples=cap)), base_url=LOCAL) as capped:
        data = capped.post("/api/solve", json=dict(cards=CLASSIC, rules="classic",
                                                   players=players, effort=effort)).json()
    assert data["samples"] <= cap and data["effort"] == (effort or "fast")
    precision = solver.solve.__globals__["EFFORTS"][effort or "fast"]["precision"][13]
    expected = plain(solver.solve(CLASSIC, "classic", players=players, samples=cap,
                                  precision=precision * (players - 1)))
    assert data == dict(expected, effort=effort or "fast")


def test_review_defaults_to_1000_deals_or_the_servers_cap(client):
    setting = "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s"
    data = client.post("/api/review", json=dict(cards=CLASSIC, setting=setting,
                                                rules="classic")).json()
    assert data["samples"] == min(1000, LIMITS.max_samples)


@pytest.mark.parametrize("request_body, args", [
    (dict(cards=CLASSIC, setting="As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s",
          rules="classic", samples=80),
     (CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic", None, {})),
    (dict(cards=JOKER, setting=["Ks Kd Qh", "As As Jk 2h 3c", "Qc Jd Td 9c 8c"],
          rules="joker", samples=80, seed=2),
     (JOKER, ["Ks Kd Qh", "As As Jk 2h 3c", "Qc Jd Td 9c 8c"], "joker", None, dict(seed=2))),
    (dict(cards=DRAGON, setting="declare", rules="classic", samples=80, players=3),
     (DRAGON, "declare", "classic", None, dict(players=3))),
    (dict(cards=JOKER, setting="As As Jk / Ks Qh Jd Td 9c / 8c 7h 6h 5s 4d", rules="joker",
          samples=80),
     (JOKER, "As As Jk / Ks Qh Jd Td 9c / 8c 7h 6h 5s 4d", "joker", None, {})),  # a foul
])
def test_review_is_the_librarys_review(client, request_body, args):
    response = client.post("/api/review", json=request_body)
    assert response.status_code == 200
    cards, setting, rules, cut, kwargs = args
    assert response.json() == plain(solver.review(cards, setting, rules, cut, samples=80,
                                                  **kwargs))


@pytest.mark.parametrize("text", ["A♠️ K♦️ Q♥️ J♣️", "AsKdQhJc", "as, kd, qh, jc",
                                  "A♠ K♦ Q♥ J♣", "Jk 10h"])
def test_cards_are_read_as_the_library_reads_them(client, text):
    # The page's paste box: every notation the command line takes (emoji suits with
    # U+FE0F, no separators), read by the library itself.
    data = client.post("/api/cards", json=dict(cards=text)).json()
    assert data == {"cards": solver.format_cards(text).split()}


def test_a_bad_card_gets_the_librarys_message(client):
    response = client.post("/api/cards", json=dict(cards="As Kd Zz"))
    assert response.status_code == 400
    assert response.json()["error"] == library_error(lambda: solver.format_cards("As Kd Zz"))


def test_deal_is_the_command_lines_deal(client):
    data = client.post("/api/deal", json=dict(rules="bonus", seed=3)).json()
    hands, cut = deal_hands(solver.rule_set("bonus"), 4, 3, 0)
    assert data == dict(rules="bonus", seed=3, players=4, cut=cut,
                        hands=[sort_row(h, group=False) for h in hands])
    random_deal = client.post("/api/deal", json=dict(rules="pagat", players=2)).json()
    again = client.post("/api/deal", json=dict(rules="pagat", players=2,
                                               seed=random_deal["seed"])).json()
    assert again == random_deal and len(random_deal["hands"]) == 2


def test_status_says_what_is_at_work(client):
    data = client.get("/api/status").json()
    assert data == dict(busy=0, waiting=0, compiling=False, compiling_for=None)


def test_status_says_how_long_a_first_request_has_been_compiling(client, monkeypatch):
    workers = client.app.state.solver.workers
    monkeypatch.setattr(workers, "compiling_since", lambda: time.time() - 3)
    data = client.get("/api/status").json()
    assert data["compiling"] is True and data["compiling_for"] >= 3


def test_the_page_and_its_assets_come_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/app.js" in page.text and "/static/style.css" in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    for name in ("app.js", "style.css", "index.html"):
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and asset.text == (STATIC / name).read_text()


def test_nothing_is_loaded_from_elsewhere():
    # Offline: no asset names another host (the only absolute URL would be a link).
    for path in Path(STATIC).iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), path.name
        assert "@import" not in text and "url(" not in text.replace("data:", ""), path.name


def test_the_api_is_described_by_an_openapi_schema(client):
    schema = client.get("/api/openapi.json").json()
    assert {"/api/rules", "/api/solve", "/api/review", "/api/deal", "/api/status"} <= \
        set(schema["paths"])
    fields = schema["components"]["schemas"]["ReviewRequest"]["properties"]
    assert {"cards", "setting", "rules", "rules_file", "cut", "players", "samples",
            "seed"} == set(fields)
    assert "/api/rules/file" in schema["paths"]
    assert client.get("/docs").status_code == 404        # its page would load a CDN's script


# --- bad input --------------------------------------------------------------------------------
def library_error(fn):
    with pytest.raises(ValueError) as e:
        fn()
    return " ".join(str(e.value).split())


LIBRARY_ERRORS = [
    ("/api/solve", dict(cards="As Kd", rules="classic"),
     lambda: solver.solve("As Kd", "classic")),
    ("/api/solve", dict(cards="Zz " + CLASSIC[3:], rules="classic"),
     lambda: solver.solve("Zz " + CLASSIC[3:], "classic")),
    ("/api/solve", dict(cards=CLASSIC.replace("Kd", "As"), rules="classic"),
     lambda: solver.solve(CLASSIC.replace("Kd", "As"), "classic")),
    ("/api/solve", dict(cards=BONUS, rules="bonus"), lambda: solver.solve(BONUS, "bonus")),
    ("/api/solve", dict(cards=BONUS, rules="bonus", cut="Ah"),
     lambda: solver.solve(BONUS, "bonus", "Ah")),
    ("/api/solve", dict(cards=JOKER, rules="joker", cut="4c"),
     lambda: solver.solve(JOKER, "joker", "4c")),
    ("/api/solve", dict(cards=CLASSIC, rules="classic", players=5),
     lambda: solver.solve(CLASSIC, "classic", players=5)),
    ("/api/solve", dict(cards=CLASSIC, rules="classic", samples=0),
     lambda: solver.solve(CLASSIC, "classic", samples=0)),
    ("/api/solve", dict(cards=CLASSIC, rules="classic", seed=-1),
     lambda: solver.solve(CLASSIC, "classic", seed=-1)),
    ("/api/solve", dict(cards=CLASSIC, rules="classic", top=-1, samples=5),
     lambda: solver.solve(CLASSIC, "classic", top=-1, samples=5)),
    ("/api/review", dict(cards=CLASSIC, rules="classic",
                         setting="As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5h"),
     lambda: solver.review(CLASSIC, "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5h", "classic")),
    ("/api/review", dict(cards=CLASSIC, rules="classic",
                         setting="As Kd 9c 3d / 3c Qh 5d 2d / 9s 8c 7h 6h 5s"),
     lambda: solver.review(CLASSIC, "As Kd 9c 3d / 3c Qh 5d 2d / 9s 8c 7h 6h 5s", "classic")),
    ("/api/review", dict(cards=CLASSIC, rules="classic",
                         setting="As Kd 9c / 3d 3c Qh 5d 9c / 9s 8c 7h 6h 5s"),
     lambda: solver.review(CLASSIC, "As Kd 9c / 3d 3c Qh 5d 9c / 9s 8c 7h 6h 5s", "classic")),
    ("/api/review", dict(cards=CLASSIC, rules="classic", setting="declare"),
     lambda: solver.review(CLASSIC, "declare", "classic")),
    ("/api/review", dict(cards=CLASSIC, rules="classic", setting=["As Kd 9c", "3d 3c"]),
     lambda: solver.review(CLASSIC, ["As Kd 9c", "3d 3c"], "classic")),
    ("/api/review", dict(cards=JOKER, rules="joker",
                         setting="As As As / 8c 7h 6h 5s 4d / Ks Qh Jd Td 9c"),
     lambda: solver.review(JOKER, "As As As / 8c 7h 6h 5s 4d / Ks Qh Jd Td 9c", "joker")),
    ("/api/deal", dict(rules="classic", players=9), None),
    ("/api/deal", dict(rules="classic", seed=-3), None),
]


@pytest.mark.parametrize("path, body, fn", LIBRARY_ERRORS,
                         ids=[f"{p[5:]}-{i}" for i, (p, _, _) in enumerate(LIBRARY_ERRORS)])
def test_bad_input_gets_400_with_the_librarys_message(client, path, body, fn):
    response = client.post(path, json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    if fn is not None:
        assert error == library_error(fn)
    assert "Traceback" not in response.text and error


@pytest.mark.parametrize("body, message", [
    ("not json", "the request body is not valid JSON"),
    ("[1, 2]", "the request body must be a JSON object"),
    ('"As Ks"', "the request body must be a JSON object"),
    ("", "the request body must be a JSON object"),
    ('{"rules": "classic"}', "cards: required"),
    ('{"cards": "As"}', "rules: required"),
    ('{"cards": 5, "rules": "classic"}', "cards"),
    ('{"cards": null, "rules": "classic"}', "cards"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "samples": 2.5}}',
     "samples: a whole number, not 2.5"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "samples": "100"}}', "samples"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "samples": true}}', "samples"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "players": "4"}}', "players"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "bogus": 1}}',
     "bogus: not a field this request takes"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "samples": 301}}',
     "samples=301: this server takes at most 300 (its --max-samples)"),
    (f'{{"cards": "{CLASSIC}", "rules": "classic", "samples": {10**30}}}', "at most 300"),
])
def test_a_body_the_endpoint_does_not_take_gets_400(client, body, message):
    response = client.post("/api/solve", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_wrong_method_and_unknown_path_get_json_errors(client):
    assert client.get("/api/solve").json() == {"error": "GET is not allowed on /api/solve"}
    response = client.get("/api/nothing")
    assert response.status_code == 404 and response.json() == {"error": "no such page: "
                                                                        "/api/nothing"}


def test_too_many_requests_at_once_get_a_json_503(client, monkeypatch):
    from solver.web import guard
    monkeypatch.setattr(guard, "MAX_IN_FLIGHT", 0)            # as if 64 were at work
    response = client.get("/api/rules")
    assert response.status_code == 503
    assert response.json() == {"error": "this server is answering 0 requests already; try "
                                        "again shortly"}


def test_a_body_larger_than_the_limit_gets_413(client):
    big = json.dumps(dict(cards="As " * 2000, rules="classic"))
    response = client.post("/api/solve", content=big, headers={"content-type":
                                                                 "application/json"})
    assert response.status_code == 413
    assert response.json() == {"error": "the request body is larger than this server's "
                                        "limit of 4096 bytes"}

    def chunks():                      # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b" " * 1000
    response = client.post("/api/solve", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 413 and "4096 bytes" in response.json()["error"]


def test_a_request_over_the_time_limit_gets_a_clear_answer_and_its_work_is_stopped():
    with TestClient(create_app(Limits(timeout=0.001)), base_url=LOCAL) as client:
        ready(client)
        workers = client.app.state.solver.workers
        (first,) = workers.alive
        response = client.post("/api/solve", json=dict(cards=JOKER, rules="joker",
                                                       samples=200))
        assert response.status_code == 504
        assert response.json()["error"] == ("the request took longer than this server's "
                                            "limit of 0.001 s (its --timeout); ask for fewer "
                                            "samples")
        # Its worker was killed, not left solving, and another takes its place.
        assert first.process.poll() is not None and first not in workers.alive
        assert client.get("/api/status").json()["busy"] == 0


def messages_first(monkeypatch, *first):
    """Make every worker's next messages ``first``, then its own."""
    from solver.web.workers import Workers
    real = Workers.receive
    queued = list(first)

    async def receive(self, worker):
        return queued.pop(0) if queued else await real(self, worker)
    monkeypatch.setattr(Workers, "receive", receive)


def ready(client):
    """Wait until the app's first worker process has started (as the server does before
    its first request, on a machine that is not this busy)."""
    workers = client.app.state.solver.workers
    for _ in range(600):
        if workers._idle is not None and not workers.idle.empty():
            return
        time.sleep(0.1)
    raise AssertionError("no worker started in 60 s")


def test_compiling_the_kernels_does_not_count_against_the_time_limit(monkeypatch):
    with TestClient(create_app(Limits(timeout=0.001)), base_url=LOCAL) as client:
        ready(client)
        messages_first(monkeypatch, ("compiling", time.time()))   # as on a first request
        response = client.post("/api/solve", json=dict(cards=CLASSIC, rules="classic",
                                                       samples=50))
    assert response.status_code == 200
    assert response.json() == plain(solver.solve(CLASSIC, "classic", samples=50))


def test_a_bug_is_a_500_without_a_traceback(monkeypatch):
    with TestClient(create_app(LIMITS), base_url=LOCAL, raise_server_exceptions=False) as client:
        ready(client)
        messages_first(monkeypatch, ("done", "bug", "Traceback ...\nRuntimeError: secret"))
        response = client.post("/api/solve", json=dict(cards=CLASSIC, rules="classic"))
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (the server's log says more)"}
    assert "secret" not in response.text


def test_fuzzed_bodies_get_200_or_400_and_never_500(client):
    # Field values of every JSON type (and near misses of good ones) in every endpoint.
    rng = random.Random(7)
    values = [None, True, False, 0, -1, 1, 3, 2.5, 10**20, -10**20, "", "x", "As", "Jk",
              "declare", "classic", "bonus", "4c", [], ["As"], {}, {"a": 1}, "ü♠", " " * 50,
              CLASSIC, JOKER, CLASSIC.split(), "9s 9c Kd / 3d 3c Qh As 2d / 8c 7h 6h 5s 5d",
              ["As Kd 9c", "3d 3c Qh 5d 2d", "9s 8c 7h 6h 5s"]]
    fields = {"/api/solve": ["cards", "rules", "cut", "players", "samples", "seed", "top"],
              "/api/review": ["cards", "setting", "rules", "cut", "players", "samples",
                              "seed"],
              "/api/deal": ["rules", "players", "seed"]}
    good = {"cards": CLASSIC, "rules": "classic", "samples": 3, "seed": 0,
            "setting": "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s"}
    for _ in range(150):
        path = rng.choice(list(fields))
        body = {f: good[f] for f in fields[path] if f in good and rng.random() < 0.7}
        for f in rng.sample(fields[path], rng.randint(1, 2)):
            body[f] = rng.choice(values)
        if isinstance(body.get("samples"), int) and body["samples"] > 5:
            body["samples"] = 5                      # keep it quick: the limit is tested above
        response = client.post(path, json=body)
        assert response.status_code in (200, 400), (path, body, response.text)
        if response.status_code == 400:
            assert response.json()["error"] and "Traceback" not in response.text


NAMED = [
    ("/api/solve", {"cards": "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"}),
    ("/api/review", {"cards": "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d",
                     "setting": "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s"}),
    ("/api/deal", {}),
    ("/api/rules/train", {}),
    ("/api/match/deal", {"seed": 1}),
    ("/api/match/showdown", {"seed": 1, "setting": "declare", "opponents": "fast"}),
]


@pytest.mark.parametrize("path, body", NAMED, ids=[p for p, _ in NAMED])
def test_rules_is_only_ever_a_registered_name(client, path, body, tmp_path):
    # solver.rule_set reads a path ending in .toml; every endpoint takes names only, and
    # says the same of a file that is there (whose text it never quotes) as of one that
    # is not, or of any other string.
    secret = tmp_path / "secret.toml"
    secret.write_text('registry = {token = "SECRET"}\n')
    answers = {}
    for rules in (str(secret), str(tmp_path / "missing.toml"), "secret.toml", "poker",
                  "../" * 8 + str(secret)[1:], str(tmp_path)):
        response = client.post(path, json={**body, "rules": rules})
        assert response.status_code == 400, (rules, response.text)
        answers[rules] = response.json()["error"].replace(repr(rules), "NAME")
        assert "SECRET" not in response.text and "token" not in response.text
    assert len(set(answers.values())) == 1, answers
    assert next(iter(answers.values())) == (
        "unknown rule set NAME; valid names: " + ", ".join(map(repr, solver.RULE_SET_NAMES))
        + " (the text of a rule-set file goes in rules_file)")


def test_a_registered_name_is_read_as_the_library_reads_it(client):
    assert client.post("/api/deal", json=dict(rules=" CLASSIC:Western ", seed=2)).json() == \
        client.post("/api/deal", json=dict(rules="classic", seed=2)).json()


HOUSE_RULES = """name = "our table"
[scoring]
majority_bonus = 1
[fouls]
rule = "penalty"
penalty = 4
[automatic_wins]
dragon = 13
six_pairs = 3
three_flushes = 3
three_straights = 3
"""          # classic's rules, under another name


def test_a_rules_file_is_described_as_the_shipped_rule_sets_are(client):
    info = client.post("/api/rules/file", json={"text": HOUSE_RULES}).json()
    classic = next(rs for rs in client.get("/api/rules").json()["rule_sets"]
                   if rs["name"] == "classic")
    assert info["name"] == "our table" and info["docs"] == "docs/rule-files.md"
    assert {k: v for k, v in info.items() if k not in ("name", "docs")} == \
        {k: v for k, v in classic.items() if k not in ("name", "docs")}
    assert info["summary"] == solver.rule_set("classic").summary()


@pytest.mark.parametrize("text, message", [
    ("[scoring]\nmajority = 1\n", "the rules file: scoring.majority = 1: unknown key (did "
                                  "you mean 'majority_bonus'?)"),
    ("[deck\n", "the rules file: invalid TOML"),
    ("[deck]\njokers = 1\n", "the rules file: name: a rule set needs a name"),
])
def test_a_bad_rules_file_is_refused_with_the_loaders_line(client, text, message):
    response = client.post("/api/rules/file", json={"text": text})
    assert response.status_code == 400 and response.json()["error"].startswith(message)


def test_solve_review_and_deal_play_under_a_sent_rules_file(client):
    hand = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
    mine = dict(rules="our table", rules_file=HOUSE_RULES)
    ours = client.post("/api/solve", json=dict(cards=hand, samples=40, **mine)).json()
    theirs = client.post("/api/solve", json=dict(cards=hand, samples=40,
                                                 rules="classic")).json()
    assert ours["rules"] == "our table"
    assert {**ours, "rules": "classic"} == theirs
    setting = "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s"
    review = client.post("/api/review", json=dict(cards=hand, setting=setting, samples=40,
                                                  **mine)).json()
    assert review["rules"] == "our table"
    deal = client.post("/api/deal", json=dict(seed=5, **mine)).json()
    assert deal["rules"] == "our table" and deal["hands"] == client.post(
        "/api/deal", json=dict(seed=5, rules="classic")).json()["hands"]
