"""The compile notice: one line on stderr when kernels are about to compile, never when
they are compiled or cached on disk, once a process, and silenced by SOLVER_QUIET=1."""
import io
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numba
import pytest

import solver
from solver import _jit

ROOT = Path(__file__).resolve().parent.parent
HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"


@pytest.fixture
def notices(monkeypatch):
    """Notices on, as in a fresh process."""
    monkeypatch.delenv(_jit.QUIET_ENV, raising=False)
    monkeypatch.setattr(_jit, "_noticed", False)


def test_a_cold_kernel_gets_one_notice_a_process(notices):
    kernel = numba.njit(lambda x: x + 1)            # no disk cache, not compiled yet
    out = io.StringIO()
    assert _jit.cold_kernels([kernel]) == ["<lambda>"]
    assert _jit.compile_notice([kernel], file=out)
    assert out.getvalue() == _jit.COMPILE_NOTICE + "\n"
    assert not _jit.compile_notice([kernel], file=out)         # once a process
    assert kernel(1) == 2
    assert _jit.cold_kernels([kernel]) == []                    # compiled now


def test_compiling_since_lasts_while_a_found_kernel_is_cold(notices, monkeypatch):
    monkeypatch.setenv(_jit.QUIET_ENV, "1")                     # no notice, still the clock
    monkeypatch.setattr(_jit, "_compiling_kernels", [])
    monkeypatch.setattr(_jit, "_compiling_started", None)
    kernel = numba.njit(lambda x: x * 2)
    assert _jit.compiling_since() is None
    _jit.compile_notice([kernel])
    since = _jit.compiling_since()
    assert since is not None and _jit.compiling_since() == since
    assert kernel(2) == 4                                       # compiled now
    assert _jit.compiling_since() is None
    # A kernel found cold and never called stays cold; kernels found later start anew.
    stale, fresh = numba.njit(lambda x: x - 1), numba.njit(lambda x: x + 3)
    _jit.compile_notice([stale])
    first = _jit.compiling_since()
    _jit.compile_notice([fresh])
    assert _jit.compiling_since() >= first
    assert fresh(1) == 4 and _jit.compiling_since() is not None     # stale is still cold


def test_warm_kernels_and_plain_python_get_none(notices, monkeypatch):
    # Compiled in this process: without the other process, which would otherwise compile
    # the description and the automatic-win check of a first solve, and might not have
    # cached them yet when this test runs first.
    from solver import _warmup
    monkeypatch.setenv(_warmup.WARMUP_ENV, "0")
    solver.solve(HAND, "classic", samples=5)
    from solver.policy import POLICY_TABLE
    from solver.solve import _kernels
    assert _jit.cold_kernels(_kernels(POLICY_TABLE, solver.rule_set("classic"))) == []
    assert _jit.cold_kernels([len, lambda x: x]) == []          # NUMBA_DISABLE_JIT=1


def test_solver_quiet_silences_it(notices, monkeypatch):
    monkeypatch.setenv(_jit.QUIET_ENV, "1")
    out = io.StringIO()
    assert not _jit.compile_notice([numba.njit(lambda x: x)], file=out)
    assert out.getvalue() == ""
    monkeypatch.setenv(_jit.QUIET_ENV, "0")                     # "0" means not quiet
    assert _jit.notices_enabled()


def test_quiet_sets_the_environment_for_the_block_only(monkeypatch):
    monkeypatch.delenv(_jit.QUIET_ENV, raising=False)
    with _jit.quiet():
        assert os.environ[_jit.QUIET_ENV] == "1"
    assert _jit.QUIET_ENV not in os.environ
    with _jit.quiet(False):
        assert _jit.QUIET_ENV not in os.environ


def test_solve_says_it_compiles_and_how_long_it_took(notices, monkeypatch, capsys):
    # Make every kernel look cold (the real ones are warm here): solve says what it does.
    monkeypatch.setattr(_jit, "_is_warm", lambda kernel: False)
    solver.solve(HAND, "classic", samples=5)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == ("compiling the solver's kernels with Numba (first run only; cached "
                        "on disk afterwards)...")
    assert re.fullmatch(r"compiled in \d+\.\d s", lines[-1])


