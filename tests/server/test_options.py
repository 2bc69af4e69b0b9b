"""``GET /api/options``: the table options the page builds its form from
(skat/series/spec.py, skat/server/offer.py), and a table made with each of
their values is made with exactly that value (issue 29, point 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.server import new_table, serve

FORM = [
    "players",
    "rounds",
    "scoring",
    "all_pass",
    "kontra",
    "kontra_window",
    "bock",
    "ramsch_after_bock",
    "schieberamsch",
    "max_matadors",
    "level",
    "hint",
    "timer",
    "result",
    "public",
]


def _values(o: dict[str, Any]) -> list[Any]:
    if o["kind"] == "switch":
        return [False, True]
    if o["kind"] == "count":
        return [o["low"], o["high"]]
    return list(o["choices"])


def test_the_options_in_the_forms_order_with_the_servers_limits(tmp_path: Path) -> None:
    with serve(tmp_path, max_rounds=20) as (_, client, _db):
        r = client.get("/api/options")
        assert r.status_code == 200
        options = r.json()["options"]
        assert [o["name"] for o in options if o["form"]] == FORM
        rounds = next(o for o in options if o["name"] == "rounds")
        assert (rounds["low"], rounds["high"], rounds["default"]) == (1, 20, 12)
        level = next(o for o in options if o["name"] == "level")
        assert level["choices"] == ["beginner", "casual", "strong"]
        assert level["words"]["de"]["values"]["casual"] == "Locker (Vereinsspieler)"
        assert {o["where"] for o in options} == {"list", "table"}
        assert "search-v1" not in r.json()["bots"]


def test_a_table_has_every_value_the_form_offers(tmp_path: Path) -> None:
    with serve(
        tmp_path,
        max_rounds=2,
        tables_per_address=500,
        open_tables_per_address=500,
        strong_tables_per_address=500,
    ) as (_, client, _db):
        options = client.get("/api/options").json()["options"]
        for o in options:
            if not o["form"]:
                continue
            for v in _values(o):
                body: dict[str, Any] = {"rounds": 1, o["name"]: v}
                if o["needs"]:
                    body[o["needs"]] = True
                t = new_table(client, **body)
                state = client.get(f"/api/tables/{t['id']}").json()["table"]
                if o["name"] == "rounds":
                    assert state["options"]["deals"] == 3 * v
                elif o["where"] == "list":
                    assert state["options"][o["name"]] == v, (o["name"], v)
                else:
                    assert state["settings"][o["name"]] == v, (o["name"], v)


def test_a_value_not_offered_is_refused_naming_the_option(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        for body, word in (
            ({"level": "expert"}, "level must be beginner, casual or strong"),
            ({"timer": 45}, "timer must be 0, 30, 60 or 120"),
            ({"hint": 1}, "hint must be true or false"),
            ({"rounds": 13}, "rounds must be a whole number from 1 up to 12"),
            ({"all_pass": "schieberamsch"}, "all_pass must be einpassen or ramsch"),
            ({"bock_triggers": ["klopfen"]}, "bock_triggers: unknown value(s) klopfen"),
        ):
            r = client.post("/api/tables", json=body)
            assert r.status_code == 400, body
            error = r.json()["error"]
            assert error["code"] == "BAD_OPTIONS" and word in error["message"], (body, error)


def test_the_value_preview_values_a_game_under_the_tables_rules(tmp_path: Path) -> None:
    """Issue 50, point 3: `POST /api/value` with a table values the game as
    that table's sheet will (its matador cap), without one as the ISkO does;
    the body is typed: an unknown field, a wrong type or an unknown table is
    refused with a clear error."""
    cards = "CJ SJ HJ DJ CA CT CK CQ C9 C8"
    with serve(tmp_path) as (_, client, _db):
        capped = new_table(client, players=3, max_matadors=4)
        plain = new_table(client, players=3)
        body = {"game": "clubs", "cards": cards, "bid": 18}
        assert client.post("/api/value", json=body).json()["value"] == 11 * 12
        for table, value in ((capped, 5 * 12), (plain, 11 * 12)):
            got = client.post("/api/value", json={**body, "table": table["id"]})
            assert got.status_code == 200 and got.json()["value"] == value, got.text
        for bad, code, status in (
            ({**body, "table": "nope"}, "NO_TABLE", 404),
            ({**body, "colour": "red"}, "BAD_REQUEST", 400),
            ({**body, "bid": True}, "BAD_REQUEST", 400),
            ({**body, "hand": 1}, "BAD_REQUEST", 400),
            ({**body, "points": [61]}, "BAD_REQUEST", 400),
        ):
            got = client.post("/api/value", json=bad)
            assert got.status_code == status and got.json()["error"]["code"] == code, bad
