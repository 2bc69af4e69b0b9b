"""Strength levels offered to people (issue 9): a level names a registered
player. "beginner" plays like someone who knows the rules but not yet the
game (`novice`: bids and declares by its hand, plain games only, many
beginner's habits in the card play), "casual" plays like a
club player (`club`: bids by the learned hand evaluator, plays its cards by
a 15 ms search), "strong" searches (`search`,
Perfect Information Monte Carlo over the open-card solver, within a time
budget). The server, the terminal game and
`skat selfplay` take a level or a player name."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from ..engine import Action, Phase, View
from ..levels import DEFAULT_LEVEL, LEVEL_OF, LEVELS, Level
from .catalogue import make_player, player_names
from .search.player import planned


def player_for(level_or_name: str, *, lab: bool = False) -> str:
    """The registered player of a level (a product player's own name, with
    ``lab`` a lab player's too, passes through); raises `ValueError` for
    anything else."""
    name = LEVELS.get(level_or_name, level_or_name)
    if name not in player_names(lab=lab):
        raise ValueError(
            f"no player named {level_or_name!r}; levels: {', '.join(LEVELS)}; "
            f"players: {', '.join(player_names(lab=lab))}"
        )
    return name


def level_of(name: str | None) -> str | None:
    """The level a registered player stands for, if any."""
    for level, player in LEVELS.items():
        if player == name:
            return level
    return None


def choose_within(name: str, view: View, seed: int, budget: float | None) -> str:
    """One decision by a fresh player ``name`` (for a worker process: the
    arguments and the answer pickle). A player with a ``time_budget`` is
    given ``budget`` seconds. Returns the action's text."""
    return choose_noted(name, view, seed, None, budget).text


class Choice(NamedTuple):
    """`choose_noted`'s answer (it pickles)."""

    text: str  # the action
    notes: Any  # what the player carries to its next decision (None: nothing)
    fell_back: bool  # the player ran out of time or failed: `heuristic`'s choice


def choose_noted(
    name: str, view: View, seed: int, notes: Any, budget: float | None, limit: float | None = None
) -> Choice:
    """`choose_within` for a player that carries notes from one decision to
    its next (``notes``: the strong player's games planned with its
    discards, so that it announces the game it put away for, R3.2, without
    solving the choice again): the caller, which makes every decision with
    a fresh player, keeps them. The answer says too whether the player fell
    back to `heuristic` itself (a searching player whose first world did not
    finish in its time), which the caller counts as it counts its own.
    ``limit``: the seconds after which a searching player stops at once (by
    default a third more than ``budget``)."""
    player = make_player(name, random.Random(seed))
    if budget is not None and hasattr(player, "time_budget"):
        player.time_budget = budget
    if limit is not None and hasattr(player, "time_limit"):
        player.time_limit = limit
    if notes is not None and hasattr(player, "notes"):
        player.notes = notes
    action = player.choose(view)
    fell_back = getattr(player, "fallbacks", 0) > 0
    return Choice(str(action), getattr(player, "notes", None), fell_back)


def quick(view: View, notes: Any) -> bool:
    """Whether a decision costs about a millisecond for every player (no
    search): a bid, Hand or pickup, the skat pushed on, and an announcement
    whose game was planned with the discard (``notes``; without them the
    strong player solves the choice again)."""
    if view.phase in (Phase.BIDDING, Phase.SKAT, Phase.PUSH):
        return True
    return planned(view, notes) is not None


def fallback(view: View) -> Action:
    """What a computer player that failed or ran out of time does instead:
    `heuristic`'s choice, never merely the first legal action."""
    return make_player("heuristic", random.Random(0)).choose(view)


def offturn_within(name: str, view: View, seed: int) -> str | None:
    """An off-turn decision (Kontra, R9.3) by a fresh player ``name``: the
    action's text or None to decline (players without ``offturn`` decline)."""
    player = make_player(name, random.Random(seed))
    ask = getattr(player, "offturn", None)
    if ask is None:
        return None
    action = ask(view)
    return None if action is None else str(action)


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_OF",
    "Choice",
    "Level",
    "choose_noted",
    "choose_within",
    "fallback",
    "level_of",
    "offturn_within",
    "player_for",
    "quick",
]
