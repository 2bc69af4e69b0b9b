"""The ``skat`` command line: replay and check records, reckon game values, benchmark."""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any, NoReturn

import click

from .engine import GameType
from .engine.iss import compare_with_server, iter_iss, parse_iss
from .engine.records import GameRecord, RecordError, replay


class _Failed(Exception):
    pass


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="skat")
def main() -> None:
    """Skat by the International Skat Order: records, values, benchmarks."""


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


def _records_in(text: str, name: str) -> Iterator[tuple[str, Any]]:
    """Yield ("iss", line) or ("json", obj) per game in a file, by content."""
    stripped = text.lstrip()
    if stripped.startswith("(;GM[Skat]"):
        for line in iter_iss(text):
            yield "iss", line
        return
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                yield "json", json.loads(line)
            except json.JSONDecodeError as exc:
                yield "bad", f"{name}:{i}: invalid JSON ({exc.msg})"
        return
    if isinstance(data, list):
        for obj in data:
            yield "json", obj
    elif isinstance(data, dict) and data.get("format") == "skat-list":
        yield "list", data
    else:
        yield "json", data


def _replay_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One object per deal of a list record, replayed as a whole list."""
    from .series.record import replay_list

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
            failed += 1
            continue
        for kind, item in _records_in(text, name):
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
    if failed:
        sys.exit(1)


# ----------------------------------------------------------------- analyse
def _deals_in(kind: str, item: Any) -> Iterator[tuple[str | None, Any]]:
    """(id, finished deal) per game of one loaded item; (id, RecordError) when it fails."""
    rid: str | None = None
    try:
        if kind == "bad":
            raise RecordError("MALFORMED_RECORD", 0, str(item))
        if kind == "list":
            from .series.record import replay_list

            lid = item.get("id")
            rid = lid
            for i, deal in enumerate(replay_list(item).series.deals, 1):
                yield f"{lid or 'list'}-{i}", deal
            return
        if kind == "iss":
            game = parse_iss(item)
            rid = game.id
            yield rid, replay(game.record)
            return
        record = GameRecord.from_dict(item)
        rid = record.id
        yield rid, replay(record)
    except RecordError as exc:
        if isinstance(item, dict) and rid is None:
            rid = item.get("id")
        yield rid, exc


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
    from .players.analysis import analyse_deal

    try:
        if file == "-":
            text = sys.stdin.read()
        else:
            with open(file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        click.echo(f"skat analyse: cannot read {file}: {exc.strerror}", err=True)
        sys.exit(1)
    failed = 0
    for kind, item in _records_in(text, file):
        for rid, deal in _deals_in(kind, item):
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


# ------------------------------------------------------------------- value
def _fail(reason: str, message: str) -> NoReturn:
    click.echo(f"skat value: {reason}: {message}", err=True)
    sys.exit(2)


@main.command("value")
@click.argument("game", type=click.Choice([g.label for g in GameType]))
@click.option("--cards", help="Declarer's cards incl. the skat as far as known (CJ,SJ HA ...).")
@click.option(
    "--matadors", type=int, help="Signed matadors instead of --cards (2 = with 2, -3 = without 3)."
)
@click.option("--hand", is_flag=True)
@click.option("--schneider-announced", is_flag=True)
@click.option("--schwarz-announced", is_flag=True)
@click.option("--ouvert", is_flag=True)
@click.option("--bid", type=int, help="The bid [18].")
@click.option(
    "--points",
    help="Declarer's card points incl. the skat; Ramsch: each player's, in seat order (61,41,18).",
)
@click.option("--tricks", help="Declarer's tricks; Ramsch: each player's, in seat order (5,4,1).")
@click.option("--kontra", is_flag=True)
@click.option("--re", "re_", is_flag=True)
@click.option("--bock", is_flag=True, help="A Bock deal: the entries count double (R9.4).")
@click.option("--players", type=click.Choice(["3", "4"]), default="3", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def value_cmd(
    game: str,
    cards: str | None,
    matadors: int | None,
    hand: bool,
    schneider_announced: bool,
    schwarz_announced: bool,
    ouvert: bool,
    bid: int | None,
    points: str | None,
    tricks: str | None,
    kontra: bool,
    re_: bool,
    bock: bool,
    players: str,
    as_json: bool,
) -> None:
    """Reckon a game value with its explanation (R5-R8), or a Ramsch deal (R9.1):
    `skat value ramsch --points 61,41,18 [--tricks 5,4,1] [--bock]`."""
    from .engine.reckoner import ReckonerError, parse_numbers, reckon, reckon_ramsch

    try:
        if game == GameType.RAMSCH.label:
            not_ramsch = {
                "--cards": cards is not None,
                "--matadors": matadors is not None,
                "--hand": hand,
                "--schneider-announced": schneider_announced,
                "--schwarz-announced": schwarz_announced,
                "--ouvert": ouvert,
                "--bid": bid is not None,
                "--kontra": kontra,
                "--re": re_,
            }
            wrong = [name for name, given in not_ramsch.items() if given]
            if wrong:
                verb = "does" if len(wrong) == 1 else "do"
                _fail("BAD_OPTION", f"{', '.join(wrong)} {verb} not apply to Ramsch (R9.1)")
            if points is None:
                _fail("BAD_POINTS", "give --points A,B,C: the card points of the three players")
            rr = reckon_ramsch(
                parse_numbers(points, "card points"),
                None if tricks is None else parse_numbers(tricks, "tricks"),
                bock=bock,
                players=int(players),
            )
            if as_json:
                click.echo(json.dumps(rr.to_dict()))
                return
            click.echo(f"Ramsch: {rr.explanation}")
            entries = ", ".join(f"{n} {e:+d}" for n, e in zip("ABC", rr.entries, strict=True))
            click.echo(f"entries: {entries}")
            return
        r = reckon(
            game,
            cards=cards,
            matadors=matadors,
            hand=hand,
            schneider_announced=schneider_announced,
            schwarz_announced=schwarz_announced,
            ouvert=ouvert,
            bid=18 if bid is None else bid,
            points=None if points is None else _one_number(points, "BAD_POINTS", "--points"),
            tricks=None if tricks is None else _one_number(tricks, "BAD_TRICKS", "--tricks"),
            kontra=kontra,
            re=re_,
            bock=bock,
            players=int(players),
        )
    except ReckonerError as exc:
        _fail(exc.code, exc.message)
    if as_json:
        click.echo(json.dumps(r.to_dict()))
        return
    val = r.valuation
    result = "won" if val.won else "lost, overbid" if val.overbid else "lost"
    click.echo(f"{r.contract.describe()}: {val.explanation}")
    if r.between is not None:
        low, high = r.between
        click.echo(f"with the skat unseen: worth {low} to {high}, by the skat's cards (R5.2)")
    words = ["Kontra and Re"] if re_ else ["Kontra"] if kontra else []
    words += ["Bock"] if bock else []
    fx = f" (x{r.factor} {', '.join(words)})" if r.factor > 1 else ""
    click.echo(f"{result}: plain list {r.plain:+d}{fx}")
    click.echo(
        f"Seeger-Fabian: declarer {r.seeger_fabian:+d}, "
        f"each of the {r.players - 1} others {r.others:+d}"
    )


def _one_number(text: str, code: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        _fail(code, f"{option} is one whole number for this game, not {text!r}")


# ------------------------------------------------------------------- lists
def _read_list(path: str, command: str) -> dict[str, Any]:
    from .series.record import load_list

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        return load_list(text)
    except OSError as exc:
        click.echo(f"skat {command}: cannot read {path}: {exc.strerror}", err=True)
    except RecordError as exc:
        click.echo(f"skat {command}: {exc.code}: {exc.message}", err=True)
    sys.exit(2)


@main.command("sheet")
@click.argument("path", type=click.Path(allow_dash=True))
@click.option("--csv", "as_csv", is_flag=True, help="CSV with running totals.")
@click.option("--json", "as_json", is_flag=True, help="Rows and totals as JSON.")
def sheet_cmd(path: str, as_csv: bool, as_json: bool) -> None:
    """Print the score sheet (Spielliste) of a list record."""
    from .series.record import replay_list
    from .sheetview import print_sheet, sheet_csv, sheet_json

    data = _read_list(path, "sheet")
    try:
        series = replay_list(data).series
    except RecordError as exc:
        click.echo(f"skat sheet: {exc.code}: {exc.message}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(sheet_json(series)))
    elif as_csv:
        click.echo(sheet_csv(series), nl=False)
    else:
        print_sheet(series)


@main.command("verify")
@click.argument("path", type=click.Path(allow_dash=True))
def verify_cmd(path: str) -> None:
    """Check a finished list: seed against commitment, every deal, every action."""
    from .series.record import verify_list

    data = _read_list(path, "verify")
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
    from .engine.iss import to_iss
    from .series.record import replay_list

    data = _read_list(path, "export-iss")
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


def _list_options(players: str, deals: int | None, options_json: str) -> Any:
    from .series import ListOptions

    extra = json.loads(options_json)
    if not isinstance(extra, dict):
        raise ValueError("--options must be a JSON object")
    return ListOptions.from_dict(
        {**extra, "players": int(players), "deals": deals or extra.get("deals")}
    )


def _write_list(out: str, series: Any, command: str) -> None:
    from .series.record import list_record

    text = json.dumps(list_record(series, id=command), indent=1)
    if out == "-":
        click.echo(text)
        return
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    click.echo(f"wrote {out}: {len(series.rows)} deals, commitment {series.commitment[:16]}...")


_LIST_OPTIONS = [
    click.argument("out", type=click.Path(dir_okay=False, allow_dash=True)),
    click.option("--players", type=click.Choice(["3", "4"]), default="3", show_default=True),
    click.option("--deals", type=int, help="Deals in the list (default 12 rounds)."),
    click.option("--seed", "seed_hex", help="64 hex digits; default a fresh secret seed."),
    click.option("--rng", "rng_seed", type=int, default=0, help="Seed of the players' RNGs."),
    click.option(
        "--options",
        "options_json",
        default="{}",
        help="List options as JSON, e.g. '{\"bock\": true}'.",
    ),
]


def _list_command(f: Any) -> Any:
    for deco in reversed(_LIST_OPTIONS):
        f = deco(f)
    return f


@main.command("random-list")
@_list_command
def random_list_cmd(
    out: str,
    players: str,
    deals: int | None,
    seed_hex: str | None,
    rng_seed: int,
    options_json: str,
) -> None:
    """Play a whole list with uniformly random legal actions and write its record
    (a test tool: every rule path, absurd games)."""
    import random

    from .series import Series, new_seed

    try:
        series = Series(
            _list_options(players, deals, options_json),
            seed=bytes.fromhex(seed_hex) if seed_hex else new_seed(),
        )
    except (ValueError, TypeError) as exc:
        click.echo(f"skat random-list: {exc}", err=True)
        sys.exit(2)
    rng = random.Random(rng_seed)
    while not series.is_over():
        if series.deal.is_terminal():
            series.next_deal()
            continue
        seat = series.deal.current_seat
        assert seat is not None
        legal = series.deal.legal_actions()
        series.apply(legal[rng.randrange(len(legal))], seat)
    _write_list(out, series, "random-list")


@main.command("selfplay")
@_list_command
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="Player names or levels, comma separated (one for all seats, or one per seat).",
)
@click.option(
    "--level",
    type=click.Choice(["beginner", "casual", "strong"]),
    help="The level of every seat's computer player (instead of --bots).",
)
def selfplay_cmd(
    out: str,
    players: str,
    deals: int | None,
    seed_hex: str | None,
    rng_seed: int,
    options_json: str,
    bots: str,
    level: str | None,
) -> None:
    """Computer players play a whole list; writes its list record."""
    import random

    from .players import make_player, play_list
    from .players.levels import player_for
    from .series import Series, new_seed

    try:
        options = _list_options(players, deals, options_json)
        names = [player_for(b.strip()) for b in (level or bots).split(",") if b.strip()]
        if len(names) == 1:
            names = names * options.players
        if len(names) != options.players:
            raise ValueError(f"give one bot or {options.players} bots")
        seats = [make_player(n, random.Random(rng_seed * 10 + i)) for i, n in enumerate(names)]
        series = Series(
            options,
            seed=bytes.fromhex(seed_hex) if seed_hex else new_seed(),
            names=[f"{n} {i + 1}" for i, n in enumerate(names)],
        )
    except (ValueError, TypeError) as exc:
        click.echo(f"skat selfplay: {exc}", err=True)
        sys.exit(2)
    play_list(series, seats)
    _write_list(out, series, "selfplay")


# -------------------------------------------------------------- tournament
@main.group("tournament")
def tournament_group() -> None:
    """Tournaments of many tables (docs/tournaments.md)."""


@tournament_group.command("simulate")
@click.option("--players", "entrants", type=int, required=True, help="Entrants (1-200).")
@click.option("--series", "series_count", type=int, default=2, show_default=True)
@click.option("--rounds", type=int, default=12, show_default=True, help="Rounds per series.")
@click.option(
    "--level", type=click.Choice(["beginner", "casual", "strong"]), default="casual",
    show_default=True,
)  # fmt: skip
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--rules", "rules_json", default="{}", help="List options as JSON.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (the default form).")
@click.option("--records", is_flag=True, help="Every table's list record in the output.")
def tournament_simulate_cmd(
    entrants: int,
    series_count: int,
    rounds: int,
    level: str,
    seed: int,
    rules_json: str,
    as_json: bool,
    records: bool,
) -> None:
    """Computer players play a whole tournament: the draw of every series,
    each table's totals and the standings, as one JSON object."""
    from .players.tournament import simulate

    try:
        rules = json.loads(rules_json)
        if not isinstance(rules, dict):
            raise ValueError("--rules must be a JSON object")
        out = simulate(entrants, series_count, rounds, level, seed, rules, records)
    except (ValueError, TypeError) as exc:
        click.echo(f"skat tournament simulate: {exc}", err=True)
        sys.exit(2)
    click.echo(json.dumps(out, indent=1 if not as_json else None))


