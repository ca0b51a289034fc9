"""The Practice and Match tabs' API (``/api/match/deal``, ``/api/match/showdown``), in
process: your hand is seat 0 of ``deal_hands``' deal, the showdown is ``solver.settle``
of your rows and the library's settings of the other seats, and bad input is one JSON
line with HTTP 400."""
import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")

from fastapi.testclient import TestClient  # noqa: E402

import solver  # noqa: E402
from solver.display import sort_row  # noqa: E402
from solver.sampling import deal_hands  # noqa: E402
from solver.web import Limits, create_app  # noqa: E402
from solver.web.app import _solve_sampling  # noqa: E402
from solver.web.play import opponent_seed  # noqa: E402

LIMITS = Limits(max_samples=300, timeout=120, max_body=4096)
LOCAL = "http://127.0.0.1"    # the Host the app answers to (the server's own address)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(LIMITS), base_url=LOCAL, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("rules, players, seed, index", [
    ("classic", 4, 5, 1), ("pagat", 2, 11, 0), ("bonus", 4, 2, 3), ("joker", 4, 7, 2)])
def test_the_deal_is_seat_0_of_the_seeded_deal(client, rules, players, seed, index):
    data = client.post("/api/match/deal", json=dict(rules=rules, players=players, seed=seed,
                                                    index=index)).json()
    hands, cut = deal_hands(solver.rule_set(rules), players, seed, index)
    assert sorted(data["hand"].split()) == sorted(hands[0].split())
    assert (data["cut"], data["seed"], data["index"], data["players"]) == \
        (cut, seed, index, players)


def test_a_deal_without_a_seed_says_which_it_used(client):
    data = client.post("/api/match/deal", json=dict(rules="pagat", players=2)).json()
    again = client.post("/api/match/deal", json=dict(rules="pagat", players=2,
                                                     seed=data["seed"])).json()
    assert again["hand"] == data["hand"]


def test_the_deal_names_an_automatic_win(client):
    for seed in range(200):        # a classic deal whose first hand holds one
        hands, _ = deal_hands(solver.rule_set("classic"), 4, seed, 0)
        win = solver.automatic_win(hands[0], "classic")
        if win is not None:
            break
    else:
        pytest.skip("no automatic win in 200 deals")
    data = client.post("/api/match/deal", json=dict(rules="classic", seed=seed)).json()
    assert data["automatic_win"] == win.name


def _settled(rules, players, seed, index, mine, others):
    rows = [mine] + others
    return solver.settle(rows, rules, deal_hands(solver.rule_set(rules), players, seed,
                                                 index)[1], detail=True)


@pytest.mark.parametrize("rules, players", [("classic", 4), ("pagat", 3), ("bonus", 4),
                                            ("joker", 4)])
def test_the_showdown_is_settle_of_the_quick_set_rows(client, rules, players):
    seed, index = 9, 1
    hands, cut = deal_hands(solver.rule_set(rules), players, seed, index)
    mine = solver.quick_set(hands[0], rules, cut, players=players)
    data = client.post("/api/match/showdown", json=dict(
        rules=rules, players=players, seed=seed, index=index,
        setting=" / ".join(mine))).json()
    others = [solver.quick_set(h, rules, cut, players=players) for h in hands[1:]]
    declared = [s for s, h in enumerate(hands) if solver.rule_set(rules).automatic_wins
                and solver.automatic_win(h, rules)]
    expected = solver.settle([mine] + others, rules, cut, declared=declared or None,
                             detail=True)
    assert data["scores"] == list(expected.scores) and sum(data["scores"]) == 0
    assert [(p["a"], p["b"], p["units"], [tuple(i) for i in p["items"]])
            for p in data["pairs"]] == [(p.a, p.b, p.units, list(p.items))
                                       for p in expected.pairs]
    assert [s["rows"] for s in data["seats"]] == [list(r) for r in expected.rows]
    for seat, rows in zip(data["seats"], [mine] + others):       # face up, each seat
        for name, row in zip(("front", "middle", "back"), rows):
            assert sorted(seat[name].split()) == sorted(row.split())
        kept = seat["front"].split() + seat["middle"].split() + seat["back"].split()
        assert sorted(kept + seat["discards"].split()) == sorted(seat["hand"].split())


def test_solve_opponents_are_the_solves_of_their_seeds(client):
    rules, players, seed, index = "pagat", 2, 4, 0
    hands, cut = deal_hands(solver.rule_set(rules), players, seed, index)
    mine = solver.quick_set(hands[0], rules, players=players)
    data = client.post("/api/match/showdown", json=dict(
        rules=rules, players=players, seed=seed, index=index, setting=list(mine),
        opponents="fast")).json()
    # Within the server's --max-samples, as its own solves are (300 deals, fast's precision).
    sampling = _solve_sampling(solver.rule_set(rules), players, None, "fast",
                               LIMITS.max_samples)
    assert sampling["samples"] == LIMITS.max_samples
    sol = solver.solve(hands[1], rules, players=players, seed=opponent_seed(seed, index, 1),
                       top=0, **sampling)
    theirs = data["seats"][1]
    assert [theirs[r] for r in ("front", "middle", "back")] == \
        [sort_row(r) for r in (sol.front, sol.middle, sol.back)]
    assert data["scores"] == solver.settle([mine, (sol.front, sol.middle, sol.back)],
                                           rules)


@pytest.mark.parametrize("body, message", [
    (dict(rules="joker", seed=5, setting="declare"), "no automatic wins to declare"),
    (dict(rules="classic", seed=5, index=1, setting="declare"), "holds no automatic win"),
    (dict(rules="pagat", seed=5, setting="As Ah Ad / 2c 3c 4c 5c 6c / 7c 8c 9c Tc Jc"),
     "not in your hand"),
    (dict(rules="pagat", seed=5, setting="As Ah / 2c"), "three rows"),
    (dict(rules="pagat", seed=5, setting="x", opponents="slow"),
     'opponents: one of quick, fast, max, not "slow"'),
    (dict(rules="pagat", seed=5, setting="x", opponents=["fast"]),
     'opponents: one of quick, fast, max, not ["fast"]'),
    (dict(rules="joker", seed=5, players=3, setting="x"), "plays with 4 players, not 3"),
    (dict(rules="pagat", seed=-1, setting="x"), "seed must be at least 0"),
    (dict(rules="pagat", setting="x"), "seed: required"),
])
def test_bad_showdowns_are_one_line(client, body, message):
    response = client.post("/api/match/showdown", json=body)
    assert response.status_code == 400 and message in response.json()["error"]
    # In the server's words: never pydantic's summary, its error types or its links.
    for pydantic_words in ("validation error", "type=", "pydantic", "http", "Input should"):
        assert pydantic_words not in response.text


def test_a_foul_the_rules_cannot_play_is_refused_in_words(client):
    hands, _ = deal_hands(solver.rule_set("joker"), 4, 5, 0)
    front, middle, back = solver.quick_set(hands[0], "joker")
    response = client.post("/api/match/showdown", json=dict(
        rules="joker", seed=5, setting=f"{front} / {back} / {middle}"))
    assert response.status_code == 400
    assert response.json()["error"].startswith("your setting is fouled and the joker rules")
    # A row of the wrong size is "your setting", not "seat 0".
    response = client.post("/api/match/showdown", json=dict(
        rules="joker", seed=5, setting=f"{front} / {back} / {' '.join(middle.split()[:4])}"))
    assert response.json()["error"] == "your setting: the back has 5 cards, not 4"
