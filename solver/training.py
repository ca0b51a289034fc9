"""Opponent models for rule sets that ship without one: trained by self-play, kept in the
cache folder (:func:`train_model`, ``python3 -m solver train``).

A rule set whose content is a built-in one's (every field but its name:
:func:`solver.model.rules_digest`) uses the model shipped in ``solver/data/``.  Any
other gets one by the self-play that built the shipped ones
(:func:`solver.policy_training.self_play`), on first use or ahead of time, and kept in
the library's cache folder (:func:`solver._cache.cache_dir`, ``models/``) under the digest
of its content, so a changed rule set trains a model of its own and a renamed one does
not.

Two presets (:data:`PRESETS`): ``default``, the shipped models' own (12 rounds of 20,000
deals), and ``quick``, a fifth of the work for a first look.  A solve uses the default
model when there is one, else the quick one, else trains the default one.

Training writes its file only when it is done, to a temporary file renamed into place,
so a Ctrl+C (seen within a fraction of a second: the deals are set a thousand at a time)
or a crash leaves nothing half-written.  Processes that want the same model at once take
turns on a lock file beside it (``fcntl.flock``): the first trains, the others wait,
then load what it wrote.
"""
from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import os
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple, Optional

import numpy as np

from . import _progress
from ._cache import cache_dir, report_damaged, save_arrays
from ._checks import check_int
from ._jit import notices_enabled
from .model import (TableModel, fields_arrays, fields_of_arrays, group_kind, key_of_arrays,
                    model_file, model_seats, rules_digest, seats_suffix, set_trainer,
                    shipped_twin)
from .policy_training import self_play
from .rules import RuleSet, rule_set as _rules

FOLDER = "models"          # in the cache folder
# Of the files written here: a new format trains anew.  2: a field for each number of
# jokers a hand holds, where the deck has jokers; 3: a field for each group of hands by
# their high-card points, in the western scheme (solver.model.group_kind).  A rule set of
# neither trains as it did in format 1, so its files keep that name.
MODEL_FORMATS = {None: 1, "jokers": 2, "high cards": 3}


class Preset(NamedTuple):
    """How much self-play a model gets: ``rounds`` of fictitious play after the first,
    ``deals`` a round (four hands each), from ``seed``."""
    rounds: int
    deals: int
    seed: int = 0


# default: the shipped models' preset; quick: about a fifth of the work (the figures, and
# what each costs in strength: docs/training.md).
PRESETS = {"default": Preset(12, 20000), "quick": Preset(6, 8000)}


@dataclasses.dataclass(frozen=True)
class TrainedModel:
    """What :func:`train_model` gives: the ``model``; where it came from (``source``:
    ``"shipped"``, a built-in rule set's file; ``"cache"``, trained before; ``"trained"``,
    just now); its file (``path``; None when kept in memory only); the ``preset`` name
    (None for a shipped model) and the seconds spent training (0 unless trained now)."""
    model: TableModel
    source: str
    path: Optional[Path]
    preset: Optional[str]
    seconds: float

    def __str__(self) -> str:
        rs, seats = self.model.rules, self.model.n_seats
        where = f": {self.path}" if self.path is not None else " (kept in memory only)"
        if self.source == "shipped":
            return f"{rs.name}, {seats} players: the model shipped with the library{where}"
        preset = PRESETS[self.preset]
        how = f"{self.preset} preset, {preset.rounds} rounds x {preset.deals:,} deals"
        if self.source == "cache":
            return f"{rs.name}, {seats} players: already trained ({how}){where}"
        return (f"{rs.name}, {seats} players: trained in {self.seconds:.0f} s ({how})"
                f"{where}")


def model_path(rules: "str | RuleSet", n_seats: int, preset: str = "default") -> Optional[Path]:
    """The cache file of the model trained for ``rules`` and ``n_seats`` seats with
    ``preset`` (it may not exist); None when the cache is memory only."""
    folder = cache_dir()
    if folder is None:
        return None
    rs = _rules(rules).at_seats(n_seats)
    p = PRESETS[preset]
    return folder / FOLDER / (f"model-{rules_digest(rs)}-{seats_suffix(model_seats(rs, n_seats))}"
                              f"-{p.rounds}x{p.deals}s{p.seed}-v{model_format(rs)}.npz")


def model_format(rules: RuleSet) -> int:
    """The format of the model trained for ``rules`` (:data:`MODEL_FORMATS`): 1 where a
    model has one field a Bonus rank, as every model had before format 2."""
    return MODEL_FORMATS[group_kind(rules)]


OnProgress = Callable[[int, int], None]


def train_model(rules: "str | RuleSet", players: "int | None" = None, *, quick: bool = False,
                progress: Optional[bool] = None,
                on_progress: Optional[OnProgress] = None) -> TrainedModel:
    """The opponent model of ``rules`` with ``players`` seats (the rule set's most, by
    default), trained by self-play if it is not shipped with the library or trained
    before (module docstring), with the ``quick`` preset or the default one.

    Training shows a progress bar of the deals on stderr (``progress``: None, when
    stderr is a terminal); Ctrl+C stops it at once and leaves nothing behind.  A second
    process asking for the same model meanwhile waits for the first, then loads it.
    ``on_progress(done, total)``, if given, hears of the deals played as training goes
    (at most a thousand at a time); an exception it raises stops the training as Ctrl+C
    does.
    """
    rs, n_seats = _rules_and_seats(rules, players)
    shipped = _shipped(rs, n_seats)
    if shipped is not None:
        return shipped
    return _obtain(rs, n_seats, "quick" if quick else "default", progress, on_progress)


