"""The Ramsch reckoner (R9.1, R9.4): `skat value ramsch`, `reckon_ramsch`
and the calculator's `/api/value` route."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from skat.cli import main
from skat.engine import Deal, Rules
from skat.engine.ramsch import settle
from skat.engine.reckoner import ReckonerError, reckon_ramsch
from tests.helpers.stores import db_for


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["value", "ramsch", *args])
    return result.exit_code, result.stdout, result.stderr


# R9.1's table: card points A / B / C (tricks), entries A / B / C.
EXAMPLES = [
    ("EX-R1", ["--points", "61,41,18"], [-61, 0, 0]),
    ("EX-R1-tricks", ["--points", "61,41,18", "--tricks", "5,3,2"], [-61, 0, 0]),
    ("EX-R2", ["--points", "50,50,20"], [-50, -50, 0]),
    ("EX-R3", ["--points", "72,48,0", "--tricks", "6,4,0"], [-144, 0, 0]),
    ("EX-R3-inferred", ["--points", "72,48,0"], [-144, 0, 0]),
    ("EX-R4", ["--points", "120,0,0", "--tricks", "10,0,0"], [120, 0, 0]),
    ("EX-R5", ["--points", "40,40,40"], [-40, -40, -40]),
    ("EX-R6", ["--points", "60,60,0", "--tricks", "5,5,0"], [-120, -120, 0]),
    ("EX-R7", ["--points", "61,41,18", "--bock"], [-122, 0, 0]),
]


@pytest.mark.parametrize(("name", "args", "entries"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_rules_examples(name: str, args: list[str], entries: list[int]) -> None:
    code, out, err = _run(*args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["entries"] == entries
    assert data["game"] == "ramsch" and data["players"] == 3


def test_words_explain_the_examples() -> None:
    code, out, _ = _run("--points", "72,48,0")
    assert code == 0
    assert out.splitlines() == [
        "Ramsch: most card points: A with 72; Jungfrau (C took no trick) x 2: loses 144",
        "entries: A -144, B +0, C +0",
    ]
    _, out, _ = _run("--points", "50 50 20")
    assert "A and B with 50, each loses 50" in out
    _, out, _ = _run("--points", "40,40,40")
    assert "A, B and C with 40, each loses 40" in out
    _, out, _ = _run("--points", "120,0,0", "--bock")
    assert "Durchmarsch: A took all ten tricks; Bock x 2: wins 240" in out


def test_tricks_worth_nothing_are_not_jungfrau() -> None:
    """120 card points without all ten tricks is no Durchmarsch (R9.1): B took
    two tricks worth nothing, C none, so A loses 120 doubled."""
    code, out, _ = _run("--points", "120,0,0", "--tricks", "8,2,0", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["entries"], data["durchmarsch"], data["jungfrau"]) == ([-240, 0, 0], None, [2])
    _, out, _ = _run("--points", "70,50,0", "--tricks", "6,3,1", "--json")
    assert json.loads(out)["entries"] == [-70, 0, 0]  # C took a trick of 7, 8, 9


def test_four_players_the_dealer_sits_out() -> None:
    code, out, _ = _run("--points", "61,41,18", "--players", "4", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["players"] == 4 and data["entries"] == [-61, 0, 0]  # the three who play
    assert "the dealer sits out and scores 0" in data["explanation"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--points", "61,41,17"], "BAD_POINTS"),  # sums to 119
        (["--points", "130,-10,0"], "BAD_POINTS"),
        (["--points", "61,59"], "BAD_POINTS"),
        (["--points", "30,30,30,30"], "BAD_POINTS"),
        (["--points", "61,41,x"], "BAD_POINTS"),
        ([], "BAD_POINTS"),
        (["--points", "61,41,18", "--tricks", "5,4,2"], "BAD_TRICKS"),  # sums to 11
        (["--points", "61,41,18", "--tricks", "5,5,0"], "BAD_TRICKS"),  # C: points, no trick
        (["--points", "61,41,18", "--tricks", "11,-1,0"], "BAD_TRICKS"),
        (["--points", "100,10,10", "--tricks", "1,1,8"], "BAD_TRICKS"),  # 100 in one trick
        (["--points", "61,41,18", "--tricks", "5,5"], "BAD_TRICKS"),
        (["--points", "61,41,18", "--kontra"], "BAD_OPTION"),
        (["--points", "61,41,18", "--cards", "CJ"], "BAD_OPTION"),
    ],
)
def test_bad_input_is_refused_in_one_line(args: list[str], code: str) -> None:
    exit_code, out, err = _run(*args)
    assert exit_code != 0 and out == ""
    assert err.startswith(f"skat value: {code}: ")
    assert len(err.strip().splitlines()) == 1


def test_bock_also_doubles_a_suit_game_but_not_the_50() -> None:
    result = CliRunner().invoke(
        main, ["value", "clubs", "--cards", "CJ SJ HA", "--hand", "--bid", "48", "--bock", "--json"]
    )
    data = json.loads(result.stdout)
    assert (data["score"], data["factor"], data["bock"]) == (96, 2, True)
    assert data["seeger_fabian"]["declarer"] == 146  # 96 + 50 (R9.4)


def _random_ramsch(seed: int, dealer: int) -> Deal:
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    deal = Deal(deck, rules=Rules(), dealer=dealer, ramsch=True)
    while not deal.is_terminal():
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 2))
def test_reckoner_agrees_with_played_ramsch_deals(seed: int, dealer: int) -> None:
    """Card points (skat to the last trick) and tricks of a played deal, given
    in seat order, reckon to the entries the deal itself wrote."""
    deal = _random_ramsch(seed, dealer)
    r = deal.result
    assert r is not None and r.ramsch_points is not None
    points, tricks = [0, 0, 0], [0, 0, 0]
    for pos in range(3):
        seat = deal.seat_of(pos)
        points[seat] = r.ramsch_points[pos]
        tricks[seat] = sum(1 for t in deal.tricks if t.winner == pos)
    assert list(reckon_ramsch(points, tricks).entries) == list(r.plain)
    assert list(reckon_ramsch(points, tricks, bock=True).entries) == [2 * e for e in r.plain]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 2))
def test_a_played_ramsch_deal_carries_its_jungfrau_and_durchmarsch(seed: int, dealer: int) -> None:
    """The result's Ramsch outcome (engine/ramsch.py) is what the tricks
    say (R9.1): per position the card points with the skat for the last
    trick's winner, the tricks, a Jungfrau for each trickless player unless
    one took them all, the entries of the list."""
    deal = _random_ramsch(seed, dealer)
    r = deal.result
    assert r is not None and r.ramsch is not None
    out = r.ramsch
    tricks = [sum(1 for t in deal.tricks if t.winner == p) for p in range(3)]
    assert list(out.tricks) == tricks and sum(out.points) == 120
    last = deal.tricks[-1].winner
    took = [sum(t.points for t in deal.tricks if t.winner == p) for p in range(3)]
    assert out.points[last] == took[last] + deal.dealt_skat.points
    march = next((p for p in range(3) if tricks[p] == 10), None)
    assert out.durchmarsch == march
    assert out.jungfrau == (
        () if march is not None else tuple(p for p in range(3) if not tricks[p])
    )
    assert [r.plain[deal.seat_of(p)] for p in range(3)] == list(out.entries)
    assert out.losers == tuple(p for p in range(3) if out.entries[p] < 0)


def test_durchmarsch_and_jungfrau_by_hand() -> None:
    """R9.1: all ten tricks win 120 (no Jungfrau then); a trickless player
    doubles the loss of the one with most points, ties all lose."""
    march = settle([120 - 7, 0, 0], [10, 0, 0], 0, 7)
    assert (march.durchmarsch, march.jungfrau, march.entries) == (0, (), (120, 0, 0))
    maid = settle([70, 50, 0], [6, 4, 0], 1, 0, factor=2)
    assert (maid.jungfrau, maid.losers, maid.entries) == ((2,), (0,), (-280, 0, 0))
    tie = settle([50, 50, 20], [4, 4, 2], 2, 0)
    assert (tie.losers, tie.jungfrau, tie.entries) == ((0, 1), (), (-50, -50, 0))


@pytest.mark.parametrize(
    "points", [[61, 41], [61.0, 41, 18], "61,41,18", [True, 41, 79], None, [60, 60, 1]]
)
def test_engine_refuses_what_is_not_three_card_points(points: object) -> None:
    with pytest.raises(ReckonerError) as err:
        reckon_ramsch(points)
    assert err.value.code == "BAD_POINTS"


# ------------------------------------------------------------- the route
@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from skat.server import ServerConfig, create_app

    db = db_for(tmp_path_factory.mktemp("value"))
    with TestClient(create_app(db.url, ServerConfig())) as c:
        yield c


def test_api_value_reckons_ramsch(client: TestClient) -> None:
    res = client.post("/api/value", json={"game": "ramsch", "points": [72, 48, 0], "bock": True})
    assert res.status_code == 200
    data = res.json()
    assert data["entries"] == [-288, 0, 0]
    assert (data["losers"], data["jungfrau"], data["factor"]) == ([0], [2], 2)
    res = client.post(
        "/api/value",
        json={"game": "ramsch", "points": [120, 0, 0], "tricks": [10, 0, 0], "players": 4},
    )
    assert res.json()["entries"] == [120, 0, 0] and res.json()["durchmarsch"] == 0


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "ramsch", "points": [61, 41, 17]}, "BAD_POINTS"),
        ({"game": "ramsch", "points": [61, 41, 18], "tricks": [5, 5, 0]}, "BAD_TRICKS"),
        ({"game": "ramsch", "points": [61, 41, 18], "kontra": True}, "BAD_REQUEST"),
        ({"game": "ramsch", "points": [61, 41, 18], "bock": 1}, "BAD_REQUEST"),
    ],
)
def test_api_value_refuses_bad_ramsch(
    client: TestClient, body: dict[str, object], code: str
) -> None:
    res = client.post("/api/value", json=body)
    assert res.status_code == 400
    assert res.json()["error"]["code"] == code


def test_api_value_still_reckons_games_with_bock(client: TestClient) -> None:
    body = {"game": "grand", "cards": "CJ SJ", "points": 70, "bock": True}
    res = client.post("/api/value", json=body)
    assert res.status_code == 200
    assert (res.json()["score"], res.json()["factor"]) == (144, 2)  # with 2, game 3 x 24, Bock
