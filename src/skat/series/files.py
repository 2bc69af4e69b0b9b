"""Reading a file of games by its content: JSON game records (one object,
a list, or one per line), a list record, or ISS records; each game replayed
to its finished deal. `skat replay` and `skat analyse` read files so, and
the server's analysis board reads an uploaded file so (docs/formats.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..engine import Deal
from ..engine.iss import iter_iss, parse_iss
from ..engine.records import GameRecord, RecordError, replay
from .record import replay_list


def records_in(text: str, name: str) -> Iterator[tuple[str, Any]]:
    """("iss", line), ("list", object), ("json", object) per record in a
    file's text, by its content; ("bad", message) for a line that is not JSON."""
    stripped = text.lstrip()
    if stripped.startswith("(;GM[Skat]"):
        for line in iter_iss(text):
            yield "iss", line
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError, or an integer of 5,000 digits
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                yield "json", json.loads(line)
            except (ValueError, RecursionError) as exc:
                msg = (
                    exc.msg
                    if isinstance(exc, json.JSONDecodeError)
                    else "nested too deeply"
                    if isinstance(exc, RecursionError)
                    else "a number too long"
                )
                yield "bad", f"{name}:{i}: invalid JSON ({msg})"
        return
    if isinstance(data, list):
        for obj in data:
            yield "json", obj
    elif isinstance(data, dict) and data.get("format") == "skat-list":
        yield "list", data
    else:
        yield "json", data


def deals_in(kind: str, item: Any) -> Iterator[tuple[str | None, Deal | RecordError]]:
    """(id, finished deal) per game of one record `records_in` gave; (id,
    RecordError) where it cannot be replayed."""
    for rid, deal, _ in named_deals_in(kind, item):
        yield rid, deal


def named_deals_in(
    kind: str, item: Any
) -> Iterator[tuple[str | None, Deal | RecordError, list[str] | None]]:
    """`deals_in` with the players' names by table seat where the record
    has them (a list record's `players`, an ISS record's P0-P2 by
    position), else None."""
    rid: str | None = None
    try:
        if kind == "bad":
            raise RecordError("MALFORMED_RECORD", 0, str(item))
        if kind == "list":
            lid = item.get("id")
            rid = lid
            players = item.get("players")
            names = (
                [str(n)[:40] for n in players]
                if isinstance(players, list) and len(players) <= 4
                else None
            )
            for i, deal in enumerate(replay_list(item).series.deals, 1):
                yield f"{lid or 'list'}-{i}", deal, names
            return
        if kind == "iss":
            game = parse_iss(item)
            rid = game.id
            deal = replay(game.record)
            by_seat = [""] * 3
            for p in range(3):
                by_seat[deal.seat_of(p)] = game.header.get(f"P{p}", "")[:40]
            yield rid, deal, by_seat if all(by_seat) else None
            return
        record = GameRecord.from_dict(item)
        rid = record.id
        yield rid, replay(record), None
    except RecordError as exc:
        if isinstance(item, dict) and rid is None:
            rid = item.get("id")
        yield rid, exc, None


__all__ = ["deals_in", "named_deals_in", "records_in"]
