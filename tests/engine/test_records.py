"""The JSON game record (docs/formats.md): round trips and clear refusals."""

from __future__ import annotations

import json
import random

import pytest

from skat.engine import Bid, Deal, Pass, Rules, parse_action
from skat.engine.errors import Reason
from skat.engine.records import MAX_RECORD_BYTES, GameRecord, RecordError, replay


def _random_deal(seed: int, rules: Rules | None = None) -> Deal:
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    deal = Deal(deck, rules=rules)
    while not deal.is_terminal():
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


@pytest.mark.parametrize("seed", range(20))
def test_json_round_trip_and_replay(seed: int) -> None:
    rules = Rules(players=4, kontra=True) if seed % 2 else Rules()
    deal = _random_deal(seed, rules)
    rec = GameRecord.from_deal(deal, id=f"g{seed}")
    again = GameRecord.from_json(rec.to_json())
    assert again == rec
    replayed = replay(again)
    assert replayed.history == deal.history
    assert replayed.result == deal.result


def test_record_format_is_documented_shape() -> None:
    rec = GameRecord.from_deal(_random_deal(3), id="x")
    data = json.loads(rec.to_json())
    assert data["format"] == "skat-game" and data["version"] == 1
    assert len(data["deck"].split()) == 32
    assert all(isinstance(s, int) and isinstance(a, str) for s, a in data["actions"])


def test_illegal_move_reports_reason_and_move_number() -> None:
    rec = GameRecord.from_deal(_random_deal(5))
    data = rec.to_dict()
    data["actions"] = [[1, "bid 18"], [0, "hold"], [1, "bid 19"]]
    with pytest.raises(RecordError) as err:
        replay(GameRecord.from_dict(data))
    assert err.value.code == Reason.BID_NOT_IN_LIST
    assert err.value.move == 3


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(format="other"),
        lambda d: d.update(version=99),
        lambda d: d.update(deck="CJ SJ"),
        lambda d: d.update(deck=7),
        lambda d: d.update(rules={"players": 5}),
        lambda d: d.update(rules={"colour": "red"}),
        lambda d: d.update(actions=[[0]]),
        lambda d: d.update(actions=[["x", "pass"]]),
        lambda d: d.update(actions=[[1, "dance"]]),
        lambda d: d.update(actions=[[1, "play ZZ"]]),
    ],
)
def test_malformed_records_are_refused(mutate: object) -> None:
    data = GameRecord.from_deal(_random_deal(1)).to_dict()
    mutate(data)  # type: ignore[operator]
    with pytest.raises(RecordError):
        replay(GameRecord.from_dict(data))


def test_oversized_and_invalid_json_are_refused() -> None:
    with pytest.raises(RecordError, match="too large"):
        GameRecord.from_json(" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match="invalid JSON"):
        GameRecord.from_json("{")


def test_action_text_round_trip() -> None:
    deal = _random_deal(11, Rules(kontra=True))
    for _, action in deal.history:
        assert parse_action(str(action)) == action
    assert parse_action("bid 18") == Bid(18)
    assert parse_action("pass") == Pass()
