"""Many hands at once: :func:`solve_many`, and :func:`parallel_map`, the machinery under it.

``parallel_map(fn, items)`` is ``[fn(x) for x in items]``, run in local worker processes
or on a Dask cluster, with the same result in the same order.  ``solve_many`` solves a
list of hands with it, each exactly as :func:`solver.solve` would (same seed, same
answer: a solve never depends on the process or the number of threads it runs in).

Where the work runs
-------------------
* ``workers=1``: in this process, one item after the other (no pool, no pickling).
* ``workers=n`` (default: one per core, ``os.cpu_count()``; for :func:`solve_many`, no
  more than one per HANDS_PER_WORKER hands, since a process costs seconds to start):
  ``n`` new local processes, started for the call and stopped after it.  To keep processes (and their loaded
  kernels) across calls, make a pool once with :func:`local_pool` and pass it as
  ``client=``.
* ``client=``: a ``dask.distributed.Client`` (``pip install "chinese-poker-solver[dask]"``)
  runs the same tasks on its cluster; any ``concurrent.futures.Executor``, such as a
  :func:`local_pool`, works too.  Give the cluster one thread per core
  (``threads_per_worker=1`` and a worker process per core is simplest).

Every worker runs Numba on one thread (``numba.set_num_threads(1)``): the cores are
already shared out between processes, and more threads would only oversubscribe them.

What ``fn`` must be
-------------------
``fn`` and the items travel to other processes by pickle, so ``fn`` must be a function
defined at the top level of an importable module (not a lambda, not a function nested
in another, not one defined in an interactive session), or a ``functools.partial`` of
one with picklable arguments; the results must be picklable too.  Local workers are
*started* (not forked), so a script that calls ``parallel_map``/``solve_many`` with more
than one worker must do so under ``if __name__ == "__main__":``.

Errors
------
An exception raised by ``fn`` reaches the caller as the same type with the item's
index before its message (``ValueError: hand 7: ...``); when several items fail, the
error of the first of them is raised, as a plain loop would.  If that type cannot be
rebuilt from one message, the original exception is raised with the index as a note.
A failure outside ``fn`` (a worker process dying, say) names the range of items its
task held.

Ctrl+C
------
Local worker processes ignore SIGINT, which a terminal sends to every process of the
command: the calling process gets the ``KeyboardInterrupt`` and stops the processes it
started for the call at once (those of a pool passed as ``client=`` finish the tasks
they hold; the others are cancelled).
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import inspect
import itertools
import math
import multiprocessing
import numbers
import os
import signal
import threading
import warnings
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, TypeVar

import numba

from . import _progress
from .cards import format_cards, parse_cards
from .rows import bonus_rank_of
from .rules import rule_set
from .solve import Solution, solve

T = TypeVar("T")
R = TypeVar("R")

# Tasks in flight per worker slot: enough to keep every worker busy while results travel
# back, few enough that memory does not grow with the number of items.
_IN_FLIGHT_PER_SLOT = 2
# solve_many: at most this many hands a task, and about this many tasks per worker slot
# (several hands a task keep the per-task overhead small; several tasks a slot keep the
# slots evenly loaded at the end).
_MAX_HANDS_PER_TASK = 8
_TASKS_PER_SLOT = 4
# solve_many's default: at most one worker process per this many hands.  A process takes
# seconds to start (Python, Numba and the cached kernels: 3-4 s on a busy 2-core machine)
# and a default solve tens of milliseconds, so a smaller batch is done sooner in this
# process, whose solves use every core for their larger steps anyway (solver._jit).  On
# that machine, default joker solves: 32 hands took 0.7 s in one process and 3.9 s in
# two; 256 hands 19.1 s against 26.0 s, and 10.6 s against 10.7 s when it was less busy;
# 512 hands 24.3 s against 22.4 s (benchmarks/README.md, "How many worker processes").
HANDS_PER_WORKER = 256


# --- the parallel machinery -----------------------------------------------------------------
def local_pool(workers: Optional[int] = None) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` local processes (default: one per core) set up for
    :func:`parallel_map` and :func:`solve_many`; pass it as ``client=`` to reuse its
    processes, and their loaded kernels, across calls.  Use it as a context manager (or
    call ``shutdown()``) to stop the processes.

    The processes are started with the 'spawn' method, not forked: Numba's threading
    layers are not fork-safe once their threads have started (GNU OpenMP, the ``omp``
    layer, can hang or abort in a child forked after it ran a parallel kernel; see
    Numba's "The Threading Layers"), and a fresh interpreter is the portable way round
    it.  Each process then runs Numba on one thread.
    """
    n = _check_workers(workers)
    return cf.ProcessPoolExecutor(max_workers=n if n is not None else _cores(),
                                  mp_context=multiprocessing.get_context("spawn"),
                                  initializer=_init_worker)


