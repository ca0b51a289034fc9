"""Read pytest-benchmark JSON files: one run as a compact table, or a run against a baseline.

    python3 benchmarks/report.py new.json                        # one run, Markdown table
    python3 benchmarks/report.py benchmarks/results/baseline-2026-12.json new.json

The comparison prints, per benchmark, the baseline's median, the new median and their ratio
(new / baseline), and marks a ratio beyond noise (``--threshold``, 1.10 by default) as
SLOWER or faster.  benchmarks/conftest.py prints the same one-run table after every run.
"""
import argparse
import json
import sys

# Headline figures of the benchmarks whose own result is not their timed median (the
# timed call is a placeholder there, or a subprocess whose parts are reported apart).
FIGURES = {"speedup": "{:.2f}x two threads", "default_over_exact": "default/exact {:.2f}",
           "first_solve_s": "first solve {:.2f} s", "scaling_efficiency": "scaling {:.2f}"}


def duration(seconds: float) -> str:
    """Seconds in the unit that reads best: ns, µs, ms or s."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:,.2f} {unit}"
    return f"{seconds * 1e9:,.0f} ns"


def rate(per_second: float, what: str) -> str:
    for prefix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if per_second >= scale:
            return f"{per_second / scale:,.1f} {prefix} {what}/s"
    return f"{per_second:,.1f} {what}/s"


def row(bench: dict) -> list:
    """[name, median, per hand, throughput, figure] of one benchmark (JSON form)."""
    median = bench["stats"]["median"]
    info = bench.get("extra_info", {})
    if info.get("untimed"):
        cells = [bench["name"], "(untimed)", "", ""]
    else:
        per_round = info.get("hands_per_round")
        if per_round:
            per_hand = duration(median / per_round)
        elif "us_per_hand" in info:                 # runs saved before hands_per_round
            per_hand = duration(info["us_per_hand"] * 1e-6)
        else:
            per_hand = ""
        if info.get("rows"):
            through = rate(info["rows"] / median, "rows")
        elif per_round:
            through = rate(per_round / median, "hands")
        else:
            through = ""
        cells = [bench["name"], duration(median), per_hand, through]
    figure = ", ".join(fmt.format(info[key]) for key, fmt in FIGURES.items()
                       if isinstance(info.get(key), (int, float)))
    return cells + [figure]


def table(benchmarks: list) -> list:
    """Markdown lines: one benchmark a line, in run order.  The ``figure`` column only
    when a benchmark has one (an untimed one's: ``-m quick`` runs none, and a column
    empty in every row only says nothing)."""
    rows = [row(b) for b in benchmarks]
    if not any(r[-1] for r in rows):
        rows = [r[:-1] for r in rows]
        lines = ["| benchmark | median | per hand | throughput |", "|---|---:|---:|---:|"]
    else:
        lines = ["| benchmark | median | per hand | throughput | figure |",
                 "|---|---:|---:|---:|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def compare(baseline: list, new: list, threshold: float = 1.10) -> list:
    """Markdown lines: each benchmark's baseline and new median, new / baseline, and a mark
    where the ratio is beyond ``threshold`` either way.  Benchmarks are matched by full
    name; those in one run only are listed after, and untimed ones are left out."""
    old = {b["fullname"]: b for b in baseline if not b.get("extra_info", {}).get("untimed")}
    lines = ["| benchmark | baseline | new | new / baseline | |", "|---|---:|---:|---:|---|"]
    slower = compared = 0
    only_new = []
    for b in new:
        if b.get("extra_info", {}).get("untimed"):
            continue
        before = old.pop(b["fullname"], None)
        if before is None:
            only_new.append(b["name"])
            continue
        ratio = b["stats"]["median"] / before["stats"]["median"]
        mark = "**SLOWER**" if ratio > threshold else "faster" if ratio < 1 / threshold else ""
        slower += ratio > threshold
        compared += 1
        lines.append(f"| {b['name']} | {duration(before['stats']['median'])} | "
                     f"{duration(b['stats']['median'])} | {ratio:.3f} | {mark} |")
    lines.append("")
    lines.append(f"{slower} of {compared} slower than x{threshold:.2f} the baseline.")
    only_old = [b["name"] for b in old.values()]
    for where, names in (("the new run", only_new), ("the baseline", only_old)):
        if names:
            # A quick run against a whole one leaves most out: the count says enough.
            listed = ", ".join(names) if len(names) <= 8 else f"{len(names)} benchmarks"
            lines.append(f"Only in {where}: {listed}")
    return lines


def machine(data: dict) -> str:
    cpu = data.get("machine_info", {}).get("cpu", {})
    commit = data.get("commit_info", {}).get("id", "?")[:7]
    return (f"{data.get('datetime', '?')[:16]}, commit {commit}, {cpu.get('brand_raw', '?')}, "
            f"{cpu.get('count', '?')} cores, "
            f"Python {data.get('machine_info', {}).get('python_version', '?')}")


def _load(path: str) -> dict:
    try:
        with open(path) as f:
            data = json.load(f)
        data["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"report.py: {path} is not a pytest-benchmark JSON file ({e})")
    return data


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", metavar="JSON",
                        help="one run, or a baseline and a new run")
    parser.add_argument("--threshold", type=float, default=1.10,
                        help="ratio new/baseline beyond which a benchmark is marked (1.10)")
    args = parser.parse_args(argv)
    if len(args.files) > 2:
        parser.error("give one run, or a baseline and a new run")
    runs = [_load(p) for p in args.files]
    for path, data in zip(args.files, runs):
        print(f"{path}: {machine(data)}")
    print()
    if len(runs) == 1:
        lines = table(runs[0]["benchmarks"])
    else:
        lines = compare(runs[0]["benchmarks"], runs[1]["benchmarks"], args.threshold)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
