"""Issue 27, point 1: tournaments on the server. An organiser makes one and
gets a link to share and one to run it; people enter by name; each series
is drawn to tables of four and three (computer fill to whole tables) by a
draw committed to before and revealed after; the entrants sit at their
tables by their own token; the standings add the tables' list totals by
R8.4 (docs/tournaments.md)."""

from __future__ import annotations

import csv
import io
import random
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from skat.series.shuffle import commitment
from skat.series.tournament import table_sizes, verify_draw
from tests.helpers.server import Peer, pump, serve
from tests.helpers.stores import ReplayCounter, db_for


def make(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tournaments", json={"name": "Club night", "rounds": 1, **body})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def enter(client: TestClient, tid: str, name: str, **extra: Any) -> Any:
    return client.post(f"/api/tournaments/{tid}/entrants", json={"name": name, **extra})


def view(client: TestClient, tid: str) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def start(client: TestClient, t: dict[str, Any]) -> Any:
    return client.post(f"/api/tournaments/{t['id']}/series", json={"organiser": t["organiser"]})


def wait_state(client: TestClient, tid: str, state: str, timeout: float = 90) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        v = view(client, tid)
        if v["state"] == state:
            return v
        assert time.monotonic() < end, f"the tournament is {v['state']}, not {state}"
        time.sleep(0.1)


def attend(client: TestClient, tid: str, tokens: dict[str, str]) -> list[Peer]:
    """One entrant of every table of the latest series opens their table and
    hands the seat to a computer with the page open ("Leave" at a tournament
    table): the table has a person, so it does not rest, and computer
    players play every seat after the grace time (each move marked). A
    table none of whose people is connected rests (issue 54, finding 3)."""
    peers = []
    for table in view(client, tid)["series"][-1]["tables"]:
        name = next(s["name"] for s in table["seats"] if s["name"] in tokens)
        peer = Peer(client, table["id"], name).connect(token=tokens[name])
        peer.wait_for(lambda m: m["type"] == "state")
        peer.send(type="leave")
        peers.append(peer)
    return peers


def code(r: Any) -> str:
    c: str = r.json()["error"]["code"]
    return c


def test_a_club_night_from_entry_to_the_final_ranking(tmp_path: Path) -> None:
    """Seven people enter (a table of four and one of three), an eighth is
    added by the organiser after the first series (two of four); one
    entrant of each table keeps its page open and hands the seat to a
    computer, so computer players play every seat after the grace time.
    Every entrant sits once per series, the standings are the sums of the
    tables' totals, and the revealed seed redoes both draws."""
    with serve(tmp_path, grace=0.05) as (_, client, _db):
        t = make(client, series=2)
        tid = t["id"]
        assert t["run_url"] == f"/tournament/{tid}#run={t['organiser']}"
        first = view(client, tid)
        assert first["state"] == "entry" and first["seed"] is None
        tokens = {}
        for name in ["Anna", "Bert", "Cora", "Dirk", "Emil", "Frida", "Gerd"]:
            r = enter(client, tid, name)
            assert r.status_code == 201, r.text
            tokens[name] = r.json()["token"]
        assert view(client, tid)["entrants"] == list(tokens)
        # a name that reads like another's is refused, with the reason
        r = enter(client, tid, " anna ")
        assert r.status_code == 400 and code(r) == "BAD_NAME"
        # only the organiser's link starts a series
        r = client.post(f"/api/tournaments/{tid}/series", json={"organiser": tokens["Anna"]})
        assert r.status_code == 403 and code(r) == "NOT_ORGANISER"
        assert start(client, t).json() == {"series": 1}
        attend(client, tid, tokens)
        # entry by the shared link is closed now; the organiser adds a latecomer
        r = enter(client, tid, "Hanna")
        assert r.status_code == 409 and code(r) == "ENTRY_CLOSED"
        late = enter(client, tid, "Hanna", organiser=t["organiser"])
        assert late.status_code == 201
        tokens["Hanna"] = late.json()["token"]
        playing = view(client, tid)
        assert playing["state"] == "playing"
        # the next series waits for every table of this one
        r = start(client, t)
        assert r.status_code == 409 and code(r) == "SERIES_IN_PLAY"
        wait_state(client, tid, "between")
        assert start(client, t).json() == {"series": 2}
        attend(client, tid, tokens)
        final = wait_state(client, tid, "finished")
        r = start(client, t)
        assert r.status_code == 409 and code(r) == "TOURNAMENT_OVER"

        series = final["series"]
        assert [sorted(len(x["seats"]) for x in s["tables"]) for s in series] == [[3, 4], [4, 4]]
        for s, entrants in zip(series, (7, 8), strict=True):
            seated = [seat["name"] for x in s["tables"] for seat in x["seats"]]
            assert sorted(seated) == sorted(list(tokens)[:entrants])
            assert not any(seat["computer"] for x in s["tables"] for seat in x["seats"])
            assert sorted(len(x["seats"]) for x in s["tables"]) == sorted(table_sizes(entrants))
            for x in s["tables"]:
                assert x["status"] == "finished" and x["deal"] == x["deals"] == len(x["seats"])
                # nobody came: their seats were played by computers, and it shows
                assert sorted(x["away"]) == sorted(seat["name"] for seat in x["seats"])
        # the standings are the tables' list totals added up, from the tables themselves
        sums: dict[str, int] = {}
        for s in series:
            for x in s["tables"]:
                info = client.get(f"/api/tables/{x['id']}").json()
                for seat, total in zip(x["seats"], info["sheet"]["totals"], strict=True):
                    sums[seat["name"]] = sums.get(seat["name"], 0) + total["total"]
        ranked = final["standings"]
        assert {r["name"]: r["total"] for r in ranked} == sums
        assert [r["name"] for r in ranked if r["lists"] == 1] == ["Hanna"]
        totals = [r["total"] for r in ranked]
        assert totals == sorted(totals, reverse=True)
        assert ranked[0]["place"] == 1
        # the draw verifies with the revealed seed, and a changed draw does not
        seed = bytes.fromhex(final["seed"])
        assert commitment(seed) == first["commitment"] == final["commitment"]
        for s, drawn in zip(series, final["draws"], strict=True):
            tables = [[seat["name"] for seat in x["seats"]] for x in s["tables"]]
            assert verify_draw(seed, first["commitment"], s["number"], drawn["entrants"], tables)
            swapped = [list(reversed(tables[0])), *tables[1:]]
            assert not verify_draw(
                seed, first["commitment"], s["number"], drawn["entrants"], swapped
            )
        # an entrant finds their own table of each series
        me = client.post(f"/api/tournaments/{tid}/me", json={"token": tokens["Hanna"]}).json()
        assert me["name"] == "Hanna" and me["table"]["series"] == 2
        assert [x["series"] for x in me["tables"]] == [2]  # she entered late
        anna = client.post(f"/api/tournaments/{tid}/me", json={"token": tokens["Anna"]}).json()
        assert [x["series"] for x in anna["tables"]] == [1, 2]  # her sheet of each series
        for x in anna["tables"]:
            seats = series[x["series"] - 1]["tables"][x["table"] - 1]["seats"]
            assert seats[x["seat"]]["name"] == "Anna"
        # the downloads: the standings as CSV (a column per series) and as JSON
        r = client.get(f"/api/tournaments/{tid}/standings.csv")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        assert f'filename="tournament-{tid}.csv"' in r.headers["content-disposition"]
        rows = list(csv.reader(io.StringIO(r.text)))
        assert rows[0] == ["place", "name", "total", "won", "lost", "lists", "series 1", "series 2"]
        assert [(int(x[0]), x[1], int(x[2])) for x in rows[1:]] == [
            (r["place"], r["name"], r["total"]) for r in ranked
        ]
        for x in rows[1:]:
            per = [int(v) for v in x[6:] if v != ""]
            assert sum(per) == int(x[2]) and len(per) == int(x[5])
        hanna = next(x for x in rows[1:] if x[1] == "Hanna")
        assert hanna[6] == ""  # she entered after the first series
        r = client.get(f"/api/tournaments/{tid}/standings.json")
        assert "attachment" in r.headers["content-disposition"]
        assert r.json()["standings"] == ranked and r.json()["seed"] == final["seed"]


def test_an_entrant_plays_at_their_table_by_their_own_token(tmp_path: Path) -> None:
    """Anna's entry token is her seat token: the table seats her at once,
    she plays her cards, and the standings follow the table as it plays."""
    rng = random.Random(3)
    with serve(tmp_path, grace=30.0) as (_, client, _db):
        t = make(client, rules={"level": "casual"})
        tid = t["id"]
        token = enter(client, tid, "Anna").json()["token"]
        assert start(client, t).status_code == 201  # one entrant: two computers fill
        v = view(client, tid)
        (table,) = v["series"][0]["tables"]
        assert sorted(s["computer"] for s in table["seats"]) == [False, True, True]
        me = client.post(f"/api/tournaments/{tid}/me", json={"token": token}).json()
        assert me["table"]["id"] == table["id"]
        anna = Peer(client, table["id"], "Anna").connect(token=token)
        anna.wait_for(lambda m: m["type"] == "state")
        assert anna.seat == me["table"]["seat"]
        pump([anna], lambda: anna.list_over, rng, timeout=60)
        assert anna.errors() == []
        done = wait_state(client, tid, "finished")
        (row,) = [r for r in done["standings"] if r["name"] == "Anna"]
        assert row["total"] == done["series"][0]["tables"][0]["totals"]["Anna"]
        # the computers who filled the table are not ranked
        assert [r["name"] for r in done["standings"]] == ["Anna"]
        # a wrong token is refused, and tells nothing
        r = client.post(f"/api/tournaments/{tid}/me", json={"token": "x" * 32})
        assert r.status_code == 403 and code(r) == "BAD_TOKEN"


def test_entries_at_once_all_land(tmp_path: Path) -> None:
    """Thirty people entering at the same moment: every one is entered once
    (all from one address here: its limits raised)."""
    with serve(tmp_path, entry_burst=100.0, entries_per_address=100) as (_, client, _db):
        tid = make(client)["id"]
        names = [f"Player {i}" for i in range(30)]
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda n: enter(client, tid, n), names))
        assert [a.status_code for a in answers] == [201] * 30
        assert sorted(view(client, tid)["entrants"]) == sorted(names)


