"""``search``, the strong level: a Perfect Information Monte Carlo player
(docs/players.md).

For every decision it deals the cards it cannot see into *worlds* that fit
its `View` (`skat.players.worlds`: played cards, voids, its own hand and
skat, Ouvert cards, weighted by what the auction, the game choice and the
cards the others chose to play say), asks the exact open-card solver
(`skat.players.solver`) about each world, and chooses the action with the
best expected Seeger-Fabian result (R8.2).

- `settings`: `SearchSettings`, the one value that says how it searches,
  and the constants its decisions use;
- `contract`: the bid and Hand or pickup by the learned hand evaluator, the
  discard and the game by solves;
- `cards`: the card play, Kontra and Re by solves;
- `entries`: the declarer's entries of the outcome classes;
- `player`: `SearchPlayer`, which dispatches by phase.

Determinism and time: with ``time_budget=None`` (the registry default,
which the arena and the tests use) a decision solves a fixed number of
worlds, so a seed replays exactly. With a ``time_budget`` in seconds (the
server's choice) it stops adding worlds when the time is up: anytime, but
no longer reproducible. Whatever fails (no solver, no world, no time) falls
back to `heuristic`'s choice, never to the first legal action. Ramsch (no
declarer; the solver knows no Ramsch) is played by `heuristic`.
"""

from __future__ import annotations

import random

from ..registry import register
from .player import SearchPlayer
from .settings import SearchSettings

__all__ = ["SearchPlayer", "SearchSettings"]


@register(
    "search",
    cost="search",
    public=True,
    summary="the strong level: PIMC over the open-card solver, within a time budget",
)
def _make(rng: random.Random) -> SearchPlayer:
    return SearchPlayer(rng)
