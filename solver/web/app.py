"""The study page's server: a small JSON API over the public functions, the page, and
:func:`serve`, which runs it with uvicorn.

Endpoints (JSON; the schema is at ``/api/openapi.json``):

* ``GET /api/rules`` -- the rule sets the page offers, each with its deck as card texts
  (the second spade set and the jokers included), the players it allows and whether it
  needs a cut card; and this server's limits.
* ``POST /api/solve`` -- ``solver.solve(cards, rules, cut, samples=, seed=, players=,
  top=).to_dict()``.
* ``POST /api/review`` -- ``solver.review(cards, setting, rules, cut, samples=, seed=,
  players=).to_dict()``.
* ``POST /api/rules/file`` -- ``{"text": ...}``: the rule set of a rule-set file's text
  (docs/rule-files.md), described as ``/api/rules`` describes one; ``/api/solve``,
  ``/api/review`` and ``/api/deal`` play under such a file's rule set when their body
  carries its text as ``rules_file``.
* ``POST /api/rules/train`` -- ``{"rules": ..., "rules_file": ..., "players": ...}``: the
  opponent model a solve under that rule set needs (:func:`solver.train_model`): ``state``
  ``"ready"`` when there is one, else its training, started in a process of its own if not
  under way already (one training per model at once), with its progress: deals ``done``
  of ``total``, ``seconds`` so far and an estimate of those ``remaining``.  ``GET
  /api/rules/train/{id}`` -- that progress again, for the page to poll.  A solve or
  review under a rules file whose model is not trained yet starts its training too, and
  is answered 503 with the progress as ``training``.
* ``POST /api/cards`` -- ``{"cards": solver.format_cards(text).split()}``: the page's
  paste box, read by the library (every notation the command line takes).
* ``POST /api/deal`` -- a random deal, as ``python -m solver deal --json`` gives it (a
  random seed when none is given; the answer says which).
* ``POST /api/match/deal``, ``POST /api/match/showdown`` -- the Practice and Match
  tabs: your hand of a seeded deal, and that deal played against the library's settings
  and settled (:mod:`solver.web.play`).
* ``GET /api/status`` -- requests at work and waiting for a worker, and whether (and for
  how long) a first request has been compiling the solver's kernels: the page polls it
  while it waits.

Bad input -- anything the library refuses with a ``ValueError``, a body that is not the
JSON the endpoint takes -- is answered with HTTP 400 and ``{"error": message}``, the
library's own message where it is the library's; every other HTTP error is JSON too
(half-sent requests 408 after :data:`READ_TIMEOUT` seconds, what is not HTTP 400).
Limits: a request body of at most ``max_body`` bytes (413), at most ``max_samples``
sampled deals (400 for ``samples=`` above it; a solve without ``samples`` samples
adaptively up to it), and ``timeout`` seconds a request, waiting for a worker included
and compiling the kernels on a first request aside (504).  Solves and reviews run in
worker processes (``workers`` of them, started as needed), off the event loop, so a
solve never holds up another browser's requests; a request whose time is up, or whose
client has gone, has its worker killed and replaced, so no work goes on that no one
will read.

The web layer calls what the command line calls (``solver.solve``, ``solver.review``,
``solver.sampling.deal_hands``, ``solver.display.sort_row``) and nothing below imports it.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional, Union

import numba
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.exceptions import HTTPException

import solver
from .. import _jit
from . import play
from .._checks import check_int
from ..cards import card_name, deck_codes
from ..display import foul_text, home_runs_count, scoop_meaning, scoop_word, sort_row
from ..rules import is_rule_file
from ..sampling import RANDOM_SEEDS, deal_hands, first_batch
from ..solve import EFFORTS, POOLED_FAST
from ..training import model_path, trained_model

STATIC = Path(__file__).resolve().parent / "static"
# The rule sets the page offers ("classic:western" is another name for "classic").
PAGE_RULE_SETS = ("joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin",
                  "classic-1-6", "two-jokers", "shisanshui")
DEFAULT_SAMPLES = 1000           # review's (it compares on exactly this many deals)
SAMPLES_HELP = ("exactly this many sampled deals, at most the server's --max-samples "
                "(default: solve's adaptive sampling, as effort says)")
REVIEW_SAMPLES_HELP = (f"sampled deals (default {DEFAULT_SAMPLES}, or the server's "
                       f"--max-samples if smaller; at most --max-samples)")
log = logging.getLogger("solver.web")


@dataclass(frozen=True)
class Limits:
    """What one request may cost: ``max_samples`` sampled deals, ``timeout`` seconds
    (waiting for a worker included; compiling the kernels on a first request is not
    counted), a body of ``max_body`` bytes; at most ``workers`` worker processes solve."""
    max_samples: int = 4000
    timeout: float = 60.0
    max_body: int = 64 * 1024
    workers: int = 4          # a long request does not hold up the others (side by side,
    #                           each kernel runs on one thread: no oversubscription)

    def __post_init__(self):
        check_int("max_samples", self.max_samples, 1)
        check_int("max_body", self.max_body, 256)
        check_int("workers", self.workers, 1)
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) \
                or not self.timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not "
                             f"{self.timeout!r}")


# --- request bodies (their fields are the library's arguments) -------------------------------
Cards = Union[StrictStr, list[StrictStr]]


def _rule_set_name(text: str) -> str:
    """A request's ``rules``: a rule set's name, never a path -- ``solver.rule_set``
    reads a ``.toml`` path as a rule-set file, and a client must not have this server
    read its own files."""
    if is_rule_file(text):
        raise ValueError("a rule set's name, not a file of this server")
    return text


RuleName = Annotated[StrictStr, AfterValidator(_rule_set_name)]
RULES_FILE_HELP = ("the text of a rule-set file (docs/rule-files.md) to play under instead "
                   "of a shipped rule set; rules is then its name")


def _rules_of(body) -> "str | solver.RuleSet":
    """The rule set a request plays under: the rule-set file it sends, else the name."""
    if getattr(body, "rules_file", None) is not None:
        return _rule_set_from_text(body.rules_file)
    return body.rules


def _rule_set_from_text(text: str) -> "solver.RuleSet":
    """The rule set of a rule-set file's text, as the page sends it (pasted or loaded)."""
    return solver.RuleSet.from_toml(text, source="the rules file")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SolveRequest(_Body):
    cards: Cards = Field(description="the hand: one text ('As Ks Qh ...') or card texts")
    rules: RuleName = Field(description="rule set: " + ", ".join(PAGE_RULE_SETS))
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    cut: Optional[StrictStr] = Field(None, description="the cut card (bonus), e.g. '4c'")
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    samples: Optional[StrictInt] = Field(None, description=SAMPLES_HELP)
    effort: Optional[StrictStr] = Field(None, description="adaptive sampling: 'fast' (the "
                                                          "default) or 'max'")
    seed: StrictInt = Field(0, description="seed of the sampled deals")
    top: StrictInt = Field(5, description="alternative settings to report")


