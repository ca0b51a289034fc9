"""The study page server's worker processes: where solves, reviews, showdowns and
trainings run, off the event loop, and how a request waits for one.

One solve is one compiled call, which nothing can interrupt in its thread; so requests
run in worker processes, and a request whose client has gone, or whose time is up, has
its worker killed (and replaced), rather than left to burn a core for minutes.  A worker
is ``python3 -c ...`` in a session of its own (a Ctrl+C meant for the server does not
reach it), talking to the server over a socket pair; the server reads its end in a
thread pool, never on the event loop.

Whatever a task raises comes back as one line: a ``ValueError`` (bad input) as the
library's message, anything else as :func:`solver.web.errors.exception_line`, so a
worker never sends the server a traceback to log.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

import numba
from starlette.exceptions import HTTPException

import solver
from .. import _jit
from . import play
from .errors import exception_line, one_line

log = logging.getLogger("solver.web")

TASKS = ("solve", "review", "showdown", "train")
CHECK_EVERY = 0.2              # seconds between looks at the client and the clock


# --- in the worker process --------------------------------------------------------------------
def _run_task(name: str, args, kwargs, send) -> dict:
    """One task's answer as plain values: ``solver.solve`` / ``solver.review``'s
    ``to_dict()``, a match showdown's (:func:`solver.web.play.showdown`), or a training's
    (:func:`_train_task`, which tells its progress with ``send``)."""
    if name not in TASKS:
        raise RuntimeError(f"no task {name!r}")
    if name == "showdown":
        return play.showdown(*args, **kwargs)
    if name == "train":
        return _train_task(*args, send=send)
    return getattr(solver, name)(*args, **kwargs).to_dict()


def _train_task(rules: "solver.RuleSet", players: int, send) -> dict:
    """The opponent model of ``rules`` at ``players`` seats, trained
    (:func:`solver.train_model`, which keeps it in the cache folder for every later solve),
    sending ``("progress", done, total)`` as it goes.  SIGTERM (the server stopping, or
    the training cancelled) stops it as Ctrl+C stops training: at the end of the chunk of
    deals being played, a fraction of a second, leaving nothing half-written and the lock
    free."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    model = solver.train_model(rules, players, progress=False,
                               on_progress=lambda done, total: send(("progress", done, total)))
    return dict(source=model.source, seconds=model.seconds,
                path=None if model.path is None else str(model.path))


def worker_main(fd: int) -> None:
    """A worker process: run each task it is sent (``(name, args, kwargs, alone)``) and
    send back ``("done", "ok", to_dict())``, ``("done", "bad", message)`` for bad input
    or ``("done", "bug", one line)``; while one compiles kernels, ``("compiling",
    time.time() it started)`` first."""
    import threading
    from multiprocessing.connection import Connection
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # Ctrl+C is the server's to handle
    conn = Connection(fd)
    every_core = numba.get_num_threads()
    lock = threading.Lock()

    def send(message):
        with lock:
            conn.send(message)

    send(("ready",))
    while True:
        try:
            name, args, kwargs, alone = conn.recv()
        except (EOFError, OSError):
            return                                      # the server has gone
        # Alone, a request's kernels use every core; beside others, one thread each,
        # since kernels side by side on every core would oversubscribe them (the answer
        # is the same either way).
        numba.set_num_threads(every_core if alone else 1)
        started, done = time.monotonic(), threading.Event()

        def tell_compiling():
            told = None
            while not done.wait(0.1):
                since = _jit.compiling_since()
                # (A start from before this task is stale: kernels found cold, never run.)
                if since is not None and since >= started and since != told:
                    told = since
                    send(("compiling", time.time() - (time.monotonic() - since)))
        watcher = threading.Thread(target=tell_compiling, daemon=True)
        watcher.start()
        try:
            answer = ("done", "ok", _run_task(name, args, kwargs, send))
        except ValueError as e:
            answer = ("done", "bad", one_line(e))
        except Exception as e:
            answer = ("done", "bug", exception_line(e))
        done.set()
        watcher.join()
        send(answer)


# --- in the server ------------------------------------------------------------------------------
class Worker:
    """One worker process and the server's end of its socket."""

    def __init__(self):
        from multiprocessing.connection import Connection
        mine, theirs = socket.socketpair()
        code = f"from solver.web.workers import worker_main; worker_main({theirs.fileno()})"
        # This very package, wherever this process found it (not installed, say).
        here = str(Path(solver.__file__).resolve().parent.parent)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [here] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        try:
            self.process = subprocess.Popen([sys.executable, "-c", code],
                                            pass_fds=[theirs.fileno()], env=env,
                                            stdin=subprocess.DEVNULL,
                                            start_new_session=True)
        finally:
            theirs.close()
        self.conn = Connection(mine.detach())
        self.compiling_since: Optional[float] = None

    def kill(self) -> None:
        """Stop it at once, whatever it is doing."""
        self.compiling_since = None
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        # (Its socket closes when the thread reading it, if any, has seen it end.)


