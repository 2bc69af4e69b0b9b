"""Issue 27, point 2: the lobby. A public table waiting for people is listed
on the home page (GET /api/lobby) with its rules, level, language and free
seats; a private table never is; a table that starts leaves the lobby; one
address shows at most two tables; a stranger sits down from it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.helpers.server import join, new_table, serve, watch
from tests.helpers.server import public as public_info


def _lobby(client: Any) -> list[dict[str, Any]]:
    r = client.get("/api/lobby")
    assert r.status_code == 200, r.text
    tables: list[dict[str, Any]] = r.json()["tables"]
    return tables


def _until(client: Any, ok: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
    """The lobby once ``ok`` holds (the actor writes it just after the event)."""
    end = time.monotonic() + 5
    while True:
        tables = _lobby(client)
        if ok(tables) or time.monotonic() > end:
            return tables
        time.sleep(0.02)


def _row(tables: list[dict[str, Any]], tid: str) -> dict[str, Any] | None:
    return next((t for t in tables if t["id"] == tid), None)


def test_a_public_table_is_listed_until_it_starts_and_a_private_one_never(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as (_, client, _db):
        private = new_table(client, players=3)
        public = new_table(client, players=4, public=True, lang="de", level="strong")
        anna = join(client, public["id"], "Anna")
        # listed at once with four free seats; Anna's seat follows a moment later
        tables = _until(client, lambda ts: (_row(ts, public["id"]) or {}).get("free") == 3)
        assert _row(tables, private["id"]) is None
        row = _row(tables, public["id"])
        assert row is not None
        assert row["free"] == 3 and row["lang"] == "de" and row["level"] == "strong"
        assert row["options"]["players"] == 4
        assert [s["name"] for s in row["seats"]] == ["Anna", None, None, None]
        assert "token" not in str(row) and "creator" not in str(row)
        # a stranger sits down from the lobby: one seat less
        ben = join(client, public["id"], "Ben")
        tables = _until(client, lambda ts: (_row(ts, public["id"]) or {}).get("free") == 2)
        row = _row(tables, public["id"])
        assert (
            row is not None
            and row["free"] == 2
            and [s["name"] for s in row["seats"]][:2] == ["Anna", "Ben"]
        )
        # the table starts (computers fill the rest): out of the lobby
        anna.send(type="fill", creator=public["creator"])
        anna.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "start", timeout=10)
        ben.drain()
        assert public_info(client, public["id"])["table"]["status"] == "playing"
        assert _row(_until(client, lambda ts: _row(ts, public["id"]) is None), public["id"]) is None


def test_one_address_shows_at_most_two_tables_newest_first(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        made = [new_table(client, public=True)["id"] for _ in range(3)]
        for tid in made:
            join(client, tid, "Anna")  # the actor lists a table from its first event on
        tables = _until(client, lambda ts: len(ts) >= 2 and ts[0]["id"] == made[2])
        assert [t["id"] for t in tables] == [made[2], made[1]]


def test_the_lobby_survives_a_restart_and_bad_settings_are_refused(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, public=True, lang="da")
        join(client, t["id"], "Anna")
        for bad in ({"public": 1}, {"public": "yes"}, {"lang": "fr"}, {"lang": 3}):
            r = client.post("/api/tables", json={"rounds": 1, **bad})
            assert r.status_code == 400, bad
            assert r.json()["error"]["code"] == "BAD_OPTIONS"
    with serve(tmp_path) as (_, client, _db):
        assert [x["id"] for x in _lobby(client)] == [t["id"]]


def test_a_public_table_nobody_sits_at_expires_however_long_it_is_watched(
    tmp_path: Path,
) -> None:
    """Issue 54, finding 6: one spectator's socket kept a public table
    nobody ever sat at listed for good; a private one's watchers are its
    creator's friends, who keep it (as before)."""
    with serve(tmp_path) as (app, client, _db):
        public = new_table(client, public=True)
        private = new_table(client)
        watchers = [watch(client, public["id"]), watch(client, private["id"])]
        cfg = app.state.config
        cfg.unvisited_timeout = 0.05
        time.sleep(0.1)
        client.portal.call(app.state.tables.sweep)
        assert public_info(client, public["id"])["table"]["status"] == "expired"
        assert public_info(client, private["id"])["table"]["status"] == "open"
        assert _row(_lobby(client), public["id"]) is None
        for w in watchers:
            w.close()
