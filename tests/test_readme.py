"""The README's and the user guide's examples run as written and print what they show.

The README is the front door and the user guide (``docs/guide/*.md``) holds the rest; both
are checked the same way, each document on its own:

* Every ```python block runs, in document order, in one namespace per document (as one
  session would): a block of ``>>>`` lines as a doctest (its output must match), any
  other block as a script. A block that starts worker processes or a Dask cluster is
  skipped, and must say so on the line before it:
  ``<!-- tests/test_readme.py skips this block: why -->``.
* Every ``$ python3 -m solver ...`` line of a ```text block runs through the command
  line, and its output must match the lines under it (the timing line aside).
* The README's set-up: its two commands, the first runs the main job, the second the
  tests, and ``.ci/run`` runs exactly the second.
* Every relative link of the README and the guide names a file that exists, and a link
  into a Markdown file's section names one of its headings.
"""
import doctest
import io
import re
import shlex
from pathlib import Path

import pytest

from solver import __main__ as cli
from test_rules_doc import anchors           # GitHub's anchors of a Markdown file's headings

ROOT = Path(__file__).resolve().parent.parent
README_PATH = ROOT / "README.md"
README = README_PATH.read_text(encoding="utf-8")
GUIDE = sorted((ROOT / "docs" / "guide").glob("*.md"))
DOCUMENTS = [README_PATH, *GUIDE]
SKIP_MARK = re.compile(r"<!--\s*tests/test_readme\.py skips this block:\s*(.*?)\s*-->")
# Lines that start processes: they belong only in a block marked as skipped.
STARTS_PROCESSES = re.compile(r"LocalCluster|local_pool|Client\(|workers=(?!1\b)\w"
                              r"|solve_many\((?![^)]*workers=1)")
TIMING = re.compile(r"\(\d+(\.\d+)? s\)")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(text):
    """(language, first line number, code, skip reason or None) of each fenced block.

    A directive of the docs site (```{include} ...) is a block of its own language."""
    lines = text.splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = re.match(r"```(\S*)", lines[i])
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


def test_blocks_are_told_apart_from_directives():
    text = "```{include} ../../README.md\n:start-after: x\n```\n\n```python\n1\n```\n"
    assert [(lang, line) for lang, line, _, _ in _blocks(text)] == [("{include}", 2),
                                                                    ("python", 6)]


BLOCKS = {path: _blocks(path.read_text(encoding="utf-8")) for path in DOCUMENTS}
PYTHON = [(path, *block) for path, blocks in BLOCKS.items()
          for block in blocks if block[0] == "python"]
_NAMESPACES: dict = {path: {"__name__": "__main__"} for path in DOCUMENTS}
_RAN: set = set()


def _run(block) -> str:
    """Run one block in its document's namespace; a doctest's failure report, or ''."""
    path, _, line, code, _ = block
    namespace = _NAMESPACES[path]
    _RAN.add((path, line))
    where = f"{_name(path)}:{line}"
    if any(row.lstrip().startswith(">>>") for row in code.splitlines()):
        test = doctest.DocTestParser().get_doctest(code, namespace, where, str(path), line - 1)
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        result = runner.run(test, out=report.write, clear_globs=False)
        namespace.update(test.globs)         # a DocTest runs in a copy of its globals
        return report.getvalue() if result.failed else ""
    exec(compile(code, where, "exec"), namespace)
    return ""


def test_the_readme_and_the_guide_have_python_examples():
    readme = [b for b in PYTHON if b[0] == README_PATH]
    assert readme and any(">>>" in b[3] for b in readme)      # the README's API example
    assert len(PYTHON) >= 8
    assert {"api.md", "grading.md", "many-hands.md"} <= {b[0].name for b in PYTHON}


@pytest.mark.parametrize("block", PYTHON, ids=[f"{_name(b[0])}:{b[2]}" for b in PYTHON])
def test_python_block_runs(block):
    path, _, line, code, skip = block
    if skip:
        pytest.skip(f"{_name(path)}:{line}: {skip}")
    starting = [row for row in code.splitlines() if STARTS_PROCESSES.search(row)]
    assert not starting, (f"{_name(path)}:{line} starts processes ({starting[0].strip()!r}): "
                          f"mark it as skipped on the line before its fence")
    for earlier in PYTHON:               # what the block may rely on: its document's above it
        if (earlier[0] == path and earlier[2] < line and (path, earlier[2]) not in _RAN
                and not earlier[4]):
            _run(earlier)
    failures = _run(block)
    assert not failures, failures


