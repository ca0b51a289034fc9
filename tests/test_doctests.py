"""The examples in the public docstrings run and print what they say."""
import doctest

import pytest

import solver.autowin
import solver.cards
import solver.rows
import solver.rules


@pytest.mark.parametrize("module", [solver.rules, solver.cards, solver.rows, solver.autowin])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
