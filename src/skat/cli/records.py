"""The commands that read records: `replay` (check JSON, list and ISS
records, compare with the server's results), `analyse` (the open-card
analysis of each game), and those of one list record: `sheet` (its score
sheet), `verify` (seed, deals and actions), `export-iss` and `review`
(each decision of a seat judged from its own view)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import click

from ..engine.iss import compare_with_server, parse_iss
from ..engine.records import GameRecord, RecordError, replay
from ..series.files import deals_in, records_in
from . import main
from .common import read_list


# ------------------------------------------------------------------ replay
def _game_summary(deal: Any, rid: str | None) -> dict[str, Any]:
    r = deal.result
    out: dict[str, Any] = {"id": rid}
    if r is None:
        raise RecordError(
            "RECORD_INCOMPLETE", len(deal.history) + 1, "the record ends before the deal is over"
        )
    c = r.contract if r.kind == "game" else None
    val = r.valuation
    out["kind"] = r.kind
    out["declarer_seat"] = r.declarer_seat  # table seat: the index into plain, seeger_fabian
    out["declarer_position"] = r.declarer_position  # 0 forehand, 1 middlehand, 2 rearhand
    out["declarer"] = r.declarer_position  # documented alias of declarer_position
    out["bid"] = r.bid
    out["game"] = None if r.contract is None else r.contract.game.label
    out["hand"] = bool(c and c.hand)
    out["ouvert"] = bool(c and c.ouvert)
    out["schneider_announced"] = bool(c and c.schneider)
    out["schwarz_announced"] = bool(c and c.schwarz)
    out["matadors"] = val.matadors if val else 0
    out["declarer_points"] = r.declarer_points
    out["declarer_tricks"] = r.declarer_tricks
    out["schneider"] = bool(val and val.schneider)
    out["schwarz"] = bool(val and val.schwarz)
    out["overbid"] = bool(val and val.overbid)
    out["won"] = r.won
    out["value"] = r.value
    out["score"] = r.score
    out["seeger_fabian"] = list(r.seeger_fabian)
    out["plain"] = list(r.plain)
    out["ended"] = r.ended
    if r.kind == "ramsch":
        out["ramsch_points"] = list(r.ramsch_points or ())
    if val is not None:
        out["explanation"] = val.explanation
    return out


def _replay_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One object per deal of a list record, replayed as a whole list."""
    from ..series.record import replay_list

    lid = data.get("id")
    try:
        series = replay_list(data).series
    except RecordError as exc:
        return [{"id": lid, "error": {"code": exc.code, "move": exc.move, "message": exc.message}}]
    out = []
    for i, deal in enumerate(series.deals, 1):
        try:
            row = _game_summary(deal, f"{lid or 'list'}-{i}")
        except RecordError as exc:
            row = {
                "id": f"{lid}-{i}",
                "error": {"code": exc.code, "move": exc.move, "message": exc.message},
            }
        out.append(row)
    return out


def _replay_one(kind: str, item: Any) -> dict[str, Any]:
    rid: str | None = None
    try:
        if kind == "bad":
            raise RecordError("MALFORMED_RECORD", 0, str(item))
        if kind == "iss":
            game = parse_iss(item)
            rid = game.id
            deal = replay(game.record)
            out = _game_summary(deal, rid)
            if game.server:
                cmp = compare_with_server(game, deal)
                out["server_agrees"] = cmp.agrees
                if not cmp.agrees:
                    out["server_differences"] = {k: list(v) for k, v in cmp.differences.items()}
                    known = cmp.known
                    out["server_differs"] = {"documented": known is not None, "reason": known}
            if game.notes:
                out["notes"] = game.notes
            return out
        record = GameRecord.from_dict(item)
        rid = record.id
        return _game_summary(replay(record), rid)
    except RecordError as exc:
        if isinstance(item, dict) and rid is None:
            rid = item.get("id")
        return {"id": rid, "error": {"code": exc.code, "move": exc.move, "message": exc.message}}