def _cli_runs():
    """(document, line number, argv, expected output) of each ``$ python3 -m solver``."""
    runs = []
    for path, blocks in BLOCKS.items():
        for lang, line, code, _ in blocks:
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
                runs.append((path, line + start, argv[3:], out))
    return runs


CLI_RUNS = _cli_runs()


def test_the_readme_and_the_guide_show_the_command_line():
    readme = [argv for path, _, argv, _ in CLI_RUNS if path == README_PATH]
    assert [] in readme                                  # the main job, no arguments
    assert len(readme) >= 2
    guide = {path.name for path, _, _, _ in CLI_RUNS if path != README_PATH}
    assert {"command-line.md", "grading.md"} <= guide
    assert len(CLI_RUNS) >= 7


@pytest.mark.parametrize("run", CLI_RUNS, ids=[f"{_name(r[0])}:{r[1]}" for r in CLI_RUNS])
def test_command_line_output_is_real(run, capsys):
    path, line, argv, expected = run
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    got = [row for row in out.splitlines() if not TIMING.fullmatch(row)]
    want = [row for row in expected if not TIMING.fullmatch(row)]
    where = f"{_name(path)}:{line}"
    assert want, f"{where}: no output under the command"
    assert got == want, f"{where}: the output of python3 -m solver {shlex.join(argv)}"


def _setup_commands():
    start = README.index("## Set-up: two commands")
    section = README[start:README.index("\n## ", start)]
    return [row[4:] for row in section.splitlines()
            if row.startswith("    ") and not row.startswith("     ")]


def test_two_setup_commands_and_ci_runs_the_test_one():
    main_job, tests = _setup_commands()
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert main_job == venv + "python3 -m pip install -e . && python3 -m solver"
    assert tests.startswith(venv) and tests.endswith(
        "&& python3 -m solver warm --all && python3 -m pytest -q")
    assert '-e ".[test]"' in tests
    ci = [row for row in (ROOT / ".ci" / "run").read_text().splitlines()
          if row.strip() and not row.lstrip().startswith("#")]
    assert ci[-1] == tests


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"|!\[[^\]]*\]\(([^)\s]+)\)")


def _links(path: Path):
    """(line number, target) of each relative link or image of a Markdown file."""
    fenced = False
    for number, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if row.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for groups in LINK.findall(row):
            target = next(g for g in groups if g)
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):       # not a URL
                yield number, target


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_every_relative_link_resolves(path):
    # Sections moved from the README to the guide: a link to where one used to be (a
    # README anchor, a file since renamed) fails here, the README's links included.
    for number, target in _links(path):
        file, _, anchor = target.partition("#")
        file = (path.parent / file).resolve() if file else path
        assert file.is_file(), f"{_name(path)}:{number} links {target}: no such file"
        if anchor and file.suffix == ".md":
            assert anchor in _page_anchors(file), f"{_name(path)}:{number} links {target}"


def _page_anchors(path: Path) -> set:
    """The anchors of a page of the site: its headings' and those of what it includes."""
    found = anchors(path)
    for included in re.findall(r"^```\{include\} (\S+)", path.read_text(encoding="utf-8"),
                               re.M):
        found |= anchors((path.parent / included).resolve())
    return found


def test_links_into_readme_sections_name_real_ones():
    # Files that send a reader to a section of the README (notebooks, messages, tests).
    readme_anchors = anchors(README_PATH)
    cited = []
    for folder in ("solver", "docs", "notebooks", "benchmarks", "tests"):
        for file in sorted((ROOT / folder).rglob("*")):
            if file.suffix in (".py", ".md", ".ipynb") and file.is_file():
                text = file.read_text(encoding="utf-8")
                cited += [(file, a) for a in re.findall(r"(?<!benchmarks/)(?<!notebooks/)README\.md#([\w-]+)",
                                                       text)]
    missing = [(_name(f), a) for f, a in cited if a not in readme_anchors]
    assert not missing, missing


def test_the_files_the_readmes_commands_name_exist():
    # The benchmark suite's commands (report.py and the saved baseline it compares with)
    # and the study page's screenshot are the README's own: renaming one fails here.
    named = set(re.findall(r"\b((?:benchmarks|docs|notebooks)/[\w./-]+\.(?:py|json|png|md))",
                           README))
    assert "benchmarks/report.py" in named
    assert any(path.startswith("benchmarks/results/") for path in named)
    missing = sorted(path for path in named if not (ROOT / path).is_file())
    assert not missing, missing


