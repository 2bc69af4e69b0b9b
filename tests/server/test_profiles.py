"""Profiles, a name a person keeps without signing up (issue 48, point 3;
docs/protocol.md, Profiles): made with a key its owner alone is sent,
linked to the seats its person sits at, read by the key (or by anyone once
public), deleted with every row of it; bad keys and bodies refused with a
clear error; no table message or page of another person holds a key or a
profile's id; it survives a restart and a SIGKILL of a real server."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from skat.server.store import Store
from tests.helpers import stores
from tests.helpers.processes import Human, Server, free_port
from tests.helpers.server import Peer, join, new_table, pump, serve
from tests.helpers.stores import db_for

ROWS = ("skat_profiles", "skat_profile_lists", "skat_profile_tournaments")


def _make(client: Any) -> dict[str, Any]:
    r = client.post("/api/profiles")
    assert r.status_code == 201, r.text
    return dict(r.json())


def _mine(client: Any, key: str) -> dict[str, Any]:
    r = client.post("/api/profile", json={"key": key})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _sit(client: Any, table_id: str, name: str, key: str) -> Peer:
    """``name`` sits down at the table with the profile's key."""
    peer = Peer(client, table_id, name).connect()
    peer.send(type="sit", name=name, profile=key)
    peer.wait_for(lambda m: m["type"] == "seated")
    return peer


def test_a_profile_is_made_read_by_its_key_and_bad_keys_get_a_clear_error(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as (_, client, _db):
        made = _make(client)
        assert set(made) == {"id", "key"} and len(made["key"]) == 32
        mine = _mine(client, made["key"])
        assert mine["id"] == made["id"] and mine["lists"] == [] and not mine["public"]
        assert made["key"] not in json.dumps(mine)  # the key is sent once, when made
        cases = [
            ({"key": "short"}, 400, "BAD_KEY"),
            ({"key": "x" * 5000}, 413, "TOO_LARGE"),
            ({"key": "A" * 31 + "!"}, 400, "BAD_KEY"),
            ({"key": "A" * 32}, 404, "NO_PROFILE"),
            ({"key": 7}, 400, "BAD_REQUEST"),
            ({"key": made["key"], "more": 1}, 400, "BAD_REQUEST"),
            ([made["key"]], 400, "BAD_REQUEST"),
        ]
        for body, status, code in cases:
            r = client.post("/api/profile", json=body)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), body
            assert r.json()["error"]["message"]
        r = client.post("/api/profile", content=b"{not json")
        assert r.json()["error"]["code"] == "BAD_REQUEST"
        r = client.post("/api/profiles", json={"name": "Anna"})
        assert (r.status_code, r.json()["error"]["code"]) == (400, "BAD_REQUEST")
        # private: by its id, nobody reads it, and it is told apart from none at all by nobody
        for pid in (made["id"], "A" * 12, "A" * 400):
            r = client.get(f"/api/profiles/{pid}")
            assert (r.status_code, r.json()["error"]["code"]) == (404, "NO_PROFILE")
        r = client.post("/api/profile/public", json={"key": made["key"], "public": True})
        assert r.json() == {"id": made["id"], "public": True}
        seen = client.get(f"/api/profiles/{made['id']}").json()
        assert seen["id"] == made["id"] and made["key"] not in json.dumps(seen)
        r = client.post("/api/profile/public", json={"key": made["key"], "public": "yes"})
        assert r.json()["error"]["code"] == "BAD_REQUEST"


def test_profiles_made_from_one_address_are_limited(tmp_path: Path) -> None:
    with serve(tmp_path, profiles_per_address=2) as (_, client, _db):
        _make(client)
        _make(client)
        r = client.post("/api/profiles")
        assert (r.status_code, r.json()["error"]["code"]) == (429, "TOO_MANY_PROFILES")


