"""A whole tournament of computer players (issue 27, point 4): the draw and
the standings of `skat.series.tournament`, every table an ordinary list
(`Series`) played by `play_list`. ``skat tournament simulate`` prints it."""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

from ..series import ListOptions, Series
from ..series.record import list_record
from ..series.sheet import totals
from ..series.shuffle import commitment
from ..series.tournament import draw, fill_to_tables, standings
from .catalogue import make_player
from .levels import player_for
from .loop import play_list


def tournament_seed(seed: int) -> bytes:
    """The 32-byte secret of a simulated tournament, from a number."""
    return hashlib.sha256(b"skat-tournament" + seed.to_bytes(8, "big", signed=True)).digest()


def table_seed(secret: bytes, series: int, table: int) -> bytes:
    """Each table's own list seed, from the tournament's secret."""
    msg = b"skat-table" + series.to_bytes(4, "big") + table.to_bytes(4, "big")
    return hmac.new(secret, msg, hashlib.sha256).digest()


def simulate(
    entrants: int,
    series: int,
    rounds: int = 12,
    level: str = "casual",
    seed: int = 1,
    rules: dict[str, Any] | None = None,
    records: bool = False,
) -> dict[str, Any]:
    """Entrants ``Player 1`` .. ``Player N`` (and computer fill to whole
    tables, not ranked) play ``series`` series of ``rounds`` rounds; every
    table's list with ``rules`` (the list options but players and deals).
    The result: the draw's commitment and seed, per series its tables
    (``seats``, ``totals``: name to total for that list; with ``records``
    the list record too), and the ``standings`` over all series."""
    if not 1 <= entrants <= 200:
        raise ValueError("a tournament has 1 to 200 entrants")
    if series < 1 or rounds < 1:
        raise ValueError("series and rounds must be at least 1")
    base = dict(rules or {})
    for key in ("players", "deals"):
        if key in base:
            raise ValueError(f"{key} is set by the draw and the rounds")
    bot = player_for(level)
    secret = tournament_seed(seed)
    names = [f"Player {i + 1}" for i in range(entrants)]
    fill = [f"Computer {i + 1}" for i in range(fill_to_tables(entrants))]
    results = []
    out_series = []
    for s in range(1, series + 1):
        tables = []
        for t, seats in enumerate(draw(secret, s, names + fill), 1):
            n = len(seats)
            options = ListOptions.from_dict({**base, "players": n, "deals": rounds * n})
            lst = Series(options, seed=table_seed(secret, s, t), names=seats)
            rng = random.Random(seed * 1_000_003 + s * 1009 + t)
            play_list(lst, [make_player(bot, random.Random(rng.random())) for _ in seats])
            sums = totals(lst.rows, n, options.scoring)
            results += [(seats[x.seat], x) for x in sums if seats[x.seat] not in fill]
            table: dict[str, Any] = {
                "seats": list(seats),
                "totals": {seats[x.seat]: x.total for x in sums},
            }
            if records:
                table["record"] = list_record(lst, id=f"series {s} table {t}")
            tables.append(table)
        out_series.append({"tables": tables})
    return {
        "commitment": commitment(secret),
        "seed": secret.hex(),
        "entrants": names,
        "computer_fill": fill,
        "series": out_series,
        "standings": [
            {"name": r.name, "total": r.total, "won": r.won, "lost": r.lost, "place": r.place}
            for r in standings(results)
        ],
    }


__all__ = ["simulate", "table_seed", "tournament_seed"]