# ------------------------------------------------------------------- serve
@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option(
    "--db",
    "db_url",
    help="Database URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB "
    "(default: SQLite in --data; docs/storage.md).",
)
@click.option(
    "--data",
    "data_dir",
    default=lambda: os.environ.get("SKAT_DATA", "data"),
    show_default="$SKAT_DATA or ./data",
    help="Folder of the default SQLite database.",
)
@click.option("--bot-delay", type=float, default=0.8, show_default=True)
@click.option(
    "--next-delay",
    type=float,
    default=6.0,
    show_default=True,
    help="Seconds a result shows before the next deal (one person with computers).",
)
@click.option(
    "--next-delay-people",
    type=float,
    default=20.0,
    show_default=True,
    help="The same at a table of people, unless every person presses Next first.",
)
@click.option("--grace", type=float, default=30.0, show_default=True)
@click.option(
    "--max-rounds",
    type=click.IntRange(1),
    default=12,
    show_default=True,
    help="Longest list a table may have, in rounds.",
)
@click.option(
    "--tables-per-address",
    type=click.IntRange(1),
    default=30,
    show_default=True,
    help="New tables one client address may create per hour.",
)
@click.option(
    "--open-tables-per-address",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Unfinished tables created from one client address, at once.",
)
@click.option(
    "--strong-tables-per-address",
    type=click.IntRange(0),
    default=3,
    show_default=True,
    help="Of those, tables with the strong (searching) computer players.",
)
@click.option(
    "--max-open-tables",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Unfinished tables in total.",
)
@click.option(
    "--send-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds a message may take before its reader is dropped.",
)
@click.option(
    "--send-queue",
    type=click.IntRange(1),
    default=512,
    show_default=True,
    help="Messages waiting for one connection before it is dropped.",
)
@click.option(
    "--worker",
    default="main",
    show_default=True,
    help="This process's name, unique among the processes sharing one database.",
)
@click.option(
    "--lease-ttl",
    type=click.FloatRange(min=1.0, max=600.0),
    default=5.0,
    show_default=True,
    help="Seconds before another process takes over the tables of a dead one.",
)
@click.option(
    "--db-pool-size",
    type=click.IntRange(1),
    default=5,
    show_default=True,
    help="Database connections kept open.",
)
@click.option(
    "--db-max-overflow",
    type=click.IntRange(0),
    default=10,
    show_default=True,
    help="More connections opened under load.",
)
@click.option(
    "--db-pool-timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds to wait for a free database connection.",
)
@click.option(
    "--uds",
    type=click.Path(dir_okay=False),
    default=None,
    help="Listen on this unix socket instead of --host/--port (behind a proxy; docs/deploy.md).",
)
@click.option(
    "--forwarded-allow-ips",
    default="",
    show_default="nobody",
    help="Addresses of proxies whose X-Forwarded-For names the client (comma-separated "
    "addresses or networks; '*': every peer, for --uds behind a proxy). The limits "
    "per client address use it.",
)
@click.option(
    "--ws-ping-interval",
    type=click.FloatRange(min=0.5),
    default=20.0,
    show_default=True,
    help="Seconds between the server's websocket ping frames (a proxy's read timeout "
    "must be longer).",
)
@click.option("--log-level", default="info", show_default=True)
def serve_cmd(
    host: str,
    port: int,
    db_url: str | None,
    data_dir: str,
    bot_delay: float,
    next_delay: float,
    next_delay_people: float,
    grace: float,
    max_rounds: int,
    tables_per_address: int,
    open_tables_per_address: int,
    strong_tables_per_address: int,
    max_open_tables: int,
    send_timeout: float,
    send_queue: int,
    worker: str,
    lease_ttl: float,
    db_pool_size: int,
    db_max_overflow: int,
    db_pool_timeout: float,
    uds: str | None,
    forwarded_allow_ips: str,
    ws_ping_interval: float,
    log_level: str,
) -> None:
    """Run the online server (tables by link, computer players, live sheet).

    The limits are described in docs/protocol.md (Security)."""
    import asyncio
    import logging

    import uvicorn

    from .server import ServerConfig, create_app
    from .server.store import StoreConfig, StoreError, check_database, default_db_url, shown_url

    url = db_url or default_db_url(data_dir)
    store_config = StoreConfig(
        pool_size=db_pool_size, max_overflow=db_max_overflow, pool_timeout=db_pool_timeout
    )
    config = ServerConfig(
        bot_delay=bot_delay,
        next_delay=next_delay,
        next_delay_people=next_delay_people,
        grace=grace,
        max_rounds=max_rounds,
        tables_per_address=tables_per_address,
        open_tables_per_address=open_tables_per_address,
        strong_tables_per_address=strong_tables_per_address,
        max_open_tables=max_open_tables,
        send_timeout=send_timeout,
        send_queue=send_queue,
        worker=worker,
        lease_ttl=lease_ttl,
    )
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", worker):
        raise click.UsageError("--worker: 1 to 64 letters, digits, '_', '.' or '-'")
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    click.echo(f"skat: starting the server (database {shown_url(url)}) ...")
    try:  # a missing driver, a bad URL, a database out of reach: one line, no traceback
        asyncio.run(check_database(url, store_config))
        app = create_app(url, config, store_config)
    except StoreError as exc:
        click.echo(f"skat serve: {exc}", err=True)
        sys.exit(2)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = f"unix:{uds}" if uds else f"http://{shown}:{port}/"
    trusted = [a.strip() for a in forwarded_allow_ips.split(",") if a.strip()]

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:  # the page answers from now on
                click.echo(f"skat: open {where} in a browser (Ctrl+C stops)")

    # Messages are small JSON; compressing each one per viewer costs more CPU
    # than it saves (docs/benchmarks.md, server load).
    server = Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            uds=uds,
            log_level=log_level,
            ws_max_size=65536,
            ws_per_message_deflate=False,
            ws_ping_interval=ws_ping_interval,
            # X-Forwarded-For is anyone's to write: trusted from the given
            # proxies only (uvicorn's default trusts every loopback peer)
            proxy_headers=bool(trusted),
            forwarded_allow_ips=trusted or None,
        )
    )
    server.run()