def parallel_map(fn: Callable[[T], R], items: Iterable[T], *, workers: Optional[int] = None,
                 client: Any = None, progress: Optional[bool] = None,
                 desc: Optional[str] = None, chunksize: int = 1) -> list[R]:
    """``[fn(x) for x in items]``, in order, computed by local processes or a cluster.

    Parameters
    ----------
    fn: a picklable function of one item (a top-level function, or a
        ``functools.partial`` of one); see the module's notes.
    items: any iterable; an iterator is consumed lazily, a few tasks ahead of the
        workers, so only the results accumulate.
    workers: local processes (default: one per core; never more than there are tasks);
        ``1`` runs in this process.
    client: a ``dask.distributed.Client`` or a ``concurrent.futures.Executor`` (such as
        :func:`local_pool`) to run the tasks on instead; not together with ``workers``.
    progress: a tqdm bar on stderr; ``None`` shows it only when stderr is a terminal
        (and ``SOLVER_QUIET=1`` is not set: :func:`solver._progress.shown`).
    desc: the bar's label.
    chunksize: items a task (for cheap ``fn``: fewer, larger tasks cost less overhead).

    >>> parallel_map(abs, [-3, 1, -2], workers=1)
    [3, 1, 2]
    >>> parallel_map(int, ["1", "x"], workers=1)
    Traceback (most recent call last):
    ...
    ValueError: item 1: invalid literal for int() with base 10: 'x'
    """
    total = len(items) if hasattr(items, "__len__") else None   # type: ignore[arg-type]
    return _map(fn, items, workers=workers, client=client, progress=progress, desc=desc,
                chunksize=chunksize, label="item", total=total)


def _map(fn, items, *, workers, client, progress, desc, chunksize, label, total):
    workers = _check_backend(workers, client)
    if progress is not None and not isinstance(progress, bool):
        raise ValueError(f"progress must be True, False or None, not {progress!r}")
    if isinstance(chunksize, bool) or not isinstance(chunksize, numbers.Integral) \
            or chunksize < 1:
        raise ValueError(f"chunksize must be a positive integer, not {chunksize!r}")
    chunks = _chunks(iter(items), int(chunksize))
    out: list = []
    with _progress.bar(progress, total, desc, label) as bar:
        if client is not None:
            _run_on(client, fn, chunks, out, bar, label)
            return out
        n = workers if workers is not None else _cores()
        if total is not None:
            n = min(n, math.ceil(total / chunksize))
        if n <= 1:
            for start, chunk in chunks:
                out += _run_chunk(fn, start, chunk, label, None)
                bar.update(len(chunk))
            return out
        pool = local_pool(n)
        try:
            _run_on(pool, fn, chunks, out, bar, label)
        except BaseException:
            _stop_now(pool)
            raise
        pool.shutdown()
        return out


