"""The one place for Numba options, so every kernel is compiled the same way; and the
notice printed while kernels compile for the first time.

``cache=True`` keeps compiled kernels on disk between processes; ``nogil`` lets callers
run kernels from threads.  Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain
Python (slow, but it lets coverage and debuggers see inside them); :func:`as_python`
does so for one kernel, and :func:`runnable` for a kernel another process is compiling
meanwhile (a first solve's, see solver._warmup).

The first solve on a machine compiles the kernels (seconds of Numba's work) and keeps
them in this module's disk cache (:class:`KernelCache`: one ``*.nbc`` file a compiled
kernel, in the package's ``__pycache__``); later processes load them in well under a
second.  A damaged or foreign file there costs one line on stderr and a compile, never
an error.
:func:`compile_progress`, around a solve, says so on stderr when the kernels about to
run are neither compiled in this process nor in a fresh on-disk cache, and every few
seconds how long it has taken so far; :func:`compile_notice` is its one-line form, for a
batch whose worker processes compile.  ``SOLVER_QUIET=1`` in the environment (or
:func:`quiet`) turns the notices off.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import hashlib
import math
import os
import pickle
import sys
import tempfile
import threading
import time
import types
from pathlib import Path
from typing import Iterable, Iterator, Optional

import numba
from numba.core import event as numba_event
from numba.core.caching import FunctionCache
from numba.core.dispatcher import Dispatcher
from numba.core.environment import lookup_environment
from numba.core.serialize import dumps

try:
    import fcntl                     # (POSIX: the compile locks below; none on Windows)
except ImportError:                  # pragma: no cover
    fcntl = None

QUIET_ENV = "SOLVER_QUIET"
# The one-line notice of a batch, whose worker processes compile (compile_progress is
# for a compile in this process).
COMPILE_NOTICE = ("compiling the solver's kernels in the worker processes (first run only; "
                  "cached on disk afterwards)...")

_noticed = False          # the notice has been printed in this process


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """A digest of the package's source files (names and contents), read once a process:
    it tells Numba's stale caches (below) and solver.pool's stale pools apart."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _clear_stale_caches() -> None:
    """Delete the package's compiled kernels on disk whenever any of its source files
    changes (told by a digest of them kept beside the cache, a few milliseconds a
    process): their entries name the digest (:class:`KernelCache`), so no process would
    load them again, and an edited checkout would otherwise fill its ``__pycache__``
    with them.  Also Numba's own files (``*.nbi``) of the releases before this cache,
    and the temporary files of writers that were killed."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return                           # caches elsewhere: left to whoever set that
    root = Path(__file__).resolve().parent
    stamp = root / "__pycache__" / "numba-sources.sha256"
    try:
        if stamp.exists() and stamp.read_text() == source_digest():
            return
        for cache in root.rglob("__pycache__"):
            for old in (*cache.glob("*.nbi"), *cache.glob("*.nbc"), *cache.glob("*.nbc.*.tmp"),
                        *cache.glob("*.nbc.lock")):
                old.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        _write_whole(str(stamp), source_digest().encode())
    except OSError:
        pass                             # a read-only install: its caches stay as they are


def njit(*args, **kwargs):
    """``numba.njit`` with the project's defaults (cache, nogil, no fastmath), its disk
    cache this module's (:class:`KernelCache`), and a closure named by the values it
    closes over (:func:`_name_closure`).  Where Numba has nowhere to keep its cache (a
    read-only install and an unwritable home: neither the package's ``__pycache__`` nor
    ``~/.cache/numba`` can be written, and no ``NUMBA_CACHE_DIR``), the kernel is
    compiled without one, in every process, rather than failing at import
    (:func:`numba_can_cache` tells which)."""
    options = dict(cache=True, nogil=True)
    options.update(kwargs)
    if args and callable(args[0]):
        return _jitted(args[0], (), options)
    return lambda func: _jitted(func, args, options)


_uncached: "list[str]" = []                   # kernels compiled without a cache


def _jitted(func, args: tuple, options: dict):
    cache = options.pop("cache")
    _name_closure(func)
    kernel = numba.njit(*args, **options)(func)
    if cache and isinstance(kernel, Dispatcher):     # (not with NUMBA_DISABLE_JIT=1)
        try:
            kernel._cache = KernelCache(func)
        except RuntimeError:                  # Numba's "cannot cache": no locator fits
            _uncached.append(func.__qualname__)
    return kernel


def numba_can_cache() -> bool:
    """Whether every kernel made so far keeps its compiled code on disk (False: a
    read-only install with an unwritable home compiles them in every process)."""
    return not _uncached


def _name_closure(func) -> None:
    """Give a kernel made by a factory (a closure: the scoring's one a scheme, the
    model's one a scheme and hand size) a qualified name of its own, the values it closes
    over appended: ``score_kernel_for.<locals>.score_kernel[scheme=3]``.

    Numba names a compiled function's machine code and its *environment* (the Python
    objects the code uses, such as the dtypes of the arrays it returns, by position) from
    the qualified name, the argument types and a counter of the process that compiled
    it.  Two closures of one factory, compiled in two processes that had each compiled
    as much before (every first solve of a new process), got the same names; a third
    process that loaded both from the disk cache gave the second the first's environment
    (Numba keeps one environment a name), and its code read a dtype from a position that
    environment does not have: ``RuntimeError: In 'NRT_adapt_ndarray_to_python', 'descr'
    is NULL`` (tests/test_kernel_cache.py reproduces it).  Named by what they
    close over, no two kernels that compute different things share a name, in memory or
    on disk."""
    if not func.__closure__ or func.__qualname__.endswith("]"):
        return                                # (named already: jitted a second time)
    parts = []
    for name, cell in zip(func.__code__.co_freevars, func.__closure__):
        try:
            value = cell.cell_contents
        except ValueError:                    # an empty cell (a name bound later)
            value = None
        if value is None or isinstance(value, (bool, int)):
            parts.append(f"{name}={value}")
        elif callable(value) and hasattr(value, "__qualname__"):
            parts.append(f"{name}={getattr(value, '__module__', '')}.{value.__qualname__}")
        else:
            parts.append(f"{name}#{hashlib.sha256(dumps(value)).hexdigest()[:10]}")
    func.__qualname__ = f"{func.__qualname__}[{','.join(parts)}]"


# --- the on-disk cache of compiled kernels -----------------------------------------------
# Numba's own cache keeps, a function, an index file (*.nbi: which signature's code is in
# which data file) beside numbered data files (*.nbc).  Two processes that add entries at
# once can both take data file 1 for two different signatures, each rewriting the index;
# an emptied or cut-off file raises EOFError or UnpicklingError on every later run; and a
# function's entries are valid only while its own source file is unchanged, though a
# kernel embeds the kernels it calls from other files.  This cache has no index: one file
# an entry, named by what it holds (the function's code and closure, the package's source
# digest, Numba's, llvmlite's and Python's versions, the processor it was compiled for,
# and the signature), written whole to a temporary file and renamed, and checked whole
# before it is used (a header that says what it is, then a checksum of the compiled code).
# A file that fails any check is said in one line on stderr, deleted, and compiled again.
ENTRY_MAGIC = b"solver kernel cache 1\n"
ENTRY_SUFFIX = ".nbc"
# The processor a portable entry is compiled for (NUMBA_CPU_NAME=generic): any of its
# architecture (benchmarks/README.md, "The first run", for what it costs).
PORTABLE_CPU = "generic"


class BadEntry(Exception):
    """A cache entry that cannot be used: damaged, or written for something else."""


def report_bad_entry(path, why: str) -> None:
    """Say on stderr, in one line, that the compiled-kernel cache file ``path`` cannot be
    used, and that it is compiled again (always: news, unlike the compile notices)."""
    print(f"solver: the compiled-kernel cache file {path} cannot be used ({why}); "
          f"compiling it again", file=sys.stderr, flush=True)


def _versions() -> tuple:
    import llvmlite
    return (numba.__version__, llvmlite.__version__, sys.version_info[:2],
            getattr(sys, "abiflags", ""))


def _short(text: str, n: int = 12) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:n]


class KernelCache(FunctionCache):
    """The disk cache of one kernel (a Numba dispatcher's ``_cache``), in the folder
    Numba's own cache would use (``$NUMBA_CACHE_DIR``, else the ``__pycache__`` beside the
    source, else ``~/.cache/numba``), with the file layout and the checks described
    above.  Loading never raises: a missing entry, one that fails a check, and one that
    cannot be read are None (the last two said in one line, and the file deleted), and
    Numba compiles; saving never raises either (a cache that cannot be written is left
    alone)."""

    def __init__(self, py_func):
        super().__init__(py_func)
        code = hashlib.sha256(py_func.__code__.co_code).hexdigest()
        closure = hashlib.sha256(dumps(tuple(c.cell_contents for c in py_func.__closure__))
                                 if py_func.__closure__ else b"").hexdigest()
        # The function's own source file too: a kernel outside the package (a test's).
        self._function = _short(repr((_versions(), source_digest(),
                                      self._impl.locator.get_source_stamp().hex(),
                                      code, closure)), 16)
        self._base = os.path.join(self._cache_path, self._impl.filename_base)

    # -- names --
    def entry_path(self, sig, target: tuple) -> str:
        return f"{self._base}.{self._function}-{_short(repr(target), 8)}-" \
               f"{_short(repr(sig), 8)}{ENTRY_SUFFIX}"

    def has_entry(self, target: tuple) -> bool:
        """Whether an entry of this kernel for ``target`` (a codegen's magic tuple) is on
        disk, for any signature (what a solve's first call will look for)."""
        import glob
        pattern = f"{glob.escape(self._base)}.{self._function}-{_short(repr(target), 8)}-*"
        return any(glob.iglob(pattern + ENTRY_SUFFIX))

    @staticmethod
    def targets(codegen) -> "list[tuple]":
        """The targets whose entries this process can run: its own codegen's, then the
        portable one of its architecture."""
        own = codegen.magic_tuple()
        portable = (own[0], PORTABLE_CPU, "")
        return [own] if own == portable else [own, portable]

    # -- Numba's interface --
    def load_overload(self, sig, target_context):
        target_context.refresh()
        if not self._enabled:
            return None
        targets = self.targets(target_context.codegen())
        found = self._load(sig, targets, target_context)
        if found is None:
            found = self._claim(sig, targets, target_context)
        return found

    def _load(self, sig, targets, target_context):
        """The first of ``targets``' entries for ``sig`` that is on disk and passes
        every check, or None (a bad one said, deleted, and passed over)."""
        for target in targets:
            path = self.entry_path(sig, target)
            try:
                with open(path, "rb") as f:
                    raw = f.read()
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError as e:
                report_bad_entry(path, f"{type(e).__name__}: {e}")
                continue
            try:
                return self._rebuild(raw, sig, target, target_context)
            except Exception as e:         # noqa: BLE001 -- whatever a bad file raises
                why = str(e) if isinstance(e, BadEntry) else f"{type(e).__name__}: {e}"
                report_bad_entry(path, why)
                _remove(path)
        return None

    def _claim(self, sig, targets, target_context):
        """Before this process compiles ``sig`` (no entry on disk): take the entry's
        compile lock, waiting while another process holds it, and then return what
        that process compiled (its entry, loaded) if it saved one; else None, the lock
        kept until :meth:`save_overload` (or a failed compile) lets it go."""
        lock = self.entry_path(sig, targets[0]) + LOCK_SUFFIX
        if fcntl is None or lock in _claims:   # (no locks here; or ours, re-entered)
            return None
        fd = _take_lock(lock)
        if fd is None:
            return None                        # not taken: compile without it
        found = self._load(sig, targets, target_context)   # saved while we waited
        if found is not None:
            _let_go(fd)
            return found
        _claims[lock] = (self, fd)
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()} {_niceness()}\n".encode())
        except OSError:
            pass
        return None

    def release_claims(self) -> None:
        """Let go of every compile lock this kernel's cache holds (a compile failed)."""
        for lock, (cache, fd) in list(_claims.items()):
            if cache is self:
                del _claims[lock]
                _let_go(fd)

    def save_overload(self, sig, cres):
        try:
            self._save(sig, cres)
        finally:
            claim = _claims.pop(self.entry_path(sig, cres.codegen.magic_tuple())
                                + LOCK_SUFFIX, None)
            if claim is not None:
                _let_go(claim[1])

    def _save(self, sig, cres):
        if not self._enabled or not self._impl.check_cachable(cres):
            return
        target = cres.codegen.magic_tuple()
        try:
            payload = dumps(self._impl.reduce(cres))
            header = pickle.dumps(dict(
                versions=_versions(), function=self._function, target=target,
                signature=repr(sig), env_name=cres.fndesc.env_name,
                consts=_digest_of_consts(cres.environment.consts),
                size=len(payload), sha256=hashlib.sha256(payload).hexdigest()), protocol=4)
        except Exception:                  # noqa: BLE001 -- cannot be cached: compiled
            return                         # in every process, as Numba does
        _write_whole(self.entry_path(sig, target),
                     ENTRY_MAGIC + len(header).to_bytes(4, "little") + header + payload)

    def flush(self):
        import glob
        for path in glob.glob(f"{glob.escape(self._base)}.*{ENTRY_SUFFIX}"):
            _remove(path)

    def _rebuild(self, raw: bytes, sig, target, target_context):
        """The compiled kernel an entry's bytes hold, after every check (BadEntry
        otherwise)."""
        if not raw.startswith(ENTRY_MAGIC) or len(raw) < len(ENTRY_MAGIC) + 4:
            raise BadEntry("not an entry of this cache" if raw else "empty")
        at = len(ENTRY_MAGIC) + 4
        size = int.from_bytes(raw[at - 4:at], "little")
        if len(raw) < at + size:
            raise BadEntry("cut off")
        header = pickle.loads(raw[at:at + size])
        payload = raw[at + size:]
        if not isinstance(header, dict):
            raise BadEntry("not an entry of this cache")
        expected = dict(versions=_versions(), function=self._function, target=target,
                        signature=repr(sig))
        for field, value in expected.items():
            if header.get(field) != value:
                raise BadEntry(f"written for another {_FIELD_NAMES[field]}: "
                               f"{header.get(field)!r}, not {value!r}")
        if len(payload) != header["size"]:
            raise BadEntry(f"cut off: {len(payload)} bytes of compiled code, "
                           f"not {header['size']}")
        if hashlib.sha256(payload).hexdigest() != header["sha256"]:
            raise BadEntry("the compiled code does not match its checksum")
        # Numba keeps one environment a name: if this process has one by the entry's
        # name that another kernel's code made, loading would hand it to this kernel too,
        # whose code would read its objects at the wrong positions (the 'descr' is NULL
        # crash).  Unique names (_name_closure) prevent it; this catches it if not.
        existing = lookup_environment(header["env_name"])
        if existing is not None and _digest_of_consts(existing.consts) != header["consts"]:
            raise BadEntry("its name is another loaded kernel's")
        return self._impl.rebuild(target_context, pickle.loads(payload))


_FIELD_NAMES = dict(versions="Numba, llvmlite or Python", function="source or kernel",
                    target="processor", signature="signature")


def _digest_of_consts(consts) -> str:
    try:
        return hashlib.sha256(dumps(list(consts))).hexdigest()
    except Exception:                      # noqa: BLE001 -- objects that do not pickle
        return repr([type(c).__name__ for c in consts])


def _write_whole(path: str, data: bytes) -> bool:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``, so
    that a reader in any process sees a whole file or none; whether it was written."""
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path),
                                   prefix=os.path.basename(path)[:80] + ".", suffix=".tmp")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        return False
    finally:
        _remove(tmp)


def _remove(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# --- one compile of an entry at a time, across processes -----------------------------------
# A process about to compile an entry that is not on disk takes the entry's lock (flock on
# "<entry>.lock", which the system lets go of if the process dies) and keeps it until the
# entry is saved.  A process that finds the lock taken waits, then loads what the other
# compiled, instead of compiling the same kernel at the same time: tests, the study page's
# workers, a first solve's leftover process and the next command all share a cache.  It
# does not wait for a process running at a lower priority (a first solve's leftover runs
# at nice 19, and a busy machine may give it next to nothing), nor longer than
# COMPILE_WAIT seconds; then it compiles too (the entry is written whole either way).
LOCK_SUFFIX = ".lock"
COMPILE_WAIT = 300.0
_claims: "dict[str, tuple]" = {}        # lock path -> (its KernelCache, fd): held here


def _niceness() -> int:
    try:
        return os.nice(0)
    except (AttributeError, OSError):     # pragma: no cover
        return 0


def _take_lock(path: str) -> "Optional[int]":
    """An open descriptor of ``path`` with an exclusive flock on it, once any other
    process lets go of it; None if it cannot be had (no such file can be made, the
    holder runs at a lower priority than this process, or COMPILE_WAIT passed)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    deadline = None
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            pass
        except OSError:
            break
        if deadline is None:                      # first found taken: whose is it?
            deadline = time.monotonic() + COMPILE_WAIT
            if _holder_niceness(fd) > _niceness():
                break
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
    os.close(fd)
    return None


def _holder_niceness(fd: int) -> int:
    """The niceness the lock's holder wrote in it (0 if it has not written it yet)."""
    try:
        return int(os.pread(fd, 64, 0).split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _let_go(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass
    os.close(fd)


def hold_lock(path: str) -> "Optional[int]":
    """An exclusive flock on ``path`` (made if need be) if no other process holds one,
    as an open descriptor that keeps it until :func:`let_go` (or the process ends); None
    if another process holds it, or there is no such lock here (Windows, an unwritable
    folder).  (For a process that does a long piece of work others need not repeat, as
    a first solve's warm-up: solver._warmup.)"""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except OSError:
        os.close(fd)
        return None


def lock_is_held(path: str) -> bool:
    """Whether another process holds an flock on ``path`` (:func:`hold_lock`)."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False                          # (no such lock: nobody holds it)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def let_go(fd: "Optional[int]") -> None:
    """Let go of :func:`hold_lock`'s lock."""
    if fd is not None:
        _let_go(fd)


def cache_folder(kernel) -> "Optional[str]":
    """The folder of ``kernel``'s entries on disk (None: it has no disk cache)."""
    cache = getattr(kernel, "_cache", None)
    return cache.cache_path if isinstance(cache, KernelCache) else None


class _LetGoAfterAFailedCompile(numba_event.Listener):
    """A compile that raises (a typing error Numba recovers from, say) saves no entry:
    its locks are let go of at once, not when the process ends."""

    def on_start(self, event) -> None:
        pass

    def on_end(self, event) -> None:
        if getattr(event, "_exc_details", None) is not None:     # (no public name)
            cache = getattr(event.data.get("dispatcher"), "_cache", None)
            if isinstance(cache, KernelCache):
                cache.release_claims()


numba_event.register("numba:compile", _LetGoAfterAFailedCompile())


_clear_stale_caches()


# --- a kernel's source run as plain Python -------------------------------------------------
_python_namespaces: dict = {}      # id(a module's globals) -> the same with Python versions
_python_versions: dict = {}        # a kernel -> its Python version


def as_python(kernel):
    """``kernel``'s own source run as plain Python, as ``NUMBA_DISABLE_JIT=1`` would run
    it: the jitted functions it calls by their global names are their Python versions
    too (made once and kept).  For a kernel whose compile would take longer than running
    it in Python while another process compiles it (:func:`runnable`).  A function that
    is not a kernel (jitting disabled) is returned as it is."""
    py = getattr(kernel, "py_func", None)
    if py is None:
        return kernel
    if kernel not in _python_versions:
        _python_versions[kernel] = types.FunctionType(
            py.__code__, _python_namespace(py.__globals__), py.__name__, py.__defaults__,
            py.__closure__)
    return _python_versions[kernel]


def _python_namespace(module_globals: dict) -> dict:
    """A copy of a module's globals with every kernel in it replaced by its Python
    version (whose globals are this copy, or its own module's)."""
    key = id(module_globals)
    if key not in _python_namespaces:
        namespace = _python_namespaces[key] = dict(module_globals)
        for name, value in module_globals.items():
            if isinstance(value, numba.core.registry.CPUDispatcher):
                namespace[name] = as_python(value)
    return _python_namespaces[key]


# Kernels another process is compiling into the on-disk cache for this one
# (solver._warmup), each with that process.
_compiled_elsewhere: dict = {}


def compiled_elsewhere(kernels: Iterable, process) -> None:
    """Note that ``process`` (a subprocess.Popen) is compiling ``kernels``: until it ends
    or they are cached, :func:`runnable` gives their Python versions."""
    for kernel in kernels:
        _compiled_elsewhere[kernel] = process


def _cold_and_compiled_elsewhere(kernel) -> bool:
    """Whether another process is compiling ``kernel`` for this one
    (:func:`compiled_elsewhere`) and it is still cold here; once that process has ended
    or the kernel is cached, it is no longer noted."""
    if not _compiled_elsewhere:
        return False                  # (every call asks: the usual answer comes first)
    process = _compiled_elsewhere.get(kernel)
    if process is None:
        return False
    if process.poll() is not None or _is_warm(kernel):
        _compiled_elsewhere.pop(kernel, None)
        return False
    return True


def runnable(kernel):
    """``kernel``, or, while another process is compiling it (:func:`compiled_elsewhere`)
    and it is still cold here, its Python version (:func:`as_python`), so that this
    process does not compile it as well: for kernels a first solve calls on little work
    (the description of its answer, the automatic-win check of a few hundred hands)."""
    return as_python(kernel) if _cold_and_compiled_elsewhere(kernel) else kernel


def stand_in(kernel, substitute):
    """``kernel``, or, while another process is compiling it for this one
    (:func:`compiled_elsewhere`) and it is still cold here, ``substitute`` where that is
    warm: a kernel that computes the same results for the same arguments, compiled
    already (the model's kernel of every scheme, the general scoring: solver._warmup,
    "stand-ins"), so that this process neither compiles ``kernel`` as well nor waits."""
    if _cold_and_compiled_elsewhere(kernel) and _is_warm(substitute):
        return substitute
    return kernel


def _is_warm(kernel) -> bool:
    """Whether calling ``kernel`` will not compile: it is compiled in this process, it is
    not a Numba dispatcher at all (``NUMBA_DISABLE_JIT=1``), or an entry of it that this
    process can run is in the disk cache (:meth:`KernelCache.has_entry`; for some
    signature: a kernel is called with the ones it was cached for)."""
    if getattr(kernel, "overloads", None) is None:
        return True                                 # plain Python
    if kernel.overloads:
        return True                                 # already compiled in this process
    cache = getattr(kernel, "_cache", None)
    if not isinstance(cache, KernelCache):
        return False                                # caching unavailable for it
    try:
        return any(cache.has_entry(target)
                   for target in cache.targets(kernel.targetctx.codegen()))
    except OSError:
        return False


def _compiling_elsewhere(kernel) -> bool:
    """Whether another process is compiling ``kernel`` for this one, which meanwhile runs
    it as Python (:func:`runnable`): it is not this process's compile to tell of."""
    process = _compiled_elsewhere.get(kernel)
    return process is not None and process.poll() is None


def cold_kernels(kernels: Iterable) -> list[str]:
    """Names of the ``kernels`` (Numba dispatchers) that the next call would compile."""
    return [getattr(k, "__name__", repr(k)) for k in kernels if not _is_warm(k)]


def notices_enabled() -> bool:
    """False when ``SOLVER_QUIET`` is set to anything but ``""`` or ``"0"``."""
    return os.environ.get(QUIET_ENV, "") in ("", "0")


def compile_notice(kernels: Iterable, message: str = COMPILE_NOTICE, *, file=None) -> bool:
    """Print ``message`` on stderr (or ``file``) if any of ``kernels`` is about to be
    compiled, at most once a process and never with ``SOLVER_QUIET=1``; whether it
    printed.  Whether printed or not, cold kernels start :func:`compiling_since`'s clock."""
    global _noticed
    cold = [k for k in kernels if not _is_warm(k)]
    if cold:
        _start_compiling(cold)
    if _noticed or not notices_enabled() or not cold:
        return False
    _noticed = True
    print(message, file=file if file is not None else sys.stderr, flush=True)
    return True


# The kernels compile_notice last found cold, and since when (time.monotonic()).
_compiling_kernels: list = []
_compiling_started: Optional[float] = None


def _start_compiling(cold: list) -> None:
    global _compiling_kernels, _compiling_started
    known = {id(k) for k in _compiling_kernels}
    if compiling_since() is None or any(id(k) not in known for k in cold):
        _compiling_started = time.monotonic()        # kernels not seen before: a new start
    _compiling_kernels = list({id(k): k for k in _compiling_kernels + cold}.values())


def compiling_since() -> Optional[float]:
    """``time.monotonic()`` when a solve in this process last found kernels it had to
    compile, while any of them is still not compiled; None otherwise.  (The study page
    tells its user, while a first request compiles, how long it has taken so far.  A
    kernel found cold but never called stays cold: a caller that knows when no solve was
    running can tell such a stale start from a real one.)"""
    global _compiling_kernels, _compiling_started
    if _compiling_started is not None and all(_is_warm(k) for k in _compiling_kernels):
        _compiling_kernels, _compiling_started = [], None
    return _compiling_started


# What compile_progress's ticker says is going on: compiling, unless a block of other
# first-run work (solver.pool setting its hands) says otherwise (see doing).
_doing = ["compiling"]
_done_also: "set[str]" = set()      # such work done since compile_progress started


@contextlib.contextmanager
def doing(what: str) -> Iterator[None]:
    """Within the block, :func:`compile_progress`'s "still ...: N s so far" names
    ``what`` instead of compiling (first-run work that is not Numba's)."""
    _doing.append(what)
    _done_also.add(what)
    try:
        yield
    finally:
        _doing.remove(what)


@contextlib.contextmanager
def compile_progress(kernels: Iterable, what: str, *, every: float = 5.0, file=None,
                     done: str = "compiled in {seconds:.1f} s") -> Iterator[bool]:
    """Around a block that compiles ``kernels`` (say, by calling them once): if any is
    cold and notices are on, say on stderr (or ``file``) that ``what`` is compiling,
    then every ``every`` seconds how long it has taken so far (naming the work of a
    :func:`doing` block in progress instead of compiling; from a background
    thread, since a compile gives no progress of its own), and at the end ``done``
    (with the block's ``seconds``).  Yields whether it speaks; it never does with
    ``SOLVER_QUIET=1``.  Cold kernels start :func:`compiling_since`'s clock either way;
    kernels another process compiles meanwhile (run here as Python) are not cold."""
    cold = [k for k in kernels if not _is_warm(k) and not _compiling_elsewhere(k)]
    if cold:
        _start_compiling(cold)
    if not notices_enabled() or not cold:
        yield False
        return
    stream = file if file is not None else sys.stderr
    start = time.perf_counter()
    _done_also.clear()
    print(f"compiling {what} with Numba (first run only; cached on disk afterwards)...",
          file=stream, flush=True)
    finished = threading.Event()

    def tell_elapsed():
        while not finished.wait(every):
            print(f"  still {_doing[-1]}: {time.perf_counter() - start:.0f} s so far",
                  file=stream, flush=True)

    ticker = threading.Thread(target=tell_elapsed, name="compile-progress", daemon=True)
    ticker.start()
    try:
        yield True
    finally:
        finished.set()
        ticker.join()
        also = "".join(f", {w} included" for w in sorted(_done_also))
        print(done.format(seconds=time.perf_counter() - start) + also, file=stream,
              flush=True)


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


# Parallel work: Python threads running jitted kernels that release the GIL (``nogil``),
# each on its own range of items.  Numba's own ``parallel=True`` would do the same, but
# compiling a kernel with it took several times as long as without (a first run is
# mostly compiling), and it brings a threading layer of its own.
#
# Below this much work a call runs on one thread: handing ranges to other threads costs
# tens of microseconds, more than small work gains from them.  Units: hands a policy
# sets (about 10-100 us each), or pair scorings / 1000 (about 40 ns each).
MIN_PARALLEL_WORK = 32
RANGES_PER_THREAD = 4          # shorter ranges even out threads that run at unequal speed
# Above this much work a call runs in ranges of at most this much (a few tenths of a
# second on a core): a running kernel does not see Ctrl+C, so the KeyboardInterrupt lands
# between ranges, and the ranges not yet started are dropped.  (A solve of the default
# effort stays below it, but for the scoring of a rare hand with thousands of candidate
# settings; the answer never depends on the ranges.)
MAX_RANGE_WORK = 4096

_pools: "dict[int, concurrent.futures.ThreadPoolExecutor]" = {}   # one per thread count
_pools_lock = threading.Lock()


def threads() -> int:
    """How many threads the library's kernels may use: Numba's thread count
    (``numba.set_num_threads``; one per core unless set), so that one setting governs
    both."""
    return numba.get_num_threads()


def _thread_pool(count: int) -> "concurrent.futures.ThreadPoolExecutor":
    """A pool of ``count`` threads, made once and kept (threads start only when used)."""
    with _pools_lock:
        if count not in _pools:
            _pools[count] = concurrent.futures.ThreadPoolExecutor(
                max_workers=count, thread_name_prefix=f"solver-{count}")
        return _pools[count]


def in_ranges(run, n: int, work: float) -> None:
    """``run(start, stop)`` over ranges that cover ``0..n``: on :func:`threads` threads
    when ``work`` (see MIN_PARALLEL_WORK) is large enough, else on this thread, in one
    call unless the work exceeds MAX_RANGE_WORK.  ``run`` must write only the items of
    its own range, so the result is the same whatever the number of threads or ranges;
    its first exception (or a KeyboardInterrupt) is raised here, and the ranges not yet
    started are then not run."""
    count = threads() if work >= MIN_PARALLEL_WORK else 1
    pieces = min(n, max(count * RANGES_PER_THREAD if count > 1 else 1,
                        math.ceil(work / MAX_RANGE_WORK)))
    if pieces <= 1:
        run(0, n)
        return
    bounds = [n * i // pieces for i in range(pieces + 1)]
    ranges = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
    if count == 1:
        for a, b in ranges:
            run(a, b)
        return
    pool = _thread_pool(count)
    futures = [pool.submit(run, a, b) for a, b in ranges]
    try:
        for future in futures:
            future.result()
    except BaseException:
        for future in futures:
            future.cancel()                    # (those not started yet)
        raise
