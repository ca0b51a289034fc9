"""The disk cache of compiled kernels (solver._jit.KernelCache): an entry is unique to
what it computes, written whole, and checked whole before use.  A damaged or foreign
entry -- empty, cut off, a byte changed, another pickle, another kernel's, another
Numba's or processor's, a name another loaded kernel holds -- costs one line on stderr
and a compile, and is replaced; processes that compile into one empty cache at once
leave it whole.  (A cache shared by tests, command-line solves and the study
page's workers crashed every later run with ``'descr' is NULL``.)"""
import glob
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core.environment import Environment

from solver import _jit

ROOT = Path(__file__).resolve().parent.parent

KERNELS = '''
import numpy as np

def doubled(a):
    return a * 2                  # a new array: its dtype comes from the environment

def plus(n):
    def add(a):
        return a + n
    return add
'''


@pytest.fixture
def kernels(tmp_path, monkeypatch):
    """A module of small kernels' sources, and an empty cache folder of this test's own
    (Numba's CACHE_DIR, as ``NUMBA_CACHE_DIR`` sets it)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "kernels_for_cache.py").write_text(KERNELS)
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    sys.modules.pop("kernels_for_cache", None)
    import kernels_for_cache
    yield kernels_for_cache
    sys.modules.pop("kernels_for_cache", None)


def _entries(tmp_path):
    return sorted(glob.glob(str(tmp_path / "cache" / "**" / "*.nbc"), recursive=True))


def _fresh(func):
    """A new dispatcher of ``func``: its first call loads from the disk or compiles."""
    return _jit.njit(func)


def _read(path):
    raw = Path(path).read_bytes()
    at = len(_jit.ENTRY_MAGIC) + 4
    size = int.from_bytes(raw[at - 4:at], "little")
    return pickle.loads(raw[at:at + size]), raw[at + size:]


def _write(path, header, payload):
    head = pickle.dumps(header, protocol=4)
    Path(path).write_bytes(_jit.ENTRY_MAGIC + len(head).to_bytes(4, "little") + head + payload)


def _loaded(kernel) -> int:
    return sum(kernel._cache_hits.values())


A = np.arange(5, dtype=np.int64)


def _one_line(err: str, path) -> None:
    assert err.count("\n") == 1, err
    assert f"the compiled-kernel cache file {path} cannot be used" in err, err
    assert "compiling it again" in err and "Traceback" not in err


def test_a_kernel_is_saved_once_and_loaded_by_the_next(kernels, tmp_path, capsys):
    first = _fresh(kernels.doubled)
    assert np.array_equal(first(A), A * 2) and _loaded(first) == 0
    [entry] = _entries(tmp_path)
    second = _fresh(kernels.doubled)
    assert np.array_equal(second(A), A * 2) and _loaded(second) == 1
    assert _jit.cold_kernels([_fresh(kernels.doubled)]) == []
    assert _entries(tmp_path) == [entry] and capsys.readouterr().err == ""


def _empty(raw):
    return b""


def _cut_off(raw):
    return raw[:len(raw) // 2]


def _flipped_in_code(raw):
    changed = bytearray(raw)
    changed[-100] ^= 0xFF
    return bytes(changed)


def _flipped_in_header(raw):
    changed = bytearray(raw)
    changed[len(_jit.ENTRY_MAGIC) + 10] ^= 0xFF
    return bytes(changed)


def _numba_own(raw):          # what Numba's own cache kept in a data file: a bare pickle
    return pickle.dumps(("stamp", {}))


DAMAGE = {"empty": _empty, "cut off": _cut_off, "a byte changed in the code": _flipped_in_code,
          "a byte changed in the header": _flipped_in_header, "Numba's own format": _numba_own}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_entry_is_said_compiled_and_replaced(damage, kernels, tmp_path, capsys):
    _fresh(kernels.doubled)(A)
    [entry] = _entries(tmp_path)
    whole = Path(entry).read_bytes()
    Path(entry).write_bytes(DAMAGE[damage](whole))
    capsys.readouterr()
    again = _fresh(kernels.doubled)
    assert np.array_equal(again(A), A * 2) and _loaded(again) == 0       # compiled
    _one_line(capsys.readouterr().err, entry)
    assert _entries(tmp_path) == [entry]                                 # replaced ...
    after = _fresh(kernels.doubled)
    assert np.array_equal(after(A), A * 2) and _loaded(after) == 1       # ... whole
    assert capsys.readouterr().err == ""


def _another_pickle(header, payload):
    other = pickle.dumps(("not", "a compiled kernel"))
    import hashlib
    return dict(header, size=len(other), sha256=hashlib.sha256(other).hexdigest()), other


def _another_numba(header, payload):
    return dict(header, versions=("0.50.0",) + tuple(header["versions"][1:])), payload


def _another_processor(header, payload):
    triple, _, _ = header["target"]
    return dict(header, target=(triple, "a-processor-of-the-future", "+avx1024")), payload


def _another_signature(header, payload):
    return dict(header, signature="(float32,)"), payload


FOREIGN = {"another pickle": _another_pickle, "another Numba": _another_numba,
           "another processor": _another_processor, "another signature": _another_signature}


@pytest.mark.parametrize("foreign", FOREIGN)
def test_a_foreign_entry_is_said_compiled_and_replaced(foreign, kernels, tmp_path, capsys):
    _fresh(kernels.doubled)(A)
    [entry] = _entries(tmp_path)
    _write(entry, *FOREIGN[foreign](*_read(entry)))
    capsys.readouterr()
    again = _fresh(kernels.doubled)
    assert np.array_equal(again(A), A * 2) and _loaded(again) == 0
    _one_line(capsys.readouterr().err, entry)
    after = _fresh(kernels.doubled)
    assert np.array_equal(after(A), A * 2) and _loaded(after) == 1
    assert capsys.readouterr().err == ""


def test_another_kernels_entry_in_its_place_is_not_run(kernels, tmp_path, capsys):
    _fresh(kernels.plus(1))(A)
    [one] = _entries(tmp_path)
    _fresh(kernels.plus(2))(A)
    [two] = [e for e in _entries(tmp_path) if e != one]
    Path(two).write_bytes(Path(one).read_bytes())       # plus(1)'s code where plus(2)'s goes
    capsys.readouterr()
    again = _fresh(kernels.plus(2))
    assert np.array_equal(again(A), A + 2)
    _one_line(capsys.readouterr().err, two)


def test_an_entry_whose_environment_name_is_taken_is_not_loaded(kernels, tmp_path, capsys):
    """The 'descr' is NULL crash: Numba keeps one environment (the objects a kernel's code
    reads by position) a name, and loading an entry whose name another kernel's
    environment holds would hand that one to its code."""
    _fresh(kernels.doubled)(A)
    [entry] = _entries(tmp_path)
    header, _ = _read(entry)
    impostor = Environment({"__name__": "impostor"})
    impostor.consts[:] = ["something else", 1.5]
    impostor.env_name = header["env_name"]
    taken = Environment._memo.get(header["env_name"])
    Environment._memo[header["env_name"]] = impostor
    try:
        capsys.readouterr()
        again = _fresh(kernels.doubled)
        assert np.array_equal(again(A), A * 2) and _loaded(again) == 0
        _one_line(capsys.readouterr().err, entry)
    finally:
        if taken is not None:
            Environment._memo[header["env_name"]] = taken


def test_closures_get_names_and_entries_of_their_own(kernels, tmp_path):
    two, three = _fresh(kernels.plus(2)), _fresh(kernels.plus(3))
    assert two.py_func.__qualname__ == "plus.<locals>.add[n=2]"
    assert three.py_func.__qualname__ == "plus.<locals>.add[n=3]"
    assert np.array_equal(two(A), A + 2) and np.array_equal(three(A), A + 3)
    assert len(_entries(tmp_path)) == 2


def test_a_cache_that_cannot_be_written_is_left_alone(kernels, tmp_path, capsys):
    kernel = _fresh(kernels.doubled)
    folder = Path(kernel._cache.cache_path)
    folder.rmdir()
    folder.write_text("")                 # (a file where the folder goes: nothing written)
    assert np.array_equal(kernel(A), A * 2)
    assert _entries(tmp_path) == [] and capsys.readouterr().err == ""
    assert list(folder.parent.iterdir()) == [folder]


def test_numbas_own_files_beside_the_entries_are_not_read(kernels, tmp_path, capsys):
    kernel = _fresh(kernels.doubled)
    folder = Path(kernel._cache.cache_path)
    # An emptied index and a cut-off data file of Numba's own cache (the EOFError
    # and UnpicklingError on every run), under the names Numba gives them.
    base = kernel._cache._impl.filename_base
    (folder / f"{base}.nbi").write_bytes(b"")
    (folder / f"{base}.1.nbc").write_bytes(b"\x80\x04")
    assert np.array_equal(kernel(A), A * 2)
    assert np.array_equal(_fresh(kernels.doubled)(A), A * 2)
    assert capsys.readouterr().err == ""


# --- several processes on one empty cache ---------------------------------------------------
WORKER = textwrap.dedent('''
    import sys
    import numpy as np
    from numba.core import event
    sys.path.insert(0, sys.argv[1])
    import kernels_for_cache as k
    from solver._jit import njit
    compiled = []

    class Count(event.Listener):             # each compile of the test's kernels here
        def on_start(self, e):
            pass

        def on_end(self, e):
            if e.data["dispatcher"].py_func.__module__ == "kernels_for_cache":
                compiled.append(e.data["dispatcher"].py_func.__qualname__)

    event.register("numba:compile", Count())
    order = [int(x) for x in sys.argv[2].split(",")]
    a = np.arange(7)
    for n in order:                      # closures, and three signatures of one kernel
        assert np.array_equal(njit(k.plus(n))(a), a + n)
        b = a.astype([np.int64, np.float64, np.int32][n % 3])
        assert np.array_equal(njit(k.doubled)(b), b * 2)
    print(len(compiled))
''')


def _workers(tmp_path, orders):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    return [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / "src"), o],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for o in orders]


def _compiles(workers) -> int:
    """The compiles the ``workers`` made between them (each checked to have ended well)."""
    total = 0
    for w in workers:
        out, err = w.communicate(timeout=600)
        assert w.returncode == 0, err[-2000:]
        assert "cannot be used" not in err and "Traceback" not in err, err
        total += int(out)
    return total


def test_processes_compiling_into_one_empty_cache_at_once_leave_it_whole(tmp_path):
    """Four processes, each calling six closures and three signatures of one kernel in
    its own order, into one empty cache: each of the nine entries is compiled by one of
    them (the others wait for it and load it: the entry's compile lock), written whole,
    and a later process loads every one, compiling nothing and saying nothing."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "kernels_for_cache.py").write_text(KERNELS)
    orders = ["0,1,2,3,4,5", "5,4,3,2,1,0", "2,0,4,1,5,3", "3,5,1,4,0,2"]
    assert _compiles(_workers(tmp_path, orders)) == 6 + 3
    entries = _entries(tmp_path)
    assert len(entries) == 6 + 3                   # six closures, three signatures
    assert not glob.glob(str(tmp_path / "cache" / "**" / "*.tmp"), recursive=True)
    before = sorted(os.path.getmtime(e) for e in entries)
    [later] = _workers(tmp_path, ["0,1,2,3,4,5"])
    out, err = later.communicate(timeout=600)
    assert later.returncode == 0 and int(out) == 0 and err == "", err[-2000:]
    assert sorted(os.path.getmtime(e) for e in _entries(tmp_path)) == before


def test_a_process_does_not_wait_for_one_of_lower_priority(tmp_path):
    """A compile lock held by a process running at a lower priority (a first solve's
    leftover process runs at nice 19) is not waited for: the kernel is compiled here."""
    import fcntl
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "kernels_for_cache.py").write_text(KERNELS)
    [first] = _workers(tmp_path, ["0"])
    assert _compiles([first]) == 2
    held = []
    for entry in _entries(tmp_path):                 # the entries gone, their locks held
        os.unlink(entry)
        fd = os.open(entry + _jit.LOCK_SUFFIX, os.O_RDWR | os.O_CREAT)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, f"{os.getpid()} 19\n".encode())
        held.append(fd)
    try:
        [second] = _workers(tmp_path, ["0"])
        assert _compiles([second]) == 2              # at once, not after COMPILE_WAIT
    finally:
        for fd in held:
            os.close(fd)