@main.command("cluster")
@click.option("--workers", type=click.IntRange(1, 16), default=2, show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--folder",
    type=click.Path(file_okay=False),
    default=None,
    help="Where PostgreSQL's data, nginx's files and the logs go (default: a new temporary one).",
)
@click.option("--db", "db_url", help="Use this database instead of starting PostgreSQL.")
@click.option(
    "--lease-ttl", type=click.FloatRange(min=1.0, max=600.0), default=5.0, show_default=True
)
def cluster_cmd(
    workers: int, port: int, folder: str | None, db_url: str | None, lease_ttl: float
) -> None:
    """Run a site of several server processes on this machine: PostgreSQL,
    WORKERS `skat serve` processes and nginx in front (docs/deploy.md).
    Prints the address to open and each worker's process id; a worker that
    dies is restarted; Ctrl+C or SIGTERM stops everything."""
    import tempfile
    from pathlib import Path

    from .server.cluster import Cluster, nginx_binary, run
    from .server.services import postgres_available

    if nginx_binary() is None:
        raise click.ClickException("nginx is not installed (Debian: apt-get install nginx)")
    if db_url is None and not postgres_available():
        raise click.ClickException(
            "PostgreSQL is not installed (Debian: apt-get install postgresql), or give --db"
        )
    where = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="skat-cluster-"))
    where.mkdir(parents=True, exist_ok=True)
    where.chmod(0o755)  # PostgreSQL runs as its own user and keeps its data in here
    cluster = Cluster(
        where,
        postgres_folder=where.resolve() / "postgres",
        workers=workers,
        port=port,
        db_url=db_url,
        worker_args=("--lease-ttl", str(lease_ttl), "--log-level", "warning"),
    )
    try:
        run(cluster, click.echo)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc


