"""The study page's real server: ``python -m solver serve`` (uvicorn) on a free loopback
port in a subprocess; a solve does not hold up other requests; and a bounded load test
(8 clients at once, a few hundred requests mixing solve, review, deal and bad input)
in which every answer equals the library's and nothing is lost."""
import socket
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="the study page needs the web extra")
httpx = pytest.importorskip("httpx", reason="the load test's clients use httpx")

from solver import __main__ as cli  # noqa: E402
from solver.web.app import is_loopback  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import load_server  # noqa: E402

JOKER = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"


@pytest.fixture(scope="module")
def server():
    with load_server.serving("--max-samples", "2000") as url:
        yield url


def test_serve_prints_its_address_and_serves_the_page(server):
    assert server.startswith("http://127.0.0.1:") and server.endswith("/")
    page = httpx.get(server, timeout=30)
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert httpx.get(server + "api/rules", timeout=30).json()["max_samples"] == 2000


def test_a_solve_runs_off_the_event_loop(server):
    # While a long solve is at work, the server still answers; and says it is busy.
    done = threading.Event()

    def long_solve():
        httpx.post(server + "api/solve", json=dict(cards=JOKER, rules="joker", samples=2000),
                   timeout=300)
        done.set()

    worker = threading.Thread(target=long_solve)
    worker.start()
    seen_busy = False
    with httpx.Client(base_url=server, timeout=30) as http:
        while not done.is_set():
            status = http.get("/api/status").json()
            seen_busy |= status["busy"] == 1 and not done.is_set()
            deal = http.post("/api/deal", json=dict(rules="joker", seed=1))
            assert deal.status_code == 200
            if seen_busy:
                break
    worker.join()
    assert seen_busy


def test_load_every_answer_is_the_librarys_and_the_server_stays_up(server):
    pool = load_server.calls(samples=(40, 80))
    load_server.warm_up(server, pool)
    outcome = load_server.run(server, pool, clients=8, total=240)
    assert sum(len(v) for v in outcome.latencies.values()) == 240       # none lost
    assert {"solve", "review", "deal", "bad"} <= set(outcome.latencies)
    assert not outcome.mismatches, outcome.mismatches[:3]
    assert httpx.get(server + "api/status", timeout=30).status_code == 200
    print("\n" + load_server.table(outcome))           # pytest -s shows the latencies


def test_only_loopback_is_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("no-such-host.invalid")


@pytest.mark.parametrize("argv, message", [
    (["serve", "--port", "70000"], "port must be at most 65535"),
    (["serve", "--max-samples", "0"], "max_samples must be at least 1"),
    (["serve", "--timeout", "0"], "timeout must be a positive number of seconds"),
    (["serve", "--host", "no-such-host.invalid"], "error: "),
])
def test_serve_refuses_bad_options_in_one_line(capsys, argv, message):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_a_port_in_use_is_one_line_too(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert cli.main(["serve", "--port", str(taken.getsockname()[1])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "error: " in err


def test_without_the_web_extra_serve_says_how_to_get_it(capsys, monkeypatch):
    for name in ("solver.web", "solver.web.app"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "fastapi", None)      # import fastapi fails
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "needs the web extra (fastapi is missing): python3 -m pip install -e '.[web]'" in err
