"""The one place for Numba options, so every kernel is compiled the same way; and the
notice printed while kernels compile for the first time.

``cache=True`` keeps compiled kernels on disk between processes; ``nogil`` lets callers
run kernels from threads.  Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain
Python (slow, but it lets coverage and debuggers see inside them).

The first solve on a machine compiles the kernels (about half a minute) and Numba keeps
them in its on-disk cache (``*.nbi`` index and ``*.nbc`` data files in the package's
``__pycache__``); later processes load them in about a second.  :func:`compile_notice`
says so on stderr, once a process, when the kernels about to run are neither compiled in
this process nor in a fresh on-disk cache; :func:`compile_progress` also says, while a
compile runs, how long it has taken so far.  ``SOLVER_QUIET=1`` in the environment (or
:func:`quiet`) turns the notices off.
"""
from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterable, Iterator

import numba

QUIET_ENV = "SOLVER_QUIET"
COMPILE_NOTICE = "compiling the solver's kernels (first run only, about 15 s on two cores)..."

_noticed = False          # the notice has been printed in this process


def njit(*args, **kwargs):
    """``numba.njit`` with the project's defaults (cache, nogil, no fastmath)."""
    options = dict(cache=True, nogil=True)
    options.update(kwargs)
    if args and callable(args[0]):
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)


def _is_warm(kernel) -> bool:
    """Whether calling ``kernel`` will not compile: it is compiled in this process, it is
    not a Numba dispatcher at all (``NUMBA_DISABLE_JIT=1``), or its on-disk cache index
    exists and is fresh (same Numba version, same source file stamp)."""
    if getattr(kernel, "overloads", None) is None:
        return True                                 # plain Python
    if kernel.overloads:
        return True                                 # already compiled in this process
    cache = getattr(kernel, "_cache", None)
    index = getattr(cache, "_cache_file", None)
    if index is None:
        return False                                # caching unavailable for it
    try:
        return bool(index._load_index())            # {} when missing or stale
    except Exception:                               # an unreadable index: Numba recompiles
        return False


def cold_kernels(kernels: Iterable) -> list[str]:
    """Names of the ``kernels`` (Numba dispatchers) that the next call would compile."""
    return [getattr(k, "__name__", repr(k)) for k in kernels if not _is_warm(k)]


def notices_enabled() -> bool:
    """False when ``SOLVER_QUIET`` is set to anything but ``""`` or ``"0"``."""
    return os.environ.get(QUIET_ENV, "") in ("", "0")


def compile_notice(kernels: Iterable, message: str = COMPILE_NOTICE, *, file=None) -> bool:
    """Print ``message`` on stderr (or ``file``) if any of ``kernels`` is about to be
    compiled, at most once a process and never with ``SOLVER_QUIET=1``; whether it
    printed."""
    global _noticed
    if _noticed or not notices_enabled() or not cold_kernels(kernels):
        return False
    _noticed = True
    print(message, file=file if file is not None else sys.stderr, flush=True)
    return True


@contextlib.contextmanager
def compile_progress(kernels: Iterable, what: str, *, every: float = 5.0, file=None) -> Iterator[bool]:
    """Around a block that compiles ``kernels`` (say, by calling them once): if any is
    cold and notices are on, say on stderr (or ``file``) that ``what`` is compiling,
    then every ``every`` seconds how long it has taken so far (from a background
    thread, since a compile gives no progress of its own), and the total at the end.
    Yields whether it speaks; it never does with ``SOLVER_QUIET=1``."""
    import threading
    import time

    if not notices_enabled() or not cold_kernels(kernels):
        yield False
        return
    stream = file if file is not None else sys.stderr
    start = time.perf_counter()
    print(f"compiling {what} (first run only; cached on disk afterwards)...", file=stream, flush=True)
    done = threading.Event()

    def tell_elapsed():
        while not done.wait(every):
            print(f"  still compiling: {time.perf_counter() - start:.0f} s so far", file=stream, flush=True)

    ticker = threading.Thread(target=tell_elapsed, name="compile-progress", daemon=True)
    ticker.start()
    try:
        yield True
    finally:
        done.set()
        ticker.join()
        print(f"compiled in {time.perf_counter() - start:.1f} s", file=stream, flush=True)


@contextlib.contextmanager
def quiet(enabled: bool = True) -> Iterator[None]:
    """Within the block, no compile notice: ``SOLVER_QUIET=1`` is set in the environment
    (so worker processes started in the block inherit it), then restored."""
    if not enabled:
        yield
        return
    before = os.environ.get(QUIET_ENV)
    os.environ[QUIET_ENV] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(QUIET_ENV, None)
        else:
            os.environ[QUIET_ENV] = before


# Below this much work a parallel kernel runs on one thread: handing chunks to other
# threads costs tens of microseconds, more than small work gains from them.  Units: hands
# a policy sets (about 30-150 us each), or pair scorings / 1000 (about 40 ns each).
MIN_PARALLEL_WORK = 32


@contextlib.contextmanager
def threads_for(work: float) -> Iterator[None]:
    """Run the parallel kernels called inside on one Numba thread when ``work`` (see
    MIN_PARALLEL_WORK) is small; otherwise leave the thread count as it is.  Results do
    not depend on it: every parallel kernel here writes each item from one thread."""
    if work >= MIN_PARALLEL_WORK or numba.get_num_threads() == 1:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)
