"""A person's figures of a list (issue 48, point 3: the profile), checked
against the score sheet of whole lists played by computer players: the
games each seat declared and won (by game type), Seeger-Fabian over the
deals it played (at four the dealer sits out, R1.4), thrown-in deals
(R2.6), Kontra and Re said and won (R9.3), and the lists added up."""

from __future__ import annotations

import random

import pytest

from skat.engine import Kontra, Re
from skat.players.catalogue import make_player
from skat.players.loop import play_list
from skat.series import ListOptions, Series
from skat.series.figures import DECLARED, combined, list_figures


def _played(options: ListOptions, seed: int) -> Series:
    series = Series(options, seed=seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    players = [
        make_player("heuristic", random.Random(rng.random())) for _ in range(options.players)
    ]
    return play_list(series, players)


@pytest.mark.parametrize(
    "options",
    [
        ListOptions(players=3, deals=9, kontra=True),
        ListOptions(players=4, deals=8),
    ],
    ids=["three-kontra", "four-thrown-in"],
)
def test_the_figures_are_the_sheets(options: ListOptions) -> None:
    figures = []
    for seed in (1, 2, 3):
        series = _played(options, seed)
        totals = series.totals()
        for seat in range(options.players):
            f = list_figures(series, seat)
            figures.append(f)
            rows = series.rows
            assert f["over"] and f["settled"] == len(rows) == f["deals"]
            assert (f["total"], f["place"]) == (totals[seat].total, totals[seat].place)
            assert f["seeger_fabian"] == sum(r.seeger_fabian[seat] for r in rows)
            mine = [r for r in rows if r.kind == "game" and r.declarer == seat]
            assert sum(g["declared"] for g in f["games"].values()) == len(mine)
            assert sum(g["won"] for g in f["games"].values()) == totals[seat].won
            sits_out = sum(1 for d in series.deals if d.position_of(seat) is None)
            assert f["played"] == len(rows) - sits_out
            assert sits_out == (len(rows) // 4 if options.players == 4 else 0)
            said = [
                (a, r)
                for d, r in zip(series.deals, rows, strict=True)
                for s, a in d.history
                if s == seat and isinstance(a, Kontra | Re)
            ]
            assert f["kontra"]["said"] + f["re"]["said"] == len(said)
    total = combined(figures)
    assert total["lists"] == len(figures)
    declared = [g["declared"] for f in figures for g in f["games"].values()]
    assert total["declared"] == sum(declared)
    assert set(total["games"]) == set(DECLARED)
    assert total["per_deal"] == round(total["seeger_fabian"] / total["settled"], 1)
    # Einpassen (R2.6): a deal all passed is thrown in, for each seat that played it
    thrown = [f["thrown_in"] for f in figures]
    assert total["thrown_in"] == sum(thrown) and any(thrown)


def test_a_list_not_over_counts_what_is_settled() -> None:
    series = Series(ListOptions(players=3), seed=bytes(32))
    f = list_figures(series, 0)
    assert (f["over"], f["settled"], f["played"], f["seeger_fabian"]) == (False, 0, 0, 0)
    assert combined([])["per_deal"] == 0.0
