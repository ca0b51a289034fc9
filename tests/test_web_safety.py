"""The study page server under attack: every attack of docs/serving-safely.md's
table, sent to the real server (``python3 -m solver serve`` on a free loopback port), and
the answer it gets.  Bounded: a handful of servers, each request with a timeout, every
wait with a deadline.

1. ``rules`` is a registered name, never a path: a file the server could read is neither
   read, nor quoted, nor told apart from a missing one (a FIFO proves nothing is opened).
2. A ``Host`` that is not the address served, an ``Origin`` that is not the page's own:
   403; a POST body not sent as ``application/json``: 415.
3. A training can be cancelled; the server keeps at most ``--max-models`` models it
   trained, the least recently used deleted first, never one of the user's.
6. A 30,000-deep JSON array, a 20,000-deep TOML: 400, and no traceback in the log.
8. ``HEAD`` on a GET endpoint: 200, no body; a bad ``opponents``: one plain line; the
   warning of ``--host 0.0.0.0``.
"""
import json
import logging
import os
import socket
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="the study page needs the web extra")
httpx = pytest.importorskip("httpx", reason="the tests' client is httpx")

import solver  # noqa: E402
import solver.training as training  # noqa: E402
from solver import __main__ as cli  # noqa: E402
from solver.web import Limits, Served, create_app  # noqa: E402
from solver.web.errors import MAX_LOG_LINE  # noqa: E402
from solver.web.trainings import RECORD  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_web_server import (address, children, host_header, needs_proc, own_server,  # noqa: E402
                             raw, wait_for)
from test_web_training import HOOK, HOUSE, _lock_held, train_env  # noqa: E402

CLASSIC = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
NAMED = [            # every endpoint that takes rules, with the rest of a good body
    ("/api/solve", {"cards": CLASSIC, "samples": 20}),
    ("/api/review", {"cards": CLASSIC, "setting": "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5s",
                     "samples": 20}),
    ("/api/deal", {}),
    ("/api/rules/train", {}),
    ("/api/match/deal", {"seed": 1}),
    ("/api/match/showdown", {"seed": 1, "setting": "declare", "opponents": "fast"}),
]


@pytest.fixture(scope="module")
def server():
    with own_server() as (url, process):
        yield url, process


def request(url, method, path, host=None, headers=(), body=None, http="1.1"):
    """Send one request, as a browser would but for ``host``: the ``Host`` header's value
    (None: the server's own address; False: no Host header at all); (status, headers,
    body) of the answer."""
    lines = [f"{method} {path} HTTP/{http}"]
    if host is None:
        lines.append("Host: HOST")
    elif host is not False:
        lines.append(f"Host: {host}")
    lines += [f"{k}: {v}" for k, v in headers] + ["Connection: close"]
    data = b"" if body is None else body
    if body is not None:
        lines.append(f"Content-Length: {len(data)}")
    return raw(url, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data)


def json_error(answer) -> str:
    status, headers, body = answer
    assert headers["content-type"] == "application/json", (status, body[:200])
    return json.loads(body)["error"]


