"""The study page: a local web page over the solver, ``python -m solver serve``.

Set a hand by clicking, solve it, and grade your own setting; practise (a session's
tally kept in the browser, exported as a hand-history file) or play a seeded match
against the library's settings (:mod:`solver.web.play`, settled by ``solver.settle``).
The page (``static/``: hand-written HTML, CSS and JavaScript, nothing fetched from
elsewhere) calls a small JSON API whose answers are the library's own: ``solver.solve(...)
.to_dict()``, ``solver.review(...).to_dict()``, the deal of ``python -m solver deal``.
It sits on top of the package, beside ``__main__.py``; nothing else in ``solver``
imports it.  Needs the ``web`` extra (FastAPI and uvicorn): ``pip install -e ".[web]"``.

:func:`create_app` makes the ASGI application; :func:`serve` runs it with uvicorn.

Its modules, each one room (a module imports only those above it):

===============  ==========================================================================
``errors``       What goes wrong, said in one bounded line: error answers and log lines.
``play``         The Practice and Match tabs: your hand of a seeded deal, its showdown.
``bodies``       What each POST takes (pydantic models): ``rules`` only a registered rule
                 set's name, a file only as ``rules_file`` text; a bad body in one line.
``guard``        The door every request passes first: Host and Origin (403), JSON only
                 (415), body size (413) and depth (400), HEAD, security headers, and a
                 bounded 500 for whatever the API did not foresee.
``workers``      The worker processes that solve, review, play showdowns and train, and
                 how a request waits for one (time limit, client gone).
``trainings``    Training a rules file's opponent model: progress and its time estimate,
                 cancel, and the cap on the trained models kept on disk.
``app``          The API's routes (:func:`create_app`), the rule sets the page offers
                 (``PAGE_RULE_SETS``) and how each is described, the :class:`Limits`.
``server``       :func:`serve`: the socket, the warning off loopback, uvicorn's protocol
                 (408 for half a request).
===============  ==========================================================================

What the server refuses, and why, is docs/serving-safely.md.
"""
from .app import Limits, create_app
from .guard import Served
from .server import serve

__all__ = ["Limits", "Served", "create_app", "serve"]
