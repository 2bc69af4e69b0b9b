"""Rendering a list's score sheet for people (rich), spreadsheets (CSV) and
machines (JSON); used by ``skat sheet``."""

from __future__ import annotations

import csv
import io
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from .series import PlayerTotal, Series, SheetRow


def _game_cell(row: SheetRow, names: list[str]) -> str:
    if row.kind == "passed":
        return "thrown in"
    if row.kind == "abandoned":
        return "abandoned"
    if row.kind == "ramsch":
        return "Ramsch" + (" (round)" if row.ramsch_round else "")
    who = names[row.declarer] if row.declarer is not None else "?"
    result = "won" if row.won else "lost, overbid" if row.overbid else "lost"
    return f"{who}: {row.game} {result}"


def _markers(row: SheetRow) -> str:
    marks = []
    if row.kontra:
        marks.append("Re" if row.re else "Kontra")
    if row.bock_factor > 1:
        marks.append("Bock" if row.bock_factor == 2 else f"Bock x{row.bock_factor}")
    return " ".join(marks)


def _matadors(row: SheetRow) -> str:
    if row.kind != "game" or row.matadors == 0:
        return ""
    return f"{'with' if row.matadors > 0 else 'without'} {abs(row.matadors)}"


def sheet_json(series: Series) -> dict[str, Any]:
    return {
        "scoring": series.options.scoring,
        "players": list(series.names),
        "rows": [r.to_dict() for r in series.rows],
        "totals": [t.__dict__ for t in series.totals()],
    }


#: A text cell that starts with one of these is a formula to a spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Where a spreadsheet may split a cell that it reads with another list
#: separator than the comma (the semicolon in German and Danish settings):
#: quotes after the separator too (``a;"=1`` is written ``"a;""=1"``, and
#: a reader splitting at ``;`` reads ``""=1"`` as the cell ``=1"``).
_PIECE = re.compile(r"([;,|\t][\s\"]*)([=+\-@])")


def csv_cell(value: object) -> object:
    """A cell that no spreadsheet runs as a formula: text starting with
    ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return) gets a leading
    apostrophe, and so does every piece a separator begins (``Anna;=1+1``
    read with ``;`` as the separator is two cells); numbers stay numbers."""
    if not isinstance(value, str):
        return value
    value = _PIECE.sub(r"\1'\2", value)
    return "'" + value if value.lstrip(' "').startswith(FORMULA_STARTS) else value