def test_a_long_compile_says_how_long_it_has_taken_so_far(notices):
    import time
    out = io.StringIO()
    with _jit.compile_progress([numba.njit(lambda x: x)], "the test's kernels", every=0.05,
                               file=out) as speaking:
        time.sleep(0.18)
    lines = out.getvalue().splitlines()
    assert speaking and lines[0].startswith("compiling the test's kernels with Numba")
    assert len([line for line in lines if re.fullmatch(r"  still compiling: \d+ s so far",
                                                       line)]) >= 2
    assert lines[-1].startswith("compiled in ")


def test_other_first_run_work_is_named_as_such(notices):
    # While the pool sets its hands (solver._jit.doing), the ticker names that, not
    # compiling, and the last line says it was part of the time.
    import time
    out = io.StringIO()
    with _jit.compile_progress([numba.njit(lambda x: x)], "the test's kernels", every=0.05,
                               file=out):
        with _jit.doing("setting the test's hands"):
            time.sleep(0.18)
    lines = out.getvalue().splitlines()
    assert len([line for line in lines if re.fullmatch(
        r"  still setting the test's hands: \d+ s so far", line)]) >= 2
    assert not [line for line in lines if "still compiling" in line]
    assert re.fullmatch(r"compiled in \d+\.\d s, setting the test's hands included", lines[-1])


def test_bad_input_gets_no_notice(notices, monkeypatch, capsys):
    monkeypatch.setattr(_jit, "_is_warm", lambda kernel: False)
    with pytest.raises(ValueError):
        solver.solve("As Kd", "classic")
    assert capsys.readouterr().err == ""


SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import kernels_for_notice as k
from solver._jit import cold_kernels
print(" ".join(cold_kernels([k.add, k.sub])) or "-")
if len(sys.argv) > 2:
    k.add(1)
"""


def test_the_on_disk_cache_counts_while_it_is_fresh(tmp_path):
    module = tmp_path / "kernels_for_notice.py"
    module.write_text(textwrap.dedent("""
        from solver._jit import njit

        @njit
        def add(x):
            return x + 1

        @njit
        def sub(x):
            return x - 1
        """))
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def cold(*extra):
        return subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), *extra], env=env,
                              check=True, capture_output=True, text=True).stdout.strip()

    assert cold("call add") == "add sub"       # nothing cached; add compiles and is saved
    assert cold() == "sub"                     # add loads from the disk cache
    module.write_text(module.read_text() + "# changed\n")   # the cache is now stale
    assert cold() == "add sub"


def test_the_solve_kernels_cached_on_disk_give_no_notice():
    """A new process with the kernels cached (this process has just saved them) prints
    nothing on stderr."""
    solver.solve(HAND, "classic", samples=5)
    env = {k: v for k, v in os.environ.items() if k != _jit.QUIET_ENV}
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run([sys.executable, "-m", "solver", HAND, "--rules", "classic",
                          "--samples", "20", "--top", "0"], env=env, capture_output=True,
                         text=True, check=True)
    assert run.stderr == "" and "best setting" in run.stdout


MODEL_SIGNATURE = """
import sys
import solver
from solver.policy import POLICY_TABLE, compile_model_kernel, set_hands_kernel
rules, cut, hand = sys.argv[1], None if sys.argv[2] == "None" else sys.argv[2], sys.argv[3]
rs = solver.rule_set(rules)
solver.solve(hand, rules, cut)
kernel = set_hands_kernel(POLICY_TABLE, rs.scheme, rs.cards_dealt)
print(len(kernel.signatures))
compile_model_kernel(rs.scheme, rs.cards_dealt)
print(len(kernel.signatures))
"""
JOKER_HAND = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Kd Qc Jk"


MODEL_PARTS = """
import solver
from solver.model import model_parts
from solver.policy import compile_model_kernel
for rules in ("joker", "classic"):
    rs = solver.rule_set(rules)
    compile_model_kernel(rs.scheme, rs.cards_dealt)
    print(all(types in part.signatures for part, types in model_parts(rs.scheme)))
