"""Compile the search and scoring kernels of a solve, and the description of its answer,
into Numba's on-disk cache: ``python -m solver._warmup``.

The first solve on a machine compiles its kernels, about 11 seconds of one core, most of
it Numba's own work (LLVM's optimisation level barely changes it).  They fall into
independent groups: the kernels that set the opponents' hands (the model's, about 5 s,
and where the rule set has automatic wins the one that finds them, about 2 s), the
search and the scoring (about 4.5 and 1.3 s), and the description of the answer (about
1 s); the model, the scoring and the description are compiled for the rule set's
scoring scheme alone.
When they are cold and there is a second core, :func:`solve` starts this module in
another process (:func:`start`) to compile the search and the scoring, say so on its
standard output, and then compile the description; the solving process meanwhile
compiles the opponents' kernels itself by drawing the first deals (and setting its own
hand as the model would), and waits (:func:`finish`) only until the search and the
scoring are compiled, which it then loads from the cache instead of compiling.  It
describes its answer by the description's source run as plain Python (tens of
milliseconds, :func:`solver._jit.as_python`; the same counts) while the other process
still compiles that kernel for the solves to come, which it may go on doing for about a
second after a ``python -m solver`` has printed its answer and returned.  The answer
does not depend on any of it: the kernels are the same whichever process compiles them.
``SOLVER_WARMUP=0`` turns it off.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Optional

WARMUP_ENV = "SOLVER_WARMUP"
WAIT_SECONDS = 180
READY = "search and scoring compiled"     # the other process's line when they are


def kernels(rules: str = "classic"):
    """The kernels the other process compiles (Numba dispatchers) for a solve of
    ``rules``, in order: the search and the scoring, which the solving process waits
    for, then the description of the answer, which it need not wait for."""
    from .rules import rule_set
    from .scoring import describer, score_kernel_for
    from .search import nondominated_arrangements
    scheme = rule_set(rules).scheme
    return [nondominated_arrangements, score_kernel_for(scheme), describer(scheme)]


def _opponents_of(cand):
    """One deal of three opponents who all set the first candidate's rows."""
    import numpy as np
    return (np.repeat(cand[:1], 3, axis=0).reshape(1, 3, 3), np.zeros((1, 3), np.bool_),
            np.zeros((1, 3), np.int8))


def compile_them(rules: str = "classic", ready=None) -> None:
    """Call each of :func:`kernels` once with the argument types a solve uses (every rule
    set's row tables have the same types; the solve's own rule set has its tables on
    disk by now, so they load instead of being built again); ``ready()``, if given, is
    called once the search and the scoring are compiled."""
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
    if ready is not None:
        ready()
    _describe_once(rules)


def _say_ready() -> None:
    """The other process's word to the solving one (see :func:`finish`)."""
    print(READY, flush=True)


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
            f"from solver._warmup import compile_them, _say_ready; "
            f"compile_them({rules!r}, _say_ready)")
    try:
        process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True)
    except OSError:
        return None                   # cannot start a process here: compile in this one
    _describing[_scheme(rules)] = process
    return process


# The last process started for each scoring scheme, which goes on compiling that scheme's
# description after finish() (kept so that it is not garbage-collected while it runs).
_describing: dict = {}


def _scheme(rules: str) -> int:
    from .rules import rule_set
    return rule_set(rules).scheme


def finish(process: Optional[subprocess.Popen]) -> None:
    """Wait for :func:`start`'s process until it has compiled the search and the scoring
    (it says so, or it ends; at most WAIT_SECONDS: whatever it did not compile, this
    process compiles when it calls the kernel), and leave it compiling the description."""
    if process is None:
        return
    listen = threading.Thread(target=process.stdout.readline, name="warm-up", daemon=True)
    listen.start()
    listen.join(WAIT_SECONDS)          # READY, or '' when it ended without saying so
    if listen.is_alive():
        process.kill()
        process.wait()
        listen.join()
    process.stdout.close()


def describing(rules: str) -> bool:
    """Whether a process :func:`start` started for the scoring scheme of ``rules`` is
    still compiling its description of the answer (the kernel is cold here), so that a
    solve describes its answer by the kernel's source run as Python instead of
    compiling it too."""
    if not _describing:
        return False                  # (every solve asks: the usual answer comes first)
    from ._jit import cold_kernels
    from .scoring import describer
    scheme = _scheme(rules)
    process = _describing.get(scheme)
    if process is None or process.poll() is not None:
        _describing.pop(scheme, None)
        return False
    return bool(cold_kernels([describer(scheme)]))


if __name__ == "__main__":
    compile_them(*sys.argv[1:2])
