"""Opponent hands set once and kept on disk: the deals of heads-up solves of the 52-card
rule sets (``pagat``, ``classic`` in every scoring).

Why
---
A heads-up default solve sets a few hundred opponent hands with the model, about 20 us
each: two thirds of its time.  The hands a solve needs are random, so they can be set
in advance, once per machine, and reused by every later solve: a *pool*.

Why a pool hand is a real deal
------------------------------
A heads-up deal gives the opponent 13 of the 39 unseen cards, uniformly at random and
in a uniformly random order (:func:`solver.sampling.deal_unseen`: the first 13 cards of
a uniform permutation of the unseen cards); the other 26 are not dealt, so the deal is
that hand alone.  A pool hand is the first 13 cards of a uniform permutation of the
whole 52-card deck, drawn independently of every other pool hand and of the solver's
hand.  Conditioned on sharing no card with the solver's 13 cards -- an event that
depends only on which cards it holds -- it is uniform over the 13-card subsets of the
unseen cards, still in a uniformly random order: exactly a heads-up deal.  The pool
hands are independent, so the ones that share no card with the solver's hand, taken
in an order fixed before looking at them (below), are independent deals: a solve's
deals from the pool are distributed exactly as its dealt ones.  A pool hand's setting is
the one the model makes of the same cards in the same order, so it is the opponent's
setting in that deal (tests/test_pool.py checks both against dealt deals).

Only heads-up: at three or four seats the opponents' hands must also share no card with
each other, which a pair of pool hands does once in 60,000.  Only the 52-card decks:
in the 65- and 68-card decks some cards exist twice or three times, and a pool hand
that fits the unseen cards would not be drawn with a deal's probability (a pool hand
holding a spade that the solver also holds is a real deal only with the other copy).
Only the shipped model (``policy=None`` or ``"table"``): the pool holds its settings.

Layout and streams
------------------
A pool (one a rule set and scoring) is ``N_CHUNKS`` chunks of ``CHUNK`` hands, chunk
``c`` drawn from ``SeedSequence(POOL_SEED, spawn_key=(c,))``.  About one pool hand in
78 shares no card with a given hand (C(39, 13) / C(52, 13) = 1.28%), so a chunk holds
about 105 deals for it.  ``solve(..., seed=s)`` starts at chunk :func:`first_chunk`
``(s)`` and takes its deals chunk after chunk forwards (adaptive sampling's batches one
after the other); its held-out deals go backwards from the chunk before.  The two
streams meet only after every chunk has been read, so they never share a hand, and the
held-out EV stays independent of the deals that chose the setting.  A solve reads its
deals from the pool only if it may use at most ``MAX_DEALS`` (decided by ``samples``
alone, so that the held-out deals never change the choice), and its held-out deals
only if they are at most ``MAX_HELD_OUT`` (more are dealt: independent all the same).
The pool holds about 6,700 deals for every hand (standard deviation 81), so the two
always fit.

A chunk is set the first time a solve reads it (0.1-0.2 s) and kept in the user's cache
directory (``$SOLVER_CACHE``, else ``$XDG_CACHE_HOME/solver``, else
``~/.cache/solver``), under a name that changes with the package's sources and data and
NumPy's version, so an update never reads another version's settings.  Every solve with
the default ``seed=0`` reads the same few chunks; new seeds fill the rest over time (the
whole pool: 524,288 hands, about 11 s of setting and 17 MB a rule set).  A directory
that cannot be written to keeps the chunks in memory only.
"""
from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import NamedTuple, Optional

import numpy as np

from ._jit import doing, notices_enabled
from .policy import builtin_policy, set_hands
from .rows import bonus_rank_of
from .rules import RuleSet

CHUNK = 8192                 # hands a chunk
N_CHUNKS = 64                # chunks a pool
POOL_SEED = 0x9E3779B97F4A7C15 >> 1
MAX_DEALS = 3500             # a solve's deals, at most (more: dealt)
MAX_HELD_OUT = 1500          # its held-out deals, at most (more: dealt)
POOL_FORMAT = 1              # raised when a chunk's contents change meaning
CACHE_ENV = "SOLVER_CACHE"


