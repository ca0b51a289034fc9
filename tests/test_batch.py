"""solve_many and parallel_map: the answers of one solve at a time, in order, whether in
this process, in local worker processes or on a Dask cluster; bad arguments fail fast."""
import concurrent.futures as cf
import functools
import io
import os
import sys
import threading

import numpy as np
import pytest

import solver
from solver import batch
from solver.cards import card_name, deck_codes

SAMPLES = 50


def _hands(rule_set, n, seed, exclude=()):
    rs = solver.rule_set(rule_set)
    deck = [c for c in deck_codes(rs) if card_name(c) not in exclude]
    rng = np.random.default_rng(seed)
    return [" ".join(card_name(int(c)) for c in rng.choice(deck, rs.cards_dealt, replace=False))
            for _ in range(n)]


def _bonus_case(n, seed):
    """Bonus hands, each with its own cut card (one not in the hand)."""
    rng = np.random.default_rng(seed)
    cuts = [card_name(int(c)) for c in rng.choice(deck_codes("bonus")[:52], n)]
    hands = [_hands("bonus", 1, seed + i, exclude=(cut,))[0] for i, cut in enumerate(cuts)]
    return hands, cuts


# One hand set per rule set, and its answers solved one at a time (once per module).
CASES = {"classic": (_hands("classic", 8, 11), None), "bonus": _bonus_case(6, 23)}


@pytest.fixture(scope="module")
def expected():
    out = {}
    for rule_set, (hands, cuts) in CASES.items():
        cuts = cuts if cuts is not None else [None] * len(hands)
        out[rule_set] = [solver.solve(h, rule_set, c, samples=SAMPLES)
                         for h, c in zip(hands, cuts)]
    return out


@pytest.fixture(scope="module")
def pool():
    """Two local worker processes, started once for the module."""
    with batch.local_pool(2) as p:
        yield p


# --- the same answers, in order ---------------------------------------------------------------
@pytest.mark.parametrize("rule_set", CASES)
def test_one_worker_is_one_solve_at_a_time(expected, rule_set):
    hands, cuts = CASES[rule_set]
    assert solver.solve_many(hands, rule_set, cuts, samples=SAMPLES, workers=1) \
        == expected[rule_set]


@pytest.mark.parametrize("rule_set", CASES)
def test_two_workers_is_one_solve_at_a_time(expected, rule_set):
    hands, cuts = CASES[rule_set]
    assert solver.solve_many(hands, rule_set, cuts, samples=SAMPLES, workers=2) \
        == expected[rule_set]


def test_a_pool_serves_many_calls(expected, pool):
    hands, cuts = CASES["bonus"]
    for _ in range(2):
        assert solver.solve_many(hands, "bonus", cuts, samples=SAMPLES, client=pool) \
            == expected["bonus"]
    # Reversed hands, reversed answers: each answer lands in its hand's place.
    assert solver.solve_many(hands[::-1], "bonus", cuts[::-1], samples=SAMPLES, client=pool) \
        == expected["bonus"][::-1]


def test_one_cut_card_for_every_hand():
    hands = _hands("bonus", 3, 5, exclude=("7c",))
    assert solver.solve_many(hands, "bonus", "7c", samples=SAMPLES, workers=1) \
        == [solver.solve(h, "bonus", "7c", samples=SAMPLES) for h in hands]


def test_parallel_map_keeps_order_and_takes_an_iterator(pool):
    square = functools.partial(pow, exp=2)
    items = (x for x in range(23))                      # an iterator, not a list
    assert batch.parallel_map(square, items, client=pool, chunksize=3) \
        == [x * x for x in range(23)]
    assert batch.parallel_map(square, [], client=pool) == []
    assert batch.parallel_map(square, range(5), workers=1) == [0, 1, 4, 9, 16]


_consumed = 0      # items taken from the iterator
_finished = 0      # items mapped
_lock = threading.Lock()


def _not_yet_mapped(i):
    """How many items the map had taken from the iterator and not yet mapped."""
    global _finished
    with _lock:
        _finished += 1
        return _consumed - _finished + 1