"""


def test_the_warm_up_compiles_the_model_parts_for_the_types_the_kernel_passes(tmp_path):
    """The parts of the model's kernel that a first solve's warm-up process compiles
    ahead (solver.model.model_parts) are compiled for the very types the kernel passes
    them, for both hand sizes' code (else the solving process would compile them all
    the same, and the other process's work would be wasted): the kernel compiled in a
    process of its own, with an empty cache so that its callees are compiled too."""
    said = subprocess.run(
        [sys.executable, "-c", MODEL_PARTS],
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), **{_jit.QUIET_ENV: "1"}),
        capture_output=True, text=True, check=True).stdout.split()
    assert said == ["True", "True"]


def test_the_warm_up_compiles_what_a_solve_runs(monkeypatch):
    """The second process compiles exactly the signatures a solve calls (else its work
    is wasted), says it is ready once the scoring is compiled, and is only started when
    it can help; the solving process compiles the signature of the model's kernel that a
    solve calls."""
    from solver import _warmup
    # The default solve, every kernel compiled (or loaded) in this process: no warm-up
    # process of its own, and none left by an earlier test (which compiles the later
    # kernels at low priority, and meanwhile a solve runs them as Python).
    for process in set(_jit._compiled_elsewhere.values()):
        process.wait(timeout=600)
    monkeypatch.setenv(_warmup.WARMUP_ENV, "0")
    solver.solve(HAND, "classic")
    monkeypatch.delenv(_warmup.WARMUP_ENV)
    kernels = _warmup.kernels("classic")
    # The scoring, then the search, the description and the automatic-win check.
    assert kernels[1:] == _warmup.later_kernels("classic") and len(kernels) == 5
    assert len(_warmup.later_kernels("pagat")) == 2
    # The model's parts go before the scoring (the solving process needs them first);
    # solver warm, which compiles the model whole, does not compile them apart.
    kinds = [job[0] for job in _warmup.jobs("classic")]
    assert kinds.index("model parts") < kinds.index("scoring")
    assert "model parts" not in [job[0] for job in _warmup.jobs("classic", parts=False)]
    before = {k: list(k.signatures) for k in kernels}
    ready_with = []
    _warmup.compile_them("classic", lambda: ready_with.append(
        [bool(k.signatures) for k in kernels]))
    assert {k: list(k.signatures) for k in kernels} == before
    assert ready_with == [[True] * 5]          # (all compiled by the solve above)
    # Meanwhile the solving process compiles the model's kernel from its types alone:
    # the very signature a solve calls (in a process of its own, where nothing else has
    # called the kernel).
    for rules, cut, hand in (("classic", None, HAND), ("joker", None, JOKER_HAND),
                             ("bonus", "4c", JOKER_HAND[:-3])):
        signatures = subprocess.run(
            [sys.executable, "-c", MODEL_SIGNATURE, rules, str(cut), hand],
            env=dict(os.environ, **{_warmup.WARMUP_ENV: "0", _jit.QUIET_ENV: "1"}),
            capture_output=True, text=True, check=True).stdout.split()
        assert signatures == ["1", "1"], rules
    from solver.policy import POLICY_TABLE, set_hands_kernel
    rs = solver.rule_set("classic")
    kernel = set_hands_kernel(POLICY_TABLE, rs.scheme, rs.cards_dealt)
    assert _warmup.start(kernel) is None                               # nothing cold here
    assert all(_jit.runnable(k) is k for k in kernels)
    monkeypatch.setenv(_warmup.WARMUP_ENV, "0")
    cold = numba.njit(lambda x: x)
    assert _warmup.start(cold) is None
    _warmup.finish(None)


def test_the_solve_waits_for_the_other_process_to_be_ready_not_to_end():
    """finish() returns once the other process says the scoring is compiled (leaving it
    to compile the search and the description), or once it ends without saying so."""
    from solver import _warmup
    says_ready = subprocess.Popen(
        [sys.executable, "-c", f"print({_warmup.READY!r}, flush=True); input()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        _warmup.finish(says_ready)
        assert says_ready.poll() is None               # still at work: not waited for
    finally:
        says_ready.stdin.close()
        says_ready.wait()
    silent = subprocess.Popen([sys.executable, "-c", "pass"], stdout=subprocess.PIPE, text=True)
    _warmup.finish(silent)
    assert silent.wait() == 0


@pytest.mark.skipif(not hasattr(os, "nice"), reason="os.nice: POSIX only")
def test_the_other_process_steps_back_once_the_scoring_is_compiled():
    """Once it has said the scoring is compiled, the warm-up process compiles the later
    kernels, for the solves to come, at the lowest priority: on a busy machine they
    would otherwise take processor time from the solving process's first answer."""
    from solver import _warmup
    said = subprocess.run(
        [sys.executable, "-c", "import os\nfrom solver._warmup import _say_ready\n"
                               "before = os.nice(0)\n_say_ready()\nprint(before, os.nice(0))"],
        capture_output=True, text=True, check=True, timeout=120).stdout.splitlines()
    assert said[0] == _warmup.READY
    before, after = map(int, said[1].split())
    assert after == 19 and before <= after