# --- 1: rules is a registered name; no file a client names is read -----------------------------
@pytest.mark.parametrize("path, body", NAMED, ids=[p for p, _ in NAMED])
def test_no_endpoint_reads_a_file_a_client_names(server, path, body, tmp_path):
    url, _ = server
    secret = tmp_path / "credentials.toml"
    secret.write_text('registry = {token = "SECRET"}\n')
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)                     # opening it to read would wait for a writer
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")        # reading it would never end
    answers = {}
    with httpx.Client(base_url=url, timeout=30) as http:
        for rules in (str(secret), str(tmp_path / "missing.toml"), str(fifo), str(zero),
                      str(tmp_path), "credentials.toml", "~/.cargo/credentials.toml",
                      "file://" + str(secret), "poker"):
            response = http.post(path, json={**body, "rules": rules})
            assert response.status_code == 400, (rules, response.text)
            assert "SECRET" not in response.text and "token" not in response.text
            answers[rules] = response.json()["error"].replace(repr(rules), "NAME")
        assert http.get("/api/status").status_code == 200
    # One answer, whatever the string names: nothing tells a file that is there.
    assert set(answers.values()) == {
        "unknown rule set NAME; valid names: " + ", ".join(map(repr, solver.RULE_SET_NAMES))
        + " (the text of a rule-set file goes in rules_file)"}
    # Nobody holds the FIFO open to read it (opening it to write would then succeed).
    with pytest.raises(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_rules_files_text_is_taken_and_only_in_rules_file(server):
    url, _ = server
    text = solver.rule_set("classic").to_toml().replace('name = "classic"', 'name = "ours"')
    answer = httpx.post(url + "api/deal", json=dict(rules="ours", rules_file=text, seed=4),
                        timeout=30)
    assert answer.status_code == 200 and answer.json()["rules"] == "ours"
    # A registered name in any case, with spaces, as the library reads it.
    assert httpx.post(url + "api/deal", json=dict(rules=" Classic ", seed=4),
                      timeout=30).json()["hands"] == answer.json()["hands"]


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
    "/static/%2e%2e%2f%2e%2e%2frules.py", "/static//etc/passwd", "/static/%2fetc%2fpasswd",
    "/api/rules/train/..%2f..%2fapp.py", "/../../etc/passwd",
])
def test_no_path_reaches_another_file(server, path):
    url, _ = server
    status, headers, body = request(url, "GET", path)
    assert status == 404, (path, status, body[:200])
    assert b"import" not in body and b"root:" not in body


# --- 2: Host, Origin, Content-Type --------------------------------------------------------------
def test_a_host_that_is_not_the_address_served_is_refused(server):
    url, _ = server
    _, port = address(url)
    for host in ("evil.example:%d" % port, "127.0.0.1:%d" % (port + 1), "127.0.0.1",
                 "localhost", "evil.example", "127.0.0.1.nip.io:%d" % port, "",
                 "127.0.0.2:%d" % port, "[::1]:%d:%d" % (port, port)):
        for method, path, body in (("GET", "/api/rules", None), ("GET", "/", None),
                                   ("POST", "/api/rules/train", b'{"rules": "classic"}')):
            answer = request(url, method, path, host=host, body=body,
                             headers=[("Content-Type", "application/json")] if body else [])
            assert answer[0] == 403, (host, path)
            assert json_error(answer).startswith(f"Host: {host or '(none)'}: not an address "
                                                 f"this server is served at")
    # HTTP/1.0 may omit Host: refused too.
    assert request(url, "GET", "/api/rules", host=False, http="1.0")[0] == 403
    for host in ("127.0.0.1:%d" % port, "localhost:%d" % port, "LocalHost:%d" % port,
                 "[::1]:%d" % port, "[0:0::1]:%d" % port):
        assert request(url, "GET", "/api/rules", host=host)[0] == 200, host


def test_an_origin_that_is_not_the_pages_own_is_refused(server):
    url, _ = server
    mine = "http://" + host_header(url).decode()
    train = json.dumps(dict(rules="classic")).encode()
    for origin in ("http://evil.example", "null", mine.replace("http:", "https:"),
                   mine.replace("127.0.0.1", "localhost"), mine + "/", "http://evil.example" +
                   mine[len("http://127.0.0.1"):]):
        for method, path, body in (("GET", "/api/rules", None),
                                   ("POST", "/api/rules/train", train),
                                   ("DELETE", "/api/rules/train/x", None)):
            answer = request(url, method, path, body=body, headers=[
                ("Origin", origin)] + ([("Content-Type", "application/json")] if body else []))
            assert answer[0] == 403, (origin, path)
            assert json_error(answer) == (f"Origin: {origin}: only the study page itself "
                                          f"({mine}) may use this server")
    answer = request(url, "POST", "/api/rules/train", body=train,
                     headers=[("Origin", mine), ("Content-Type", "application/json")])
    assert answer[0] == 200 and json.loads(answer[2])["state"] == "ready"


