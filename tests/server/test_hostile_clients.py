"""Hardening the server (issue 11): nothing a stranger sends can take it
down, freeze a table, or play for someone else.

One test (or more) per finding of the issue, numbered as there. In process
with Starlette's TestClient where that is faithful; a real `skat serve`
process for start-up after a poisoned table and for the slow reader (an
in-process client never fills a socket buffer). Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import logging
import random
import socket
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from skat.engine import Action
from skat.series import ListOptions, Series
from skat.server import ServerConfig, create_app
from skat.server.commands import Expire
from skat.sheetview import sheet_csv
from tests.helpers.processes import PLAY_TIMEOUT, Human, Server, free_port
from tests.helpers.server import (
    Closed,
    Peer,
    join,
    knowledge,
    leaks,
    new_table,
    public,
    pump,
    serve,
    watch,
)
from tests.helpers.stores import Db, ReplayCounter, db_for


def _post(client: Any, body: Any) -> Any:
    return client.post("/api/tables", content=json.dumps(body))


def _poison(db: Db, table_id: str, options: dict[str, Any]) -> None:
    """A table as an older server stored it: options it should have refused,
    and the `start` event that was stored before it failed to apply."""
    config = {"options": options, "settings": {"bot": "heuristic", "timer": 0}}
    db.execute(
        "INSERT INTO skat_tables VALUES (:id, :now, :now, 'playing', :config, :seed, :c, :c)",
        "INSERT INTO skat_events VALUES (:id, 1, 'start', '{}', :now)",
        id=table_id,
        now=time.time(),
        config=json.dumps(config),
        seed="00" * 32,
        c="0" * 64,
    )


# --------------------------------------------- 1: options, proof, start-up
@pytest.mark.parametrize(
    "body",
    [
        {"players": 3.0},
        {"first_dealer": 1.5},
        {"players": True},
        {"rounds": 1.0},
        {"rounds": True},
        {"rounds": 13},
        {"deals": 1000000000},
        {"deals": 37},
        {"deals": 0},
        {"kontra": 1},
        {"timer": False},
        {"bot": ["heuristic"]},
        {"bock_triggers": [1]},
        {"rounds": 1, "deals": 3},
    ],
)
def test_options_are_refused_unless_exactly_right(tmp_path: Path, body: dict[str, Any]) -> None:
    with serve(tmp_path) as (_, client, db):
        r = _post(client, body)
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "BAD_OPTIONS"
        assert db.rows("SELECT id FROM skat_tables") == []


def test_list_length_is_the_operators_to_raise(tmp_path: Path) -> None:
    with serve(tmp_path, max_rounds=20) as (_, client, _db):
        assert _post(client, {"rounds": 13}).status_code == 201
        assert _post(client, {"players": 4, "deals": 80}).status_code == 201
        assert _post(client, {"players": 4, "deals": 81}).status_code == 400


def test_an_event_is_proven_to_apply_before_it_is_stored(tmp_path: Path) -> None:
    """Were a bad option to slip through, the `start` would be refused, not stored."""
    with serve(tmp_path) as (app, client, db):
        t = new_table(client)
        anna = join(client, t["id"], "Anna")
        state = app.state.tables.actors[t["id"]].state
        object.__setattr__(state.options, "first_dealer", 1.5)
        anna.send(type="fill", creator=t["creator"])
        errors = [m for m in anna.barrier() if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["BAD_OPTIONS"]
        kinds = [k for (k,) in db.rows("SELECT kind FROM skat_events")]
        assert "start" not in kinds and "bot" not in kinds
        assert state.status == "open"


def test_a_table_that_cannot_be_loaded_is_marked_broken_and_the_rest_serve(
    tmp_path: Path,
) -> None:
    with serve(tmp_path) as (_, client, db):
        good = new_table(client)
        anna = join(client, good["id"], "Anna")
        token = anna.token
    _poison(db, "poisoned1", {"players": 3.0, "deals": 3})
    _poison(db, "poisoned2", {"players": 3, "deals": 3, "first_dealer": 1.5})
    with serve(tmp_path) as (app, client, _db):
        assert set(app.state.tables.actors) == {good["id"]}
        for bad in ("poisoned1", "poisoned2"):
            r = client.get(f"/api/tables/{bad}")
            assert r.status_code == 503
            assert r.json()["error"]["code"] == "TABLE_BROKEN"
            assert client.get(f"/api/tables/{bad}/list.json").status_code == 503
            peer = Peer(client, bad, "to the broken table").connect()
            assert peer.recv()["code"] == "TABLE_BROKEN"  # type: ignore[index]
            with pytest.raises(Closed, match="1011"):
                peer.recv()
        back = Peer(client, good["id"], "Anna again").connect(token=token)
        assert back.wait_for(lambda m: m["type"] == "welcome")["seat"] == 0
        assert public(client, good["id"])["seats"][0]["name"] == "Anna"
    statuses = dict(db.rows("SELECT id, status FROM skat_tables"))
    assert statuses["poisoned1"] == statuses["poisoned2"] == "broken"
    assert statuses[good["id"]] == "open"


@pytest.mark.slow
def test_a_real_server_starts_after_a_poisoned_table(tmp_path: Path) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    try:
        srv.start()
        good = srv.post("/api/tables", {"rounds": 1})
        srv.kill()
        _poison(srv.db, "poisoned", {"players": 3.0})
        srv.start()  # raises if the server exits during start-up
        assert srv.get(f"/api/tables/{good['id']}")["table"]["status"] == "open"
        with pytest.raises(urllib.error.HTTPError) as refused:
            srv.get("/api/tables/poisoned")
        assert refused.value.code == 503
        assert json.load(refused.value)["error"]["code"] == "TABLE_BROKEN"
        # and a websocket from a page of another origin is refused before the
        # handshake, with an HTTP 403 (docs/protocol.md)
        with pytest.raises(InvalidStatus) as forbidden:
            asyncio.run(_connect(f"{srv.ws}/ws/{good['id']}", origin="http://evil.example"))
        assert forbidden.value.response.status_code == 403
    finally:
        srv.kill()


async def _connect(url: str, origin: str) -> None:
    async with connect(url, origin=origin, open_timeout=5):  # type: ignore[arg-type]
        pass


# ------------------------------------------- 2: every device follows the seat
def _seat_of(view: dict[str, Any] | None) -> Any:
    """Whose view the client holds (after a message: `Rec.view`)."""
    return (view or {}).get("seat", "no view")


def test_a_second_device_loses_the_seat_when_its_person_leaves(tmp_path: Path) -> None:
    with serve(tmp_path) as (app, client, _db):
        t = new_table(client, players=3)
        x = join(client, t["id"], "Xaver")
        y = Peer(client, t["id"], "Y, X's second device").connect(token=x.token)
        assert y.wait_for(lambda m: m["type"] == "state")["you"] == 0
        x.send(type="leave", keep_bot=False)
        notice = y.wait_for(lambda m: m["type"] == "notice")
        assert notice["code"] == "SEAT_LOST" and notice["seat"] == 0
        assert y.wait_for(lambda m: m["type"] == "state")["you"] is None
        w = join(client, t["id"], "Wilma")  # takes the free seat 0
        assert w.seat == 0
        start = len(y.records)
        w.send(type="fill", creator=t["creator"])
        w.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "start")
        y.send(type="act", action="pass", version=w.version)
        y.send(type="chat", text="still here?")
        later = y.barrier()
        assert any(m.get("code") == "NOT_SEATED" for m in later)
        chats = [e for e in w.barrier() + w.events("chat") if e.get("kind") == "chat"]
        assert all(c["seat"] is None for c in chats)  # Y speaks as a spectator
        for r in y.records[start:]:
            assert _seat_of(r.view) in (None, "no view"), f"Y sees seat 0: {r.raw[:200]}"
        assert leaks(y, knowledge(app, client, t["id"])) == []


def test_when_a_computer_player_takes_the_seat_the_other_device_watches(tmp_path: Path) -> None:
    rng = random.Random(3)
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        x = join(client, t["id"], "Xaver")
        x.send(type="fill", creator=t["creator"])
        pump([x], lambda: x.view is not None, rng)
        y = Peer(client, t["id"], "Y").connect(token=x.token)
        assert y.wait_for(lambda m: m["type"] == "state")["you"] == 0
        x.send(type="leave")  # playing: a computer player keeps the seat
        assert y.wait_for(lambda m: m["type"] == "notice")["code"] == "SEAT_LOST"
        assert y.wait_for(lambda m: m["type"] == "state")["you"] is None
        assert public(client, t["id"])["seats"][0]["bot"] is not None
        y.send(type="act", action="pass", version=y.version)
        assert any(m.get("code") == "NOT_SEATED" for m in y.barrier())


# --------------------------------------------------- 3: the slow reader
FLOOD = 150_000  # frames; their refusals (~60 bytes each) outgrow every socket buffer


async def _flood(ws: Any) -> None:
    for _ in range(FLOOD):
        await ws.send("x")


async def _slow_reader_scenario(srv: Server) -> tuple[str, int, int | None]:
    t = srv.post("/api/tables", {"rounds": 1})
    url = f"{srv.ws}/ws/{t['id']}"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", srv.port))
    slow = await connect(
        url, sock=sock, max_queue=1, open_timeout=5, max_size=2**20, ping_interval=None
    )
    await slow.send(json.dumps({"type": "hello", "protocol": 2}))
    # ... and never reads, while it sends junk whose refusals pile up for it
    with contextlib.suppress(TimeoutError):  # an old server stops reading it
        await asyncio.wait_for(_flood(slow), PLAY_TIMEOUT)
    anna = Human("Anna", random.Random(5))
    await anna.connect(url)
    await anna.sit()
    assert anna.ws is not None
    await anna.ws.send(json.dumps({"type": "fill", "creator": t["creator"]}))
    outcome = await anna.play(None, asyncio.Event())
    # now read what the slow client was sent: some messages, then the close
    got, code = 0, None
    try:
        while True:
            await asyncio.wait_for(slow.recv(), PLAY_TIMEOUT)
            got += 1
    except ConnectionClosed as exc:
        code = exc.rcvd.code if exc.rcvd is not None else None
    except TimeoutError:
        pass
    await anna.close()
    return outcome, got, code


@pytest.mark.slow
def test_a_client_that_never_reads_is_dropped_and_the_table_plays_on(tmp_path: Path) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.extra = ["--send-timeout", "1", "--send-queue", "64"]
    try:
        srv.start()
        outcome, got, code = asyncio.run(_slow_reader_scenario(srv))
        assert outcome == "over", f"the table stopped answering: {outcome}\n{srv.tail()}"
        assert code == 4408, f"closed with {code} after {got} messages"
        assert got < FLOOD  # its queue was dropped, not sent
        assert srv.get("/healthz")["ok"]
    finally:
        srv.kill()


def test_a_full_outbound_queue_drops_only_that_connection(tmp_path: Path) -> None:
    """In process the socket never blocks; the bound on the queue still holds."""
    rng = random.Random(8)
    with serve(tmp_path, send_queue=3) as (app, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        actor = app.state.tables.actors[t["id"]]
        for conn in actor.conns:
            conn._max_queue = 10**6  # Anna reads; she keeps her allowance
        watch(client, t["id"])  # the one that will stall
        (slow,) = [c for c in actor.conns if c.seat is None]
        slow._max_queue = 3
        client.portal.call(_stall, slow)
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, rng, timeout=60)
        assert slow.dropped and slow.closed
        assert not anna.errors()


async def _stall(conn: Any) -> None:
    """The connection's writer stops, as if its socket never drained (a
    writer runs only while there is something to send)."""
    if conn._writer is not None:
        conn._writer.cancel()
    conn._writer = asyncio.get_running_loop().create_future()


# ---------------------------------------------- 5: engine moves from the wire
def test_timeout_and_leave_are_refused_as_moves_over_the_wire(tmp_path: Path) -> None:
    rng = random.Random(4)
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.my_turn(), rng)
        before = anna.version
        for move in ("timeout", "leave"):
            anna.send(type="act", action=move, version=anna.version)
            codes = [m.get("code") for m in anna.barrier() if m["type"] == "error"]
            assert codes == ["BAD_MESSAGE"]
        assert public(client, t["id"])["version"] == before


# ------------------------------------------------------------- 6: bodies
def _asgi_post(
    app: Any, path: str, chunks: int, headers: list[tuple[bytes, bytes]]
) -> tuple[int, int]:
    """POST ``chunks`` KiB as a stream; returns (status, chunks the app read)."""
    pulled = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * 1024, "more_body": pulled < chunks}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return status, pulled


@pytest.mark.parametrize("path", ["/api/tables", "/api/value"])
def test_request_bodies_are_refused_while_they_stream(tmp_path: Path, path: str) -> None:
    app = create_app(db_for(tmp_path).url, ServerConfig())
    status, pulled = _asgi_post(app, path, 100_000, [])  # 100 MB, chunked
    assert status == 413
    assert pulled <= 5, f"{pulled} KiB read before the refusal"
    length = [(b"content-length", str(400 * 2**20).encode())]
    assert _asgi_post(app, path, 100_000, length) == (413, 0)


def test_an_aborted_request_is_one_clean_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(db_for(tmp_path).url, ServerConfig())
    calls = 0

    async def receive() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 1:
            return {"type": "http.request", "body": b'{"rou', "more_body": True}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        pass

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/tables",
        "headers": [],
        "query_string": b"",
        "client": ("10.0.0.9", 5000),
    }
    with caplog.at_level(logging.INFO, logger="skat.server"):
        asyncio.run(app(scope, receive, send))  # raises if the disconnect escapes
    lines = [r for r in caplog.records if "aborted" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert "10.0.0.9" in lines[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------- 7: limits
def test_tables_per_address_and_open_tables_in_total_are_limited(tmp_path: Path) -> None:
    with serve(tmp_path, tables_per_address=3) as (_, client, _db):
        for _ in range(3):
            new_table(client)
        r = _post(client, {"rounds": 1})
        assert r.status_code == 429 and r.json()["error"]["code"] == "TOO_MANY_TABLES"
    (tmp_path / "total").mkdir()
    with serve(tmp_path / "total", max_open_tables=2) as (_, client, _db):
        new_table(client)
        new_table(client)
        r = _post(client, {"rounds": 1})
        assert r.status_code == 429 and r.json()["error"]["code"] == "TOO_MANY_TABLES"


def test_never_visited_and_never_started_tables_expire(tmp_path: Path) -> None:
    with serve(tmp_path) as (app, client, _db):
        unvisited = new_table(client)  # nobody ever comes
        unstarted = new_table(client)
        join(client, unstarted["id"], "Anna")  # sits, never starts
        playing = new_table(client)
        bert = join(client, playing["id"], "Bert")
        bert.send(type="fill", creator=playing["creator"])
        bert.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "start")
        cfg = app.state.config
        cfg.unvisited_timeout = cfg.unstarted_timeout = 0.05
        time.sleep(0.1)
        client.portal.call(app.state.tables.sweep)
        assert public(client, unvisited["id"])["table"]["status"] == "expired"
        assert public(client, unstarted["id"])["table"]["status"] == "expired"
        assert public(client, playing["id"])["table"]["status"] == "playing"


def test_a_restart_loads_only_live_tables(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        stale = [new_table(client)["id"] for _ in range(3)]
        live = new_table(client)
        join(client, live["id"], "Anna")
    with serve(tmp_path, unvisited_timeout=0.0) as (app, client, db):
        assert set(app.state.tables.actors) == {live["id"]}
        for tid in stale:
            assert public(client, tid)["table"]["status"] == "expired"
    kinds = db.rows("SELECT table_id, version, kind FROM skat_events WHERE kind='expire'")
    assert sorted(kinds) == sorted((tid, 1, "expire") for tid in stale)


# --------------------------------------- 8: closed tables from a cached record
def test_downloads_of_a_finished_table_do_not_replay_its_log(tmp_path: Path) -> None:
    rng = random.Random(6)
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, rng, timeout=60)
    with serve(tmp_path) as (app, client, _db):
        replays = ReplayCounter(app.state.store)
        first = {}
        for _ in range(3):
            for kind in ("list.json", "sheet.csv", "games.iss"):
                r = client.get(f"/api/tables/{t['id']}/{kind}")
                assert r.status_code == 200
                assert first.setdefault(kind, r.text) == r.text
            assert public(client, t["id"])["table"]["status"] == "finished"
        assert replays.count == 1


# ---------------------------------------------------------------- 9: the rest
def test_every_page_has_security_headers(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client)
        for path in ("/", f"/t/{t['id']}", "/rules", f"/api/tables/{t['id']}", "/healthz"):
            r = client.get(path)
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp, path
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
        assert client.get("/api/tables/nope").headers["x-content-type-options"] == "nosniff"
        static = client.get("/static/app.js")
        assert static.status_code == 200
        assert "frame-ancestors 'none'" in static.headers["content-security-policy"]


def _played_series(names: list[str], deals: int = 3) -> Series:
    series = Series(ListOptions(players=3, deals=deals), seed=b"\x01" * 32, names=names)
    rng = random.Random(1)
    while not series.is_over():
        deal = series.deal
        if deal.is_terminal():
            series.next_deal()
            continue
        seat = deal.current_seat
        assert seat is not None
        action: Action = rng.choice(deal.view(seat).legal_actions)
        series.apply(action, seat)
    return series


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised() -> None:
    names = ["=2+5", "@SUM(A1)", "Bo;=HYPERLINK(1)"]
    text = sheet_csv(_played_series(names))
    # read as a spreadsheet set to the comma does, and as one set to the
    # semicolon (German, Danish) does: no cell of either is a formula
    for separator in (",", ";"):
        rows = list(csv.reader(io.StringIO(text), delimiter=separator))
        for row in rows:
            for cell in row:
                assert not cell.startswith(("=", "+", "@")), (separator, cell)
                assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell
    rows = list(csv.reader(io.StringIO(text)))
    assert "'=2+5" in rows[0] and "'@SUM(A1)" in rows[0] and "Bo;'=HYPERLINK(1)" in rows[0]
    naive = [cell for line in text.splitlines() for cell in line.split(";")]
    assert not any(cell.lstrip('"').startswith(("=", "+", "@")) for cell in naive)


def test_a_deal_that_expired_after_the_discard_never_shows_it(tmp_path: Path) -> None:
    rng = random.Random(12)
    with serve(tmp_path) as (app, client, _db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        spectator = watch(client, t["id"])
        anna.send(type="fill", creator=t["creator"])

        def discarded() -> bool:  # in the deal in play, and the table waits for Anna
            v = anna.view
            return (
                anna.my_turn()
                and v is not None
                and v["result"] is None
                and any(a.startswith("discard") for _, a in v["history"])
            )

        end = time.monotonic() + 30
        while not discarded():  # Anna outbids everyone, so that she discards
            assert time.monotonic() < end, "no discard with Anna to move"
            spectator.drain()
            anna.drain()
            if anna.my_turn() and anna.view_version > anna.acted and not discarded():
                assert anna.view is not None
                anna.send(
                    type="act", action=_declarer(anna.view["legal"], rng), version=anna.version
                )
                anna.acted = anna.view_version
        client.portal.call(app.state.tables.actors[t["id"]].submit, Expire())
        assert public(client, t["id"])["table"]["status"] == "expired"
        later = Peer(client, t["id"], "late spectator", plays=False).connect(last_version=0)
        later.wait_for(lambda m: m["type"] == "state")
        kn = knowledge(app, client, t["id"])
        for peer in (anna, spectator, later):
            peer.drain()
            assert leaks(peer, kn) == []
        replayed = [r.msg["event"] for r in later.records if r.replayed]
        moves = [e["action"] for e in replayed if e["kind"] == "act"]
        assert "discard" in moves and not any(m.startswith("discard ") for m in moves)
        number = public(client, t["id"])["deal"]["number"]
        record = client.get(f"/api/tables/{t['id']}/list.json").json()
        assert len(record["deals"]) == number - 1  # the expired deal is left out


def _declarer(legal: list[str], rng: random.Random) -> str:
    """A move of someone who wants to declare: bid on, pick up, a suit game."""
    for move in ("pickup", "hold"):
        if move in legal:
            return move
    bids = [a for a in legal if a.startswith("bid ")]
    if bids:
        return bids[0]
    games = [a for a in legal if a.startswith("announce") and len(a.split()) == 2]
    if games and "null" not in games[0]:
        return games[0]
    return rng.choice(legal)


def _crash_on_start(db: Db, on: bool) -> None:
    """A trigger that refuses every `start` event: a crash inside the transaction."""
    if db.kind == "sqlite" and on:
        db.execute(
            "CREATE TRIGGER crash BEFORE INSERT ON skat_events WHEN NEW.kind = 'start' "
            "BEGIN SELECT RAISE(ABORT, 'simulated crash'); END"
        )
    elif db.kind == "sqlite":
        db.execute("DROP TRIGGER crash")
    elif on:
        db.execute(
            "CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF NEW.kind = 'start' THEN RAISE EXCEPTION 'simulated crash'; END IF; "
            "RETURN NEW; END $$",
            "CREATE TRIGGER crash BEFORE INSERT ON skat_events "
            "FOR EACH ROW EXECUTE FUNCTION crash()",
        )
    else:
        db.execute("DROP TRIGGER crash ON skat_events", "DROP FUNCTION crash()")


def test_again_is_one_transaction_and_idempotent_on_retry(tmp_path: Path) -> None:
    rng = random.Random(9)
    with serve(tmp_path) as (_, client, db):
        t = new_table(client, players=3)
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, rng, timeout=60)
        tables_before = db.rows("SELECT count(*) FROM skat_tables")[0][0]
        _crash_on_start(db, True)
        anna.send(type="again")
        assert [m["code"] for m in anna.barrier() if m["type"] == "error"] == ["SERVER_ERROR"]
        # nothing half-built: no new table, no `again` on the old one
        assert db.rows("SELECT count(*) FROM skat_tables")[0][0] == tables_before
        assert db.rows("SELECT count(*) FROM skat_events WHERE kind='again'") == [(0,)]
        _crash_on_start(db, False)
        anna.send(type="again")
        anna.send(type="again")  # a retry changes nothing
        anna.barrier()
        assert db.rows("SELECT count(*) FROM skat_tables")[0][0] == tables_before + 1
        nxt = public(client, t["id"])["table"]["next_table"]
        assert public(client, nxt)["table"]["status"] == "playing"
        token = anna.token
    with serve(tmp_path) as (app, client, db):
        assert nxt in app.state.tables.actors
        assert db.rows("SELECT count(*) FROM skat_tables")[0][0] == tables_before + 1
        back = Peer(client, nxt, "Anna at the next table").connect(token=token)
        assert back.wait_for(lambda m: m["type"] == "welcome")["seat"] == 0


def test_chat_is_refused_at_closed_tables_and_keeps_no_table_alive(tmp_path: Path) -> None:
    rng = random.Random(10)
    with serve(tmp_path) as (app, client, db):
        done = new_table(client, players=3)
        anna = join(client, done["id"], "Anna")
        anna.send(type="fill", creator=done["creator"])
        pump([anna], lambda: anna.list_over, rng, timeout=60)
        for msg in ({"type": "chat", "text": "gg"}, {"type": "react", "emoji": "👍"}):
            anna.send(**msg)
            assert [m["code"] for m in anna.barrier() if m["type"] == "error"] == ["TABLE_CLOSED"]

        idle = new_table(client, players=3)
        bert = join(client, idle["id"], "Bert")
        app.state.config.idle_timeout = 0.3
        end = time.monotonic() + 0.5
        while time.monotonic() < end:  # chat does not count as activity
            bert.send(type="chat", text="anyone?")
            bert.drain(0.05)
        client.portal.call(app.state.tables.sweep)
        assert public(client, idle["id"])["table"]["status"] == "expired"
        bert.send(type="chat", text="hello?")
        assert [m["code"] for m in bert.barrier() if m["type"] == "error"] == ["TABLE_CLOSED"]
        rows = db.rows("SELECT kind FROM skat_events WHERE table_id = :t", t=done["id"])
        kinds = [k for (k,) in rows]
        assert "chat" not in kinds and "react" not in kinds


# --------------------------------------------- fuzz: creation bodies, restart
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
KEYS = [
    "players", "deals", "rounds", "first_dealer", "scoring", "all_pass", "kontra",
    "kontra_window", "kontra_requires_bid", "bock", "bock_triggers", "bock_count",
    "bock_overlap", "ramsch_after_bock", "enforce_reachable_announcement", "bot", "timer",
]  # fmt: skip
good_values: dict[str, Any] = {
    "players": st.sampled_from([3, 4, 3.0, True, 5]),
    "rounds": st.sampled_from([1, 2, 12, 13, 1.0, 0, True]),
    "deals": st.sampled_from([1, 3, 36, 48, 49, 1000000000, 1.5]),
    "first_dealer": st.sampled_from([0, 1, 2, 3, 1.5, -1, False]),
    "timer": st.sampled_from([0, 30, 60, 120, 1, 30.0, False]),
}
bodies = st.one_of(
    json_values,
    st.dictionaries(
        st.sampled_from(KEYS) | st.text(max_size=6),
        json_values,
        max_size=5,
    ),
    st.fixed_dictionaries({}, optional={k: v for k, v in good_values.items()}),
)


@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(bodies, min_size=1, max_size=12))
def test_any_creation_bodies_leave_a_server_that_restarts_and_serves(
    batch: list[Any],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _creation_fuzz(Path(tmp), batch)


def _creation_fuzz(tmp: Path, batch: list[Any]) -> None:
    slow_bots = {"bot_delay": 60.0}  # the filled tables start; nobody waits for them
    with serve(tmp, **slow_bots) as (_, client, _db):
        ref = new_table(client, players=3)
        anna = join(client, ref["id"], "Anna")
        token = anna.token
        made = []
        for body in batch:
            r = _post(client, body)
            assert r.status_code in (201, 400), (body, r.status_code, r.text)
            if r.status_code == 201:
                made.append(r.json())
        for t in made:  # start every table that was accepted
            peer = Peer(client, t["id"], "creator").connect()
            peer.send(type="fill", creator=t["creator"])
            codes = [m.get("code") for m in peer.barrier() if m["type"] == "error"]
            assert codes == [], (t, codes)
            peer.close()
    with serve(tmp, **slow_bots) as (app, client, _db):
        for t in [ref, *made]:
            assert t["id"] in app.state.tables.actors
            assert client.get(f"/api/tables/{t['id']}").status_code == 200
        back = Peer(client, ref["id"], "Anna again").connect(token=token)
        assert back.wait_for(lambda m: m["type"] == "welcome")["seat"] == 0
