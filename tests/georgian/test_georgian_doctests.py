"""The docstring examples of every public module run as tests, and the package's
public names are documented and listed in a sorted ``__all__``."""

import doctest
import importlib

import pytest

import solver.georgian as georgian

MODULES = ["cards", "rules", "engine", "simulate", "advisor", "kernels", "position"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"solver.georgian.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_public_names_are_sorted_and_documented():
    assert georgian.__all__ == sorted(georgian.__all__)
    for name in georgian.__all__:
        obj = getattr(georgian, name)
        if callable(obj):
            assert obj.__doc__, name
