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


def offturn_decision(
    deal: Deal,
    players: Sequence[Player | None],
    *,
    timings: Sequence[Timings] | None = None,
) -> tuple[int, Action] | None:
    """Offer Kontra to every seat that may say it now but is not to move
    (R9.3: under ``own_first_card`` a defender may say it at any moment until
    his own first card). Each such seat's player is asked through its optional
    ``offturn(view)`` method (see `skat.players.base.OffTurnPlayer`), whose
    view lists what the seat may say now; it answers one of
    ``view.legal_actions`` or ``None`` to decline. Players without the method
    are never asked off-turn. Returns the first (seat, action) said, in
    position order starting from the seat to move, without applying it; the
    game loop and the server apply it for that seat before the seat to move
    acts. Nothing is asked when the table plays without Kontra."""
    seats = deal.kontra_seats()
    if not seats:
        return None
    current = deal.current_seat
    n = deal.players
    for seat in sorted(seats, key=lambda s: (s - (current or 0)) % n):
        if seat == current:
            continue  # asked through choose, with the other actions of its turn
        player = players[seat]
        ask = getattr(player, "offturn", None)
        if ask is None:
            continue
        view = deal.view(seat)
        start = time.perf_counter()
        action = ask(view)
        if timings is not None:
            timings[seat].add("offturn", time.perf_counter() - start)
        if action is None:
            continue
        if action not in view.legal_actions:
            name = getattr(player, "name", "?")
            raise PlayerError(f"{name} in seat {seat} said '{action}' off-turn: not allowed now")
        return seat, action
    return None


def play_deal(
    deal: Deal,
    players: Sequence[Player | None],
    *,
    timings: Sequence[Timings] | None = None,
    on_action: OnAction | None = None,
    apply: Callable[[Action, int], None] | None = None,
) -> DealResult:
    """Play ``deal`` to the end: offer Kontra to the seats that may say it
    off-turn (`offturn_decision`), ask the seat to move for an action, apply
    it, tell everybody. ``players`` is indexed by table seat (the dealer's entry
    at a four-player table is never asked). ``apply`` defaults to
    ``deal.apply``; a list passes its own so that it keeps the sheet."""
    do = apply or deal.apply
    while not deal.is_terminal():
        said = offturn_decision(deal, players, timings=timings)
        if said is not None:
            _apply(do, deal, players, said[0], said[1], on_action)
            continue
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
        _apply(do, deal, players, seat, action, on_action)
    assert deal.result is not None
    return deal.result


def _apply(
    do: Callable[[Action, int], None],
    deal: Deal,
    players: Sequence[Player | None],
    seat: int,
    action: Action,
    on_action: OnAction | None,
) -> None:
    try:
        do(action, seat)
    except IllegalActionError as exc:
        name = getattr(players[seat], "name", "?")
        raise PlayerError(f"{name} in seat {seat} chose '{action}': {exc}") from exc
    for p in players:
        if p is not None:
            p.notify(seat, action)
    if on_action is not None:
        on_action(deal, seat, action)


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
