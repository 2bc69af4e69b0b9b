"""The score sheet (Spielliste, R8): one row per deal, totals, the
Seeger-Fabian footer and the ranking with the ISkO tie-break (R8.4)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from ..engine import Contract, DealResult


@dataclass(frozen=True)
class SheetRow:
    """One deal on the list (R8.5). Seats are table seats."""

    number: int
    dealer: int
    kind: str  # game, passed, ramsch, abandoned
    declarer: int | None
    game: str | None  # contract in words, e.g. "Grand Hand"
    matadors: int
    bid: int
    declarer_points: int
    declarer_tricks: int
    won: bool | None
    overbid: bool
    value: int
    kontra: bool
    re: bool
    bock_factor: int
    ramsch_round: bool
    plain: tuple[int, ...]
    seeger_fabian: tuple[int, ...]
    ramsch_points: tuple[int, ...] | None = None  # per seat (0 for the dealer at four)
    # the contract as fields (game, hand, schneider, schwarz, ouvert), so that
    # front ends need not parse `game` back from its English words
    contract: Contract | None = None
    #: the Bock triggers this deal fired (R9.4), e.g. ("kontra_re", "sixty_sixty")
    bock_fired: tuple[str, ...] = ()

    @classmethod
    def from_result(
        cls, number: int, result: DealResult, seats: tuple[int, ...], ramsch_round: bool
    ) -> SheetRow:
        c = result.contract
        val = result.valuation
        ramsch_points = None
        if result.ramsch_points is not None:
            per_seat = [0] * result.players
            for pos, pts in enumerate(result.ramsch_points):
                per_seat[seats[pos]] = pts
            ramsch_points = tuple(per_seat)
        return cls(
            number=number,
            dealer=result.dealer,
            kind=result.kind,
            declarer=result.declarer_seat if result.kind == "game" else None,
            game=c.describe() if c is not None and result.kind == "game" else None,
            matadors=val.matadors if val else 0,
            bid=result.bid,
            declarer_points=result.declarer_points,
            declarer_tricks=result.declarer_tricks,
            won=result.won,
            overbid=bool(val and val.overbid),
            value=result.value,
            kontra=result.kontra,
            re=result.re,
            bock_factor=result.bock_factor,
            ramsch_round=ramsch_round,
            plain=result.plain,
            seeger_fabian=result.seeger_fabian,
            ramsch_points=ramsch_points,
            contract=c if result.kind == "game" else None,
        )

    def entries(self, scoring: str) -> tuple[int, ...]:
        return self.seeger_fabian if scoring == "seeger_fabian" else self.plain

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["bock_fired"] = list(self.bock_fired)
        for k in ("plain", "seeger_fabian", "ramsch_points"):
            if out[k] is not None:
                out[k] = list(out[k])
        c = self.contract
        out["contract"] = (
            None
            if c is None
            else {
                "game": c.game.label,
                "hand": c.hand,
                "schneider": c.schneider,
                "schwarz": c.schwarz,
                "ouvert": c.ouvert,
                "words": list(c.words),
            }
        )
        return out


@dataclass(frozen=True)
class PlayerTotal:
    """A player's footer (R8.3): the plain total and the Seeger-Fabian parts."""

    seat: int
    game_points: int  # plain-list total, Ramsch included
    won: int
    lost: int
    lost_by_others: int
    seeger_fabian: int
    total: int  # under the list's scoring
    place: int = 0
    #: how a tie on the total was settled (R8.4): "won" (more games won),
    #: "lost" (fewer games lost), "shared" (still tied: the same place); None: no tie
    tie_break: str | None = None


def totals(rows: list[SheetRow], players: int, scoring: str) -> list[PlayerTotal]:
    """Totals per seat with places by R8.4 (ties share a place)."""
    out = []
    for seat in range(players):
        plain = sum(r.plain[seat] for r in rows)
        sf = sum(r.seeger_fabian[seat] for r in rows)
        games = [r for r in rows if r.kind == "game"]
        won = sum(1 for r in games if r.declarer == seat and r.won)
        lost = sum(1 for r in games if r.declarer == seat and not r.won)
        by_others = sum(1 for r in games if r.declarer != seat and not r.won)
        total = sf if scoring == "seeger_fabian" else plain
        out.append(PlayerTotal(seat, plain, won, lost, by_others, sf, total))
    key = {t.seat: (-t.total, -t.won, t.lost) for t in out}
    placed = []
    for t in out:
        place = 1 + sum(1 for o in out if key[o.seat] < key[t.seat])
        tied = [o for o in out if o.seat != t.seat and o.total == t.total]
        tie: str | None = None
        if tied:
            if any(o.won != t.won for o in tied):
                tie = "won"
            elif any(o.lost != t.lost for o in tied):
                tie = "lost"
            else:
                tie = "shared"
        placed.append(replace(t, place=place, tie_break=tie))
    return placed


def seeger_fabian_formula(t: PlayerTotal, players: int) -> int:
    """R8.3: game points + (won - lost) x 50 + lost by others x 40 (30 at four)."""
    return t.game_points + (t.won - t.lost) * 50 + t.lost_by_others * (40 if players == 3 else 30)
