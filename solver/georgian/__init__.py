"""Georgian Joker (``georgian``): a four-player trick-taking game with bidding.

The rules it implements are in docs/georgian.md.

Layers, each looking only down: ``cards`` (deck, notation, bitmasks) -> ``kernels``
(Numba: trick rules, baseline policy, sampling, playouts) -> ``rules`` (scoring table
and game schedules as data) -> ``engine`` (one deal, every action validated) ->
``simulate`` (whole games, records) -> ``advisor`` (expected scores by sampling) ->
``position`` (a position given as data) -> ``terminal`` and ``__main__`` (the command
line, ``python3 -m solver.georgian``).

>>> from solver.georgian import DealState
>>> DealState(["Ah", "Kh", "7s", "Jk"], dealer=3, turned_card="9h").legal_actions()
[0, 1]
"""

from .advisor import Advice, AdvisorPolicy, advise_bid, advise_play, advise_trump
from .cards import (
    DECK,
    NO_TRUMP,
    card_str,
    cards_str,
    parse_card,
    parse_cards,
    parse_suit,
)
from .engine import DealState, Play, SeatView, TrickRecord
from .position import Position
from .rules import (
    STANDARD_SCORING,
    VARIANTS,
    GameVariant,
    Scoring,
    deal_score,
    forbidden_dealer_bid,
    get_variant,
    is_khishti,
    pulka_bonus,
)
from .simulate import (
    BaselinePolicy,
    DealRecord,
    GameRecord,
    Policy,
    RandomPolicy,
    play_game,
    replay_deal,
    replay_game,
)

__all__ = [
    "Advice",
    "AdvisorPolicy",
    "BaselinePolicy",
    "DECK",
    "DealRecord",
    "DealState",
    "GameRecord",
    "GameVariant",
    "NO_TRUMP",
    "Play",
    "Policy",
    "Position",
    "RandomPolicy",
    "STANDARD_SCORING",
    "Scoring",
    "SeatView",
    "TrickRecord",
    "VARIANTS",
    "advise_bid",
    "advise_play",
    "advise_trump",
    "card_str",
    "cards_str",
    "deal_score",
    "forbidden_dealer_bid",
    "get_variant",
    "is_khishti",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "play_game",
    "pulka_bonus",
    "replay_deal",
    "replay_game",
]
