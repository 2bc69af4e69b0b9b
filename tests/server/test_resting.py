"""Issue 26, point 5, and issue 49, item 1: a table rests when its people
have gone. When no person has been connected for the disconnect grace, the
computer players stop (also those acting for the people who left) and the
table says so to anyone who opens it; the first person back (by their seat
token) resumes it. A spectator is no person of the table. A list is never
finished in the names of people who left. The rest is stored (`rest` and
`wake` events): tests/server/test_resting_processes.py restarts a real
server process."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from skat.server.commands import BotMove, DealDue, TimeUp
from tests.helpers.server import join, new_table, public, pump, serve, watch


def _resting(m: dict[str, Any]) -> bool | None:
    """What a message says of the table's rest: a `state`, or the stored
    `rest` or `wake` event with the state that comes with it; None: nothing."""
    state = m if m["type"] == "state" else m.get("state") if m["type"] == "event" else None
    return None if state is None else bool(state["table"]["resting"])


def _wait_resting(client: Any, tid: str) -> None:
    """Until the table says it rests (at most 10 s)."""
    end = time.monotonic() + 10
    while not public(client, tid)["table"]["resting"]:
        assert time.monotonic() < end, "the table never rested"
        time.sleep(0.05)


def test_a_table_rests_when_its_people_have_gone_and_goes_on_when_one_is_back(
    tmp_path: Path,
) -> None:
    rng = random.Random(5)
    with serve(tmp_path, grace=0.4) as (_, client, _db):
        t = new_table(client, players=3, rounds=2)
        tid = t["id"]
        spectator = watch(client, tid)
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna, spectator], anna.my_turn, rng)
        assert public(client, tid)["table"]["resting"] is False
        anna.close()
        # the computers act for Anna during the rest time, then stop
        spectator.wait_for(lambda m: _resting(m) is True, timeout=10)
        info = public(client, tid)
        assert info["table"]["resting"] is True and info["list_over"] is False
        version = info["version"]
        time.sleep(0.6)
        spectator.drain()
        assert public(client, tid)["version"] == version, "moves were made at a resting table"
        # Anna is back: the table goes on, and the spectator is told
        anna.connect(token=anna.token, last_version=anna.version)
        mine = anna.wait_for(lambda m: m["type"] == "state")
        assert mine["table"]["resting"] is False
        spectator.wait_for(lambda m: _resting(m) is False)
        everyone = [anna, spectator]
        pump(everyone, lambda: all(p.list_over for p in everyone), rng)
        assert public(client, tid)["version"] > version
        assert anna.errors() == []


def test_a_move_thought_out_before_the_table_rested_is_not_played(tmp_path: Path) -> None:
    """A computer's move, a turn's time-up or the next deal's timer that was
    already on its way when the table rested is dropped (CI found a table
    that made one more move after it said it rested)."""
    rng = random.Random(7)
    with serve(tmp_path, grace=0.3) as (app, client, _db):
        t = new_table(client, players=3, rounds=2)
        tid = t["id"]
        spectator = watch(client, tid)
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna, spectator], anna.my_turn, rng)
        anna.close()
        spectator.wait_for(lambda m: _resting(m) is True, timeout=10)
        actor = app.state.tables.actors[tid]
        st = actor.state
        version, gv = st.version, st.game_version
        seat = st.to_move()
        assert st.series is not None
        lates: list[BotMove | TimeUp | DealDue] = [DealDue(gv)]
        if seat is not None:
            action = str(st.series.deal.legal_actions(seat)[0])
            lates += [BotMove(seat, action, gv), TimeUp(seat, gv)]
        for late in lates:
            client.portal.call(actor.submit, late)
        assert st.version == version and st.resting
        assert public(client, tid)["version"] == version


def test_a_person_at_the_table_keeps_it_playing(tmp_path: Path) -> None:
    """Beside one person who stays, the computers play on for one who left."""
    rng = random.Random(6)
    with serve(tmp_path, grace=0.2) as (_, client, _db):
        t = new_table(client, players=3, rounds=1)
        tid = t["id"]
        anna = join(client, tid, "Anna")
        bert = join(client, tid, "Bert")
        anna.send(type="fill", creator=t["creator"])
        pump([anna, bert], lambda: anna.my_turn() or bert.my_turn(), rng)
        bert.close()
        time.sleep(0.4)  # longer than the rest time
        assert public(client, tid)["table"]["resting"] is False
        pump([anna], lambda: anna.list_over, rng)
        assert anna.errors() == []


def test_the_rest_is_no_table_option_any_more(tmp_path: Path) -> None:
    """Issue 49, item 1: every table rests after the disconnect grace; the
    old `rest` time (0: never, 5 minutes by default, about 8 deals played
    for people who had gone) is refused with a clear error, and the form no
    longer offers it. A stored table that still has it replays."""
    with serve(tmp_path) as (_, client, _db):
        for value in (0, 300):
            r = client.post("/api/tables", json={"rounds": 1, "rest": value})
            assert r.status_code == 400, value
            assert r.json()["error"]["code"] == "BAD_OPTIONS"
            assert "disconnect grace" in r.json()["error"]["message"]
        options = {o["name"] for o in client.get("/api/options").json()["options"]}
        assert "rest" not in options
        t = new_table(client)
        assert "rest" not in public(client, t["id"])["table"]["settings"]


def test_a_resting_table_expires_as_an_idle_table_does(tmp_path: Path) -> None:
    """Issue 26, point 5: a table nobody came back to is not kept for ever:
    it rests, and once idle for the idle time it expires like any idle table,
    its list unfinished (never played out in its people's names)."""
    rng = random.Random(7)
    # the idle time is long enough that no stall of a busy machine expires
    # the table while it is played (CI found a table expired before Anna's
    # first turn with a 1 s idle time); it is passed by moving the table's
    # last event back instead of sleeping
    with serve(tmp_path, grace=0.2, idle_timeout=60.0) as (app, client, _db):
        t = new_table(client, players=3, rounds=1)
        tid = t["id"]
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], anna.my_turn, rng)
        anna.close()
        _wait_resting(client, tid)
        version = public(client, tid)["version"]
        client.portal.call(app.state.tables.sweep)
        assert public(client, tid)["table"]["status"] == "playing"  # resting, not idle long
        app.state.tables.actors[tid].last_event -= 61.0  # past the idle time
        client.portal.call(app.state.tables.sweep)
        info = public(client, tid)
        assert info["table"]["status"] == "expired" and info["list_over"] is False
        assert info["version"] == version + 1  # the expiry, and no move before it