@pytest.mark.parametrize("content_type", [None, "text/plain", "text/plain;charset=UTF-8",
                                          "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x",
                                          "application/vnd.api+json"])
def test_a_post_not_sent_as_json_is_refused(server, content_type):
    # fetch(url, {method: "POST", mode: "no-cors", body: new Blob([json])}) from any
    # page sends no Content-Type; text/plain and the form types need no preflight.
    url, _ = server
    body = json.dumps(dict(rules="house", rules_file=HOUSE, players=2)).encode()
    answer = request(url, "POST", "/api/rules/train", body=body,
                     headers=[("Content-Type", content_type)] if content_type else [])
    assert answer[0] == 415
    media = content_type.split(";")[0] if content_type else None
    assert json_error(answer) == (
        "the request body must be JSON, sent with Content-Type: application/json ("
        + (f"not {media})" if media else "none was sent)"))
    # Nothing was started.
    rs = solver.RuleSet.from_toml(HOUSE)
    ids = {training.model_path(rs, 2).stem if training.model_path(rs, 2) else None,
           f"model-{rs.digest}-2"}
    for id in ids - {None}:
        assert httpx.get(url + f"api/rules/train/{id}", timeout=30).status_code == 404
    answer = request(url, "POST", "/api/deal", body=b'{"rules": "pagat", "seed": 1}',
                     headers=[("Content-Type", "application/json; charset=utf-8")])
    assert answer[0] == 200