class Workers:
    """Up to ``size`` worker processes, started when first needed; a request takes an idle
    one (:meth:`take`) and gives it back (:meth:`give_back`) or has it killed
    (:meth:`kill`), and a new one is started in its place.  ``busy`` and ``waiting``
    count the requests at work and waiting for a worker."""

    def __init__(self, size: int):
        self.size = size
        self.alive: set = set()          # started, not killed
        self.at_work: set = set()
        self._idle: Optional[asyncio.Queue] = None
        self.readers = ThreadPoolExecutor(2 * size + 2, thread_name_prefix="solver-web-pipe")
        self.busy = 0                    # requests a worker is at
        self.waiting = 0                 # requests waiting for a worker

    @property
    def idle(self) -> asyncio.Queue:
        if self._idle is None:
            self._idle = asyncio.Queue()
        return self._idle

    async def receive(self, worker: Worker):
        """The worker's next message (EOFError if it has died)."""
        return await asyncio.get_running_loop().run_in_executor(self.readers,
                                                                 worker.conn.recv)

    def start(self) -> None:
        """Start a worker; it joins the idle ones once it has imported the solver."""
        self.starting += 1

        async def start():
            loop = asyncio.get_running_loop()
            try:
                worker = await loop.run_in_executor(self.readers, Worker)
            finally:
                self.starting -= 1
            self.alive.add(worker)
            if self.closing:
                self.kill(worker)
                return
            try:
                ready = await self.receive(worker)
                if ready != ("ready",):
                    raise RuntimeError(f"a new worker said {one_line(ready, 100)}")
            except BaseException as e:
                self.kill(worker, replace=False)
                if self.closing:
                    return                     # killed by close(): as it should be
                log.error("a worker process did not start: %s", exception_line(e))
                raise
            self.idle.put_nowait(worker)
        task = asyncio.get_running_loop().create_task(start())
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    starting = 0                  # workers being started, not yet alive

    async def take(self) -> Worker:
        """An idle worker, starting one if all are at work and there is room."""
        if self.idle.empty() and len(self.alive) + self.starting < self.size:
            self.start()
        while True:
            if self.closing:
                raise HTTPException(503, "the server is stopping")
            worker = await self.idle.get()
            if worker is None:
                self.idle.put_nowait(None)         # (for the next one waiting)
            elif worker in self.alive:
                self.at_work.add(worker)
                return worker

    def give_back(self, worker: Worker) -> None:
        worker.compiling_since = None
        self.at_work.discard(worker)
        self.idle.put_nowait(worker)

    def kill(self, worker: Worker, replace: bool = True) -> None:
        """Kill the worker (its task is dropped); start another in its place."""
        self.at_work.discard(worker)
        self.alive.discard(worker)
        worker.kill()
        if replace and not self.closing:
            self.start()

    def compiling_since(self) -> Optional[float]:
        """``time.time()`` when a request at work started compiling kernels that are
        still compiling, or None."""
        starts = [w.compiling_since for w in self.at_work if w.compiling_since is not None]
        return min(starts) if starts else None

    closing = False

    def close(self) -> None:
        """Kill every worker (the server is stopping): what is at work or waiting is
        answered 503."""
        if self.closing:
            return
        self.closing = True
        for worker in list(self.alive):
            self.kill(worker, replace=False)
        if self._idle is not None:
            self._idle.put_nowait(None)           # wakes whoever waits, to see it closing


class ClientGone(Exception):
    """The client closed its connection before its answer was ready."""


async def in_a_worker(workers: Workers, request, timeout: float, name: str, *args,
                      **kwargs):
    """Task ``name`` (:data:`TASKS`) with ``args`` and ``kwargs`` in a worker process,
    within ``timeout`` seconds (waiting for a worker included; compiling the kernels on
    a first request is not counted); a request whose client has gone or whose time is
    up has its worker killed.  Bad input comes back as a ``ValueError``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    worker = None

    async def watch(step):
        """``step``'s result once done; meanwhile an eye on the client and the clock."""
        step = asyncio.ensure_future(step)
        try:
            while True:
                done, _ = await asyncio.wait({step}, timeout=CHECK_EVERY)
                if done:
                    return step.result()
                if await request.is_disconnected():
                    raise ClientGone
                compiling = worker is not None and worker.compiling_since is not None
                if loop.time() > deadline and not compiling:
                    # Compiling the kernels (a first request, once) does not count: the
                    # page says it is happening, and no smaller request would be quicker.
                    raise HTTPException(504, f"the request took longer than this "
                                             f"server's limit of {timeout:g} s "
                                             f"(its --timeout); ask for fewer samples")
        finally:
            if not step.done():
                step.cancel()

    workers.waiting += 1
    taking = asyncio.ensure_future(workers.take())
    try:
        worker = await watch(taking)
    except BaseException:
        # (A worker taken just as the client went is not lost.)
        if taking.done() and not taking.cancelled() and taking.exception() is None:
            workers.give_back(taking.result())
        raise
    finally:
        workers.waiting -= 1
    workers.busy += 1
    finished = False
    try:
        alone = workers.busy == 1
        worker.conn.send((name, args, kwargs, alone))
        while True:
            try:
                message = await watch(workers.receive(worker))
            except (EOFError, OSError):
                if workers.closing:
                    raise HTTPException(503, "the server is stopping") from None
                raise RuntimeError("a worker process died") from None
            if message[0] == "compiling":
                worker.compiling_since = message[1]
                continue
            _, kind, payload = message
            finished = True
            workers.give_back(worker)
            if kind == "bad":
                raise ValueError(payload)
            if kind == "bug":
                raise RuntimeError(f"in a worker process: {payload}")
            return payload
    finally:
        workers.busy -= 1
        if not finished:                   # gone, timed out, cancelled or died
            workers.kill(worker)
