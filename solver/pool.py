"""Opponent hands set once and kept on disk: one opponent of every deal of the 52-card
rule sets (``pagat``, ``classic`` in every scoring).

Why
---
A default solve of ``classic`` spends most of its time setting opponents' hands with
the model, about 20 us each.  The hands a solve needs are random, so they can be set
in advance, once per machine, and reused by every later solve: a *pool*.  Heads-up,
the deal is the opponent's hand alone, so a deal from the pool costs no setting; at
three or four seats one opponent's hand comes from the pool and the others are dealt
from the cards left and set as before (a third or a half of the settings saved).

Why a deal from the pool is a real deal
---------------------------------------
A deal gives the opponents the unseen cards (39 of them) in a uniformly random order:
the first 13 to the first opponent, the next 13 to the second, and so on
(:func:`solver.sampling.deal_unseen`), so each hand is in a uniformly random order
too.  A pool hand is the first 13 cards of a uniform permutation of the whole 52-card
deck, drawn independently of every other pool hand and of the solver's hand.
Conditioned on sharing no card with the solver's 13 cards -- an event that depends only
on which cards it holds -- it is uniform over the 13-card subsets of the unseen cards,
still in a uniformly random order: exactly the first opponent's hand of a deal.  The
cards it leaves (26) are then shuffled uniformly and dealt to the other opponents
(13 each; at three seats the last 13 stay undealt), which is how a deal gives them
out once the first hand is known.  So the deal as a whole is distributed exactly as a
dealt one.  The pool hands are independent, so the ones that share no card with the
solver's hand, taken in an order fixed before looking at them (below), are independent
first hands, and the shuffles of the rest are drawn independently of them: a solve's
deals from the pool are independent real deals.  A pool hand's setting is the one the
model makes of the same cards in the same order, so it is that opponent's setting in
the deal (tests/test_pool.py checks all of it against dealt deals).

Only the 52-card decks: in the 65- and 68-card decks some cards exist twice or three
times, and a pool hand that fits the unseen cards would not be drawn with a deal's
probability (a pool hand holding a spade that the solver also holds is a real deal only
with the other copy).  Only the shipped model (``policy=None`` or ``"table"``), whose
settings the pool holds: one pool for each rule set, scoring and number of seats.

Layout and streams
------------------
A pool is ``N_CHUNKS`` chunks of ``CHUNK`` hands, chunk ``c`` drawn from
``SeedSequence(POOL_SEED, spawn_key=(c,))``.  About one pool hand in 78 shares no card
with a given hand (C(39, 13) / C(52, 13) = 1.28%), so a chunk holds about 105 first
hands for it, and the pool about 6,700 (standard deviation 81): the distinct first
opponents' hands a hand can meet in the pool, whatever the seeds -- heads-up, the
distinct deals (at three or four seats the other opponents' hands are dealt afresh
for each seed).  Each seed takes its own path through them: ``solve(..., seed=s)``
reads the chunks in the order :func:`chunk_order` ``(s)`` (a permutation of them all)
and each chunk's fitting hands in the order of :func:`hand_keys` ``(s)`` (a random key
for each place in a chunk), both drawn from ``SeedSequence(s, spawn_key=(2,))``.  Its
deals come from the first chunk of that order on (adaptive sampling's batches one after
the other); its held-out deals from the last chunk backwards; at three or four seats
the rest of each deal is shuffled by ``SeedSequence(s, spawn_key=(2, 0))``, and
``(2, 1)`` for the held-out deals.  The two streams meet only
after every chunk has been read, so they never share a hand, and the held-out EV stays
independent of the deals that chose the setting.  What a stream draws, it draws when it
first reads a chunk, so its deals do not depend on how it is cut into batches.  Two
seeds share about as many hands as two uniform draws from the 6,700 would (a solve of
n deals, about n * n / 6,700), so averaging solves over many seeds is at best as
precise as 6,700 deals (``pool=False`` deals without limit).  A
solve reads its deals from the pool only if it may use at most ``MAX_DEALS`` (decided
by ``samples`` alone, so that the held-out deals never change the choice), and its
held-out deals only if they are at most ``MAX_HELD_OUT`` (more are dealt: independent
all the same), so the two always fit.

A chunk is set the first time a solve reads it (0.1-0.2 s) and kept in the library's
cache folder (:func:`solver._cache.cache_dir`: ``$SOLVER_CACHE_DIR``, else
``~/.cache/chinese-poker-solver``), under ``pool/`` and a name that changes with the
package's sources and data and NumPy's version, so an update never reads another
version's settings.  Every solve with the default ``seed=0`` reads the same few chunks;
other seeds fill the rest over time (the whole pool: 524,288 hands, about 11 s of
setting and 17 MB a rule set and seat count; a process keeps the chunks it has read in
memory, 21 MB for a whole pool).  A folder that cannot be written to, or
``SOLVER_CACHE_DIR`` set empty, keeps the chunks in memory only, and a damaged chunk
file is said on stderr and set again.  Pools that no process has used for
``STALE_DAYS`` days (other versions' above all, and those of the folder pools had until
2026-12, ``~/.cache/solver/pool``) are deleted when a process first uses a pool;
``rm -r ~/.cache/chinese-poker-solver/pool`` deletes them all.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple, Optional

import numpy as np

from ._cache import cache_dir, load_arrays, old_pools, save_arrays
from ._jit import doing, notices_enabled, source_digest
from .model import model_seats, shipped_twin
from .policy import builtin_policy, set_hands
from .rules import RuleSet, cache_name
from .scoring import scoring_params

CHUNK = 8192                 # hands a chunk
N_CHUNKS = 64                # chunks a pool
POOL_SEED = 0x9E3779B97F4A7C15 >> 1     # (any fixed number: the same pool everywhere)
MAX_DEALS = 3500             # a solve's deals, at most (more: dealt)
MAX_HELD_OUT = 1500          # its held-out deals, at most (more: dealt)
POOL_FORMAT = 1              # raised when a chunk's contents change meaning
STALE_DAYS = 30              # another version's pool unused this long is deleted


class Chunk(NamedTuple):
    """``CHUNK`` pool hands: ``cards[i]`` the 52-bit mask of hand i's cards,
    ``codes[i]`` its cards in the order dealt, and the model's setting: ``rows[i, r]``
    row r's position mask (bit p: ``codes[i, p]``), ``vals[i, r]`` its row value,
    ``auto[i]`` a declared automatic win (``solver.scoring.AUTO_*``, then unset).
    ``packed[i]``: all of hand i's but its mask in 32 bytes, of which the others are
    views (see :func:`_chunk`), so that a stream takes a hand with one gather."""
    cards: np.ndarray      # uint64[CHUNK]
    codes: np.ndarray      # uint8[CHUNK, 13]
    rows: np.ndarray       # uint16[CHUNK, 3]
    vals: np.ndarray       # int32[CHUNK, 3]
    auto: np.ndarray       # int8[CHUNK]
    packed: np.ndarray     # uint8[CHUNK, 32]


# Where each array lies in a packed hand (vals first: aligned for int32, rows for uint16).
_PACKED = {"vals": (slice(0, 12), np.int32), "rows": (slice(12, 18), np.uint16),
           "codes": (slice(18, 31), np.uint8), "auto": (slice(31, 32), np.int8)}


def _chunk(codes, rows, vals, auto) -> Chunk:
    """A :class:`Chunk` of its hands' arrays (any integer types of the right shapes)."""
    packed = np.empty((len(codes), 32), np.uint8)
    for name, got in (("codes", codes), ("rows", rows), ("vals", vals), ("auto", auto)):
        place, dtype = _PACKED[name]
        packed[:, place] = np.asarray(got, dtype).reshape(len(codes), -1).view(np.uint8)
    return Chunk(_card_masks(codes), *_unpacked(packed), packed)


