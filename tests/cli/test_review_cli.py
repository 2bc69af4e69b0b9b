"""`skat review LIST.json [--seat N] [--json]` (issue 48, point 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from skat.cli import main

SEED = "ab" * 32


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def one_deal_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "list.json"
    code, _, err = _run(
        "selfplay",
        str(path),
        "--deals",
        "1",
        "--seed",
        SEED,
        "--bots",
        "heuristic,novice,heuristic",
    )
    assert code == 0, err
    return path


def test_review_json_gives_one_object_per_decision(one_deal_list: Path) -> None:
    code, out, err = _run("review", str(one_deal_list), "--seat", "1", "--json")
    assert code == 0, err
    objects = [json.loads(line) for line in out.splitlines()]
    rows = [r for r in objects if r["type"] == "decision"]
    record = json.loads(one_deal_list.read_text())
    mine = [a for seat, a in record["deals"][0]["actions"] if seat == 1]
    assert [r["action"] for r in rows] == mine  # every decision of seat 1, in order
    for r in rows:
        assert {"deal", "seat", "action", "best", "loss", "verdict"} <= r.keys()
        assert r["deal"] == 1 and r["seat"] == 1 and r["loss"] >= 0
        assert r["verdict"] in ("fine", "inaccuracy", "mistake", "blunder")
        assert (r["loss"] == 0) == (r["action"] == r["best"])
    # then the deal's luck against play, then the list's
    assert [r["type"] for r in objects[len(rows) :]] == ["deal", "list"]
    deal, whole = objects[-2:]
    assert deal["play"] == pytest.approx(deal["made"] - deal["promised"], abs=0.11)
    assert whole["promised"] == deal["promised"] and whole["made"] == deal["made"]
    assert whole["decisions"] == len(rows)


def test_review_text_names_the_seat_the_action_and_the_verdict(one_deal_list: Path) -> None:
    code, out, err = _run("review", str(one_deal_list), "--seat", "1")
    assert code == 0, err
    *lines, deal, whole = out.splitlines()
    assert lines and all(line.startswith("seat 1 deal 1 move ") for line in lines)
    assert all(line.split()[-1] in ("fine", "inaccuracy", "mistake", "blunder") for line in lines)
    assert deal.startswith("seat 1 deal 1: the cards promised ") and "from play" in deal
    assert whole.startswith("seat 1 list: the cards promised ") and "over the list; made" in whole


def test_review_errors_are_one_line_and_non_zero(one_deal_list: Path, tmp_path: Path) -> None:
    code, _, err = _run("review", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err and len(err.splitlines()) == 1
    code, _, err = _run("review", str(one_deal_list), "--seat", "3")
    assert code == 2 and "no seat 3" in err and len(err.splitlines()) == 1
    other = tmp_path / "game.json"
    other.write_text(json.dumps({"format": "skat-game", "actions": []}))
    code, _, err = _run("review", str(other))
    assert code == 2 and "not a skat-list record" in err and len(err.splitlines()) == 1