class ReviewRequest(_Body):
    cards: Cards = Field(description="the hand")
    setting: Cards = Field(description="your rows 'FRONT / MIDDLE / BACK' or [front, "
                                       "middle, back]; 'declare' (classic)")
    rules: RuleName = Field(description="rule set: " + ", ".join(PAGE_RULE_SETS))
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    cut: Optional[StrictStr] = Field(None, description="the cut card (bonus)")
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    samples: Optional[StrictInt] = Field(None, description=REVIEW_SAMPLES_HELP)
    seed: StrictInt = Field(0, description="seed of the sampled deals")


class CardsRequest(_Body):
    cards: StrictStr = Field(description="card texts in any notation the library reads "
                                         "('As Kd', 'AsKd', 'A♠️ K♦️', '10h', 'Jk')")


class RulesFileRequest(_Body):
    text: StrictStr = Field(description="the text of a rule-set file (docs/rule-files.md)")


class TrainRequest(_Body):
    rules: RuleName = Field(description="rule set")
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")


class DealRequest(_Body):
    rules: RuleName = Field(description="rule set")
    rules_file: Optional[StrictStr] = Field(None, description=RULES_FILE_HELP)
    players: Optional[StrictInt] = Field(None, description="seats (default: the largest)")
    seed: Optional[StrictInt] = Field(None, description="seed of the deal (default: random)")


# --- the app ---------------------------------------------------------------------------------
class _State:
    """What the app keeps between requests: its limits, its worker processes, the
    requests at work and waiting."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.workers = _Workers(limits.workers)
        self.trainings = _Trainings()
        self.busy = 0            # requests a worker is at
        self.waiting = 0         # requests waiting for a worker

    def compiling_since(self) -> Optional[float]:
        """``time.time()`` when a request at work started compiling kernels that are
        still compiling, or None."""
        return self.workers.compiling_since()


# --- the workers: processes that can be stopped ------------------------------------------------
# One solve is one compiled call, which nothing can interrupt in its thread; so requests
# run in worker processes, and a request whose client has gone, or whose time is up, has
# its worker killed (and replaced), rather than left to burn a core for minutes.
TASKS = ("solve", "review", "showdown", "train")
CHECK_EVERY = 0.2              # seconds between looks at the client and the clock


def _run_task(name: str, args, kwargs, send) -> dict:
    """One task's answer as plain values: ``solver.solve`` / ``solver.review``'s
    ``to_dict()``, a match showdown's (:func:`solver.web.play.showdown`), or a training's
    (:func:`_train_task`, which tells its progress with ``send``)."""
    if name == "showdown":
        return play.showdown(*args, **kwargs)
    if name == "train":
        return _train_task(*args, send=send)
    return getattr(solver, name)(*args, **kwargs).to_dict()


def _train_task(rules: "solver.RuleSet", players: int, send) -> dict:
    """The opponent model of ``rules`` at ``players`` seats, trained
    (:func:`solver.train_model`, which keeps it in the cache folder for every later solve),
    sending ``("progress", done, total)`` as it goes.  SIGTERM (the server stopping) stops
    it as Ctrl+C stops training: at the end of the chunk of deals being played, a fraction
    of a second, leaving nothing half-written and the lock free."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    model = solver.train_model(rules, players, progress=False,
                               on_progress=lambda done, total: send(("progress", done, total)))
    return dict(source=model.source, seconds=model.seconds)