def _stop_now(pool: cf.ProcessPoolExecutor) -> None:
    """Stops a pool's processes without waiting for their tasks (a Numba kernel at work
    would not notice anything gentler), and drops the tasks not started."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored within the block (in the main thread; elsewhere nothing changes).
    A process started meanwhile inherits that, and Python then leaves it ignored: a
    local worker process ignores Ctrl+C from its first instant, and the caller stops it
    (:func:`_stop_now`)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _run_on(client, fn, chunks, out, bar, label):
    """Runs the chunks' tasks on an executor or a Dask client, a bounded number in flight,
    and puts each task's results in its place in ``out``."""
    if isinstance(client, cf.Executor):
        slots = getattr(client, "_max_workers", None) or _cores()

        def submit(start, chunk):
            with _sigint_ignored():        # (a local pool starts its processes here)
                return client.submit(_run_chunk, fn, start, chunk, label, 1)

        def wait_first(futures):
            return cf.wait(futures, return_when=cf.FIRST_COMPLETED).done
    else:
        import distributed

        slots = max(1, sum(client.nthreads().values()))

        def submit(start, chunk):
            # pure=False: every task is new work, not a result Dask may reuse by its hash.
            return client.submit(_run_chunk, fn, start, chunk, label, 1, pure=False)

        def wait_first(futures):
            return distributed.wait(futures, return_when="FIRST_COMPLETED").done

    limit = _IN_FLIGHT_PER_SLOT * slots
    pending: dict = {}          # future -> (start, size)
    failed = None               # (start, size, exception) of the first failing task
    try:
        while True:
            while failed is None and len(pending) < limit:
                nxt = next(chunks, None)
                if nxt is None:
                    break
                start, chunk = nxt
                out.extend([None] * len(chunk))
                pending[submit(start, chunk)] = (start, len(chunk))
            if not pending:
                break
            for future in wait_first(list(pending)):
                start, size = pending.pop(future)
                try:
                    out[start:start + size] = future.result()
                except Exception as e:
                    if failed is None or start < failed[0]:
                        failed = (start, size, e)
                    continue
                bar.update(size)
            if failed is not None:
                # Only a task before the failing one could still fail first.
                for future, (start, _) in list(pending.items()):
                    if start > failed[0]:
                        future.cancel()
                        del pending[future]
    finally:
        for future in pending:
            future.cancel()
    if failed is not None:
        start, size, e = failed
        if getattr(e, "_batch_labelled", False):
            raise e
        # A failure outside fn (a worker process died, a result would not pickle): the
        # task's items.
        where = f"{label} {start}" if size == 1 else f"{label}s {start}-{start + size - 1}"
        new = _labelled(e, where)
        if new is e:
            raise e
        raise new from e


def _run_chunk(fn, start, chunk, label, threads):
    """``[fn(x) for x in chunk]``, with Numba on ``threads`` threads (None: as it is) for
    the duration; an error names its item's index."""
    before = None
    if threads is not None:
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
    try:
        out = []
        for i, x in enumerate(chunk, start):
            try:
                out.append(fn(x))
            except Exception as e:
                new = _labelled(e, f"{label} {i}")
                if new is e:
                    raise
                raise new from e
        return out
    finally:
        if before is not None:
            numba.set_num_threads(before)


def _labelled(e: Exception, where: str) -> Exception:
    """An exception of ``e``'s type whose message starts with ``where``; ``e`` itself,
    with ``where`` as a note, if its type cannot be built from one message."""
    try:
        new = type(e)(f"{where}: {e}")
    except Exception:
        if hasattr(e, "add_note"):
            e.add_note(where)
        new = e
    try:
        new._batch_labelled = True   # survives pickling (BaseException keeps its __dict__)
    except AttributeError:
        pass
    return new


def _init_worker():
    numba.set_num_threads(1)
    # A worker's warnings reach the terminal one a hand, out of order; each Solution says
    # it in its text anyway (a solve of fewer than FEW_DEALS deals).
    warnings.filterwarnings("ignore", message=".*cannot tell settings apart",
                            category=UserWarning)


def _cores() -> int:
    return os.cpu_count() or 1


def _chunks(items: Iterator, size: int):
    """(index of the first item, list of up to ``size`` items), lazily."""
    start = 0
    while True:
        chunk = list(itertools.islice(items, size))
        if not chunk:
            return
        yield start, chunk
        start += len(chunk)


def _check_workers(workers):
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 1:
        raise ValueError(f"workers must be a positive integer (or None: one per core), "
                         f"not {workers!r}")
    return int(workers)


def _check_backend(workers, client):
    """Validated ``workers`` (``client`` is checked, and not both may be given)."""
    workers = _check_workers(workers)
    _check_client(client)
    if workers is not None and client is not None:
        raise ValueError(f"give workers= or client=, not both (workers={workers!r}, "
                         f"client={client!r})")
    return workers


def _check_client(client):
    if client is None:
        return
    if not (callable(getattr(client, "submit", None)) and callable(getattr(client, "map", None))):
        raise ValueError(f"client must be a dask.distributed.Client or a "
                         f"concurrent.futures.Executor, not {client!r}")
    if isinstance(client, cf.Executor):
        return
    try:
        import distributed
    except ImportError:
        distributed = None
    if distributed is None or not isinstance(client, distributed.Client):
        raise ValueError(f"client must be a dask.distributed.Client or a "
                         f"concurrent.futures.Executor, not {client!r}")


def _slots(workers, client) -> int:
    """How many tasks can run at once (to size solve_many's tasks)."""
    if client is None:
        return workers if workers is not None else _cores()
    if isinstance(client, cf.Executor):
        return getattr(client, "_max_workers", None) or _cores()
    return max(1, sum(client.nthreads().values()))


