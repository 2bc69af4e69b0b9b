"""What the bench scripts need of the package, for this tree's package and
an older one alike (`bench.strength.baseline --here` runs this tree's
scripts with an older commit's package)."""

from __future__ import annotations

import inspect
import random

from skat.players import Player
from skat.players import make_player as _make


def make_player(name: str, rng: random.Random | None = None) -> Player:
    """A player by name, the lab's included (before issue 50 the registry
    found lab players without being asked)."""
    if "lab" in inspect.signature(_make).parameters:
        return _make(name, rng, lab=True)  # type: ignore[call-arg, unused-ignore]
    return _make(name, rng)