def _unpacked(packed: np.ndarray) -> tuple:
    """(codes, rows, vals, auto) of packed hands, as views (codes, rows, vals: 2-d)."""
    codes, rows, vals, auto = (packed[:, place].view(dtype) for place, dtype in
                               (_PACKED[name] for name in ("codes", "rows", "vals", "auto")))
    return codes, rows, vals, auto[:, 0]


def applies(rs: RuleSet, n_seats: int, policy) -> bool:
    """Whether solves of ``rs`` with ``policy`` can take deals from a pool: a deck of 52
    distinct cards (no cut card, no jokers, no second spades), 13 cards dealt, and the
    shipped model (a pool is kept under the rule set's name; a model trained for a rule
    set of the user's, which may change under the same name, gets none)."""
    return (rs.deck_size == 52 and rs.jokers == 0 and not rs.cut_card
            and rs.cards_dealt == 13 and n_seats in rs.seats
            and (policy is None or (isinstance(policy, str) and policy == "table"))
            and shipped_twin(rs, model_seats(rs, n_seats)) is not None)


def chunk_order(seed: int) -> np.ndarray:
    """The order in which ``solve(..., seed=seed)`` reads the pool's chunks: its deals
    from the first on, its held-out deals from the last backwards (read-only)."""
    return _path(int(seed))[0]


