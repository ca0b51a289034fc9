"""Packaging: one version, the typing marker, the licence, the metadata."""
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pyproject():
    tomllib = pytest.importorskip("tomllib")          # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_version_is_written_once_in_the_package(pyproject):
    assert re.fullmatch(r"\d+\.\d+\.\d+([.-]?\w+)*", solver.__version__)
    project = pyproject["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "solver.__version__"}


def test_the_typing_marker_ships_with_the_package(pyproject):
    assert (Path(solver.__file__).parent / "py.typed").is_file()
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["solver"]


def test_licence_and_metadata(pyproject):
    project = pyproject["project"]
    # The licence: an SPDX expression, and the file it names shipped with the package.
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    # Who and where: whatever they are, well formed (no values pinned here).
    assert project["authors"] and all(author.get("name") for author in project["authors"])
    assert all(re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", author["email"])
               for author in project["authors"] if "email" in author)
    assert set(project["urls"]) >= {"Homepage", "Documentation", "Issues"}
    for url in project["urls"].values():
        parts = urlsplit(url)
        assert parts.scheme == "https" and "." in parts.netloc, url
    assert "Typing :: Typed" in project["classifiers"] and project["keywords"]


def test_an_editable_install_is_a_plain_path_entry(pyproject):
    # setuptools writes a .pth file naming the repository (which mypy and other static
    # checkers follow) only with an explicit root package directory; without it, an
    # import hook they cannot see (pyproject.toml says why).
    assert pyproject["tool"]["setuptools"]["package-dir"] == {"": "."}


def test_mypy_finds_the_installed_package_from_outside_the_repository(tmp_path):
    pytest.importorskip("mypy")                      # not a dependency: skipped without it
    # A separate process in another folder: this one has the repository on sys.path.
    (tmp_path / "use.py").write_text("import solver\nsolver.quick_set('As', 'classic')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    run = subprocess.run([sys.executable, "-m", "mypy", "use.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert "import-not-found" not in run.stdout and not run.stderr, run.stdout + run.stderr


def test_the_console_script_is_the_command_line(pyproject):
    assert pyproject["project"]["scripts"] == {"chinese-poker-solver": "solver.__main__:cli"}
    from solver.__main__ import main
    assert main(["--version"]) == 0


@pytest.mark.parametrize("argv, code", [(["--version"], 0), (["eval", "Zz"], 2)])
def test_the_command_line_ends_with_its_exit_code_and_its_output_flushed(argv, code):
    """cli() ends the process at once (os._exit): the exit code and every line of output
    must still get out, with stdout a pipe (block-buffered)."""
    run = subprocess.run([sys.executable, "-c", "from solver.__main__ import cli; cli()",
                          *argv], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == code
    assert (run.stdout.strip() if code == 0 else run.stderr.strip()) != ""


def test_the_study_page_ships_with_the_package(pyproject):
    # A non-editable install serves the page too: its files are package data (and in the
    # sdist through MANIFEST.in); its server is an extra.
    static = Path(solver.__file__).parent / "web" / "static"
    assert all((static / name).is_file() for name in ("index.html", "app.js", "style.css"))
    assert "web/static/*" in pyproject["tool"]["setuptools"]["package-data"]["solver"]
    assert "recursive-include solver/web/static" in (ROOT / "MANIFEST.in").read_text()
    web = pyproject["project"]["optional-dependencies"]["web"]
    assert {dep.split(">")[0] for dep in web} == {"fastapi", "uvicorn"}


def test_the_shipped_rule_sets_are_package_data(pyproject):
    # The registry loads its rule sets from files (solver/data/rules/*.toml), read with
    # the standard library's tomllib: package data, and Python 3.11 or later.
    from solver.rules import RULES_DIR
    assert "data/rules/*.toml" in pyproject["tool"]["setuptools"]["package-data"]["solver"]
    assert RULES_DIR.parent == Path(solver.__file__).parent / "data"
    # One file a rule set the registry names (classic:western is classic's other name).
    assert ({p.stem for p in RULES_DIR.glob("*.toml")}
            == {solver.rule_set(n).name.replace(":", "-") for n in solver.RULE_SET_NAMES})
    assert pyproject["project"]["requires-python"] == ">=3.11"
