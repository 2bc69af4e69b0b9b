"""The exact open-card solver: a position with every hand open in, numbers out.

Two cores answer the same questions: the compiled one (`_csolver`, a C
extension built by setuptools when a compiler is there) and the pure-Python
one (`skat.players.solver.python`). `IMPLEMENTATION` says which is loaded;
``SKAT_SOLVER=python`` in the environment forces the pure one. Every call of
the compiled core releases the GIL while it searches. See docs/players.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from . import python as _python
from .api import ExactFn, Stopped, TestFn, limit, make_api
from .position import Position, card_orders, trick_winner

IMPLEMENTATION = "python"
_test: TestFn = _python.test
_exact: ExactFn = _python.exact
clear: Callable[[], None] = _python.clear

if os.environ.get("SKAT_SOLVER", "").lower() != "python":
    try:
        from . import _csolver
    except ImportError:  # not built here: the pure-Python core answers alike
        pass
    else:
        _csolver.init(card_orders())
        _test, _exact, clear = _csolver.test, _csolver.exact, _csolver.clear
        IMPLEMENTATION = "c"

_api = make_api(_test, _exact)
best_points = _api.best_points
reaches = _api.reaches
takes_all = _api.takes_all
null_wins = _api.null_wins
card_values = _api.card_values

__all__ = [
    "IMPLEMENTATION",
    "Position",
    "Stopped",
    "best_points",
    "card_values",
    "clear",
    "limit",
    "null_wins",
    "reaches",
    "takes_all",
    "trick_winner",
]
