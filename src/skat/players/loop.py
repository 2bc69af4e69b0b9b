"""The one headless game loop, shared by tests, the arena and the server."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine import Action, Deal, DealResult, IllegalActionError
from ..series import Series
from .base import Player


class PlayerError(RuntimeError):
    """A player returned an action the rules refuse (a bug in the player)."""


@dataclass
class Timings:
    """Decision times in seconds, per phase name."""

    by_phase: dict[str, list[float]] = field(default_factory=dict)

    def add(self, phase: str, seconds: float) -> None:
        self.by_phase.setdefault(phase, []).append(seconds)

    def all(self) -> list[float]:
        return [t for ts in self.by_phase.values() for t in ts]


OnAction = Callable[[Deal, int, Action], None]


def play_deal(
    deal: Deal,
    players: Sequence[Player | None],
    *,
    timings: Sequence[Timings] | None = None,
    on_action: OnAction | None = None,
    apply: Callable[[Action, int], None] | None = None,
) -> DealResult:
    """Play ``deal`` to the end: ask the seat to move for an action, apply it,
    tell everybody. ``players`` is indexed by table seat (the dealer's entry
    at a four-player table is never asked). ``apply`` defaults to
    ``deal.apply``; a list passes its own so that it keeps the sheet."""
    do = apply or deal.apply
    while not deal.is_terminal():
        seat = deal.current_seat
        assert seat is not None
        player = players[seat]
        if player is None:
            raise PlayerError(f"no player in seat {seat}")
        view = deal.view(seat)
        start = time.perf_counter()
        action = player.choose(view)
        elapsed = time.perf_counter() - start
        if timings is not None:
            timings[seat].add(view.phase.value, elapsed)
        try:
            do(action, seat)
        except IllegalActionError as exc:
            raise PlayerError(f"{player.name} in seat {seat} chose '{action}': {exc}") from exc
        for p in players:
            if p is not None:
                p.notify(seat, action)
        if on_action is not None:
            on_action(deal, seat, action)
    assert deal.result is not None
    return deal.result


def play_list(
    series: Series,
    players: Sequence[Player],
    *,
    timings: Sequence[Timings] | None = None,
    on_action: OnAction | None = None,
) -> Series:
    """Play every remaining deal of a list."""
    while True:
        play_deal(series.deal, players, timings=timings, on_action=on_action, apply=series.apply)
        if series.is_over():
            return series
        series.next_deal()
