"""Opponent models for rule sets without a shipped one (solver.training): the content
digest, the shipped twin, training on first use and ahead of time, the cache, the lock
between processes, Ctrl+C, and the ``train`` command."""
import dataclasses
import fcntl
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import solver
import solver.training as training
from solver import policy_training
from solver.__main__ import main
from solver.model import (TableModel, load_fields, model_file, rules_digest,
                          shipped_twin)
from solver.pool import applies

TINY = training.Preset(1, 300)          # seconds, not minutes


def custom(**changes):
    """A rule set no shipped model fits (classic with another foul penalty)."""
    return dataclasses.replace(solver.rule_set("classic"), name="classic-test",
                               **{"foul_penalty": 6, **changes})


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLVER_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(training.PRESETS, "default", TINY)
    monkeypatch.setitem(training.PRESETS, "quick", training.Preset(1, 100))
    return tmp_path


# --- the digest -----------------------------------------------------------------------------
def test_the_digest_covers_every_field_but_the_name():
    rs = solver.rule_set("classic")
    names = {f.name for f in dataclasses.fields(rs)}
    assert set(rs.content()) == names - {"name"}
    assert rules_digest(dataclasses.replace(rs, name="anything")) == rules_digest(rs)


@pytest.mark.parametrize("change", [
    dict(foul_penalty=5), dict(majority_bonus=2), dict(seats=(2, 3)),
    dict(jokers=1, automatic_wins={}),
    dict(automatic_wins={"dragon": 13}), dict(foul_loses_rows=True),
    dict(automatic_wins_declared=False),
    dict(automatic_win_strength={"dragon": 2, "six_pairs": 1, "three_flushes": 1,
                                 "three_straights": 1}),
    dict(row_bonus=tuple(tuple(u + (r == 2 and c == 11) for c, u in enumerate(row))
                         for r, row in enumerate(solver.rule_set("classic").row_bonus))),
])
def test_the_digest_changes_when_a_field_changes(change):
    rs = solver.rule_set("classic")
    assert rules_digest(dataclasses.replace(rs, **change)) != rules_digest(rs)


def test_the_built_in_rule_sets_have_distinct_digests():
    digests = {name: rules_digest(name) for name in solver.RULE_SET_NAMES}
    assert digests["classic"] == digests["classic:western"]
    assert len(set(digests.values())) == len(solver.RULE_SET_NAMES) - 1


# --- which model ------------------------------------------------------------------------------
def test_a_renamed_built_in_uses_the_shipped_model(cache):
    twin = dataclasses.replace(solver.rule_set("pagat"), name="my pagat")
    assert shipped_twin(twin, 0) is solver.rule_set("pagat")
    got = solver.train_model(twin, 2)
    assert got.source == "shipped" and got.path == model_file(solver.rule_set("pagat"), 0)
    shipped = load_fields(got.path)[-1]
    assert len(shipped) == len(got.model.fields[-1]) == 1
    assert all((a == b).all() for a, b in zip(got.model.fields[-1][0].values, shipped[0].values))
    assert not list(cache.rglob("*.npz"))             # nothing trained
    assert applies(twin, 2, None)                      # and it solves from the pool


def test_a_new_rule_set_trains_caches_and_loads(cache, monkeypatch):
    rs = custom()
    assert shipped_twin(rs, 0) is None and not applies(rs, 2, None)
    first = solver.train_model(rs, 2, progress=False)
    assert first.source == "trained" and first.path.exists()
    assert first.path.parent == cache / "models" and rules_digest(rs) in first.path.name
    assert [p.suffix for p in first.path.parent.iterdir()] in ([".npz", ".lock"],
                                                              [".lock", ".npz"])

    def no_training(*args, **kwargs):
        raise AssertionError("trained again")
    monkeypatch.setattr(training, "self_play", no_training)
    second = solver.train_model(rs, 3, progress=False)       # any seat count: one model
    assert second.source == "cache" and second.path == first.path
    for a, b in zip(first.model.fields[-1][0].weights, second.model.fields[-1][0].weights):
        np.testing.assert_array_equal(a, b)
    # Another foul penalty is another game: another model.
    assert training.model_path(custom(foul_penalty=7), 2) != first.path


