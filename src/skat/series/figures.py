"""One person's figures of a list and over many (issue 48, point 3: the
profile): games declared and won by game type, Seeger-Fabian per deal (R8.2),
thrown-in deals (R2.6: all passed), Kontra and Re said and won (R9.3),
the total and the place (R8.3, R8.4). Plain dictionaries of numbers: the
server keeps a finished list's figures as JSON and adds lists together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import GameType, Kontra, Re
from .series import Series

#: The game types a person may declare, in the order a profile lists them.
DECLARED = tuple(g.label for g in GameType if g != GameType.RAMSCH)


def list_figures(series: Series, seat: int) -> dict[str, Any]:
    """``seat``'s figures over the settled deals of ``series`` so far."""
    games = {g: {"declared": 0, "won": 0} for g in DECLARED}
    played = thrown_in = ramsch = 0
    kontra = {"said": 0, "won": 0}
    re = {"said": 0, "won": 0}
    seeger_fabian = 0
    for deal, row in zip(series.deals, series.rows, strict=False):
        # the dealer at four sits out (R1.4) and still gets an entry (R8.3)
        seeger_fabian += row.seeger_fabian[seat]
        if deal.position_of(seat) is None:
            continue
        played += 1
        if row.kind == "passed":
            thrown_in += 1
        elif row.kind == "ramsch":
            ramsch += 1
        elif row.kind == "game" and row.declarer == seat and row.contract is not None:
            g = games[row.contract.game.label]
            g["declared"] += 1
            g["won"] += int(bool(row.won))
        for who, action in deal.history:
            if who != seat:
                continue
            if isinstance(action, Kontra):  # said by a defender: won when the declarer lost
                kontra["said"] += 1
                kontra["won"] += int(row.won is False)
            elif isinstance(action, Re):  # said by the declarer
                re["said"] += 1
                re["won"] += int(bool(row.won))
    total = series.totals()[seat]
    return {
        "players": series.options.players,
        "scoring": series.options.scoring,
        "deals": series.options.deals_per_list,
        "settled": len(series.rows),
        "over": series.is_over(),
        "played": played,
        "total": total.total,
        "place": total.place,
        "seeger_fabian": seeger_fabian,
        "games": games,
        "thrown_in": thrown_in,
        "ramsch": ramsch,
        "kontra": kontra,
        "re": re,
    }


def combined(figures: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of many lists added up, with Seeger-Fabian per deal at
    the table (``per_deal``: the sheet's entries over its deals)."""
    games = {g: {"declared": 0, "won": 0} for g in DECLARED}
    out: dict[str, Any] = {
        "lists": len(figures),
        "settled": 0,
        "played": 0,
        "seeger_fabian": 0,
        "thrown_in": 0,
        "ramsch": 0,
        "kontra": {"said": 0, "won": 0},
        "re": {"said": 0, "won": 0},
        "first_places": 0,
    }
    for f in figures:
        for key in ("settled", "played", "seeger_fabian", "thrown_in", "ramsch"):
            out[key] += f[key]
        for key in ("kontra", "re"):
            for part in ("said", "won"):
                out[key][part] += f[key][part]
        for g in DECLARED:
            for part in ("declared", "won"):
                games[g][part] += f["games"][g][part]
        out["first_places"] += int(f["over"] and f["place"] == 1)
    out["games"] = games
    out["declared"] = sum(g["declared"] for g in games.values())
    out["won"] = sum(g["won"] for g in games.values())
    out["per_deal"] = round(out["seeger_fabian"] / out["settled"], 1) if out["settled"] else 0.0
    return out


__all__ = ["DECLARED", "combined", "list_figures"]
