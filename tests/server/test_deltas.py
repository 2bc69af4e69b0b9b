"""Issue 52, point 3: a move sends each viewer only what changed of its view
(docs/protocol.md, "Changes"), and a client that speaks an older protocol is
refused with a reason instead of getting a table it cannot follow.

Through the real app (Starlette's test client): the version each change
applies to, a client that loses one change and gets back on its own
(`resync`), the same bytes to every device of one viewer, the whole view to
a connection that has just changed seats, and the `OLD_CLIENT` refusal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skat.server.protocol import PROTOCOL
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
    started,
    watch,
)


def _holds_a_fresh_view(p: Peer, token: str | None) -> None:
    """``p``'s view (its changes applied) is the one a page opened now gets
    (a new connection's `state`), compared at the same version."""
    for _ in range(20):
        fresh = Peer(p.client, p.tid, "fresh").connect(token=token)
        state = fresh.wait_for(lambda m: m["type"] == "state")
        fresh.close()
        p.barrier()
        if p.keeper.version == state["version"] and not p.keeper.waiting:
            assert p.keeper.view == state["view"], p.label
            return
    raise AssertionError(f"{p.label}: the table did not stand still to compare")


def _lose_once(p: Peer, pred: Callable[[dict[str, Any]], bool]) -> list[int]:
    """Lose the first message ``pred`` answers True for on its way to ``p``;
    the list gets how many messages ``p`` had recorded then."""
    at: list[int] = []

    def hook(m: dict[str, Any]) -> bool:
        if pred(m):
            at.append(len(p.records))
            return True
        return False

    p.lose = hook
    return at


def test_a_client_that_loses_a_change_asks_for_the_state_and_plays_on(tmp_path: Path) -> None:
    """A change that does not follow the version the client holds is never
    applied: the client asks for the whole state (`resync`), ignores changes
    until it comes, and then holds exactly the view a fresh connection gets;
    it plays the list to its end, and the leak oracle finds nothing in the
    changes nor in the views rebuilt from them."""
    rng = random.Random(5)
    with serve(tmp_path) as (app, client, _db):
        tid, (anna, bert), spectator = started(client, ("Anna", "Bert"))
        everyone = [anna, bert, spectator]
        pump(everyone, lambda: bool(anna.view and anna.view["phase"] == "play"), rng)

        # the next change that completes one of the first tricks is lost on
        # its way to Anna, and to the spectator (after it a trick begins:
        # the deal goes on, unless a computer player gives the game up)
        def trick_done(m: dict[str, Any]) -> bool:
            added = m.get("added")
            held = anna.keeper.view
            early = held is not None and len(held["tricks"]) < 7
            return early and isinstance(added, dict) and "tricks" in added

        lost = {p.label: _lose_once(p, trick_done) for p in (anna, spectator)}
        pump(everyone, lambda: not anna.lose and not spectator.lose, rng)

        def healed(p: Peer) -> bool:
            """It asked for the state again, or a whole state came anyway."""
            later = p.records[lost[p.label][0] :]
            return p.resyncs == 1 or any(
                "state" in r.msg or r.msg["type"] == "state" for r in later
            )

        # a change lost while the table is quiet (Anna's turn, unknown to
        # her) shows in the answer to the ping a quiet client sends
        for p in everyone:
            p.barrier()
        pump(everyone, lambda: healed(anna) and healed(spectator), rng)
        assert [m["type"] for m in anna.lost + spectator.lost] == ["event", "event"]
        assert anna.resyncs + spectator.resyncs >= 1 and bert.resyncs == 0
        # once the state asked for has come, the view held is a fresh one
        if not anna.list_over:
            _holds_a_fresh_view(anna, anna.token)
            _holds_a_fresh_view(spectator, None)
        pump(everyone, lambda: all(p.list_over for p in everyone), rng)
        for p in everyone:
            p.barrier()
            assert not [m for m in p.errors() if m["code"] != "STALE_VERSION"], p.label
        assert public(client, tid)["list_over"]
        kn = knowledge(app, client, tid)
        assert [x for p in everyone for x in leaks(p, kn)] == []


def test_every_device_of_one_viewer_gets_the_same_bytes(tmp_path: Path) -> None:
    """A change is made once per kind of viewer: two devices of one seat get
    the same text for every event, and so do two spectators; a seat's
    changes hold its hand, a spectator's never."""
    rng = random.Random(2)
    with serve(tmp_path) as (_app, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        anna = join(client, tid, "Anna")
        phone = Peer(client, tid, "Anna's phone", plays=False).connect(token=anna.token)
        one, two = watch(client, tid, "one"), watch(client, tid, "two")
        anna.send(type="fill", creator=t["creator"])
        everyone = [anna, phone, one, two]
        pump(everyone, lambda: anna.list_over, rng, 60)
        for p in everyone:
            p.barrier()

        def live(p: Peer, since: int) -> dict[int, str]:
            return {
                r.msg["version"]: r.raw
                for r in p.records
                if r.msg["type"] == "event" and r.msg["version"] > since and not r.replayed
            }

        since = phone.records[1].msg["version"]  # its state on connecting
        mine, theirs = live(anna, since), live(phone, since)
        assert mine and mine == theirs
        assert live(one, since) == live(two, since)
        changes = [json.loads(raw) for raw in mine.values()]
        assert any("hand" in (m.get("changes") or {}) for m in changes)
        watched = [json.loads(raw) for raw in live(one, since).values()]
        assert all((m.get("changes") or {}).get("hand") is None for m in watched)
        assert all(p.gap_errors == [] for p in everyone)


def test_a_connection_that_changes_seats_gets_the_whole_view(tmp_path: Path) -> None:
    """The changes go only to a connection that holds the same viewer's view
    of the version before: one whose seat was taken (it watches now) gets
    the whole view, never a seat's changes applied to a spectator's view."""
    rng = random.Random(4)
    with serve(tmp_path) as (_app, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        x = join(client, tid, "Xaver")
        y = Peer(client, tid, "X's second device", plays=False).connect(token=x.token)
        y.wait_for(lambda m: m["type"] == "state")
        x.send(type="fill", creator=t["creator"])
        pump([x, y], lambda: bool(x.view and x.view["phase"] == "play"), rng)
        x.send(type="leave")
        y.wait_for(lambda m: m["type"] == "notice")
        y.wait_for(lambda m: m["type"] == "state")
        left = next(
            r.msg
            for r in y.records
            if r.msg["type"] == "event" and r.msg["event"]["kind"] == "leave"
        )
        assert "view" in left and left["view"]["seat"] is None and "changes" not in left
        assert y.gap_errors == [] and y.keeper.view is not None
        assert y.keeper.view["seat"] is None and not y.keeper.view["hand"]


@pytest.mark.parametrize(
    "hello",
    [
        {"type": "hello"},
        {"type": "hello", "protocol": 1, "token": "whatever"},
        {"type": "hello", "protocol": PROTOCOL + 1},
    ],
)
def test_a_client_of_another_protocol_is_refused_and_told_why(
    tmp_path: Path, hello: dict[str, object]
) -> None:
    """A page from before the changes (its hello names no protocol) or a
    client of another protocol gets `OLD_CLIENT` with a message that says
    what to do, then the close 4426; the table is not touched (no seat, no
    event, nothing stored) and a client of this protocol plays on."""
    with serve(tmp_path) as (_app, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        before = public(client, tid)
        old = Peer(client, tid, "old page").connect(hello=False)
        old.send(**hello)
        error = old.recv()
        assert error is not None and error["type"] == "error"
        assert error["code"] == "OLD_CLIENT"
        assert "reload the page" in error["message"]
        newer = hello.get("protocol") == PROTOCOL + 1
        assert ("newer" if newer else "older") in error["message"]
        with pytest.raises(Closed, match="4426"):
            old.recv()
        assert public(client, tid) == before
        anna = join(client, tid, "Anna")
        assert anna.errors() == [] and public(client, tid)["version"] == before["version"] + 1
