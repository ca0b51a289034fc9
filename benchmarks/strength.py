"""Play-strength figures: duplicate-deal matches through the public arena API.

    python3 benchmarks/strength.py models  [--deals 2000] [--workers 2]
    python3 benchmarks/strength.py exploitability [--deals 1000] [--policies table field]
    python3 benchmarks/strength.py solve   [--deals ...]

``models``: the default model's own setting (``quick_set``) against the previous model
and against strongest-back-first, in every rule set and seat count.  ``exploitability``:
what the best response (``solve`` with the policy as its opponent model, 1000 samples)
wins from a policy, heads-up ``classic`` by default.  ``solve``: ``solve`` with the new
model against ``solve`` with the previous one.  Each line prints the arena's own summary
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


def _row(result, seconds):
    lo, hi = result.ci95
    return (f"| {result.a} vs {result.b} | `{result.rules}` | {result.players} | {result.layout} "
            f"| {result.deals} | {result.mean:+.3f} | [{lo:+.3f}, {hi:+.3f}] "
            f"| {seconds:.0f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["models", "exploitability", "solve"])
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
    print("| match | rules | seats | layout | deals | units a hand (A) | 95% CI | time |")
    print("|---|---|---:|---|---:|---:|---|---:|")

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
