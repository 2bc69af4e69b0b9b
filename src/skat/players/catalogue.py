"""The catalogue of computer players: the product's players imported, the
look-ups by name, and the lab on request (issue 50, point 2).

The server, the terminal game and the levels see only the product's players
(`register`). The lab's (`register_lab`, `skat.players.lab`: frozen
baselines and measurement variants) are imported only when asked for with
``lab=True``: by the arena, the command line's lab commands and `bench/`.
A server process never imports `skat.players.lab`, so a stored table that
names a lab player is refused on load (`skat.server.table.Settings`).
"""

from __future__ import annotations

import random

from . import club, heuristic, novice, registry, search  # noqa: F401  (they register themselves)
from .base import Player
from .registry import PlayerInfo


def load_lab() -> None:
    """Import the lab's players (idempotent)."""
    from . import lab as _lab  # noqa: F401


def player_names(*, lab: bool = False) -> list[str]:
    """The product's players (with ``lab``: and the lab's), sorted."""
    if lab:
        load_lab()
        return sorted((*registry.product(), *registry.lab()))
    return sorted(registry.product())


def public_players() -> list[str]:
    """The players a table may be made with."""
    return sorted(n for n, i in registry.product().items() if i.public)


def player_info(name: str, *, lab: bool = False) -> PlayerInfo:
    """The entry of ``name`` (with ``lab``, a lab player's too);
    `ValueError` if there is none."""
    info = registry.product().get(name)
    if info is None and lab:
        load_lab()
        info = registry.lab().get(name)
    if info is None:
        known = ", ".join(player_names(lab=lab))
        raise ValueError(f"no player named {name!r}; known: {known}")
    return info


def searches(name: str) -> bool:
    """Whether ``name`` is a product player that searches (the server's
    search processes, counted as a strong table)."""
    info = registry.product().get(name)
    return info is not None and info.cost == "search"


def in_processes(name: str) -> bool:
    """Whether ``name`` is a product player doing CPU-bound work (cost
    ``light`` or ``search``): the server runs its decisions in the search
    processes, off the threads the cheap players share."""
    info = registry.product().get(name)
    return info is not None and info.cost in ("light", "search")


def make_player(name: str, rng: random.Random | None = None, *, lab: bool = False) -> Player:
    """A new player of the registered kind ``name``."""
    return player_info(name, lab=lab).factory(rng or random.Random(0))


__all__ = [
    "in_processes",
    "load_lab",
    "make_player",
    "player_info",
    "player_names",
    "public_players",
    "searches",
]
