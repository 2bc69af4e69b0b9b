"""Strength levels for people (issue 9, point 3) and the hint (point 5), at a
real in-process server: a table made with ``level: strong`` seats searching
computer players that think in worker processes; one that runs out of time
plays `heuristic`'s move, never merely the first legal one; a person at a
table with hints gets the strong player's suggestion, for their eyes only."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from skat.engine import Action, Kontra, View
from skat.players import make_player
from skat.players.heuristic import HeuristicPlayer
from skat.players.levels import LEVELS, fallback, level_of, player_for
from skat.server import ServerConfig
from skat.server import events as ev
from skat.server.table import TableState
from tests.helpers.server import join, new_table, public, pump, serve, watch


def test_levels_name_registered_players() -> None:
    assert player_for("casual") == "club" and player_for("strong") == "search"
    assert player_for("random", lab=True) == "random"  # a player's own name passes
    with pytest.raises(ValueError):
        player_for("random")  # a lab player is no table's
    assert level_of("search") == "strong" and level_of("novice") == "beginner"
    assert level_of("heuristic-v1") is None
    with pytest.raises(ValueError):
        player_for("grandmaster")
    for name in LEVELS.values():
        make_player(name)


@pytest.mark.slow
def test_a_strong_table_plays_a_deal_and_shows_its_level(tmp_path: Path) -> None:
    rng = random.Random(4)
    with serve(tmp_path, bot_budget=3.0) as (_, client, _db):
        t = new_table(client, players=3, level="strong")
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.view is not None and anna.view["phase"] == "done", rng, 120)
        state = public(client, t["id"])
        assert state["table"]["settings"]["level"] == "strong"
        assert [s["level"] for s in state["seats"]] == [None, "strong", "strong"]
        assert [e["code"] for e in anna.errors()] == []


def test_bad_levels_are_refused(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, db):
        for body in ({"level": "expert"}, {"level": 3}, {"level": "strong", "bot": "random"}):
            r = client.post("/api/tables", json=body)
            assert r.status_code == 400 and r.json()["error"]["code"] == "BAD_OPTIONS", body
        # the lab's frozen baselines: the server knows no such player (issue
        # 28, finding 9; issue 50: it never imports the lab)
        for lab in ("search-v1", "heuristic-v1"):
            r = client.post("/api/tables", json={"bot": lab})
            assert r.status_code == 400, lab
            assert r.json()["error"]["code"] == "BAD_OPTIONS"
            message = r.json()["error"]["message"]
            assert "bot must be one of club, heuristic, novice, search" in message
        assert client.post("/api/tables", json={"bot": "search"}).status_code == 201
        assert len(db.rows("SELECT id FROM skat_tables")) == 1


def test_a_computer_player_out_of_time_plays_heuristics_move(tmp_path: Path) -> None:
    """With no time at all every searching decision runs late: each move the
    computer players made is the one `heuristic` makes in that view."""
    rng = random.Random(9)
    with serve(tmp_path, bot_budget=0.0) as (app, client, _db):
        t = new_table(client, players=3, level="strong")
        spectator = watch(client, t["id"])
        spectator.send(type="fill", creator=t["creator"])
        pump([spectator], lambda: len(spectator.events("act")) >= 12, rng, 60)
        store = app.state.store
        stored = client.portal.call(store.table, t["id"])
        rows = client.portal.call(store.events, t["id"])
        st = TableState.from_stored(stored)
        checked = 0
        for row in rows:
            event = ev.from_row(row.kind, row.payload)
            if isinstance(event, ev.Act) and st.series is not None:
                view = st.series.deal.view(event.seat)
                if view.current_seat == event.seat:
                    assert event.action == str(fallback(view))
                    checked += 1
            st.apply(event)
        assert checked >= 12


def test_a_hint_is_the_strong_players_suggestion_for_the_asker_alone(tmp_path: Path) -> None:
    rng = random.Random(6)
    with serve(tmp_path, hint_budget=1.0) as (_, client, _db):
        t = new_table(client, players=3, hint=True)
        spectator = watch(client, t["id"])
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna, spectator], anna.my_turn, rng)
        assert anna.view is not None
        legal = anna.view["legal"]
        anna.send(type="hint")
        hint = anna.wait_for(lambda m: m["type"] in ("hint", "error"), timeout=20)
        assert hint["type"] == "hint" and hint["action"] in legal, hint
        assert anna.view["legal"] == legal  # shown, never played for her
        spectator.barrier()
        assert not [r for r in spectator.records if r.msg["type"] == "hint"]
        spectator.send(type="hint")
        assert spectator.wait_for(lambda m: m["type"] == "error")["code"] == "NOT_SEATED"

        plain = new_table(client, players=3)
        bert = join(client, plain["id"], "Bert")
        bert.send(type="fill", creator=plain["creator"])
        pump([bert], bert.my_turn, rng)
        bert.send(type="hint")
        assert bert.wait_for(lambda m: m["type"] == "error")["code"] == "HINT_OFF"


class _KontraAlways(HeuristicPlayer):
    """Says Kontra off its turn whenever the rules allow it (a test double)."""

    name = "test-kontra-always"

    def offturn(self, view: View) -> Action | None:
        return next((a for a in view.legal_actions if isinstance(a, Kontra)), None)


def test_computer_players_say_kontra_off_their_turn_at_a_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13, point 3: R9.3's own_first_card window lets a defender say
    Kontra at any moment until his own first card; a computer player at a
    server table is asked whenever it may, not only on its own turn."""
    from skat.players import registry

    # a product player for this test only (the server knows no lab player)
    monkeypatch.setattr(registry, "_PRODUCT", dict(registry.product()))
    registry.register(_KontraAlways.name, summary="a test double")(_KontraAlways)
    rng = random.Random(8)
    offered = (*ServerConfig().offered_players, _KontraAlways.name)
    with serve(tmp_path, offered_players=offered) as (_, client, _db):
        t = new_table(client, players=3, kontra=True, bot=_KontraAlways.name)
        spectator = watch(client, t["id"])
        anna = join(client, t["id"], "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna, spectator], lambda: anna.list_over, rng, 120)
        turn: int | None = None
        offturn = []
        for r in spectator.records:
            m = r.msg
            if m["type"] == "event" and m["event"]["kind"] == "act":
                e = m["event"]
                if e["action"] == "kontra" and e["seat"] != 0 and e["seat"] != turn:
                    offturn.append(e)
            view = r.view
            if view is not None:
                turn = view["turn"]
        games = [row for row in public(client, t["id"])["sheet"]["rows"] if row["kind"] == "game"]
        assert games, "no game was played (change the seed)"
        assert offturn, "no computer player said Kontra off its turn in a whole list"


def test_the_open_card_analysis_of_a_settled_deal(tmp_path: Path) -> None:
    """Issue 9, point 4: after a deal the table answers what perfect play
    with all cards open would have made, and which card turned it; never
    for a deal still in play (its cards are hidden, R3.7)."""
    rng = random.Random(11)
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.view is not None and anna.view["phase"] != "bidding", rng)
        if anna.view is not None and anna.view["phase"] not in ("done", "bidding"):
            for kind in ("analysis", "board"):  # the board hides a deal in play as well
                r = client.get(f"/api/tables/{tid}/deals/1/{kind}")
                assert r.status_code == 409 and r.json()["error"]["code"] == "WRONG_PHASE"
        analysed = []
        for _ in range(3):
            pump([anna], lambda: anna.view is not None and anna.view["phase"] == "done", rng, 60)
            assert anna.last_state is not None  # the state sent with the deal's last card
            number = len(anna.last_state["sheet"]["rows"])
            a = client.get(f"/api/tables/{tid}/deals/{number}/analysis").json()
            result = anna.view["result"] if anna.view else None
            assert result is not None
            if "skipped" in a:  # thrown in, Ramsch, or over before the first trick
                assert result["kind"] != "game" or not anna.view["tricks"], a
            else:
                assert a["declarer_seat"] == result["declarer"]
                assert a["declarer_points"] == result["declarer_points"]
                assert a["positions"][0]["trick"] == 1
                first = a["positions"][0]
                assert ("best_declarer_points" in first) != ("declarer_can_win" in first)
                board = client.get(f"/api/tables/{tid}/deals/{number}/board").json()
                assert board["declarer_seat"] == a["declarer_seat"]
                assert len(board["steps"]) == len(anna.view["tricks"]) * 3 + len(anna.view["trick"])
                analysed.append(a)
            if anna.list_over:
                break
            anna.send(type="next")
            pump([anna], lambda: anna.view is not None and anna.view["phase"] != "done", rng)
        assert client.get(f"/api/tables/{tid}/deals/99/analysis").status_code == 404
        assert client.get(f"/api/tables/{tid}/deals/99/board").status_code == 404
        assert client.get("/api/tables/nope/deals/1/analysis").status_code == 404