def _counting(n):
    global _consumed
    for i in range(n):
        with _lock:
            _consumed += 1
        yield i


def test_an_iterator_is_consumed_a_few_tasks_ahead():
    global _consumed, _finished
    _consumed = _finished = 0
    with cf.ThreadPoolExecutor(2) as threads:
        taken = batch.parallel_map(_not_yet_mapped, _counting(200), client=threads, chunksize=2)
    # At most 2 tasks a worker in flight, of 2 items each.
    assert 1 <= max(taken) <= 2 * 2 * 2
    assert _consumed == _finished == 200


# --- errors name their item -----------------------------------------------------------------
@pytest.mark.parametrize("where", ["serial", "pool"])
def test_a_task_error_names_its_item(pool, where):
    run = dict(workers=1) if where == "serial" else dict(client=pool)
    # The first failing item is the one named, as in a plain loop.
    with pytest.raises(ValueError, match=r"^item 2: invalid literal for int\(\)"):
        batch.parallel_map(int, ["1", "2", "x", "4", "y"], chunksize=2, **run)
    # A type that cannot be rebuilt from one message keeps its type and gets a note.
    with pytest.raises(UnicodeDecodeError) as info:
        batch.parallel_map(bytes.decode, [b"a", b"\xff"], **run)
    assert info.value.__notes__ == ["item 1"]


def test_a_dead_worker_names_its_task_items():
    with batch.local_pool(1) as doomed:
        with pytest.raises(cf.process.BrokenProcessPool, match=r"^items 0-2: "):
            batch.parallel_map(os._exit, [3, 3, 3], client=doomed, chunksize=3)


def test_a_hand_failing_in_its_task_names_its_index(pool):
    # Explicit opponents holding the 2c: every hand solves except the one holding it,
    # which only solve itself (inside a task of several hands) can tell.
    opponent = ("2c 3d 4h", "5c 6d 7h 8s Tc", "Jd Qh Ks As 9c")
    hands = _hands("pagat", 20, 3, exclude=" ".join(opponent).split())
    hands[13] = "2c " + " ".join(hands[13].split()[1:])
    with pytest.raises(ValueError, match=r"^hand 13: sample 0: opponent 0 front"):
        solver.solve_many(hands, "pagat", players=2, opponents=[[opponent]], client=pool)


def test_bad_hands_and_cuts_fail_first_naming_their_index():
    # workers=2 would start processes: the checks come first, in this process.
    good = _hands("classic", 4, 2)
    with pytest.raises(ValueError, match=r"^hand 3: .*'Zz'"):
        solver.solve_many(good[:3] + ["Zz " + good[3][3:]], "classic", workers=2)
    with pytest.raises(ValueError, match=r"^hand 1: the classic rule set deals 13 cards, not 12"):
        solver.solve_many([good[0], " ".join(good[1].split()[:12])], "classic", workers=2)
    with pytest.raises(ValueError, match=r"^hand 2: cards must be"):
        solver.solve_many(good[:2] + [None], "classic", workers=2)
    with pytest.raises(ValueError, match="a sequence of hands, not one text"):
        solver.solve_many(good[0], "classic")
    with pytest.raises(ValueError, match="unknown rule set 'poker'"):
        solver.solve_many(good, "poker")
    with pytest.raises(TypeError, match="sampels"):
        solver.solve_many(good, "classic", sampels=10)
    bonus, cuts = CASES["bonus"]
    with pytest.raises(ValueError, match="^hand 0: the bonus rule set needs the cut card"):
        solver.solve_many(bonus, "bonus", workers=2)
    with pytest.raises(ValueError, match=r"^hand 0: the classic rule set has no cut card "
                                         r"\(cut='4c'\)"):
        solver.solve_many(good, "classic", "4c", workers=2)
    with pytest.raises(ValueError, match="^cut: 2 cut cards for 6 hands"):
        solver.solve_many(bonus, "bonus", cuts[:2], workers=2)
    held = next(c for c in bonus[4].split() if not c.endswith("s"))   # one copy in the deck
    with pytest.raises(ValueError, match=f"^hand 4: the cut card {held} and the hand"):
        solver.solve_many(bonus, "bonus", cuts[:4] + [held] + cuts[5:], workers=2)
    assert solver.solve_many([], "classic", workers=2) == []


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_bad_workers(workers):
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        batch.parallel_map(abs, [1], workers=workers)
    with pytest.raises(ValueError, match="workers must be a positive integer"):
        solver.solve_many(_hands("classic", 1, 1), "classic", workers=workers)


