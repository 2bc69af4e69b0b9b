"""Issue 26, point 1: the analysis board for a game that was never played
here: a JSON game record, a list record or an ISS record, uploaded as a
file (POST /api/board?game=N). The board is the one a table's deal gets,
card by card with the solver's values; a file it cannot use is refused
with a reason and harms nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skat.engine.records import GameRecord, replay
from skat.players.analysis import deal_board
from skat.players.heuristic import HeuristicPlayer
from skat.players.loop import play_list
from skat.series import ListOptions, Series
from skat.series.record import list_record
from tests.helpers.analysed import DECLARER_BLUNDER, DEFENDER_BLUNDER
from tests.helpers.paths import ISS_FILE
from tests.helpers.server import serve


def _board(client: object, text: str | bytes, game: int | str = 1) -> object:
    body = text.encode() if isinstance(text, str) else text
    return client.post(f"/api/board?game={game}", content=body)  # type: ignore[attr-defined]


def _code(r: object) -> str:
    code: str = r.json()["error"]["code"]  # type: ignore[attr-defined]
    return code


def test_a_json_game_record_gets_the_board_a_table_deal_gets(tmp_path: Path) -> None:
    games = [DEFENDER_BLUNDER, DECLARER_BLUNDER]
    with serve(tmp_path) as (_, client, _db):
        r = _board(client, json.dumps(games), 2)
        assert r.status_code == 200, r.text
        out = r.json()
        assert [g["number"] for g in out["games"]] == [1, 2]
        assert all(g["ok"] for g in out["games"])
        expected = deal_board(replay(GameRecord.from_dict(DECLARER_BLUNDER)), "grand-55")
        assert out["number"] == 2 and out["board"] == json.loads(json.dumps(expected))
        assert len(out["board"]["steps"]) == 30
        # the same file again is answered from the cache
        assert _board(client, json.dumps(games), 2).json() == out


def test_a_list_record_and_an_iss_record(tmp_path: Path) -> None:
    series = Series(ListOptions(players=3, deals=3), seed=b"\x07" * 32, names=["A", "B", "C"])
    play_list(series, [HeuristicPlayer() for _ in range(3)])
    record = json.dumps(list_record(series, id="club"))
    with serve(tmp_path) as (_, client, _db):
        r = _board(client, record, 3)
        assert r.status_code == 200, r.text
        out = r.json()
        assert [g["id"] for g in out["games"]] == ["club-1", "club-2", "club-3"]
        board = out["board"]
        assert board.get("skipped") or len(board["steps"]) == 30
        if not ISS_FILE.exists():
            pytest.skip("../shared is not present")
        lines = ISS_FILE.read_text().splitlines()[:5]
        r = _board(client, "\n".join(lines), 1)
        assert r.status_code == 200, r.text
        assert len(r.json()["games"]) == 5


def test_files_the_board_cannot_use_are_refused_with_a_reason(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        game = json.dumps(DEFENDER_BLUNDER)
        cases: list[tuple[str | bytes, int | str, int, str]] = [
            ("", 1, 400, "BAD_RECORD"),
            ("not a record at all", 1, 400, "BAD_RECORD"),
            ('{"format": "skat-game"}', 1, 400, "BAD_RECORD"),
            ("[" * 5000, 1, 400, "BAD_RECORD"),
            (b"\xff\xfe", 1, 400, "BAD_RECORD"),
            (game, 0, 404, "NO_DEAL"),
            (game, 2, 404, "NO_DEAL"),
            (game, "abc", 404, "NO_DEAL"),
            (game, "99999", 404, "NO_DEAL"),
            ("x" * (65 * 1024), 1, 413, "TOO_LARGE"),
        ]
        for text, number, status, code in cases:
            r = _board(client, text, number)
            assert r.status_code == status, (str(text)[:40], number, r.text)
            assert _code(r) == code, (str(text)[:40], number)
        # a game that stops in the middle is not over: no board yet (R3.7)
        short = dict(DEFENDER_BLUNDER, actions=DEFENDER_BLUNDER["actions"][:-5])
        r = _board(client, json.dumps(short))
        assert r.status_code == 409 and _code(r) == "WRONG_PHASE", r.text
        # and the server serves on
        assert _board(client, game).status_code == 200
        assert client.get("/healthz").status_code == 200
