"""Save a setter's settings of a match's deals, to replay them later as the setter
``saved:FILE`` of :mod:`solver.arena` (the same settings, without the code that made them).

Run it in a checkout of the commit whose settings are wanted -- it uses nothing but
``solver.solve`` and the arena's deals and seeds, which every commit since the arena
has -- for the deals of a match with the same rule set, seats, deals and seed::

    python3 benchmarks/save_settings.py --rules classic --players 2 --deals 2000 \\
        --out benchmarks/results/settings-6935e82-classic-2.json

It saves the settings of side B (the second setter of ``match``), the side whose seeds
the replay will be asked for.  ``--samples`` is passed to ``solve`` (1000 was the
default before adaptive sampling; ``--samples default`` passes none: the default of the
commit at hand); ``--workers`` spreads the deals over processes.
"""
import argparse
import concurrent.futures
import json
import subprocess
import sys
from pathlib import Path

import solver
from solver.arena import _setter_seed, deal_hands

SIDE_B = 1


def _deal_settings(args):
    rules, players, seed, index, samples = args
    rs = solver.rule_set(rules)
    hands, cut = deal_hands(rs, players, seed, index)
    out = []
    for h, hand in enumerate(hands):
        setter_seed = _setter_seed(seed, index, h, SIDE_B)
        sol = solver.solve(hand, rs, cut, samples=samples, seed=setter_seed, players=players,
                           top=0, holdout=0)
        rows = [sol.front, sol.middle, sol.back] + (["declare"] if sol.declare else [])
        out.append({"cards": hand, "seed": setter_seed, "rows": rows})
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", required=True)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--deals", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--samples", type=lambda x: None if x == "default" else int(x), default=1000,
                   help="deals a solve, or 'default' (the adaptive default of that commit)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    jobs = [(a.rules, a.players, a.seed, i, a.samples) for i in range(a.deals)]
    with concurrent.futures.ProcessPoolExecutor(a.workers) as pool:
        settings = [s for deal in pool.map(_deal_settings, jobs, chunksize=8) for s in deal]
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                            cwd=Path(solver.__file__).parent).stdout.strip()
    meta = {"commit": commit, "rules": a.rules, "players": a.players, "deals": a.deals,
            "seed": a.seed, "samples": a.samples, "command": " ".join(sys.argv)}
    Path(a.out).write_text(json.dumps({"meta": meta, "settings": settings}))
    print(f"{len(settings)} settings of {a.deals} deals -> {a.out}")


if __name__ == "__main__":
    main()