@main.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--summary", is_flag=True, help="Print counts instead of one object per game.")
def replay_cmd(files: tuple[str, ...], summary: bool) -> None:
    """Replay and check game records (JSON or ISS, detected by content; - for stdin)."""
    counts: Counter[str] = Counter()
    failed = 0
    unreadable = 0  # files: exit 2 (the others are still replayed)
    documented = 0  # differences from the server that a documented quirk explains
    for name in files:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as fh:
                    text = fh.read()
        except OSError as exc:
            click.echo(f"skat replay: cannot read {name}: {exc.strerror}", err=True)
            unreadable += 1
            continue
        for kind, item in records_in(text, name):
            outs = _replay_list(item) if kind == "list" else [_replay_one(kind, item)]
            for out in outs:
                if "error" in out:
                    failed += 1
                    counts["error"] += 1
                else:
                    counts[out["kind"]] += 1
                    if out.get("server_agrees") is False:
                        counts["server_differs"] += 1
                        documented += out["server_differs"]["documented"]
                if not summary:
                    click.echo(json.dumps(out, separators=(",", ":")))
    if summary:
        differs = counts.pop("server_differs", 0)
        parts = [f"{counts.total()} records"] + [f"{k}: {v}" for k, v in sorted(counts.items())]
        if differs:
            parts.append(f"server_differs: {differs} (documented quirks: {documented})")
        click.echo(", ".join(parts))
    if unreadable:
        sys.exit(2)
    if failed:
        sys.exit(1)