def test_served_names_the_addresses_a_host_may_name():
    local = Served("127.0.0.1", 8000, "127.0.0.1")
    assert all(local.allows(h) for h in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"))
    assert not any(local.allows(h) for h in ("evil.example:8000", "127.0.0.1:8001",
                                             "10.0.0.1:8000", "localhost", None, ":8000"))
    named = Served("myname.test", 8000, "127.0.0.1")           # the explicit --host
    assert named.allows("myname.test:8000") and named.allows("MyName.Test:8000")
    everywhere = Served("0.0.0.0", 8000, "0.0.0.0")
    assert everywhere.allows("127.0.0.1:8000") and everywhere.allows("localhost:8000")
    assert everywhere.allows(f"{socket.gethostname()}:8000")
    assert not everywhere.allows("evil.example:8000")
    assert not everywhere.allows("203.0.113.7:8000")           # (no machine's: TEST-NET-3)
    port80 = Served("127.0.0.1", 80, "127.0.0.1")
    assert port80.allows("localhost") and port80.allows("localhost:80")


def test_the_explicit_host_is_served():
    with own_server("--host", "localhost") as (url, process):     # (127.0.0.1 or ::1)
        _, port = address(url)
        assert request(url, "GET", "/api/rules", host=f"localhost:{port}")[0] == 200
        assert request(url, "GET", "/api/rules", host=f"evil.example:{port}")[0] == 403


def test_listening_beyond_loopback_warns_that_anyone_can_use_every_endpoint(capsys,
                                                                            monkeypatch):
    # (Not bound to every address in a test: the socket is loopback's, the warning the
    # one --host 0.0.0.0 prints, and uvicorn does not run.)
    import uvicorn

    import solver.web.server as server_module
    real_bind = server_module._bind
    monkeypatch.setattr(server_module, "_bind", lambda host, port: real_bind("127.0.0.1", 0))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("warning: listening on 0.0.0.0: anyone on "
                                                   "the network who can reach port ")
    assert "can use every endpoint of this server" in err and "no authentication" in err


# --- 3: cancel a training; keep at most --max-models models ----------------------------------------
@needs_proc
def test_a_training_can_be_cancelled(monkeypatch, tmp_path):
    train_env(monkeypatch, tmp_path, (30, 20000), chunk=100)   # minutes: cancelled long before
    body = dict(rules="house", rules_file=HOUSE, players=2)
    with own_server() as (url, process), httpx.Client(base_url=url, timeout=60) as http:
        wait_for(lambda: len(children(process)) == 1, "a worker started")
        before = children(process)
        status = http.post("/api/rules/train", json=body).json()
        assert status["state"] == "training"
        wait_for(lambda: http.get(f"/api/rules/train/{status['id']}").json()["done"] > 0,
                 "the training under way", 300)
        (trainer,) = children(process) - before
        cancelled = http.delete(f"/api/rules/train/{status['id']}")
        assert cancelled.status_code == 200
        assert cancelled.json()["state"] == "cancelled"
        wait_for(lambda: trainer not in children(process), "the training process gone", 10)
        assert http.get(f"/api/rules/train/{status['id']}").json()["state"] == "cancelled"
        again = http.delete(f"/api/rules/train/{status['id']}")
        assert again.status_code == 409 and again.json()["error"] == (
            f"the training {status['id']} is not under way (it is cancelled); nothing to "
            f"cancel")
        assert http.delete("/api/rules/train/model-nothing").status_code == 404
        # Nothing of it kept: no model, no temporary file, the lock free.
        path = training.model_path(solver.RuleSet.from_toml(HOUSE), 2)
        assert not list(tmp_path.glob("models/*.npz")) and not list(tmp_path.rglob("*.tmp"))
        assert not _lock_held(path.with_suffix(".lock"))
        # A solve under the file asks for it again: a new training.
        assert http.post("/api/rules/train", json=body).json()["state"] == "training"


def house(penalty: int) -> str:
    return HOUSE.replace("penalty = 6", f"penalty = {penalty}")


def test_the_server_keeps_at_most_max_models_least_recently_used_first(monkeypatch, tmp_path):
    train_env(monkeypatch, tmp_path, (1, 300))                   # seconds each
    # A model of the user's (trained by a library call): never the server's to delete.
    users = solver.train_model(solver.RuleSet.from_toml(house(9)), 2).path
    paths = {p: training.model_path(solver.RuleSet.from_toml(house(p)), 2) for p in (5, 6, 7)}

    def train(http, penalty):
        status = http.post("/api/rules/train", json=dict(rules="house", players=2,
                                                         rules_file=house(penalty))).json()
        deadline = time.monotonic() + 300
        while status["state"] == "training":
            assert time.monotonic() < deadline, status
            time.sleep(0.2)
            status = http.get(f"/api/rules/train/{status['id']}").json()
        assert status["state"] == "ready", status
        return status

    with own_server("--max-models", "2") as (url, process), \
            httpx.Client(base_url=url, timeout=60) as http:
        first = train(http, 5)
        train(http, 6)
        assert train(http, 5)["message"] in ("trained now", "trained before")   # used: 5
        train(http, 7)                  # a third: the least recently used (6) goes
        assert paths[5].exists() and paths[7].exists() and not paths[6].exists()
        assert users.exists()
        record = json.loads((paths[5].parent / RECORD).read_text())["models"]
        assert set(record) == {paths[5].name, paths[7].name}
        assert http.get(f"/api/rules/train/{paths[6].stem}").status_code == 404
        assert http.get(f"/api/rules/train/{first['id']}").json()["state"] == "ready"
        # Asked for again, it is trained again.
        assert http.post("/api/rules/train", json=dict(
            rules="house", players=2, rules_file=house(6))).json()["state"] in (
                "training", "ready")


# --- 6: deep nesting ----------------------------------------------------------------------------
def test_deep_nesting_is_a_400_and_no_traceback():
    deep_json = ('{"rules": ' + "[" * 30_000 + "]" * 30_000 + "}").encode()
    deep_toml = "a = " + "[" * 20_000 + "]" * 20_000 + "\n"
    with own_server() as (url, process):
        with httpx.Client(base_url=url, timeout=60) as http:
            for path in ("/api/solve", "/api/deal", "/api/rules/train"):
                answer = http.post(path, content=deep_json,
                                   headers={"content-type": "application/json"})
                assert answer.status_code == 400
                assert answer.json()["error"] == (
                    "the request body nests arrays and objects more than 32 deep; this "
                    "server reads at most 32")
            for path, body in (("/api/rules/file", dict(text=deep_toml)),
                               ("/api/deal", dict(rules="x", rules_file=deep_toml)),
                               ("/api/solve", dict(cards=CLASSIC, rules="x",
                                                   rules_file=deep_toml)),
                               ("/api/rules/train", dict(rules="x", rules_file=deep_toml))):
                answer = http.post(path, json=body)
                assert answer.status_code == 400, (path, answer.text[:300])
                error = answer.json()["error"]
                assert error.startswith("the rules file") and len(error) < 400, error
            assert http.get("/api/status").status_code == 200
        process.terminate()
        _, err = process.communicate(timeout=60)
    assert "Traceback" not in err and "RecursionError" not in err
    assert all(len(line) <= MAX_LOG_LINE + 100 for line in err.splitlines()), \
        max(map(len, err.splitlines()))


def test_an_unforeseen_exception_is_one_bounded_log_line(monkeypatch, caplog):
    from fastapi.testclient import TestClient

    import solver.web.app as app_module

    def bottomless(*args):
        return bottomless(*args)
    monkeypatch.setattr(app_module, "_deal", bottomless)
    caplog.set_level(logging.ERROR, logger="solver.web")
    # raise_server_exceptions: an exception reaching the server (uvicorn would log its
    # traceback) would be raised here.
    with TestClient(create_app(Limits()), base_url="http://127.0.0.1") as client:
        answer = client.post("/api/deal", json=dict(rules="classic"))
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error (the server's log says more)"}
    (line,) = [r.getMessage() for r in caplog.records if r.name == "solver.web"]
    assert line.startswith("internal error on POST /api/deal: RecursionError: maximum "
                           "recursion depth exceeded")
    assert "\n" not in line and len(line) <= MAX_LOG_LINE + 100


# --- 8: HEAD, a plain message, the warning (above) ------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/api/rules", "/api/openapi.json", "/static/app.js",
                                  "/static/style.css"])
