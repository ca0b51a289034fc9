"""Stand-ins (solver._warmup): a first solve of a rule set whose own model and scoring
kernels are not compiled yet runs, while another process compiles them, kernels that
serve every scheme and are compiled already: the model's kernel of every scheme (one a
hand size) and the general scoring.  They must give the same answer, to the last bit."""
import subprocess

import numpy as np
import pytest

import solver
from solver import _jit, _warmup, policy, scoring
from solver.cards import deck_codes
from solver.model import ANY_SCHEME, TableModel, table_kernel
from solver.rules import SCHEME_GENERAL
from solver.tables import row_tables

HAND = "As Kd Qh 9s 9c 8c 7h 6h 5s 5d 3d 3c 2d"
JOKER_HAND = "As As Ks Qh Jd Td 9c 8c 7h 6h 5s 4d 3c 2h Kd Qc Jk"


# One rule set of each estimate (solver.model._estimate_of) and hand size: western,
# rows/eastern, mandarin and general for 13 cards, the scoop for 17 and 16.
@pytest.mark.parametrize("name, seats, bonus_rank", [
    ("classic", 2, -1), ("pagat", 3, -1), ("classic:mandarin", 4, -1), ("shisanshui", 4, -1),
    ("joker", 4, -1), ("bonus", 4, 7)])
def test_the_model_kernel_of_every_scheme_sets_hands_as_each_schemes_own(name, seats,
                                                                         bonus_rank):
    rs = solver.rule_set(name)
    n = rs.cards_dealt
    t = row_tables(rs, bonus_rank) if bonus_rank >= 0 else row_tables(rs)
    mt = TableModel.shipped(rs, seats).tables(bonus_rank)
    deck = np.array(deck_codes(rs), np.int64)
    rng = np.random.default_rng(len(name))
    D = 120
    hands = np.stack([np.sort(rng.choice(deck, n, replace=False))
                      for _ in range(D)]).reshape(D, 1, n)
    results = []
    for kernel in (table_kernel(rs.scheme, n), table_kernel(ANY_SCHEME, n)):
        auto = np.zeros((D, 1), np.int8)
        vals = np.full((D, 1, 3), -1, np.int32)
        masks = np.full((D, 1, 3), -1, np.int64)
        estimates = np.full((D, 1), np.nan)
        kernel(hands, t, mt, auto, vals, masks, estimates, 0, D)
        results.append((masks, vals, estimates))
    (m1, v1, e1), (m2, v2, e2) = results
    assert (m1 >= 0).all() and np.isfinite(e1).all()            # every hand was set
    assert np.array_equal(m1, m2) and np.array_equal(v1, v2)
    assert np.array_equal(e1, e2)                               # the same estimate, exactly


class _Compiling:
    """A process that is still compiling (for solver._jit.compiled_elsewhere)."""

    def poll(self):
        return None


def _standing_in(monkeypatch, own, stand_ins=()):
    """Make this process see the kernels ``own`` as cold and being compiled by another
    process (what a first solve's warm-up does for a rule set with warm stand-ins), and
    ``stand_ins`` as warm (the others as they are)."""
    warm = _jit._is_warm
    monkeypatch.setattr(_jit, "_is_warm",
                        lambda k: False if k in own else k in stand_ins or warm(k))
    monkeypatch.setattr(_jit, "_compiled_elsewhere", {})
    _jit.compiled_elsewhere(own, _Compiling())


@pytest.mark.parametrize("name, hand, players", [
    ("classic", HAND, 2), ("pagat", HAND, 4), ("joker", JOKER_HAND, 4)])
def test_a_solve_that_runs_the_stand_ins_gives_the_same_answer(name, hand, players,
                                                                monkeypatch):
    monkeypatch.setenv(_warmup.WARMUP_ENV, "0")
    rs = solver.rule_set(name)
    # (pool=False: heads-up, deals from the pool would set no hand with the model.)
    own = solver.solve(hand, name, players=players, seed=5, samples=300, pool=False)
    for job in _warmup.stand_in_jobs(name):                     # (loaded, or compiled)
        _warmup.run_job(job)
    ran = []
    for module in (policy, scoring):
        def spy(kernel, substitute, _real=_jit.stand_in, _name=module.__name__):
            chosen = _real(kernel, substitute)
            ran.append((_name, chosen is substitute))
            return chosen
        monkeypatch.setattr(module, "stand_in", spy)
    _standing_in(monkeypatch, [table_kernel(rs.scheme, rs.cards_dealt),
                               scoring.scoring_kernel(rs)])
    stood_in = solver.solve(hand, name, players=players, seed=5, samples=300, pool=False)
    # The model's stand-in and the scoring's ran, and nothing else.
    assert {name for name, _ in ran} == {"solver.policy", "solver.scoring"}
    assert all(chosen for _, chosen in ran)
    assert stood_in.to_dict() == own.to_dict()