def test_the_server_never_imports_the_lab() -> None:
    """Issue 50, point 2: a server process imports the product's players
    only; the lab (frozen baselines, measurement variants) is the arena's."""
    import subprocess
    import sys

    code = (
        "import sys, skat.server.app, skat.cli.serve; "
        "from skat.server.offer import table_options; table_options; "
        "assert 'skat.players.lab' not in sys.modules, 'the lab was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_stored_table_naming_a_lab_player_is_refused_on_load(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A table row that names a player the product does not have (a lab
    baseline written by hand, or by an older version) is not loaded and
    thought with: it is marked broken with one clear log line, and the
    server answers for it and goes on serving the others."""
    import json

    with serve(tmp_path) as (_, client, db):
        t = new_table(client, players=3)
        other = new_table(client, players=3)
    ((config,),) = db.rows("SELECT config FROM skat_tables WHERE id = :id", id=t["id"])
    data = json.loads(config)
    data["settings"]["bot"] = "search-v1"
    db.execute("UPDATE skat_tables SET config = :c WHERE id = :id", c=json.dumps(data), id=t["id"])
    with caplog.at_level("ERROR"), serve(tmp_path) as (_, client, _db):
        r = client.get(f"/api/tables/{t['id']}")
        assert r.status_code >= 400
        assert client.get(f"/api/tables/{other['id']}").status_code == 200
    lines = [r.getMessage() for r in caplog.records if t["id"] in r.getMessage()]
    assert any("'search-v1' is not one of the product's" in line for line in lines), lines


def test_every_level_is_declared_once_and_its_words_agree() -> None:
    """Issue 50, point 4: the levels and their words come from
    `skat.levels.LEVEL_OF`: the options form's labels, the command line's
    choices, and the page's word for a computer seat (the words are
    served with the options)."""
    import click

    from skat.cli import main
    from skat.levels import LEVEL_OF
    from skat.server.config import ServerConfig
    from skat.server.offer import offered

    described = {o["name"]: o for o in offered(ServerConfig())["options"]}
    level = described["level"]
    assert level["choices"] == list(LEVEL_OF)
    for lang, words in level["words"].items():
        assert words["values"] == {name: lv.label[lang] for name, lv in LEVEL_OF.items()}
    choices = set()
    for command in ("play", "selfplay"):
        assert isinstance(main, click.Group)
        for param in main.commands[command].params:
            if param.name == "level" and isinstance(param.type, click.Choice):
                choices.add(tuple(param.type.choices))
    assert choices == {tuple(LEVEL_OF)}
    # a computer seat's word comes with the options, not from the page's
    # dictionaries (which hold none)
    static = Path(__file__).parents[2] / "src" / "skat" / "web" / "static"
    for lang in ("en", "de", "da"):
        assert level["seats"][lang] == {name: lv.seat[lang] for name, lv in LEVEL_OF.items()}
        assert "table.level." not in (static / f"i18n_{lang}.js").read_text(), lang
