"""The study page's API: :func:`create_app` and its routes, the rule sets the page offers
(:data:`PAGE_RULE_SETS`) and how each is described to it (:func:`_rule_set_info`), and
what a request may cost (:class:`Limits`).

Endpoints (JSON; the schema is at ``/api/openapi.json``):

* ``GET /api/rules`` -- the rule sets the page offers, each with its deck as card texts
  (the second spade set and the jokers included), the players it allows and whether it
  needs a cut card; and this server's limits.
* ``POST /api/solve`` -- ``solver.solve(cards, rules, cut, samples=, seed=, players=,
  top=).to_dict()``.
* ``POST /api/review`` -- ``solver.review(cards, setting, rules, cut, samples=, seed=,
  players=).to_dict()``.
* ``POST /api/rules/file`` -- ``{"text": ...}``: the rule set of a rule-set file's text
  (docs/rule-files.md), described as ``/api/rules`` describes one; ``/api/solve``,
  ``/api/review``, ``/api/deal`` and ``/api/rules/train`` play under such a file's rule
  set when their body carries its text as ``rules_file``.  ``rules`` is always a
  registered rule set's name (:mod:`solver.web.bodies`): the server reads no file a
  client names.
* ``POST /api/rules/train`` -- ``{"rules": ..., "rules_file": ..., "players": ...}``: the
  opponent model a solve under that rule set needs (:func:`solver.train_model`): ``state``
  ``"ready"`` when there is one, else its training, started in a process of its own if not
  under way already (one training per model at once), with its progress: deals ``done``
  of ``total``, ``seconds`` so far and an estimate of those ``remaining``.  ``GET
  /api/rules/train/{id}`` -- that progress again, for the page to poll.  ``DELETE
  /api/rules/train/{id}`` -- cancel that training: stopped within about a second, nothing
  of it kept, state ``"cancelled"`` (409 when it is not under way).  A solve or review
  under a rules file whose model is not trained yet starts its training too, and is
  answered 503 with the progress as ``training``.  The server keeps at most
  ``max_models`` models it trained on disk, the least recently used deleted first
  (:mod:`solver.web.trainings` says which models count; never a shipped one).
* ``POST /api/cards`` -- ``{"cards": solver.format_cards(text).split()}``: the page's
  paste box, read by the library (every notation the command line takes).
* ``POST /api/deal`` -- a random deal, as ``python -m solver deal --json`` gives it (a
  random seed when none is given; the answer says which).
* ``POST /api/match/deal``, ``POST /api/match/showdown`` -- the Practice and Match
  tabs: your hand of a seeded deal, and that deal played against the library's settings
  and settled (:mod:`solver.web.play`).
* ``GET /api/status`` -- requests at work and waiting for a worker, and whether (and for
  how long) a first request has been compiling the solver's kernels: the page polls it
  while it waits.

``HEAD`` on a GET endpoint answers as ``GET`` does, without the body.  Bad input --
anything the library refuses with a ``ValueError``, a body that is not the JSON the
endpoint takes -- is answered with HTTP 400 and ``{"error": message}``, one plain line,
the library's own message where it is the library's; every other HTTP error is JSON too.
Before any endpoint, the guard (:mod:`solver.web.guard`) refuses a ``Host`` that is not
the address served and an ``Origin`` that is not the page's own (403), a POST without
``Content-Type: application/json`` (415), a body over ``max_body`` bytes (413) or nested
too deeply (400); half-sent requests get 408 after :data:`solver.web.server.READ_TIMEOUT`
seconds.  Limits: at most ``max_samples`` sampled deals (400 for ``samples=`` above it; a
solve without ``samples`` samples adaptively up to it), and ``timeout`` seconds a
request, waiting for a worker included and compiling the kernels on a first request
aside (504).  Solves and reviews run in worker processes (:mod:`solver.web.workers`,
``workers`` of them, started as needed), off the event loop, so a solve never holds up
another browser's requests; a request whose time is up, or whose client has gone, has
its worker killed and replaced, so no work goes on that no one will read.  Every other
endpoint that reads or builds anything runs in a thread, never on the event loop.

The web layer calls what the command line calls (``solver.solve``, ``solver.review``,
``solver.sampling.deal_hands``, ``solver.display.sort_row``) and nothing below imports it.
"""
from __future__ import annotations

