"""The examples in the docstrings of every module run and print what they say."""
import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import solver

# Every module of the package (the Georgian game's have their own test), found by
# walking it, so a new module's examples are run without anyone listing it here; the
# study page's only where its web extra is installed.
WEB = importlib.util.find_spec("fastapi") is not None
MODULES = sorted(m.name for m in pkgutil.walk_packages(solver.__path__, "solver.")
                 if not m.name.startswith("solver.georgian")
                 and not m.name.endswith("__main__")
                 and (WEB or not m.name.startswith("solver.web")))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.failed == 0


def test_the_examples_are_found():
    found = {name: doctest.testmod(importlib.import_module(name)).attempted
             for name in ("solver.rules", "solver.cards", "solver.quickset", "solver.sampling")}
    assert all(found.values()), found


def test_the_rules_module_is_not_hidden_by_a_function():
    # The package once exported a function called ``rules`` that hid this module.
    import solver.rules as rules_module
    assert solver.rules is rules_module
    assert solver.rules.RuleSet is solver.RuleSet
    assert solver.rules.RULE_SET_NAMES == solver.RULE_SET_NAMES
    assert solver.rules.rule_set is solver.rule_set
    assert isinstance(solver.rule_set("joker"), solver.rules.RuleSet)