# --- many hands -----------------------------------------------------------------------------
def solve_many(hands: Sequence, rules, cut=None, *, workers: Optional[int] = None,
               client: Any = None, progress: Optional[bool] = None,
               **solve_kwargs) -> list[Solution]:
    """``[solve(hand, rules, cut, **solve_kwargs) for hand in hands]``, in parallel.

    Every hand is solved exactly as :func:`solver.solve` solves it alone (same seed,
    same answer).  ``cut``: one cut card for every hand, or a sequence with one per hand
    (``bonus``).  ``workers``, ``client``, ``progress``: as for :func:`parallel_map`
    (default: one local process per core, but none for fewer than 2 *
    HANDS_PER_WORKER hands, which are solved in this process, and no more than one per
    HANDS_PER_WORKER hands; ``workers=1`` in this process).  The progress bar counts
    hands.  A ``policy=`` must be picklable, like ``parallel_map``'s ``fn``.

    The rule set, the keyword arguments and every hand's cards and cut are checked here
    before any work starts; a bad hand raises ``ValueError`` naming its index, as does an
    error raised while solving it.

    >>> hands = ["As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d",
    ...          "Ah Ad Kc Qs Js 9d 8h 7c 6c 5h 4s 3h 2s"]
    >>> many = solve_many(hands, "classic", samples=50, workers=1)
    >>> many == [solve(hand, "classic", samples=50) for hand in hands]
    True
    >>> solve_many(hands + ["As Kd"], "classic")
    Traceback (most recent call last):
    ...
    ValueError: hand 2: the classic rule set deals 13 cards, not 2
    """
    if isinstance(hands, (str, bytes)):
        raise ValueError("hands must be a sequence of hands, not one text")
    hands = list(hands)
    rs = rule_set(rules)
    cuts = _cut_list(cut, len(hands))
    try:
        inspect.signature(solve).bind(None, rules, None, **solve_kwargs)
    except TypeError as e:
        raise TypeError(f"solve_many: {e}") from None
    for i, (hand, c) in enumerate(zip(hands, cuts)):
        try:
            _check_hand(hand, c, rs)
        except (ValueError, TypeError) as e:
            raise type(e)(f"hand {i}: {e}") from None
    workers = _check_backend(workers, client)
    if not hands:
        return []
    if workers is None and client is None:
        workers = default_workers(len(hands))
    slots = _slots(workers, client)
    per_task = max(1, min(_MAX_HANDS_PER_TASK,
                          math.ceil(len(hands) / (_TASKS_PER_SLOT * slots))))
    # The rule set itself travels to the workers: a file's path may not exist on theirs.
    task = functools.partial(_solve_one, rules=rs, solve_kwargs=solve_kwargs)
    return _map(task, zip(hands, cuts), workers=workers, client=client, progress=progress,
                desc="hands", chunksize=per_task, label="hand", total=len(hands))


def default_workers(hands: int) -> int:
    """:func:`solve_many`'s local processes for ``hands`` hands by default: one per core,
    but no more than one per HANDS_PER_WORKER hands (1: in this process)."""
    return max(1, min(_cores(), hands // HANDS_PER_WORKER))


def _solve_one(hand_and_cut, rules, solve_kwargs) -> Solution:
    hand, cut = hand_and_cut
    return solve(hand, rules, cut, **solve_kwargs)


def _cut_list(cut, n: int) -> list:
    if cut is None or isinstance(cut, (str, numbers.Integral)):
        return [cut] * n
    cuts = list(cut)
    if len(cuts) != n:
        raise ValueError(f"cut: {len(cuts)} cut cards for {n} hands (give one for every "
                         f"hand, or a single card)")
    return cuts


def _check_hand(hand, cut, rs) -> None:
    """The checks solve makes of a hand and its cut card, with the public functions."""
    text = format_cards(hand)          # text, a bitmask, codes: checked as cards
    n = bin(parse_cards(text, rs)).count("1")
    if n != rs.cards_dealt:
        raise ValueError(f"the {rs.name} rule set deals {rs.cards_dealt} cards, not {n}")
    bonus_rank_of(rs, cut)       # a cut card where the rule set has one, and only there
    if not rs.cut_card:
        return
    cut_text = format_cards(cut if isinstance(cut, str) else [cut])
    try:
        parse_cards(f"{text} {cut_text}", rs)
    except ValueError as e:
        raise ValueError(f"the cut card {cut_text} and the hand: {e}") from None
