"""The files the library keeps on disk (solver._cache): the row tables (solver.tables)
and the pool's chunks (solver.pool), in one folder named by one variable.  A damaged
file -- cut off, a byte changed, empty -- is said in one line and built again, never
an exception; where nothing can be written, everything lives in memory."""
import numpy as np
import pytest

import solver
from solver import _cache, pool


def _cut_off(data: bytes) -> bytes:
    return data[:len(data) // 2]


def _flipped(data: bytes) -> bytes:
    changed = bytearray(data)
    changed[len(data) // 2] ^= 0xFF
    return bytes(changed)


def _empty(data: bytes) -> bytes:
    return b""


DAMAGE = {"cut off": _cut_off, "a byte flipped": _flipped, "empty": _empty}


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's own (and a pool read from it alone)."""
    monkeypatch.setenv(_cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(pool, "_chunks", {})
    monkeypatch.setattr(pool, "_used", set())
    return tmp_path


def _tables_from_disk(rules):
    """A rule set's row tables read from the disk cache, or built and written there: not
    from this process's memory."""
    rs = solver.rule_set(rules)
    return solver.tables._deck_tables.__wrapped__(rs.spade_copies, rs.jokers, -1)


def _only_line(err: str, path) -> None:
    assert err.count("\n") == 1 and f"the cache file {path} is damaged" in err, err


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_row_table_file_is_built_again(damage, cache, capsys):
    build = _tables_from_disk
    made = build("classic")
    [path] = cache.glob("rows-*.npz")
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    capsys.readouterr()
    assert _same(build("classic"), made)
    _only_line(capsys.readouterr().err, path)
    # Written again whole: the next process reads it, and says nothing.
    assert _same(build("classic"), made)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_pool_chunk_is_set_again(damage, cache, capsys, monkeypatch):
    rs = solver.rule_set("pagat")
    tables = solver.rows.tables_for(rs, None)
    made = pool.chunk(rs, 2, tables, 5)
    path = pool.pool_dir(rs, 2) / "chunk-005.npz"
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    monkeypatch.setattr(pool, "_chunks", {})
    capsys.readouterr()
    assert _same(pool.chunk(rs, 2, tables, 5), made)
    _only_line(capsys.readouterr().err, path)
    assert _same(pool._read(path), made)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("kind", ["tables", "chunk"])
def test_any_changed_byte_is_caught_or_harmless(kind, cache, rng, capsys):
    """Whichever byte of a file changes, reading it gives the arrays written or None
    (said on stderr), never an exception or other arrays: the zip format's CRC covers
    every array's bytes, and a change in its bookkeeping either breaks the file or
    does not matter."""
    if kind == "tables":
        build = _tables_from_disk
        made = build("classic")
        [path] = cache.glob("rows-*.npz")

        def read():
            got = _cache.load_arrays(path, solver.tables.RowTables._fields,
                                     solver.tables._valid_tables)
            return None if got is None else solver.tables.RowTables(**got)
    else:
        rs = solver.rule_set("pagat")
        made = pool.chunk(rs, 2, solver.rows.tables_for(rs, None), 5)
        path = pool.pool_dir(rs, 2) / "chunk-005.npz"

        def read():
            return pool._read(path)
    whole = path.read_bytes()
    # Every byte of the zip's bookkeeping at the start and the end, and some of the data.
    places = sorted({*range(120), *range(len(whole) - 600, len(whole)),
                     *rng.choice(len(whole), 150, replace=False).tolist()})
    for place in places:
        changed = bytearray(whole)
        changed[place] ^= 1 << int(rng.integers(8))
        path.write_bytes(bytes(changed))
        capsys.readouterr()
        got = read()
        err = capsys.readouterr().err
        if got is None:
            _only_line(err, path)
        else:
            assert _same(got, made) and err == "", place


def test_an_unwritable_cache_is_skipped(tmp_path):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    assert not _cache.save_arrays(blocked / "below" / "x.npz", {"a": np.zeros(3)})
    assert _cache.load_arrays(blocked / "below" / "x.npz", ("a",), lambda a: True) is None


@pytest.mark.slow
def test_a_read_only_install_with_an_unwritable_home_imports_and_solves(tmp_path):
    """Nothing can be written: the package's folders (each ``__pycache__`` is a file, so
    no one, root included, can make the folder) and the home (below a file, so no
    ``~/.cache``).  Numba then has no cache locator, the row tables and the pool have no
    folder: every cache lives in memory, and the library imports and solves all the
    same (it raised ``RuntimeError: cannot cache function ...`` at import)."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    package = Path(solver.__file__).resolve().parent
    shutil.copytree(package, tmp_path / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in [tmp_path / "solver", *(tmp_path / "solver").rglob("*")]:
        if folder.is_dir():
            (folder / "__pycache__").write_text("")       # (a file where the folder goes)
    (tmp_path / "home").write_text("")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", _cache.CACHE_ENV, _cache.OLD_POOL_ENV,
                        "XDG_CACHE_HOME", "PYTHONPATH")}
    env.update(HOME=str(tmp_path / "home" / "user"), PYTHONPATH=str(tmp_path),
               PYTHONDONTWRITEBYTECODE="1")
    code = ("import solver, solver._jit as j; assert solver.__file__.startswith(%r); "
            "s = solver.solve('As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c', 'classic', players=2, "
            "samples=100); print(s.pooled, s.samples, j.numba_can_cache())" % str(tmp_path))
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["True", "100", "False"]
    assert "Traceback" not in run.stderr
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before      # nothing written


def test_one_folder_for_every_cache(tmp_path, monkeypatch, capsys):
    """The row tables and the pools share one folder, ``$SOLVER_CACHE_DIR`` or
    ``~/.cache/chinese-poker-solver`` (the pools had ``~/.cache/solver`` and
    ``$SOLVER_CACHE`` until 2026-12)."""
    import os
    import time
    for name in (_cache.CACHE_ENV, _cache.OLD_POOL_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(pool, "_chunks", {})
    monkeypatch.setattr(pool, "_used", set())
    folder = tmp_path / "xdg" / "chinese-poker-solver"
    assert _cache.cache_dir() == folder
    # The old folder's pools: deleted once no process has used them for STALE_DAYS days
    # (as any pool; the folder goes once nothing is left in it); what is not a pool stays.
    old = tmp_path / "xdg" / "solver" / "pool"
    stale, recent = old / "pagat-2seats-0123456789abcdef", old / "classic-4seats-0123456789abcdee"
    for d in (stale, recent):
        d.mkdir(parents=True)
        (d / "chunk-000.npz").write_bytes(b"")
    (old / "notes").mkdir()
    long_ago = time.time() - (pool.STALE_DAYS + 1) * 86400
    for d in (stale, old / "notes"):
        os.utime(d, (long_ago, long_ago))
    rs = solver.rule_set("pagat")
    tables = _tables_from_disk("pagat")
    pool.chunk(rs, 2, tables, 5)
    tables_files = [p.name for p in folder.glob("rows-*")]
    assert tables_files and sorted(p.name for p in folder.iterdir()) == ["pool", *tables_files]
    assert (pool.pool_dir(rs, 2) / "chunk-005.npz").exists()
    assert not stale.exists() and recent.exists() and (old / "notes").exists()
    # $SOLVER_CACHE_DIR moves both; the old variable is not read, and says so once.
    monkeypatch.setenv(_cache.CACHE_ENV, str(tmp_path / "mine"))
    monkeypatch.setenv(_cache.OLD_POOL_ENV, str(tmp_path / "old"))
    monkeypatch.setattr(_cache, "_told_old_variable", False)
    capsys.readouterr()
    assert pool.pool_dir(rs, 2).parent.parent == _cache.cache_dir() == tmp_path / "mine"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$SOLVER_CACHE is no longer read" in err
    _tables_from_disk("pagat")
    assert [p.name for p in (tmp_path / "mine").glob("rows-*")]
    assert capsys.readouterr().err == ""
