"""The end of a deal: the result and the list entries (R5-R8; a Ramsch's in
ramsch.py).

The steps of `Deal` (deal.py), one function each over the deal's state;
only `Deal` and its sibling step modules call them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import mask_points
from .game import GameType
from .state import DealResult, Phase, RamschOutcome
from .values import Valuation, seeger_fabian_others, value_game

if TYPE_CHECKING:
    from .dealstate import DealState

_NULL = GameType.NULL

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_DONE = Phase.DONE


def finish_passed(deal: DealState) -> None:
    n = deal.players
    set_result(
        deal,
        kind="passed",
        declarer=-1,
        valuation=None,
        ended="played",
        plain=(0,) * n,
        sf=(0,) * n,
    )


def finish_game(
    deal: DealState, ended: str, outcome: str, by: int | None, claimed: int | None = None
) -> None:
    """Settle a declared game. ``claimed``: the defenders accepted the
    declarer's claim (R6.6), the level he claimed (0 the game, 1 Schneider,
    2 Schwarz; only that counts beyond the announcement, unless the table
    plays the ISS's reading, ``Rules.claim_levels == "taken"``)."""
    d = deal._declarer
    contract = deal._contract
    assert contract is not None
    # The skat counts for the declarer (R4.7): his discard, the skat of a
    # Hand game, or, when the game ended before the discard (ISS 4.4),
    # the two cards he picked up.
    points = deal._points[d] + mask_points(deal._skat or deal._dealt[3])
    tricks = deal._ntricks[d]
    if outcome == "defenders_lost" and contract.game != _NULL:
        # Everything a defender has not won goes to the declarer (ISS 4.2).
        defender_points = sum(deal._points[q] for q in deal._defenders())
        defender_tricks = sum(deal._ntricks[q] for q in deal._defenders())
        points, tricks = 120 - defender_points, 10 - defender_tricks
    cards12 = deal._dealt[d] | deal._dealt[3]
    val = value_game(
        contract,
        deal._value,
        points,
        tricks,
        cards12,
        tricks_played=len(deal._tricks),
        outcome=outcome,  # type: ignore[arg-type]
        rules=deal.rules,
        claimed=claimed if deal.rules.claim_levels == "claimed" else None,
    )
    factor = (4 if deal._re else 2 if deal._kontra >= 0 else 1) * deal.bock_factor
    n = deal.players
    dseat = deal._seats[d]
    plain = [0] * n
    plain[dseat] = val.plain_entry(factor)
    sf = [seeger_fabian_others(val.won, n)] * n
    sf[dseat] = val.seeger_fabian_entry(factor)
    set_result(
        deal,
        kind="game",
        declarer=d,
        valuation=val,
        ended=ended,
        plain=tuple(plain),
        sf=tuple(sf),
        points=points,
        tricks=tricks,
        ended_by=by,
    )


def set_result(
    deal: DealState,
    *,
    kind: str,
    declarer: int,
    valuation: Valuation | None,
    ended: str,
    plain: tuple[int, ...],
    sf: tuple[int, ...],
    points: int = 0,
    tricks: int = 0,
    ramsch_points: tuple[int, ...] | None = None,
    ramsch: RamschOutcome | None = None,
    penalties: tuple[int, ...] = (),
    ended_by: int | None = None,
) -> None:
    deal._phase = _DONE
    n = deal.players
    # DealResult(...) by keyword costs ten times this in the named tuple's
    # Python-level __new__; the fields in their order (checked below).
    deal._result = _new_result(
        DealResult,
        (
            kind,
            n,
            deal.dealer,
            None if declarer < 0 else declarer,
            None if declarer < 0 else deal._seats[declarer],
            deal._value,
            deal._contract if kind in ("game", "ramsch") else None,
            valuation,
            points,
            tricks,
            ended,
            deal._kontra >= 0,
            deal._re,
            deal.bock_factor,
            plain,
            sf,
            ramsch_points,
            ramsch,
            penalties or (0,) * n,
            ended_by,
        ),
    )


_new_result = tuple.__new__
assert DealResult._fields == (
    "kind",
    "players",
    "dealer",
    "declarer",
    "declarer_seat",
    "bid",
    "contract",
    "valuation",
    "declarer_points",
    "declarer_tricks",
    "ended",
    "kontra",
    "re",
    "bock_factor",
    "plain",
    "seeger_fabian",
    "ramsch_points",
    "ramsch",
    "penalties",
    "ended_by",
)
