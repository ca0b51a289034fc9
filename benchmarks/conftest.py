"""Fixtures, the ``quick`` marker and the table every benchmark run prints.

benchmarks/ is kept out of the test run (pyproject's testpaths is tests/); run it with
``python3 -m pytest benchmarks`` (all) or ``python3 -m pytest benchmarks -m quick``.
"""
import numba
import numpy as np
import pytest

import report       # benchmarks/report.py (pytest puts this folder on sys.path)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "quick: a representative subset of the benchmarks (-m quick: half a "
                   "minute once compiled; benchmarks/README.md, 'Running the suite')")
    # pytest-benchmark's own table: the median and its spread only (its default has ten
    # columns in one unit for all rows); ours, with a unit per row, comes last.  This runs
    # before pytest-benchmark reads the options, and only where none was given (an
    # explicit --benchmark-sort=min looks like the default, and becomes name too).
    if getattr(config.option, "benchmark_columns", "absent") is None:
        config.option.benchmark_columns = ["median", "iqr", "rounds"]
    if getattr(config.option, "benchmark_sort", None) == "min":
        config.option.benchmark_sort = "name"


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, config):
    """Each benchmark's median, time per hand and rows or hands per second, in run order
    (the table ``benchmarks/report.py run.json`` prints from a saved run)."""
    session = getattr(config, "_benchmarksession", None)
    benchmarks = [b.as_dict(include_data=False) for b in getattr(session, "benchmarks", []) if b]
    if not benchmarks or getattr(session, "disabled", False):
        return
    terminalreporter.write_sep("-", "benchmarks: median, per hand, throughput")
    for line in report.table(benchmarks):
        terminalreporter.write_line(line)


@pytest.fixture
def one_core():
    """Run the timed code on one Numba thread (the figures the issues ask for)."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
