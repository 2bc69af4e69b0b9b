"""The lab's players (issue 25, point 1): frozen baselines and measurement
variants, registered with `skat.players.registry.register_lab`. The arena
and `skat selfplay` find them by name; no table may be made with them.

- ``heuristic-v1``: `heuristic` as it was first measured (issue 4);
- ``search-v1``: the recipe of the first `search` (issue 9; no time budget),
  played through today's `heuristic`, worlds and card play: not frozen;
- ``random``: a uniformly random legal action (the floor of every table).

An older revision of a product player is measured from its commit
(`bench.strength.baseline`), not by a copy here; `heuristic-v1` imports only
the engine and a constant, so it stays as it was measured (docs/players.md).
"""

from . import heuristic_v1, randomplayer, search_v1  # noqa: F401
