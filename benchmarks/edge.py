"""The edge of a setting over the opponent model's own, measured against a large-sample
truth instead of a match's luck.

    python3 benchmarks/edge.py build --rules classic --players 2 --hands 400 \\
        --deals 32768 --out benchmarks/results/edge-classic-2.json
    python3 benchmarks/edge.py eval benchmarks/results/edge-classic-2.json \\
        solve solve:samples=1000 solve:effort=max

``build`` deals ``--hands`` hands (the arena's deals of seed 12345, seat 0's hand) and,
for each, scores every non-dominated setting on ``--deals`` deals of the unseen cards,
the opponents set by the default model: each setting's *true* EV against the model, as
its difference from the model's own setting, to within about 0.006 units for a
difference of two settings (32,768 deals).  (The scoring is the library's:
:mod:`solver.exploitability`, whose ``exploitability`` measures the best setting's gain
over the model's own without a setter: chosen on half of the deals, judged on the other.)  It records
which setting is the model's own (``quick_set``'s, or the one that dominates it).

``eval`` solves each hand with a setter (``solve[:options]``, as the arena reads it),
on seeds unrelated to the truth's deals, and looks its choice up in the truth: the
*gain* is the chosen setting's true EV minus the model's own setting's, and its mean
over hands, with a 95% confidence interval over hands, is the expected margin of that
setter over ``quick_set`` in a heads-up duplicate match (each hand played against the
model; with more seats, against model opponents).  From the truth's spreads it also
predicts a heads-up match's standard deviation a deal, and so how many deals a match
needs for its 95% CI to lie above zero, on average.  A match measures the same thing with
the luck of the opponents' cards on top: here only the choice of hands is random.
Hands holding an automatic win (``classic``) are left out: declaring is scored apart.
"""
import argparse
import json
import time
import numpy as np

import solver
from solver.arena import setter
from solver.exploitability import candidates, measured_hands, model_index, paired_sums
from solver.scoring import scoring_params
from solver.solve import _anchor_candidate

DEAL_SEED = 12345                 # the hands: the arena's deals of this seed
TRUTH_SEED = 10 ** 9              # + hand index: the truth's deals
SOLVE_SEED = 777                  # + hand index: the evaluated setter's seed


def _candidates(cards, rs, cut, seats):
    """The prepared hand, its codes, and its non-dominated settings: row values (K, 3)
    and row ordinals (K, 3) (solver.exploitability.candidates)."""
    return tuple(candidates(cards, rs, cut, seats))


def truth_hands(rs, players, count):
    """The hands a truth is built for: ``(index, cards, cut, hand, values, ords)`` for
    seat 0 of the arena's deals of DEAL_SEED, hands holding an automatic win left out
    (declaring is scored apart; solver.exploitability.measured_hands).  Shared with
    benchmarks/selection.py."""
    for i, cards, cut, got in measured_hands(rs, players, count, DEAL_SEED):
        yield i, cards, cut, got.hand, got.values, got.ordinals


def add_build_arguments(parser, deals=32768):
    """The ``build`` options of this script and of benchmarks/selection.py."""
    parser.add_argument("--rules", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--out", required=True)


def build(args):
    rs = solver.rule_set(args.rules)
    out = []
    start = time.perf_counter()
    for i, cards, cut, got in measured_hands(rs, args.players, args.hands, DEAL_SEED):
        model = model_index(got)
        # Each setting's true EV against the model, as its difference from the model's
        # own setting (all that eval reads), and that difference's standard error.
        sums, squares = paired_sums(got, model, args.deals, TRUTH_SEED + i)
        mean = sums / args.deals
        sd = np.sqrt(np.maximum(0.0, squares / args.deals - mean ** 2))
        out.append(dict(index=i, cards=cards, cut=cut, model=model,
                        truth=mean.round(6).tolist(),
                        truth_se=(sd / np.sqrt(args.deals)).round(6).tolist()))
        print(f"hand {i}: {len(got.values)} settings, {time.perf_counter() - start:.0f} s",
              flush=True)
    meta = dict(rules=rs.name, players=args.players, deals=args.deals, deal_seed=DEAL_SEED,
                truth_seed=TRUTH_SEED)
    with open(args.out, "w") as f:
        json.dump(dict(meta=meta, hands=out), f)


TABLE_HEAD = ("| setter | rules | seats | hands | gain over the model | 95% CI | same setting "
              "| ms a hand | sd a deal | deals for a CI above 0 |\n"
              "|---|---|---:|---:|---:|---|---:|---:|---:|---:|")      # evaluate's rows


def evaluate(path, specs, limit=None):
    """Each setter's (a spec of solver.arena.setter, or a Setter) gains on the truth at
    ``path``, by its name; and a table row of each, printed."""
    data = json.load(open(path))
    meta = data["meta"]
    rs = solver.rule_set(meta["rules"])
    seats = meta["players"]
    results = {}
    for spec in specs:
        who = setter(spec)
        gains, same, seconds, spread = [], 0, [], []
        for item in data["hands"][:limit]:
            hand, codes, vals, _ = _candidates(item["cards"], rs, item["cut"], seats)
            start = time.perf_counter()
            setting = who.set(item["cards"], rs, item["cut"], seats,
                              SOLVE_SEED + item["index"])
            seconds.append(time.perf_counter() - start)
            # A setting scores as its row values do: the candidate with those values, or
            # the one that dominates it (as the model's own setting is looked up).
            values = np.array([solver.row_value(r, rs, item["cut"]).value
                               for r in setting[:3]], np.int32)
            k = _anchor_candidate(vals, values, scoring_params(rs))
            gains.append(item["truth"][k] - item["truth"][item["model"]])
            same += k == item["model"]
            # The spread, deal to deal, of this setting's score minus the model's setting's.
            spread.append(item["truth_se"][k] ** 2 * meta["deals"] + gains[-1] ** 2)
        g = np.array(gains)
        half = 1.96 * g.std(ddof=1) / np.sqrt(len(g))
        # A heads-up duplicate deal plays each hand once against the other's model
        # setting: its value is half the sum of two such differences.
        deal_sd = float(np.sqrt(np.mean(spread) / 2))
        needed = (1.96 * deal_sd / g.mean()) ** 2 if g.mean() > 0 else float("inf")
        results[who.name] = dict(
            hands=len(g), gain=float(g.mean()),
            ci95=[float(g.mean() - half), float(g.mean() + half)],
            same_as_model=same / len(g), ms_median=1000 * float(np.median(seconds)),
            deal_sd=deal_sd, deals_for_ci_above_zero=needed,
            # hand by hand, for paired comparisons of two setters
            gains=[round(float(x), 6) for x in g])
        r = results[who.name]
        print(f"| {who.name} | `{rs.name}` | {seats} | {r['hands']} | {r['gain']:+.4f} | "
              f"[{r['ci95'][0]:+.4f}, {r['ci95'][1]:+.4f}] | {r['same_as_model']:.0%} | "
              f"{r['ms_median']:.1f} | {deal_sd:.3f} | {needed:,.0f} |", flush=True)
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    add_build_arguments(sub.add_parser("build"))
    e = sub.add_parser("eval")
    e.add_argument("truth")
    e.add_argument("setters", nargs="+")
    e.add_argument("--hands", type=int, default=None, help="the first N hands only")
    e.add_argument("--json", default=None)
    args = p.parse_args()
    if args.what == "build":
        build(args)
    else:
        print(TABLE_HEAD)
        results = evaluate(args.truth, args.setters, args.hands)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(dict(truth=args.truth, results=results), f, indent=1)


if __name__ == "__main__":
    main()
