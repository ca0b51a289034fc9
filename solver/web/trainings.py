"""The study page server's trainings: the opponent model of a rules file that has none,
trained by self-play in a worker process of its own (:func:`solver.train_model`), its
progress and the estimate of the time left (:meth:`Training.status`), cancelling it
(:meth:`Trainings.cancel`), and the cap on the models the server keeps on disk
(:class:`KeptModels`).

One training per model at once, however many clients ask; at most
:data:`MAX_TRAININGS` models at once.  A cancelled training, or the server stopping,
stops it as Ctrl+C stops ``python3 -m solver train``: within a fraction of a second,
leaving nothing half-written and the lock free.

**The models this server keeps.**  A model a study page server trains is written to the
library's cache folder (``models/``) like any other, and recorded, with when it was last
used, in ``models/study-page-models.json`` beside it.  Those recorded models -- trained by
a study page server sharing this cache folder, on this run or an earlier one -- are the
ones kept by the server: at most ``max_models`` of them (``--max-models``, default
:data:`MAX_MODELS`).  When a training makes one more, the least recently used (by a
solve, review or training request of the server) are deleted until there are
``max_models``.  A model shipped with the library is never counted nor touched, and
neither is one trained at the command line (``python3 -m solver train``) or by a
library call: those are the user's.
"""
from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

from starlette.exceptions import HTTPException

import solver
from .. import _jit, _progress
from .._checks import check_int
from ..training import PRESETS, model_path, trained_model
from .errors import one_line
from .workers import Worker

log = logging.getLogger("solver.web")

MAX_TRAININGS = 2        # models trained at once (a process each, on one core)
KEEP_TRAININGS = 100     # finished trainings remembered (their ids still answer)
STOP_GRACE = 1.0         # seconds a training has to stop when cancelled or the server stops
MAX_MODELS = 20          # trained models kept on disk (--max-models): ~60 KB each
RECORD = "study-page-models.json"
TOUCH_EVERY = 60.0       # seconds: a model's last use is written at most this often


