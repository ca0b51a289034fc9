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
pytestmark = pytest.mark.slow           # (building the site takes 10-20 s)

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
    for page in ("index", "rules", "georgian", "architecture", "api", "benchmarks",
                 *(f"api/{topic}" for topic in API_PAGES)):
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


PUBLIC = ([f"solver.{name}" for name in solver.__all__]
          + [f"solver.georgian.{name}" for name in solver.georgian.__all__])
API_PAGES = ("solving", "reviewing", "sessions", "rule-sets", "models", "georgian")


def test_the_api_reference_is_a_page_a_topic_and_an_index_of_every_public_name(site):
    # One page a topic (it was one page, 53,000 px tall, starting with Alternative), each
    # public name documented on exactly one of them, and the index page links them all.
    where = {}
    for topic in API_PAGES:
        for name in anchors(site / "api" / f"{topic}.html") & set(PUBLIC):
            where.setdefault(name, []).append(topic)
    missing = [name for name in PUBLIC if name not in where]
    assert not missing, f"public names on no page of the API reference: {missing}"
    twice = {name: pages for name, pages in where.items() if len(pages) > 1}
    assert not twice, twice
    index = (site / "api.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="api/[\w-]+\.html#([\w.]+)"', index))
    assert not [name for name in PUBLIC if name not in linked and name.count(".") == 1], \
        "the index does not link every name of solver"
    solving = (site / "api" / "solving.html").read_text(encoding="utf-8")
    assert solving.index('id="solver.solve"') < solving.index('id="solver.Solution"')


def test_the_docstrings_parameters_become_fields(site):
    # conf.py turns the docstrings' "Parameters" sections ("name: what it is") into
    # field lists; read as numpy-style sections, "cards" would show its text as a type.
    page = (site / "api" / "solving.html").read_text(encoding="utf-8")
    solve = page[page.index('id="solver.solve"'):page.index('id="solver.Solution"')]
    assert "Parameters" in solve
    for name in ("cards", "rules", "samples", "holdout"):
        assert f"<strong>{name}</strong>" in solve, name
    assert "<strong>How the answer" not in solve    # the prose after the section stays prose
    # Each parameter once: no type-only entry beside the one its docstring describes
    # ("precision" and "effort" are described together, under one heading).
    assert solve.count("<strong>precision</strong>") == 0
    assert solve.count("<strong>samples</strong>") == 1


def test_the_docstrings_doc_paths_are_links_that_resolve(site):
    # "docs/rules.md#scoring" in a docstring is a link to that page and section.
    found = 0
    for topic in API_PAGES:
        page = (site / "api" / f"{topic}.html").read_text(encoding="utf-8")
        for href, text in re.findall(r'<a class="reference external" href="([^"]+)">'
                                     r'(docs/[^<]+)</a>', page):
            found += 1
            path, _, anchor = href.partition("#")
            target = (site / "api" / path).resolve()
            assert target.is_file(), (topic, href)
            assert text == f"docs/{Path(path).with_suffix('.md').as_posix().lstrip('./')}" + \
                (f"#{anchor}" if anchor else ""), (text, href)
            if anchor:
                assert anchor in anchors(target), (topic, href)
        assert not re.search(r"[^/\w]docs/[\w/-]+\.md", re.sub(r"<a [^>]*>docs/[^<]+</a>", "",
                                                               page)), topic
    assert found >= 10


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
