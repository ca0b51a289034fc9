"""Compile the search and scoring kernels of a solve into Numba's on-disk cache:
``python -m solver._warmup``.

The first solve on a machine compiles its kernels, about 20 seconds of one core, most of
it Numba's own work (LLVM's optimisation level barely changes it).  Two groups are
independent: the kernel that sets the opponents' hands, and those that search and
score.  When both are cold and there is a second core, :func:`solve` starts this
module in another process to compile the second group while it compiles the first
(:func:`start`), then waits for it (:func:`finish`) before it calls those kernels, which
then load from the cache instead of compiling.  The answer does not depend on it: the
kernels are the same whichever process compiles them.  ``SOLVER_WARMUP=0`` turns it off.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

WARMUP_ENV = "SOLVER_WARMUP"
WAIT_SECONDS = 180


def kernels():
    """The kernels this module compiles (Numba dispatchers): the search, the scoring,
    the description of the answer and the row lookups called from Python.  The solving
    process meanwhile compiles the opponents' kernel (the opponent model's setter, the
    longest to compile), so the two take about the same time."""
    from .kernels import ordinal3, ordinal5
    from .scoring import describe, score_kernel
    from .search import nondominated_arrangements
    return [nondominated_arrangements, score_kernel, describe, ordinal3, ordinal5]


def compile_them(rules: str = "classic") -> None:
    """Call each kernel once with the argument types a solve uses (every rule set's row
    tables have the same types; the solve's own rule set has its tables on disk by now,
    so they load instead of being built again)."""
    import numpy as np

    from .rows import _value_of_codes, tables_for
    from .rules import rule_set
    from .scoring import describe, score_candidates
    from .search import nondominated_arrangements
    rs = rule_set(rules)
    tables = tables_for(rs, "2c" if rs.cut_card else None)
    params = rs.scoring_params()
    codes = np.arange(13, dtype=np.int64) * 4 % 52       # any hand: the types are the same
    masks, ords = nondominated_arrangements(codes, tables, params)
    cand = tables.values[ords].astype(np.int32)
    opp_vals = np.repeat(cand[:1], 3, axis=0).reshape(1, 3, 3)
    opp_fouled = np.zeros((1, 3), np.bool_)
    opp_auto = np.zeros((1, 3), np.int8)
    score_candidates(cand, 0, opp_vals, opp_fouled, opp_auto, params)
    describe(cand[0], opp_vals, opp_fouled, opp_auto, params)
    _value_of_codes([int(c) for c in codes[:5]], tables)
    _value_of_codes([int(c) for c in codes[:3]], tables)


def start(meanwhile, rules: str = "classic") -> Optional[subprocess.Popen]:
    """Start compiling :func:`kernels` in another process when that can help: some are
    cold, so is ``meanwhile`` (the kernel this process compiles in the meantime), the
    machine has a second core, and ``SOLVER_WARMUP`` is not ``0``."""
    from ._jit import cold_kernels
    # The cheap test first: once compiled (every solve after the first), nothing else is
    # asked (os.cpu_count() reads /proc, a tenth of a millisecond).
    if not cold_kernels([meanwhile]):
        return None
    if os.environ.get(WARMUP_ENV, "1") == "0" or (os.cpu_count() or 1) < 2:
        return None
    if not cold_kernels(kernels()):
        return None
    # This very package (not whatever "solver" the current folder holds), told the rule set.
    package_parent = str(Path(__file__).resolve().parent.parent)
    code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            f"from solver._warmup import compile_them; compile_them({rules!r})")
    try:
        return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None                   # cannot start a process here: compile in this one


def finish(process: Optional[subprocess.Popen]) -> None:
    """Wait for :func:`start`'s process (at most WAIT_SECONDS; whatever it did not
    compile, this process compiles when it calls the kernel)."""
    if process is None:
        return
    try:
        process.wait(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


if __name__ == "__main__":
    compile_them(*sys.argv[1:2])
