"""Load test of the study page's server: ``python3 benchmarks/load_server.py``.

Starts ``python -m solver serve --port 0`` (a free loopback port), warms it up, then
runs many clients at once, each on its own connection, sending a seeded mix of solve,
review, deal and bad-input requests.  Every answer is checked against the library's own
answer for the same arguments (computed in this process before the load starts), and
the latency of each request is recorded; the script prints p50 and p95 per kind and
overall (a Markdown table, as in ``benchmarks/README.md``).  The same code, smaller,
is ``tests/test_web_server.py``'s load test.

    python3 benchmarks/load_server.py --clients 16 --requests 2000
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import httpx

import solver
from solver.arena import deal_hands
from solver.display import sort_row
from solver.web.bodies import registered

HANDS = {
    "joker": "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Jk Kd Qc",
    "bonus": "Ah Ad Kh Kd Qs Qc Js Th 9h 8c 7d 6s 5h 4d 3c 2s",
    "classic": "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d",
    "classic:mandarin": "Ah Ad Kc Qs Js 9d 8h 7c 6c 5h 4s 3h 2s",
    "pagat": "Ks Kh Qd Jc Ts 9h 8d 7c 6s 5h 4d 3c 2s",
    "classic:eastern": "As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h",        # a dragon
}
CUTS = {"bonus": "7c"}
FOUL = ("9s 9c Kd", "3d 3c Qh As 2d", "8c 7h 6h 5s 5d")      # the classic hand, fouled


@dataclass(frozen=True)
class Call:
    """One request and the answer the library gives for the same arguments."""
    kind: str               # solve, review, deal, bad
    path: str
    body: dict
    status: int
    answer: dict


@dataclass
class Outcome:
    calls: int = 0
    latencies: dict = field(default_factory=dict)      # kind -> [seconds]
    mismatches: list = field(default_factory=list)     # (call, status, answer or error)
    seconds: float = 0.0


def _error(fn) -> dict:
    try:
        fn()
    except ValueError as e:
        return {"error": " ".join(str(e).split())}
    raise AssertionError("expected a ValueError")


def calls(samples: tuple[int, ...] = (60, 120), seed: int = 0) -> list[Call]:
    """The distinct requests of the mix, each with the library's answer."""
    rng = random.Random(seed)
    out = []
    for rules, hand in HANDS.items():
        cut = CUTS.get(rules)
        n = rng.choice(samples)
        s = rng.randrange(1000)
        body = dict(cards=hand, rules=rules, samples=n, seed=s, top=3)
        if cut:
            body["cut"] = cut
        sol = solver.solve(hand, rules, cut, samples=n, seed=s, top=3)
        out.append(Call("solve", "/api/solve", body, 200, json.loads(sol.to_json())))
        settings = [solver.quick_set(hand, rules, cut)]
        if rules == "classic":
            settings.append(FOUL)
        for setting in settings:
            body = dict(cards=hand, setting=list(setting), rules=rules, samples=n, seed=s)
            if cut:
                body["cut"] = cut
            r = solver.review(hand, setting, rules, cut, samples=n, seed=s)
            out.append(Call("review", "/api/review", body, 200, json.loads(r.to_json())))
    for rules, players in (("joker", None), ("bonus", None), ("pagat", 2), ("classic", 3)):
        rs = solver.rule_set(rules)
        s = rng.randrange(10**6)
        hands, cut = deal_hands(rs, players or rs.max_seats, s, 0)
        answer = dict(rules=rs.name, seed=s, players=players or rs.max_seats, cut=cut,
                      hands=[sort_row(h, group=False) for h in hands])
        out.append(Call("deal", "/api/deal", dict(rules=rules, players=players, seed=s), 200,
                        answer))
    classic = HANDS["classic"]
    bad = [
        (dict(cards="As Kd", rules="classic"), lambda: solver.solve("As Kd", "classic")),
        # (The server's own words: it takes registered names only, never a file.)
        (dict(cards=classic, rules="poker"), lambda: registered("poker")),
        (dict(cards=classic + " Jk", rules="classic"),
         lambda: solver.solve(classic + " Jk", "classic")),
        (dict(cards=HANDS["bonus"], rules="bonus"), lambda: solver.solve(HANDS["bonus"], "bonus")),
        (dict(cards=classic, rules="classic", players=7),
         lambda: solver.solve(classic, "classic", players=7)),
        (dict(cards=classic, rules="classic", samples=0),
         lambda: solver.solve(classic, "classic", samples=0)),
    ]
    for body, fn in bad:
        out.append(Call("bad", "/api/solve", body, 400, _error(fn)))
    setting = "As Kd 9c / 3d 3c Qh 5d 2d / 9s 8c 7h 6h 5h"
    out.append(Call("bad", "/api/review", dict(cards=classic, setting=setting, rules="classic"),
                    400, _error(lambda: solver.review(classic, setting, "classic"))))
    out.append(Call("bad", "/api/review", dict(cards=classic, setting="declare",
                                               rules="classic"),
                    400, _error(lambda: solver.review(classic, "declare", "classic"))))
    return out


