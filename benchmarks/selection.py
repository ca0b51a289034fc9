"""The winner's curse, measured: how well rules that choose among a hand's settings from
n sampled deals do, judged by a truth of many more deals.

    python3 benchmarks/selection.py build --rules classic --players 2 --hands 400 \\
        --deals 32768 --out /tmp/selection-classic-2
    python3 benchmarks/selection.py analyse /tmp/selection-classic-2 \\
        --json benchmarks/results/selection-classic-2.json

``build`` takes the arena's hands of seed 12345 (seat 0's), scores every non-dominated
setting of each on ``--deals`` deals of the unseen cards (opponents set by the default
model) and splits them in two halves.  The second half is the *truth*: each setting's
EV against the model, to within about 0.008 units for a difference of two settings at
32,768 deals.  From the first half it keeps, for n = 64, 128, ... deals, up to eight
independent blocks of n deals: each setting's mean on the block and the standard
deviation of its difference from the model's own setting.  So a choice made on n deals
is judged on deals it never saw.  One ``.npz`` file a hand (about 26 MB for 400 hands
of heads-up ``classic``; kept out of the repository, the command rebuilds them).

``analyse`` applies each choice rule to every block and reports its *gain*: the true EV
of the setting it picks minus that of the model's own (``quick_set``'s) setting, the
mean over hands with a 95% confidence interval over hands.  ``z`` is that gain over the
standard error of a heads-up duplicate match of ``--match-deals`` deals between the
rule and ``quick_set``: about 2 is what a match needs for its CI to clear zero (heads-up
truths only; ``--match-deals 0`` leaves it out).

The rules: ``argmax`` (the best mean: what a fixed-sample solve does); ``shrinkN``
(each setting's difference from the model's setting shrunk toward the model's own
estimate of it, by its noise, with prior spread N); ``testZ`` (the best mean among the
settings that lead the model's setting by more than Z standard errors, else the model's
setting); ``lcbZ`` (the largest lead minus Z standard errors).  ``oracle`` picks the
truth's best: the most any rule could gain.
"""
import argparse
import glob
import json
import os
import time

import numpy as np

import solver
from edge import add_build_arguments, truth_hands     # (benchmarks/: the same hands)
from solver._jit import njit
from solver.model import R_SEP, TableModel, _ev
from solver.rows import bonus_rank_of
from solver.sampling import sampled_opponents
from solver.scoring import score_candidates, scoring_params

TRUTH_SEED = 1000          # + hand index: the scoring deals
BLOCKS = 8                 # independent blocks of n deals kept for each n


@njit
def _estimates(mt, ords):
    """The model's own estimate of each arrangement (rows as value ordinals)."""
    out = np.empty(ords.shape[0])
    for i in range(ords.shape[0]):
        out[i] = _ev(mt, ords[i, 0], ords[i, 1], ords[i, 2], R_SEP)
    return out


