"""The hand evaluator recalibrated by games played out (issue 53, point 2):
the script that measures it is reproducible from a seed, its fit recovers a
known distortion, and the evaluator reads a recalibration from its file.
"""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from pathlib import Path

import pytest
from bench.strength.calibrate_handeval import generate, main, recalibration, report

from skat.engine import Card, GameType
from skat.players.handeval import Evaluator, default
from tests.helpers.hands import FOUR_JACKS_SIX_CLUBS


def _mask(cards: list[str]) -> int:
    return sum(Card.parse(c).bit for c in cards)


def _shipped() -> dict[str, object]:
    text = resources.files("skat.players").joinpath("data/handeval.json").read_text()
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def test_a_recalibration_moves_the_chances_on_the_logistic_scale() -> None:
    shipped = default()
    hand = _mask(FOUR_JACKS_SIX_CLUBS[0])
    base = shipped.chances(hand, GameType.CLUBS, 0, "pickup").win
    same = Evaluator({**_shipped(), "calibration": {"suit": {"pickup": {"win": [1.0, 0.0]}}}})
    assert same.chances(hand, GameType.CLUBS, 0, "pickup").win == pytest.approx(base)
    lower = Evaluator({**_shipped(), "calibration": {"suit": {"pickup": {"win": [1.0, -2.0]}}}})
    got = lower.chances(hand, GameType.CLUBS, 0, "pickup").win
    z = math.log(base / (1 - base))
    assert got == pytest.approx(1 / (1 + math.exp(-(z - 2.0))))
    # other stages and kinds are untouched
    assert lower.chances(hand, GameType.CLUBS, 0, "hand") == shipped.chances(
        hand, GameType.CLUBS, 0, "hand"
    )


def test_the_fit_recovers_a_known_distortion() -> None:
    # outcomes drawn from logit(p') = 0.5 logit(p) - 1: the fit finds (0.5, -1)
    rng = random.Random(3)
    pred, won = [], []
    for _ in range(20000):
        p = rng.uniform(0.02, 0.98)
        z = 0.5 * math.log(p / (1 - p)) - 1.0
        pred.append(p)
        won.append(int(rng.random() < 1 / (1 + math.exp(-z))))
    a, b = recalibration(pred, won)
    assert a == pytest.approx(0.5, abs=0.05)
    assert b == pytest.approx(-1.0, abs=0.08)
    # a calibrated model is left as it is
    won = [int(rng.random() < p) for p in pred]
    a, b = recalibration(pred, won)
    assert a == pytest.approx(1.0, abs=0.06) and b == pytest.approx(0.0, abs=0.06)


@pytest.mark.slow
def test_the_played_games_are_the_same_for_the_same_seed(tmp_path: Path) -> None:
    one = generate(2, seed=5, jobs=1, declarer="heuristic", defenders=["heuristic", "novice"])
    again = generate(2, seed=5, jobs=2, declarer="heuristic", defenders=["heuristic", "novice"])
    other = generate(2, seed=6, jobs=1, declarer="heuristic", defenders=["heuristic", "novice"])
    assert one == again and one != other
    # the evaluator's discard for the forced game: the same Hand games, other pickups
    own = generate(
        2, seed=5, jobs=1, declarer="heuristic", defenders=["heuristic", "novice"], own_discard=True
    )
    assert [r for r in own if r[1] == "hand"] == [r for r in one if r[1] == "hand"]
    assert [r for r in own if r[1] == "counted"] != [r for r in one if r[1] == "counted"]
    stages = {(k, s) for k, s, *_ in one}
    assert ("suit", "pickup") in stages and ("suit", "counted") in stages
    assert all(0.0 <= r[2] <= 1.0 and r[4] in (0, 1) for r in one)
    classes = report(one)["classes"]
    assert isinstance(classes, dict) and sum(e["n"] for e in classes.values()) == len(one)
    # the command line writes the report and an evaluator file that loads
    out, into = tmp_path / "cal.json", tmp_path / "handeval.json"
    args = ["--deals", "2", "--jobs", "1", "--declarer", "heuristic", "--defenders", "heuristic"]
    assert main([*args, "--out", str(out), "--into", str(into)]) == 0
    written = json.loads(into.read_text())
    assert written["weights"] == _shipped()["weights"]
    assert "calibration" in written and "calibrate_handeval" in written["calibration_command"]
    Evaluator(written)


def test_a_bad_count_is_refused_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--deals", "0"])
    assert exit_info.value.code != 0
    assert "at least 1" in capsys.readouterr().err
