"""The `skat` command line: replay, value, bench."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from skat.cli import main
from skat.engine import Deal, Rules
from skat.engine.records import GameRecord
from tests.helpers.paths import ISS_FILE
from tests.helpers.stores import db_for

KEYS = {
    "id", "kind", "declarer", "bid", "game", "hand", "ouvert", "schneider_announced",
    "schwarz_announced", "matadors", "declarer_points", "declarer_tricks", "schneider",
    "schwarz", "overbid", "won", "value", "score", "seeger_fabian",
}  # fmt: skip


def _run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def _deal_json(seed: int, rules: Rules | None = None) -> dict[str, object]:
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    deal = Deal(deck, rules=rules)
    while not deal.is_terminal():
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return GameRecord.from_deal(deal, id=f"j{seed}").to_dict()


def test_replay_iss_archive_prints_48_agreeing_objects() -> None:
    if not ISS_FILE.exists():
        pytest.skip("no ../shared")
    code, out, _ = _run("replay", str(ISS_FILE))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(rows) == 48
    assert all(KEYS <= set(r) for r in rows)
    assert sum(1 for r in rows if r["server_agrees"]) == 47  # 10330141: ISS 4.4 quirk
    by_id = {r["id"]: r for r in rows}
    assert by_id["541932"]["matadors"] == -2 and by_id["541932"]["score"] == -54
    assert by_id["756788"]["kind"] == "passed"
    assert by_id["8"]["kind"] == "abandoned"
    quirk = by_id["10330141"]  # ISS-FORMAT.md 4.4: declared, then a time-out before the discard
    assert (quirk["kind"], quirk["game"], quirk["won"]) == ("game", "clubs", False)
    assert (quirk["declarer_points"], quirk["matadors"], quirk["score"]) == (11, 3, -96)
    assert quirk["server_differences"] == {"v": [-96, -288], "m": [3, -11]}
    assert quirk["server_differs"]["documented"] is True
    assert "4.4" in quirk["server_differs"]["reason"]
    assert all("server_differs" not in r for r in rows if r["id"] != "10330141")


def test_replay_summary_of_the_iss_archive() -> None:
    if not ISS_FILE.exists():
        pytest.skip("no ../shared")
    code, out, _ = _run("replay", "--summary", str(ISS_FILE))
    assert code == 0
    assert out.strip() == (
        "48 records, abandoned: 3, game: 43, passed: 2, server_differs: 1 (documented quirks: 1)"
    )


def test_replay_json_file_stdin_and_summary(tmp_path: Path) -> None:
    games = [_deal_json(s) for s in range(5)]
    path = tmp_path / "games.json"
    path.write_text(json.dumps(games))
    code, out, _ = _run("replay", str(path))
    assert code == 0 and len(out.splitlines()) == 5
    lines = "\n".join(json.dumps(g) for g in games)
    code, out, _ = _run("replay", "-", input=lines)
    assert code == 0 and [json.loads(x)["id"] for x in out.splitlines()] == [
        f"j{s}" for s in range(5)
    ]
    code, out, _ = _run("replay", "--summary", str(path))
    assert code == 0 and out.startswith("5 records")


def test_replay_reports_illegal_move_and_goes_on(tmp_path: Path) -> None:
    good, bad = _deal_json(1), _deal_json(2)
    bad["actions"] = [[1, "bid 18"], [1, "bid 20"]]  # middlehand bids twice
    path = tmp_path / "g.json"
    path.write_text(json.dumps([bad, good]))
    code, out, _ = _run("replay", str(path))
    rows = [json.loads(x) for x in out.splitlines()]
    assert code != 0
    assert rows[0]["error"] == {
        "code": "NOT_YOUR_TURN",
        "move": 2,
        "message": "it is forehand's turn",
    }
    assert "error" not in rows[1]


def test_replay_unreadable_file(tmp_path: Path) -> None:
    code, _, err = _run("replay", str(tmp_path / "missing.json"))
    assert code != 0 and "cannot read" in err


@pytest.mark.parametrize(
    ("args", "value", "won", "score", "sf"),
    [
        (["clubs", "--cards", "CJ,SJ", "--bid", "36", "--points", "78"], 36, True, 36, 86),
        (["grand", "--cards", "CJ SJ", "--points", "120", "--tricks", "10"], 120, True, 120, 170),
        (["hearts", "--cards", "CJ", "--bid", "20", "--points", "59"], 20, False, -40, -90),
        (["null", "--ouvert", "--hand", "--tricks", "1", "--bid", "59"], 59, False, -118, -168),
        (
            ["spades", "--matadors", "1", "--bid", "22", "--points", "64", "--kontra"],
            22,
            True,
            44,
            94,
        ),
    ],
)
def test_value_json(args: list[str], value: int, won: bool, score: int, sf: int) -> None:
    code, out, _ = _run("value", *args, "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["value"], data["won"], data["score"]) == (value, won, score)
    assert data["seeger_fabian"]["declarer"] == sf
    assert {"matadors", "multiplier", "overbid", "explanation"} <= set(data)


def test_value_four_players_gives_30_to_three_others() -> None:
    args = ["hearts", "--cards", "CJ", "--bid", "20", "--points", "59", "--players", "4"]
    _, out, _ = _run("value", *args, "--json")
    assert json.loads(out)["seeger_fabian"]["others"] == [30, 30, 30]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["clubs", "--matadors", "1", "--schneider-announced"], "ANNOUNCEMENT_REQUIRES_HAND"),
        (["grand", "--matadors", "1", "--ouvert"], "OUVERT_REQUIRES_HAND"),
        (["null", "--hand", "--bid", "36"], "NULL_VALUE_BELOW_BID"),
        (["null", "--hand", "--schneider-announced"], "NOT_APPLICABLE_TO_NULL"),
        (["clubs", "--matadors", "1", "--bid", "19"], "BID_NOT_IN_LIST"),
        (["clubs", "--matadors", "1", "--re"], "RE_NOT_ALLOWED"),
        (["clubs", "--cards", "CJ XX"], "INVALID_CARD"),
        (["clubs"], "BAD_CARDS"),
        (["grand", "--matadors", "5"], "BAD_MATADORS"),
    ],
)
def test_value_refuses_impossible_combinations(args: list[str], code: str) -> None:
    exit_code, _, err = _run("value", *args)
    assert exit_code != 0
    assert err.startswith(f"skat value: {code}:")
    assert len(err.strip().splitlines()) == 1


def test_value_explains_in_words() -> None:
    code, out, _ = _run("value", "clubs", "--cards", "CJ SJ", "--hand", "--bid", "48")
    assert code == 0
    assert "with 2, game 3, Hand 4 x 12 = 48" in out


def test_bench_playouts_last_line() -> None:
    code, out, _ = _run("bench", "playouts", "--seconds", "0.2", "--runs", "1")
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last.startswith("deals/s: ") and int(last.split()[1]) > 0


def test_serve_says_where_to_go_once_the_page_answers(tmp_path: Path) -> None:
    """Issue 14 (bug 16): a newcomer is told what happens and which address
    to open, and only once the page answers."""
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "skat.cli", "serve", "--port", str(port), "--log-level", "warning"]
    cmd += ["--db", db_for(tmp_path).url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "starting the server" in first, first
        line = proc.stdout.readline()
        assert f"open http://127.0.0.1:{port}/" in line, line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200  # it answers as soon as it says so
    finally:
        proc.terminate()
        proc.wait(timeout=10)
