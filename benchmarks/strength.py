"""Play-strength figures: duplicate-deal matches through the public arena API.

    python3 benchmarks/strength.py models  [--deals 2000] [--workers 2]
    python3 benchmarks/strength.py exploitability [--deals 1000] [--policies table field]
    python3 benchmarks/strength.py solve   [--deals ...]
    python3 benchmarks/strength.py defaults --saved-dir benchmarks/results [--deals ...]
    python3 benchmarks/strength.py vs-model [--rules classic:2 joker:4 ...] [--deals ...]
    python3 benchmarks/strength.py curve [--setters solve solve:samples=1000 ...]

``models``: the default model's own setting (``quick_set``) against the previous model
and against strongest-back-first, in every rule set and seat count.  ``exploitability``:
what the best response (``solve`` with the policy as its opponent model, 1000 samples)
wins from a policy, heads-up ``classic`` by default.  ``solve``: ``solve`` with the new
model against ``solve`` with the previous one.  ``defaults``: today's default ``solve``
against the settings the default made before adaptive sampling (1000 deals), saved at
commit 6935e82 by ``benchmarks/save_settings.py`` and replayed (``saved:FILE``).
``vs-model``: the default ``solve`` against ``quick_set``, the model it best-responds
to.  ``curve``: ``solve`` at several budgets against ``quick_set`` heads-up, with each
side's time a hand: what the edge costs.  Each line prints the arena's own summary
(units a hand for the first setter, 95% CI over deals); ``--json FILE`` keeps them all.
Every figure is reproducible: the deals and the setters' seeds come from ``--seed``.
"""
import argparse
import json
import time

from solver.arena import exploitability, match

CONFIGS = [("joker", 4), ("bonus", 4), ("pagat", 2), ("pagat", 3), ("pagat", 4),
           ("classic", 2), ("classic", 3), ("classic", 4), ("classic:eastern", 2),
           ("classic:eastern", 3), ("classic:eastern", 4), ("classic:mandarin", 2),
           ("classic:mandarin", 3), ("classic:mandarin", 4)]


# What the edge over the model costs: solve at each budget (default, exactly N deals,
# the "max" effort) against quick_set.
CURVE = ["solve", "solve:samples=1000", "solve:samples=4000", "solve:samples=16000",
         "solve:samples=64000", "solve:effort=max"]


def _row(result, seconds):
    lo, hi = result.ci95
    return (f"| {result.a} vs {result.b} | `{result.rules}` | {result.players} | {result.layout} "
            f"| {result.deals} | {result.mean:+.4f} | [{lo:+.4f}, {hi:+.4f}] "
            f"| {1000 * result.seconds_per_hand['a']['median']:.1f} | {seconds:.0f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["models", "exploitability", "solve", "defaults",
                                         "vs-model", "curve"])
    parser.add_argument("--saved-dir", default="benchmarks/results",
                        help="defaults: where settings-6935e82-RULES-SEATS.json are")
    parser.add_argument("--layout", default=None, help="vs-model with 4 seats")
    parser.add_argument("--setters", nargs="*", default=None,
                        help="curve: the solve setters (default: the budgets of CURVE)")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", nargs="*", default=None, help="e.g. classic:2 joker:4")
    parser.add_argument("--policies", nargs="*", default=["table", "field"])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    configs = CONFIGS
    if args.rules:
        configs = [(r, int(s)) for r, s in (x.rsplit(":", 1) for x in args.rules)]
    results = []
    print("| match | rules | seats | layout | deals | units a hand (A) | 95% CI | ms a hand (A) "
          "| time |")
    print("|---|---|---:|---|---:|---:|---|---:|---:|")

    def run(fn, *a, **kw):
        start = time.perf_counter()
        result = fn(*a, **kw)
        print(_row(result, time.perf_counter() - start), flush=True)
        results.append(result.to_dict())

    if args.what == "models":
        for rules, seats in configs:
            for other in ("field", "sbf"):
                run(match, "model", other, rules, players=seats, deals=args.deals or 2000,
                    seed=args.seed, workers=args.workers, progress=False)
    elif args.what == "exploitability":
        for rules, seats in (configs if args.rules else [("classic", 2)]):
            for policy in args.policies:
                run(exploitability, policy, rules, seats, deals=args.deals or 1000,
                    samples=args.samples, seed=args.seed, workers=args.workers,
                    progress=False)
    elif args.what == "defaults":
        for rules, seats in (configs if args.rules else [("classic", 2), ("joker", 4),
                                                          ("bonus", 4)]):
            saved = f"{args.saved_dir}/settings-6935e82-{rules}-{seats}.json"
            run(match, "solve", f"saved:{saved}", rules, players=seats,
                deals=args.deals or (2000 if seats == 2 else 300), seed=args.seed,
                workers=args.workers, progress=False)
    elif args.what == "vs-model":
        for rules, seats in (configs if args.rules else [("classic", 2), ("joker", 4),
                                                          ("bonus", 4)]):
            layout = args.layout or ("two-v-two" if seats == 4 else None)
            run(match, "solve", "model", rules, players=seats, layout=layout,
                deals=args.deals or (4000 if seats == 2 else 600), seed=args.seed,
                workers=args.workers, progress=False)
    elif args.what == "curve":
        for rules, seats in (configs if args.rules else [("classic", 2)]):
            for spec in args.setters or CURVE:
                run(match, spec, "model", rules, players=seats, deals=args.deals or 2000,
                    seed=args.seed, workers=args.workers, progress=False)
    else:
        default = {"classic": 1000, "joker": 300, "bonus": 300}
        for rules, seats in (configs if args.rules else [("classic", 2), ("joker", 4),
                                                          ("bonus", 4)]):
            run(match, f"solve:samples={args.samples}",
                f"solve:samples={args.samples},model=field", rules, players=seats,
                deals=args.deals or default.get(rules, 300), seed=args.seed,
                workers=args.workers, progress=False)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