def test_a_failed_compile_lets_go_of_its_lock(kernels, tmp_path):
    """A compile that raises (here, a typing error) saves nothing: its lock is let go of
    at once, so another process would not wait for it."""
    import fcntl
    kernel = _fresh(kernels.doubled)
    with pytest.raises(numba.core.errors.TypingError):
        kernel(None)                        # (None * 2: no such operation)
    assert _jit._claims == {}
    locks = glob.glob(str(tmp_path / "cache" / "**" / "*.lock"), recursive=True)
    assert locks
    for lock in locks:
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)      # free
        finally:
            os.close(fd)


# Two closures of one factory whose compiled code keeps different objects in its
# environment: the dtypes of the arrays it returns (one, or three).
MAKER = '''
import numpy as np

def maker(kind):
    def made(a):
        if kind == 0:
            return a * 2
        return a * 0.5, a > 1, a.astype(np.int8)
    return made
'''

CALLER = textwrap.dedent('''
    import sys
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    import makers_for_cache as m
    from solver._jit import njit
    a = np.arange(7)
    kept = []                         # (each kernel, and so its environment, kept alive)
    for kind in map(int, sys.argv[2:]):
        kept.append(njit(m.maker(kind)))
        got, want = kept[-1](a), m.maker(kind)(a)
        if kind == 0:
            got, want = [got], [want]
        assert all(np.array_equal(g, w) for g, w in zip(got, want)), kind
    print("ok")
''')