@pytest.mark.parametrize("client", [object(), "tcp://127.0.0.1:8786", 2])
def test_bad_client(client):
    with pytest.raises(ValueError, match="client must be a dask.distributed.Client") as info:
        batch.parallel_map(abs, [1], client=client)
    assert repr(client) in str(info.value)


def test_a_small_batch_starts_no_worker_processes(monkeypatch, expected):
    """By default a batch too small to repay a process's start is solved in this one."""
    def no_pool(*args, **kwargs):
        raise AssertionError("a worker process was started")
    monkeypatch.setattr(batch, "local_pool", no_pool)
    hands, cuts = CASES["classic"]
    assert solver.solve_many(hands, "classic", samples=SAMPLES) == expected["classic"]
    cores = os.cpu_count() or 1
    assert [batch.default_workers(n * batch.HANDS_PER_WORKER) for n in (0, 1, 2, 1000)] \
        == [1, 1, min(cores, 2), cores]


def test_workers_and_client_together_are_refused(pool):
    with pytest.raises(ValueError, match="not both"):
        batch.parallel_map(abs, [1], workers=2, client=pool)
    with pytest.raises(ValueError, match="not both"):
        solver.solve_many(_hands("classic", 1, 1), "classic", workers=1, client=pool)


# --- progress -------------------------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("stderr, progress, shown", [
    (io.StringIO, None, False), (_Terminal, None, True), (io.StringIO, True, True),
    (_Terminal, False, False)])
def test_progress_bar_only_on_a_terminal_unless_forced(monkeypatch, stderr, progress, shown):
    err = stderr()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.delenv("SOLVER_QUIET", raising=False)        # (the tests' conftest sets it)
    hands = _hands("classic", 3, 7)
    solver.solve_many(hands, "classic", samples=5, workers=1, progress=progress)
    assert ("hands: 100%" in err.getvalue() and "3/3" in err.getvalue()) == shown
    assert "solve_many" not in err.getvalue()           # the bar says what it counts
    if not shown:
        assert err.getvalue() == ""


def test_solver_quiet_hides_the_bar_unless_forced(monkeypatch):
    monkeypatch.setenv("SOLVER_QUIET", "1")
    for progress, shown in ((None, False), (True, True)):
        err = _Terminal()
        monkeypatch.setattr(sys, "stderr", err)
        batch.parallel_map(abs, [1, -2], workers=1, progress=progress)
        assert ("2/2" in err.getvalue()) == shown


def test_bad_progress():
    with pytest.raises(ValueError, match="progress must be True, False or None"):
        batch.parallel_map(abs, [1], workers=1, progress="yes")


# --- a Dask cluster -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install -e '.[test]' "
                              "installs it; CI runs this test)")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def test_dask_cluster_gives_the_same_answers(expected, dask_client):
    # The workers import this very package (PYTHONPATH and sys.path reach them).
    files = dask_client.run(lambda: __import__("solver").__file__)
    assert len(files) == 2 and set(files.values()) == {solver.__file__}
    for rule_set, (hands, cuts) in CASES.items():
        assert solver.solve_many(hands, rule_set, cuts, samples=SAMPLES, client=dask_client) \
            == expected[rule_set]
    with pytest.raises(ValueError, match=r"^item 2: invalid literal for int\(\)"):
        batch.parallel_map(int, ["1", "2", "x", "4", "y"], client=dask_client)
