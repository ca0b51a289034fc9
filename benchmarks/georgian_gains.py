"""Paired matches that measure what one advisor feature is worth in Georgian Joker.

``--gain trump``: the advisor choosing the 9-card trump by expected score
(``advise_trump``) against the same advisor choosing it as the baseline does.
``--gain evidence``: the advisor weighing the other seats' bids as evidence about their
hands against the same advisor ignoring them.

Game g has seed ``seed + g`` and puts the seat under test in seat ``g % 4``; the other
three seats are ``--table`` players (``baseline``, or ``advisor``: the advisor without
the feature under test). Each game is played twice with the same seed, once with the
feature on in the tested seat (arm A) and once with it off (arm B). The deals do not
depend on the policies (the shuffles have their own generator), and every seat's random
numbers come from the seed, so the two arms see exactly the same cards. Per game we
record the tested seat's total in each arm; the gain is A - B, with its mean and 95%
confidence interval (mean +- 1.96 sd / sqrt(n), games independent). The result depends
only on the command line, not on the number of workers.

    python benchmarks/georgian_gains.py --gain trump --variant nines --games 300 --workers 2
    python benchmarks/georgian_gains.py --gain evidence --table baseline --games 800 --workers 2
    python benchmarks/georgian_gains.py --gain evidence --table advisor --games 300 --workers 2
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from georgian_match import mean_ci  # noqa: E402

from solver.georgian import AdvisorPolicy, BaselinePolicy, parse_cards, parse_suit, play_game  # noqa: E402
from solver.georgian import kernels as k  # noqa: E402
from solver.georgian.cards import mask_of  # noqa: E402


def tested_policy(gain: str, feature_on: bool, bid_samples: int, play_samples: int) -> AdvisorPolicy:
    """The tested seat's advisor with the feature under test on or off. The trump
    match reads bid evidence in both arms (the default when it was measured, so the
    command still gives the figures of benchmarks/GEORGIAN.md); the evidence match
    chooses trump as the baseline does in both arms (to isolate the feature, and
    because advise_trump is what makes a game slow)."""
    if gain == "trump":
        return AdvisorPolicy(bid_samples, play_samples, trump_by_expected_score=feature_on, bid_evidence=True)
    return AdvisorPolicy(bid_samples, play_samples, trump_by_expected_score=False, bid_evidence=feature_on)


def table_policy(gain: str, table: str, bid_samples: int, play_samples: int):
    """One of the three other seats: the baseline, or the advisor without the feature."""
    if table == "baseline":
        return BaselinePolicy()
    return tested_policy(gain, False, bid_samples, play_samples)


def one_game(args: tuple[str, str, int, str, int, int]) -> dict:
    """Both arms of game ``seed``, the tested seat in seat ``seed % 4``."""
    gain, table, seed, variant, bid_samples, play_samples = args
    seat = seed % 4
    result: dict = {"seed": seed, "seat": seat}
    records = {}
    for arm, feature_on in (("a", True), ("b", False)):
        policies = [table_policy(gain, table, bid_samples, play_samples) for _ in range(4)]
        policies[seat] = tested_policy(gain, feature_on, bid_samples, play_samples)
        start = time.perf_counter()
        record = play_game(policies, variant, seed=seed)
        result[f"seconds_{arm}"] = time.perf_counter() - start
        result[f"total_{arm}"] = record.totals[seat]
        result[f"bids_made_{arm}"] = sum(d.bids[seat] == d.taken[seat] for d in record.deals)
        records[arm] = record
    result["gain"] = result["total_a"] - result["total_b"]
    # The deals where the tested seat chose trump: how often advise_trump differed from
    # the baseline's rule, and the seat's deal score difference there.
    chosen = [i for i, d in enumerate(records["a"].deals) if d.trump_chooser == seat]
    differed = 0
    for i in chosen:
        deal = records["a"].deals[i]
        first_three = mask_of(parse_cards(list(deal.hands[seat][:3])))
        differed += parse_suit(deal.trump, allow_no_trump=True) != k.baseline_trump(first_three)
    result["trump_deals"] = len(chosen)
    result["trump_differed"] = int(differed)
    result["trump_deal_gain"] = sum(records["a"].deals[i].scores[seat] - records["b"].deals[i].scores[seat]
                                    for i in chosen)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gain", required=True, choices=["trump", "evidence"])
    parser.add_argument("--table", default="baseline", choices=["baseline", "advisor"],
                        help="the three other seats")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g")
    parser.add_argument("--variant", default=None, choices=["classic", "nines"],
                        help="default: nines for --gain trump (every deal has a trump choice), else classic")
    parser.add_argument("--bid-samples", type=int, default=200)
    parser.add_argument("--play-samples", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write per-game results and the summary here")
    args = parser.parse_args()
    variant = args.variant or ("nines" if args.gain == "trump" else "classic")

    # Compile (or load) the kernels once before the workers start.
    play_game([AdvisorPolicy(2, 2, 2, 2)] + [BaselinePolicy()] * 3, "nines", seed=0)
    jobs = [(args.gain, args.table, args.seed + g, variant, args.bid_samples, args.play_samples)
            for g in range(args.games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(one_game, jobs, chunksize=2))
    wall = time.perf_counter() - start

    n = len(games)
    gain = mean_ci([g["gain"] for g in games])
    trump_deals = sum(g["trump_deals"] for g in games)
    deal_gain = mean_ci([g["trump_deal_gain"] for g in games])
    summary = {
        "command": "python " + " ".join(sys.argv),
        "gain_of": args.gain,
        "table": args.table,
        "games": n,
        "variant": variant,
        "bid_samples": args.bid_samples,
        "play_samples": args.play_samples,
        "workers": args.workers,
        "wall_seconds": round(wall, 1),
        "seconds_per_game_a": round(sum(g["seconds_a"] for g in games) / n, 2),
        "seconds_per_game_b": round(sum(g["seconds_b"] for g in games) / n, 2),
        "mean_total_a": round(sum(g["total_a"] for g in games) / n, 1),
        "mean_total_b": round(sum(g["total_b"] for g in games) / n, 1),
        "gain_mean": round(gain[0], 1), "gain_sd": round(gain[1], 1),
        "gain_ci95": [round(gain[2], 1), round(gain[3], 1)],
        "games_gain_positive": sum(g["gain"] > 0 for g in games),
        "games_gain_zero": sum(g["gain"] == 0 for g in games),
        "games_gain_negative": sum(g["gain"] < 0 for g in games),
        "bids_made_per_game_a": round(sum(g["bids_made_a"] for g in games) / n, 2),
        "bids_made_per_game_b": round(sum(g["bids_made_b"] for g in games) / n, 2),
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, python {platform.python_version()}",
    }
    if args.gain == "trump":
        summary.update({
            "trump_deals": trump_deals,
            "trump_choices_differing_from_baseline": sum(g["trump_differed"] for g in games),
            "trump_deals_score_gain_per_game": round(deal_gain[0], 1),
            "trump_deals_score_gain_ci95": [round(deal_gain[2], 1), round(deal_gain[3], 1)],
        })
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "games": games}, indent=1) + "\n")


if __name__ == "__main__":
    main()
