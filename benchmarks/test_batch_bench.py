"""solve_many throughput: hands per second on one and two local worker processes and on
a two-worker Dask LocalCluster, warm (processes started, kernels loaded), and how well
two workers scale.

    python3 -m pip install -e ".[bench]" && python3 -m pytest benchmarks/test_batch_bench.py
"""
import time

import numpy as np
import pytest

import solver
from solver import batch
from solver.cards import card_name, deck_codes

HANDS = 20
SAMPLES = 1000
ROUNDS = 3

_medians = {}          # workers -> median seconds of the local runs, for the scaling figure
_burns = {}            # workers -> seconds of the control below

# The control: plain CPU work (a builtin, so any worker can run it) through the same
# workers, timed before and after the solves.  On a shared virtual machine two processes
# do not always get two cores' worth of time; the control's own scaling says how much
# the host gave during the run.
BURN = [range(15_000_000)] * 8


def _hands(n=HANDS, seed=0):
    rng = np.random.default_rng(seed)
    deck = deck_codes("classic")
    return [" ".join(card_name(int(c)) for c in rng.choice(deck, 13, replace=False))
            for _ in range(n)]


def _warm(client, slots):
    # Several small tasks a worker, so every worker loads its kernels before the clock.
    solver.solve_many(_hands(4 * slots, seed=99), "classic", samples=20, client=client)


def _burn(client):
    t = time.perf_counter()
    batch.parallel_map(sum, BURN, client=client)
    return time.perf_counter() - t


def _time(benchmark, client, workers, kind):
    hands = _hands()
    _warm(client, workers)
    burn = _burn(client)
    result = benchmark.pedantic(solver.solve_many, args=(hands, "classic"),
                                kwargs=dict(samples=SAMPLES, client=client, progress=False),
                                rounds=ROUNDS, iterations=1)
    burn = (burn + _burn(client)) / 2
    assert len(result) == HANDS
    median = benchmark.stats.stats.median
    info = dict(kind=kind, workers=workers, hands=HANDS, hands_per_round=HANDS,
                samples=SAMPLES,
                hands_per_s=HANDS / median, control_s=burn)
    if kind == "local":
        _medians[workers] = median
        _burns[workers] = burn
    if workers == 2 and 1 in _medians:
        # Two workers' rate over twice one worker's: 1.0 is perfect scaling.  The same
        # figure for the control is what the host allowed.
        info["scaling_efficiency"] = _medians[1] / (2 * median)
        info["control_scaling_efficiency"] = _burns[1] / (2 * burn)
    benchmark.extra_info.update(info)


@pytest.mark.parametrize("workers", [1, 2])
def test_solve_many_local_workers(benchmark, workers):
    with batch.local_pool(workers) as pool:
        _time(benchmark, pool, workers, "local")


def test_solve_many_dask_local_cluster(benchmark):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        _time(benchmark, client, 2, "dask")