def test_a_seat_is_linked_to_the_profile_and_no_table_message_holds_its_key(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as (_, client, db):
        made = _make(client)
        t = new_table(client)
        anna = _sit(client, t["id"], "Anna", made["key"])
        ben = join(client, t["id"], "Ben")
        # a malformed key is refused with its reason; the seat is not taken
        cem = Peer(client, t["id"], "Cem").connect()
        cem.send(type="sit", name="Cem", profile="not a key")
        error = cem.wait_for(lambda m: m["type"] == "error")
        assert error["code"] == "BAD_MESSAGE" and "profile" in error["message"]
        mine = _mine(client, made["key"])
        assert [(x["table"], x["seat"]) for x in mine["lists"]] == [(t["id"], anna.seat)]
        assert mine["name"] == "Anna" and mine["lists"][0]["review_state"] == "not_reviewed"
        # made public, others read its lists without the tables' links
        client.post("/api/profile/public", json={"key": made["key"], "public": True})
        seen = client.get(f"/api/profiles/{made['id']}").json()
        assert seen["name"] == "Anna" and len(seen["lists"]) == 1
        assert t["id"] not in json.dumps(seen) and made["key"] not in json.dumps(seen)
        # nothing any connection at the table was sent holds the key or the id
        for peer in (anna, ben, cem):
            peer.drain()
            for rec in peer.records:
                assert made["key"] not in rec.raw and made["id"] not in rec.raw
        for path in (f"/api/tables/{t['id']}", f"/t/{t['id']}"):
            page = client.get(path).text
            assert made["key"] not in page and made["id"] not in page
        events = db.rows("SELECT payload FROM skat_events WHERE table_id = :t", t=t["id"])
        assert events and not any(made["key"] in p or made["id"] in p for (p,) in events)


@pytest.mark.slow
def test_a_finished_list_shows_its_figures_and_the_next_list_joins_the_profile(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as (_, client, _db):
        made = _make(client)
        t = new_table(client, rounds=None, deals=1, bot="heuristic")
        anna = _sit(client, t["id"], "Anna", made["key"])
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, random.Random(3))
        mine = _mine(client, made["key"])
        (only,) = mine["lists"]
        f = only["figures"]
        assert only["status"] == "finished" and f["over"] and f["played"] == 1
        assert f["deals"] == 1 and f["place"] in (1, 2, 3)
        stats = mine["stats"]
        assert stats["lists"] == 1 and stats["played"] == 1
        assert stats["seeger_fabian"] == f["seeger_fabian"] == f["total"]
        assert only["review_state"] in ("reviewing", "waiting", "reviewed")
        # another list with the same people (again): the profile holds it too
        anna.send(type="again")
        moved = anna.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "again")
        mine = _mine(client, made["key"])
        assert {x["table"] for x in mine["lists"]} == {t["id"], moved["event"]["table"]}


