"""Issue 49, item 1: nobody's list without them, on a real `skat serve`
process and its SQLite file. A table with no person of it connected rests
after the disconnect grace (not after a number of deals) and the rest is
stored, so a restarted process does not wake it; only a person of the
table, with their seat token, does. A seat given up with "Leave the table"
is named for the computer from that deal on, and every move a computer
makes for an absent person is marked in every download."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

from skat.series.record import verify_list
from tests.helpers.processes import Human, Server, free_port
from tests.helpers.stores import db_for

GRACE = "1"  # seconds: `--grace` of these servers


def _server(tmp_path: Path, *extra: str) -> Server:
    return Server(
        free_port(),
        db_for(tmp_path),
        tmp_path / "server.log",
        extra=["--grace", GRACE, *extra],
    )


def _events(srv: Server, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    rows = srv.db.rows(
        "SELECT version, kind, payload FROM skat_events WHERE table_id = :t ORDER BY version",
        t=table_id,
    )
    return [(v, k, json.loads(p)) for v, k, p in rows]


def _text(srv: Server, path: str) -> str:
    with urllib.request.urlopen(f"{srv.http}{path}", timeout=5) as r:
        return str(r.read().decode())


def _wait(what: str, check: Any, timeout: float = 30.0) -> Any:
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, what
        time.sleep(0.05)
    return found


async def _until(h: Human, done: Any, timeout: float = 30.0) -> None:
    """Read ``h``'s messages, playing its turns, until ``done(h)``."""
    assert h.ws is not None
    end = time.monotonic() + timeout
    while not done(h):
        assert time.monotonic() < end, f"{h.name}: {h.view}"
        try:
            raw = await asyncio.wait_for(h.ws.recv(), 0.3)
        except TimeoutError:
            continue
        m = json.loads(raw)
        h._note(m)
        if m["type"] == "error":
            h.acted = None
        if not done(h):
            await h._maybe_act()


def _my_turn_again(h: Human) -> bool:
    """Anna has made a move of this deal and is to move again."""
    v = h.view
    own = [a for a in h.acked if a[1] == h.seat]
    return bool(own) and v is not None and v["turn"] == h.seat and bool(v["legal"])


def test_a_solo_table_left_mid_deal_rests_and_stays_resting_across_a_restart(
    tmp_path: Path,
) -> None:
    """Anna plays with two computers and closes her page mid-deal, at her
    turn. Within the grace the table rests (a stored `rest` event) and no
    move is made for her; the server process is killed and started again:
    the table still rests and nothing is played, a spectator does not wake
    it; Anna's own token does (a stored `wake`), and she plays on."""
    srv = _server(tmp_path, "--bot-delay", "0.05")
    srv.start()
    try:
        table = srv.post("/api/tables", {"rounds": 2})
        tid = table["id"]
        url = f"{srv.ws}/ws/{tid}"

        async def leave_mid_deal() -> Human:
            anna = Human("Anna", random.Random(4))
            await anna.connect(url)
            await anna.sit()
            assert anna.ws is not None
            await anna.ws.send(json.dumps({"type": "fill", "creator": table["creator"]}))
            await _until(anna, _my_turn_again)
            await anna.close()
            return anna

        anna = asyncio.run(leave_mid_deal())
        assert anna.view is not None and anna.view["phase"] != "done"  # mid-deal
        mine = len([a for a in anna.acked if a[1] == anna.seat])
        _wait("the table never rested", lambda: srv.get(f"/api/tables/{tid}")["table"]["resting"])
        rested = _events(srv, tid)
        assert rested[-1][1] == "rest"
        assert [k for _, k, _ in rested].count("rest") == 1
        at_her_seat = [p for _, k, p in rested if k == "act" and p["seat"] == anna.seat]
        assert len(at_her_seat) == mine and not any(p["auto"] for p in at_her_seat)

        srv.kill()  # SIGKILL: a crash, no shutdown handler
        srv.start()
        time.sleep(2 * float(GRACE) + 0.5)  # longer than a grace: a woken table would move
        info = srv.get(f"/api/tables/{tid}")
        assert info["table"]["resting"] is True and info["version"] == rested[-1][0]

        async def spectator_then_anna() -> dict[str, Any]:
            watcher = Human("Spectator", random.Random(1))
            await watcher.connect(url)
            assert watcher.ws is not None
            while (m := json.loads(await asyncio.wait_for(watcher.ws.recv(), 5)))["type"] != (
                "state"
            ):
                pass
            assert m["table"]["resting"] is True
            await asyncio.sleep(float(GRACE))
            assert _events(srv, tid) == rested  # a spectator wakes nothing
            await anna.connect(url, last_version=anna.last_version)
            assert anna.ws is not None
            while True:
                m = json.loads(await asyncio.wait_for(anna.ws.recv(), 5))
                anna._note(m)
                if m["type"] == "state":
                    break
            moved = len(anna.acked)
            await _until(anna, lambda h: len(h.acked) > moved)  # and the table plays on
            await anna.close()
            await watcher.close()
            return dict(m)

        back = asyncio.run(spectator_then_anna())
        assert back["table"]["resting"] is False and back["you"] == anna.seat
        after = _events(srv, tid)
        assert after[: len(rested)] == rested and after[len(rested)][1] == "wake"
    finally:
        srv.kill()