def _worker_main(fd: int) -> None:
    """A worker process: run each task it is sent (``(name, args, kwargs, alone)``) and
    send back ``("done", "ok", to_dict())``, ``("done", "bad", message)`` for bad input
    or ``("done", "bug", traceback)``; while one compiles kernels, ``("compiling",
    time.time() it started)`` first."""
    import signal
    import threading
    import traceback
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
            answer = ("done", "bad", _one_line(e))
        except Exception:
            answer = ("done", "bug", traceback.format_exc())
        done.set()
        watcher.join()
        send(answer)


class _Worker:
    """One worker process (``python3 -c ...``, in a session of its own, so a Ctrl+C
    meant for the server does not reach it) and the server's end of its socket."""

    def __init__(self):
        import subprocess
        from multiprocessing.connection import Connection
        mine, theirs = socket.socketpair()
        code = f"from solver.web.app import _worker_main; _worker_main({theirs.fileno()})"
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


class _Workers:
    """Up to ``size`` worker processes, started when first needed; a request takes an idle
    one (:meth:`take`) and gives it back (:meth:`give_back`) or has it killed
    (:meth:`kill`), and a new one is started in its place."""

    def __init__(self, size: int):
        self.size = size
        self.alive: set = set()          # started, not killed
        self.at_work: set = set()
        self._idle: Optional[asyncio.Queue] = None
        self.readers = ThreadPoolExecutor(2 * size + 2, thread_name_prefix="solver-web-pipe")

    @property
    def idle(self) -> asyncio.Queue:
        if self._idle is None:
            self._idle = asyncio.Queue()
        return self._idle

    async def receive(self, worker: _Worker):
        """The worker's next message (EOFError if it has died)."""
        return await asyncio.get_running_loop().run_in_executor(self.readers,
                                                                 worker.conn.recv)

    def start(self) -> None:
        """Start a worker; it joins the idle ones once it has imported the solver."""
        self.starting += 1

        async def start():
            loop = asyncio.get_running_loop()
            try:
                worker = await loop.run_in_executor(self.readers, _Worker)
            finally:
                self.starting -= 1
            self.alive.add(worker)
            if self.closing:
                self.kill(worker)
                return
            try:
                assert await self.receive(worker) == ("ready",)
            except BaseException:
                self.kill(worker, replace=False)
                if self.closing:
                    return                     # killed by close(): as it should be
                log.error("a worker process did not start", exc_info=True)
                raise
            self.idle.put_nowait(worker)
        task = asyncio.get_running_loop().create_task(start())
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    starting = 0                  # workers being started, not yet alive

    async def take(self) -> _Worker:
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

    def give_back(self, worker: _Worker) -> None:
        worker.compiling_since = None
        self.at_work.discard(worker)
        self.idle.put_nowait(worker)

    def kill(self, worker: _Worker, replace: bool = True) -> None:
        """Kill the worker (its task is dropped); start another in its place."""
        self.at_work.discard(worker)
        self.alive.discard(worker)
        worker.kill()
        if replace and not self.closing:
            self.start()

    def compiling_since(self) -> Optional[float]:
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


# --- training the opponent model of a rules file --------------------------------------------
MAX_TRAININGS = 2        # models trained at once (a process each, on one core)
KEEP_TRAININGS = 100     # finished trainings remembered (their ids still answer)
STOP_GRACE = 1.0         # seconds a training has to stop when the server stops


class _Training:
    """One opponent model: ready, or being trained in a process of its own (a
    :class:`_Worker` given the ``train`` task), and how far it has got."""

    def __init__(self, id: str, rules: "solver.RuleSet", players: int, state: str):
        self.id, self.rules, self.players, self.state = id, rules, players, state
        self.done, self.total = 0, None
        self.started = time.monotonic()
        self.seconds: Optional[float] = None          # the training's, once done
        self.first_progress: Optional[tuple] = None   # (time, deals) of the first step
        self.compiling_since: Optional[float] = None
        self.message = ""
        self.worker: Optional[_Worker] = None

    def progress(self, done: int, total: int) -> None:
        if self.first_progress is None:
            self.first_progress = (time.monotonic(), done)
        self.done, self.total = done, total
        self.compiling_since = None                   # (playing deals: compiled)

    def status(self) -> dict:
        """What ``/api/rules/train`` answers: the state (``ready``, ``training``,
        ``failed``), the deals ``done`` of ``total``, the ``seconds`` so far (the
        training's own once done), an estimate of the seconds ``remaining`` (from the
        pace since the first deals, so that compiling the kernels does not count), and
        whether the kernels are ``compiling``."""
        now = time.monotonic()
        remaining = None
        if self.state == "training" and self.first_progress is not None:
            t0, d0 = self.first_progress
            if self.done > d0 and now > t0:
                remaining = round((self.total - self.done) * (now - t0) / (self.done - d0), 1)
        seconds = self.seconds if self.seconds is not None else round(now - self.started, 1)
        return dict(id=self.id, rules=self.rules.name, players=self.players, state=self.state,
                    done=self.done, total=self.total, seconds=seconds, remaining=remaining,
                    compiling=self.compiling_since is not None, message=self.message)


