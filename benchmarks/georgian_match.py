"""Match: one advisor-driven seat against three baseline seats in Georgian Joker.

Game g uses seed ``seed + g`` and puts the advisor in seat ``g % 4`` (the others play
the baseline). Per game we record

* ``diff``: the advisor's total minus the mean total of the three baseline seats at
  the same table (the figure the issue asks for), and
* ``gain``: the advisor's total minus the total a *baseline* in the same seat scores in
  a control game with the same seed. The deals do not depend on the policies (the
  shuffles have their own generator), so the control sees exactly the same cards.

The means are reported with 95% confidence intervals (mean +- 1.96 standard errors;
games are independent). Every number follows from the command line, whatever the
number of worker processes.

    python benchmarks/georgian_match.py --games 400 --workers 2 --json /tmp/georgian_match.json
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver.georgian import AdvisorPolicy, BaselinePolicy, play_game  # noqa: E402


def one_game(args: tuple[int, str, int, int]) -> dict:
    """Play game ``seed`` with the advisor in seat ``seed % 4``, and its control."""
    seed, variant, bid_samples, play_samples = args
    seat = seed % 4
    policies = [BaselinePolicy() for _ in range(4)]
    policies[seat] = AdvisorPolicy(bid_samples=bid_samples, play_samples=play_samples)
    start = time.perf_counter()
    record = play_game(policies, variant, seed=seed)
    seconds = time.perf_counter() - start
    control = play_game([BaselinePolicy() for _ in range(4)], variant, seed=seed)
    others = [record.totals[p] for p in range(4) if p != seat]
    return {
        "seed": seed,
        "seat": seat,
        "advisor_total": record.totals[seat],
        "baseline_mean_total": sum(others) / 3,
        "diff": record.totals[seat] - sum(others) / 3,
        "gain": record.totals[seat] - control.totals[seat],
        "advisor_won": record.totals[seat] == max(record.totals),
        "advisor_bids_made": sum(d.bids[seat] == d.taken[seat] for d in record.deals),
        "baseline_bids_made_per_seat": sum(d.bids[p] == d.taken[p] for d in record.deals for p in range(4)
                                           if p != seat) / 3,
        "seconds": seconds,
    }


def mean_ci(values: list[float]) -> tuple[float, float, float, float]:
    """Mean, standard deviation and the 95% confidence interval of the mean."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else float("nan")
    half = 1.96 * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g")
    parser.add_argument("--variant", default="classic", choices=["classic", "nines"])
    parser.add_argument("--bid-samples", type=int, default=200)
    parser.add_argument("--play-samples", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write per-game results and the summary here")
    args = parser.parse_args()

    # Compile (or load) the kernels once before the workers start.
    play_game([AdvisorPolicy(2, 2)] + [BaselinePolicy()] * 3, "nines", seed=0)
    jobs = [(args.seed + g, args.variant, args.bid_samples, args.play_samples) for g in range(args.games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(one_game, jobs, chunksize=4))
    wall = time.perf_counter() - start

    n = len(games)
    diff = mean_ci([g["diff"] for g in games])
    gain = mean_ci([g["gain"] for g in games])
    summary = {
        "command": "python " + " ".join(sys.argv),
        "games": n,
        "variant": args.variant,
        "bid_samples": args.bid_samples,
        "play_samples": args.play_samples,
        "workers": args.workers,
        "wall_seconds": round(wall, 1),
        "seconds_per_game": round(sum(g["seconds"] for g in games) / n, 2),
        "advisor_mean_total": round(sum(g["advisor_total"] for g in games) / n, 1),
        "baseline_mean_total": round(sum(g["baseline_mean_total"] for g in games) / n, 1),
        "diff_mean": round(diff[0], 1), "diff_sd": round(diff[1], 1),
        "diff_ci95": [round(diff[2], 1), round(diff[3], 1)],
        "gain_mean": round(gain[0], 1), "gain_sd": round(gain[1], 1),
        "gain_ci95": [round(gain[2], 1), round(gain[3], 1)],
        "advisor_win_rate": round(sum(g["advisor_won"] for g in games) / n, 3),
        "advisor_bids_made_per_game": round(sum(g["advisor_bids_made"] for g in games) / n, 2),
        "baseline_bids_made_per_game": round(sum(g["baseline_bids_made_per_seat"] for g in games) / n, 2),
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, python {platform.python_version()}",
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "games": games}, indent=1) + "\n")


if __name__ == "__main__":
    main()
