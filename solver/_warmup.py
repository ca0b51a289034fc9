"""Build a first solve's row tables, and compile its scoring kernel and the ones it runs
once or on little work (the search of its own hand's arrangements, the description of
its answer, the automatic-win check), into their caches on disk: ``python -m
solver._warmup [rules [cut]]``.

The first solve on a machine compiles its kernels, about 10 seconds of one core, most of
it Numba's own work (LLVM's optimisation level barely changes it).  They fall into
independent groups: the kernels that set the opponents' hands (the model's, about 4.5 s,
and where the rule set has automatic wins the one that finds them, about 2 s), the
search and the scoring (about 4.5 and 1.3 s), and the description of the answer (about
1 s); the model, the scoring and the description are compiled for the rule set's
scoring scheme alone.
When they are cold and there is a second core, :func:`solve` starts this module in
another process (:func:`start`) to build the row tables where a fresh install has none
yet (about 0.5 s for ``joker``'s), compile the scoring, say so on its standard output,
and then compile :func:`later_kernels` (the search, the description, and the
automatic-win check where the rule set has one) at the lowest priority (nice 19: on a
busy machine they would otherwise take processor time from the first answer; at load 5
to 9 on two cores a first run took 0.50 to 0.80 as long with it, medians of pairs:
benchmarks/README.md).  The solving process meanwhile compiles the model's kernel
itself, first from its argument types alone (:func:`solver.policy.compile_model_kernel`:
no tables needed), then loads the tables, draws the first deals and sets its own hand
as the model would, and waits (:func:`finish`) only until the scoring is compiled,
which it then loads from the cache instead of compiling.  It runs the later kernels'
source as plain Python (a tenth to a few tenths of a second for the search of one hand,
tens of milliseconds for the others on a first solve's work,
:func:`solver._jit.runnable`; the same results) while the other process still compiles
them for the solves to come, which it may go on doing for seconds (minutes on a busy
machine) after a ``python -m solver`` has printed its answer and returned.  (With the
search compiled there first, as it was until 2026-12-02, the solving process waited for
it; without that wait a first run is 0.90 to 0.92 as long for ``classic``, 0.96 to 1.01
for ``joker``, and with the tables built here too, about 0.9 for ``joker``:
benchmarks/README.md.)  The answer does not depend on any of it: the kernels are the
same whichever process compiles them, and their Python source gives the same results.
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
READY = "scoring compiled"     # the other process's line when it is


def _rule_set(rules):
    """The rule set ``rules`` names: a registry name, a :class:`solver.rules.RuleSet`, or
    (as the other process is told a rule set no registry holds) a rule-set file's
    tables."""
    from .rules import RuleSet, rule_set
    return RuleSet.from_dict(rules) if isinstance(rules, dict) else rule_set(rules)


def _told(rules):
    """How the other process is told ``rules``: its registry name, or for a rule set no
    registry holds (one from a file), its file's tables; None if it cannot be told."""
    from .rules import builtin_name, rule_set
    rs = rule_set(rules)
    try:
        return builtin_name(rs) or rs.to_dict()
    except ValueError:                 # no file can say it: compile in this process
        return None


def kernels(rules="classic"):
    """The kernels the other process compiles (Numba dispatchers) for a solve of
    ``rules``, in order: the scoring, which the solving process waits for, then
    :func:`later_kernels`, which it need not wait for."""
    from .scoring import score_kernel_for
    return [score_kernel_for(_rule_set(rules).scheme)] + later_kernels(rules)


def later_kernels(rules="classic"):
    """The kernels a first solve runs once or on little work, which it runs as Python
    while the other process compiles them (:func:`solver._jit.runnable`): the search of
    its own hand's arrangements, the description of the answer, and where the rule set
    has automatic wins, the check for them (about 4.3, 1 and 2 s of compiling, against a
    tenth to a few tenths of a second as Python for the search of most hands, seconds
    for a rare 17-card one, and tens of milliseconds for the others)."""
    from .autowin import best_kind, best_kind_any
    from .policy import _declared_automatic_wins, _declared_automatic_wins_any
    from .scoring import describer
    from .search import nondominated_arrangements
    rs = _rule_set(rules)
    specials = ([_declared_automatic_wins, best_kind] if rs.plain_deal
                else [_declared_automatic_wins_any, best_kind_any])
    return [nondominated_arrangements, describer(rs.scheme)] + (
        specials if rs.automatic_wins else [])


def _opponents_of(cand):
    """One deal of three opponents who all set the first candidate's rows."""
    import numpy as np
    return (np.repeat(cand[:1], 3, axis=0).reshape(1, 3, 3), np.zeros((1, 3), np.bool_),
            np.zeros((1, 3), np.int8))


