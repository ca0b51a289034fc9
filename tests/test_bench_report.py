"""benchmarks/report.py: the table and the baseline comparison, on small hand-made runs
(nothing is timed here; the benchmarks live in benchmarks/)."""
import fnmatch
import importlib.util
import json
import re
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "bench_report", Path(__file__).resolve().parent.parent / "benchmarks" / "report.py")
report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report)


def _bench(name, median, **extra):
    return {"name": name, "fullname": f"benchmarks/test_x_bench.py::{name}",
            "stats": {"median": median}, "extra_info": extra}


def _run(tmp_path, filename, benchmarks):
    path = tmp_path / filename
    path.write_text(json.dumps({"machine_info": {"python_version": "3.11", "cpu": {}},
                                "commit_info": {"id": "abcdef012345"},
                                "datetime": "2026-12-03T18:00:00", "benchmarks": benchmarks}))
    return str(path)


BASELINE = [_bench("test_rows", 0.010, rows=2_000_000), _bench("test_solve", 0.200),
            _bench("test_quick_set", 0.030, hands_per_round=500),
            _bench("test_gone", 1.0), _bench("test_threads", 1e-7, untimed=True, speedup=1.8)]
NEW = [_bench("test_rows", 0.0105, rows=2_000_000), _bench("test_solve", 0.300),
       _bench("test_quick_set", 0.020, hands_per_round=500), _bench("test_added", 0.5),
       _bench("test_threads", 5e-7, untimed=True, speedup=1.7)]


def test_compare_gives_each_ratio_and_marks_those_beyond_noise():
    lines = report.compare(BASELINE, NEW, threshold=1.10)
    by_name = {line.split(" | ")[0].strip("| "): line
               for line in lines if line.startswith("| test")}
    assert by_name["test_rows"] == "| test_rows | 10.00 ms | 10.50 ms | 1.050 |  |"
    assert by_name["test_solve"] == "| test_solve | 200.00 ms | 300.00 ms | 1.500 | **SLOWER** |"
    assert by_name["test_quick_set"].endswith("| 0.667 | faster |")
    # A placeholder timing (untimed) has no ratio; one-sided benchmarks are listed apart.
    assert "test_threads" not in by_name
    assert "1 of 3 slower than x1.10 the baseline." in lines
    assert "Only in the new run: test_added" in lines
    assert "Only in the baseline: test_gone" in lines


def test_threshold_decides_the_mark():
    lines = report.compare(BASELINE, NEW, threshold=2.0)
    assert not any("SLOWER" in line or "faster" in line for line in lines)


def test_compare_counts_rather_than_lists_many_one_sided():
    many = [_bench(f"test_case[{i}]", 0.1) for i in range(9)]
    assert "Only in the baseline: 10 benchmarks" in report.compare(many + BASELINE, NEW)


def test_table_gives_units_per_hand_and_throughput():
    lines = report.table(BASELINE)
    assert "| test_rows | 10.00 ms |  | 200.0 M rows/s |  |" in lines
    assert "| test_quick_set | 30.00 ms | 60.00 µs | 16.7 k hands/s |  |" in lines
    assert "| test_threads | (untimed) |  |  | 1.80x two threads |" in lines
    # Runs saved before hands_per_round still give the per-hand figure they recorded.
    assert report.row(_bench("test_model", 0.1, us_per_hand=25.0))[2] == "25.00 µs"


def test_the_figure_column_only_where_a_benchmark_has_a_figure():
    # A -m quick run has no untimed benchmark: no column empty in every row.
    timed = [b for b in BASELINE if not b["extra_info"].get("untimed")]
    lines = report.table(timed)
    assert lines[0] == "| benchmark | median | per hand | throughput |"
    assert "| test_rows | 10.00 ms |  | 200.0 M rows/s |" in lines
    assert all(line.count("|") == 5 for line in lines)
    assert report.table(BASELINE)[0].endswith("| figure |")


def test_command_line_compares_two_files(tmp_path, capsys):
    old, new = _run(tmp_path, "old.json", BASELINE), _run(tmp_path, "new.json", NEW)
    report.main([old, new])
    out = capsys.readouterr().out
    assert "| test_solve | 200.00 ms | 300.00 ms | 1.500 | **SLOWER** |" in out
    assert "commit abcdef0" in out


