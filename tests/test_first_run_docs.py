"""How long a first run takes is stated in one place, README.md's "The first run", and
every other place that mentions it (``--help``, the user guide's study page, the page
itself) points there instead of giving a figure of its own: four places once gave four
figures (about 4.5 s, 8 s, 15 s, and the example's 14.49 s).  The docs site shows the
README's section itself, included, not a copy."""
import re
from pathlib import Path

from solver.__main__ import PROGRESS_NOTE

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
GUIDE = ROOT / "docs" / "guide"
FIGURE = re.compile(r"\b\d+(?:\.\d+)?(?:[–-]\d+)?\s*(?:s|seconds)\b")


def _between(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i:text.index(end, i + len(start))]


def test_the_readme_states_the_first_run_time_in_its_own_section():
    section = _between(README, "### The first run", "\n## ")
    assert FIGURE.search(section)
    for depends_on in ("free cores", "the load", "the rule set", "the caches"):
        assert f"**{depends_on}**" in section
    # The main job's example, whose last line is a first run's time, points there.
    after_it = _between(README, "$ python3 -m solver\n", "### The first run").split("```")[-1]
    assert "(#the-first-run)" in after_it


def test_the_other_places_point_to_it_with_no_figure_of_their_own():
    assert "README" in PROGRESS_NOTE and not FIGURE.search(PROGRESS_NOTE)
    web = _between((GUIDE / "study-page.md").read_text(), "The first request", "so far")
    assert "(install.md#the-first-run)" in web and not FIGURE.search(web)
    page = (ROOT / "solver" / "web" / "static" / "app.js").read_text()
    notice = _between(page, "`compiling the solver's kernels", "so far")
    assert "first run only" in notice and not FIGURE.search(notice.replace(
        "${compiling.toFixed(0)} s", ""))             # (the count itself)


def test_the_guide_shows_the_readmes_section_not_a_copy():
    # The guide's install page includes the README's set-up and first run (the docs site
    # renders them there); no guide page states a first-run time of its own.
    install = (GUIDE / "install.md").read_text()
    start = re.search(r":start-after: (.*)", install).group(1)
    end = re.search(r":end-before: (.*)", install).group(1)
    included = _between(README, start, end)
    assert "### The first run" in included and "**free cores**" in included
    for page in GUIDE.glob("*.md"):
        text = page.read_text()
        assert "### The first run" not in text, page.name
        assert "about 5 s for the" not in text, page.name
