"""Packaging: one version, the typing marker, the licence, the metadata."""
import re
from pathlib import Path

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
    assert project["license"] == "MIT" and "MIT License" in (ROOT / "LICENSE").read_text()
    assert project["authors"] == [{"name": "Seed e83bcc0e maintainers",
                                   "email": "maintainers@users.noreply.a-seed-e83bcc0e.example"}]
    assert set(project["urls"]) >= {"Homepage", "Documentation", "Issues"}
    assert "Typing :: Typed" in project["classifiers"] and project["keywords"]


def test_the_console_script_is_the_command_line(pyproject):
    assert pyproject["project"]["scripts"] == {"chinese-poker-solver": "solver.__main__:main"}
    from solver.__main__ import main
    assert main(["--version"]) == 0


def test_the_study_page_ships_with_the_package(pyproject):
    # A non-editable install serves the page too: its files are package data (and in the
    # sdist through MANIFEST.in); its server is an extra.
    static = Path(solver.__file__).parent / "web" / "static"
    assert all((static / name).is_file() for name in ("index.html", "app.js", "style.css"))
    assert "web/static/*" in pyproject["tool"]["setuptools"]["package-data"]["solver"]
    assert "recursive-include solver/web/static" in (ROOT / "MANIFEST.in").read_text()
    web = pyproject["project"]["optional-dependencies"]["web"]
    assert {dep.split(">")[0] for dep in web} == {"fastapi", "uvicorn"}
