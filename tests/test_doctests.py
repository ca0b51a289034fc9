"""The examples in the public docstrings run and print what they say."""
import doctest
import importlib

import pytest

import solver
import solver._checks
import solver.autowin
import solver.batch
import solver.cards
import solver.display
import solver.rows
import solver.rules
import solver.sampling

MODULES = [solver.rules, solver.cards, solver.rows, solver.autowin, solver._checks,
           solver.batch, solver.display, solver.sampling,
           importlib.import_module("solver.review")]     # solver.review is the function


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_rules_module_is_not_hidden_by_a_function():
    # The package once exported a function called ``rules`` that hid this module.
    import solver.rules as rules_module
    assert solver.rules is rules_module
    assert solver.rules.RuleSet is solver.RuleSet
    assert solver.rules.RULE_SET_NAMES == solver.RULE_SET_NAMES
    assert solver.rules.rule_set is solver.rule_set
    assert isinstance(solver.rule_set("joker"), solver.rules.RuleSet)
