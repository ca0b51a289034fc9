"""The study page's real server: ``python -m solver serve`` (uvicorn) on a free loopback
port in a subprocess; a solve does not hold up other requests; and a bounded load test
(8 clients at once, a few hundred requests mixing solve, review, deal and bad input)
in which every answer equals the library's and nothing is lost."""
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="the study page needs the web extra")
httpx = pytest.importorskip("httpx", reason="the load test's clients use httpx")

from solver import __main__ as cli  # noqa: E402
from solver.web.guard import is_loopback  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import load_server  # noqa: E402

JOKER = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc"
CLASSIC = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"


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
    (["serve", "--port", "70000"], "error: --port must be at most 65535"),
    (["serve", "--max-samples", "0"], "error: --max-samples must be at least 1"),
    (["serve", "--max-body", "10"], "error: --max-body must be at least 256"),
    (["serve", "--max-models", "0"], "error: --max-models must be at least 1"),
    (["serve", "--timeout", "0"], "error: --timeout must be a positive number of seconds"),
    (["serve", "--host", "no-such-host.invalid"],
     "error: --host no-such-host.invalid: not an address of this machine"),
    (["serve", "--host", "999.1.1.1"], "error: --host 999.1.1.1: not an address of this "
                                       "machine"),
])
def test_serve_refuses_bad_options_in_one_line(capsys, argv, message):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_a_port_in_use_is_one_line_too(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"error: --port {port}: another program is listening on it" in err


def test_without_the_web_extra_serve_says_how_to_get_it(capsys, monkeypatch):
    for name in [m for m in sys.modules if m == "solver.web" or m.startswith("solver.web.")]:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "fastapi", None)      # import fastapi fails
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "needs the web extra (fastapi is missing): python3 -m pip install -e '.[web]'" in err


# --- a server that lets go ----------------------------------------------------------------------
@contextlib.contextmanager
def own_server(*options):
    """``python3 -m solver serve --port 0 OPTIONS`` in a subprocess: yields (its URL, the
    process); stopped afterwards."""
    process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", "0",
                                *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=dict(os.environ, SOLVER_QUIET="1"))
    try:
        url = re.search(r"http://\S+", process.stdout.readline())
        assert url, process.stderr.read()
        yield url.group(0), process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def children(process) -> set:
    """The process ids of the server's worker processes (Linux's /proc)."""
    found = set()
    for task in Path(f"/proc/{process.pid}/task").iterdir():
        found |= set((task / "children").read_text().split())
    return found


def address(url):
    host, port = re.match(r"http://(\[[^\]]+\]|[^/:]+):(\d+)/", url).groups()
    return host.strip("[]"), int(port)


def wait_for(predicate, what, seconds=60):
    """Wait until ``predicate()`` (at most ``seconds``: a bound, not a measurement)."""
    for _ in range(int(seconds * 10)):
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s: {what}")


# Minutes of work even on an idle machine (60,000 deals took under 5 s there, so the time
# limit test saw it finish); each test stops it long before it would end.
HEAVY_SAMPLES = 600_000
HEAVY = dict(cards=JOKER, rules="joker", samples=HEAVY_SAMPLES)


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux's /proc")


@needs_proc
def test_a_solve_whose_client_has_gone_is_stopped():
    with own_server("--max-samples", str(HEAVY_SAMPLES)) as (url, process):
        with httpx.Client(base_url=url, timeout=60) as http:
            body = json.dumps(HEAVY).encode()
            with socket.create_connection(address(url)) as gone:
                gone.sendall(b"POST /api/solve HTTP/1.1\r\nHost: %s\r\ncontent-type: "
                             b"application/json\r\ncontent-length: %d\r\n\r\n%s"
                             % (host_header(url), len(body), body))
                wait_for(lambda: http.get("/api/status").json()["busy"] == 1, "at work")
                at_work = children(process)          # the worker solving among them
            # Its worker is killed (not left solving for tens of seconds), another
            # started, and the status says nothing is at work.
            wait_for(lambda: at_work - children(process), "the worker killed", 10)
            wait_for(lambda: http.get("/api/status").json()["busy"] == 0, "idle", 10)
            small = http.post("/api/solve", json=dict(cards=JOKER, rules="joker",
                                                      samples=20))
            assert small.status_code == 200 and small.json()["samples"] == 20


@needs_proc
@pytest.mark.slow
def test_a_solve_past_the_time_limit_is_stopped():
    with own_server("--max-samples", str(HEAVY_SAMPLES), "--timeout", "5") as (url, process):
        with httpx.Client(base_url=url, timeout=60) as http:
            # A small solve first, which loads the kernels (on a busy machine that may
            # itself pass the limit, once or twice).
            wait_for(lambda: http.post("/api/solve", json=dict(
                cards=JOKER, rules="joker", samples=20)).status_code == 200, "a small solve")
            before = children(process)
            response = http.post("/api/solve", json=HEAVY)
            assert response.status_code == 504 and "--timeout" in response.json()["error"]
            assert len(before - children(process)) == 1        # its worker was killed
            assert http.get("/api/status").json() == dict(busy=0, waiting=0,
                                                          compiling=False,
                                                          compiling_for=None)


