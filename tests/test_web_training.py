"""The study page's server trains the opponent model of a rules file that has none
(``/api/rules/train``): in a process of its own, one training per model at once, with
its progress to poll; a solve under the file waits for it (503 with the progress), then
answers what the library answers; and the server stopping stops the training cleanly.

The server's worker processes are other Python processes: they train the small preset
of tests/training_hook (``SOLVER_TEST_TRAINING``), and so does this one."""
import fcntl
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the study page needs the web extra: "
                                      "pip install -e '.[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import solver  # noqa: E402
import solver.training as training  # noqa: E402
from solver.web import Limits, create_app  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_web_server import children, own_server  # noqa: E402
from test_web_server import wait_for as server_wait_for  # noqa: E402

HOOK = Path(__file__).resolve().parent / "training_hook"
TINY = (1, 300)                  # tests/test_training.py's preset: seconds
CLASSIC = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
CLASSIC_TOML = solver.rule_set("classic").to_toml()
# Another foul penalty: a rule set no shipped model fits, so it must be trained.
HOUSE = CLASSIC_TOML.replace('name = "classic"', 'name = "house"').replace(
    "penalty = 4", "penalty = 6")
# The classic rules under another name: the shipped classic model, no training.
RENAMED = CLASSIC_TOML.replace('name = "classic"', 'name = "our classic"')


def train_env(monkeypatch, cache, preset, chunk=None):
    """This process and every process the server starts train ``preset`` and keep the
    models in ``cache``."""
    spec = ",".join(map(str, preset + ((chunk,) if chunk else ())))
    monkeypatch.setenv("SOLVER_TEST_TRAINING", spec)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(HOOK)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(cache))
    monkeypatch.setitem(training.PRESETS, "default", training.Preset(*preset))


def serving(app=None):
    """The server, in process (its worker processes start with the environment set)."""
    return TestClient(app or create_app(Limits(max_samples=300, timeout=60)),
                      base_url="http://127.0.0.1", raise_server_exceptions=False)


@pytest.fixture
def client(monkeypatch, tmp_path):
    train_env(monkeypatch, tmp_path, TINY)
    with serving() as c:
        yield c


def wait_for(client, status, until, seconds=300):
    """Poll the training's progress (as the page does) until ``until(status)``."""
    deadline = time.monotonic() + seconds
    seen = [status]
    while not until(status):
        assert time.monotonic() < deadline, seen[-3:]
        time.sleep(0.2)
        response = client.get(f"/api/rules/train/{status['id']}")
        assert response.status_code == 200, response.text
        status = response.json()
        seen.append(status)
    return status, seen


def test_a_rules_file_like_a_built_in_needs_no_training(client, tmp_path):
    status = client.post("/api/rules/train", json=dict(rules="our classic",
                                                       rules_file=RENAMED)).json()
    assert status["state"] == "ready" and status["message"] == "shipped with the library"
    assert status["rules"] == "our classic" and status["players"] == 4
    assert client.get(f"/api/rules/train/{status['id']}").json() == status
    assert not list(tmp_path.glob("models/*.npz"))
    # A shipped rule set by name, too.
    assert client.post("/api/rules/train", json=dict(rules="pagat")).json()["state"] == "ready"


def test_a_new_rules_file_is_trained_once_then_solved_under(monkeypatch, tmp_path):
    train_env(monkeypatch, tmp_path, TINY, chunk=100)
    with serving() as client:
        _trained_once_then_solved_under(client, tmp_path)


