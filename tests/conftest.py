import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))   # tests/naive.py, the slow reference


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: exhaustive checks, deselected with -m 'not slow'")


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: reproducible, different per test."""
    return np.random.default_rng(_stable_seed(request.node.name))


def _stable_seed(name: str) -> int:
    import zlib
    return zlib.crc32(name.encode())


# No compile notice on stderr during the tests (tests of the notice turn it back on).
os.environ.setdefault("SOLVER_QUIET", "1")
