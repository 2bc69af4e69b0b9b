"""The player protocol (ARCHITECTURE.md practice 13).

A player sees only the `View` of its seat (never the deal) and returns one of
``view.legal_actions``. It may be told what happened (`Player.notify`).
Players are made by name from the registry (`skat.players.registry`), with
an injected RNG so that every game replays.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from ..engine import Action, View


@runtime_checkable
class Player(Protocol):
    """What the game loop, the arena and the server need of a player."""

    name: str

    def choose(self, view: View) -> Action:
        """Return one action of ``view.legal_actions`` (never anything else)."""
        ...

    def notify(self, seat: int, action: Action) -> None:
        """``seat`` did ``action`` (called for every accepted action, own ones too)."""
        ...


@runtime_checkable
class OffTurnPlayer(Protocol):
    """A player that also answers decisions off its turn (optional).

    The game loop calls ``offturn(view)`` for a seat that may say Kontra now
    but is not to move (R9.3, window ``own_first_card`` or ``trick_one``),
    before the seat to move acts. ``view.legal_actions`` lists what the seat
    may say (``Kontra``); the player returns one of them, or ``None`` to
    decline. It is asked again before every later action while the window is
    open, so a decline now is no promise for later."""

    def offturn(self, view: View) -> Action | None: ...


class BasePlayer:
    """Convenience base: stores name and RNG, ignores notifications, declines
    every off-turn decision."""

    name = "base"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, view: View) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def notify(self, seat: int, action: Action) -> None:
        return None

    def offturn(self, view: View) -> Action | None:
        """Off-turn Kontra (see `OffTurnPlayer`): declined by default."""
        return None


class ScriptedPlayer(BasePlayer):
    """A test double that plays a fixed list of actions (or texts), in order."""

    name = "scripted"

    def __init__(self, actions: Iterable[Action | str]) -> None:
        super().__init__()
        from ..engine import parse_action

        self.script = [a if isinstance(a, Action) else parse_action(a) for a in actions]
        self.seen: list[tuple[int, Action]] = []

    def choose(self, view: View) -> Action:
        if not self.script:
            raise RuntimeError("the script is exhausted")
        return self.script.pop(0)

    def notify(self, seat: int, action: Action) -> None:
        self.seen.append((seat, action))