def test_a_kernel_another_process_compiles_runs_as_python_meanwhile(monkeypatch):
    """runnable(): a kernel's Python version while the process noted as compiling it
    runs and the kernel is still cold here; the kernel itself once either is over, and
    for kernels no process was noted for."""
    from solver.scoring import describer
    from solver.search import nondominated_arrangements
    kernel = describer(solver.rule_set("classic").scheme)
    other = nondominated_arrangements
    monkeypatch.setattr(_jit, "_compiled_elsewhere", {})
    child = subprocess.Popen([sys.executable, "-c", "input()"], stdin=subprocess.PIPE)
    try:
        _jit.compiled_elsewhere([kernel], child)
        monkeypatch.setattr(_jit, "_is_warm", lambda k: False)
        assert _jit.runnable(kernel) is _jit.as_python(kernel) is not kernel
        assert _jit.runnable(other) is other
        monkeypatch.setattr(_jit, "_is_warm", lambda k: True)      # cached by the other
        assert _jit.runnable(kernel) is kernel
        _jit.compiled_elsewhere([kernel], child)
        monkeypatch.setattr(_jit, "_is_warm", lambda k: False)
    finally:
        child.stdin.close()
        child.wait()
    assert _jit.runnable(kernel) is kernel                         # the process has ended


def _processes_naming(folder: Path) -> bool:
    """Whether any process's command line names ``folder`` (Linux: /proc)."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(folder) in cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                return True
        except OSError:
            pass
    return False


# Loaded by every Python process of a test below (PYTHONPATH): each kernel compiled (not
# loaded from the disk cache) is a line "pid name" in $COMPILE_LOG.
COMPILE_LOGGER = """
import os
if os.environ.get("COMPILE_LOG"):
    from numba.core import event

    class _Log(event.Listener):
        def on_start(self, e):
            pass

        def on_end(self, e):
            with open(os.environ["COMPILE_LOG"], "a") as log:
                f = e.data["dispatcher"].py_func
                log.write(f"{os.getpid()} {f.__module__}.{f.__qualname__} {e.data['args']}\\n")

    event.register("numba:compile", _Log())