class _Trainings:
    """The server's trainings, by id (one per model file: a rule set's digest and the
    seats its model is for): :meth:`ensure` starts one where a model is missing,
    :meth:`close` stops them all."""

    def __init__(self):
        self.by_id: dict[str, _Training] = {}
        self.readers = ThreadPoolExecutor(MAX_TRAININGS + 1,
                                          thread_name_prefix="solver-web-training")
        self.closing = False

    async def ensure(self, rules: "str | solver.RuleSet", players: Optional[int]) -> dict:
        """The status (:meth:`_Training.status`) of the model a solve under ``rules``
        with ``players`` seats uses: ready, or its training (started now if not under
        way).  Refused (503) while :data:`MAX_TRAININGS` others are under way."""
        rs = solver.rule_set(rules)
        n_seats = rs.max_seats if players is None else check_int("players", players)
        if n_seats not in rs.seats:
            raise ValueError(f"players={n_seats}: the {rs.name} rule set plays with "
                             f"{' or '.join(map(str, rs.seats))} players")
        path = model_path(rs, n_seats)
        id = path.stem if path is not None else f"model-{rs.digest}-{n_seats}"
        current = self.by_id.get(id)
        if current is not None and current.state != "failed":
            return current.status()
        loop = asyncio.get_running_loop()
        # (Reads a model file when there is one: off the event loop.)
        found = await loop.run_in_executor(self.readers, trained_model, rs, n_seats)
        if found is not None:
            ready = _Training(id, rs, n_seats, "ready")
            ready.seconds = found.seconds
            ready.message = ("shipped with the library" if found.source == "shipped"
                             else "trained before")
            self._remember(ready)
            return ready.status()
        if path is None:
            raise ValueError("this server keeps no cache folder (SOLVER_CACHE_DIR is empty), "
                             "so a model trained here would not be kept: train it with "
                             "python3 -m solver train, with a cache folder")
        current = self.by_id.get(id)            # (one may have started meanwhile)
        if current is not None and current.state != "failed":
            return current.status()
        if self.closing:
            raise HTTPException(503, "the server is stopping")
        if sum(t.state == "training" for t in self.by_id.values()) >= MAX_TRAININGS:
            raise HTTPException(503, f"this server is training as many opponent models "
                                     f"as it trains at once ({MAX_TRAININGS}); try again "
                                     f"when one is done")
        training = _Training(id, rs, n_seats, "training")
        self._remember(training)
        task = loop.create_task(self._run(training))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        return training.status()

    def _remember(self, training: _Training) -> None:
        self.by_id.pop(training.id, None)
        self.by_id[training.id] = training
        finished = [k for k, t in self.by_id.items() if t.state != "training"]
        for key in finished[:max(0, len(finished) - KEEP_TRAININGS)]:
            del self.by_id[key]

    async def _run(self, training: _Training) -> None:
        """Train in a worker process of its own, hearing its progress, until done."""
        loop = asyncio.get_running_loop()
        try:
            training.worker = await loop.run_in_executor(self.readers, _Worker)
            if self.closing:
                raise EOFError
            conn = training.worker.conn
            assert await loop.run_in_executor(self.readers, conn.recv) == ("ready",)
            conn.send(("train", (training.rules, training.players), {}, False))
            while True:
                message = await loop.run_in_executor(self.readers, conn.recv)
                if message[0] == "progress":
                    training.progress(*message[1:])
                elif message[0] == "compiling":
                    training.compiling_since = message[1]
                else:
                    break
            _, kind, payload = message
            training.compiling_since = None
            if kind == "ok":
                training.state, training.seconds = "ready", round(payload["seconds"], 1)
                training.message = "trained now"
            else:
                if kind == "bug":
                    log.error("training %s failed: %s", training.id, payload)
                training.state = "failed"
                training.message = (payload if kind == "bad" else
                                    "the training failed (the server's log says more)")
        except (EOFError, OSError):
            training.state = "failed"
            training.message = ("the server is stopping" if self.closing
                                else "the training process died")
        except Exception:                         # (a bug: not left "training" forever)
            log.error("training %s failed", training.id, exc_info=True)
            training.state = "failed"
            training.message = "the training failed (the server's log says more)"
        finally:
            if training.worker is not None:
                training.worker.kill()            # (done, or dead: either way, gone)

    def close(self) -> None:
        """Stop every training (the server is stopping): SIGTERM first, which stops
        training within a fraction of a second and leaves nothing half-written; killed
        when still there after :data:`STOP_GRACE` seconds."""
        self.closing = True
        workers = [t.worker for t in self.by_id.values()
                   if t.worker is not None and t.worker.process.poll() is None]
        for worker in workers:
            worker.process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for worker in workers:
            try:
                worker.process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            worker.kill()


