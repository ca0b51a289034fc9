"""The examples in the public docstrings run and print what they say."""
import doctest
import importlib

import pytest


# By module path: ``solver.rules`` is also the name of the function the package exports.
@pytest.mark.parametrize("name", ["solver.rules", "solver.cards", "solver.rows",
                                  "solver.autowin", "solver.batch"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