class Chunk(NamedTuple):
    """``CHUNK`` pool hands: ``cards[i]`` the 52-bit mask of hand i's cards,
    ``codes[i]`` its cards in the order dealt, and the model's setting: ``rows[i, r]``
    row r's position mask (bit p: ``codes[i, p]``), ``vals[i, r]`` its row value,
    ``auto[i]`` a declared automatic win (``solver.scoring.AUTO_*``, then unset)."""
    cards: np.ndarray      # uint64[CHUNK]
    codes: np.ndarray      # uint8[CHUNK, 13]
    rows: np.ndarray       # uint16[CHUNK, 3]
    vals: np.ndarray       # int32[CHUNK, 3]
    auto: np.ndarray       # int8[CHUNK]


def applies(rs: RuleSet, n_seats: int, policy) -> bool:
    """Whether heads-up solves of ``rs`` with ``policy`` can be dealt from a pool: two
    seats, a deck of 52 distinct cards (no cut card, no jokers, no second spades) and
    the shipped model."""
    return (n_seats == 2 and rs.deck_size == 52 and rs.jokers == 0 and not rs.cut_card
            and rs.cards_dealt == 13
            and (policy is None or (isinstance(policy, str) and policy == "table")))


def first_chunk(seed: int) -> int:
    """The chunk ``solve(..., seed=seed)`` starts its deals at (its held-out deals: the
    chunk before it, backwards)."""
    return _first_chunk(int(seed))


@functools.lru_cache(maxsize=1024)
def _first_chunk(seed: int) -> int:
    state = np.random.SeedSequence(seed, spawn_key=(2,)).generate_state(1, np.uint64)[0]
    return int(state % np.uint64(N_CHUNKS))


def cache_root() -> Path:
    """Where pools are kept: ``$SOLVER_CACHE``, else ``$XDG_CACHE_HOME/solver``, else
    ``~/.cache/solver``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "solver"


@functools.lru_cache(maxsize=1)
def _version_digest() -> str:
    """A digest of what decides a pool's contents: the package's sources and data (the
    model, its kernel, the row tables), NumPy's version (its shuffles) and the format."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{POOL_FORMAT} {np.__version__}".encode())
    for path in sorted([*root.rglob("*.py"), *(root / "data").glob("*")]):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def pool_dir(rs: RuleSet) -> Path:
    """The directory of ``rs``'s heads-up pool (one file a chunk)."""
    return cache_root() / "pool" / f"{rs.name.replace(':', '-')}-2seats-{_version_digest()}"


_chunks: "dict[tuple[str, int], Chunk]" = {}        # kept in this process
_lock = threading.Lock()


def chunk(rs: RuleSet, tables, c: int) -> Chunk:
    """Chunk ``c`` of ``rs``'s pool: from this process's memory, else from disk, else
    set now (and kept in both).  ``tables``: ``rs``'s row tables."""
    key = (rs.name, c)
    got = _chunks.get(key)
    if got is not None:
        return got
    with _lock:                    # (threads of solve_many: one sets it, the others wait)
        got = _chunks.get(key)
        if got is None:
            path = pool_dir(rs) / f"chunk-{c:03d}.npz"
            got = _read(path)
            if got is None:
                _tell(rs, path.parent)
                with doing("setting the heads-up pool's hands"):
                    got = _set_chunk(rs, tables, c)
                _write(path, got)
            _chunks[key] = got
    return got


_told: "set[str]" = set()


def _tell(rs: RuleSet, where: Path) -> None:
    """Say on stderr, once a process and rule set, that the pool's hands are being set
    (a first solve's seconds that are not compiling; never with ``SOLVER_QUIET=1``)."""
    if rs.name in _told or not notices_enabled():
        return
    _told.add(rs.name)
    print(f"setting opponent hands for the heads-up {rs.name} pool ({CHUNK:,} at a time, "
          f"0.1-0.2 s each; once per machine, kept in {where})...", file=sys.stderr,
          flush=True)


