"""The study page: a local web page over the solver, ``python -m solver serve``.

Set a hand by clicking, solve it, and grade your own setting; practise (a session's
tally kept in the browser, exported as a hand-history file) or play a seeded match
against the library's settings (:mod:`solver.web.play`, settled by ``solver.settle``).
The page
(``static/``: hand-written HTML, CSS and JavaScript, nothing fetched from elsewhere)
calls a small JSON API whose answers are the library's own: ``solver.solve(...)
.to_dict()``, ``solver.review(...).to_dict()``, the deal of ``python -m solver deal``.
It sits on top of the package, beside ``__main__.py``; nothing else in ``solver``
imports it.  Needs the ``web`` extra (FastAPI and uvicorn): ``pip install -e ".[web]"``.

:func:`create_app` makes the ASGI application; :func:`serve` runs it with uvicorn.
"""
from .app import Limits, create_app, serve

__all__ = ["Limits", "create_app", "serve"]