class _NotTrained(Exception):
    """A solve or review under a rules file whose opponent model is being trained."""

    def __init__(self, status: dict):
        super().__init__(status)
        self.status = status


async def _model_ready(state: _State, body) -> None:
    """Raise :class:`_NotTrained` when ``body`` plays under a rules file whose opponent
    model is not trained yet (starting its training): a solve would train it for
    minutes in its worker, past any time limit.  Players the rule set does not take are
    left to the library's own message."""
    if getattr(body, "rules_file", None) is None:
        return
    rs = _rules_of(body)
    if body.players is not None and body.players not in rs.seats:
        return
    status = await state.trainings.ensure(rs, body.players)
    if status["state"] != "ready":
        raise _NotTrained(status)


class _ClientGone(Exception):
    """The client closed its connection before its answer was ready."""


async def _in_a_worker(state: _State, request: Request, name: str, *args, **kwargs):
    """``solver.<name>(*args, **kwargs).to_dict()`` in a worker process, within the
    time limit (waiting for a worker included; compiling the kernels on a first request
    is not counted); a request whose client has gone or whose time is up has its worker
    killed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + state.limits.timeout
    workers = state.workers
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
                    raise _ClientGone
                compiling = worker is not None and worker.compiling_since is not None
                if loop.time() > deadline and not compiling:
                    # Compiling the kernels (a first request, once) does not count: the
                    # page says it is happening, and no smaller request would be quicker.
                    raise HTTPException(504, f"the request took longer than this "
                                             f"server's limit of {state.limits.timeout:g} s "
                                             f"(its --timeout); ask for fewer samples")
        finally:
            if not step.done():
                step.cancel()

    state.waiting += 1
    taking = asyncio.ensure_future(workers.take())
    try:
        worker = await watch(taking)
    except BaseException:
        # (A worker taken just as the client went is not lost.)
        if taking.done() and not taking.cancelled() and taking.exception() is None:
            workers.give_back(taking.result())
        raise
    finally:
        state.waiting -= 1
    state.busy += 1
    finished = False
    try:
        alone = state.busy == 1
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
        state.busy -= 1
        if not finished:                   # gone, timed out, cancelled or died
            workers.kill(worker)


def _samples(samples: Optional[int], max_samples: int, default: Optional[int] = None):
    """The samples a request asks for, within the server's limit (None: ``default``)."""
    if samples is None:
        return None if default is None else min(default, max_samples)
    if samples > max_samples:
        raise ValueError(f"samples={samples}: this server takes at most {max_samples} "
                         f"(its --max-samples)")
    return samples