def compile_them(rules="classic", ready=None, cut=None) -> None:
    """Build the row tables of ``rules`` (and ``cut``) into their disk cache if they are
    not there, for the solving process, which meanwhile compiles the model's kernel from
    its types alone; then compile each of :func:`kernels` for the argument types a solve
    uses; ``ready()``, if given, is called once the scoring is compiled.  The search is
    compiled from its argument types alone, the row tables' from
    :func:`solver.tables.placeholder_tables` (every rule set's have the same types); the
    others are called on a little work that reads no table."""
    import numba
    import numpy as np

    from .rows import tables_for
    from .scoring import score_candidates, scoring_params
    from .search import nondominated_arrangements
    from .tables import placeholder_tables
    rs = _rule_set(rules)
    if rs.cut_card == (cut is not None):
        tables_for(rs, cut)               # (loaded, or built and cached on disk)
    params = scoring_params(rs)
    cand = np.zeros((1, 3), np.int32)                    # row values of one arrangement
    score_candidates(cand, 0, *_opponents_of(cand), params)
    if ready is not None:
        ready()
    codes = np.arange(13, dtype=np.int64) * 4 % 52       # any hand: the types are the same
    nondominated_arrangements.compile(tuple(numba.typeof(a) for a in
                                            (codes, placeholder_tables(), params)))
    _describe_once(rules)
    if rs.automatic_wins:
        from .autowin import best_kind, best_kind_any, kind_order
        from .policy import _declared_automatic_wins, _declared_automatic_wins_any
        hands = codes.reshape(1, 1, 13)
        auto = np.zeros((1, 1), np.int8)
        if rs.plain_deal:
            _declared_automatic_wins(hands, auto, kind_order(rs), 0, 1)
            best_kind(codes, kind_order(rs))   # (also called on its own: the solver's hand)
        else:
            wild = rs.automatic_wins_wild
            _declared_automatic_wins_any(hands, auto, kind_order(rs), wild, 0, 1)
            best_kind_any(codes, kind_order(rs), wild)


def _say_ready() -> None:
    """The other process's word to the solving one (see :func:`finish`), after which it
    steps back: what it compiles from here on (:func:`later_kernels`) is for the solves
    to come, while the solving process is still compiling the model's kernel, the first
    answer's critical path.  On a busy machine the two would otherwise share the same
    processors as equals; at the lowest priority (nice 19) the later kernels take only
    what the solving process and the machine's other work leave (on an idle machine with
    a core each, nothing changes)."""
    print(READY, flush=True)
    try:
        os.nice(19)                   # (an increment: the kernel caps it at the lowest)
    except (AttributeError, OSError):
        pass                          # no nice() here (Windows): it only costs time


def _describe_once(rules) -> None:
    """Describe one deal with the types a solve uses (any row values will do)."""
    import numpy as np

    from .scoring import describe, scoring_params
    cand = np.zeros((1, 3), np.int32)
    describe(cand[0], *_opponents_of(cand), scoring_params(_rule_set(rules)))


def start(meanwhile, rules="classic", cut=None) -> Optional[subprocess.Popen]:
    """Start building the row tables of ``rules`` and ``cut`` (a valid cut card, text or
    code, or None) and compiling :func:`kernels` in another process when that can help:
    some are cold, so is ``meanwhile`` (the kernel this process compiles in the
    meantime), the machine has a second core, and ``SOLVER_WARMUP`` is not ``0``."""
    from ._jit import cold_kernels, compiled_elsewhere
    # The cheap test first: once compiled (every solve after the first), nothing else is
    # asked (os.cpu_count() reads /proc, a tenth of a millisecond).
    if not cold_kernels([meanwhile]):
        return None
    if os.environ.get(WARMUP_ENV, "1") == "0" or (os.cpu_count() or 1) < 2:
        return None
    if not cold_kernels(kernels(rules)):
        return None
    rules = _told(rules)
    if rules is None:
        return None
    # This very package (not whatever "solver" the current folder holds), told the rule set.
    package_parent = str(Path(__file__).resolve().parent.parent)
    code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            f"from solver._warmup import compile_them, _say_ready; "
            f"compile_them({rules!r}, _say_ready, {cut!r})")
    try:
        process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True)
    except OSError:
        return None                   # cannot start a process here: compile in this one
    compiled_elsewhere(later_kernels(rules), process)
    return process


def finish(process: Optional[subprocess.Popen]) -> None:
    """Wait for :func:`start`'s process until it has compiled the scoring (it says so,
    or it ends; at most WAIT_SECONDS: whatever it did not compile, this process compiles
    when it calls the kernel), and leave it compiling the later kernels."""
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


if __name__ == "__main__":          # python -m solver._warmup [rules [cut]]
    compile_them(sys.argv[1] if len(sys.argv) > 1 else "classic", None,
                 sys.argv[2] if len(sys.argv) > 2 else None)