def test_a_table_kept_by_one_person_does_not_rest(tmp_path: Path) -> None:
    """Bert closes his page; Anna stays: the table plays on (after the grace
    a computer plays Bert's turns, each move marked), it never rests, and
    the list is finished with Bert's moves marked in every download."""
    srv = _server(tmp_path)
    srv.start()
    try:
        table = srv.post("/api/tables", {"rounds": 1})
        tid = table["id"]
        url = f"{srv.ws}/ws/{tid}"

        async def scenario() -> tuple[Human, Human]:
            anna, bert = Human("Anna", random.Random(2)), Human("Bert", random.Random(3))
            for h in (anna, bert):
                await h.connect(url)
                await h.sit()
            assert anna.ws is not None
            await anna.ws.send(json.dumps({"type": "fill", "creator": table["creator"]}))

            async def bert_goes() -> None:
                await _until(bert, lambda h: h.view is not None and h.view["turn"] == h.seat)
                await bert.close()

            await asyncio.gather(_until(anna, lambda h: h.over, timeout=90), bert_goes())
            await anna.close()
            return anna, bert

        _, bert = asyncio.run(scenario())
        events = _events(srv, tid)
        kinds = [k for _, k, _ in events]
        assert "rest" not in kinds
        info = srv.get(f"/api/tables/{tid}")
        assert info["table"]["status"] == "finished" and info["table"]["resting"] is False
        marked = [p for _, k, p in events if k == "act" and p["auto"]]
        assert marked and all(p["seat"] == bert.seat for p in marked)
        record = srv.get(f"/api/tables/{tid}/list.json")
        assert verify_list(record) == []
        flagged = {(number, i) for number, moves in record["computer_moves"].items() for i in moves}
        assert flagged
        for number, i in flagged:
            assert record["deals"][int(number) - 1]["actions"][i][0] == bert.seat
        rows = list(csv.reader(io.StringIO(_text(srv, f"/api/tables/{tid}/sheet.csv"))))
        column = rows[0].index("computer for")
        assert {r[column] for r in rows[1:]} <= {"", "Bert"} and any(r[column] for r in rows[1:])
    finally:
        srv.kill()


def test_after_leave_the_sheet_and_the_downloads_name_the_computer_from_that_deal(
    tmp_path: Path,
) -> None:
    """Anna and Bert play with one computer; in deal 2 Bert presses "Leave
    the table". Deal 1 is Bert's; from deal 2 on the sheet, the CSV, the
    list record and the ISS export name "Computer (for Bert)", and the moves
    the computer made for him in deal 2 are marked."""
    srv = _server(tmp_path)
    srv.start()
    try:
        table = srv.post("/api/tables", {"rounds": 1})
        tid = table["id"]
        url = f"{srv.ws}/ws/{tid}"

        async def scenario() -> tuple[Human, Human]:
            anna, bert = Human("Anna", random.Random(5)), Human("Bert", random.Random(6))
            for h in (anna, bert):
                await h.connect(url)
                await h.sit()
            assert anna.ws is not None and bert.ws is not None
            await anna.ws.send(json.dumps({"type": "fill", "creator": table["creator"]}))

            def in_deal_two(h: Human) -> bool:
                return h.deal == 2 and h.view is not None and h.view["turn"] == h.seat

            async def bert_leaves() -> None:
                assert bert.ws is not None
                await _until(bert, in_deal_two)
                await bert.ws.send(json.dumps({"type": "leave"}))
                await asyncio.sleep(0.2)
                await bert.close()

            await asyncio.gather(_until(anna, lambda h: h.over, timeout=90), bert_leaves())
            await anna.close()
            return anna, bert

        _, bert = asyncio.run(scenario())
        info = srv.get(f"/api/tables/{tid}")
        names_from = info["sheet"]["names_from"]
        assert names_from["1"][bert.seat] == "Bert"
        assert names_from["2"][bert.seat] == "Computer (for Bert)"
        assert "3" not in names_from  # unchanged from deal 2 on
        assert info["seats"][bert.seat]["name"] == "Computer (for Bert)"
        assert bert.seat in info["sheet"]["auto_moves"].get("2", [])
        assert all(bert.seat not in v for k, v in info["sheet"]["auto_moves"].items() if k != "2")

        rows = list(csv.reader(io.StringIO(_text(srv, f"/api/tables/{tid}/sheet.csv"))))
        head = rows[0]
        assert "Bert / Computer (for Bert)" in head
        rows_by_deal = {int(r[0]): r for r in rows[1:]}
        assert rows_by_deal[2][head.index("computer for")] == "Computer (for Bert)"
        assert rows_by_deal[3][head.index("computer for")] == ""
        for number, row in rows_by_deal.items():  # who dealt: named as at that deal
            dealer = info["sheet"]["rows"][number - 1]["dealer"]
            assert row[1] == (names_from["1"] if number == 1 else names_from["2"])[dealer]

        record = srv.get(f"/api/tables/{tid}/list.json")
        assert verify_list(record) == []
        assert record["players_from"]["2"][bert.seat] == "Computer (for Bert)"
        deal_two = record["deals"][1]["actions"]
        assert record["computer_moves"]["2"]
        assert all(deal_two[i][0] == bert.seat for i in record["computer_moves"]["2"])
        iss = _text(srv, f"/api/tables/{tid}/games.iss")
        games = {
            int(x.split(f"ID[{tid}-", 1)[1].split("]", 1)[0]): x for x in iss.splitlines() if x
        }
        assert games, iss
        for number, line in games.items():
            assert ("Computer_(for_Bert)" in line) is (number >= 2), line
            assert ("CO[computer moves for P" in line) is (number == 2), line
    finally:
        srv.kill()