def test_two_closures_of_one_factory_from_two_processes(tmp_path):
    """The 'descr' is NULL crash, as it came about: one process compiles a factory's first
    closure, a second loads it and compiles the second (Numba names compiled code by
    qualified name, types and a count of the process's compiles: the same names as the
    first's), a third loads both.  With Numba's names and cache, the third gave the
    second closure the first's environment and crashed (``RuntimeError: In
    'NRT_adapt_ndarray_to_python', 'descr' is NULL``, as under ``classic:eastern``)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "makers_for_cache.py").write_text(MAKER)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    for kinds in (["0"], ["0", "1"], ["0", "1"]):
        run = subprocess.run([sys.executable, "-c", CALLER, str(tmp_path / "src"), *kinds],
                             env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]
        assert run.stderr == ""


# Run in a copy of the package: compile (or load) one small kernel of it, and say how many
# of its signatures came from the disk cache.
USE_A_KERNEL = '''
import numpy as np
from solver.search import argsort_desc
keys = np.array([3, 1, 2], np.int64)
assert list(argsort_desc(keys, 1)) == [0, 2, 1]
print(sum(argsort_desc._cache_hits.values()))
'''


def test_a_portable_cache_serves_a_copy_of_the_package_elsewhere(tmp_path):
    """A cache built once for the generic processor (``warm --portable``) serves a copy of
    the package in another folder, its files written at another time, on a processor of
    the architecture (docs/guide/install.md, "Many machines: a cache built once"):
    entries are found by what they hold, not by where or when, and the digest of the
    sources comes with them."""
    for name in ("built", "elsewhere"):
        (tmp_path / name).mkdir()
    shutil.copytree(ROOT / "solver", tmp_path / "built" / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    env.update(HOME=str(tmp_path / "home"), SOLVER_QUIET="1", SOLVER_CACHE_DIR="")

    def run(folder, **extra):
        done = subprocess.run([sys.executable, "-c", USE_A_KERNEL], cwd=folder,
                              env=dict(env, PYTHONPATH=str(folder), **extra),
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
        return int(done.stdout)

    assert run(tmp_path / "built", NUMBA_CPU_NAME=_jit.PORTABLE_CPU) == 0     # compiled
    shutil.copytree(tmp_path / "built" / "solver", tmp_path / "elsewhere" / "solver")
    for source in (tmp_path / "elsewhere" / "solver").rglob("*.py"):
        os.utime(source, (source.stat().st_atime, source.stat().st_mtime + 3600))
    assert run(tmp_path / "elsewhere") == 1                                    # loaded
    entries = list((tmp_path / "elsewhere" / "solver" / "__pycache__").glob("search.*.nbc"))
    assert len(entries) == 1, entries            # none compiled there for this processor