class KeptModels:
    """The trained models the server keeps (the module docstring says which), at most
    ``limit``; the record in the cache folder is read and written under a lock file, in
    whatever thread calls (never the event loop's)."""

    def __init__(self, limit: int = MAX_MODELS):
        self.limit = check_int("max_models", limit, 1)
        self._lock = threading.Lock()
        self._touched: dict[str, float] = {}

    @contextlib.contextmanager
    def _record(self, folder: Path):
        """The record of ``folder`` (``{file name: last used}``), locked; written back."""
        folder.mkdir(parents=True, exist_ok=True)
        with self._lock, open(folder / (RECORD + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            path = folder / RECORD
            try:
                record = json.loads(path.read_text(encoding="utf-8"))["models"]
                record = {str(k): float(v) for k, v in record.items()}
            except FileNotFoundError:
                record = {}
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
                log.error("%s is damaged (%s); starting it again", path,
                          one_line(e, 200))
                record = {}
            before = dict(record)
            yield record
            if record != before:
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps({"models": record}, indent=1), encoding="utf-8")
                os.replace(tmp, path)

    def trained(self, path: Path) -> list[str]:
        """Record the model just trained at ``path``; delete the least recently used of
        the others while more than ``limit`` are kept.  The file names deleted."""
        deleted = []
        with self._record(path.parent) as record:
            record[path.name] = time.time()
            for name in [n for n in record if not (path.parent / n).exists()]:
                del record[name]                      # (gone some other way)
            for name in sorted(record, key=record.get):
                if len(record) <= self.limit:
                    break
                if name != path.name and _delete_model(path.parent / name):
                    del record[name]
                    deleted.append(name)
        return deleted

    def used(self, path: Path) -> None:
        """A request used the model at ``path``: if it is one the server keeps, it is now
        the most recently used (written at most every :data:`TOUCH_EVERY` seconds)."""
        now = time.time()
        if now - self._touched.get(str(path), 0.0) < TOUCH_EVERY:
            return
        self._touched[str(path)] = now
        if len(self._touched) > 1000:
            self._touched.clear()
        with self._record(path.parent) as record:
            if path.name in record:
                record[path.name] = now


def _delete_model(path: Path) -> bool:
    """Delete a model file and its lock file, unless a process holds the lock (it is
    training or reading that model); whether it was deleted."""
    lock = path.with_suffix(".lock")
    held = _jit.hold_lock(str(lock))         # (None: another process holds it)
    if held is None:
        return False
    try:
        path.unlink(missing_ok=True)
        lock.unlink(missing_ok=True)
        return True
    except OSError:
        return False
    finally:
        _jit.let_go(held)


class Training:
    """One opponent model: ready, or being trained in a process of its own (a
    :class:`solver.web.workers.Worker` given the ``train`` task), and how far it has got;
    ``path``: the model file when the server keeps it (trained here), else None."""

    def __init__(self, id: str, rules: "solver.RuleSet", players: int, state: str):
        self.id, self.rules, self.players, self.state = id, rules, players, state
        self.done, self.total = 0, None
        self.started = time.monotonic()
        self.seconds: Optional[float] = None          # the training's, once done
        self.points: list[tuple[float, int]] = []     # (time, deals done) of each step
        self.compiling_since: Optional[float] = None
        self.message = ""
        self.worker: Optional[Worker] = None
        self.path: Optional[Path] = None
        self.cancelled = False

    def progress(self, done: int, total: int) -> None:
        self.points.append((time.monotonic(), done))
        self.done, self.total = done, total
        self.compiling_since = None                   # (playing deals: compiled)

    def status(self) -> dict:
        """What ``/api/rules/train`` answers: the state (``ready``, ``training``,
        ``failed``, ``cancelled``), the deals ``done`` of ``total``, the ``seconds`` so
        far (the training's own once done), an estimate of the seconds ``remaining`` (from
        the pace since the second round began: :func:`solver._progress.time_left`;
        compiling and the quicker first round do not count), and whether the kernels are
        ``compiling``."""
        now = time.monotonic()
        remaining = None
        if self.state == "training" and self.total:
            # (The worker trains with the default preset: its rounds, the first included.)
            round_size = self.total // (PRESETS["default"].rounds + 1)
            remaining = _progress.time_left(self.points, self.total, round_size)
        seconds = self.seconds if self.seconds is not None else round(now - self.started, 1)
        return dict(id=self.id, rules=self.rules.name, players=self.players, state=self.state,
                    done=self.done, total=self.total, seconds=seconds, remaining=remaining,
                    compiling=self.compiling_since is not None, message=self.message)


class Trainings:
    """The server's trainings, by id (one per model file: a rule set's digest and the
    seats its model is for): :meth:`ensure` starts one where a model is missing,
    :meth:`cancel` stops one, :meth:`close` stops them all; ``kept`` is the cap on the
    models kept on disk."""

    def __init__(self, max_models: int = MAX_MODELS):
        self.by_id: dict[str, Training] = {}
        self.kept = KeptModels(max_models)
        self.readers = ThreadPoolExecutor(2 * MAX_TRAININGS + 2,
                                          thread_name_prefix="solver-web-training")
        self.closing = False

    async def _in_thread(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.readers, fn, *args)

    async def ensure(self, rs: "solver.RuleSet", players: Optional[int]) -> dict:
        """The status (:meth:`Training.status`) of the model a solve under ``rs`` with
        ``players`` seats uses: ready, or its training (started now if not under way).
        Refused (503) while :data:`MAX_TRAININGS` others are under way."""
        n_seats = rs.max_seats if players is None else check_int("players", players)
        if n_seats not in rs.seats:
            raise ValueError(f"players={n_seats}: the {rs.name} rule set plays with "
                             f"{' or '.join(map(str, rs.seats))} players")
        path = model_path(rs, n_seats)
        id = path.stem if path is not None else f"model-{rs.digest}-{n_seats}"
        current = self.by_id.get(id)
        if current is not None and current.state == "ready" and current.path is not None:
            # A model this server keeps: still there (another server sharing the cache
            # may have let it go), and now the most recently used.
            if await self._in_thread(current.path.exists):
                await self._in_thread(self.kept.used, current.path)
            else:
                current = None
        if current is not None and current.state in ("ready", "training"):
            return current.status()
        # (Reads a model file when there is one: off the event loop.)
        found = await self._in_thread(trained_model, rs, n_seats)
        if found is not None:
            ready = Training(id, rs, n_seats, "ready")
            ready.seconds = found.seconds
            ready.message = ("shipped with the library" if found.source == "shipped"
                             else "trained before")
            if found.source != "shipped" and found.path is not None:
                ready.path = found.path
                await self._in_thread(self.kept.used, found.path)
            self._remember(ready)
            return ready.status()
        if path is None:
            raise ValueError("this server keeps no cache folder (SOLVER_CACHE_DIR is empty), "
                             "so a model trained here would not be kept: train it with "
                             "python3 -m solver train, with a cache folder")
        current = self.by_id.get(id)            # (one may have started meanwhile)
        if current is not None and current.state in ("ready", "training"):
            return current.status()
        if self.closing:
            raise HTTPException(503, "the server is stopping")
        if sum(t.state == "training" for t in self.by_id.values()) >= MAX_TRAININGS:
            raise HTTPException(503, f"this server is training as many opponent models "
                                     f"as it trains at once ({MAX_TRAININGS}); try again "
                                     f"when one is done")
        training = Training(id, rs, n_seats, "training")
        self._remember(training)
        task = asyncio.get_running_loop().create_task(self._run(training))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        return training.status()

    def status(self, id: str) -> dict:
        """The status of training ``id`` (404 when this server has none)."""
        return self._find(id).status()

    def _find(self, id: str) -> Training:
        found = self.by_id.get(id)
        if found is None:
            raise HTTPException(404, f"no training {one_line(id, 100)!r} on this server "
                                     f"(POST /api/rules/train starts one)")
        return found

    async def cancel(self, id: str) -> dict:
        """Stop training ``id``, under way: its process is asked to stop (SIGTERM) and
        killed if still there after :data:`STOP_GRACE` seconds; nothing of it is kept.
        Its status, state ``cancelled``.  404 for no such training, 409 for one that is
        not under way (ready, failed or cancelled already)."""
        training = self._find(id)
        if training.state != "training":
            raise HTTPException(409, f"the training {id} is not under way (it is "
                                     f"{training.state}); nothing to cancel")
        training.cancelled = True
        training.state, training.message = "cancelled", "cancelled"
        training.compiling_since = None
        worker = training.worker
        if worker is not None:
            await self._in_thread(_stop, [worker])
        return training.status()

    def _remember(self, training: Training) -> None:
        self.by_id.pop(training.id, None)
        self.by_id[training.id] = training
        finished = [k for k, t in self.by_id.items() if t.state != "training"]
        for key in finished[:max(0, len(finished) - KEEP_TRAININGS)]:
            del self.by_id[key]

    async def _run(self, training: Training) -> None:
        """Train in a worker process of its own, hearing its progress, until done."""
        try:
            training.worker = await self._in_thread(Worker)
            if self.closing or training.cancelled:
                raise EOFError
            conn = training.worker.conn
            if await self._in_thread(conn.recv) != ("ready",):
                raise EOFError
            conn.send(("train", (training.rules, training.players), {}, False))
            while True:
                message = await self._in_thread(conn.recv)
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
                if payload["source"] == "trained" and payload["path"] is not None:
                    training.path = Path(payload["path"])
                    for name in await self._in_thread(self.kept.trained, training.path):
                        self.by_id.pop(Path(name).stem, None)
            elif not training.cancelled:
                if kind == "bug":
                    log.error("training %s failed: %s", training.id, one_line(payload, 600))
                training.state = "failed"
                training.message = (payload if kind == "bad" else
                                    "the training failed (the server's log says more)")
        except (EOFError, OSError):
            if not training.cancelled:
                training.state = "failed"
                training.message = ("the server is stopping" if self.closing
                                    else "the training process died")
        except Exception as e:                    # (a bug: not left "training" forever)
            log.error("training %s failed: %s", training.id, one_line(repr(e), 600))
            training.state = "failed"
            training.message = "the training failed (the server's log says more)"
        finally:
            if training.worker is not None:
                training.worker.kill()            # (done, or dead: either way, gone)

    def close(self) -> None:
        """Stop every training (the server is stopping), as :meth:`cancel` does."""
        self.closing = True
        _stop([t.worker for t in self.by_id.values() if t.worker is not None])


def _stop(workers: list) -> None:
    """Ask training processes to stop (SIGTERM: at the end of the deals being played,
    nothing half-written); kill those still there after :data:`STOP_GRACE` seconds."""
    workers = [w for w in workers if w.process.poll() is None]
    for worker in workers:
        worker.process.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for worker in workers:
        try:
            worker.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        worker.kill()


class NotTrained(Exception):
    """A solve or review under a rules file whose opponent model is being trained."""

    def __init__(self, status: dict):
        super().__init__(status)
        self.status = status


async def model_ready(trainings: Trainings, body, rs: "solver.RuleSet") -> None:
    """Raise :class:`NotTrained` when ``body`` plays under a rules file (its rule set
    ``rs``) whose opponent model is not trained yet, starting its training: a solve would
    train it for minutes in its worker, past any time limit.  Players the rule set does
    not take are left to the library's own message."""
    if getattr(body, "rules_file", None) is None:
        return
    if body.players is not None and body.players not in rs.seats:
        return
    status = await trainings.ensure(rs, body.players)
    if status["state"] != "ready":
        raise NotTrained(status)
