"""benchmarks/report.py: the table and the baseline comparison, on small hand-made runs
(nothing is timed here; the benchmarks live in benchmarks/)."""
import importlib.util
import json
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
