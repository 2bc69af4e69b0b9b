"""What one decision of the strong player works with: its view, what the
seat knows, the solver, the clock and its random stream."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

from ...engine import View
from ..worlds import Knowledge
from .settings import SearchSettings


class OutOfTime(Exception):
    """The decision's clock ran out between two solves."""


# An earlier end that whoever runs the decision may set while it thinks, as
# `time.monotonic` seconds (the server's search pool cuts a running search to a
# fair share when more decisions come to wait: `skat.server.work`). Read with
# the clock, between worlds and solves; a decision without a budget is not cut.
_cut: Callable[[], float] | None = None


@contextmanager
def cut_by(read: Callable[[], float]) -> Iterator[None]:
    """Within it, every budgeted decision of this process also ends once
    ``time.monotonic()`` passes ``read()``."""
    global _cut
    before, _cut = _cut, read
    try:
        yield
    finally:
        _cut = before


@dataclass
class Clock:
    deadline: float | None  # perf_counter seconds; None: no clock

    @classmethod
    def start(cls, budget: float | None) -> Clock:
        return cls(None if budget is None else time.perf_counter() + budget)

    def check(self) -> None:
        if self.over:
            raise OutOfTime

    @property
    def over(self) -> bool:
        if self.deadline is None:
            return False
        if time.perf_counter() > self.deadline:
            return True
        return _cut is not None and time.monotonic() > _cut()


@dataclass
class Decision:
    view: View
    know: Knowledge
    solver: ModuleType
    clock: Clock
    rng: random.Random
    settings: SearchSettings
