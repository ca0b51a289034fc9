"""The docs site (docs/) builds with warnings as errors, and its API page holds the public API.

The same command docs/index.md documents, into a fresh folder: a broken reference, a page
left out of the toctree or a docstring Sphinx cannot read fails here, and so in CI.
"""
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver
import solver.georgian

pytest.importorskip("sphinx", reason="the docs extra (sphinx) is not installed")
pytest.importorskip("myst_parser", reason="the docs extra (myst-parser) is not installed")

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-j", "1",
         "-b", "html", str(DOCS), str(out)],
        capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return out


def anchors(page):
    return set(re.findall(r'id="([^"]+)"', page.read_text(encoding="utf-8")))


def test_the_site_builds_without_a_warning(site):
    for page in ("index", "rules", "georgian", "architecture", "api", "benchmarks"):
        assert (site / f"{page}.html").is_file(), page


def test_the_user_guide_is_on_the_site_with_the_readmes_own_text(site):
    # Every page of docs/guide/ is built (in the toctree: else -W fails), and the install
    # page shows the README's set-up and first run, included, with the links between them.
    for page in (DOCS / "guide").glob("*.md"):
        assert (site / "guide" / f"{page.stem}.html").is_file(), page.name
    install = (site / "guide" / "install.html").read_text(encoding="utf-8")
    assert "python3 -m pip install -e . &amp;&amp; python3 -m solver" in install
    assert {"set-up-two-commands", "the-first-run"} <= anchors(site / "guide" / "install.html")
    assert 'href="reading-a-solution.html"' in install       # README's link, made the site's
    reading = (site / "guide" / "reading-a-solution.html").read_text(encoding="utf-8")
    assert "As As Jk" in reading and "Set-up: two commands" not in reading
    assert (site / "_images" / "study-page-phone.png").is_file()   # an <img> tag's image


def test_the_api_page_documents_every_public_name(site):
    found = anchors(site / "api.html")
    missing = [f"solver.{name}" for name in solver.__all__ if f"solver.{name}" not in found]
    missing += [f"solver.georgian.{name}" for name in solver.georgian.__all__
                if f"solver.georgian.{name}" not in found]
    assert not missing, missing


def test_the_docstrings_parameters_become_fields(site):
    # conf.py turns the docstrings' "Parameters" sections ("name: what it is") into
    # field lists; read as numpy-style sections, "cards" would show its text as a type.
    page = (site / "api.html").read_text(encoding="utf-8")
    solve = page[page.index('id="solver.solve"'):page.index('id="solver.solve_many"')]
    assert "Parameters" in solve
    for name in ("cards", "rules", "samples", "holdout"):
        assert f"<strong>{name}</strong>" in solve, name
    assert "<strong>How the answer" not in solve    # the prose after the section stays prose


def test_the_rules_pages_own_anchors_resolve(site):
    # rules.md links to its own sections (#the-ladder): the heading anchors must exist.
    assert {"the-ladder", "scoring", "what-the-solver-optimises"} <= anchors(site / "rules.html")


def test_the_architecture_page_names_every_module_and_real_tests():
    # A module added to solver/ gets its line in the layers; a test the page cites exists.
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    package = Path(solver.__file__).parent
    modules = [p.stem for p in package.glob("*.py") if p.stem != "__init__"]
    missing = [m for m in modules if f"`{m}`" not in text]
    assert not missing, f"modules not on the architecture page: {missing}"
    tests = Path(__file__).parent
    for path in set(re.findall(r"tests/(test_\w+\.py)", text)):
        assert (tests / path).is_file(), path
    for path, name in re.findall(r"tests/(test_\w+\.py)::(test_\w+)", text):
        assert f"def {name}(" in (tests / path).read_text(encoding="utf-8"), (path, name)
    for name in re.findall(r"`(test_\w+)`", text):        # named beside their file
        assert any(f"def {name}(" in p.read_text(encoding="utf-8")
                   for p in tests.glob("test_*.py")), name


def test_included_files_links_to_repository_files_cannot_break_the_build():
    # benchmarks/README.md links relative to benchmarks/: a page of the site stays a link
    # (to that page), a file the site does not hold becomes its text and path.
    spec = importlib.util.spec_from_file_location("docs_conf", DOCS / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    content = ["[base](results/base.json), [rules](../docs/rules.md#the-ladder), "
               "[top](#top), [site](https://example.org/x), ![plot](plot.png)"]
    conf.site_links(None, Path("../benchmarks/README.md"), "benchmarks", content)
    assert content == ["base (`benchmarks/results/base.json`), [rules](rules.md#the-ladder), "
                       "[top](#top), [site](https://example.org/x), ![plot](plot.png)"]
    # The README included into a page of the guide: a link to a page of the site is made
    # relative to the including page.
    readme = ["[reading](docs/guide/reading-a-solution.md), [rules](docs/rules.md#scoring), "
              "[report](benchmarks/README.md)"]
    conf.site_links(None, Path("../README.md"), "guide/install", readme)
    assert readme == ["[reading](reading-a-solution.md), [rules](../rules.md#scoring), "
                      "report (`benchmarks/README.md`)"]
    inside = ["[rules](rules.md)"]                     # a page of the site: left alone
    conf.site_links(None, Path("index.md"), "index", inside)
    assert inside == ["[rules](rules.md)"]
