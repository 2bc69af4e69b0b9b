"""Issue 28, finding 9: what one table's visitors can do to the others.
Names that pass for someone else's are refused when a person sits down,
and chat from many connections together cannot flood a table's log."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from skat.server.table import name_problem
from tests.test_server import Peer, join, new_table, public, serve, watch


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("anna", "sits at this table"),
        ("  ANNA ", "sits at this table"),
        ("Ａｎｎａ", "sits at this table"),  # full-width letters read the same
        ("An na", "sits at this table"),
        ("\u0410nna", "mixes"),  # a Cyrillic A in front of Latin letters
        ("\u200b\u200b", "a name"),  # invisible only: cleaned to nothing
        ("...", "needs a letter"),
    ],
)
def test_a_name_that_passes_for_anothers_is_refused_at_the_table(
    tmp_path: Path, name: str, why: str
) -> None:
    with serve(tmp_path) as (_, client, _db):
        tid = new_table(client, players=3)["id"]
        anna = join(client, tid, "Anna")
        p = Peer(client, tid, "impostor").connect()
        p.wait_for(lambda m: m["type"] == "state")
        p.send(type="sit", name=name)
        err = p.wait_for(lambda m: m["type"] == "error")
        assert err["code"] == "BAD_NAME" and why in err["message"]
        p.barrier()
        assert not [r for r in p.records if r.msg["type"] == "seated"]
        # nobody took a seat: Anna is alone and a real second name sits down
        anna.barrier()
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["name"] for s in seats if s["name"]] == ["Anna"]
        p.send(type="sit", name="Anna B")
        p.wait_for(lambda m: m["type"] == "seated")


def test_names_in_one_alphabet_and_different_people_are_welcome() -> None:
    assert name_problem("Дмитрий", ["Anna"]) is None  # Cyrillic alone is a name
    assert name_problem("Σοφία", ["Дмитрий"]) is None
    assert name_problem("Jens-Ole 2", ["Jens Ole"]) is None
    assert name_problem("Anna", ["Anne"]) is None


def test_chat_from_many_connections_together_is_limited_per_table(tmp_path: Path) -> None:
    # every connection is well within its own limit; the table's is what holds
    with serve(tmp_path, chat_rate=0.5, chat_burst=8) as (_, client, _db):
        tid = new_table(client, players=3)["id"]
        anna = join(client, tid, "Anna")
        crowd = [watch(client, tid, f"viewer {i}") for i in range(4)]
        for i in range(4):
            for p in crowd:
                p.send(type="chat", text=f"spam {i}")
        refused = 0
        for p in crowd:
            p.barrier()
            refused += sum(1 for e in p.errors() if e["code"] == "RATE_LIMITED")
        anna.barrier()
        said = anna.events("chat")
        assert len(said) + refused == 16
        assert 8 <= len(said) <= 10, "the table's burst, and what refilled meanwhile"
        # the table still plays and, after a pause, chat is welcome again
        time.sleep(2.5)
        crowd[0].send(type="chat", text="after the pause")
        m = anna.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat")
        assert m["event"]["text"] == "after the pause"
        assert not [e for e in anna.errors() if e["code"] == "RATE_LIMITED"]


def test_an_unstarted_table_everyone_left_is_released_sooner(tmp_path: Path) -> None:
    """Finding 7: a seat taken kept a table (and its creator's count) for
    two hours; with nobody connected it goes after `abandoned_timeout`."""
    with serve(tmp_path) as (app, client, _db):
        left = new_table(client, players=3)
        anna = join(client, left["id"], "Anna")
        anna.close()
        waiting = new_table(client, players=3)
        join(client, waiting["id"], "Bert")  # still there, waiting for friends
        watched = new_table(client, players=3)
        carl = join(client, watched["id"], "Carl")
        carl.close()
        watch(client, watched["id"])  # someone is looking at it
        app.state.config.abandoned_timeout = 0.2
        time.sleep(0.4)
        client.portal.call(app.state.tables.sweep)
        status = {
            t["id"]: public(client, t["id"])["table"]["status"] for t in (left, waiting, watched)
        }
        assert status == {left["id"]: "expired", waiting["id"]: "open", watched["id"]: "open"}