def test_max_samples_caps_a_default_solve():
    with own_server("--max-samples", "100") as (url, process):
        data = httpx.post(url + "api/solve", json=dict(cards=CLASSIC, rules="classic",
                                                       players=2), timeout=300).json()
    assert data["samples"] <= 100          # it used to deal 3,500 (plus 875 held out)


def test_half_a_request_is_dropped_and_does_not_block_others():
    # More half-sent requests than the server takes connections (64): each is answered
    # 408 and closed after a few seconds, and then the server answers as before.
    with own_server() as (url, process):
        slow = [socket.create_connection(address(url)) for _ in range(70)]
        try:
            for sock in slow[1:]:
                sock.sendall(b"GET /api/rules HTTP/1.1\r\nHost: %s\r\nX-Half: "
                             % host_header(url))
            slow[0].sendall(b"POST /api/deal HTTP/1.1\r\nHost: %s\r\ncontent-type: "
                            b"application/json\r\ncontent-length: 100\r\n\r\n{\"rules\""
                            % host_header(url))
            for sock in slow:
                sock.settimeout(60)
            answers = [sock.recv(4096) for sock in slow[:3]]       # half a body, half a head
        finally:
            for sock in slow:
                sock.close()
        for answer in answers:
            assert answer.startswith(b"HTTP/1.1 408 ")
            assert b'{"error": "the request did not arrive within 5 s"}' in answer
        assert httpx.get(url + "api/rules", timeout=60).status_code == 200


def host_header(url) -> bytes:
    """The ``Host`` a browser sends to the server at ``url`` (``127.0.0.1:PORT``)."""
    return re.match(r"http://([^/]+)/", url).group(1).encode()


def raw(url, request: bytes) -> tuple[int, dict, bytes]:
    """Send ``request`` as it is, but for ``Host: HOST``, which names the server (as a
    browser's would); (status, headers, body) of the answer."""
    with socket.create_connection(address(url)) as sock:
        sock.sendall(request.replace(b"Host: HOST\r\n", b"Host: " + host_header(url) + b"\r\n"))
        sock.settimeout(60)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def post(body: bytes, content_type=b"application/json") -> bytes:
    ct = b"" if content_type is None else b"content-type: " + content_type + b"\r\n"
    return (b"POST /api/deal HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n" + ct +
            b"content-length: %d\r\n\r\n" % len(body) + body)


def test_every_http_error_is_json(server):
    status, headers, body = raw(server, b"HEAD / HTTP/1.1\r\nHost: HOST\r\n"
                                        b"Connection: close\r\n\r\n")
    assert status == 200 and headers["content-type"].startswith("text/html") and body == b""
    cases = [
        (b"NONSENSE\r\n\r\n", 400, "not an HTTP/1.1 request this server can read"),
        (post(b'{"rules": "classic", "seed": ' + b"9" * 5000 + b"}"), 400,
         "seed: a number of 5000 digits; this server reads at most 4300"),
        (post(b'{"rules": "cl\xffassic"}'), 400,
         "the request body is not valid UTF-8 (byte 13 is 0xff)"),
        (post(b'{"rules": "classic"}', b"text/plain"), 415,
         "the request body must be JSON, sent with Content-Type: application/json (not "
         "text/plain)"),
        (b"DELETE /api/solve HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n\r\n", 405,
         "DELETE is not allowed on /api/solve"),
    ]
    for request, status, error in cases:
        got, headers, body = raw(server, request)
        assert (got, headers["content-type"], json.loads(body)) == \
            (status, "application/json", {"error": error}), request[:60]
    # A body without a Content-Type is not JSON to this server (a browser sends one from
    # any page without asking first): 415 (docs/serving-safely.md).
    status, headers, body = raw(server, post(b'{"rules": "classic", "seed": 3}', None))
    assert status == 415 and json.loads(body) == {
        "error": "the request body must be JSON, sent with Content-Type: application/json "
                 "(none was sent)"}
    status, headers, body = raw(server, post(b'{"rules": "classic", "seed": 3}'))
    assert status == 200 and json.loads(body)["seed"] == 3


@needs_proc
def test_ctrl_c_stops_the_server_and_its_work_in_one_line():
    with own_server("--max-samples", str(HEAVY_SAMPLES)) as (url, process):
        wait_for(lambda: len(children(process)) == 1, "a worker started")
        workers = children(process)
        at_work = threading.Thread(target=lambda: httpx.post(url + "api/solve", json=HEAVY,
                                                             timeout=120), daemon=True)
        at_work.start()
        wait_for(lambda: httpx.get(url + "api/status").json()["busy"] == 1, "at work")
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or \
            Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