# ------------------------------------------------------------------- arena
@main.command("arena")
@click.argument("a")
@click.argument("b")
@click.option("--deals", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
@click.option(
    "--rules", "rules_json", default="{}", help="List options as JSON, e.g. '{\"players\": 4}'."
)
@click.option(
    "--deals-file", type=click.Path(dir_okay=False), help="Reuse (or create) a frozen deal set."
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def arena_cmd(
    a: str,
    b: str,
    deals: int,
    seed: int,
    jobs: int,
    rules_json: str,
    deals_file: str | None,
    as_json: bool,
) -> None:
    """Measure player A against player B on duplicate deals (Seeger-Fabian points per game)."""
    import os

    from rich.console import Console
    from rich.progress import Progress

    from .players import player_names
    from .players.arena import load_decks, make_decks, run_arena, save_decks
    from .series import ListOptions

    try:
        options = ListOptions.from_dict(json.loads(rules_json))
        for name in (a, b):
            if name not in player_names(lab=True):
                known = ", ".join(player_names(lab=True))
                raise ValueError(f"no player named {name!r}; known: {known}")
        if deals < 1 or jobs < 1:
            raise ValueError("--deals and --jobs must be positive")
        decks = None
        if deals_file:
            if os.path.exists(deals_file):
                decks = load_decks(deals_file)
                deals = min(deals, len(decks))
            else:
                decks = make_decks(deals, seed)
                save_decks(deals_file, decks)
    except (ValueError, OSError, KeyError, TypeError) as exc:
        click.echo(f"skat arena: {exc}", err=True)
        sys.exit(2)
    console = Console(stderr=True)
    with Progress(
        console=console, transient=True, disable=as_json or not console.is_terminal
    ) as bar:
        task = bar.add_task(f"{a} vs {b}", total=deals)
        report = run_arena(
            a, b, deals=deals, seed=seed, jobs=jobs, options=options, decks=decks,
            progress=lambda k: bar.advance(task, k),
        )  # fmt: skip
    summary = report.summary()
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(
        f"{a} - {b}: {summary['a_minus_b_per_game']:+.2f} points per game "
        f"(95% interval {summary['ci95'][0]:+.2f} .. {summary['ci95'][1]:+.2f}) over {deals} deals"
    )
    for key in ("a_stats", "b_stats"):
        st = summary[key]
        click.echo(
            f"  {st['name']}: {st['points_per_game']:+.1f} per game; "
            f"declares {100 * st['declare_rate']:.1f}%, "
            f"wins {st['declarer_win_pct']:.1f}% as declarer, "
            f"{st['defender_win_pct']:.1f}% as defender; "
            f"average value {st['average_value']}; thrown-in/Ramsch {st['passed_deals']}; "
            f"overbids {st['overbids']}; decision p50 {st['decision_ms_p50']:.3f} ms, "
            f"p95 {st['decision_ms_p95']:.3f} ms"
        )
        shares = st["game_shares"]
        k, r = st["kontra"], st["re"]
        click.echo(
            f"    games: suit {100 * shares['suit']:.1f}%, Grand {100 * shares['grand']:.1f}%, "
            f"Null {100 * shares['null']:.1f}%; Kontra in {100 * st['kontra_rate']:.1f}% of "
            f"defences ({k['said']} said: {k['won']} won, {k['lost']} lost); "
            f"Re {r['said']} said: {r['won']} won, {r['lost']} lost"
        )
    click.echo(f"  thrown in: {100 * summary['thrown_in_rate']:.1f}% of {summary['plays']} plays")


# ------------------------------------------------------------------- bench
@main.group("bench")
def bench_group() -> None:
    """Benchmarks (see docs/benchmarks.md)."""


@bench_group.command("playouts")
@click.option("--seconds", type=float, default=5.0, show_default=True)
@click.option("--runs", type=int, default=3, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--players", type=click.Choice(["3", "4"]), default="3")
def bench_playouts(seconds: float, runs: int, seed: int, players: str) -> None:
    """Random complete deals through the public API; last line `deals/s: N`."""
    from .bench import playouts
    from .engine import Rules

    rates = []
    for run in range(runs):
        deals, actions, elapsed = playouts(
            seconds, seed + run, Rules(players=3 if players == "3" else 4)
        )
        rates.append(deals / elapsed)
        click.echo(
            f"run {run + 1}: {deals} deals, {actions} actions in {elapsed:.2f} s "
            f"= {deals / elapsed:.0f} deals/s, {actions / elapsed:.0f} actions/s"
        )
    click.echo(f"deals/s: {statistics.median(rates):.0f}")


# -------------------------------------------------------------------- play
@main.command("play")
@click.option(
    "--opponents", nargs=2, metavar="LEFT RIGHT", help="The two computer players [heuristic]."
)
@click.option("--left", help="The computer player on your left (plays after you).")
@click.option("--right", help="The computer player on your right.")
@click.option("--deals", type=int, help="Deals in the list [3].")
@click.option("--seed", "seed_hex", help="64 hex digits for a reproducible list.")
@click.option(
    "--rules", "rules_json", default="{}", help="List options as JSON, e.g. '{\"kontra\": true}'."
)
@click.option(
    "--pause", type=float, help="Seconds before each computer move [0.4 in a terminal, else 0]."
)
@click.option(
    "--level",
    type=click.Choice(["beginner", "casual", "strong"]),
    help="How well both computer players play [casual].",
)
def play_cmd(
    opponents: tuple[str, str] | None,
    left: str | None,
    right: str | None,
    deals: int | None,
    seed_hex: str | None,
    rules_json: str,
    pause: float | None,
    level: str | None,
) -> None:
    """Play Skat in the terminal against two computer players (you sit in seat 0)."""
    from rich.console import Console

    from .players.levels import player_for
    from .series import ListOptions, new_seed
    from .series.shuffle import SEED_BYTES
    from .terminal import run_game

    try:
        names = list(opponents) if opponents else [level or "casual"] * 2
        names = [player_for(left or names[0]), player_for(right or names[1])]
        rules = json.loads(rules_json)
        if not isinstance(rules, dict):
            raise ValueError("--rules must be a JSON object")
        if deals is not None or "deals" not in rules:
            rules["deals"] = 3 if deals is None else deals
        options = ListOptions.from_dict(rules)
        if options.players != 3:
            raise ValueError("skat play seats three players: you and two computer players")
        if seed_hex is not None:
            seed = bytes.fromhex(seed_hex)
            if len(seed) != SEED_BYTES:
                raise ValueError(f"--seed must be {2 * SEED_BYTES} hex digits")
        else:
            seed = new_seed()
        if pause is not None and pause < 0:
            raise ValueError("--pause must not be negative")
    except (ValueError, TypeError) as exc:
        click.echo(f"skat play: {exc}", err=True)
        sys.exit(2)
    console = Console(highlight=False)
    if pause is None:
        pause = 0.4 if console.is_terminal and sys.stdin.isatty() else 0.0
    try:
        run_game(sys.stdin, console, options, names, seed, pause=pause)
    except KeyboardInterrupt:
        console.print("\nInterrupted: you leave the table. Goodbye!")
        sys.exit(130)


if __name__ == "__main__":
    main()
