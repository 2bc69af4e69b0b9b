"""Computer players: the protocol, the registry, the baseline bots, the game
loop and the arena (issue 4)."""

from .base import (
    BasePlayer,
    OffTurnPlayer,
    Player,
    ScriptedPlayer,
    make_player,
    player_names,
    register,
)
from .loop import PlayerError, Timings, offturn_decision, play_deal, play_list

__all__ = [
    "BasePlayer",
    "OffTurnPlayer",
    "Player",
    "PlayerError",
    "ScriptedPlayer",
    "Timings",
    "make_player",
    "offturn_decision",
    "play_deal",
    "play_list",
    "player_names",
    "register",
]
