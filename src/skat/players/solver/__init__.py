"""The exact open-card solver: a position with every hand open in, numbers out.

Two cores answer the same questions: the compiled one (`_csolver`, a C
extension built by setuptools when a compiler is there) and the pure-Python
one (`skat.players.solver.python`). `IMPLEMENTATION` says which is loaded;
``SKAT_SOLVER=python`` in the environment forces the pure one. Every call of
the compiled core releases the GIL while it searches. See docs/players.md.
"""

from __future__ import annotations

import os

from .api import make_api
from .position import Position, trick_winner

IMPLEMENTATION: str

if os.environ.get("SKAT_SOLVER", "").lower() == "python":
    from . import python as _core

    IMPLEMENTATION = "python"
else:
    try:
        from . import _csolver as _core  # type: ignore[attr-defined, no-redef, unused-ignore]

        IMPLEMENTATION = "c"
    except ImportError:
        from . import python as _core

        IMPLEMENTATION = "python"

_api = make_api(_core.test, _core.exact)
best_points = _api.best_points
reaches = _api.reaches
takes_all = _api.takes_all
null_wins = _api.null_wins
card_values = _api.card_values

__all__ = [
    "IMPLEMENTATION",
    "Position",
    "best_points",
    "card_values",
    "null_wins",
    "reaches",
    "takes_all",
    "trick_winner",
]