def trained_model(rules: "str | RuleSet", players: "int | None" = None) -> Optional[TrainedModel]:
    """The model a solve under ``rules`` with ``players`` seats would use, without
    training one: the shipped model, else the default preset's trained before, else the
    quick preset's; None when there is none yet (the first solve would train it)."""
    rs, n_seats = _rules_and_seats(rules, players)
    shipped = _shipped(rs, n_seats)
    if shipped is not None:
        return shipped
    for preset in ("default", "quick"):
        path = model_path(rs, n_seats, preset)
        found = _load(path, rs, n_seats, preset) if path is not None else None
        if found is not None:
            return found
    return None


def _rules_and_seats(rules: "str | RuleSet", players: "int | None") -> tuple[RuleSet, int]:
    rs = _rules(rules)
    n_seats = rs.max_seats if players is None else check_int("players", players)
    if n_seats not in rs.seats:
        raise ValueError(f"players={n_seats}: the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players")
    return rs.at_seats(n_seats), n_seats


def _shipped(rs: RuleSet, n_seats: int) -> Optional[TrainedModel]:
    """The built-in twin's shipped model, or None when the rule set has no twin."""
    seats_key = model_seats(rs, n_seats)
    twin = shipped_twin(rs, seats_key)
    if twin is None:
        return None
    return TrainedModel(TableModel.shipped(rs, n_seats), "shipped",
                        model_file(twin, seats_key), None, 0.0)


def _obtain(rs: RuleSet, n_seats: int, preset: str, progress: Optional[bool],
            on_progress: Optional[OnProgress] = None) -> TrainedModel:
    """The model with ``preset``: from the cache, else trained (one process at a time)."""
    path = model_path(rs, n_seats, preset)
    if path is None:
        return _train(rs, n_seats, preset, None, progress, on_progress)
    found = _load(path, rs, n_seats, preset)
    if found is not None:
        return found
    with _locked(path, rs, n_seats):
        # Another process may have trained it while this one waited.
        return (_load(path, rs, n_seats, preset)
                or _train(rs, n_seats, preset, path, progress, on_progress))


def _load(path: Path, rs: RuleSet, n_seats: int, preset: str) -> Optional[TrainedModel]:
    """The model kept at ``path``, or None: none there, or a damaged file (said on
    stderr; it is trained again and written over)."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in data.files}
        fields = fields_of_arrays(arrays)
        if not fields or any(not _valid_field(f) for groups in fields.values()
                             for f in groups):
            raise ValueError("fields of the wrong type or shape")
        key = key_of_arrays(arrays, fields)
    except FileNotFoundError:
        return None
    except Exception as e:          # noqa: BLE001 -- whatever a damaged file raises
        report_damaged(path, f"{type(e).__name__}: {e}")
        return None
    model = TableModel(rs, n_seats, fields, name="table", key=key)
    return TrainedModel(model, "cache", path, preset, 0.0)


def _valid_field(field) -> bool:
    return all(v.ndim == 1 and v.shape == w.shape and len(v) and (np.diff(v) > 0).all()
               and (w >= 0).all() and w.sum() > 0
               for v, w in zip(field.values, field.weights))


@contextlib.contextmanager
def _locked(path: Path, rs: RuleSet, n_seats: int):
    """Hold the lock file of ``path`` (another process training the same model holds
    it: wait, saying so); without it where the cache cannot be written to."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _notice(f"waiting for another process training the model of {rs.name} "
                    f"({n_seats} players)")
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)            # (releases the lock)


def _train(rs: RuleSet, n_seats: int, preset: str, path: Optional[Path],
           progress: Optional[bool], on_progress: Optional[OnProgress] = None) -> TrainedModel:
    p = PRESETS[preset]
    start = time.perf_counter()
    total, done = (p.rounds + 1) * p.deals, 0
    with _progress.bar(progress, total,
                       f"training {rs.name} ({n_seats} players)", "deal") as bar:
        def on_deals(n: int) -> None:
            nonlocal done
            done += n
            bar.update(n)
            if on_progress is not None:
                on_progress(done, total)
        model = self_play(rs, n_seats, rounds=p.rounds, deals=p.deals, seed=p.seed,
                          on_deals=on_deals)
    seconds = time.perf_counter() - start
    meta = dict(rules=rs.name, seats=n_seats, rounds=p.rounds, deals=p.deals, seed=p.seed,
                preset=preset, digest=rules_digest(rs), seconds=round(seconds, 1))
    if path is not None and not save_arrays(path, fields_arrays(model.fields, meta, model.key),
                                            compressed=True):
        path = None                           # (a cache that cannot be written to)
    model = TableModel(rs, n_seats, model.fields, name="table", key=model.key)
    return TrainedModel(model, "trained", path, preset, seconds)


def _notice(text: str) -> None:
    if notices_enabled():
        print(f"solver: {text}", file=sys.stderr, flush=True)


def _on_first_use(rs: RuleSet, n_seats: int) -> TableModel:
    """The model a solve (or anything else) uses for a rule set without a shipped one:
    the default preset's if trained, else the quick one's, else the default one trained
    now (saying so first)."""
    found = trained_model(rs, n_seats)
    if found is not None:
        return found.model
    _notice(f"the rule set {rs.name!r} has no opponent model for {n_seats} players yet: "
            f"training one by self-play (minutes, once; 'python3 -m solver train' does it "
            f"ahead of time)")
    return _obtain(rs, n_seats, "default", None).model


set_trainer(_on_first_use)