def test_head_answers_as_get_without_a_body(server, path):
    url, _ = server
    got = request(url, "GET", path)
    head = request(url, "HEAD", path)
    assert got[0] == head[0] == 200 and head[2] == b""
    assert head[1]["content-length"] == str(len(got[2]))
    assert head[1]["content-type"] == got[1]["content-type"]


def test_head_on_a_post_endpoint_is_405_without_a_body(server):
    url, _ = server
    status, headers, body = request(url, "HEAD", "/api/solve")
    assert status == 405 and body == b"" and headers["allow"] == "post"    # (lower-cased)
    assert request(url, "HEAD", "/api/status")[0] == 200


def test_a_bad_showdown_is_one_plain_line(server):
    url, _ = server
    for body, error in (
            (dict(rules="classic", seed=1, setting="declare", opponents="bad"),
             'opponents: one of quick, fast, max, not "bad"'),
            (dict(rules="x.toml", seed=1, setting="declare", opponents="fast"),
             "unknown rule set 'x.toml'; valid names: "),
            (dict(rules="classic", seed="1", setting=7, opponents="fast"),
             'seed: a whole number, not "1"; setting: a string or a list of strings, not 7')):
        answer = httpx.post(url + "api/match/showdown", json=body, timeout=60)
        assert answer.status_code == 400 and answer.json()["error"].startswith(error)
        for pydantic_words in ("validation error", "type=", "pydantic", "http"):
            assert pydantic_words not in answer.text
