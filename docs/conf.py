"""Sphinx configuration of the docs site.

Build it (offline, warnings as errors) from the repository's root:

    python3 -m pip install -e ".[docs]"
    python3 -m sphinx -W --keep-going -b html docs docs/_build/html
"""
import importlib.util
import os
import re
import sys

# The package is imported from this checkout, installed or not, so autodoc reads the
# docstrings of the sources beside this file.
sys.path.insert(0, os.path.abspath(".."))

import solver  # noqa: E402  (after the path above)

project = "solver"
author = "Seed e83bcc0e maintainers"
copyright = "the solver maintainers (MIT licence)"
release = version = solver.__version__

extensions = [
    "myst_parser",            # the pages are Markdown
    "sphinx.ext.autodoc",     # the API reference, from the docstrings
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "README.md"]

# rules.md and georgian.md link to their own sections (#overview, #the-ladder ...): MyST
# gives headings of levels 1-3 those GitHub-style anchors.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "html_image"]   # <img> tags, images copied

autodoc_member_order = "bysource"
autodoc_typehints = "description"
# Types only for the parameters a docstring describes: else every field of a dataclass
# (Solution, Review) was listed twice, once as a parameter with its type alone and once
# as the attribute its docstring describes, and "a, b: ..." items got empty entries too.
autodoc_typehints_description_target = "documented"
autodoc_default_options = {"members": True, "undoc-members": False}

# furo if it is installed (the docs extra brings it), else Sphinx's own theme.
html_theme = "furo" if importlib.util.find_spec("furo") else "alabaster"
html_title = f"solver {release}"


# The docstrings' sections are written for a reader of the source: a "Parameters" or
# "Attributes" heading underlined with dashes, then one "name: what it is" line per item
# (continued by indented lines), e.g. solver.solve and solver.RuleSet.  Napoleon would
# read "name: text" as "name : type"; this turns each item into a ":param name:" (or
# ":ivar name:") field instead, so the page reads as the source does.
SECTION = re.compile(r"^(Parameters|Attributes)$")
ITEM = re.compile(r"^([A-Za-z_]\w*(?:, [A-Za-z_]\w*)*): (.*)$")   # "name: ..." or "a, b: ..."


def fields_from_sections(app, what, name, obj, options, lines):
    out, in_section, i = [], False, 0
    while i < len(lines):
        line = lines[i]
        if SECTION.match(line) and i + 1 < len(lines) and set(lines[i + 1]) == {"-"}:
            role = "param" if line == "Parameters" else "ivar"
            in_section, i = True, i + 2
            continue
        item = ITEM.match(line) if in_section else None
        if item:
            names, text = item.groups()
            # "a, b: ..." (two names, one text) stays a plain field of that title.
            out.append(f":{names}: {text}" if "," in names else f":{role} {names}: {text}")
        else:
            # A paragraph at the margin after a blank line ends the section.
            if in_section and line and not line[0].isspace() and out and out[-1] == "":
                in_section = False
            out.append(line)
        i += 1
    lines[:] = out


# Files of the repository outside docs/ are included into pages of the site: the benchmark
# report (benchmarks/README.md) whole (docs/benchmarks.md), and the README's set-up and
# first run (docs/guide/install.md, docs/guide/reading-a-solution.md), so that each is
# written once.  Their links are written for a reader of the repository: relative to their
# own folder.  A link to a page of this site becomes that page's, relative to the page that
# includes it; a link to any other file of the repository (a results file, a script, the
# README), which the site does not hold, becomes its text and the file's path, so an
# included file's links never break the build.
DOCS = os.path.dirname(os.path.abspath(__file__))
LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)")


def site_links(app, relative_path, parent_docname, content):
    folder = os.path.dirname(os.path.normpath(os.path.join(DOCS, relative_path)))
    # MyST names the including page by its file's stem alone ("install"), so its folder
    # comes from the page being read.
    including = os.path.dirname(app.env.docname if app else parent_docname)
    if os.path.commonpath([folder, DOCS]) == DOCS:
        return                                  # a file of the site: its links are the site's

    def link(match):
        text, target = match.groups()
        if target.startswith("#") or re.match(r"[a-z][a-z0-9+.-]*:", target):
            return match.group(0)               # an anchor of the page, or a URL
        path, _, anchor = target.partition("#")
        file = os.path.normpath(os.path.join(folder, path))
        if os.path.commonpath([file, DOCS]) == DOCS and file.endswith(".md"):
            page = os.path.relpath(file, os.path.join(DOCS, including))
            return f"[{text}]({page}{'#' * bool(anchor)}{anchor})"
        return f"{text} (`{os.path.relpath(file, os.path.dirname(DOCS))}`)"

    content[0] = LINK.sub(link, content[0])


# The docstrings name pages of the docs by their path in the repository, as a reader of
# the source sees them ("docs/rules.md#scoring"); on the site each such path is a link
# to that page (and section), relative to the page the docstring is shown on.  A path
# to a file the site does not hold stays text.
DOC_PATH = re.compile(r"(?<![\w/.`<-])docs/((?:[\w-]+/)*[\w-]+)\.md(?:#([\w-]+))?")


def doc_path_links(app, what, name, obj, options, lines):
    here = os.path.dirname(app.env.docname) if app else ""

    def link(match):
        page, anchor = match.groups()
        if not os.path.isfile(os.path.join(DOCS, page + ".md")):
            return match.group(0)
        target = os.path.relpath(page, here or ".") + ".html" + (f"#{anchor}" if anchor else "")
        return f"`{match.group(0)} <{target}>`__"

    lines[:] = [DOC_PATH.sub(link, line) for line in lines]


def setup(app):
    app.connect("autodoc-process-docstring", fields_from_sections)
    app.connect("autodoc-process-docstring", doc_path_links)
    app.connect("include-read", site_links)
