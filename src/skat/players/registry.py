"""The players' registry (issue 25, point 1): the two registers every
computer player enters by name, with what it costs and whether people may
choose it. A leaf: it imports no player; `skat.players.catalogue` imports
the product's players and answers the look-ups.

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


def product() -> dict[str, PlayerInfo]:
    """The product's register as it stands (`catalogue` fills it)."""
    return _PRODUCT


def lab() -> dict[str, PlayerInfo]:
    """The lab's register as it stands (empty until the lab is imported)."""
    return _LAB


__all__ = ["COSTS", "Cost", "Factory", "PlayerInfo", "lab", "product", "register", "register_lab"]
