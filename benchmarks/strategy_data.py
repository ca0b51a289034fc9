"""The figures notebooks/strategy.ipynb plots, made through the public arena:

    python3 benchmarks/strategy_data.py training --deals 600 --workers 2 \\
        --json benchmarks/results/strategy-training.json
    python3 benchmarks/strategy_data.py round-robin --deals 2000 --workers 2 \\
        --json benchmarks/results/strategy-round-robin.json

``training``: the self-play of the shipped heads-up ``classic`` model (12 rounds of 20,000
deals, seed 0: ``python -m solver.policy_training``'s configuration), and after each
round the exploitability of the model it has then -- what ``solve`` with that model as
its opponent model (``--samples`` deals) wins from the model's own settings, on
``--deals`` duplicate deals.  ``round-robin``: ``quick_set``, ``solve`` at two budgets,
the previous model (``field``) and strongest-back-first, each against each, heads-up
``classic`` on the same duplicate deals.
"""
import argparse
import itertools
import json
import time

from solver.arena import exploitability, match
from solver.policy_training import DEALS, ROUNDS, self_play

ROUND_ROBIN = ["model", "solve", "solve:samples=4000", "field", "sbf"]


def training(args):
    models = []
    self_play("classic", 2, rounds=ROUNDS, deals=DEALS, seed=0,
              each_round=lambda r, model: models.append((r, model)))
    out = []
    for r, model in models:
        start = time.perf_counter()
        result = exploitability(model, "classic", 2, deals=args.deals, samples=args.samples,
                                seed=args.seed, workers=args.workers, progress=False)
        lo, hi = result.ci95
        print(f"round {r:2d}: {result.mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        out.append(dict(round=r, **result.to_dict()))
    return out


def round_robin(args):
    out = []
    for a, b in itertools.combinations(args.setters or ROUND_ROBIN, 2):
        start = time.perf_counter()
        result = match(a, b, "classic", players=2, deals=args.deals, seed=args.seed,
                       workers=args.workers, progress=False)
        lo, hi = result.ci95
        print(f"{a} vs {b}: {result.mean:+.4f} [{lo:+.4f}, {hi:+.4f}] "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        out.append(result.to_dict())
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["training", "round-robin"])
    p.add_argument("--deals", type=int, default=600)
    p.add_argument("--samples", type=int, default=1000, help="training: the best response's")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--setters", nargs="*", default=None, help="round-robin's setters")
    p.add_argument("--json", required=True)
    args = p.parse_args()
    results = training(args) if args.what == "training" else round_robin(args)
    with open(args.json, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