def test_a_rule_set_with_jokers_keeps_a_field_for_each_number_held(cache):
    """A model trained for a deck with jokers has a field for each number of jokers a hand
    can hold (solver.model.joker_groups), is cached under format 2 (a format-1 file of one
    field is not taken for it) and loads with every group; one of neither jokers nor the
    western scheme keeps the format-1 name its files always had."""
    rs = dataclasses.replace(solver.rule_set("two-jokers"), name="jokers-test", foul_penalty=9)
    path = training.model_path(rs, 2)
    assert path.name.endswith("-v2.npz")
    assert training.model_path(dataclasses.replace(solver.rule_set("pagat"), name="p-test",
                                                   foul_penalty=4), 2).name.endswith("-v1.npz")
    got = solver.train_model(rs, 2, progress=False)
    assert got.path == path and len(got.model.fields[-1]) == 3
    again = solver.train_model(rs, 2, progress=False)
    assert again.source == "cache" and len(again.model.fields[-1]) == 3
    for a, b in zip(got.model.fields[-1], again.model.fields[-1]):
        np.testing.assert_array_equal(a.weights[2], b.weights[2])
    # Each group is the field its hands meet: holding both jokers, the other hands hold
    # none, so their Backs are weaker than those met holding none.
    none, both = got.model.fields[-1][0], got.model.fields[-1][2]
    mean = lambda f: (f.values[2] * f.weights[2]).sum() / f.weights[2].sum()
    assert mean(both) < mean(none)


def test_a_western_rule_set_keeps_a_field_for_each_group_of_high_cards(cache):
    """A model trained for a rule set of the western scheme groups hands by their
    high-card points (solver.model.group_kind), is cached under format 3 (a file of one
    field is not taken for it) and loads with its key, which sets hands as trained."""
    from solver.model import HIGH_CARD_POINTS, load_model_file
    rs = custom(foul_penalty=8)
    path = training.model_path(rs, 2)
    assert path.name.endswith("-v3.npz")
    got = solver.train_model(rs, 2, progress=False)
    assert got.path == path and got.model.key.rank_weights == HIGH_CARD_POINTS
    assert got.model.key.groups == len(got.model.fields[-1]) >= 3
    fields, key = load_model_file(path)
    assert key == got.model.key and len(fields[-1]) == key.groups
    again = solver.train_model(rs, 2, progress=False)
    assert again.source == "cache" and again.model.key == got.model.key
    hand = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
    assert (solver.quick_set(hand, rs, players=2, policy=again.model)
            == solver.quick_set(hand, rs, players=2, policy=got.model))
    # A key that does not fit the fields is a damaged file: said, trained again.
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["key_cuts"] = arrays["key_cuts"][:-1]
    np.savez(path.with_suffix(".tmp.npz"), **arrays)
    os.replace(path.with_suffix(".tmp.npz"), path)
    assert training._load(path, rs, 2, "default") is None


def test_a_solve_trains_on_first_use_then_loads(cache, monkeypatch):
    rs = custom(foul_penalty=9)
    hand = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
    monkeypatch.delenv("SOLVER_QUIET", raising=False)
    setting = solver.quick_set(hand, rs, players=2)
    assert len(list((cache / "models").glob("*.npz"))) == 1
    model = TableModel.shipped(rs, 2)
    assert model.rules == rs
    solution = solver.solve(hand, rs, players=2, samples=200, holdout=0)
    assert solution.ev is not None and len(setting) == 3


def test_the_default_model_is_preferred_to_the_quick_one(cache):
    rs = custom(foul_penalty=11)
    quick = solver.train_model(rs, 2, quick=True, progress=False)
    assert training._on_first_use(rs, 2).fields[-1][0].weights[0].sum() == pytest.approx(
        quick.model.fields[-1][0].weights[0].sum())
    default = solver.train_model(rs, 2, progress=False)
    assert default.path != quick.path
    used = training._on_first_use(rs, 2).fields[-1][0]
    for a, b in zip(used.values, default.model.fields[-1][0].values):
        np.testing.assert_array_equal(a, b)


def test_a_damaged_model_file_is_said_and_trained_again(cache, capsys):
    rs = custom(foul_penalty=12)
    path = solver.train_model(rs, 2, progress=False).path
    path.write_bytes(path.read_bytes()[:100])
    again = solver.train_model(rs, 2, progress=False)
    assert again.source == "trained" and "is damaged" in capsys.readouterr().err


def test_training_in_chunks_gives_the_same_model(monkeypatch):
    rs = custom()
    whole = policy_training.self_play(rs, 2, rounds=2, deals=500)
    monkeypatch.setattr(policy_training, "CHUNK_DEALS", 64)
    seen = []
    parts = policy_training.self_play(rs, 2, rounds=2, deals=500, on_deals=seen.append)
    assert sum(seen) == 3 * 500 and max(seen) == 64
    for a, b in zip(whole.fields[-1][0].values + whole.fields[-1][0].weights,
                    parts.fields[-1][0].values + parts.fields[-1][0].weights):
        np.testing.assert_array_equal(a, b)


def test_bad_arguments(cache):
    with pytest.raises(ValueError, match="players=5"):
        solver.train_model(custom(), 5)
    with pytest.raises(ValueError, match="players must be an integer"):
        solver.train_model(custom(), "2")


# --- between processes ------------------------------------------------------------------------
SCRIPT = textwrap.dedent("""
    import dataclasses, sys
    import solver, solver.training as training
    training.PRESETS["default"] = training.Preset(*map(int, sys.argv[1:3]))
    rs = dataclasses.replace(solver.rule_set("classic"), name="classic-test", foul_penalty=6)
    print(solver.train_model(rs, 2, progress=False).source, flush=True)
""")