def _trained_once_then_solved_under(client, tmp_path):
    body = dict(rules="house", rules_file=HOUSE, players=2)
    first = client.post("/api/rules/train", json=body).json()
    assert first["state"] == "training" and first["rules"] == "house"
    assert first["players"] == 2 and first["done"] == 0
    # Asked again meanwhile (the page, another browser): the same training, not another.
    again = client.post("/api/rules/train", json=body).json()
    assert again["id"] == first["id"] and again["state"] in ("training", "ready")
    # A solve under the file meanwhile is told to wait, with the progress.
    solve = dict(cards=CLASSIC, samples=100, **body)
    early = client.post("/api/solve", json=solve)
    if early.status_code == 503:           # (unless the training was done already)
        assert early.json()["training"]["id"] == first["id"]
        assert early.headers["retry-after"] == "5"
        assert "house (2 players) is being trained" in early.json()["error"]
    done, seen = wait_for(client, first, lambda s: s["state"] != "training")
    assert done["state"] == "ready", done
    total = (TINY[0] + 1) * TINY[1]
    assert done["done"] == done["total"] == total and done["message"] == "trained now"
    steps = [s["done"] for s in seen if s["state"] == "training" and s["total"]]
    assert steps == sorted(steps) and all(0 < d <= total for d in steps)
    # One model file, in the cache, for every later solve and process.
    assert [p.name for p in tmp_path.glob("models/*.npz")] == [
        training.model_path(solver.RuleSet.from_toml(HOUSE), 2).name]
    answer = client.post("/api/solve", json=solve)
    assert answer.status_code == 200, answer.text
    rs = solver.RuleSet.from_toml(HOUSE)
    expected = json.loads(solver.solve(CLASSIC, rs, players=2, samples=100).to_json())
    assert answer.json() == expected, {k: (v, expected.get(k)) for k, v in answer.json().items()
                                       if v != expected.get(k)}
    setting = [answer.json()[row] for row in ("front", "middle", "back")]
    review = client.post("/api/review", json=dict(setting=setting, **solve))
    assert review.status_code == 200, review.text
    assert review.json()["rank"] == 1
    # Now ready at once, and said so.
    status = client.post("/api/rules/train", json=body).json()
    assert status["state"] == "ready" and status["id"] == first["id"]


def test_the_progress_estimates_the_time_left(monkeypatch, tmp_path):
    train_env(monkeypatch, tmp_path, (2, 2000), chunk=200)
    with serving() as client:
        status = client.post("/api/rules/train", json=dict(rules="house", rules_file=HOUSE,
                                                           players=2)).json()
        status, _ = wait_for(client, status, lambda s: s["state"] != "training"
                             or s["remaining"] is not None)
        if status["state"] == "training":
            assert 0 < status["done"] <= status["total"] == 6000
            # Deals left: some time left; every deal played (the last fit under way): none.
            assert (status["remaining"] > 0) == (status["done"] < status["total"]), status
        wait_for(client, status, lambda s: s["state"] != "training")


def test_the_time_left_does_not_grow_when_the_first_round_is_quicker():
    # A training as the page saw one: the first of 13 rounds three times as quick as the
    # others, and a pause to fit the model after each.  From the pace since the start the
    # estimate grew (24 s to a minute); from the second round on, once it is over (its
    # pause counted), it is right and falls.
    from solver._progress import time_left
    rounds, deals, step = 13, 20000, 1000
    points, t = [], 7.0                         # (compiling first: not counted)
    for r in range(rounds):
        for done in range(r * deals + step, (r + 1) * deals + 1, step):
            t += 0.04 if r == 0 else 0.12
            points.append((t, done))
        t += 0.5                                # fitting the model
    end, total = points[-1][0], rounds * deals
    shown = [(time_left(points[:k], total, deals), points[k - 1][0])
             for k in range(1, len(points) + 1)]
    estimates = [(left, now) for left, now in shown if left is not None]
    assert len(estimates) > len(points) * 0.8
    for (left, now), (later, _) in zip(estimates, estimates[1:]):
        assert later <= left + 0.6                       # (a fitting pause: a little)
    for left, now in estimates:
        assert abs(left - (end - now)) < 0.1 * (end - now) + 1.0
    (t0, d0) = points[0]                                 # the pace since the start:
    naive = [(total - d) * (t - t0) / (d - d0) for t, d in points[1:60]]
    assert max(naive) > 2 * naive[0]                     # what the page showed before


def _lock_held(path: Path) -> bool:
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def test_the_server_stopping_stops_its_training(monkeypatch, tmp_path):
    # Minutes of training, stopped long before; 100 deals a step, so that it stops well
    # within the second it is given even on a loaded machine.
    train_env(monkeypatch, tmp_path, (30, 20000), chunk=100)
    app = create_app(Limits())
    with serving(app) as client:
        status = client.post("/api/rules/train", json=dict(rules="house", rules_file=HOUSE,
                                                           players=2)).json()
        wait_for(client, status, lambda s: s["done"] > 0)
        worker = app.state.solver.trainings.by_id[status["id"]].worker
    # The lifespan's end (the server stopping) asked it to stop, and it did, by itself
    # (SIGTERM: exit code 0), not killed.
    assert worker.process.poll() == 0, worker.process.poll()
    path = training.model_path(solver.RuleSet.from_toml(HOUSE), 2)
    assert not list(tmp_path.glob("models/*.npz")) and not list(tmp_path.rglob("*.tmp"))
    assert not _lock_held(path.with_suffix(".lock"))


