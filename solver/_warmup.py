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
yet (about 0.5 s for ``joker``'s), compile the callees of the model's kernel that the
solving process reaches last (:func:`solver.model.model_parts`: it then loads them from
the disk cache instead of compiling them; a first run 0.89 as long),
compile the scoring, say so on its standard output,
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

Stand-ins.  A rule set's model and scoring kernels are its scheme's own (its estimate
or settlement alone, and the hand size for the model), so the first solve of a rule set
of another scheme than those solved before would compile both again (about 4 s in the
solving process).  Two kernels serve every scheme with the same results: the model's
kernel of every scheme (:data:`solver.model.ANY_SCHEME`, one a hand size: it reads the
scheme from the tables and calls the same estimate, so it sets every hand the same way,
and about as fast) and the general scoring (which settles every rule set as its own
kernel does).  They compile longer (about 10 and 4 s), so a first solve never waits for
them: after its own jobs, at the lowest priority, a first solve's warm-up process
compiles them (:func:`stand_in_jobs`: the model for 13 cards and the rule set's hand
size, and the general scoring), as ``solver warm --all`` does for every hand size.  A
later first solve of another scheme whose own kernels are cold and whose stand-ins are
on disk (:func:`_standing_in`) runs the stand-ins (:func:`solver._jit.stand_in`) while
its warm-up process compiles its own kernels, the model's included, for the solves to
come: it neither compiles them nor waits for them (benchmarks/README.md, "The first
run": ``classic`` after ``joker``).
"""
from __future__ import annotations

import ast
import hashlib
import os
import queue
import subprocess
import sys
import threading
import time
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


# --- what a first solve compiles, as jobs ----------------------------------------------------
# A job is a tuple, (kind, told rules[, cut]), that another process can be told as text:
#   "tables"    the rule set's row tables, built into their disk cache if not there
#   "model parts"  callees of the model's kernel (solver.model.model_parts), compiled
#               here while the solving process compiles the kernel, which then loads
#               them (a first solve's warm-up only, so job_key, job_kernels, job_name
#               and JOB_SECONDS, which serve solver warm, have no entry for it)
#   "scoring"   the scoring kernel of the rule set's scheme
#   "model"     the model's kernel of its estimate and hand size (the solving process
#               compiles it itself, on a first solve: it needs no tables)
#   "search"    the search of a hand's arrangements (one for every rule set)
#   "describe"  the description of an answer (one for every rule set)
#   "autowin"   the automatic-win check (one for every rule set that has them)
# Rule sets share kernels: :func:`job_key` tells a job's work, the same for every rule
# set that shares it.
# What each took on an idle core (solver warm's order: the longest first, so that two
# processes finish together).
JOB_SECONDS = {"stand-in model": 9.0, "model": 4.5, "stand-in scoring": 4.0, "search": 3.0,
               "autowin": 2.5, "describe": 2.0, "scoring": 1.4, "tables": 0.5}


def jobs(rules="classic", cut=None, parts: bool = True) -> "list[tuple]":
    """The jobs of a first solve of ``rules`` (and ``cut``), in the order its warm-up
    process runs them (the model's last: the solving process compiles it instead).
    ``parts``: with the model's parts, which a warm-up process compiles ahead of the
    scoring for the solving process where the scoring compiles in much less time than
    the model (it is needed only once the model's kernel is compiled); ``solver warm``,
    which compiles the model whole, leaves them out."""
    from .rules import SCHEME_GENERAL
    rs = _rule_set(rules)
    told = rules if isinstance(rules, dict) else _told(rules)
    out = [("scoring", told), ("search", told), ("describe", told)]
    # (Not for the general scheme: its scoring kernel compiles about as long as the
    # model's (4 s against 1.4 s for the others), so the solving process would wait for
    # it instead: with the parts, two-jokers' had its kernel at 5.06 s and the scoring
    # at 6.96 s; without them at 4.64 s, the scoring ready at 3.98 s.)
    if parts and rs.scheme != SCHEME_GENERAL:
        out.insert(0, ("model parts", told))
    if rs.cut_card == (cut is not None):
        out.insert(0, ("tables", told, cut))
    if rs.automatic_wins:
        out.append(("autowin", told))
    return out + [("model", told)]


def stand_in_jobs(rules, sizes=None) -> "list[tuple]":
    """The stand-in jobs a first solve of ``rules`` leaves its warm-up process (after its
    own, at the lowest priority): the model's kernel of every scheme for 13 cards (what
    most rule sets deal) and ``sizes`` (default: the rule set's hand size), then the
    general scoring (see "Stand-ins" above)."""
    rs = _rule_set(rules)
    sizes = [rs.cards_dealt] if sizes is None else list(sizes)
    return ([("stand-in model", n) for n in dict.fromkeys([13] + sorted(sizes))]
            + [("stand-in scoring",)])


def job_key(job: tuple) -> tuple:
    """What ``job`` computes, the same for every rule set it serves."""
    if job[0] == "stand-in model":
        return job
    if job[0] == "stand-in scoring":     # (the general scheme's scoring kernel)
        return "scoring", job_kernels(job)[0].py_func.__qualname__
    kind, rs = job[0], _rule_set(job[1])
    if kind == "tables":                  # (rule sets of one deck share their tables)
        return kind, rs.spade_copies, rs.jokers, job[2]
    if kind == "scoring":
        from .scoring import scoring_kernel
        return kind, scoring_kernel(rs).py_func.__qualname__
    if kind == "model":
        from .model import table_kernel
        return kind, table_kernel(rs.scheme, rs.cards_dealt).py_func.__qualname__
    if kind == "autowin":                 # (the plain pack's check, or any deck's)
        return kind, rs.plain_deal
    return (kind,)


def job_kernels(job: tuple) -> list:
    """The kernels (Numba dispatchers) ``job`` compiles: cold ones make it worth doing."""
    if job[0] == "stand-in model":
        from .model import ANY_SCHEME, table_kernel
        return [table_kernel(ANY_SCHEME, job[1])]
    if job[0] == "stand-in scoring":
        from .rules import SCHEME_GENERAL
        from .scoring import score_kernel_for
        return [score_kernel_for(SCHEME_GENERAL)]
    kind, rs = job[0], _rule_set(job[1])
    if kind == "scoring":
        from .scoring import scoring_kernel
        return [scoring_kernel(rs)]
    if kind == "model":
        from .model import table_kernel
        return [table_kernel(rs.scheme, rs.cards_dealt)]
    if kind == "search":
        from .search import nondominated_arrangements
        return [nondominated_arrangements]
    if kind == "describe":
        from .scoring import describer
        return [describer(rs.scheme)]
    if kind == "autowin":
        from .autowin import best_kind, best_kind_any
        from .policy import _declared_automatic_wins, _declared_automatic_wins_any
        return ([_declared_automatic_wins, best_kind] if rs.plain_deal
                else [_declared_automatic_wins_any, best_kind_any])
    return []


def _scheme_words(scheme: int) -> str:
    from .rules import (SCHEME_EASTERN, SCHEME_GENERAL, SCHEME_MANDARIN, SCHEME_ROWS,
                        SCHEME_SCOOP, SCHEME_WESTERN)
    return {SCHEME_SCOOP: "scoop", SCHEME_ROWS: "rows", SCHEME_WESTERN: "western",
            SCHEME_EASTERN: "eastern", SCHEME_MANDARIN: "mandarin",
            SCHEME_GENERAL: "general"}[scheme]


def job_name(job: tuple) -> str:
    """``job`` as ``solver warm`` says it."""
    if job[0] == "stand-in model":
        return f"the opponent model, {job[1]} cards, every scheme (a stand-in)"
    if job[0] == "stand-in scoring":
        return "the scoring, general scheme (a stand-in for every scheme)"
    kind, rs = job[0], _rule_set(job[1])
    if kind == "tables":
        return f"the row tables of {rs.name}" + (f" (cut {job[2]})" if job[2] is not None else "")
    if kind == "scoring":
        return f"the scoring, {_scheme_words(rs.scheme)} scheme"
    if kind == "model":
        from .model import model_schemes
        schemes = " and ".join(_scheme_words(s) for s in model_schemes(rs.scheme))
        return f"the opponent model, {rs.cards_dealt} cards, {schemes} scoring"
    if kind == "autowin":
        return "the automatic-win check" + ("" if rs.plain_deal else ", any deck")
    return {"search": "the search of a hand's arrangements",
            "describe": "the description of an answer"}[kind]


def run_job(job: tuple) -> None:
    """Do ``job``: build, or compile for the argument types a solve uses (loading what
    is on disk already).  The search and the model are compiled from their argument
    types alone (every rule set's row tables have the same types:
    :func:`solver.tables.placeholder_tables`); the others are called on a little work
    that reads no table."""
    import numba
    import numpy as np
    if job[0] == "stand-in model":
        from .model import ANY_SCHEME
        from .policy import compile_model_kernel
        compile_model_kernel(ANY_SCHEME, job[1])
        return
    if job[0] == "stand-in scoring":
        from .rules import SCHEME_GENERAL
        from .scoring import P_SCHEME, score_candidates, scoring_params
        params = scoring_params(_rule_set("classic")).copy()     # (any rule set's types)
        params[P_SCHEME] = SCHEME_GENERAL
        cand = np.zeros((1, 3), np.int32)
        score_candidates(cand, 0, *_opponents_of(cand), params)
        return
    kind, rs = job[0], _rule_set(job[1])
    if kind == "tables":
        from .rows import tables_for
        tables_for(rs, job[2])                # (loaded, or built and cached on disk)
    elif kind == "scoring":
        from .scoring import score_candidates, scoring_params
        cand = np.zeros((1, 3), np.int32)                # row values of one arrangement
        score_candidates(cand, 0, *_opponents_of(cand), scoring_params(rs))
    elif kind == "model":
        from .policy import compile_model_kernel
        compile_model_kernel(rs.scheme, rs.cards_dealt)
    elif kind == "model parts":
        from .policy import compile_model_parts
        compile_model_parts(rs.scheme)
    elif kind == "search":
        from .scoring import scoring_params
        from .search import nondominated_arrangements
        from .tables import placeholder_tables
        codes = np.arange(13, dtype=np.int64) * 4 % 52   # any hand: the types are the same
        nondominated_arrangements.compile(tuple(numba.typeof(a) for a in (
            codes, placeholder_tables(), scoring_params(rs))))
    elif kind == "describe":
        _describe_once(rs)
    elif kind == "autowin":
        from .autowin import best_kind, best_kind_any, kind_order
        from .policy import _declared_automatic_wins, _declared_automatic_wins_any
        codes = np.arange(13, dtype=np.int64) * 4 % 52
        hands = codes.reshape(1, 1, 13)
        auto = np.zeros((1, 1), np.int8)
        if rs.plain_deal:
            _declared_automatic_wins(hands, auto, kind_order(rs), 0, 1)
            best_kind(codes, kind_order(rs))   # (also called on its own: the solver's hand)
        else:                                  # (jokers, a second set of spades, 16-17 cards)
            wild = rs.automatic_wins_wild
            _declared_automatic_wins_any(hands, auto, kind_order(rs), wild, 0, 1)
            best_kind_any(codes, kind_order(rs), wild)
    else:
        raise ValueError(f"no such job: {job!r}")


def kernels(rules="classic"):
    """The kernels the other process compiles (Numba dispatchers) for a solve of
    ``rules``, in order: the scoring, which the solving process waits for, then
    :func:`later_kernels`, which it need not wait for."""
    from .scoring import scoring_kernel
    return [scoring_kernel(_rule_set(rules))] + later_kernels(rules)


def later_kernels(rules="classic"):
    """The kernels a first solve runs once or on little work, which it runs as Python
    while the other process compiles them (:func:`solver._jit.runnable`): the search of
    its own hand's arrangements, the description of the answer, and where the rule set
    has automatic wins, the check for them (about 3, 2 and 2.5 s of compiling, against a
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


def compile_them(rules="classic", ready=None, cut=None, model: bool = False,
                 stand_ins: bool = True) -> None:
    """The warm-up process of a first solve of ``rules`` (and ``cut``): each of its
    :func:`jobs` but the model's (the solving process compiles that meanwhile, from its
    types alone; with ``model``, it runs a stand-in instead and this process compiles
    the model too), in order; ``ready()``, if given, is called once the scoring is
    compiled.  Then, with ``stand_ins``, the :func:`stand_in_jobs` whose kernels are
    cold.  It holds the rule set's warm-up lock (:func:`_warming_lock`) while it
    works, so that the solves that start meanwhile run the later kernels as Python
    rather than start another; if another process holds it, that one is doing this
    work, and this one says it is ready and ends."""
    from ._jit import cold_kernels, hold_lock, let_go
    lock = _warming_lock(rules, cut)
    held = hold_lock(lock) if lock is not None else None
    try:
        for job in jobs(rules, cut):
            if lock is not None and held is None and job[0] != "tables":
                break                          # (another process is at it)
            if job[0] != "model" or model:
                run_job(job)
            if job[0] == "scoring" and ready is not None:
                ready()
                ready = None
        if ready is not None:
            ready()
        if stand_ins and (lock is None or held is not None):
            for job in stand_in_jobs(rules):
                if cold_kernels(job_kernels(job)):
                    run_job(job)
    finally:
        let_go(held)


def _warming_lock(rules, cut=None) -> "Optional[str]":
    """The lock file that a warm-up process of ``rules`` and ``cut`` holds while it
    compiles (beside the compiled kernels), or None if kernels have no disk cache."""
    from ._jit import cache_folder
    from .search import nondominated_arrangements
    folder = cache_folder(nondominated_arrangements)
    if folder is None:
        return None
    told = rules if isinstance(rules, dict) else _told(rules)
    name = hashlib.sha256(repr((told, cut)).encode()).hexdigest()[:16]
    return os.path.join(folder, f"warm-up-{name}.lock")


class _WarmingElsewhere:
    """Another process's warm-up of the same rule set, told by its lock (a stand-in for
    its subprocess.Popen in :func:`solver._jit.compiled_elsewhere`)."""

    wait_for_ready = False

    def __init__(self, lock: str):
        self.lock = lock

    def poll(self) -> Optional[int]:
        from ._jit import lock_is_held
        return None if lock_is_held(self.lock) else 0


def _say_ready() -> None:
    """The other process's word to the solving one (see :func:`finish`), after which it
    steps back: what it compiles from here on (:func:`later_kernels`) is for the solves
    to come, while the solving process is still compiling the model's kernel, the first
    answer's critical path.  On a busy machine the two would otherwise share the same
    processors as equals; at the lowest priority (nice 19) the later kernels take only
    what the solving process and the machine's other work leave (on an idle machine with
    a core each, nothing changes)."""
    try:
        print(READY, flush=True)
    except OSError:
        pass                          # (the solving process did not wait, and has ended)
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


def start(meanwhile, rules="classic", cut=None):
    """Start building the row tables of ``rules`` and ``cut`` (a valid cut card, text or
    code, or None) and compiling :func:`kernels` in another process when that can help:
    some are cold, so is ``meanwhile`` (the kernel this process compiles in the
    meantime) or one of :func:`later_kernels` (which this process then runs as Python
    while the other compiles them, without waiting for it), the machine has a second
    core, and ``SOLVER_WARMUP`` is not ``0``.  If another process is compiling them
    already (a first solve's, still at work after it answered), none is started, and
    this process runs them as Python until it is done.  Returns what :func:`finish`
    takes."""
    from ._jit import cold_kernels, compiled_elsewhere, lock_is_held
    # The cheap test first: once compiled (every solve after the first), nothing else is
    # asked (os.cpu_count() reads /proc, a tenth of a millisecond).
    model_cold = bool(cold_kernels([meanwhile]))
    if not model_cold and not cold_kernels(later_kernels(rules)):
        return None
    if os.environ.get(WARMUP_ENV, "1") == "0" or (os.cpu_count() or 1) < 2:
        return None
    standing = _standing_in(meanwhile, rules)
    cold = cold_kernels(kernels(rules))
    if not cold and not standing:
        return None
    told = _told(rules)
    if told is None:
        return None
    scoring = kernels(rules)[0]
    lock = _warming_lock(told, cut)
    if lock is not None and lock_is_held(lock):
        # (Past the scoring, or running its stand-in: not waited for.)
        if scoring in standing or not cold_kernels([scoring]):
            elsewhere = _WarmingElsewhere(lock)
            compiled_elsewhere(later_kernels(rules) + standing, elsewhere)
            return elsewhere
    # This very package (not whatever "solver" the current folder holds), told the rule set.
    package_parent = str(Path(__file__).resolve().parent.parent)
    code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            f"from solver._warmup import compile_them, _say_ready; "
            f"compile_them({told!r}, _say_ready, {cut!r}, model={meanwhile in standing})")
    try:
        process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True)
    except OSError:
        return None                   # cannot start a process here: compile in this one
    # Only a cold scoring with no stand-in is waited for; the later kernels run as Python
    # meanwhile.
    process.wait_for_ready = scoring not in standing and bool(cold_kernels([scoring]))
    compiled_elsewhere(later_kernels(rules) + standing, process)
    return process


def _standing_in(meanwhile, rules) -> list:
    """The kernels of a first solve of ``rules`` that are cold and have a stand-in on
    disk or in memory, which the solve then runs while the other process compiles them
    (see "Stand-ins" above): ``meanwhile``, where it is the model's kernel, and the
    scoring (not where it is the general scheme's already)."""
    from ._jit import cold_kernels
    from .model import ANY_SCHEME, table_kernel
    from .rules import SCHEME_GENERAL
    from .scoring import score_kernel_for, scoring_kernel
    rs = _rule_set(rules)
    pairs = []
    if meanwhile is table_kernel(rs.scheme, rs.cards_dealt):    # (not another policy's)
        pairs.append((meanwhile, table_kernel(ANY_SCHEME, rs.cards_dealt)))
    if rs.scheme != SCHEME_GENERAL:
        pairs.append((scoring_kernel(rs), score_kernel_for(SCHEME_GENERAL)))
    return [own for own, stand_in in pairs
            if cold_kernels([own]) and not cold_kernels([stand_in])]


def finish(process) -> None:
    """Wait for :func:`start`'s process until it has compiled the scoring (it says so,
    or it ends; at most WAIT_SECONDS: whatever it did not compile, this process compiles
    when it calls the kernel), and leave it compiling the later kernels.  A process
    started for the later kernels alone, and another process's warm-up, are not waited
    for."""
    if process is None or not getattr(process, "wait_for_ready", True):
        return
    listen = threading.Thread(target=process.stdout.readline, name="warm-up", daemon=True)
    listen.start()
    listen.join(WAIT_SECONDS)          # READY, or '' when it ended without saying so
    if listen.is_alive():
        process.kill()
        process.wait()
        listen.join()
    process.stdout.close()



# --- python3 -m solver warm: every job of some rule sets, in parallel processes -------------
def warm(rule_sets, processes: "int | None" = None, portable: bool = False,
         out=None, stand_ins: bool = False) -> int:
    """Do the :func:`jobs` of a first solve of each of ``rule_sets`` (names, files or
    RuleSets), each job once however many rule sets share it, in ``processes`` worker
    processes at once (default: one a core), the longest first; say each job's result
    on ``out`` (default stdout) as it comes, then the whole.  ``portable``: compile for
    the generic processor of this machine's architecture (``NUMBA_CPU_NAME=generic``),
    entries any machine of the same platform can load (solver._jit.KernelCache).
    ``stand_ins``: the stand-ins too, for the rule sets' hand sizes (``--all``).  The
    exit code: 0, or 1 if a job failed.  Ctrl+C stops the workers at once; what they
    had finished stays on disk."""
    out = out if out is not None else sys.stdout
    unique: dict = {}
    names = []
    for rules in rule_sets:
        rs = _rule_set(rules)
        if rs.name not in names:
            names.append(rs.name)
        told = _told(rs)
        if told is None:
            raise ValueError(f"{rs.name}: cannot be told to another process")
        for job in jobs(told, parts=False):
            unique.setdefault(job_key(job), job)
    if stand_ins:
        sizes = {_rule_set(rules).cards_dealt for rules in rule_sets}
        for job in stand_in_jobs(rule_sets[0], sizes):
            unique.setdefault(job_key(job), job)
    todo = sorted(unique.values(), key=lambda j: -JOB_SECONDS[j[0]])
    count = max(1, min(len(todo), processes or os.cpu_count() or 1))
    start = time.perf_counter()
    print(f"warming {', '.join(names)}: {len(todo)} jobs in {count} process"
          f"{'es' if count > 1 else ''}"
          + (", for any processor of this architecture" if portable else ""),
          file=out, flush=True)
    env = dict(os.environ, SOLVER_QUIET="1", **{WARMUP_ENV: "0"})
    if portable:
        from ._jit import PORTABLE_CPU
        env["NUMBA_CPU_NAME"] = PORTABLE_CPU
        env.pop("NUMBA_CPU_FEATURES", None)
    package_parent = str(Path(__file__).resolve().parent.parent)
    code = (f"import sys; sys.path.insert(0, {package_parent!r}); "
            f"from solver._warmup import _job_worker; _job_worker()")
    workers = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=env, text=True)
               for _ in range(count)]
    waiting: "queue.Queue[tuple]" = queue.Queue()
    for job in todo:
        waiting.put(job)
    results: "queue.Queue[tuple]" = queue.Queue()

    def drive(worker):
        """Hand ``worker`` jobs until none is left (or it ends), each result posted."""
        try:
            while True:
                try:
                    job = waiting.get_nowait()
                except queue.Empty:
                    return
                try:
                    worker.stdin.write(repr(job) + "\n")
                    worker.stdin.flush()
                    line = worker.stdout.readline()
                except (OSError, ValueError):
                    line = ""
                if not line:
                    results.put((job, ("failed", "its process ended")))
                    return
                results.put((job, ast.literal_eval(line)))
        finally:
            try:
                worker.stdin.close()
            except OSError:
                pass

    threads = [threading.Thread(target=drive, args=(w,), daemon=True) for w in workers]
    for t in threads:
        t.start()
    done = {"compiled": 0, "on disk": 0, "ready": 0, "failed": 0}
    try:
        for _ in range(len(todo)):
            while True:
                try:
                    job, (status, detail) = results.get(timeout=0.5)   # (Ctrl+C between)
                    break
                except queue.Empty:
                    if not any(t.is_alive() for t in threads) and results.empty():
                        job, (status, detail) = None, (None, None)
                        break
            if job is None:
                break
            done[status] += 1
            said = f"{detail:.1f} s" if isinstance(detail, float) else detail
            print(f"  {status:9s} {job_name(job)} ({said})", file=out, flush=True)
        for t in threads:
            t.join()
        for w in workers:
            w.wait()
    except BaseException:
        for w in workers:
            w.kill()
        for w in workers:
            w.wait()
        raise
    lost = len(todo) - sum(done.values())
    done["failed"] += lost
    from ._jit import cache_folder
    from .search import nondominated_arrangements
    folder = cache_folder(nondominated_arrangements)
    words = {"compiled": "compiled", "on disk": "already on disk",
             "ready": "row tables ready", "failed": "failed"}
    parts = [f"{n} {words[what]}" for what, n in done.items() if n]
    print(f"done in {time.perf_counter() - start:.1f} s: {', '.join(parts)}"
          + (f"; compiled kernels kept in {folder}" if folder else
             "; no disk cache here (compiled in every process)"), file=out, flush=True)
    return 1 if done["failed"] else 0


def _job_worker() -> None:
    """A worker of :func:`warm`: reads jobs (one a line, as Python literals) from stdin,
    does each, and writes (status, seconds or why it failed) for each on stdout."""
    from ._jit import cold_kernels
    for line in sys.stdin:
        job = ast.literal_eval(line)
        start = time.perf_counter()
        try:
            kernels = job_kernels(job)
            misses = sum(sum(k._cache_misses.values()) for k in kernels
                         if hasattr(k, "_cache_misses"))
            cold_kernels(kernels)
            run_job(job)
            compiled = sum(sum(k._cache_misses.values()) for k in kernels
                           if hasattr(k, "_cache_misses")) > misses
            status = ("ready" if job[0] == "tables" else
                      "compiled" if compiled else "on disk")
            result = (status, time.perf_counter() - start)
        except Exception as e:          # noqa: BLE001 -- said, and the others go on
            result = ("failed", f"{type(e).__name__}: {e}")
        print(repr(result), flush=True)

if __name__ == "__main__":          # python -m solver._warmup [rules [cut]]
    compile_them(sys.argv[1] if len(sys.argv) > 1 else "classic", None,
                 sys.argv[2] if len(sys.argv) > 2 else None)