def build(args):
    rs = solver.rule_set(args.rules)
    half = args.deals // 2
    sizes = [n for n in (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
             if n <= half]
    os.makedirs(args.out, exist_ok=True)
    start = time.perf_counter()
    for i, _, cut, hand, values, ords in truth_hands(rs, args.players, args.hands):
        params = scoring_params(rs)
        mt = TableModel.shipped(rs, hand.seats).tables(bonus_rank_of(rs, cut))
        estimate = _estimates(mt, ords)
        opponents = sampled_opponents(hand, args.deals, TRUTH_SEED + i, None)
        scores = score_candidates(values, 0, *opponents, params).astype(np.float32)
        model = int(np.argmax(estimate))       # the model's own setting
        chosen_on, truth = scores[:, :half], scores[:, half:]
        out = dict(m=estimate, q=model, truth=truth.mean(1),
                   truth_sd=(truth - truth[model]).std(1), K=len(estimate))
        for n in sizes:
            reps = min(BLOCKS, half // n)
            block = chosen_on[:, :reps * n].reshape(len(estimate), reps, n)
            out[f"x{n}"] = block.mean(2).T.astype(np.float32)          # reps x K
            out[f"s{n}"] = (block - block[model]).std(2, ddof=1).T.astype(np.float32)
        np.savez(os.path.join(args.out, f"hand-{i:04d}.npz"), **out)
        print(f"hand {i}: {len(estimate)} settings, {time.perf_counter() - start:.1f} s",
              flush=True)


# Choice rules: (block means x, their difference's deal-to-deal spreads s, n deals, the
# model's estimates m, the model's setting q) -> the index chosen.
def argmax(x, s, n, m, q):
    return int(np.argmax(x))


def shrink(tau):
    def rule(x, s, n, m, q):
        prior = m - m[q]
        weight = tau ** 2 / (tau ** 2 + s ** 2 / n + 1e-12)
        posterior = prior + weight * (x - x[q] - prior)
        posterior[q] = 0
        return int(np.argmax(posterior))
    return rule


def test(z):
    def rule(x, s, n, m, q):
        ok = x - x[q] > z * s / np.sqrt(n)
        ok[q] = True
        candidates = np.flatnonzero(ok)
        return int(candidates[np.argmax(x[candidates])])
    return rule


def lcb(z):
    def rule(x, s, n, m, q):
        score = x - x[q] - z * s / np.sqrt(n)
        score[q] = 0
        return int(np.argmax(score))
    return rule


RULES = {"argmax": argmax,
         **{f"shrink{t}": shrink(t) for t in (0.02, 0.05, 0.1, 0.2)},
         **{f"test{z}": test(z) for z in (0.5, 1, 1.5, 2)},
         **{f"lcb{z}": lcb(z) for z in (0.5, 1, 1.5)}}


def analyse(args):
    data = [dict(np.load(f)) for f in sorted(glob.glob(os.path.join(args.dir, "*.npz")))]
    sizes = sorted(int(k[1:]) for k in data[0] if k.startswith("x"))
    oracle = np.array([d["truth"].max() - d["truth"][d["q"]] for d in data])
    half = 1.96 * oracle.std(ddof=1) / np.sqrt(len(oracle))
    print(f"{len(data)} hands, {np.mean([d['K'] for d in data]):.1f} settings a hand; "
          f"oracle {oracle.mean():+.4f} [{oracle.mean() - half:+.4f}, "
          f"{oracle.mean() + half:+.4f}]")
    result = dict(hands=len(data), match_deals=args.match_deals,
                  oracle=dict(gain=float(oracle.mean()), half_width=float(half)), rules={})
    print("| rule | " + " | ".join(f"n={n}" for n in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for name, rule in RULES.items():
        cells, row = [], {}
        for n in sizes:
            gains, spread = [], []
            for d in data:
                q, t = int(d["q"]), d["truth"]
                picks = [rule(x, s, n, d["m"], q) for x, s in zip(d[f"x{n}"], d[f"s{n}"])]
                gains.append(np.mean([t[c] - t[q] for c in picks]))
                spread.append(np.mean([d["truth_sd"][c] ** 2 + (t[c] - t[q]) ** 2
                                       for c in picks]))
            g = np.array(gains)
            # A heads-up duplicate deal is half the sum of two such differences.
            width = 1.96 * g.std(ddof=1) / np.sqrt(len(g))
            row[n] = dict(gain=float(g.mean()), half_width=float(width))
            cells.append(f"{g.mean():+.4f} ±{width:.4f}")
            if args.match_deals:
                match_se = np.sqrt(0.5 * np.mean(spread) / args.match_deals)
                row[n]["z"] = float(g.mean() / match_se)
                cells[-1] += f" (z {g.mean() / match_se:.1f})"
        result["rules"][name] = row
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    add_build_arguments(sub.add_parser("build"))
    a = sub.add_parser("analyse")
    a.add_argument("dir")
    a.add_argument("--match-deals", type=int, default=4000,
                   help="the heads-up match z is for (0: none)")
    a.add_argument("--json", default=None)
    args = p.parse_args()
    build(args) if args.what == "build" else analyse(args)


if __name__ == "__main__":
    main()
