"""What one decision of the strong player works with: its view, what the
seat knows, the solver, the clock and its random stream."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from types import ModuleType

from ...engine import View
from ..worlds import Knowledge
from .settings import SearchSettings


class OutOfTime(Exception):
    """The decision's clock ran out between two solves."""


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
        return self.deadline is not None and time.perf_counter() > self.deadline


@dataclass
class Decision:
    view: View
    know: Knowledge
    solver: ModuleType
    clock: Clock
    rng: random.Random
    settings: SearchSettings
