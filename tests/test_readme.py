"""The README's examples run as written and print what it shows.

* Every ```python block runs, in README order, in one namespace (as one session would):
  a block of ``>>>`` lines as a doctest (its output must match), any other block as a
  script. A block that starts worker processes or a Dask cluster is skipped, and must say
  so on the line before it: ``<!-- tests/test_readme.py skips this block: why -->``.
* Every ``$ python3 -m solver ...`` line of a ```text block runs through the command
  line, and its output must match the lines under it (the timing line aside).
* The set-up's two commands: the first runs the main job, the second the tests, and
  ``.ci/run`` runs exactly the second.
"""
import doctest
import io
import re
import shlex
from pathlib import Path

import pytest

from solver import __main__ as cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SKIP_MARK = re.compile(r"<!--\s*tests/test_readme\.py skips this block:\s*(.*?)\s*-->")
# Lines that start processes: they belong only in a block marked as skipped.
STARTS_PROCESSES = re.compile(r"LocalCluster|local_pool|Client\(|workers=(?!1\b)\w"
                              r"|solve_many\((?![^)]*workers=1)")
TIMING = re.compile(r"\(\d+(\.\d+)? s\)")


def _blocks(text):
    """(language, first line number, code, skip reason or None) of each fenced block."""
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = re.fullmatch(r"```(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        end = lines.index("```", i + 1)
        before = lines[i - 1] if i else ""
        mark = SKIP_MARK.search(before)
        blocks.append((fence.group(1), i + 2, "\n".join(lines[i + 1:end]) + "\n",
                       mark.group(1) if mark else None))
        i = end + 1
    return blocks


BLOCKS = _blocks(README)
PYTHON = [b for b in BLOCKS if b[0] == "python"]
_NAMESPACE: dict = {"__name__": "__main__"}
_RAN: set = set()


def _run(block) -> str:
    """Run one block in the shared namespace; a doctest's failure report, or ''."""
    _, line, code, _ = block
    _RAN.add(line)
    if any(row.lstrip().startswith(">>>") for row in code.splitlines()):
        test = doctest.DocTestParser().get_doctest(code, _NAMESPACE, f"README.md:{line}",
                                                   str(ROOT / "README.md"), line - 1)
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        result = runner.run(test, out=report.write, clear_globs=False)
        _NAMESPACE.update(test.globs)        # a DocTest runs in a copy of its globals
        return report.getvalue() if result.failed else ""
    exec(compile(code, f"README.md:{line}", "exec"), _NAMESPACE)
    return ""


def test_the_readme_has_python_examples():
    assert len(PYTHON) >= 6
    assert any(">>>" in code for _, _, code, _ in PYTHON)


@pytest.mark.parametrize("block", PYTHON, ids=[f"line{b[1]}" for b in PYTHON])
def test_python_block_runs(block):
    _, line, code, skip = block
    if skip:
        pytest.skip(f"README.md:{line}: {skip}")
    starting = [row for row in code.splitlines() if STARTS_PROCESSES.search(row)]
    assert not starting, (f"README.md:{line} starts processes ({starting[0].strip()!r}): "
                          f"mark it as skipped on the line before its fence")
    for earlier in PYTHON:               # what the block may rely on: the blocks above it
        if earlier[1] < line and earlier[1] not in _RAN and not earlier[3]:
            _run(earlier)
    failures = _run(block)
    assert not failures, failures


def _cli_runs():
    """(line number, argv, expected output) of each ``$ python3 -m solver`` command."""
    runs = []
    for lang, line, code, _ in BLOCKS:
        if lang != "text":
            continue
        rows = code.splitlines()
        i = 0
        while i < len(rows):
            if not rows[i].startswith("$ python3 -m solver"):
                i += 1
                continue
            start, command = i, rows[i][2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + rows[i]
            i += 1
            out = []
            while i < len(rows) and not rows[i].startswith("$ "):
                out.append(rows[i])
                i += 1
            argv = shlex.split(command)
            assert argv[:3] == ["python3", "-m", "solver"]
            runs.append((line + start, argv[3:], out))
    return runs


CLI_RUNS = _cli_runs()


def test_the_readme_shows_the_command_line():
    assert len(CLI_RUNS) >= 5
    assert [] in [argv for _, argv, _ in CLI_RUNS]         # the main job, no arguments


@pytest.mark.parametrize("run", CLI_RUNS, ids=[f"line{r[0]}" for r in CLI_RUNS])
def test_command_line_output_is_real(run, capsys):
    line, argv, expected = run
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    got = [row for row in out.splitlines() if not TIMING.fullmatch(row)]
    want = [row for row in expected if not TIMING.fullmatch(row)]
    assert want, f"README.md:{line}: no output under the command"
    assert got == want, f"README.md:{line}: the output of python3 -m solver {shlex.join(argv)}"


def _setup_commands():
    start = README.index("## Set-up: two commands")
    section = README[start:README.index("\n## ", start)]
    return [row[4:] for row in section.splitlines()
            if row.startswith("    ") and not row.startswith("     ")]


def test_two_setup_commands_and_ci_runs_the_test_one():
    main_job, tests = _setup_commands()
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert main_job == venv + "python3 -m pip install -e . && python3 -m solver"
    assert tests.startswith(venv) and tests.endswith("&& python3 -m pytest -q")
    assert '-e ".[test]"' in tests
    ci = [row for row in (ROOT / ".ci" / "run").read_text().splitlines()
          if row.strip() and not row.lstrip().startswith("#")]
    assert ci[-1] == tests