class _SafeWriter:
    """Every text cell quoted: a reader that splits at another separator
    keeps a quoted cell whole."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)

    def writerow(self, row: list[Any]) -> None:
        self._w.writerow([csv_cell(v) for v in row])


def safe_csv(rows: list[list[Any]]) -> str:
    """Rows as CSV that no spreadsheet runs as formulas (`csv_cell`)."""
    out = io.StringIO()
    w = _SafeWriter(out)
    for row in rows:
        w.writerow(row)
    return out.getvalue()


def _ramsch_points(r: SheetRow) -> str:
    """A Ramsch deal's card points per seat, in the names' order ("18/41/61";
    0 for the dealer who sits out at four), else nothing."""
    if r.kind != "ramsch" or r.ramsch_points is None:
        return ""
    return "/".join(str(p) for p in r.ramsch_points)


def _who(
    series: Series, names_from: Mapping[int, Sequence[str]] | None
) -> tuple[Callable[[int], Sequence[str]], list[str]]:
    """Who played each seat at each deal (``names_from``: deal number ->
    names by seat from that deal on), and each seat's column heading naming
    everyone who played it ("Bruno / Ben")."""
    changes = sorted((names_from or {1: series.names}).items())

    def names_at(number: int) -> Sequence[str]:
        found = [names for first, names in changes if first <= number]
        return found[-1] if found else series.names

    columns = [
        " / ".join(dict.fromkeys(names[seat] for _, names in changes))
        for seat in range(len(series.names))
    ]
    return names_at, columns


def _computer_for(
    computer_moves: Mapping[int, Sequence[int]] | None, number: int, names: Sequence[str]
) -> str:
    """Whom a computer made moves for in deal ``number`` ("Anna / Ben")."""
    return " / ".join(names[x] for x in sorted(set((computer_moves or {}).get(number, ()))))


def sheet_csv(
    series: Series,
    names_from: Mapping[int, Sequence[str]] | None = None,
    computer_moves: Mapping[int, Sequence[int]] | None = None,
) -> str:
    """The sheet with running totals. ``names_from`` (deal number -> names by
    seat from that deal on) credits each deal's dealer and declarer to
    whoever played it, and a seat's column names everyone who played it
    ("Bruno / Ben"). ``computer_moves`` (deal number -> seats, one a move)
    fills the column ``computer for``: whom a computer made moves for in
    that deal (absent, timed out or gone; issue 49, item 1)."""
    out = io.StringIO()
    w = _SafeWriter(out)
    names_at, columns = _who(series, names_from)
    scoring = series.options.scoring
    w.writerow(
        ["deal", "dealer", "kind", "game", "matadors", "bid", "points", "tricks", "value"]
        + ["markers", "computer for"]
        + columns
        + [f"{n} total" for n in columns]
    )
    running = [0] * len(columns)
    for r in series.rows:
        entries = r.entries(scoring)
        running = [a + b for a, b in zip(running, entries, strict=True)]
        names = list(names_at(r.number))
        w.writerow(
            [r.number, names[r.dealer], r.kind, _game_cell(r, names), _matadors(r), r.bid or ""]
            + [
                r.declarer_points if r.kind == "game" else _ramsch_points(r),
                r.declarer_tricks if r.kind == "game" else "",
            ]
            + [r.value or "", _markers(r)]
            + [_computer_for(computer_moves, r.number, names)]
            + list(entries)
            + running
        )
    return out.getvalue()


def print_sheet(
    series: Series,
    console: Console | None = None,
    names_from: Mapping[int, Sequence[str]] | None = None,
    computer_moves: Mapping[int, Sequence[int]] | None = None,
) -> None:
    """The sheet as a table; ``names_from`` and ``computer_moves`` as in
    `sheet_csv` (who played each deal, whom a computer made moves for: the
    column "Computer for" shows when a computer did)."""
    if console is None:
        # A sheet is wide: give it room when printed to a file or a pipe.
        console = Console() if sys.stdout.isatty() else Console(width=160)
    names_at, columns = _who(series, names_from)
    scoring = series.options.scoring
    title = "Seeger-Fabian list" if scoring == "seeger_fabian" else "Plain list"
    table = Table(title=f"{title}: {len(series.rows)} of {series.options.deals_per_list} deals")
    marked = any(computer_moves.values()) if computer_moves else False
    headings = ["No", "Dealer", "Game", "Matadors", "Bid", "Points", "Value", ""]
    for col in headings + (["Computer for"] if marked else []):
        table.add_column(
            col, justify="right" if col in ("No", "Bid", "Points", "Value") else "left"
        )
    for n in columns:
        table.add_column(n, justify="right")
    running = [0] * len(columns)
    for r in series.rows:
        entries = r.entries(scoring)
        running = [a + b for a, b in zip(running, entries, strict=True)]
        cells = [f"{e:+d} = {t}" if e else f"{t}" for e, t in zip(entries, running, strict=True)]
        names = list(names_at(r.number))
        table.add_row(
            str(r.number),
            names[r.dealer],
            _game_cell(r, names),
            _matadors(r),
            str(r.bid) if r.kind == "game" else "",
            f"{r.declarer_points}" if r.kind == "game" else "",
            str(r.value) if r.kind == "game" else "",
            _markers(r),
            *([_computer_for(computer_moves, r.number, names)] if marked else []),
            *cells,
        )
    console.print(table)
    _print_footer(series.totals(), columns, series.options.players, scoring, console)


def _print_footer(
    totals: list[PlayerTotal], names: list[str], players: int, scoring: str, console: Console
) -> None:
    footer = Table(title="Totals")
    footer.add_column("")
    for n in names:
        footer.add_column(n, justify="right")
    lost_bonus = 40 if players == 3 else 30
    footer.add_row("game points", *[str(t.game_points) for t in totals])
    if scoring == "seeger_fabian":
        footer.add_row("won x 50", *[f"{t.won} x 50 = {t.won * 50}" for t in totals])
        footer.add_row("lost x 50", *[f"{t.lost} x 50 = {-t.lost * 50}" for t in totals])
        footer.add_row(
            f"lost by others x {lost_bonus}",
            *[
                f"{t.lost_by_others} x {lost_bonus} = {t.lost_by_others * lost_bonus}"
                for t in totals
            ],
        )
    footer.add_row("total", *[str(t.total) for t in totals])
    footer.add_row("place", *[str(t.place) for t in totals])
    console.print(footer)