def run(url: str, pool: list[Call], clients: int, total: int, seed: int = 1) -> Outcome:
    """``total`` requests drawn (seeded) from ``pool``, sent by ``clients`` threads at
    once, each on its own connection; every answer compared with the library's."""
    rng = random.Random(seed)
    plan = [rng.choice(pool) for _ in range(total)]
    shares = [plan[i::clients] for i in range(clients)]
    outcome = Outcome(calls=total)
    lock = threading.Lock()
    start_line = threading.Barrier(clients)

    def client(share):
        with httpx.Client(base_url=url, timeout=300) as http:
            start_line.wait()
            for call in share:
                started = time.perf_counter()
                try:
                    response = http.post(call.path, json=call.body)
                    status, answer = response.status_code, response.json()
                except Exception as e:            # a lost request is a failure too
                    status, answer = None, repr(e)
                took = time.perf_counter() - started
                with lock:
                    outcome.latencies.setdefault(call.kind, []).append(took)
                    if status != call.status or answer != call.answer:
                        outcome.mismatches.append((call, status, answer))

    threads = [threading.Thread(target=client, args=(share,)) for share in shares]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    outcome.seconds = time.perf_counter() - started
    return outcome


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def table(outcome: Outcome) -> str:
    """p50 / p95 / max per kind and overall, as Markdown."""
    lines = ["| requests | count | p50 | p95 | max |", "|---|---:|---:|---:|---:|"]
    everything = [x for values in outcome.latencies.values() for x in values]
    for kind in ("solve", "review", "deal", "bad"):
        values = outcome.latencies.get(kind, [])
        if values:
            lines.append(f"| {kind} | {len(values)} | {1000 * percentile(values, 50):.0f} ms | "
                         f"{1000 * percentile(values, 95):.0f} ms | {1000 * max(values):.0f} ms |")
    lines.append(f"| all | {len(everything)} | {1000 * percentile(everything, 50):.0f} ms | "
                 f"{1000 * percentile(everything, 95):.0f} ms | {1000 * max(everything):.0f} ms |")
    return "\n".join(lines)


@contextlib.contextmanager
def serving(*options: str):
    """``python -m solver serve --port 0 OPTIONS`` in a subprocess: yields its URL, and
    stops it afterwards."""
    env = dict(os.environ, SOLVER_QUIET="1")
    process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", "0",
                                *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)
    try:
        line = process.stdout.readline()
        url = re.search(r"http://\S+", line)
        if not url:
            raise RuntimeError(f"the server did not start: {line!r} {process.stderr.read()!r}")
        yield url.group(0)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def warm_up(url: str, pool: list[Call]) -> None:
    """One request of each kind first: a new server process loads the compiled kernels
    (or compiles them) on its first solve, which is not what is measured."""
    with httpx.Client(base_url=url, timeout=300) as http:
        for call in {c.kind: c for c in pool}.values():
            http.post(call.path, json=call.body)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--samples", type=int, nargs="+", default=[100, 200, 500],
                        help="the samples a solve or review asks for (one drawn a request)")
    args = parser.parse_args(argv)
    pool = calls(tuple(args.samples))
    with serving("--max-samples", str(max(args.samples))) as url:
        warm_up(url, pool)
        outcome = run(url, pool, args.clients, args.requests)
        with httpx.Client(base_url=url) as http:
            up = http.get("/api/status").status_code == 200
    print(f"{outcome.calls} requests from {args.clients} clients in {outcome.seconds:.1f} s "
          f"({outcome.calls / outcome.seconds:.1f} a second); samples {args.samples}; "
          f"{len(outcome.mismatches)} answers differing from the library's; server up "
          f"afterwards: {up}")
    print(table(outcome))
    return 0 if not outcome.mismatches and up else 1


if __name__ == "__main__":
    raise SystemExit(main())