def test_command_line_rejects_a_file_that_is_not_a_run(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(SystemExit, match="not a pytest-benchmark JSON file"):
        report.main([str(bad)])


# --- the report and its results files ---------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "benchmarks" / "README.md"
RESULTS = ROOT / "benchmarks" / "results"


def _cited_names(text: str) -> set[str]:
    """The .json names a text cites, with ``a-{b,c}.json`` expanded; ``x-*.json`` kept as
    patterns."""
    names = set()
    for name in re.findall(r"[\w.*{},-]+\.json(?!l)", text):
        name = name.rsplit("/", 1)[-1]
        brace = re.search(r"\{([^}]*)\}", name)
        names |= ({name[:brace.start()] + part + name[brace.end():]
                   for part in brace[1].split(",")} if brace else {name})
    return names


def test_every_results_file_is_cited_and_every_cited_file_exists():
    # benchmarks/results/ keeps only what the report, a script or a notebook reads, and
    # the report names no file that is not there (its placeholders: new.json, run.json).
    readers = [REPORT.read_text(encoding="utf-8")]
    readers += [p.read_text(encoding="utf-8") for p in (ROOT / "benchmarks").glob("*.py")]
    readers += [p.read_text(encoding="utf-8") for p in (ROOT / "notebooks").glob("*.ipynb")]
    # (a bare "*.json", as a glob over the folder, says nothing of which files are read)
    cited = {n for n in set().union(*map(_cited_names, readers)) if not n.startswith("*")}
    saved = {p.name for p in RESULTS.glob("*.json")}
    unread = [n for n in saved if not any(fnmatch.fnmatch(n, c) for c in cited)]
    assert not unread, f"results files nothing reads: {unread}"
    missing = {n for n in _cited_names(readers[0]) - {"new.json", "run.json"}
               if not any(fnmatch.fnmatch(s, n) for s in saved)}
    assert not missing, f"the report cites results files that are not saved: {missing}"
    # And the report names each by its full name, beside the figures it holds: a
    # pattern ("settings-6935e82-*.json") says that some file backs a table, not which.
    report = _cited_names(readers[0])
    unnamed = sorted(n for n in saved if n not in report)
    assert not unnamed, f"results files the report does not name in full: {unnamed}"


def test_the_report_is_current_not_a_diary():
    text = REPORT.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 450
    headings = re.findall(r"^#{2,3} (.+)$", text, flags=re.M)
    for area in ("Running the suite", "Row evaluation", "`quick_set` and the opponent model",
                 "`solve` per hand", "The first run", "Many hands and Dask",
                 "The study page server", "Play strength", "Exploitability",
                 "Rule sets from files", "Sessions", "Georgian Joker", "Lessons"):
        assert area in headings, area
    assert not [h for h in headings if re.search(r"\(20\d\d-\d\d-\d\d", h)], "dated headings"


def test_sections_cited_by_name_exist():
    # Code and documents cite the report as (benchmarks/README.md, "Section"): the named
    # section, or the bold lead of a paragraph, must be there; so must a cited #anchor.
    text = REPORT.read_text(encoding="utf-8")
    flat = " ".join(text.split())
    anchors = {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    files = [ROOT / "README.md", ROOT / "docs" / "rules.md"]
    for folder in ("solver", "benchmarks"):
        files += (ROOT / folder).rglob("*.py")
    cited = 0
    for path in files:
        source = path.read_text(encoding="utf-8")
        # Comments and docstrings wrap a title over lines (with "#" or spaces between).
        joined = " ".join(re.sub(r"^\s*#\s?", "", line) for line in source.splitlines())
        joined = " ".join(joined.split())
        for title in re.findall(r'benchmarks/README\.md`?, "([^"]+)"', joined):
            cited += 1
            assert title.lower() in flat.lower(), (path.name, title)
        for anchor in re.findall(r"benchmarks/README\.md#([\w-]+)", source):
            cited += 1
            assert anchor in anchors, (path.name, anchor)
    assert cited >= 5


def test_the_reports_count_of_the_quick_benchmarks_is_the_suites():
    # "13 of them": what -m quick collects (the peers' packages, the bench extra, needed).
    for peer in ("treys", "eval7", "phevaluator", "pytest_benchmark"):
        pytest.importorskip(peer, reason="the bench extra is not installed")
    import subprocess
    import sys
    said = re.search(r"-m quick +# (\d+) of them", REPORT.read_text(encoding="utf-8"))
    run = subprocess.run([sys.executable, "-m", "pytest", "benchmarks", "-m", "quick",
                          "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    collected = re.search(r"(\d+)/\d+ tests collected", run.stdout)
    assert said and collected, run.stdout[-500:]
    assert said.group(1) == collected.group(1)
