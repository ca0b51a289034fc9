import numba
import numpy as np
import pytest


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
