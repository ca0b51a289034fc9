"""Print a pytest-benchmark JSON file as a Markdown table of medians (and rows/s).

    python3 benchmarks/report.py bench.json
"""
import json
import sys


def main(path: str) -> None:
    data = json.load(open(path))
    print(f"machine: {data['machine_info'].get('cpu', {}).get('brand_raw', '?')}, "
          f"{data['machine_info'].get('cpu', {}).get('count', '?')} cores, "
          f"Python {data['machine_info']['python_version']}\n")
    print("| benchmark | median | rows/s (median) |")
    print("|---|---:|---:|")
    for b in data["benchmarks"]:
        median = b["stats"]["median"]
        rows = b.get("extra_info", {}).get("rows")
        rate = f"{rows / median / 1e6:,.1f} M" if rows else ""
        print(f"| {b['name']} | {median * 1e3:,.2f} ms | {rate} |")


if __name__ == "__main__":
    main(sys.argv[1])
