"""What an operator may do to a running site without losing a table
(issue 28, finding 8): lower a limit, find a corrupt row in the database.

A stored table keeps the rules it was made with whatever the limits are now;
any row that cannot be read marks its own table broken (logged, HTTP 503)
and the start-up goes on serving every other table.
"""

from __future__ import annotations

import urllib.error
from pathlib import Path

import pytest

from tests.helpers.processes import Server, free_port
from tests.helpers.server import Peer, join, new_table, public, serve
from tests.helpers.stores import KIND, db_for

#: Rows as a disk fault, a hand edit or another program could leave them
#: (SQLite keeps a value of any type in any column).
CORRUPTIONS = {
    "options not JSON": "UPDATE skat_tables SET config = 'not json' WHERE id = :id",
    "options a list": "UPDATE skat_tables SET config = '[]' WHERE id = :id",
    "creation time text": "UPDATE skat_tables SET created_at = 'yesterday' WHERE id = :id",
    "seed not hex": "UPDATE skat_tables SET seed = 'zz' WHERE id = :id",
    "event not JSON": "UPDATE skat_events SET payload = '{' WHERE table_id = :id",
    "event time text": "UPDATE skat_events SET at = 'x' WHERE table_id = :id",
    "event kind unknown": "UPDATE skat_events SET kind = 'zzz' WHERE table_id = :id",
    "version text": "UPDATE skat_events SET version = 'one' WHERE table_id = :id AND version = 2",
    "version gap": "UPDATE skat_events SET version = 99 WHERE table_id = :id AND version = 2",
}
sqlite_only = pytest.mark.skipif(KIND != "sqlite", reason="PostgreSQL refuses such values")


@sqlite_only
@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupt_row_breaks_its_table_only(tmp_path: Path, corruption: str) -> None:
    with serve(tmp_path) as (_, client, _db):
        bad, good = new_table(client), new_table(client)
        anna = join(client, bad["id"], "Anna")
        anna.send(type="fill", creator=bad["creator"])
        anna.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "act")
        bert = join(client, good["id"], "Bert")
        token = bert.token
    db = db_for(tmp_path)
    db.execute(CORRUPTIONS[corruption], id=bad["id"])
    with serve(tmp_path) as (app, client, _db):  # the start-up goes on
        assert set(app.state.tables.actors) == {good["id"]}
        # the other table serves as before: Bert is back, a friend sits down
        back = Peer(client, good["id"], "Bert").connect(token=token)
        back.wait_for(lambda m: m["type"] == "state")
        assert back.seat == 0
        join(client, good["id"], "Carl")
        names = [s["name"] for s in public(client, good["id"])["seats"]]
        assert names[:2] == ["Bert", "Carl"]
        r = client.get(f"/api/tables/{bad['id']}")
        assert r.status_code == 503 and r.json()["error"]["code"] == "TABLE_BROKEN"
    assert db.rows("SELECT status FROM skat_tables WHERE id = :id", id=bad["id"]) == [("broken",)]


@pytest.mark.slow
@sqlite_only
def test_a_real_server_starts_beside_an_unreadable_row(tmp_path: Path) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    try:
        srv.start()
        good = srv.post("/api/tables", {"rounds": 1})
        bad = srv.post("/api/tables", {"rounds": 1})
        srv.kill()
        srv.db.execute("UPDATE skat_tables SET config = 'not json' WHERE id = :id", id=bad["id"])
        srv.start()  # raises if the server exits during start-up
        assert srv.get(f"/api/tables/{good['id']}")["table"]["status"] == "open"
        with pytest.raises(urllib.error.HTTPError) as refused:
            srv.get(f"/api/tables/{bad['id']}")
        assert refused.value.code == 503
    finally:
        srv.kill()


def test_a_stored_table_keeps_its_length_when_the_limit_is_lowered(tmp_path: Path) -> None:
    with serve(tmp_path, max_rounds=20) as (_, client, _db):
        long = new_table(client, rounds=15)
        anna = join(client, long["id"], "Anna")
        token = anna.token
        anna.send(type="fill", creator=long["creator"])
        anna.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "act")
    with serve(tmp_path, max_rounds=12) as (app, client, _db):  # the operator lowers it
        assert long["id"] in app.state.tables.actors
        state = public(client, long["id"])
        assert state["table"]["status"] == "playing"
        assert state["table"]["options"]["deals"] == 45
        back = Peer(client, long["id"], "Anna again").connect(token=token)  # she plays on
        assert back.wait_for(lambda m: m["type"] == "welcome")["seat"] == 0
        assert client.get(f"/api/tables/{long['id']}/list.json").status_code == 200
        # new tables obey the new limit
        assert client.post("/api/tables", json={"rounds": 15}).status_code == 400


def test_a_stale_status_row_is_corrected_when_the_table_is_loaded(tmp_path: Path) -> None:
    """The events are the truth: a summary left "playing" by a failed write
    (the list ended meanwhile) no longer counts toward any limit once the
    table is loaded again."""
    import random

    from tests.helpers.server import pump

    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, random.Random(2), timeout=60)
    db = db_for(tmp_path)
    db.execute("UPDATE skat_tables SET status = 'playing' WHERE id = :id", id=t["id"])
    with serve(tmp_path) as (_, client, _db):
        assert public(client, t["id"])["table"]["status"] == "finished"
    assert db.rows("SELECT status FROM skat_tables WHERE id = :id", id=t["id"]) == [("finished",)]