def _set_chunk(rs: RuleSet, tables, c: int) -> Chunk:
    """Deal chunk ``c``'s hands and set them by the shipped heads-up model, as
    :func:`solver.sampling.sampled_opponents` sets a deal's."""
    rng = np.random.default_rng(np.random.SeedSequence(POOL_SEED, spawn_key=(c,)))
    deck = np.empty((CHUNK, 52), np.int64)
    deck[:] = np.arange(52)
    codes = np.ascontiguousarray(rng.permuted(deck, axis=1, out=deck)[:, :13])
    kind, mt, field = builtin_policy(None, rs, 2, bonus_rank_of(rs, None))
    vals, auto, masks = set_hands(codes[:, None, :], tables, kind, mt, rs.scoring_params(),
                                  field, 2, bool(rs.automatic_wins))
    return Chunk(_card_masks(codes), codes.astype(np.uint8), masks[:, 0].astype(np.uint16),
                 vals[:, 0], auto[:, 0])


def _card_masks(codes: np.ndarray) -> np.ndarray:
    return np.bitwise_or.reduce(np.uint64(1) << codes.astype(np.uint64), axis=1)


def _read(path: Path) -> Optional[Chunk]:
    """A chunk kept on disk, or None (none there, or not one this version wrote)."""
    try:
        with np.load(path) as f:
            codes, rows, vals, auto = f["codes"], f["rows"], f["vals"], f["auto"]
    except (OSError, KeyError, ValueError, EOFError):
        return None
    if not (codes.shape == (CHUNK, 13) and codes.dtype == np.uint8
            and rows.shape == (CHUNK, 3) and rows.dtype == np.uint16
            and vals.shape == (CHUNK, 3) and vals.dtype == np.int32
            and auto.shape == (CHUNK,) and auto.dtype == np.int8):
        return None
    return Chunk(_card_masks(codes), codes, rows, vals, auto)


def _write(path: Path, got: Chunk) -> None:
    """Keep a chunk on disk: written to a temporary file and renamed, so a reader (of
    this or another process) sees a whole file or none; an unwritable cache is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, codes=got.codes, rows=got.rows, vals=got.vals, auto=got.auto)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        pass


class Stream:
    """The pool's deals for one hand, in the order a solve takes them: from chunk
    ``start`` on, forwards (``step`` 1) or backwards (-1), each chunk's hands that share
    no card with ``own`` (a 52-bit card mask) in their order.  :meth:`take` gives the
    next ones; ``avoid``: the chunks the other stream of the same solve has read,
    which this one must not (it raises instead: the pool holds about 6,700 deals for
    every hand, and a solve takes at most ``MAX_DEALS + MAX_HELD_OUT``)."""

    def __init__(self, rs: RuleSet, tables, own: int, start: int, step: int,
                 read: "set[int]"):
        self.rs, self.tables, self.own = rs, tables, np.uint64(own)
        self.next_chunk, self.step, self.read = start % N_CHUNKS, step, read
        self.pending: "list[tuple[Chunk, np.ndarray]]" = []     # (chunk, unread indices)

    def take(self, n: int) -> "list[tuple[Chunk, np.ndarray]]":
        """The next ``n`` deals: (chunk, indices of its hands) pairs, in order."""
        out, have = [], 0
        while have < n:
            if not self.pending:
                c = self.next_chunk
                if c in self.read:
                    raise RuntimeError("the pool ran out of deals for this hand (it holds "
                                       "thousands for every hand: this should not happen)")
                self.read.add(c)
                self.next_chunk = (c + self.step) % N_CHUNKS
                got = chunk(self.rs, self.tables, c)
                self.pending.append((got, np.flatnonzero((got.cards & self.own) == 0)))
            got, idx = self.pending[0]
            part = idx[:n - have]
            out.append((got, part))
            have += len(part)
            if len(part) == len(idx):
                self.pending.pop(0)
            else:
                self.pending[0] = (got, idx[len(part):])
        return out


def streams(rs: RuleSet, tables, own_codes, seed: int) -> "tuple[Stream, Stream]":
    """(deals, held-out deals) of ``solve(..., seed=seed)`` for the hand ``own_codes``."""
    own = 0
    for c in own_codes:
        own |= 1 << int(c)
    read: "set[int]" = set()
    c0 = first_chunk(seed)
    return (Stream(rs, tables, own, c0, 1, read), Stream(rs, tables, own, c0 - 1, -1, read))


def gather(parts, field: str) -> np.ndarray:
    """The ``field`` of :class:`Chunk` of the deals ``parts`` (from :meth:`Stream.take`),
    in order."""
    return np.concatenate([getattr(got, field)[idx] for got, idx in parts])
