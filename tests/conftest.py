import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))   # tests/naive.py, the slow reference


def pytest_configure(config):
    # The quick subset (README.md, "Set-up: two commands"): -m "not slow" leaves out the
    # tests that take many seconds each (matches, exhaustive checks, processes stopped
    # by Ctrl+C, the docs site's build, a model's training in the browser).
    config.addinivalue_line("markers", "slow: a test of many seconds, deselected with "
                                       "-m 'not slow' (the quick subset)")


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: reproducible, different per test."""
    return np.random.default_rng(_stable_seed(request.node.name))


def _stable_seed(name: str) -> int:
    import zlib
    return zlib.crc32(name.encode())


# No compile notice on stderr during the tests (tests of the notice turn it back on).
os.environ.setdefault("SOLVER_QUIET", "1")
