"""The one folder where the library keeps what it builds once per machine -- the row
tables of :mod:`solver.tables` (``rows-*.npz``) and the pools of :mod:`solver.pool`
(``pool/``) -- and how a file in it is read and written.

The folder is ``$SOLVER_CACHE_DIR``, else ``$XDG_CACHE_HOME/chinese-poker-solver``, else
``~/.cache/chinese-poker-solver``; ``SOLVER_CACHE_DIR`` set empty keeps everything in
memory.  (Until 2026-12 the pools had a folder and a variable of their own,
``~/.cache/solver`` and ``$SOLVER_CACHE``: that variable is no longer read, which the
library says once if it is set, and the old pools are never read again: every update of
the package starts new ones anyway.  They are deleted as any unused pool is, after
:data:`solver.pool.STALE_DAYS` days, see :func:`old_pools`.)

A cache file is only ever a copy of something the library can build again, so reading
one never fails: a missing file is None, and so is a damaged one (cut off, a byte
changed, empty, or arrays of the wrong type or shape), which is then reported in one
line on stderr, so that a disk going bad does not go unnoticed, while the caller
builds the contents again and writes them over it.  A file is written to a temporary
file beside it and renamed, so a reader (of this or another process) sees a whole file
or none; a cache that cannot be written to (a read-only home) is left alone, and the
caller keeps what it built in memory only.
"""
from __future__ import annotations

import io
import os
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Callable, Optional

import numpy as np


CACHE_ENV = "SOLVER_CACHE_DIR"
FOLDER = "chinese-poker-solver"
OLD_POOL_ENV = "SOLVER_CACHE"           # the pools' own variable until 2026-12 (not read)
OLD_POOL_FOLDER = "solver"              # and their folder in the user's cache

_told_old_variable = False


def cache_dir() -> Optional[Path]:
    """The library's cache folder (module docstring); None when ``$SOLVER_CACHE_DIR``
    is set empty (memory only)."""
    configured = os.environ.get(CACHE_ENV)
    _tell_old_variable(configured)
    if configured is not None:
        return Path(configured) if configured else None
    return _user_cache() / FOLDER


def _user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME")
                or os.path.join(os.path.expanduser("~"), ".cache"))


def old_pools() -> Path:
    """Where pools were kept until 2026-12 (``~/.cache/solver/pool``): only ever
    deleted from, as stale pools are (:mod:`solver.pool`)."""
    return _user_cache() / OLD_POOL_FOLDER / "pool"


def _tell_old_variable(configured: Optional[str]) -> None:
    """Say once a process, on stderr, that ``$SOLVER_CACHE`` is set but no longer read."""
    global _told_old_variable
    old = os.environ.get(OLD_POOL_ENV)
    if _told_old_variable or not old or (configured or "") == old:
        return
    _told_old_variable = True
    where = configured if configured is not None else "its default"
    print(f"solver: ${OLD_POOL_ENV} is no longer read: every cache is in ${CACHE_ENV} "
          f"({where or 'set empty: memory only'})", file=sys.stderr, flush=True)


def load_arrays(path: Path, names: "tuple[str, ...]",
                valid: Callable[[dict], bool]) -> Optional[dict]:
    """The arrays ``names`` of the ``.npz`` file ``path``, or None: when there is no such
    file, and when it is damaged (it cannot be read, or ``valid(arrays)`` is false:
    arrays of another type or shape), which is said on stderr."""
    try:
        with zipfile.ZipFile(path) as archive:
            arrays = {name: _read_member(archive, name + ".npy") for name in names}
    except FileNotFoundError:
        return None
    except Exception as e:         # noqa: BLE001 -- whatever a damaged file raises:
        # zipfile.BadZipFile (cut off, empty, a bad CRC), zlib.error, ValueError and
        # KeyError (a damaged header or member), OSError (unreadable), ...
        report_damaged(path, f"{type(e).__name__}: {e}")
        return None
    if not valid(arrays):
        report_damaged(path, "arrays of the wrong type or shape")
        return None
    return arrays


def _read_member(archive: zipfile.ZipFile, name: str) -> np.ndarray:
    """One array of an ``.npz`` file, its bytes read whole first: only a read to the
    end of a member checks its CRC, and ``numpy.load`` stops where the array's header
    says the data ends (a changed byte in the header's length would go unseen)."""
    raw = archive.read(name)
    stream = io.BytesIO(raw)
    version = np.lib.format.read_magic(stream)
    read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                   (2, 0): np.lib.format.read_array_header_2_0}.get(version)
    if read_header is None:
        raise ValueError(f"{name}: .npy format {version}, not one numpy.savez writes")
    shape, fortran_order, dtype = read_header(stream)
    if dtype.hasobject or fortran_order:
        raise ValueError(f"{name}: not an array this library writes")
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) - stream.tell() != size:
        raise ValueError(f"{name}: {len(raw) - stream.tell()} bytes of data, not {size}")
    # (A copy: writable, as the kernels' argument types are.)
    return np.frombuffer(raw, dtype, offset=stream.tell()).reshape(shape).copy()


def report_damaged(path: Path, why: str) -> None:
    """Say on stderr, in one line, that the cache file ``path`` is damaged and is being
    built again (always: a damaged file is news, unlike the notices SOLVER_QUIET turns
    off)."""
    print(f"solver: the cache file {path} is damaged ({why}); building it again",
          file=sys.stderr, flush=True)


def save_arrays(path: Path, arrays: dict, *, compressed: bool = False) -> bool:
    """Write ``arrays`` to the ``.npz`` file ``path`` (a temporary file renamed over it);
    whether it was written (False: the cache cannot be written to)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                (np.savez_compressed if compressed else np.savez)(f, **arrays)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return False
    return True
