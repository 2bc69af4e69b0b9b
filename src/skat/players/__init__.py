"""Computer players: the protocol, the registry, the players, the game
loop and the arena (issue 4, issue 25)."""

from .base import BasePlayer, OffTurnPlayer, Player, ScriptedPlayer
from .catalogue import (
    in_processes,
    load_lab,
    make_player,
    player_info,
    player_names,
    public_players,
    searches,
)
from .loop import PlayerError, Timings, offturn_decision, play_deal, play_list
from .registry import PlayerInfo, register, register_lab

__all__ = [
    "BasePlayer",
    "OffTurnPlayer",
    "Player",
    "PlayerError",
    "PlayerInfo",
    "ScriptedPlayer",
    "Timings",
    "in_processes",
    "load_lab",
    "make_player",
    "offturn_decision",
    "play_deal",
    "play_list",
    "player_info",
    "player_names",
    "public_players",
    "register",
    "register_lab",
    "searches",
]