def test_a_stranger_asking_for_a_computers_seat_does_not_wake_a_resting_table(
    tmp_path: Path,
) -> None:
    """Issue 54, finding 8: a takeover waits for the next deal, and asking
    for one is open to anyone with the link; it does not count as a person
    of the table, so the computers do not play out the deal (the cards of
    the person who left among them) for a stranger."""
    rng = random.Random(11)
    with serve(tmp_path, grace=0.3) as (_, client, _db):
        t = new_table(client, players=3, rounds=2)
        tid = t["id"]
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], anna.my_turn, rng)
        anna.close()
        _wait_resting(client, tid)
        version = public(client, tid)["version"]
        stranger = watch(client, tid)
        stranger.send(type="sit", name="Mallory", seat=1)
        stranger.wait_for(lambda m: m["type"] == "seated" and m["from_next_deal"] is True)
        time.sleep(0.6)
        stranger.drain()
        info = public(client, tid)
        assert info["table"]["resting"] is True
        assert info["version"] == version + 1, "only the takeover is stored: no move was made"


def test_a_stranger_sitting_between_deals_does_not_wake_a_resting_table(
    tmp_path: Path,
) -> None:
    """Issue 49, item 1 (and issue 54, finding 8): Anna leaves while a
    deal's result shows; the table rests. A stranger who sits on a
    computer's seat then waits for the next deal like a takeover mid-deal
    (a seat taken at once would make a person of the table and deal on
    for Anna); Anna's own token wakes the table, and the stranger plays
    from the next deal."""
    rng = random.Random(12)
    with serve(tmp_path, grace=0.2, solo_next="wait") as (_, client, _db):
        t = new_table(client, players=3, rounds=2)
        tid = t["id"]
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.view is not None and anna.view["phase"] == "done", rng)
        anna.close()
        _wait_resting(client, tid)
        version = public(client, tid)["version"]
        stranger = watch(client, tid)
        stranger.send(type="sit", name="Mallory", seat=1)
        stranger.wait_for(lambda m: m["type"] == "seated" and m["from_next_deal"] is True)
        time.sleep(0.5)
        info = public(client, tid)
        assert info["table"]["resting"] is True and info["version"] == version + 1
        assert info["seats"][1]["pending"] == "Mallory"
        anna.connect(token=anna.token, last_version=anna.version)
        assert anna.wait_for(lambda m: m["type"] == "state")["table"]["resting"] is False
        anna.send(type="next")
        stranger.wait_for(lambda m: _resting(m) is False)
        stranger.wait_for(
            lambda m: m["type"] == "event" and m["event"]["kind"] == "next", timeout=10
        )
        assert public(client, tid)["seats"][1]["name"] == "Mallory"