import contextlib
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

import solver
from . import play
from .._checks import check_int
from ..cards import card_name, deck_codes
from ..display import foul_text, home_runs_count, scoop_meaning, scoop_word, sort_row
from ..sampling import RANDOM_SEEDS, deal_hands, first_batch
from ..solve import EFFORTS, POOLED_FAST
from .bodies import (DEFAULT_SAMPLES, CardsRequest, DealRequest, MatchDealRequest,
                     ReviewRequest, RulesFileRequest, ShowdownRequest, SolveRequest,
                     TrainRequest, rule_set_from_text, rules_of, validation_message)
from .errors import error_response, one_line
from .guard import Guard, Served
from .trainings import MAX_MODELS, NotTrained, Trainings, model_ready
from .workers import Workers, in_a_worker

STATIC = Path(__file__).resolve().parent / "static"
# The rule sets the page offers ("classic:western" is another name for "classic").
PAGE_RULE_SETS = ("joker", "bonus", "pagat", "classic", "classic:eastern", "classic:mandarin",
                  "classic-1-6", "two-jokers", "shisanshui", "mau-binh", "capsa-susun", "pusoy")


@dataclass(frozen=True)
class Limits:
    """What one request may cost: ``max_samples`` sampled deals, ``timeout`` seconds
    (waiting for a worker included; compiling the kernels on a first request is not
    counted), a body of ``max_body`` bytes; at most ``workers`` worker processes solve;
    at most ``max_models`` models trained by the server are kept on disk."""
    max_samples: int = 4000
    timeout: float = 60.0
    max_body: int = 64 * 1024
    workers: int = 4          # a long request does not hold up the others (side by side,
    #                           each kernel runs on one thread: no oversubscription)
    max_models: int = MAX_MODELS

    def __post_init__(self):
        check_int("max_samples", self.max_samples, 1)
        check_int("max_body", self.max_body, 256)
        check_int("workers", self.workers, 1)
        check_int("max_models", self.max_models, 1)
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) \
                or not self.timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, not "
                             f"{self.timeout!r}")


