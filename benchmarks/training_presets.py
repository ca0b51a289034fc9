"""What each training preset of solver.training costs in time and in strength.

    python3 benchmarks/training_presets.py --rules classic --change foul_penalty=6 \\
        --players 2 --hands 100 --deals 8192

Takes a built-in rule set with one or more fields changed (``--change``; a rule set no
shipped model fits, named ``<rules>-test``), trains its model with each preset into a
fresh cache folder of its own (the kernels compiled beforehand, so the time is the
self-play's), then measures each model's exploitability (:func:`solver.exploitability`,
the same hands and deals for every preset).  Where the change does not alter the game the
model plays (a foul penalty: the model never fouls), the default preset must rebuild the
shipped model of the rule set exactly, which it checks.
"""
import argparse
import ast
import dataclasses
import os
import tempfile
import time

import numpy as np

import solver
import solver.model
import solver.training as training
from solver.model import load_fields, model_file, model_seats
from solver.policy_training import self_play


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="classic")
    p.add_argument("--change", nargs="+", default=["foul_penalty=6"], metavar="FIELD=VALUE")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--deals", type=int, default=8192)
    p.add_argument("--presets", nargs="+", default=["quick", "default"])
    args = p.parse_args()
    base = solver.rule_set(args.rules)
    changes = {k: ast.literal_eval(v) for k, v in (c.split("=", 1) for c in args.change)}
    rs = dataclasses.replace(base, name=f"{base.name}-test", **changes)
    self_play(rs, args.players, rounds=1, deals=200)               # compile first
    print(f"{rs.name} ({', '.join(args.change)}), {args.players} players; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    for preset in args.presets:
        with tempfile.TemporaryDirectory() as folder:
            os.environ["SOLVER_CACHE_DIR"] = folder
            solver.model._shipped_model.cache_clear()
            start = time.perf_counter()
            got = training._obtain(rs, args.players, preset, False)
            seconds = time.perf_counter() - start
            same = ""
            shipped = model_file(base, model_seats(base, args.players))
            if shipped.exists():
                fields = load_fields(shipped)
                same = ", the shipped model exactly" if all(
                    np.array_equal(a, b) for r in fields
                    for a, b in zip(fields[r].values + fields[r].weights,
                                    got.model.fields[r].values + got.model.fields[r].weights)
                ) else ", not the shipped model"
            e = solver.exploitability(rs, args.players, hands=args.hands, deals=args.deals,
                                      progress=False)
            p_ = training.PRESETS[preset]
            print(f"| {preset} | {p_.rounds} x {p_.deals:,} | {seconds:.0f} s | {e.mean:+.4f} "
                  f"| [{e.ci95[0]:+.4f}, {e.ci95[1]:+.4f}] | {e.hands} x {e.deals:,} "
                  f"| load {os.getloadavg()[0]:.1f}{same} |", flush=True)


if __name__ == "__main__":
    main()
