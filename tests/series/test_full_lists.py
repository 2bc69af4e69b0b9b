"""Issue 3, done when: a 36-deal and a 48-deal list with every option on plays
to the end through the public API, and its record verifies (R1.6, R8.3, R9)."""

from __future__ import annotations

import json
import random

import pytest

from skat.players import make_player, play_list
from skat.series import BOCK_TRIGGERS, ListOptions, Series, seeger_fabian_formula
from skat.series.record import list_record, verify_list

EVERY_OPTION = {
    "all_pass": "ramsch",
    "kontra": True,
    "kontra_window": "own_first_card",
    "bock": True,
    "bock_triggers": list(BOCK_TRIGGERS),
    "bock_count": "per_trigger",
    "bock_overlap": "queue",
    "ramsch_after_bock": True,
}


@pytest.mark.parametrize(("players", "deals"), [(3, 36), (4, 48)])
def test_full_list_with_every_option(players: int, deals: int) -> None:
    options = ListOptions.from_dict({**EVERY_OPTION, "players": players})
    assert options.deals_per_list == deals
    series = Series(options, seed=bytes(range(32)))
    bots = [make_player("heuristic", random.Random(s)) for s in range(players)]
    play_list(series, bots)
    assert series.is_over()
    assert len(series.rows) == deals
    assert [r.number for r in series.rows] == list(range(1, deals + 1))
    assert [r.dealer for r in series.rows] == [k % players for k in range(deals)]
    kinds = {r.kind for r in series.rows}
    assert "game" in kinds and "ramsch" in kinds
    assert any(r.bock_factor > 1 for r in series.rows)  # Bock rounds were played
    assert any(r.ramsch_round for r in series.rows)  # and Ramsch rounds after them
    for total in series.totals():
        assert total.seeger_fabian == seeger_fabian_formula(total, players)
    record = json.loads(json.dumps(list_record(series, id="full")))
    assert verify_list(record) == []