@pytest.mark.parametrize("body, message", [
    (dict(rules="house", rules_file=HOUSE, players=5),
     "players=5: the house rule set plays with 2 or 3 or 4 players"),
    (dict(rules="poker"), "unknown rule set 'poker'"),
    (dict(rules="house", rules_file="name = 3"), "the rules file"),
])
def test_bad_training_requests(client, body, message):
    response = client.post("/api/rules/train", json=body)
    assert response.status_code == 400 and message in response.json()["error"]


def test_an_unknown_training(client):
    response = client.get("/api/rules/train/model-nothing")
    assert response.status_code == 404
    assert response.json()["error"].startswith("no training 'model-nothing' on this server")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux's /proc")
@pytest.mark.slow
def test_ctrl_c_stops_the_server_and_its_training(monkeypatch, tmp_path):
    """The real server (``python3 -m solver serve``): Ctrl+C while it trains stops it
    and the training, which exits by itself (not killed) and leaves nothing behind."""
    train_env(monkeypatch, tmp_path, (30, 20000))            # minutes: stopped long before
    with own_server() as (url, process):
        server_wait_for(lambda: len(children(process)) == 1, "a worker started")
        before = children(process)
        status = httpx.post(url + "api/rules/train", json=dict(
            rules="house", rules_file=HOUSE, players=2), timeout=60).json()
        deadline = time.monotonic() + 300
        while httpx.get(url + f"api/rules/train/{status['id']}").json()["done"] == 0:
            assert time.monotonic() < deadline, "the training never started"
            time.sleep(0.2)
        trainer = (children(process) - before).pop()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err
    assert not Path(f"/proc/{trainer}").exists() or \
        Path(f"/proc/{trainer}/stat").read_text().split()[2] == "Z"
    path = training.model_path(solver.RuleSet.from_toml(HOUSE), 2)
    assert not list(tmp_path.glob("models/*.npz")) and not list(tmp_path.rglob("*.tmp"))
    assert not _lock_held(path.with_suffix(".lock"))


def test_trainings_at_once_are_limited(monkeypatch, tmp_path):
    import solver.web.trainings as trainings_module
    monkeypatch.setattr(trainings_module, "MAX_TRAININGS", 1)
    train_env(monkeypatch, tmp_path, (30, 20000), chunk=100)      # stopped long before
    with serving() as client:
        first = client.post("/api/rules/train", json=dict(rules="house", rules_file=HOUSE))
        assert first.status_code == 200 and first.json()["state"] == "training"
        other = HOUSE.replace("penalty = 6", "penalty = 7")
        refused = client.post("/api/rules/train", json=dict(rules="house", rules_file=other))
        assert refused.status_code == 503
        assert refused.json()["error"] == ("this server is training as many opponent models "
                                           "as it trains at once (1); try again when one is "
                                           "done")
        # The one under way still answers.
        again = client.post("/api/rules/train", json=dict(rules="house", rules_file=HOUSE))
        assert again.json()["id"] == first.json()["id"]


def test_the_time_left_is_never_zero_while_work_is_left():
    # Rounds heard together (no time between them: no pace yet) give no estimate, and a
    # quick training's last seconds show a tenth at least, not "0 s left" (a suite run
    # once saw 0.0 with work still to do); done is 0.
    from solver._progress import time_left
    together = [(1.0, 100), (1.0, 1100), (1.0, 2100), (1.0, 2300)]
    assert time_left(together, 3000, round_size=1000) is None
    quick = [(0.0, 100), (0.001, 1100), (0.002, 2100), (0.003, 2300)]
    assert time_left(quick, 3000, round_size=1000) == 0.1
    assert time_left(quick + [(0.004, 3000)], 3000, round_size=1000) == 0.0
