"""Files the library builds once per machine and keeps on disk (the row tables of
:mod:`solver.tables`, the pool chunks of :mod:`solver.pool`): how one is read and written.

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