class _State:
    """What the app keeps between requests: its limits, its worker processes (and the
    requests at work and waiting for one), its trainings."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.workers = Workers(limits.workers)
        self.trainings = Trainings(limits.max_models)


def create_app(limits: Limits = Limits(), served: Served = Served()) -> FastAPI:
    """The study page's ASGI application (FastAPI), with these ``limits``, answering
    requests whose ``Host`` names ``served`` (by default 127.0.0.1, ``localhost`` or
    ``[::1]`` on any port: :class:`solver.web.guard.Served`)."""
    state = _State(limits)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        state.workers.start()          # ready for the first request
        yield
        state.workers.close()          # the server is stopping: its work with it
        state.trainings.close()

    app = FastAPI(title="Chinese Poker study page", version=solver.__version__,
                  lifespan=lifespan,
                  description="The solver's JSON API: the answers are solver.solve(...)"
                              ".to_dict() and solver.review(...).to_dict().",
                  docs_url=None, redoc_url=None,      # their pages load scripts from a CDN
                  openapi_url="/api/openapi.json")
    app.state.solver = state

    @app.exception_handler(ValueError)
    async def bad_input(request: Request, exc: ValueError):
        return error_response(400, exc)

    @app.exception_handler(ValidationError)       # (a body checked again, in our words)
    async def bad_value(request: Request, exc: ValidationError):
        return error_response(400, validation_message(exc.errors()))

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError):
        return error_response(400, validation_message(exc.errors()))

    @app.exception_handler(NotTrained)
    async def not_trained(request: Request, exc: NotTrained):
        status = exc.status
        progress = (f"deal {status['done']:,} of {status['total']:,}" if status["total"]
                    else "starting")
        return JSONResponse({"error": one_line(
            f"the opponent model of {status['rules']} ({status['players']} players) is "
            f"being trained ({progress}); ask again when GET /api/rules/train/{status['id']} "
            f"says ready"), "training": status}, 503, headers={"Retry-After": "5"})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        detail = exc.detail
        method = "HEAD" if request.scope.get("solver_head") else request.method
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such page: {request.url.path}"
        elif exc.status_code == 405:
            detail = f"{method} is not allowed on {request.url.path}"
        return error_response(exc.status_code, detail, headers=exc.headers)

    @app.get("/api/rules", summary="the rule sets, their decks, and this server's limits")
    def rules() -> dict:
        return dict(rule_sets=[_rule_set_info(name) for name in PAGE_RULE_SETS],
                    default_samples=DEFAULT_SAMPLES, max_samples=limits.max_samples,
                    timeout=limits.timeout, version=solver.__version__)

    @app.post("/api/solve", summary="solver.solve(...).to_dict()")
    async def solve(body: SolveRequest, request: Request) -> dict:
        rs = await run_in_threadpool(rules_of, body)
        sampling = _solve_sampling(rs, body.players, body.samples, body.effort,
                                   limits.max_samples)
        await model_ready(state.trainings, body, rs)
        answer = await in_a_worker(state.workers, request, limits.timeout, "solve",
                                   body.cards, rs, body.cut, seed=body.seed,
                                   players=body.players, top=body.top, **sampling)
        if "precision" in sampling:        # capped here: at the effort asked for
            answer["effort"] = body.effort or answer.get("effort")
        return answer

    @app.post("/api/review", summary="solver.review(...).to_dict()")
    async def review(body: ReviewRequest, request: Request) -> dict:
        rs = await run_in_threadpool(rules_of, body)
        await model_ready(state.trainings, body, rs)
        return await in_a_worker(state.workers, request, limits.timeout, "review",
                                 body.cards, body.setting, rs, body.cut,
                                 samples=_samples(body.samples, limits.max_samples,
                                                  DEFAULT_SAMPLES),
                                 seed=body.seed, players=body.players)

    @app.post("/api/cards", summary="card texts read as the library reads them")
    def cards(body: CardsRequest) -> dict:
        return dict(cards=solver.format_cards(body.cards).split())

    @app.post("/api/deal", summary="a random deal (python3 -m solver deal --json)")
    def deal(body: DealRequest) -> dict:
        return _deal(rules_of(body), body.players, body.seed)

    @app.post("/api/rules/file", summary="a rule-set file's rule set, as /api/rules gives one")
    def rules_file(body: RulesFileRequest) -> dict:
        return _rule_set_info(rule_set_from_text(body.text))

    @app.post("/api/rules/train", summary="the opponent model of a rule set: ready, or its "
                                          "training (started if not under way) and progress")
    async def train(body: TrainRequest) -> dict:
        return await state.trainings.ensure(await run_in_threadpool(rules_of, body),
                                            body.players)

    @app.get("/api/rules/train/{id}", summary="a training's progress")
    async def training(id: str) -> dict:
        return state.trainings.status(id)

    @app.delete("/api/rules/train/{id}", summary="cancel a training under way")
    async def cancel_training(id: str) -> dict:
        return await state.trainings.cancel(id)

    @app.post("/api/match/deal", summary="your hand of a seeded deal (Practice, Match)")
    def match_deal(body: MatchDealRequest) -> dict:
        return play.match_deal(rules_of(body), body.players, body.seed, body.index)

    @app.post("/api/match/showdown", summary="a match deal played and settled "
                                             "(solver.settle(..., detail=True))")
    async def match_showdown(body: ShowdownRequest, request: Request) -> dict:
        rs = rules_of(body)
        options = None
        if body.opponents in EFFORTS:       # their solves within this server's limit
            sampling = _solve_sampling(rs, body.players, None, body.opponents,
                                       limits.max_samples)
            options = sampling if "precision" in sampling else dict(effort=body.opponents)
        return await in_a_worker(state.workers, request, limits.timeout, "showdown", rs,
                                 body.players, body.seed, body.index, body.setting,
                                 body.opponents, options)

    @app.get("/api/status", summary="requests at work and waiting; kernels compiling, and "
                                    "for how long")
    async def status() -> dict:
        since = state.workers.compiling_since()
        return dict(busy=state.workers.busy, waiting=state.workers.waiting,
                    compiling=since is not None,
                    compiling_for=None if since is None else max(0.0, time.time() - since))

    @app.get("/", include_in_schema=False)
    async def page():
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Outermost of the app's own, so that no part of it reads more than the limit.
    app.add_middleware(Guard, max_body=limits.max_body, served=served)
    return app


def _samples(samples: Optional[int], max_samples: int, default: Optional[int] = None):
    """The samples a request asks for, within the server's limit (None: ``default``)."""
    if samples is None:
        return None if default is None else min(default, max_samples)
    if samples > max_samples:
        raise ValueError(f"samples={samples}: this server takes at most {max_samples} "
                         f"(its --max-samples)")
    return samples