# --- the headline figures are the benchmark report's ------------------------------------
REPORT_PATH = ROOT / "benchmarks" / "README.md"
NUMBER = re.compile(r"[+\-−]?\d[\d,]*(?:\.\d+)?")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def _numbers(text: str) -> set:
    """The numbers of a text as written (sign aside, '−' as '-', no thousands commas)."""
    return {n.replace("−", "-").replace(",", "").lstrip("+")
            for n in NUMBER.findall(DATE.sub(" ", text))}


def _section(text: str, anchor: str) -> str:
    """A Markdown section, from its heading to the next heading of its level or above."""
    from test_rules_doc import github_anchor
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"(#{1,6}) +(.*?) *$", line)
        if m and github_anchor(m.group(2)) == anchor:
            level = len(m.group(1))
            end = next((j for j in range(i + 1, len(lines))
                        if re.match(rf"#{{1,{level}}} ", lines[j])), len(lines))
            return "\n".join(lines[i:end])
    raise AssertionError(f"benchmarks/README.md has no section #{anchor}")


def _headline_rows():
    start = README.index("## Headline figures")
    table = README[start:README.index("\n## ", start + 1)]
    table = table[:table.index("\n###")] if "\n###" in table else table
    rows = [row.split(" | ") for row in table.splitlines()
            if row.startswith("| ") and not row.startswith(("| what", "|---"))]
    return [(what.lstrip("| "), figure.rstrip(" |")) for what, figure in rows]


def test_every_headline_figure_is_the_benchmark_reports():
    # One source for each figure: the README's row names the report's section, and every
    # number and date it gives is there (a figure re-measured in the report and not
    # here, or rounded differently, fails).
    report = REPORT_PATH.read_text(encoding="utf-8")
    rows = _headline_rows()
    assert len(rows) >= 6
    checked = 0
    for what, figure in rows:
        link = re.search(r"\]\(benchmarks/README\.md#([\w-]+)\)", what)
        if link is None:
            assert "benchmarks/README.md" not in what + figure, what
            continue
        section = _section(report, link.group(1))
        missing = sorted(_numbers(figure) - _numbers(section))
        assert not missing, f"{what}: {missing} are not in the report's section"
        dates = set(DATE.findall(what + figure))
        assert dates and dates <= set(DATE.findall(section)), (what, dates)
        checked += 1
    assert checked >= 6


def test_the_headline_check_catches_a_figure_the_report_does_not_give():
    section = "## Solve\n\n| `classic` | 4 | **6.1 ms** | 88 + 22 |\n(2026-12-02, 40,000 deals)\n"
    assert _numbers("6.1 ms at four seats, 40,000 deals") <= _numbers(section)
    assert _numbers("5.7 ms at four seats") - _numbers(section) == {"5.7"}
    assert _numbers("CI −0.005 to +0.056") == {"-0.005", "0.056"}


# --- one count of rule sets: the registry's -----------------------------------------------
COUNTED = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)"
                     r"(?: more| other)?(?: shipped| built-in| house)? (?:rule sets|built-ins)\b",
                     re.I)


def test_the_readme_lists_every_shipped_rule_set():
    # Derived from the registry: a rule set added to solver/data/rules/ needs its row.
    from solver.rules import RULE_SET_NAMES, rule_set
    start = README.index("## Rule sets")
    section = README[start:README.index("\n## ", start + 1)]
    shipped = {rule_set(name).name for name in RULE_SET_NAMES}
    missing = sorted(name for name in shipped if f"`{name}`" not in section)
    assert not missing, f"shipped rule sets the README's table does not name: {missing}"


@pytest.mark.parametrize("path", [README_PATH, REPORT_PATH, *sorted((ROOT / "docs").glob("*.md")),
                                  *GUIDE], ids=_name)
def test_no_document_counts_the_rule_sets_in_words(path):
    # "Four, and three house rule sets" beside "the six built-ins and three house rule
    # sets": the count is the registry's (python3 -m solver rules list), and a number
    # written into the prose goes stale when a rule set is added.
    text = path.read_text(encoding="utf-8")
    found = [m.group(0) for m in COUNTED.finditer(" ".join(text.split()))]
    assert not found, f"{_name(path)} counts rule sets: {found}"
