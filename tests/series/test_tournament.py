"""The tournament's draw and standings (skat/series/tournament.py; issue 27):
tables of four wherever the numbers allow, a draw anyone can redo once the
seed is revealed, and a ranking by R8.4 over every list."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat.series.sheet import PlayerTotal
from skat.series.shuffle import commitment, new_seed
from skat.series.tournament import draw, fill_to_tables, standings, table_sizes, verify_draw


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (12, [4, 4, 4]),
     (13, [4, 3, 3, 3]), (200, [4] * 50)],
)  # fmt: skip
def test_as_many_tables_of_four_as_the_number_allows(n: int, sizes: list[int]) -> None:
    assert table_sizes(n) == sizes


def test_computer_players_fill_what_does_not_divide() -> None:
    assert [fill_to_tables(n) for n in (1, 2, 3, 4, 5, 6, 13)] == [2, 1, 0, 0, 1, 0, 0]
    for n in (1, 2, 5):
        with pytest.raises(ValueError, match="cannot sit"):
            table_sizes(n)


@settings(max_examples=50, deadline=None)
@given(n=st.integers(3, 200).filter(lambda n: n != 5), number=st.integers(1, 30))
def test_every_entrant_sits_exactly_once(n: int, number: int) -> None:
    seed = bytes(range(32))
    names = [f"P{i}" for i in range(n)]
    tables = draw(seed, number, names)
    assert sorted(x for t in tables for x in t) == sorted(names)
    assert [len(t) for t in tables] == table_sizes(n)
    assert draw(seed, number, names) == tables  # the same seed, the same draw


def test_the_draw_verifies_and_a_tampered_one_is_caught() -> None:
    seed = new_seed()
    published = commitment(seed)
    names = [f"P{i}" for i in range(13)]
    first, second = draw(seed, 1, names), draw(seed, 2, names)
    assert first != second  # a new draw for each series
    assert verify_draw(seed, published, 1, names, first)
    swapped = [list(t) for t in first]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]
    assert not verify_draw(seed, published, 1, names, swapped)
    assert not verify_draw(new_seed(), published, 1, names, first)  # another seed


def test_the_draw_is_fair_between_seats() -> None:
    """Over many series each entrant lands at the four-player table about
    as often as any other (13 entrants: 4 of 13 seats are at it)."""
    seed = bytes(32)
    names = [f"P{i}" for i in range(13)]
    at_four: Counter[str] = Counter()
    for number in range(1, 2601):
        at_four.update(draw(seed, number, names)[0])
    assert all(700 <= at_four[n] <= 900 for n in names), at_four  # 800 expected


def _t(seat: int, total: int, won: int, lost: int) -> PlayerTotal:
    return PlayerTotal(seat, total, won, lost, 0, total, total)


def test_standings_add_every_list_and_rank_by_r8_4() -> None:
    rows = standings(
        [
            ("Anna", _t(0, 300, 3, 1)),
            ("Ben", _t(1, 200, 2, 0)),
            ("Anna", _t(0, -100, 0, 2)),  # Anna: 200, won 3, lost 3
            ("Ben", _t(1, 0, 1, 1)),  # Ben: 200, won 3, lost 1: ahead on fewer lost
            ("Cleo", _t(2, 200, 4, 5)),  # Cleo: 200, more won: first
            ("Dora", _t(0, 200, 3, 3)),  # Dora ties Anna fully: the same place
        ]
    )
    assert [(r.name, r.total, r.place) for r in rows] == [
        ("Cleo", 200, 1), ("Ben", 200, 2), ("Anna", 200, 3), ("Dora", 200, 3),
    ]  # fmt: skip
    assert next(r for r in rows if r.name == "Anna").lists == 2