def hand_keys(seed: int) -> np.ndarray:
    """A random key for each place in a chunk: ``solve(..., seed=seed)`` takes a chunk's
    fitting hands in the order of their keys (read-only)."""
    return _path(int(seed))[1]


@functools.lru_cache(maxsize=64)        # (64 seeds' keys: 2 MB; seed=0 is the default's)
def _path(seed: int) -> "tuple[np.ndarray, np.ndarray]":
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2,)))
    order = rng.permutation(N_CHUNKS)
    keys = rng.integers(0, 2 ** 32, CHUNK, dtype=np.uint32)
    order.flags.writeable = keys.flags.writeable = False
    return order, keys


@functools.lru_cache(maxsize=1)
def _version_digest() -> str:
    """A digest of what decides a pool's contents: the package's sources and data (the
    model, its kernel, the row tables, the shipped rule-set files), NumPy's version (its shuffles) and the format."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{POOL_FORMAT} {np.__version__} {source_digest()}".encode())
    for path in sorted(p for p in (root / "data").rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def pool_dir(rs: RuleSet, n_seats: int) -> Optional[Path]:
    """The folder of ``rs``'s pool for ``n_seats`` seats (one file a chunk), in the
    library's cache folder (:func:`solver._cache.cache_dir`); None when that is set
    empty (memory only)."""
    folder = cache_dir()
    if folder is None:
        return None
    return folder / "pool" / f"{cache_name(rs)}-{n_seats}seats-{_version_digest()}"


_chunks: "dict[tuple[str, int, int], Chunk]" = {}        # kept in this process
_lock = threading.Lock()
_used: "set[Path]" = set()                               # pools this process has used


def chunk(rs: RuleSet, n_seats: int, tables, c: int) -> Chunk:
    """Chunk ``c`` of ``rs``'s pool for ``n_seats`` seats: from this process's memory,
    else from disk, else set now (and kept in both).  ``tables``: ``rs``'s row tables."""
    key = (rs.digest, n_seats, c)          # (by content: two rule sets may share a name)
    got = _chunks.get(key)
    if got is not None:
        return got
    with _lock:                    # (threads of solve_many: one sets it, the others wait)
        got = _chunks.get(key)
        if got is None:
            folder = pool_dir(rs, n_seats)
            path = None if folder is None else folder / f"chunk-{c:03d}.npz"
            if folder is not None and folder not in _used:
                _used.add(folder)
                _mark_used(folder)
            got = None if path is None else _read(path)
            if got is None:
                if folder is None or not any(folder.glob("chunk-*.npz")):
                    _tell(rs, n_seats, folder)
                with doing("setting the pool's hands"):
                    got = _set_chunk(rs, n_seats, tables, c)
                if path is not None:
                    _write(path, got)
            _chunks[key] = got
    return got


# A pool's folder name: rule set, seats, version digest (what old_pools may delete).
_POOL_NAME = re.compile(r"[a-z0-9-]+-[234]seats-[0-9a-f]{16}")


def _mark_used(where: Path) -> None:
    """Note that the pool ``where`` is in use (its directory's time), and delete the
    pools beside it, and those of the folder pools had until 2026-12
    (:func:`solver._cache.old_pools`), that no process has used for STALE_DAYS days
    (other versions'; an unwritable cache is left as it is)."""
    cutoff = time.time() - STALE_DAYS * 86400
    try:
        if where.exists():
            os.utime(where)
        for other in where.parent.iterdir():
            if other != where and other.is_dir() and other.stat().st_mtime < cutoff:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        pass
    old = old_pools()
    try:
        for other in old.iterdir():
            if (_POOL_NAME.fullmatch(other.name) and other.is_dir()
                    and other.stat().st_mtime < cutoff):
                shutil.rmtree(other, ignore_errors=True)
        old.rmdir()                     # (only if empty: then the folder above it too)
        old.parent.rmdir()
    except OSError:
        pass


_told: "set[tuple[str, int]]" = set()


def _tell(rs: RuleSet, n_seats: int, where: Optional[Path]) -> None:
    """Say on stderr, once a process and pool, that the pool's hands are being set (a
    first solve's seconds that are not compiling; never with ``SOLVER_QUIET=1``).  Only
    for a pool's first chunk on the machine (its folder holds none yet; memory only:
    each process's first): later chunks, which another seed or a session's hands read,
    are set without a word (0.1-0.2 s each), since the notice says "once per machine"."""
    if (rs.digest, n_seats) in _told or not notices_enabled():
        return
    _told.add((rs.digest, n_seats))
    kept = "kept in memory only" if where is None else f"once per machine, kept in {where}"
    print(f"setting opponent hands for the {rs.name} pool of {n_seats} seats ({CHUNK:,} at "
          f"a time, 0.1-0.2 s each; {kept})...", file=sys.stderr, flush=True)


