"""The review of a person's decisions at a real `skat serve` (issue 48,
points 1 and 2): refused for a deal not over and for anyone but the
person at the seat, made in the analysis pool, never a card the seat could
not see when it decided (the leak oracle over reviews,
`tests/helpers/players.py` `review_leaks`).

The deal is made by hand: the tables' seed is set in the store while the
server is down (a list's decks follow from its seed, docs/fairness.md).
With seed ``review-1310`` seat 0 (forehand, ``first_dealer`` 2) holds
CK CQ CJ C8 C7 SA ST SQ S8 S7; `heuristic` passes or gives up by 27, and
seat 0 plays Null Hand (35). In Null the ace takes every trick it is led
to (R7.1: no trumps, the ace highest): leading SA loses the game in every
layout of the hidden cards, a blunder; leading S8 is the review's best.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from websockets.asyncio.client import connect

from skat.cli import main
from skat.series.record import replay_list
from skat.series.shuffle import commitment
from skat.server.messages import ViewKeeper
from tests.helpers.players import review_leaks
from tests.helpers.processes import Server, free_port
from tests.helpers.server import join, new_table, pump, serve
from tests.helpers.stores import db_for

SEED = hashlib.sha256(b"review-1310").digest()
HAND = "CK CQ CJ C8 C7 SA ST SQ S8 S7"


def _post(server: Server, path: str, body: Any) -> tuple[int, Any]:
    return server.answer(path, body)


async def _play(server: Server, tid: str, creator: str, lead: str) -> dict[str, Any]:
    """Anna at seat 0: holds to Null Hand, leads ``lead``, then plays her
    first legal card. Asks for the review of the deal once while it is in
    play. Returns her token and what she was told."""
    async with connect(f"{server.ws}/ws/{tid}", open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 2}))
        await ws.send(json.dumps({"type": "sit", "name": "Anna", "seat": 0}))
        token = None
        in_play: tuple[int, Any] | None = None
        acted = -1
        keeper = ViewKeeper()
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            keeper.note(m)
            if m["type"] == "seated":
                token = m["token"]
                await ws.send(json.dumps({"type": "fill", "creator": creator}))
            state = m.get("state") if m["type"] == "event" else m if m["type"] == "state" else None
            if state is not None and state.get("list_over"):
                break
            view = keeper.view if m["type"] in ("event", "state") else None
            if view is None or view["turn"] != 0 or not view["legal"] or m["version"] == acted:
                continue
            legal = view["legal"]
            if view["phase"] == "bidding":
                assert sorted(view["hand"]) == sorted(HAND.split())
                action = "hold" if "hold" in legal else "bid 18" if "bid 18" in legal else "pass"
            elif view["phase"] == "skat":
                action = "announce null hand"
            elif view["phase"] == "play" and not view["tricks"] and not view["trick"]:
                in_play = await asyncio.to_thread(
                    _post, server, f"/api/tables/{tid}/deals/1/review", {"token": token}
                )
                action = f"play {lead}"
            else:
                action = next(a for a in legal if a.startswith("play"))
            assert action in legal, (action, legal)
            acted = m["version"]
            await ws.send(json.dumps({"type": "act", "action": action, "version": m["version"]}))
    return {"token": token, "in_play": in_play}


@pytest.mark.slow
def test_a_review_of_a_blunder_and_a_fine_lead_without_a_leak(tmp_path: Path) -> None:
    db = db_for(tmp_path)
    server = Server(free_port(), db, tmp_path / "server.log")
    server.start()
    try:
        options = {"deals": 1, "players": 3, "first_dealer": 2, "bot": "heuristic"}
        tables = [server.post("/api/tables", options) for _ in range(2)]
        # the hand-made deal: both tables' seed set while the server is down
        server.kill()
        for t in tables:
            db.execute(
                "UPDATE skat_tables SET seed = :seed, commitment = :c WHERE id = :id",
                seed=SEED.hex(),
                c=commitment(SEED),
                id=t["id"],
            )
        server.start()
        answers = {}
        for t, lead in zip(tables, ("SA", "S8"), strict=True):
            got = asyncio.run(_play(server, t["id"], t["creator"], lead))
            # a deal in play is not reviewed: its cards are hidden (R3.7)
            status, refusal = got["in_play"]
            assert (status, refusal["error"]["code"]) == (409, "WRONG_PHASE")
            path = f"/api/tables/{t['id']}/deals/1/review"
            # only the person at the seat reads its review
            status, refusal = _post(server, path, {})
            assert (status, refusal["error"]["code"]) == (400, "BAD_REQUEST")
            status, refusal = _post(server, path, {"token": "not-a-seat"})
            assert (status, refusal["error"]["code"]) == (403, "BAD_TOKEN")
            mine = {"token": got["token"]}
            assert _post(server, f"/api/tables/{t['id']}/deals/2/review", mine)[0] == 404
            status, review = _post(server, path, {"token": got["token"]})
            assert status == 200, review
            status, whole = _post(server, f"/api/tables/{t['id']}/review", {"token": got["token"]})
            assert status == 200, whole
            answers[lead] = (t["id"], review, whole)
        blunder = answers["SA"][1]
        first = next(d for d in blunder["decisions"] if d["phase"] == "play")
        assert (first["action"], first["verdict"], first["step"]) == ("play SA", "blunder", 1)
        assert first["best"] != "play SA" and first["loss"] >= 80
        assert blunder["luck"]["role"] == "declarer" and blunder["luck"]["made"] == -120
        fine = answers["S8"][1]
        first = next(d for d in fine["decisions"] if d["phase"] == "play")
        assert (first["action"], first["verdict"], first["loss"]) == ("play S8", "fine", 0)
        # the list's review: luck against play, the blunder its costliest decision
        whole = answers["SA"][2]
        assert whole["complete"] and (whole["settled"], whole["reviewed"]) == (1, 1)
        assert whole["made"] == -120
        assert whole["play"] == pytest.approx(whole["made"] - whole["promised"], abs=0.05)
        assert whole["costliest"][0]["action"] == "play SA"
        # the leak oracle over every review answer: each decision names only
        # cards the seat knew when it decided, the rest names none
        for tid, review, whole in answers.values():
            record = server.get(f"/api/tables/{tid}/list.json")
            deal = replay_list(record).series.deals[0]
            assert review_leaks(review, deal, 0) == []
            assert review_leaks(whole, deal, 0) == []
            # the oracle sees a card the seat could not know at its decision
            fake = json.loads(json.dumps(review))
            hidden = next(str(c) for c in deal.dealt_hand(1))
            fake["decisions"][0]["best"] = f"play {hidden}"
            assert review_leaks(fake, deal, 0)
        # `skat review` of the list's record says the same, decision by decision
        tid, review, whole = answers["SA"]
        path = tmp_path / "list.json"
        path.write_text(json.dumps(server.get(f"/api/tables/{tid}/list.json")))
        run = CliRunner().invoke(main, ["review", str(path), "--seat", "0", "--json"])
        assert run.exit_code == 0, run.stderr
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        for line in lines:
            del line["type"]
        assert lines[:-2] == review["decisions"]
        assert lines[-2] == review["luck"]
        assert lines[-1] == {
            k: v for k, v in whole.items() if k not in ("settled", "reviewed", "complete")
        }
        assert "Traceback" not in server.tail()
    finally:
        server.kill()


def test_a_review_is_refused_clearly_before_anything_is_reviewed(tmp_path: Path) -> None:
    """Bad input gets a clear error and costs no review: no table, no list
    yet, a body that is not ``{"token"}``, a token that holds no seat, a
    deal not over (R3.7: its cards are hidden), no such deal."""
    with serve(tmp_path) as (app, client, _db):

        def post(path: str, body: Any) -> tuple[int, str]:
            r = client.post(path, content=body if isinstance(body, str) else json.dumps(body))
            return r.status_code, r.json()["error"]["code"]

        assert post("/api/tables/nope/review", {"token": "x"}) == (404, "NO_TABLE")
        t = new_table(client, players=3)
        tid = t["id"]
        assert post(f"/api/tables/{tid}/review", {"token": "x"}) == (409, "NOT_STARTED")
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        anna.wait_for(lambda m: (m.get("state") or m).get("deal") is not None)
        token = anna.token
        assert token is not None
        for body in ("not json", [], {"token": 7}, {"token": token, "seat": 1}, {}):
            assert post(f"/api/tables/{tid}/review", body) == (400, "BAD_REQUEST"), body
        assert post(f"/api/tables/{tid}/review", "x" * 5000)[0] == 413
        assert post(f"/api/tables/{tid}/review", {"token": t["creator"]}) == (403, "BAD_TOKEN")
        mine = {"token": token}
        assert post(f"/api/tables/{tid}/deals/1/review", mine) == (409, "WRONG_PHASE")
        assert post(f"/api/tables/{tid}/deals/9/review", mine) == (404, "NO_DEAL")
        # nothing was asked of the reviews' pool
        assert app.state.tables.reviewing.made == 0
        # the list's review of no settled deal: empty, complete
        r = client.post(f"/api/tables/{tid}/review", content=json.dumps(mine))
        assert r.status_code == 200
        got = r.json()
        assert (got["settled"], got["complete"], got["decisions"]) == (0, True, 0)


@pytest.mark.slow
def test_an_open_card_analysis_never_waits_behind_a_review(tmp_path: Path) -> None:
    """A review takes seconds: it has a pool of its own, so while one runs
    the board and "could I have won?" of a settled deal still answer."""
    import threading

    with serve(tmp_path) as (app, client, _db):
        t = new_table(client, players=3, bot="heuristic")
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, timeout=60)
        tables = app.state.tables
        gate = threading.Event()
        started = threading.Event()

        def held(fn: Any, *args: Any) -> Any:  # the review's process, held open
            started.set()
            gate.wait(30)
            return fn(*args)

        tables.offload.call = held
        answers: list[int] = []
        body = json.dumps({"token": anna.token})
        asking = threading.Thread(
            target=lambda: answers.append(
                client.post(f"/api/tables/{t['id']}/deals/1/review", content=body).status_code
            )
        )
        asking.start()
        try:
            assert started.wait(10)
            for kind in ("board", "analysis"):
                r = client.get(f"/api/tables/{t['id']}/deals/1/{kind}")
                assert r.status_code == 200, r.text
            assert answers == []  # the review still runs
        finally:
            gate.set()
            asking.join(60)
        assert answers == [200]