def test_a_tournament_entered_with_the_key_and_its_table_are_the_profiles(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as (_, client, db):
        made = _make(client)
        r = client.post("/api/tournaments", json={"name": "Club night", "rounds": 1})
        tour = r.json()
        r = client.post(
            f"/api/tournaments/{tour['id']}/entrants", json={"name": "Anna", "profile": made["key"]}
        )
        assert r.status_code == 201 and set(r.json()) == {"name", "token"}
        r = client.post(
            f"/api/tournaments/{tour['id']}/series", json={"organiser": tour["organiser"]}
        )
        assert r.status_code == 201, r.text
        mine = _mine(client, made["key"])
        (entered,) = mine["tournaments"]
        assert (entered["id"], entered["name"], entered["title"]) == (
            tour["id"],
            "Anna",
            "Club night",
        )
        seats = client.get(f"/api/tournaments/{tour['id']}").json()["series"][0]["tables"][0]
        names = [s["name"] for s in seats["seats"]]
        assert [(x["table"], x["seat"]) for x in mine["lists"]] == [
            (seats["id"], names.index("Anna"))
        ]
        # the tournament keeps nothing of the profile
        doc = db.rows("SELECT doc FROM skat_tournaments")[0][0]
        assert made["key"] not in doc and made["id"] not in doc


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_deleting_a_profile_deletes_every_row_of_it(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "postgres":
        stores.postgres()
    db = db_for(tmp_path, kind)

    async def go() -> None:
        store = Store(db.url)
        await store.open()
        try:
            for pid, key in (("gone", "k1" * 32), ("kept", "k2" * 32)):
                await store.create_profile(pid, key, "somewhere")
                assert await store.link_list(key, f"t-{pid}", 1, "Anna")
                assert await store.link_tournament(key, f"x-{pid}", "Anna")
                await store.keep_list(pid, f"t-{pid}", figures={"over": True})
            await store.delete_profile("gone")
            assert await store.profile("gone") is None
            assert await store.profile_lists("gone") == []
            assert await store.profile_tournaments("gone") == []
            assert not await store.link_list("k1" * 32, "t-new", 0, "Anna")  # its key is dead
            kept = await store.profile_lists("kept")
            assert [(x.table_id, x.figures) for x in kept] == [("t-kept", {"over": True})]
        finally:
            await store.close()

    asyncio.run(go())
    for name in ROWS:
        got = db.rows(f"SELECT * FROM {name}")
        assert len(got) == 1 and "gone" not in repr(got), name


def test_deleting_by_the_key_answers_and_the_key_is_then_unknown(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, db):
        made = _make(client)
        t = new_table(client)
        anna = _sit(client, t["id"], "Anna", made["key"])
        _mine(client, made["key"])
        assert db.rows("SELECT count(*) FROM skat_profile_lists") == [(1,)]
        r = client.post("/api/profile/delete", json={"key": made["key"]})
        assert r.json() == {"deleted": True}
        for name in ROWS:
            assert db.rows(f"SELECT count(*) FROM {name}") == [(0,)], name
        r = client.post("/api/profile/delete", json={"key": made["key"]})
        assert (r.status_code, r.json()["error"]["code"]) == (404, "NO_PROFILE")
        # the table plays on: the person's seat is the table's, not the profile's
        assert client.get(f"/api/tables/{t['id']}").json()["seats"][anna.seat]["name"] == "Anna"


# --------------------------------------------------------- a real server
@pytest.mark.slow
def test_a_profile_survives_a_sigkill_and_a_restart_with_its_list_and_review(
    tmp_path: Path,
) -> None:
    db = db_for(tmp_path)
    server = Server(free_port(), db, tmp_path / "server.log")
    server.start()
    try:
        status, made = server.answer("/api/profiles", {})
        assert status == 201
        t = server.post("/api/tables", {"deals": 1, "bot": "heuristic"})
        anna = Human("Anna", random.Random(5))

        async def sit() -> None:
            await anna.connect(f"{server.ws}/ws/{t['id']}")
            await anna.sit(profile=made["key"])
            await anna.close()

        asyncio.run(sit())
        server.kill()  # SIGKILL: the link was stored before the seat was answered
        server.start()
        status, mine = server.answer("/api/profile", {"key": made["key"]})
        assert status == 200 and [x["table"] for x in mine["lists"]] == [t["id"]]

        async def finish() -> str:
            await anna.connect(f"{server.ws}/ws/{t['id']}")
            assert anna.ws is not None
            await anna.ws.send(json.dumps({"type": "fill", "creator": t["creator"]}))
            try:
                return await anna.play(None, asyncio.Event())
            finally:
                await anna.close()

        assert asyncio.run(finish()) == "over"
        deadline = time.monotonic() + 240
        while True:  # the review is asked for by reading the profile, and kept once done
            status, mine = server.answer("/api/profile", {"key": made["key"]})
            if mine["lists"][0]["review_state"] == "reviewed":
                break
            assert time.monotonic() < deadline, mine["lists"][0]
            time.sleep(1)
        before = mine
        assert before["lists"][0]["figures"]["over"] and before["stats"]["review"]["lists"] == 1
        k = before["stats"]["skill"]  # the skill figure over the one reviewed list (point 4)
        assert k["lists"] == 1 and k["like"] in ("beginner", "casual", "strong")
        assert k["low"] < k["rating"] < k["high"] and k["rd"] < 350
        server.kill()
        server.start()
        status, after = server.answer("/api/profile", {"key": made["key"]})
        assert status == 200 and after == before  # kept: neither replayed nor reviewed again
        assert db.rows("SELECT count(*) FROM skat_profile_lists WHERE review IS NOT NULL") == [(1,)]
    finally:
        server.kill()