def _set_chunk(rs: RuleSet, n_seats: int, tables, c: int) -> Chunk:
    """Deal chunk ``c``'s hands and set them by the shipped model of ``n_seats`` seats,
    as :func:`solver.sampling.sampled_opponents` sets a deal's."""
    rng = np.random.default_rng(np.random.SeedSequence(POOL_SEED, spawn_key=(c,)))
    deck = np.empty((CHUNK, 52), np.int64)
    deck[:] = np.arange(52)
    codes = np.ascontiguousarray(rng.permuted(deck, axis=1, out=deck)[:, :13])
    vals, auto, masks = _set(codes[:, None, :], rs, n_seats, tables)
    return _chunk(codes, masks[:, 0], vals[:, 0], auto[:, 0])


def _set(hands: np.ndarray, rs: RuleSet, n_seats: int, tables):
    """(vals, auto, masks) of ``hands`` (S, k, 13) set by the shipped model."""
    # (The pool's rule sets have no cut card, so no Bonus rank: -1.)
    kind, mt, field = builtin_policy(None, rs, n_seats, -1)
    return set_hands(hands, tables, kind, mt, scoring_params(rs), field, n_seats,
                     bool(rs.automatic_wins))


def _card_masks(codes: np.ndarray) -> np.ndarray:
    return np.bitwise_or.reduce(np.uint64(1) << codes.astype(np.uint64), axis=1)


def _read(path: Path) -> Optional[Chunk]:
    """A chunk kept on disk, or None: none there, or a damaged file (said on stderr, and
    set again by the caller)."""
    got = load_arrays(path, _STORED, _valid_chunk)
    if got is None:
        return None
    return _chunk(got["codes"], got["rows"], got["vals"], got["auto"])


_STORED = ("codes", "rows", "vals", "auto")      # a chunk's arrays on disk (cards: from codes)


def _valid_chunk(arrays: dict) -> bool:
    """Whether arrays read from disk are a chunk's: types and shapes, and card codes of
    the 52-card deck (a hand's mask is made from them)."""
    codes, rows, vals, auto = (arrays[name] for name in _STORED)
    return (codes.shape == (CHUNK, 13) and codes.dtype == np.uint8 and int(codes.max()) < 52
            and rows.shape == (CHUNK, 3) and rows.dtype == np.uint16
            and vals.shape == (CHUNK, 3) and vals.dtype == np.int32
            and auto.shape == (CHUNK,) and auto.dtype == np.int8)


def _write(path: Path, got: Chunk) -> None:
    """Keep a chunk on disk (an unwritable cache is skipped: memory only)."""
    save_arrays(path, {name: np.ascontiguousarray(getattr(got, name)) for name in _STORED})


class PoolDeals(NamedTuple):
    """Deals from the pool: opponent j's cards ``codes[s, j]`` in the order dealt, its
    rows' position masks ``rows[s, j]``, row values ``vals[s, j]`` and declared
    automatic win ``auto[s, j]``; opponent 0's hand is the pool's."""
    codes: np.ndarray      # int64[S, n_opp, 13]
    rows: np.ndarray       # int64[S, n_opp, 3]
    vals: np.ndarray       # int32[S, n_opp, 3]
    auto: np.ndarray       # int8[S, n_opp]