"""


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists() or (os.cpu_count() or 1) < 2,
                    reason="needs a second core and Linux's /proc")
@pytest.mark.slow
def test_a_first_run_runs_as_python_what_the_other_process_compiles_later(tmp_path):
    """A first ``python -m solver`` on a fresh copy of the package (no cache): the other
    process compiles the scoring, says so, and goes on compiling the search, the
    description and the automatic-win check after the solve has run them as Python and
    returned.  A ``--json`` run of the same hand at once, while it is still at work,
    compiles nothing in its own process (it runs those as Python too, and starts no
    other process) and says nothing; once that work is done, a run compiles nothing
    anywhere, and prints the same answer and the same description."""
    shutil.copytree(ROOT / "solver", tmp_path / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(COMPILE_LOGGER)
    log = tmp_path / "compiled.log"
    env = {k: v for k, v in os.environ.items() if k not in (_jit.QUIET_ENV, "NUMBA_CACHE_DIR")}
    env.update(SOLVER_CACHE_DIR=str(tmp_path / "tables"), COMPILE_LOG=str(log),
               PYTHONPATH=os.pathsep.join([str(tmp_path / "hook"), str(tmp_path)]))
    command = [sys.executable, "-m", "solver", "--rules", "classic", "--seed", "3"]
    first = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                           check=True, timeout=600)
    assert "compiling the solver's kernels" in first.stderr
    at_once = subprocess.Popen(command + ["--json"], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = at_once.communicate(timeout=600)
    assert at_once.returncode == 0 and err == ""
    assert not [line for line in log.read_text().splitlines()
                if line.split()[0] == str(at_once.pid)]
    import json
    assert json.loads(out)["front"] in first.stdout
    # The later kernels, for the solves to come (at low priority: minutes on a busy machine)
    for _ in range(6000):
        if not _processes_naming(tmp_path):
            break
        time.sleep(0.1)
    compiled = log.read_text()
    second = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                            check=True, timeout=600)
    assert second.stderr == "" and log.read_text() == compiled
    timing = re.compile(r"^\(\d+\.\d+ s\)$", re.M)     # the one line that differs
    assert timing.sub("", second.stdout) == timing.sub("", first.stdout)
    assert "best setting" in first.stdout and "row" in first.stdout
    # Each of the solver's kernels was compiled once, in one process or another (Numba's
    # own, and the implementations of the solver's overloads, compiled inside them, are
    # not kept on disk apart from them: the model's kernel and its stand-in compile
    # them each).
    names = [line.split(maxsplit=1)[1] for line in compiled.splitlines()
             if line.split(maxsplit=1)[1].startswith("solver.")
             and not ("<locals>" in line.split()[1] and "[" not in line.split()[1])]
    assert names and len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    # The other process also left the stand-ins (solver._warmup): a first solve of
    # another rule set (another scheme: its own model and scoring are cold) runs them
    # and compiles nothing itself, says nothing of compiling (only of its pool, set
    # once), and answers as it does once its own kernels are compiled (by its other
    # process, meanwhile and after).
    assert "set_tables[backs=None,n13=True,n_cards=13,scheme=-1" in compiled
    assert "score_kernel[deal_cap=False,scheme=5]" in compiled
    pagat = [sys.executable, "-m", "solver", "--rules", "pagat", "--seed", "3"]
    first = subprocess.Popen(pagat, cwd=tmp_path, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = first.communicate(timeout=600)
    assert first.returncode == 0 and "compil" not in err and "pool" in err
    assert not [line for line in log.read_text().splitlines()
                if line.split()[0] == str(first.pid)]
    for _ in range(6000):
        if not _processes_naming(tmp_path):
            break
        time.sleep(0.1)
    assert "scheme=3" in log.read_text()[len(compiled):]      # (pagat's own model, eastern)
    again = subprocess.run(pagat, cwd=tmp_path, env=env, capture_output=True, text=True,
                           check=True, timeout=600)
    assert again.stderr == "" and timing.sub("", again.stdout) == timing.sub("", out)


CLOSURES = """
import sys
sys.path.insert(0, sys.argv[1])
import closures_for_notice as k
from solver._jit import cold_kernels
print(len(cold_kernels([k.plus(2)])), len(cold_kernels([k.plus(3)])))
if len(sys.argv) > 2:
    k.plus(2)(1)
"""


def test_closures_of_one_factory_are_cold_until_each_is_cached(tmp_path):
    """Kernels made one a value (the model's, one a scheme and hand size) have entries of
    their own on disk: one of them cached says nothing about the others."""
    (tmp_path / "closures_for_notice.py").write_text(textwrap.dedent("""
        import functools
        from solver._jit import njit

        @functools.lru_cache(maxsize=None)
        def plus(n):
            @njit
            def add(x):
                return x + n
            return add
        """))
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def cold(*extra):
        return subprocess.run([sys.executable, "-c", CLOSURES, str(tmp_path), *extra],
                              env=env, check=True, capture_output=True, text=True).stdout.split()

    assert cold("call plus(2)") == ["1", "1"]
    assert cold() == ["0", "1"]               # plus(2) loads from the cache, plus(3) would not
