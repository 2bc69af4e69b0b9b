"""`skat tournament simulate` (issue 27, point 4): a whole tournament of
computer players through the draw, the tables' lists and the standings,
as one JSON object that adds up."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import defaultdict

import pytest

from skat.series.record import verify_list
from skat.series.tournament import verify_draw


def _simulate(*args: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "skat.cli", "tournament", "simulate", *args, "--json"],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(13, [4, 3, 3, 3]), pytest.param(12, [4, 4, 4], marks=pytest.mark.slow)],  # fast: one of them
)
def test_a_simulated_tournament_adds_up(n: int, sizes: list[int]) -> None:
    """`skat tournament simulate`: two series; every entrant sits once per
    series at tables of the sizes above; every table's list record verifies,
    its totals are the ones reported, and the standings are their sums."""
    d = _simulate("--players", str(n), "--series", "2", "--rounds", "1", "--records")
    assert isinstance(d, dict)
    names = [f"Player {i + 1}" for i in range(n)]
    sums: dict[str, int] = defaultdict(int)
    seed = bytes.fromhex(str(d["seed"]))
    for number, series in enumerate(d["series"], 1):  # type: ignore[arg-type]
        tables = series["tables"]
        assert sorted(len(t["seats"]) for t in tables) == sorted(sizes)
        assert sorted(x for t in tables for x in t["seats"]) == sorted(names)
        seats = [t["seats"] for t in tables]
        assert verify_draw(seed, str(d["commitment"]), number, names, seats)
        for t in tables:
            record = t["record"]
            assert verify_list(record) == []
            sheet_totals = [
                sum(row["seeger_fabian"][s] for row in record["sheet"])
                for s in range(len(t["seats"]))
            ]
            assert t["totals"] == dict(zip(t["seats"], sheet_totals, strict=True))
            for name, total in t["totals"].items():
                sums[name] += total
    ranked = d["standings"]
    assert isinstance(ranked, list)
    assert {r["name"]: r["total"] for r in ranked} == dict(sums)
    assert [r["total"] for r in ranked] == sorted(sums.values(), reverse=True)
    assert ranked[0]["place"] == 1
    for a, b in itertools.pairwise(ranked):
        assert b["place"] >= a["place"]


def test_simulate_refuses_what_it_cannot_run_in_one_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "skat.cli", "tournament", "simulate", "--players", "500"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == "skat tournament simulate: a tournament has 1 to 200 entrants"