# ----------------------------------------------------------------- analyse
@main.command("analyse")
@click.argument("file", type=click.Path(allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game.")
def analyse_cmd(file: str, as_json: bool) -> None:
    """Could the declarer have won? Open-card analysis of each game in FILE.

    FILE holds JSON game records, a list record or ISS records (- for stdin).
    Per trick: the declarer's best final card points (Null: whether he could
    still win) with perfect play and all cards open from that trick on, and
    the first card played that turned the outcome.
    """
    from ..players.analysis import analyse_deal

    try:
        if file == "-":
            text = sys.stdin.read()
        else:
            with open(file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        click.echo(f"skat analyse: cannot read {file}: {exc.strerror}", err=True)
        sys.exit(2)
    failed = 0
    for kind, item in records_in(text, file):
        for rid, deal in deals_in(kind, item):
            if isinstance(deal, RecordError):
                failed += 1
                err = {"code": deal.code, "move": deal.move, "message": deal.message}
                if as_json:
                    click.echo(json.dumps({"id": rid, "error": err}, separators=(",", ":")))
                else:
                    click.echo(f"{rid or 'game'}: cannot replay: {deal.code}: {deal.message}")
                continue
            analysis = analyse_deal(deal, rid)
            if as_json:
                click.echo(json.dumps(analysis.to_dict(), separators=(",", ":")))
            else:
                click.echo(analysis.describe())
    if failed:
        sys.exit(1)


# ------------------------------------------------------------ list records
@main.command("sheet")
@click.argument("path", type=click.Path(allow_dash=True))
@click.option("--csv", "as_csv", is_flag=True, help="CSV with running totals.")
@click.option("--json", "as_json", is_flag=True, help="Rows and totals as JSON.")
def sheet_cmd(path: str, as_csv: bool, as_json: bool) -> None:
    """Print the score sheet (Spielliste) of a list record."""
    from ..series.record import replay_list, who_played
    from ..sheetview import print_sheet, sheet_csv, sheet_json

    data = read_list(path, "sheet")
    try:
        series = replay_list(data).series
        # a server's record: who played each seat from which deal on, and the
        # moves a computer made for an absent person (docs/formats.md)
        names_from, computer_moves = who_played(data, series)
    except RecordError as exc:
        click.echo(f"skat sheet: {exc.code}: {exc.message}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(sheet_json(series)))
    elif as_csv:
        click.echo(sheet_csv(series, names_from or None, computer_moves), nl=False)
    else:
        print_sheet(series, None, names_from or None, computer_moves)


@main.command("verify")
@click.argument("path", type=click.Path(allow_dash=True))
def verify_cmd(path: str) -> None:
    """Check a finished list: seed against commitment, every deal, every action."""
    from ..series.record import verify_list

    data = read_list(path, "verify")
    problems = verify_list(data)
    deals = len(data.get("deals") or [])
    if problems:
        for p in problems:
            click.echo(f"FAILED: {p}")
        sys.exit(1)
    click.echo(
        f"verified: {deals} deals are the shuffles of the committed seed "
        f"{data['commitment'][:16]}..."
    )


@main.command("export-iss")
@click.argument("path", type=click.Path(allow_dash=True))
def export_iss_cmd(path: str) -> None:
    """Write the games of a list record as ISS records (those that fit the
    format: three players, no Kontra, Ramsch or Bock)."""
    from ..engine.iss import to_iss
    from ..series.record import replay_list

    data = read_list(path, "export-iss")
    try:
        series = replay_list(data).series
    except RecordError as exc:
        click.echo(f"skat export-iss: {exc.code}: {exc.message}", err=True)
        sys.exit(1)
    skipped = 0
    for i, deal in enumerate(series.deals, 1):
        record = GameRecord.from_deal(deal, id=str(i))
        try:
            click.echo(to_iss(record))
        except ValueError:
            skipped += 1
    if skipped:
        click.echo(f"skat export-iss: {skipped} deal(s) do not fit the ISS format", err=True)


@main.command("review")
@click.argument("path", type=click.Path(allow_dash=True))
@click.option("--seat", type=int, help="The table seat reviewed (default: every seat).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line (see below).")
def review_cmd(path: str, seat: int | None, as_json: bool) -> None:
    """Review the decisions of a seat in a list record, each judged from
    that seat's own view (no hindsight) by the strong player: per decision
    the action, the best action, the loss in expected Seeger-Fabian points
    and a verdict (fine, inaccuracy, mistake, blunder; docs/players.md).
    After each deal, what the seat's cards promised against what it made
    (luck apart from play), and after the list the same over the list with
    its costliest decisions. With --json: one object per decision
    ("type": "decision"), per deal ("type": "deal") and per seat at the end
    ("type": "list"; the server's list review answers the same)."""
    from ..players.review import Reviewer, deal_review, describe_summary, summary
    from ..series.record import replay_list

    data = read_list(path, "review")
    try:
        series = replay_list(data).series
    except RecordError as exc:
        click.echo(f"skat review: {exc.code}: {exc.message}", err=True)
        sys.exit(1)
    players = series.options.players
    if seat is not None and not 0 <= seat < players:
        click.echo(
            f"skat review: no seat {seat}: the table's seats are 0 to {players - 1}", err=True
        )
        sys.exit(2)
    seats = range(players) if seat is None else [seat]
    reviewer = Reviewer()
    done: dict[int, list[Any]] = {s: [] for s in seats}

    def line(obj: dict[str, Any]) -> None:
        click.echo(json.dumps(obj, separators=(",", ":")))

    for number, deal in enumerate(series.deals, 1):
        if deal.result is None:
            continue  # a deal not over is not reviewed
        for s in seats:
            got = deal_review(deal, s, number, reviewer)
            done[s].append(got)
            for j in got.judged:
                if as_json:
                    line({"type": "decision", **j.to_dict()})
                else:
                    click.echo(f"seat {s} {j.describe()}")
            if as_json:
                line({"type": "deal", **got.luck.to_dict()})
            else:
                click.echo(f"seat {s} {got.describe()}")
    for s in seats:
        total = summary(s, done[s])
        if as_json:
            line({"type": "list", **total})
        else:
            click.echo(f"seat {s} list: {describe_summary(total)}")
