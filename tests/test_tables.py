"""The packed row tables (solver/tables.py): every key on its own position, and small."""
import numpy as np
import pytest

from solver.kernels import ROW_SHIFT
from solver.tables import _displace, row_tables


def _positions(disp, keys):
    return disp[np.asarray(keys) >> ROW_SHIFT] + (np.asarray(keys) & ((1 << ROW_SHIFT) - 1))


def test_displacement_gives_every_key_its_own_position(rng):
    for n, span in ((1, 10), (500, 2000), (3000, 600_000)):
        keys = sorted(int(k) for k in rng.choice(span, n, replace=False))
        assert len(set(_positions(_displace(keys), keys).tolist())) == n


@pytest.mark.parametrize("rules, bonus_rank", [("classic", -1), ("joker", -1), ("bonus", 5)])
def test_tables_stay_small(rules, bonus_rank):
    # What a random row touches -- disp and one half of value5 -- fits a 48 KB L1 cache
    # (the benchmark machine's): a change of keys or packing that spreads them shows here.
    t = row_tables(rules, bonus_rank)
    assert t.disp.nbytes + t.value5[0].nbytes <= 48 * 1024
    assert t.ord5.shape[1] == t.ord3.shape[0] == t.value5.shape[1] < 10_000


def test_placeholder_tables_have_the_types_of_every_rule_sets_tables():
    """solver._warmup compiles the search for the placeholders' types: they must be the
    tables' types, built or loaded from the disk cache, of every rule set."""
    import numba

    import solver
    from solver.rows import tables_for
    from solver.tables import placeholder_tables
    want = numba.typeof(placeholder_tables())
    for name in solver.RULE_SET_NAMES:
        rs = solver.rule_set(name)
        for cut in (["2c", "Kd"] if rs.cut_card else [None]):
            assert numba.typeof(tables_for(rs, cut)) == want, (name, cut)


def test_rule_sets_with_one_deck_share_one_set_of_tables_in_memory():
    # A server that sees rules file after rules file (each its own RuleSet) must not keep
    # a copy of the tables for each: the tables depend on the deck alone.
    import solver
    base = solver.rule_set("classic")
    renamed = [solver.RuleSet.from_toml(base.to_toml().replace('name = "classic"',
                                                               f'name = "copy-{i}"'),
                                        source="test") for i in range(3)]
    assert [rs.name for rs in renamed] == ["copy-0", "copy-1", "copy-2"]
    first = row_tables("pagat")
    for rs in [base, *renamed]:
        assert row_tables(rs).ord5 is first.ord5
    assert row_tables("joker").ord5 is not first.ord5        # another deck, other tables
    assert row_tables.cache_info().maxsize is not None       # and the per-rule-set map is bounded
