"""References for the solver's tests: a Hand deal at trick 1 and a plain
minimax over the engine's own `Deal`, which shares no code with the solver."""

from __future__ import annotations

from typing import Any

from skat.engine import Announce, Contract, Deal, GameType

_AUCTION = {0: ["pass", "pass", "bid 18"], 1: ["bid 18", "pass", "pass"], 2: ["pass", "bid 18"]}


def hand_deal(deck: list[int] | list[Any], game: GameType, declarer: int) -> Deal:
    """A deal with ``declarer`` (a position) playing ``game`` Hand, at trick 1."""
    deal = Deal(deck)
    for text in _AUCTION[declarer]:
        deal.apply_text(text)
    if declarer == 2:
        deal.apply_text("pass")
    deal.apply(Announce(Contract(game, True)))
    return deal


def minimax(deal: Deal, objective: str) -> int:
    """Plain minimax over the engine's legal plays; the declarer maximises.

    ``points``: the declarer's final card points; ``null``: 1 if the Null
    declarer wins; ``all``: 1 if the declarer takes every trick.
    """
    if deal.is_terminal():
        r = deal.result
        assert r is not None
        if objective == "points":
            return r.declarer_points
        if objective == "null":
            return int(bool(r.won))
        return int(r.declarer_tricks == 10)
    seat = deal.current_seat
    assert seat is not None
    values = []
    for action in deal.legal_actions():
        child = deal.clone()
        child.apply(action)
        values.append(minimax(child, objective))
    return max(values) if deal.position_of(seat) == deal.declarer else min(values)