def _solve_sampling(rs: "solver.RuleSet", players: Optional[int], samples: Optional[int],
                    effort: Optional[str], max_samples: int) -> dict:
    """A solve's sampling arguments within the server's limit.  ``samples=N`` above it is
    refused; adaptive sampling (no ``samples``, either ``effort``) whose cap would pass
    it runs to at most ``max_samples`` deals, at the effort's precision (its held-out
    deals are a quarter of those, at least 64 opponent hands' worth, as always).  What
    the library would refuse is passed on as it is, for the library's own message."""
    if samples is not None:
        return dict(samples=_samples(samples, max_samples), effort=effort)
    asked = effort
    effort = "fast" if effort is None else effort
    seats = rs.max_seats if players is None else players
    if effort not in EFFORTS or seats not in rs.seats or rs.cards_dealt not in \
            EFFORTS[effort]["hands"]:
        return dict(effort=asked)
    cap = max(first_batch(seats), EFFORTS[effort]["hands"][rs.cards_dealt] // (seats - 1))
    if seats == 2 and effort == "fast":
        cap = max(cap, POOLED_FAST["samples"])      # heads-up deals from the pool
    if cap <= max_samples:
        return dict(effort=asked)
    return dict(samples=max_samples,
                precision=EFFORTS[effort]["precision"][rs.cards_dealt] * (seats - 1),
                effort=None)


def _rule_set_info(rules: "str | solver.RuleSet") -> dict:
    """How ``/api/rules`` describes a rule set to the page, every fact read from its
    fields: ``scoops`` / ``shots`` (what scooping an opponent is called where it scores:
    :func:`solver.display.scoop_word`), ``scoop_means``, ``home_runs_from`` (the seats a
    home run counts from, None where it scores nothing more), ``fouls``."""
    rs = solver.rule_set(rules)
    return dict(summary=rs.summary(),
        name=rs.name, deck=[card_name(c) for c in deck_codes(rs)], spade_sets=rs.spade_copies,
        jokers=rs.jokers, cards_dealt=rs.cards_dealt, cards_kept=rs.cards_kept,
        players=list(rs.seats), cut_card=rs.cut_card,
        automatic_wins=list(rs.automatic_wins), scoops=scoop_word(rs) == "scoop",
        shots=scoop_word(rs) == "shot", scoop_means=scoop_meaning(rs),
        home_runs_from=rs.home_run_min_seats if home_runs_count(rs) else None,
        bonus_hands=any(any(row) for row in rs.row_bonus),
        fouls=foul_text(rs),
        docs=f"docs/rules.md#{rs.name.split(':')[0]}" if rs.name in PAGE_RULE_SETS
        else "docs/rule-files.md")


def _deal(rs: "solver.RuleSet", players: Optional[int], seed: Optional[int]) -> dict:
    """A random deal, as ``python -m solver deal --json`` prints it (and the players)."""
    seed = secrets.randbelow(RANDOM_SEEDS) if seed is None else check_int("seed", seed, 0)
    players = rs.max_seats if players is None else players
    if players not in rs.seats:
        raise ValueError(f"the {rs.name} rule set plays with "
                         f"{' or '.join(map(str, rs.seats))} players, not {players}")
    hands, cut = deal_hands(rs, players, seed, 0)
    return dict(rules=rs.name, seed=seed, players=players, cut=cut,
                hands=[sort_row(h, group=False) for h in hands])
