"""The memory check of solve's deals (solver.sampling.check_memory): true for the hand's
own number of candidate settings, each scored on every deal, and made before dealing."""
import pytest

import solver
from solver import sampling
from solver.sampling import check_memory

# A classic hand with 2,555 candidate settings (most hands have a few dozen).
MANY = "8d 5h Qs Ad 2d 4c 3s Td 2h Ac 7h Kh 9s"


@pytest.fixture
def no_dealing(monkeypatch):
    """A solve that gets as far as dealing fails the test (a refused request must not
    spend minutes dealing first)."""
    def refuse(*args):
        raise AssertionError("dealt before the memory check")
    for name in ("fixed", "batch", "held_out"):
        monkeypatch.setattr(sampling.Deals, name, refuse)


def test_the_hands_candidates_count(no_dealing):
    # 1,000,000 deals of a hand with a dozen candidates fit (about 0.8 GB); of this one
    # they would need about 11 GB: refused before a deal is drawn.
    rs = solver.rule_set("classic")
    check_memory("samples", 10**6, rs, 2, 12)
    with pytest.raises(ValueError, match=r"samples=1000000 would need about 11 GB of memory "
                                         r"\(10,986 bytes a sample for classic with 2 players "
                                         r"and the hand's 2,555 candidate settings\); at most "
                                         r"364099 samples fit in 4 GB"):
        solver.solve(MANY, "classic", players=2, samples=10**6)
    # Adaptive sampling keeps more per candidate; its cap is what is checked.
    with pytest.raises(ValueError, match="samples=100000 would need about 5 GB"):
        solver.solve(MANY, "classic", players=2, samples=100_000, precision=0.01)


def test_the_check_up_front_counts_one_setting():
    # Before the hand's candidates are known (no tables, nothing compiled), a request
    # that would not fit even scoring one setting is refused at once: a heads-up classic
    # deal takes 770 bytes so.
    rs = solver.rule_set("classic")
    with pytest.raises(ValueError, match="samples=6000000 would need about 5 GB"):
        sampling.check_sampling(rs, 2, 6_000_000, 0)
    assert sampling.check_sampling(rs, 2, 5_000_000, 0)[0] == 5_000_000