def test_a_stand_in_runs_only_while_another_process_compiles_the_kernel(monkeypatch):
    own, other = table_kernel(solver.rule_set("classic").scheme, 13), table_kernel(ANY_SCHEME, 13)
    monkeypatch.setattr(_jit, "_compiled_elsewhere", {})
    assert _jit.stand_in(own, other) is own                      # nothing compiled elsewhere
    _standing_in(monkeypatch, [own], [other])
    assert _jit.stand_in(own, other) is other
    monkeypatch.setattr(_jit, "_is_warm", lambda k: k is own)    # cached by the other
    assert _jit.stand_in(own, other) is own
    _standing_in(monkeypatch, [own], [other])
    monkeypatch.setattr(_jit, "_is_warm", lambda k: False)       # no stand-in compiled
    assert _jit.stand_in(own, other) is own
    _standing_in(monkeypatch, [own])

    class Ended:
        def poll(self):
            return 0
    _jit.compiled_elsewhere([own], Ended())
    assert _jit.stand_in(own, other) is own and own not in _jit._compiled_elsewhere


def test_the_general_stand_in_is_not_used_for_a_loss_cap_per_deal(monkeypatch):
    """A loss cap per deal has a kernel of its own, which the general scoring without
    the cap cannot stand in for; the general scheme needs no stand-in."""
    params = scoring.scoring_params(solver.rule_set("classic"))
    general = scoring.score_kernel_for(SCHEME_GENERAL)
    _standing_in(monkeypatch, [scoring.score_kernel_for(*scoring.score_kernel_key(params))],
                 [general])
    kernel, used = scoring.scoring_call(params)
    assert kernel is general and used[scoring.P_SCHEME] == SCHEME_GENERAL
    assert params[scoring.P_SCHEME] != SCHEME_GENERAL              # (a copy was changed)
    params[scoring.P_SCHEME] = SCHEME_GENERAL
    params[scoring.P_DEAL_CAP] = 5
    capped = scoring.score_kernel_for(SCHEME_GENERAL, True)
    _standing_in(monkeypatch, [capped], [general])
    assert scoring.scoring_call(params)[0] is capped


def test_a_first_solve_with_stand_ins_on_disk_does_not_wait_and_has_the_model_compiled(
        monkeypatch):
    """The warm-up process of such a solve is told to compile the model's kernel too
    (the solving process does not), the solve does not wait for its scoring, and the
    two kernels are noted as compiled elsewhere, so that the stand-ins run meanwhile."""
    rs = solver.rule_set("classic")
    model, score = table_kernel(rs.scheme, rs.cards_dealt), scoring.scoring_kernel(rs)
    stand_ins = [table_kernel(ANY_SCHEME, 13), scoring.score_kernel_for(SCHEME_GENERAL)]
    _standing_in(monkeypatch, [model, score], stand_ins)
    monkeypatch.setattr(_jit, "_compiled_elsewhere", {})
    monkeypatch.delenv(_warmup.WARMUP_ENV, raising=False)
    monkeypatch.setattr(_warmup.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(_warmup, "_warming_lock", lambda *a: None)
    started = []

    class Process:
        def __init__(self, command, **kwargs):
            started.append(command[-1])

        def poll(self):
            return None
    monkeypatch.setattr(subprocess, "Popen", Process)
    process = _warmup.start(model, "classic")
    assert started and "model=True" in started[0]
    assert process.wait_for_ready is False
    assert _jit._compiled_elsewhere[model] is process is _jit._compiled_elsewhere[score]
    _warmup.finish(process)                                     # (returns at once)
    # Without the stand-ins on disk, the solving process compiles the model itself.
    _standing_in(monkeypatch, [model, score] + stand_ins)
    monkeypatch.setattr(_jit, "_compiled_elsewhere", {})
    process = _warmup.start(model, "classic")
    assert "model=False" in started[-1] and process.wait_for_ready is True
    assert model not in _jit._compiled_elsewhere


def test_the_warm_up_leaves_stand_ins_for_the_rule_sets_to_come():
    """After its own jobs, a first solve's warm-up compiles the stand-ins: the model of
    every scheme for 13 cards and for its own hand size, then the general scoring;
    solver warm --all compiles them for every hand size."""
    assert _warmup.stand_in_jobs("joker") == [("stand-in model", 13), ("stand-in model", 17),
                                              ("stand-in scoring",)]
    assert _warmup.stand_in_jobs("classic") == [("stand-in model", 13), ("stand-in scoring",)]
    for job in _warmup.stand_in_jobs("bonus"):
        assert _warmup.job_name(job) and len(_warmup.job_kernels(job)) == 1
    # The general scoring is the general scheme's own: compiled once by solver warm.
    assert _warmup.job_key(("stand-in scoring",)) == _warmup.job_key(
        ("scoring", "two-jokers"))
    assert _warmup.job_key(("stand-in model", 13)) != _warmup.job_key(("model", "classic"))
