"""Hardening, round four (issue 54): the new surfaces (uploads, tournaments,
the lobby, resting tables) cannot be used by a stranger to freeze the
server, fill it, or play in someone's name.

One test (or more) per finding of the issue, numbered as there, each the
attack made on a real `skat serve` process (a second client address is
127.0.0.2: the loopback takes any of 127/8 as a source). Every wait is
bounded; no assertion is on a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import http.client
import io
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from skat.players.heuristic import HeuristicPlayer
from skat.players.loop import play_list
from skat.series import ListOptions, Series
from skat.series.record import list_record
from tests.helpers.analysed import DECLARER_BLUNDER, DEFENDER_BLUNDER
from tests.helpers.processes import Server, free_port
from tests.helpers.stores import KIND, db_for

pytestmark = pytest.mark.slow

BYSTANDER = "127.0.0.2"


def _request(
    srv: Server,
    method: str,
    path: str,
    body: bytes | None = None,
    source: str = "127.0.0.1",
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON body or None, headers) of one request from ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30, source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        raw = r.read()
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        return r.status, data, {k.lower(): v for k, v in r.getheaders()}
    finally:
        conn.close()


def _code(data: Any) -> str:
    return str((data or {}).get("error", {}).get("code", ""))


def _metric(port: int, name: str) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name:
                return float(s.value)
    raise AssertionError(f"no metric {name}")


def _started(tmp_path: Path, *extra: str) -> tuple[Server, int]:
    mport = free_port()
    srv = Server(
        free_port(),
        db_for(tmp_path),
        tmp_path / "server.log",
        extra=["--metrics", f"127.0.0.1:{mport}", *extra],
    )
    srv.start()
    return srv, mport


def _big_file(tag: str, limit: int = 63 * 1024) -> bytes:
    """As many finished game records as fit in 63 KiB (86 of them)."""
    games: list[dict[str, Any]] = []
    while True:
        game = dict(DEFENDER_BLUNDER, id=f"{tag}-{len(games) + 1}")
        if len(json.dumps([*games, game]).encode()) > limit:
            return json.dumps(games).encode()
        games.append(game)


# ------------------------------------------------ 1: uploads to the board
def test_an_upload_flood_is_read_off_the_loop_once_and_limited_per_address(
    tmp_path: Path,
) -> None:
    srv, mport = _started(tmp_path)
    try:
        big = _big_file("flood")
        assert len(json.loads(big)) > 80

        def upload(body: bytes, game: str = "9999", source: str = "127.0.0.1") -> Any:
            return _request(srv, "POST", f"/api/board?game={game}", body, source)

        # 12 at once, the same file and a game it does not have: read once
        with ThreadPoolExecutor(12) as ex:
            answers = list(ex.map(lambda _: upload(big), range(12)))
        assert {(s, _code(d)) for s, d, _ in answers} == {(404, "NO_DEAL")}
        assert f"{len(json.loads(big))} games" in answers[0][1]["error"]["message"]
        assert _metric(mport, "skat_analysis_made_total") == 1
        # asked again, the 404 is known by the file's digest (re-indented too)
        again = b"\n  " + big.replace(b": ", b":\t ").replace(b", ", b",") + b"\n\n"
        for body in (big, again):
            status, data, _ = upload(body)
            assert (status, _code(data)) == (404, "NO_DEAL")
        assert _metric(mport, "skat_analysis_made_total") == 1

        # distinct files, one after another: the address's allowance ends
        codes = [(s, _code(d)) for s, d, _ in (upload(_big_file(f"f{i}")) for i in range(12))]
        assert (429, "RATE_LIMITED") in codes, codes
        assert set(codes) <= {(404, "NO_DEAL"), (503, "BUSY"), (429, "RATE_LIMITED")}
        status, data, headers = upload(_big_file("late"))
        assert (status, _code(data)) == (429, "RATE_LIMITED") and int(headers["retry-after"]) >= 1
        made = _metric(mport, "skat_analysis_made_total")
        assert made <= 1 + 12 - codes.count((429, "RATE_LIMITED"))

        # a bystander's file gets its board meanwhile
        mine = json.dumps([DEFENDER_BLUNDER, DECLARER_BLUNDER]).encode()
        status, data, _ = upload(mine, "2", BYSTANDER)
        assert status == 200, data
        assert data["number"] == 2 and len(data["board"]["steps"]) == 30
        assert "Traceback" not in srv.tail()
    finally:
        srv.kill()


# ------------------------------------------------------- 10: the 500s
def _list_file(players: int) -> bytes:
    series = Series(ListOptions(players=3, deals=3), seed=b"\x07" * 32, names=["A", "B", "C"])
    play_list(series, [HeuristicPlayer() for _ in range(3)])
    record = list_record(series, id="club")
    record["players"] = [f"P{i}" for i in range(players)]
    return json.dumps(record).encode()


def test_odd_inputs_get_a_clear_error_and_no_traceback(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        game = json.dumps(DEFENDER_BLUNDER).encode()
        cases: list[tuple[str, bytes, int, str]] = [
            ("/api/board?game=%C2%B2", game, 404, "NO_DEAL"),  # "²": isdigit, no int
            ("/api/board?game=1", _list_file(2), 400, "BAD_RECORD"),
            ("/api/board?game=1", _list_file(50), 400, "BAD_RECORD"),
            ("/api/board?game=1", b"[" + b"7" * 5000 + b"]", 400, "BAD_RECORD"),
            ("/api/board?game=1", b'{"id": ' + b"7" * 5000 + b"}\n{}", 400, "BAD_RECORD"),
        ]
        for path, body, status, code in cases:
            got, data, _ = _request(srv, "POST", path, body)
            assert (got, _code(data)) == (status, code), (path, body[:40], data)
        assert "Traceback" not in srv.tail()
    finally:
        srv.kill()


# ------------------------------------------ 14: IPv6 addresses per /64
def test_ipv6_addresses_are_counted_per_64() -> None:
    from skat.server.conn import address_of

    assert address_of("2001:db8:1:2::1") == address_of("2001:db8:1:2:ffff:1:2:3")
    assert address_of("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_of("2001:db8:1:3::1") != address_of("2001:db8:1:2::1")
    assert address_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_of("192.0.2.7") == "192.0.2.7" and address_of("testclient") == "testclient"


# ----------------------------------- 2: a big tournament's page, viewed
def _json(srv: Server, method: str, path: str, body: Any = None, source: str = "127.0.0.1") -> Any:
    raw = None if body is None else json.dumps(body).encode()
    status, data, _ = _request(srv, method, path, raw, source, {"content-type": "application/json"})
    assert status in (200, 201), (path, status, data)
    return data


def _all_resting(srv: Server, tid: str, number: int, timeout: float = 300) -> dict[str, Any]:
    """The tournament once every table of series ``number`` rests."""
    end = time.monotonic() + timeout
    while True:
        v: dict[str, Any] = _json(srv, "GET", f"/api/tournaments/{tid}")
        tables = v["series"][number - 1]["tables"]
        if all(x.get("resting") for x in tables):
            return v
        assert time.monotonic() < end, "not every table rests"
        time.sleep(0.5)


def test_a_big_tournaments_views_replay_no_finished_table(tmp_path: Path) -> None:
    """200 entrants, three series of 50 tables: nobody comes, so every table
    rests (issue 54, finding 3: no computer plays a list for people who
    never came), and the organiser closes the resting tables of each series
    before the next draw (100 closed tables, more than the 64 the server
    keeps for downloads): views of the page rebuild none of them, however often
    they are asked."""
    srv, mport = _started(tmp_path, "--grace", "0.05")
    try:
        t = _json(srv, "POST", "/api/tournaments", {"name": "Club", "rounds": 1, "series": 3})
        tid, organiser = t["id"], t["organiser"]
        for i in range(200):
            _json(
                srv,
                "POST",
                f"/api/tournaments/{tid}/entrants",
                {"name": f"Player {i:03d}", "organiser": organiser},
            )
        for number in (1, 2, 3):
            body = {"organiser": organiser}
            assert _json(srv, "POST", f"/api/tournaments/{tid}/series", body) == {"series": number}
            final = _all_resting(srv, tid, number)
            if number < 3:
                closed = _json(srv, "POST", f"/api/tournaments/{tid}/close", body)
                assert closed == {"closed": 50}
        assert sum(len(s["tables"]) for s in final["series"]) == 150
        closed = [x for s in final["series"][:2] for x in s["tables"]]
        assert all(x["status"] == "expired" and x["deal"] == 0 for x in closed)
        assert final["state"] == "playing"
        before = _metric(mport, "skat_tables_rebuilt_total")
        views = []
        for _ in range(4):
            time.sleep(0.6)  # past the view's own cache (tournament_cache)
            views.append(_json(srv, "GET", f"/api/tournaments/{tid}"))
        # ten at once as well
        with ThreadPoolExecutor(10) as ex:
            views += ex.map(lambda _: _json(srv, "GET", f"/api/tournaments/{tid}"), range(10))
        assert _metric(mport, "skat_tables_rebuilt_total") == before
        assert all(v["standings"] == final["standings"] for v in views)
        assert len(final["standings"]) == 200
    finally:
        srv.kill()


# ---------------------------- 11: standings.csv read with another separator
def test_standings_csv_runs_no_formula_whatever_the_separator(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        t = _json(srv, "POST", "/api/tournaments", {"name": "Club", "rounds": 1})
        tid = t["id"]
        names = ['a;"=1+2', 'b|"+HYPERLINK(1)', "Cora"]
        for name in names:
            _json(srv, "POST", f"/api/tournaments/{tid}/entrants", {"name": name})
        _json(srv, "POST", f"/api/tournaments/{tid}/series", {"organiser": t["organiser"]})
        status, _, headers = _request(srv, "GET", f"/api/tournaments/{tid}/standings.csv")
        assert status == 200 and headers["content-type"].startswith("text/csv")
        with urllib.request.urlopen(f"{srv.http}/api/tournaments/{tid}/standings.csv") as r:
            text = r.read().decode()
        # read as written (commas), each name is there, an apostrophe at most added
        read = [x[1].replace("'", "") for x in csv.reader(io.StringIO(text))][1:]
        assert sorted(read) == sorted(names)
        for separator in ",;|\t":
            for row in csv.reader(io.StringIO(text), delimiter=separator):
                for cell in row:
                    assert not cell.lstrip(' "').startswith(("=", "+", "-", "@")), (separator, cell)
    finally:
        srv.kill()


# ------------------------------ 14: look-alike names, a chat of fillers
async def _sit_and_chat(srv: Server, table_id: str) -> list[dict[str, Any]]:
    """Sit as "𝐀𝐝а" (bold Latin and a Cyrillic a), then as Anna, then chat
    a Hangul filler alone: every message the server sent back."""
    got: list[dict[str, Any]] = []
    async with connect(f"{srv.ws}/ws/{table_id}", open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 2}))
        for message in (
            {"type": "sit", "name": "\U0001d400\U0001d41d\u0430"},
            {"type": "sit", "name": "Anna"},
            {"type": "chat", "text": "\u3164"},
            {"type": "chat", "text": "\u3164 \u200d\u3164"},
        ):
            await ws.send(json.dumps(message))
        while not [m for m in got if m.get("type") == "error"][3:] and len(got) < 50:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            errors = [m for m in got if m.get("type") == "error"]
            if len(errors) >= 3:
                break
    return got


def test_look_alike_names_and_invisible_chats_are_refused(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        made = _json(srv, "POST", "/api/tables", {"players": 3})
        got = asyncio.run(_sit_and_chat(srv, made["id"]))
        errors = [m["code"] for m in got if m.get("type") == "error"]
        assert errors == ["BAD_NAME", "BAD_MESSAGE", "BAD_MESSAGE"], got
        assert [m["seat"] for m in got if m.get("type") == "seated"] == [0]
        chats = [m for m in got if m.get("type") == "event" and m["event"]["kind"] == "chat"]
        assert chats == []
    finally:
        srv.kill()


# ------------------------------------------ 14: operator traps at the start
def _serve_exits(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "skat.cli", "serve", "--port", str(free_port()), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=tmp_path)


@pytest.mark.skipif(KIND != "sqlite", reason="the database is a SQLite file here")
@pytest.mark.parametrize("dropped", ["skat_events", "skat_leases"])
def test_a_dropped_table_stops_the_start_in_one_line(tmp_path: Path, dropped: str) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.start()  # made and migrated
    srv.kill()
    path = db_for(tmp_path).path
    assert path is not None
    with sqlite3.connect(path) as db:
        db.execute(f"DROP TABLE {dropped}")
    done = _serve_exits(tmp_path, "--db", db_for(tmp_path).url)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert [line for line in done.stderr.splitlines() if dropped in line], done.stderr


@pytest.mark.skipif(KIND != "sqlite", reason="the database is a SQLite file here")
def test_garbage_over_the_database_pages_stops_the_start_in_one_line(tmp_path: Path) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.start()
    srv.post("/api/tables", {"rounds": 1})
    srv.kill()
    path = db_for(tmp_path).path
    assert path is not None
    size = path.stat().st_size
    with path.open("r+b") as f:  # all but the first two pages
        f.seek(8192)
        f.write(random.Random(54).randbytes(max(0, size - 8192)))
    done = _serve_exits(tmp_path, "--db", db_for(tmp_path).url)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_data_naming_a_file_is_one_line(tmp_path: Path) -> None:
    afile = tmp_path / "not-a-folder"
    afile.write_text("x")
    done = _serve_exits(tmp_path, "--data", str(afile))
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and "--data" in done.stderr


@pytest.mark.skipif(KIND != "sqlite", reason="the row is changed by hand in the file")
def test_a_table_of_an_unknown_status_is_broken_not_live(tmp_path: Path) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    try:
        srv.start()
        made = srv.post("/api/tables", {"rounds": 1})
        srv.kill()
        srv.db.execute("UPDATE skat_tables SET status = 'weird' WHERE id = :id", id=made["id"])
        srv.start()
        status, data, _ = _request(srv, "GET", f"/api/tables/{made['id']}")
        assert (status, _code(data)) == (503, "TABLE_BROKEN"), data
        assert "Traceback" not in srv.tail()
    finally:
        srv.kill()


def test_no_answer_sends_a_browser_to_the_host_it_was_asked_by(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        for path in ("/api/lobby/", "/rules/", "/api/options/", "/calculator/"):
            status, _, headers = _request(srv, "GET", path, headers={"host": "evil.example"})
            assert "evil.example" not in headers.get("location", ""), (path, headers)
            assert status < 300 or status >= 400, (path, status)
    finally:
        srv.kill()


# ---------------------------- 4: a tournament seat in an entrant's name
async def _messages(ws: Any, until: Any, limit: int = 200) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    while len(got) < limit:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        got.append(m)
        if until(m):
            break
    return got


async def _leave_and_come_back(srv: Server, table_id: str, token: str) -> dict[str, Any]:
    def welcome(m: dict[str, Any]) -> bool:
        return bool(m.get("type") == "welcome")

    def refused(m: dict[str, Any]) -> bool:
        return bool(m.get("type") in ("error", "seated"))

    url = f"{srv.ws}/ws/{table_id}"
    out: dict[str, Any] = {}
    async with connect(url, open_timeout=5) as anna:
        await anna.send(json.dumps({"type": "hello", "protocol": 2, "token": token}))
        out["anna"] = next(m for m in await _messages(anna, welcome) if welcome(m))
        await anna.send(json.dumps({"type": "leave"}))
        await asyncio.sleep(0.3)
    async with connect(url, open_timeout=5) as stranger:
        await stranger.send(json.dumps({"type": "hello", "protocol": 2}))
        await _messages(stranger, welcome)
        for seat in (None, out["anna"]["seat"], 3):
            sit: dict[str, Any] = {"type": "sit", "name": "Anna"}
            if seat is not None:
                sit["seat"] = seat
            await stranger.send(json.dumps(sit))
            out.setdefault("stranger", []).append(
                next(m for m in await _messages(stranger, refused) if refused(m))
            )
    async with connect(url, open_timeout=5) as back:
        await back.send(json.dumps({"type": "hello", "protocol": 2, "token": token}))
        out["back"] = next(m for m in await _messages(back, welcome) if welcome(m))
    return out


def test_only_entrants_sit_at_a_tournament_table_and_always_get_their_seat_back(
    tmp_path: Path,
) -> None:
    srv, _ = _started(tmp_path)
    try:
        t = _json(srv, "POST", "/api/tournaments", {"name": "Club", "rounds": 1})
        tid = t["id"]
        tokens = {}
        for name in ("Anna", "Bert"):  # two people: a computer fills the table
            tokens[name] = _json(srv, "POST", f"/api/tournaments/{tid}/entrants", {"name": name})[
                "token"
            ]
        _json(srv, "POST", f"/api/tournaments/{tid}/series", {"organiser": t["organiser"]})
        me = _json(srv, "POST", f"/api/tournaments/{tid}/me", {"token": tokens["Anna"]})
        out = asyncio.run(_leave_and_come_back(srv, me["table"]["id"], tokens["Anna"]))
        assert out["anna"]["seat"] == me["table"]["seat"]
        # the stranger with the table's link sits nowhere: not as Anna, not
        # in the computer fill's seat
        assert [m["type"] for m in out["stranger"]] == ["error"] * 3, out["stranger"]
        assert {m["code"] for m in out["stranger"]} == {"SEAT_TAKEN"}
        # Anna's own link brings her back to her seat
        assert out["back"]["seat"] == me["table"]["seat"]
        info = _json(srv, "GET", f"/api/tables/{me['table']['id']}")
        names = [s["name"] for s in info["seats"]]
        assert names.count("Anna") == names.count("Bert") == 1 and len(names) == 3
    finally:
        srv.kill()


# -------------------------------------------------- 6: the lobby taken over
async def _sit_at(srv: Server, table_ids: list[str]) -> None:
    """Anna sits at each table (a table is listed from its first event)."""

    async def one(n: int, table_id: str) -> None:
        # from addresses of their own: new connections per address are limited
        source = (f"127.0.4.{n % 200}", 0)
        async with connect(f"{srv.ws}/ws/{table_id}", open_timeout=10, local_addr=source) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
            await _messages(ws, lambda m: m.get("type") in ("seated", "error"))

    for start in range(0, len(table_ids), 20):
        batch = table_ids[start : start + 20]
        await asyncio.gather(*(one(start + i, t) for i, t in enumerate(batch)))


def test_a_few_addresses_cannot_hide_a_bystanders_table_or_tournament(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        mine = _json(srv, "POST", "/api/tables", {"public": True}, source=BYSTANDER)["id"]
        ours = _json(
            srv, "POST", "/api/tournaments", {"name": "Ours", "public": True}, source=BYSTANDER
        )["id"]
        theirs = [
            _json(srv, "POST", "/api/tables", {"public": True}, source=f"127.0.1.{a}")["id"]
            for a in range(12)
            for _ in range(10)
        ]
        for a in range(21):
            for n in range(5):
                body = {"name": f"Flood {a}-{n}", "public": True}
                _json(srv, "POST", "/api/tournaments", body, source=f"127.0.2.{a}")
        asyncio.run(_sit_at(srv, [mine, *theirs]))
        time.sleep(1.1)  # past the lobby's own cache (lobby_cache)
        lobby = _json(srv, "GET", "/api/lobby")
        assert mine in [t["id"] for t in lobby["tables"]]
        assert ours in [t["id"] for t in lobby["tournaments"]]
        assert len(lobby["tables"]) == 12 * 2 + 1
    finally:
        srv.kill()


# ------------------------------------ 7: a public tournament filled by one
def _enter(srv: Server, tid: str, body: dict[str, Any], source: str) -> tuple[int, str]:
    status, data, _ = _request(
        srv,
        "POST",
        f"/api/tournaments/{tid}/entrants",
        json.dumps(body).encode(),
        source,
        {"content-type": "application/json"},
    )
    return status, _code(data)


def test_one_stranger_cannot_fill_a_public_tournament(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        t = _json(srv, "POST", "/api/tournaments", {"name": "Open", "public": True})
        tid = t["id"]
        flood = [_enter(srv, tid, {"name": f"Bot {i}"}, "127.0.0.9") for i in range(30)]
        taken = flood.count((201, ""))
        assert 1 <= taken <= 20, flood
        assert (429, "TOO_MANY_ENTRIES") in flood
        # a bystander enters meanwhile
        assert _enter(srv, tid, {"name": "Anna"}, BYSTANDER) == (201, "")
        # the organiser closes the entries: nobody enters by the link, the
        # organiser still adds people, and the lobby lists it no more
        body = {"organiser": t["organiser"], "open": False}
        assert _json(srv, "POST", f"/api/tournaments/{tid}/entry", body) == {"open": False}
        assert _enter(srv, tid, {"name": "Bert"}, "127.0.0.3") == (409, "ENTRY_CLOSED")
        assert _enter(srv, tid, {"name": "Cora", "organiser": t["organiser"]}, "127.0.0.3") == (
            201,
            "",
        )
        view = _json(srv, "GET", f"/api/tournaments/{tid}")
        assert view["entry_closed"] is True and "Cora" in view["entrants"]
        status, data, _ = _request(
            srv,
            "POST",
            f"/api/tournaments/{tid}/entry",
            json.dumps({"organiser": "wrong", "open": True}).encode(),
        )
        assert (status, _code(data)) == (403, "NOT_ORGANISER")
        time.sleep(1.1)  # past the lobby's own cache
        assert tid not in [x["id"] for x in _json(srv, "GET", "/api/lobby")["tournaments"]]
    finally:
        srv.kill()
    # one address's entries to one tournament are capped too
    (tmp_path / "cap").mkdir()
    srv, _ = _started(tmp_path / "cap", "--entries-per-address", "3")
    try:
        t = _json(srv, "POST", "/api/tournaments", {"name": "Open", "public": True})
        got = [_enter(srv, t["id"], {"name": f"Bot {i}"}, "127.0.0.9") for i in range(5)]
        assert got == [(201, "")] * 3 + [(429, "TOO_MANY_ENTRIES")] * 2
        assert _enter(srv, t["id"], {"name": "Anna"}, BYSTANDER) == (201, "")
    finally:
        srv.kill()


# ------------------------------- 3: tournaments round the address limits
def _tournament_with(srv: Server, entrants: int, source: str, **body: Any) -> dict[str, Any]:
    t: dict[str, Any] = _json(
        srv, "POST", "/api/tournaments", {"name": "Club", "rounds": 1, **body}, source=source
    )
    for i in range(entrants):
        body = {"name": f"Player {i:03d}", "organiser": t["organiser"]}
        _json(srv, "POST", f"/api/tournaments/{t['id']}/entrants", body, source=source)
    return t


def _draw(srv: Server, t: dict[str, Any], source: str) -> tuple[int, str]:
    status, data, _ = _request(
        srv,
        "POST",
        f"/api/tournaments/{t['id']}/series",
        json.dumps({"organiser": t["organiser"]}).encode(),
        source,
        {"content-type": "application/json"},
    )
    return status, _code(data)


def test_a_tournaments_tables_count_as_its_organisers(tmp_path: Path) -> None:
    organiser = "127.0.0.5"
    srv, _ = _started(tmp_path, "--tournament-tables", "12")
    try:
        # strong computer players: 5 tables are more than one address may have
        strong = _tournament_with(srv, 20, organiser, rules={"level": "strong"})
        assert _draw(srv, strong, organiser) == (429, "TOO_MANY_TABLES")
        # more tables than the cap of tables from one address
        big = _tournament_with(srv, 52, organiser)
        assert _draw(srv, big, organiser) == (429, "TOO_MANY_TABLES")
        # three tables drawn count against the organiser's own tables
        club = _tournament_with(srv, 12, organiser)
        assert _draw(srv, club, organiser) == (201, "")
        made = [
            _request(
                srv, "POST", "/api/tables", b"{}", organiser, {"content-type": "application/json"}
            )[0]
            for _ in range(8)
        ]
        assert made == [201] * 7 + [429], made
        # another address is not held up
        assert _json(srv, "POST", "/api/tables", {}, source=BYSTANDER)["id"]
    finally:
        srv.kill()


# ------------------------------------------------- 9: connection storms
async def _storm(srv: Server, table_id: str) -> tuple[list[Any], dict[str, Any]]:
    """100 hello-and-close from one address; then a bystander's hello."""
    closes: list[Any] = []
    for _ in range(100):
        ws = await connect(f"{srv.ws}/ws/{table_id}", open_timeout=10)
        try:
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if first.get("type") == "error":
                with contextlib.suppress(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)
                closes.append((first["code"], ws.close_code))
        finally:
            with contextlib.suppress(ConnectionClosed):
                await ws.close()
    async with connect(f"{srv.ws}/ws/{table_id}", open_timeout=10, local_addr=(BYSTANDER, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 2}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return closes, welcome


def test_a_connection_storm_from_one_address_is_cut_short(tmp_path: Path) -> None:
    srv, _ = _started(tmp_path)
    try:
        made = _json(srv, "POST", "/api/tables", {"players": 3})
        closes, welcome = asyncio.run(_storm(srv, made["id"]))
        assert closes and set(closes) == {("RATE_LIMITED", 4429)}, closes
        assert len(closes) >= 100 - 60 - 30  # the burst, and what refills meanwhile
        assert welcome["type"] == "welcome"
    finally:
        srv.kill()


# ------------------------------- 13: the analysis pool shared by addresses
def test_a_bystanders_board_comes_while_ten_addresses_keep_the_pool_full(
    tmp_path: Path,
) -> None:
    srv, _ = _started(tmp_path)
    stop = threading.Event()
    answers: list[int] = []

    def attacker(address: str, tag: str) -> None:
        for n in range(20):  # distinct files: nothing merges, nothing is cached
            if stop.is_set():
                return
            body = json.dumps(dict(DEFENDER_BLUNDER, id=f"{tag}-{n}")).encode()
            answers.append(_request(srv, "POST", "/api/board?game=1", body, address)[0])

    try:
        threads = [
            threading.Thread(target=attacker, args=(f"127.0.5.{a}", f"{a}-{k}"))
            for a in range(10)
            for k in range(2)  # two at once from each: the pool's bound is 9
        ]
        for th in threads:
            th.start()
        time.sleep(1.5)  # the pool is full and kept full (no assertion on it)
        mine = json.dumps([DECLARER_BLUNDER]).encode()
        status, data, _ = _request(srv, "POST", "/api/board?game=1", mine, BYSTANDER)
        stop.set()
        for th in threads:
            th.join(120)
        assert status == 200, data
        assert 503 in answers  # the ten were refused, not the bystander
    finally:
        stop.set()
        srv.kill()


def test_a_tournament_keeps_its_length_when_the_limit_is_lowered(tmp_path: Path) -> None:
    """Issue 54, finding 10: made with 12 rounds, drawn after a restart with
    --max-rounds 6 (its draw answered 500 for good): the tournament keeps
    the length it was made with, as a stored table does."""
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    try:
        srv.start()
        t = _json(srv, "POST", "/api/tournaments", {"name": "Long", "rounds": 12})
        for name in ("Anna", "Bert", "Cora"):
            _json(srv, "POST", f"/api/tournaments/{t['id']}/entrants", {"name": name})
        srv.kill()
        srv.extra = ["--max-rounds", "6"]
        srv.start()
        assert _draw(srv, t, "127.0.0.1") == (201, "")
        view = _json(srv, "GET", f"/api/tournaments/{t['id']}")
        assert view["series"][0]["tables"][0]["deals"] == 36
        assert "Traceback" not in srv.tail()
    finally:
        srv.kill()
