"""Compile (or load from Numba's on-disk cache) every kernel the Georgian game calls,
by running a tiny game and a position through them, so that the command line can say
that it is compiling and for how long (``solver._jit.compile_progress``)."""

from __future__ import annotations

from . import kernels as k

ENTRY_KERNELS = (
    k.apply_play, k.baseline_bid, k.baseline_play, k.baseline_trump, k.deal_score, k.evaluate_bids,
    k.evaluate_plays, k.evaluate_trumps, k.highest_card, k.legal_plays, k.popcount, k.record_inference,
    k.sample_hidden, k.suit_bits, k.trick_winner, k.weighted_summary,
)
"""The kernels called from Python (the others are compiled inside these)."""


def compile_kernels() -> None:
    """Call every kernel of ``ENTRY_KERNELS`` once, with the types the game uses."""
    from .advisor import AdvisorPolicy
    from .position import Position
    from .simulate import BaselinePolicy, RandomPolicy, play_game

    # Seat 0 chooses trump in one of each four 9-card deals (by advise_trump, which is
    # not the default), bids and plays by sampling.
    advisor = AdvisorPolicy(1, 1, 1, 1, trump_by_expected_score=True)
    play_game([advisor, BaselinePolicy(), RandomPolicy(), BaselinePolicy()], "classic", seed=0)
    Position.from_dict({"hand": "Kh 7h", "dealer": 3, "turned": "6h", "bids": [1, 1, 0, 0],
                        "plays": ["Jk high s", "As", "9h", "Qs"]}).view()