def _start(cache, rounds, deals, name):
    """A process training the custom model; its stderr goes to the file ``name``."""
    env = dict(os.environ, SOLVER_CACHE_DIR=str(cache))
    env.pop("SOLVER_QUIET", None)
    return subprocess.Popen([sys.executable, "-c", SCRIPT, str(rounds), str(deals)], env=env,
                            stdout=subprocess.PIPE, stderr=open(cache / name, "w"), text=True)


def test_two_processes_train_once(cache):
    path = training.model_path(custom(), 2)
    path.parent.mkdir(parents=True)
    # Hold the lock, so that both processes find it taken and wait; then let them go.
    fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    procs = [_start(cache, *TINY[:2], f"err{i}") for i in range(2)]
    errs = [cache / f"err{i}" for i in range(2)]
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(
                "waiting for another process" in e.read_text() for e in errs):
            time.sleep(0.2)
    finally:
        os.close(fd)
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e.read_text() for e in errs]
    assert sorted(out.strip() for out in outs) == ["cache", "trained"]
    assert all("waiting for another process" in e.read_text() for e in errs)
    assert [p.name for p in path.parent.glob("*.npz")] == [path.name]
    assert not list(path.parent.glob("*.tmp"))


def test_ctrl_c_leaves_nothing_behind(cache, monkeypatch):
    long = training.Preset(30, 20000)               # minutes: it is stopped long before
    monkeypatch.setitem(training.PRESETS, "default", long)
    path = training.model_path(custom(), 2)
    proc = _start(cache, long.rounds, long.deals, "err")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _training(path):
            time.sleep(0.2)
        _training_seen = _training(path)
        time.sleep(1.0)                              # well into the self-play
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        proc.communicate(timeout=60)
        stopped = time.monotonic() - start
    finally:
        proc.kill()
    assert _training_seen, "the process never started training"
    assert proc.returncode != 0
    assert stopped < 5                               # (a loaded machine: about 1 s alone)
    assert not list(path.parent.glob("*.npz")) and not list(path.parent.glob("*.tmp"))


def _training(path: Path) -> bool:
    """Whether some process holds the lock of ``path`` (it is training)."""
    if not path.with_suffix(".lock").exists():
        return False
    fd = os.open(path.with_suffix(".lock"), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


# --- the command ------------------------------------------------------------------------------
def test_the_train_command(cache, capsys, monkeypatch):
    real = solver.rule_set
    monkeypatch.setattr(solver, "rule_set",
                        lambda name: custom() if name == "classic-test" else real(name))
    assert main(["train", "classic-test", "--players", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("classic-test, 2 players: trained in ") and "default preset" in out
    assert main(["train", "classic-test", "--quick", "--quiet"]) == 0
    assert "trained in" in capsys.readouterr().out        # the quick preset is its own
    assert main(["train", "classic-test", "--quiet"]) == 0
    assert "already trained (default preset" in capsys.readouterr().out
    assert main(["train", "classic"]) == 0
    assert "the model shipped with the library" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["train", "poker"], "unknown rule set 'poker'"),
    (["train", "classic", "--players", "9"], "--players 9: the classic rule set plays"),
    (["train"], "the following arguments are required: rules"),
])
def test_the_train_command_errors(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) <= 3


# --- progress for a caller, and finding a model without training -----------------------------
def test_on_progress_hears_every_deal_and_can_stop_the_training(cache, monkeypatch):
    monkeypatch.setattr(policy_training, "CHUNK_DEALS", 100)
    heard = []
    solver.train_model(custom(foul_penalty=13), 2, progress=False,
                       on_progress=lambda done, total: heard.append((done, total)))
    total = (TINY.rounds + 1) * TINY.deals
    assert heard[-1] == (total, total) and len(heard) == total // 100
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop
    rs = custom(foul_penalty=14)
    with pytest.raises(Stop):
        solver.train_model(rs, 2, progress=False, on_progress=stop)
    assert not training.model_path(rs, 2).exists() and not list(cache.rglob("*.tmp"))


def test_trained_model_finds_a_model_without_training(cache, monkeypatch):
    rs = custom(foul_penalty=15)
    assert training.trained_model(rs, 2) is None
    assert training.trained_model(dataclasses.replace(solver.rule_set("pagat"), name="p"),
                                  2).source == "shipped"
    quick = solver.train_model(rs, 2, quick=True, progress=False)

    def no_training(*args, **kwargs):
        raise AssertionError("trained")
    monkeypatch.setattr(training, "self_play", no_training)
    found = training.trained_model(rs, 3)               # (one model for every table size)
    assert found.source == "cache" and found.path == quick.path and found.preset == "quick"
    with pytest.raises(ValueError, match="players=5"):
        training.trained_model(rs, 5)