def _solve_sampling(body: "SolveRequest", max_samples: int) -> dict:
    """A solve's sampling arguments within the server's limit.  ``samples=N`` above it is
    refused; adaptive sampling (no ``samples``, either ``effort``) whose cap would pass
    it runs to at most ``max_samples`` deals, at the effort's precision (its held-out
    deals are a quarter of those, at least 64 opponent hands' worth, as always).  What
    the library would refuse is passed on as it is, for the library's own message."""
    if body.samples is not None:
        return dict(samples=_samples(body.samples, max_samples), effort=body.effort)
    effort = "fast" if body.effort is None else body.effort
    rs = solver.rule_set(_rules_of(body))
    seats = rs.max_seats if body.players is None else body.players
    if effort not in EFFORTS or seats not in rs.seats or rs.cards_dealt not in \
            EFFORTS[effort]["hands"]:
        return dict(effort=body.effort)
    cap = max(first_batch(seats), EFFORTS[effort]["hands"][rs.cards_dealt] // (seats - 1))
    if seats == 2 and effort == "fast":
        cap = max(cap, POOLED_FAST["samples"])      # heads-up deals from the pool
    if cap <= max_samples:
        return dict(effort=body.effort)
    return dict(samples=max_samples,
                precision=EFFORTS[effort]["precision"][rs.cards_dealt] * (seats - 1),
                effort=None)


def _rule_set_info(rules: "str | solver.RuleSet") -> dict:
    """How ``/api/rules`` describes a rule set to the page, every fact read from its
    fields: ``scoops`` / ``shots`` (what scooping an opponent is called where it scores:
    :func:`solver.display.scoop_word`), ``scoop_means``, ``home_runs_from`` (the seats a
    home run counts from, None where it scores nothing more), ``fouls``."""
    rs = solver.rule_set(rules)
    return dict(summary=rs.summary(),
        name=rs.name, deck=[card_name(c) for c in deck_codes(rs)], spade_sets=rs.spade_copies,
        jokers=rs.jokers, cards_dealt=rs.cards_dealt, cards_kept=rs.cards_kept,
        players=list(rs.seats), cut_card=rs.cut_card,
        automatic_wins=list(rs.automatic_wins), scoops=scoop_word(rs) == "scoop",
        shots=scoop_word(rs) == "shot", scoop_means=scoop_meaning(rs),
        home_runs_from=rs.home_run_min_seats if home_runs_count(rs) else None,
        bonus_hands=rs.has_royalties,
        fouls=foul_text(rs),
        docs=f"docs/rules.md#{rs.name.split(':')[0]}" if rs.name in PAGE_RULE_SETS
        else "docs/rule-files.md")


def _deal(rules: "str | solver.RuleSet", players: Optional[int], seed: Optional[int]) -> dict:
    """A random deal, as ``python -m solver deal --json`` prints it (and the players)."""
    rs = solver.rule_set(rules)
    seed = secrets.randbelow(RANDOM_SEEDS) if seed is None else check_int("seed", seed, 0)
    players = rs.max_seats if players is None else players
    if players not in rs.seats:
        raise ValueError(f"the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players, not {players}")
    hands, cut = deal_hands(rs, players, seed, 0)
    return dict(rules=rs.name, seed=seed, players=players, cut=cut,
                hands=[sort_row(h, group=False) for h in hands])


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _validation_message(exc: RequestValidationError) -> str:
    """A body the endpoint does not take, in one line: which field, what is wrong."""
    problems = []
    for error in exc.errors():
        where = ".".join(str(x) for x in error.get("loc", ()) if x != "body")
        kind = error.get("type", "")
        if kind == "json_invalid":
            return "the request body is not valid JSON"
        if not where:
            problems.append("the request body must be a JSON object")
            continue
        given = f" (got {error['input']!r})" if "input" in error and kind != "missing" else ""
        problems.append(f"{where}: {error.get('msg', 'invalid')}{given}"[:300])
    return "; ".join(dict.fromkeys(problems)) or "bad request"


# Nothing is loaded from anywhere but this server (the page works offline, and a page
# that tried would be stopped by the browser).
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
                                 b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


MAX_IN_FLIGHT = 64        # requests answered at once; more get 503


class _Guard:
    """ASGI middleware: more than :data:`MAX_IN_FLIGHT` requests at once get 503, a request
    body larger than ``max_body`` bytes gets 413, whether it says its length up front or
    not, and what FastAPI could not read gets its reason (:func:`_body_problem`); every
    response gets :data:`SECURITY_HEADERS`."""

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body
        self.in_flight = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", ()))
                               + SECURITY_HEADERS)
            await send(message)

        if self.in_flight >= MAX_IN_FLIGHT:
            response = JSONResponse({"error": f"this server is answering {MAX_IN_FLIGHT} "
                                              f"requests already; try again shortly"}, 503)
            return await response(scope, receive, send_with_headers)
        self.in_flight += 1
        try:
            return await self._guarded(scope, receive, send_with_headers)
        finally:
            self.in_flight -= 1

    async def _guarded(self, scope, receive, send_with_headers):
        too_large = HTTPException(413, f"the request body is larger than this server's "
                                       f"limit of {self.max_body} bytes")
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            response = JSONResponse({"error": too_large.detail}, 413)
            return await response(scope, receive, send_with_headers)
        if scope["method"] != "POST":
            return await self.app(scope, receive, send_with_headers)
        # The whole body, read here (it is small), so that what FastAPI would answer
        # with "There was an error parsing the body" gets its reason instead.
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return                    # the client has gone
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                response = JSONResponse({"error": too_large.detail}, 413)
                return await response(scope, receive, send_with_headers)
        content_type = dict(scope.get("headers") or ()).get(b"content-type")
        problem = _body_problem(content_type, body)
        if problem is not None:
            response = JSONResponse({"error": problem[1]}, problem[0])
            return await response(scope, receive, send_with_headers)
        if content_type is None:          # read as JSON (FastAPI would not read it)
            scope = dict(scope, headers=[*scope.get("headers", ()),
                                         (b"content-type", b"application/json")])
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()        # (then only the client's going)

        return await self.app(scope, replay, send_with_headers)


class _Huge(int):
    """A number in a request body with more digits than Python reads (its digit count)."""


def _body_problem(content_type: Optional[bytes], body: bytes):
    """``(status, message)`` for a POST body the API cannot read as JSON, or None: a
    Content-Type other than JSON (a body without one is read as JSON), bytes that are not
    UTF-8, a number with more digits than Python reads (a 5000-digit seed).  What is not
    JSON at all is left to the endpoint ("not valid JSON")."""
    if content_type is not None:
        media = content_type.split(b";")[0].strip().lower().decode("latin-1")
        if media != "application/json" and not media.endswith("+json"):
            return 415, (f"the request body must be JSON, sent with Content-Type: "
                         f"application/json (not {media or 'an empty one'})")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return 400, f"the request body is not valid UTF-8 (byte {e.start} is 0x{body[e.start]:02x})"
    limit = sys.get_int_max_str_digits() or None

    def read_int(digits: str) -> int:
        if limit and len(digits.lstrip("-")) > limit:
            return _Huge(len(digits.lstrip("-")))
        return int(digits)
    try:
        data = json.loads(text, parse_int=read_int)
    except ValueError:
        return None

    def huge(value, name):
        """(where, digits) of the first such number in ``value``, or None."""
        if isinstance(value, _Huge):
            return name, int(value)
        items = value.items() if isinstance(value, dict) else \
            enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            found = huge(item, key if isinstance(value, dict) and name is None else name)
            if found:
                return found
        return None
    found = huge(data, None)
    if found:
        return 400, (f"{found[0] or 'the request body'}: a number of {found[1]} digits; "
                     f"this server reads at most {limit}")
    return None


