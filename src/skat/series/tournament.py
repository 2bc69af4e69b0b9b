"""Tournaments (issue 27): the draw of entrants to tables and the standings
over every table and series (docs/tournaments.md).

The draw is verifiable like the shuffles (docs/fairness.md): a tournament
commits to a secret seed by publishing ``SHA-256(seed)`` before the first
series; series ``k`` seats the entrants, listed in the order they entered,
by a Fisher-Yates permutation driven by ``HMAC-SHA256(seed, b"skat-draw" ||
k || i)`` (the same stream and rejection sampling as a deck) and cuts it
into tables in order: as many tables of four as the number allows, the
rest of three (`table_sizes`). Once the seed is revealed anyone can redo
every draw (`verify_draw`).

Standings add each entrant's list totals (Seeger-Fabian, or the plain list)
over all tables and series and rank by R8.4: the total, then more games
won, then fewer lost; full ties share the place.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .sheet import PlayerTotal
from .shuffle import SEED_BYTES, commitment

DRAW_DOMAIN = b"skat-draw"
MAX_ENTRANTS = 200


def table_sizes(n: int) -> list[int]:
    """Tables for ``n`` seated players: as many of four as possible, the rest
    of three (13: 4 3 3 3; 12: 4 4 4). `ValueError` where no such split
    exists (1, 2 and 5 players: see `fill_to_tables`)."""
    for fours in range(n // 4, -1, -1):
        rest = n - 4 * fours
        if rest % 3 == 0 and n > 0:
            return [4] * fours + [3] * (rest // 3)
    raise ValueError(f"{n} players cannot sit at tables of three and four")


def fill_to_tables(n: int) -> int:
    """How many computer players make ``n`` entrants whole tables (0 for
    every number but 1, 2 and 5)."""
    k = 0
    while True:
        try:
            table_sizes(n + k)
            return k
        except ValueError:
            k += 1


def _permutation(seed: bytes, number: int, n: int) -> list[int]:
    """The Fisher-Yates permutation of ``range(n)`` for draw ``number``."""
    order = list(range(n))
    counter = 0
    words: list[int] = []
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = (1 << 32) - (1 << 32) % m
        while True:
            if not words:
                msg = DRAW_DOMAIN + number.to_bytes(4, "big") + counter.to_bytes(4, "big")
                block = hmac.new(seed, msg, hashlib.sha256).digest()
                words = [int.from_bytes(block[j : j + 4], "big") for j in range(28, -1, -4)]
                counter += 1
            u = words.pop()
            if u < limit:
                break
        j = u % m
        order[i], order[j] = order[j], order[i]
    return order


def draw(seed: bytes, number: int, entrants: Sequence[str]) -> list[list[str]]:
    """The tables of series ``number`` (1-based): each a list of names in seat
    order. ``entrants`` in the order they entered, computer fill included."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes")
    if number < 1:
        raise ValueError("series numbers start at 1")
    if len(set(entrants)) != len(entrants):
        raise ValueError("every entrant needs a name of their own")
    if len(entrants) > MAX_ENTRANTS:
        raise ValueError(f"a tournament has at most {MAX_ENTRANTS} entrants")
    order = [entrants[i] for i in _permutation(seed, number, len(entrants))]
    tables: list[list[str]] = []
    at = 0
    for size in table_sizes(len(entrants)):
        tables.append(order[at : at + size])
        at += size
    return tables


def verify_draw(
    seed: bytes,
    published: str,
    number: int,
    entrants: Sequence[str],
    tables: Sequence[Sequence[str]],
) -> bool:
    """Whether ``tables`` is the draw of series ``number`` of the tournament
    that published ``published`` (the seed's commitment) before it began."""
    if commitment(seed) != published:
        return False
    return [list(t) for t in tables] == draw(seed, number, entrants)


@dataclass(frozen=True)
class Standing:
    """One entrant over the whole tournament."""

    name: str
    total: int
    won: int
    lost: int
    lists: int  # how many lists (series) the entrant played
    place: int = 0


def standings(results: Iterable[tuple[str, PlayerTotal]]) -> list[Standing]:
    """Each entrant's totals added over every list they played, ranked by
    R8.4 (total, more games won, fewer lost; full ties share a place), best
    first, ties by name."""
    sums: dict[str, list[int]] = {}
    for name, t in results:
        s = sums.setdefault(name, [0, 0, 0, 0])
        s[0] += t.total
        s[1] += t.won
        s[2] += t.lost
        s[3] += 1
    rows = [Standing(n, *v) for n, v in sums.items()]

    def key(r: Standing) -> tuple[int, int, int]:
        return (-r.total, -r.won, r.lost)

    # a place is one more than the rows ranked strictly better: the first
    # place of its equals in the ranked order (not a count over all rows
    # for each row: 200 entrants made that 40,000 comparisons a view)
    placed: list[Standing] = []
    place, last = 0, None
    for i, r in enumerate(sorted(rows, key=key)):
        if key(r) != last:
            place, last = i + 1, key(r)
        placed.append(Standing(r.name, r.total, r.won, r.lost, r.lists, place))
    return sorted(placed, key=lambda r: (r.place, r.name))


__all__ = [
    "DRAW_DOMAIN",
    "MAX_ENTRANTS",
    "Standing",
    "draw",
    "fill_to_tables",
    "standings",
    "table_sizes",
    "verify_draw",
]
