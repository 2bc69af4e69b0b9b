"""The lab's players (issue 25, point 1): frozen baselines and measurement
variants, registered with `skat.players.registry.register_lab`. The arena
and `skat selfplay` find them by name; no table may be made with them.

- ``heuristic-v1``: `heuristic` as it was first measured (issue 4);
- ``search-v1``: `search` as it was first measured (issue 9; no time budget);
- ``random``: a uniformly random legal action (the floor of every table).

Comparing against an older revision of a product player is done by keeping
its frozen copy here (docs/players.md says which ones are kept and why).
"""

from . import heuristic_v1, randomplayer, search_v1  # noqa: F401
