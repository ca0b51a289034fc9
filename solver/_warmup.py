"""Compile the search and scoring kernels of a solve into Numba's on-disk cache:
``python -m solver._warmup``.

The first solve on a machine compiles its kernels, about 11 seconds of one core, most of
it Numba's own work (LLVM's optimisation level barely changes it).  They fall into
independent groups: the kernels that set the opponents' hands (the model's, about 5 s,
and where the rule set has automatic wins the one that finds them, about 2 s), the
search and the scoring (about 4.5 and 1.3 s), and the description of the answer (about
1 s); the model, the scoring and the description are compiled for the rule set's
scoring scheme alone.
When they are cold and there is a second core, :func:`solve` starts this module in
another process to compile the search and the scoring (:func:`start`), compiles the
opponents' kernels itself by drawing the first deals (and setting its own hand as the
model would), then the description (:func:`compile_meanwhile`) unless the other process
has the lighter share without it (:func:`describe_here`), and waits for the other
process (:func:`finish`) before it calls the search, which then loads from the cache
instead of compiling.  The answer does not depend on it: the kernels are the same
whichever process compiles them.  ``SOLVER_WARMUP=0`` turns it off.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

WARMUP_ENV = "SOLVER_WARMUP"
WAIT_SECONDS = 180


def describe_here(rules: str) -> bool:
    """Whether the solving process compiles the description of the answer itself: yes,
    unless the rule set has automatic wins, whose kernel the solving process compiles
    first (it finds them in the first deals); the description would then leave it the
    longer share."""
    from .rules import rule_set
    return not rule_set(rules).automatic_wins


def kernels(rules: str = "classic"):
    """The kernels the other process compiles (Numba dispatchers) for a solve of
    ``rules``: the search, the scoring, and the description where not
    :func:`describe_here`.  The solving process meanwhile compiles the opponents'
    kernels and then :func:`meanwhile_kernels`, so the two take about the same time."""
    from .rules import rule_set
    from .scoring import describer, score_kernel_for
    from .search import nondominated_arrangements
    scheme = rule_set(rules).scheme
    return [nondominated_arrangements, score_kernel_for(scheme)] + (
        [] if describe_here(rules) else [describer(scheme)])


def meanwhile_kernels(rules: str = "classic"):
    """The kernels the solving process compiles while it waits: the description of the
    answer where :func:`describe_here`."""
    from .rules import rule_set
    from .scoring import describer
    return [describer(rule_set(rules).scheme)] if describe_here(rules) else []


def _opponents_of(cand):
    """One deal of three opponents who all set the first candidate's rows."""
    import numpy as np
    return (np.repeat(cand[:1], 3, axis=0).reshape(1, 3, 3), np.zeros((1, 3), np.bool_),
            np.zeros((1, 3), np.int8))


def compile_them(rules: str = "classic") -> None:
    """Call each of :func:`kernels` once with the argument types a solve uses (every rule
    set's row tables have the same types; the solve's own rule set has its tables on
    disk by now, so they load instead of being built again)."""
    import numpy as np

    from .rows import tables_for
    from .rules import rule_set
    from .scoring import score_candidates
    from .search import nondominated_arrangements
    rs = rule_set(rules)
    tables = tables_for(rs, "2c" if rs.cut_card else None)
    params = rs.scoring_params()
    codes = np.arange(13, dtype=np.int64) * 4 % 52       # any hand: the types are the same
    masks, ords = nondominated_arrangements(codes, tables, params)
    cand = tables.values[ords].astype(np.int32)
    score_candidates(cand, 0, *_opponents_of(cand), params)
    if not describe_here(rules):
        _describe_once(rules)


def compile_meanwhile(rules: str) -> None:
    """Call each of :func:`meanwhile_kernels` once with the argument types a solve uses
    (in the solving process, while the other one compiles the search)."""
    if describe_here(rules):
        _describe_once(rules)


def _describe_once(rules: str) -> None:
    """Describe one deal with the types a solve uses (any row values will do)."""
    import numpy as np

    from .rules import rule_set
    from .scoring import describe
    cand = np.zeros((1, 3), np.int32)
    describe(cand[0], *_opponents_of(cand), rule_set(rules).scoring_params())


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
    if not cold_kernels(kernels(rules)):
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