def create_app(limits: Limits = Limits()) -> FastAPI:
    """The study page's ASGI application (FastAPI), with these ``limits``."""
    state = _State(limits)
    @contextlib.asynccontextmanager
    async def lifespan(app):
        state.workers.start()          # ready for the first request
        yield
        state.workers.close()          # the server is stopping: its work with it
        state.trainings.close()

    app = FastAPI(title="Chinese Poker study page", version=solver.__version__,
                  lifespan=lifespan,
                  description="The solver's JSON API: the answers are solver.solve(...)"
                              ".to_dict() and solver.review(...).to_dict().",
                  docs_url=None, redoc_url=None,      # their pages load scripts from a CDN
                  openapi_url="/api/openapi.json")
    app.state.solver = state

    @app.exception_handler(ValueError)
    async def bad_input(request: Request, exc: ValueError):
        return JSONResponse({"error": _one_line(exc)}, 400)

    @app.exception_handler(_NotTrained)
    async def not_trained(request: Request, exc: _NotTrained):
        status = exc.status
        progress = (f"deal {status['done']:,} of {status['total']:,}" if status["total"]
                    else "starting")
        return JSONResponse({"error": f"the opponent model of {status['rules']} "
                                      f"({status['players']} players) is being trained "
                                      f"({progress}); ask again when GET /api/rules/train/"
                                      f"{status['id']} says ready",
                             "training": status}, 503, headers={"Retry-After": "5"})

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError):
        return JSONResponse({"error": _validation_message(exc)}, 400)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        detail = exc.detail
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such page: {request.url.path}"
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        return JSONResponse({"error": detail}, exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        # A bug, not bad input: the server's log has the traceback, the client does not.
        log.error("internal error on %s %s", request.method, request.url.path,
                  exc_info=exc)
        return JSONResponse({"error": "internal error (the server's log says more)"}, 500)

    @app.get("/api/rules", summary="the rule sets, their decks, and this server's limits")
    async def rules() -> dict:
        return dict(rule_sets=[_rule_set_info(name) for name in PAGE_RULE_SETS],
                    default_samples=DEFAULT_SAMPLES, max_samples=limits.max_samples,
                    timeout=limits.timeout, version=solver.__version__)

    @app.post("/api/solve", summary="solver.solve(...).to_dict()")
    async def solve(body: SolveRequest, request: Request) -> dict:
        sampling = _solve_sampling(body, limits.max_samples)
        await _model_ready(state, body)
        answer = await _in_a_worker(state, request, "solve", body.cards, _rules_of(body),
                                    body.cut, seed=body.seed, players=body.players,
                                    top=body.top, **sampling)
        if "precision" in sampling:        # capped here: at the effort asked for
            answer["effort"] = body.effort or answer.get("effort")
        return answer

    @app.post("/api/review", summary="solver.review(...).to_dict()")
    async def review(body: ReviewRequest, request: Request) -> dict:
        await _model_ready(state, body)
        return await _in_a_worker(state, request, "review", body.cards, body.setting,
                                  _rules_of(body), body.cut,
                                  samples=_samples(body.samples, limits.max_samples,
                                                           DEFAULT_SAMPLES),
                                  seed=body.seed, players=body.players)

    @app.post("/api/cards", summary="card texts read as the library reads them")
    async def cards(body: CardsRequest) -> dict:
        return dict(cards=solver.format_cards(body.cards).split())

    @app.post("/api/deal", summary="a random deal (python3 -m solver deal --json)")
    async def deal(body: DealRequest) -> dict:
        return _deal(_rules_of(body), body.players, body.seed)

    @app.post("/api/rules/file", summary="a rule-set file's rule set, as /api/rules gives one")
    async def rules_file(body: RulesFileRequest) -> dict:
        return _rule_set_info(_rule_set_from_text(body.text))

    @app.post("/api/rules/train", summary="the opponent model of a rule set: ready, or its "
                                          "training (started if not under way) and progress")
    async def train(body: TrainRequest) -> dict:
        return await state.trainings.ensure(_rules_of(body), body.players)

    @app.get("/api/rules/train/{id}", summary="a training's progress")
    async def training(id: str) -> dict:
        found = state.trainings.by_id.get(id)
        if found is None:
            raise HTTPException(404, f"no training {id!r} on this server (POST "
                                     f"/api/rules/train starts one)")
        return found.status()

    @app.post("/api/match/deal", summary="your hand of a seeded deal (Practice, Match)")
    async def match_deal(body: play.MatchDealRequest) -> dict:
        return play.match_deal(body.rules, body.players, body.seed, body.index)

    @app.post("/api/match/showdown", summary="a match deal played and settled "
                                             "(solver.settle(..., detail=True))")
    async def match_showdown(body: play.ShowdownRequest, request: Request) -> dict:
        options = None
        if body.opponents in EFFORTS:       # their solves within this server's limit
            sampling = _solve_sampling(SolveRequest(cards="", rules=body.rules,
                                                    players=body.players,
                                                    effort=body.opponents),
                                       limits.max_samples)
            options = sampling if "precision" in sampling else dict(effort=body.opponents)
        return await _in_a_worker(state, request, "showdown", body.rules, body.players,
                                  body.seed, body.index, body.setting, body.opponents,
                                  options)

    @app.get("/api/status", summary="requests at work and waiting; kernels compiling, and "
                                    "for how long")
    async def status() -> dict:
        since = state.compiling_since()
        return dict(busy=state.busy, waiting=state.waiting, compiling=since is not None,
                    compiling_for=None if since is None else max(0.0, time.time() - since))

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def page():
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Outermost of the app's own, so that no part of it reads more than the limit.
    app.add_middleware(_Guard, max_body=limits.max_body)
    return app


# --- serving -----------------------------------------------------------------------------------
READ_TIMEOUT = 5.0       # seconds a request (its headers and body) may take to arrive


def _raw_json_response(status: int, reason: str, error: str) -> bytes:
    """A whole HTTP response with ``{"error": error}``, for the protocol to write when no
    request reached the app (half a request, or not HTTP)."""
    body = json.dumps({"error": error}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def _protocol():
    """uvicorn's HTTP/1.1 protocol (h11), with two changes: a request whose headers and
    body have not all arrived within :data:`READ_TIMEOUT` seconds of its first byte (or
    of the connection) is answered 408 and dropped, so that clients sending half a
    request cannot hold the server's connections (uvicorn has no such limit); and what
    is not HTTP gets a JSON 400, as every other error, not uvicorn's plain text."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        read_timer = None

        def connection_made(self, transport):
            super().connection_made(transport)
            self._arm()

        def _arm(self):
            if self.read_timer is None:
                self.read_timer = self.loop.call_later(READ_TIMEOUT, self._too_slow)

        def _disarm(self):
            if self.read_timer is not None:
                self.read_timer.cancel()
                self.read_timer = None

        def data_received(self, data):
            if self.conn.their_state is h11.IDLE:
                self._arm()                         # a new request begins
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE and \
                    self.conn.their_state is not h11.SEND_BODY:
                self._disarm()                      # all of it has arrived (or it ended)

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self):
            super().on_response_complete()          # (its keep-alive timer takes over)
            self._disarm()

        def _too_slow(self):
            self.read_timer = None
            if self.transport.is_closing():
                return
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(_raw_json_response(
                    408, "Request Timeout", f"the request did not arrive within "
                                            f"{READ_TIMEOUT:g} s"))
            self.transport.close()

        def send_400_response(self, msg):
            self._disarm()
            self.transport.write(_raw_json_response(400, "Bad Request",
                                                    "not an HTTP/1.1 request this server "
                                                    "can read"))
            self.transport.close()

    return Protocol


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one); OSError when it cannot."""
    port = check_int("port", port, 0, 65535)
    not_here = ValueError(f"host={host}: not an address of this machine")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port,
                                                             type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError):
        raise not_here from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ValueError(f"port={port}: another program is listening on it "
                             f"(port=0 takes a free one)") from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise not_here from None
        raise
    sock.listen(128)
    return sock


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address (or name) only this machine can reach."""
    try:
        return all(ipaddress.ip_address(info[4][0]).is_loopback
                   for info in socket.getaddrinfo(host, None))
    except (OSError, ValueError):
        return False


def serve(host: str = "127.0.0.1", port: int = 8000, *, max_samples: int = 4000,
          timeout: float = 60.0, max_body: int = 64 * 1024) -> int:
    """Serve the study page on ``host:port`` until interrupted (Ctrl+C); print its address
    first.  Another host than loopback (127.0.0.1, the default) lets every machine that
    can reach the port use the page and run solves here: no authentication."""
    import uvicorn
    limits = Limits(max_samples=max_samples, timeout=timeout, max_body=max_body)
    sock = _bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"the study page: http://{shown}:{bound_port}/  (Ctrl+C stops it)", flush=True)
    if not is_loopback(host):
        print(f"warning: listening on {host}: anyone who can reach port {bound_port} can use "
              f"the page and run solves on this machine (no authentication)",
              file=sys.stderr, flush=True)
    app = create_app(limits)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None):
            # The work stops first, so that requests at work are answered ("the server
            # is stopping") rather than cancelled mid-way.
            app.state.solver.workers.close()
            app.state.solver.trainings.close()
            await super().shutdown(sockets)

    # (No limit_concurrency: its 503 is plain text; the app's own limit answers in JSON.)
    config = uvicorn.Config(app, log_level="warning", http=_protocol(), timeout_keep_alive=5,
                            timeout_graceful_shutdown=1)
    Server(config).run(sockets=[sock])
    return 0
