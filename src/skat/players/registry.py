"""The players' registry (issue 25, point 1): every computer player by name,
with what it costs and whether people may choose it.

Two registers. The product's players (``register``) are the ones a table,
the terminal game and the levels may use; each says its ``cost`` (``cheap``:
milliseconds in a thread; ``light``: a short search of its own fixed budget,
tens of milliseconds, run in the server's search processes but not counted as
a strong table; ``search``: CPU-bound, given the server's time budget in its
search processes, a strong table) and whether it is ``public`` (a table may be
created with it). The lab's players (``register_lab``, in
`skat.players.lab`: frozen baselines such as ``search-v1``, ``random``)
exist for measurements: `make_player` and the arena find them, the server
never offers them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .base import Player

Factory = Callable[[random.Random], Player]
Cost = Literal["cheap", "light", "search"]
COSTS: tuple[Cost, ...] = ("cheap", "light", "search")


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    factory: Factory
    cost: Cost
    public: bool  # a table may be made with it
    lab: bool  # a frozen baseline or a measurement variant
    summary: str = ""


_PRODUCT: dict[str, PlayerInfo] = {}
_LAB: dict[str, PlayerInfo] = {}


def _add(book: dict[str, PlayerInfo], info: PlayerInfo) -> None:
    if info.name in _PRODUCT or info.name in _LAB:
        raise ValueError(f"a player named {info.name!r} is registered already")
    if info.cost not in COSTS:
        raise ValueError(f"cost must be one of {COSTS}")
    book[info.name] = info


def register(
    name: str, *, cost: Cost = "cheap", public: bool = False, summary: str = ""
) -> Callable[[Factory], Factory]:
    """Class or function decorator of a product player:
    ``@register("heuristic", public=True)``."""

    def deco(factory: Factory) -> Factory:
        _add(_PRODUCT, PlayerInfo(name, factory, cost, public, False, summary))
        return factory

    return deco


def register_lab(
    name: str, *, cost: Cost = "cheap", summary: str = ""
) -> Callable[[Factory], Factory]:
    """Class or function decorator of a lab player (never public)."""

    def deco(factory: Factory) -> Factory:
        _add(_LAB, PlayerInfo(name, factory, cost, False, True, summary))
        return factory

    return deco


def _load_builtin() -> None:
    from . import club, heuristic, novice, search  # noqa: F401


def _load_lab() -> None:
    _load_builtin()
    from . import lab  # noqa: F401


def player_names(*, lab: bool = False) -> list[str]:
    """The product's players (with ``lab``: and the lab's), sorted."""
    if lab:
        _load_lab()
        return sorted((*_PRODUCT, *_LAB))
    _load_builtin()
    return sorted(_PRODUCT)


def public_players() -> list[str]:
    """The players a table may be made with."""
    _load_builtin()
    return sorted(n for n, i in _PRODUCT.items() if i.public)


def player_info(name: str) -> PlayerInfo:
    """The registry's entry of ``name`` (product or lab); `ValueError` if
    there is none."""
    _load_builtin()
    if name not in _PRODUCT:
        _load_lab()
    info = _PRODUCT.get(name) or _LAB.get(name)
    if info is None:
        raise ValueError(f"no player named {name!r}; known: {', '.join(player_names(lab=True))}")
    return info


def searches(name: str) -> bool:
    """Whether ``name`` is a searching player (the server's search processes)."""
    try:
        return player_info(name).cost == "search"
    except ValueError:
        return False


def in_processes(name: str) -> bool:
    """Whether ``name`` does CPU-bound work (cost ``light`` or ``search``):
    the server runs its decisions in the search processes, off the threads
    the cheap players share."""
    try:
        return player_info(name).cost in ("light", "search")
    except ValueError:
        return False


def make_player(name: str, rng: random.Random | None = None) -> Player:
    """A new player of the registered kind ``name`` (product or lab)."""
    return player_info(name).factory(rng or random.Random(0))


__all__ = [
    "COSTS",
    "Cost",
    "Factory",
    "PlayerInfo",
    "in_processes",
    "make_player",
    "player_info",
    "player_names",
    "public_players",
    "register",
    "register_lab",
    "searches",
]