class Stream:
    """The pool's deals for one hand and seed, in the order a solve takes them: the
    chunks ``chunks`` one after the other, each chunk's hands that share no card with
    the hand ``own`` (codes) in the order of their ``keys``, as the first opponent's;
    at three or four seats the others' hands dealt from the cards left, shuffled by a
    generator of ``SeedSequence(*rng_seed)`` when a chunk is first read, so that the
    deals do not depend on how :meth:`take` cuts them into batches (module docstring).
    ``read``: the chunks the other stream of the same solve has read, which this one
    must not (it raises instead: the pool holds about 6,700 first hands for every hand,
    and a solve takes at most ``MAX_DEALS + MAX_HELD_OUT``)."""

    def __init__(self, rs: RuleSet, n_seats: int, tables, own, chunks, keys,
                 rng_seed: "tuple[int, tuple]", read: "set[int]"):
        self.rs, self.n_seats, self.tables = rs, n_seats, tables
        self.own = np.uint64(sum(1 << int(c) for c in own))
        self.chunks, self.keys, self.read = list(chunks), keys, read
        self.rng_seed, self.rng = rng_seed, None        # (made when first needed)
        self.pending: "list[list]" = []      # _next_chunk's, and how many are taken

    def take(self, n: int) -> PoolDeals:
        """The next ``n`` deals."""
        parts, orders, have = [], [], 0
        while have < n:
            if not self.pending:
                self.pending.append(self._next_chunk())
            entry = self.pending[0]
            hands, done, shuffles = entry
            k = min(n - have, len(hands) - done)
            parts.append(hands[done:done + k])
            if shuffles is not None:
                orders.append(shuffles[done:done + k])
            have += k
            entry[1] += k
            if entry[1] == len(hands):
                self.pending.pop(0)
        return self._deals(parts, orders)

    def _next_chunk(self) -> list:
        """The next chunk's fitting hands (packed) in the stream's order, none taken yet,
        and at three or four seats the shuffles of the cards each leaves."""
        if not self.chunks or self.chunks[0] in self.read:
            raise RuntimeError("the pool ran out of deals for this hand (it holds "
                               "thousands for every hand: this should not happen)")
        c = self.chunks.pop(0)
        self.read.add(c)
        got = chunk(self.rs, self.n_seats, self.tables, c)
        usable = np.flatnonzero((got.cards & self.own) == 0)
        hands = got.packed[usable[np.argsort(self.keys[usable], kind="stable")]]
        shuffles = None
        if self.n_seats > 2:
            if self.rng is None:
                seed, spawn_key = self.rng_seed
                self.rng = np.random.default_rng(
                    np.random.SeedSequence(seed, spawn_key=spawn_key))
            shuffles = np.empty((len(hands), 26), np.int64)
            shuffles[:] = np.arange(26)
            self.rng.permuted(shuffles, axis=1, out=shuffles)
        return [hands, 0, shuffles]

    def _deals(self, parts, orders) -> PoolDeals:
        if not parts:                                          # (take(0))
            k = self.n_seats - 1
            return PoolDeals(np.zeros((0, k, 13), np.int64), np.zeros((0, k, 3), np.int64),
                             np.zeros((0, k, 3), np.int32), np.zeros((0, k), np.int8))
        codes, rows, vals, auto = _unpacked(np.concatenate(parts))
        codes, rows = codes.astype(np.int64), rows.astype(np.int64)
        vals, auto = np.ascontiguousarray(vals), np.ascontiguousarray(auto)
        if self.n_seats == 2:
            return PoolDeals(codes[:, None], rows[:, None], vals[:, None], auto[:, None])
        # The other opponents: the 26 cards the solver's hand and the first leave,
        # ascending, shuffled and dealt 13 each.
        order = np.concatenate(orders)
        left = ~(self.own | _card_masks(codes)) & np.uint64((1 << 52) - 1)
        bits = (left[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
        rest = np.nonzero(bits)[1].reshape(len(codes), 26)
        others = np.take_along_axis(rest, order, axis=1)[:, :13 * (self.n_seats - 2)]
        others = np.ascontiguousarray(others).reshape(len(codes), self.n_seats - 2, 13)
        o_vals, o_auto, o_rows = _set(others, self.rs, self.n_seats, self.tables)
        return PoolDeals(np.concatenate([codes[:, None], others], axis=1),
                         np.concatenate([rows[:, None], o_rows], axis=1),
                         np.concatenate([vals[:, None], o_vals], axis=1),
                         np.concatenate([auto[:, None], o_auto], axis=1))


def streams(rs: RuleSet, n_seats: int, tables, own_codes, seed: int) -> "tuple[Stream, Stream]":
    """(deals, held-out deals) of ``solve(..., seed=seed)`` at ``n_seats`` seats for the
    hand ``own_codes``: the chunks of :func:`chunk_order` ``(seed)`` from the first on,
    and from the last backwards, each chunk's fitting hands in the order of
    :func:`hand_keys` ``(seed)``; at three or four seats each stream shuffles the cards
    they leave by a generator of its own (``SeedSequence(seed, spawn_key=(2, 0))``, and
    ``(2, 1)`` for the held-out deals)."""
    read: "set[int]" = set()
    order, keys = chunk_order(seed), hand_keys(seed)
    return (Stream(rs, n_seats, tables, own_codes, order, keys,
                   (seed, (2, 0)), read),
            Stream(rs, n_seats, tables, own_codes, order[::-1], keys,
                   (seed, (2, 1)), read))