def test_a_tournament_outlives_a_restart(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        t = make(client, series=2)
        enter(client, t["id"], "Anna")
        enter(client, t["id"], "Bert")
    with serve(tmp_path) as (_, client, _db):
        assert view(client, t["id"])["entrants"] == ["Anna", "Bert"]
        assert start(client, t).status_code == 201


def test_bad_requests_get_clear_errors_and_change_nothing(tmp_path: Path) -> None:
    with serve(tmp_path, max_entrants=3, tournaments_per_address=3) as (_, client, _db):
        bad_bodies: list[Any] = [
            [],
            {"rounds": 1},  # no name
            {"name": "   "},
            {"name": 7},
            {"name": "x", "series": 0},
            {"name": "x", "series": 99},
            {"name": "x", "series": "2"},
            {"name": "x", "rounds": 0},
            {"name": "x", "fill": "yes"},
            {"name": "x", "rules": []},
            {"name": "x", "rules": {"players": 4}},
            {"name": "x", "rules": {"scoring": "golf"}},
            {"name": "x", "colour": "red"},
        ]
        for body in bad_bodies:
            r = client.post("/api/tournaments", json=body)
            assert r.status_code == 400, body
            assert code(r) == "BAD_OPTIONS", body
        r = client.post("/api/tournaments", content=b"{not json")
        assert r.status_code == 400 and code(r) == "BAD_REQUEST"
        r = client.post("/api/tournaments", content=b"[" * 5000)
        assert r.status_code in (400, 413)
        r = client.post("/api/tournaments", json={"name": "x", "rules": {"bot": "search-v1"}})
        assert r.status_code == 400 and code(r) == "BAD_OPTIONS"  # the server knows no lab player
        # a long name is cut, control characters go
        t = make(client, name="Skat\x00 club " + "x" * 100, fill=False)
        assert view(client, t["id"])["name"] == ("Skat club " + "x" * 100)[:60]
        tid = t["id"]
        for body in ({}, {"name": None}, {"name": ["Anna"]}, {"name": ""}):
            r = client.post(f"/api/tournaments/{tid}/entrants", json=body)
            assert r.status_code == 400 and code(r) == "BAD_NAME", body
        for name in ("Anna", "Bert"):
            assert enter(client, tid, name).status_code == 201
        # two people and no computer fill make no table
        r = start(client, t)
        assert r.status_code == 409 and code(r) == "NO_ENTRANTS"
        assert enter(client, tid, "Cora").status_code == 201
        r = enter(client, tid, "Dirk")
        assert r.status_code == 409 and code(r) == "TOURNAMENT_FULL"
        assert view(client, tid)["entrants"] == ["Anna", "Bert", "Cora"]
        for path in ("/api/tournaments/nope", "/api/tournaments/" + "x" * 40):
            r = client.get(path)
            assert r.status_code == 404 and code(r) == "NO_TOURNAMENT"
        r = client.post("/api/tournaments/nope/entrants", json={"name": "Anna"})
        assert r.status_code == 404
        # one address makes at most so many tournaments an hour
        make(client)
        make(client)
        r = client.post("/api/tournaments", json={"name": "Fourth"})
        assert r.status_code == 429 and code(r) == "TOO_MANY_TOURNAMENTS"


def test_a_tournament_left_unfinished_expires(tmp_path: Path) -> None:
    with serve(tmp_path, tournament_timeout=0.2) as (_, client, _db):
        t = make(client)
        time.sleep(0.3)
        r = enter(client, t["id"], "Anna")
        assert r.status_code == 409 and code(r) == "TOURNAMENT_OVER"
        assert view(client, t["id"])["state"] == "expired"
        assert start(client, t).status_code == 409


def test_public_tournaments_are_listed_while_they_take_entries(tmp_path: Path) -> None:
    """The lobby lists a public tournament open for entry with how many have
    entered; a private one never; the public one leaves when its first
    series is drawn."""
    with serve(tmp_path) as (_, client, _db):
        public = make(client, name="Friday club", public=True, series=3, lang="de")
        make(client, name="Just us")
        enter(client, public["id"], "Anna")
        listed = client.get("/api/lobby").json()["tournaments"]
        assert [(x["id"], x["name"], x["entrants"], x["series"], x["lang"]) for x in listed] == [
            (public["id"], "Friday club", 1, 3, "de")
        ]
        assert listed[0]["url"] == f"/tournament/{public['id']}"
        # nothing secret in it: no organiser's link, no entrant's token
        assert public["organiser"] not in str(listed)
        assert start(client, public).status_code == 201
        assert client.get("/api/lobby").json()["tournaments"] == []


def test_one_address_shows_at_most_two_tournaments_in_the_lobby(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        for n in range(4):
            make(client, name=f"Night {n}", public=True)
        names = [x["name"] for x in client.get("/api/lobby").json()["tournaments"]]
        assert names == ["Night 3", "Night 2"]  # newest first


def test_an_unreadable_tournament_is_refused_and_harms_nothing(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        bad = make(client, name="Broken", public=True)
        good = make(client, name="Fine", public=True)
    db_for(tmp_path).execute("UPDATE skat_tournaments SET doc = '[]' WHERE id = :id", id=bad["id"])
    with serve(tmp_path) as (_, client, _db):  # the server starts
        r = client.get(f"/api/tournaments/{bad['id']}")
        assert r.status_code == 500 and code(r) == "TOURNAMENT_BROKEN"
        r = enter(client, bad["id"], "Anna")
        assert r.status_code == 500 and code(r) == "TOURNAMENT_BROKEN"
        # the lobby leaves it out and lists the rest
        assert [x["id"] for x in client.get("/api/lobby").json()["tournaments"]] == [good["id"]]
        assert enter(client, good["id"], "Anna").status_code == 201


def test_odd_ids_are_no_tournament(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        for tid in ('a"b', "x" * 33, "%0d%0aSet-Cookie:x", "a b"):
            for suffix in ("", "/standings.csv", "/standings.json"):
                r = client.get(f"/api/tournaments/{tid}{suffix}")
                assert r.status_code == 404, (tid, suffix)


def test_a_series_in_play_goes_on_after_a_restart(tmp_path: Path) -> None:
    """The server stops while a series is played; started again, its table
    rests until one of its people is back (nobody plays for them), then
    plays on to the end and the tournament finishes with every table's
    total."""
    # the computers take their time, so that the server stops mid-list
    with serve(tmp_path, grace=0.05, bot_delay=0.05) as (_, client, _db):
        t = make(client, rounds=2)
        tokens = {
            name: enter(client, t["id"], name).json()["token"] for name in ("Anna", "Bert", "Cora")
        }
        assert start(client, t).status_code == 201
        attend(client, t["id"], tokens)
        during = view(client, t["id"])
    assert during["state"] == "playing"
    with serve(tmp_path, grace=0.05, bot_delay=0.05) as (_, client, _db):
        end = time.monotonic() + 30
        while not view(client, t["id"])["series"][0]["tables"][0].get("resting"):
            assert time.monotonic() < end, "the table never rested"
            time.sleep(0.05)
        attend(client, t["id"], tokens)
        done = wait_state(client, t["id"], "finished")
        (table,) = done["series"][0]["tables"]
        assert table["deal"] == table["deals"] == 6
        assert sorted(r["name"] for r in done["standings"]) == ["Anna", "Bert", "Cora"]
        assert sum(r["total"] for r in done["standings"]) == sum(table["totals"].values())


def test_withdrawn_entrants_leave_the_next_draws_and_keep_what_they_played(
    tmp_path: Path,
) -> None:
    """Before the first series a withdrawn entry goes and its name is free;
    after it, the entrant keeps their place in the standings but sits at
    no table of the next series. The organiser withdraws anyone, an
    entrant only themselves."""
    with serve(tmp_path, grace=0.05) as (_, client, _db):
        t = make(client, series=2, rounds=1, fill=False)
        tid = t["id"]
        tokens = {
            n: enter(client, tid, n).json()["token"] for n in ["Anna", "Bert", "Cora", "Dirk"]
        }
        withdraw = f"/api/tournaments/{tid}/withdraw"
        # an entrant cannot take out someone else, nor a stranger anyone
        r = client.post(withdraw, json={"name": "Bert", "organiser": tokens["Anna"]})
        assert r.status_code == 403 and code(r) == "NOT_ORGANISER"
        r = client.post(withdraw, json={"token": "x" * 32})
        assert r.status_code == 404 and code(r) == "NO_ENTRANT"
        r = client.post(withdraw, json=["Dirk"])
        assert r.status_code == 400
        # Dirk takes himself out before anything is drawn: gone, name free
        assert client.post(withdraw, json={"token": tokens["Dirk"]}).json() == {"withdrawn": "Dirk"}
        assert view(client, tid)["entrants"] == ["Anna", "Bert", "Cora"]
        assert client.post(withdraw, json={"token": tokens["Dirk"]}).status_code == 404
        assert start(client, t).status_code == 201
        attend(client, tid, tokens)
        wait_state(client, tid, "between")
        # the organiser withdraws Cora, who played the first series
        r = client.post(withdraw, json={"name": "Cora", "organiser": t["organiser"]})
        assert r.json() == {"withdrawn": "Cora"}
        v = view(client, tid)
        assert v["entrants"] == ["Anna", "Bert"] and v["withdrawn"] == ["Cora"]
        me = client.post(f"/api/tournaments/{tid}/me", json={"token": tokens["Cora"]}).json()
        assert me["withdrawn"] is True and me["table"]["series"] == 1
        # two people and no computer fill make no table: the draw says so
        r = start(client, t)
        assert r.status_code == 409 and code(r) == "NO_ENTRANTS"
        emil = enter(client, tid, "Emil", organiser=t["organiser"])
        assert emil.status_code == 201
        tokens["Emil"] = emil.json()["token"]
        assert start(client, t).json() == {"series": 2}
        attend(client, tid, tokens)
        done = wait_state(client, tid, "finished")
        (table,) = done["series"][1]["tables"]
        assert sorted(s["name"] for s in table["seats"]) == ["Anna", "Bert", "Emil"]
        cora = next(r for r in done["standings"] if r["name"] == "Cora")
        assert cora["lists"] == 1 and cora["series"] == [
            done["series"][0]["tables"][0]["totals"]["Cora"],
            None,
        ]


def test_another_worker_follows_the_tables_without_replaying_them(tmp_path: Path) -> None:
    """In a cluster a tournament's view may be asked of a worker that runs
    none of its tables: it rebuilds each table once and then reads only the
    events since (a whole replay per request grew with every deal), and its
    standings are the running worker's."""
    from skat.server.app import create_app
    from skat.server.config import ServerConfig
    from tests.helpers.server import FAST

    with serve(tmp_path, grace=0.05) as (_, client, db):
        t = make(client, rounds=2)
        tokens = {
            name: enter(client, t["id"], name).json()["token"] for name in ("Anna", "Bert", "Cora")
        }
        other_app = create_app(db.url, ServerConfig(**{**FAST, "worker": "other"}))
        with TestClient(other_app) as other:
            replays = ReplayCounter(other_app.state.store)
            assert start(client, t).status_code == 201
            attend(client, t["id"], tokens)
            seen = set()
            while (theirs := view(other, t["id"]))["state"] != "finished":
                (table,) = theirs["series"][0]["tables"]
                seen.add(table.get("deal"))
                time.sleep(0.05)
            assert not other_app.state.tables.actors  # it ran nothing itself
            assert replays.count == 1 and len(seen) > 1  # one rebuild, then it followed
            assert theirs["standings"] == wait_state(client, t["id"], "finished")["standings"]


def test_tables_whose_people_never_came_rest_until_the_organiser_closes_them(
    tmp_path: Path,
) -> None:
    """Issue 54, finding 3 (and issue 49, item 1): nobody comes to a
    tournament's table, so it rests after the grace like any other table;
    no computer plays a list for its entrants. The series waits (nothing is
    closed behind the back of someone on their way) until the organiser
    closes the resting table, its list unfinished; then the next series is
    drawn, and after the last one the tournament ends."""
    with serve(tmp_path, grace=0.05) as (_, client, _db):
        t = make(client, series=2)
        tid = t["id"]
        for name in ("Anna", "Bert", "Cora"):
            assert enter(client, tid, name).status_code == 201
        close = f"/api/tournaments/{tid}/close"
        # nothing rests before a series is drawn
        r = client.post(close, json={"organiser": t["organiser"]})
        assert r.status_code == 409 and code(r) == "TOURNAMENT_OVER"
        for number in (1, 2):
            assert start(client, t).json() == {"series": number}
            end = time.monotonic() + 30
            while not (v := view(client, tid))["series"][-1]["tables"][0].get("resting"):
                assert time.monotonic() < end, "the table never rested"
                time.sleep(0.05)
            (row,) = v["series"][-1]["tables"]
            assert v["state"] == "playing" and row["status"] == "playing" and row["deal"] == 0
            info = client.get(f"/api/tables/{row['id']}").json()
            assert info["table"]["resting"] is True and info["view"]["history"] == []
            r = start(client, t)
            assert r.status_code == 409 and code(r) in ("SERIES_IN_PLAY", "TOURNAMENT_OVER")
            r = client.post(close, json={"organiser": "x" * 32})
            assert r.status_code == 403 and code(r) == "NOT_ORGANISER"
            assert client.post(close, json={"organiser": t["organiser"]}).json() == {"closed": 1}
            closed = view(client, tid)["series"][-1]["tables"][0]
            assert closed["status"] == "expired" and "resting" not in closed
        done = wait_state(client, tid, "finished")
        assert [x["status"] for s in done["series"] for x in s["tables"]] == ["expired"] * 2
        assert {r["name"]: r["total"] for r in done["standings"]} == {
            "Anna": 0,
            "Bert": 0,
            "Cora": 0,
        }
