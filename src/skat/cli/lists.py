"""The commands that play whole lists without a person: `random-list`
(uniformly random legal actions, a test tool), `selfplay` (computer players
at every seat), both writing the list record, and `tournament simulate` (a
whole tournament of computer players, as JSON)."""

from __future__ import annotations

import json
import sys

import click

from ..levels import LEVELS
from . import main
from .common import list_command, list_options, write_list


# ------------------------------------------------------------------- lists
@main.command("random-list")
@list_command
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

    from ..series import Series, new_seed

    try:
        series = Series(
            list_options(players, deals, options_json),
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
    write_list(out, series, "random-list")


@main.command("selfplay")
@list_command
@click.option(
    "--bots",
    default="heuristic",
    show_default=True,
    help="Player names or levels, comma separated (one for all seats, or one per seat).",
)
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
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

    from ..players import make_player, play_list
    from ..players.levels import player_for
    from ..series import Series, new_seed

    try:
        options = list_options(players, deals, options_json)
        names = [player_for(b.strip(), lab=True) for b in (level or bots).split(",") if b.strip()]
        if len(names) == 1:
            names = names * options.players
        if len(names) != options.players:
            raise ValueError(f"give one bot or {options.players} bots")
        seats = [
            make_player(n, random.Random(rng_seed * 10 + i), lab=True) for i, n in enumerate(names)
        ]
        series = Series(
            options,
            seed=bytes.fromhex(seed_hex) if seed_hex else new_seed(),
            names=[f"{n} {i + 1}" for i, n in enumerate(names)],
        )
    except (ValueError, TypeError) as exc:
        click.echo(f"skat selfplay: {exc}", err=True)
        sys.exit(2)
    play_list(series, seats)
    write_list(out, series, "selfplay")


# -------------------------------------------------------------- tournament
@main.group("tournament")
def tournament_group() -> None:
    """Tournaments of many tables (docs/tournaments.md)."""


@tournament_group.command("simulate")
@click.option("--players", "entrants", type=int, required=True, help="Entrants (1-200).")
@click.option(
    "--series", "series_count", type=int, default=2, show_default=True,
    help="Series (draws to tables) of the tournament.",
)  # fmt: skip
@click.option("--rounds", type=int, default=12, show_default=True, help="Rounds per series.")
@click.option(
    "--level", type=click.Choice(list(LEVELS)), default="casual",
    show_default=True, help="The computer players' level (every entrant is one).",
)  # fmt: skip
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Seed of the draws and the deals."
)
@click.option("--rules", "rules_json", default="{}", help="List options as JSON.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (the default form).")
@click.option("--records", is_flag=True, help="Every table's list record in the output.")
@click.option("--standings", "as_standings", is_flag=True, help="Only the ranking, a line each.")
def tournament_simulate_cmd(
    entrants: int,
    series_count: int,
    rounds: int,
    level: str,
    seed: int,
    rules_json: str,
    as_json: bool,
    records: bool,
    as_standings: bool,
) -> None:
    """Computer players play a whole tournament: the draw of every series,
    each table's totals and the standings, as one JSON object."""
    from ..players.tournament import simulate

    try:
        rules = json.loads(rules_json)
        if not isinstance(rules, dict):
            raise ValueError("--rules must be a JSON object")
        out = simulate(entrants, series_count, rounds, level, seed, rules, records)
    except (ValueError, TypeError) as exc:
        click.echo(f"skat tournament simulate: {exc}", err=True)
        sys.exit(2)
    if as_standings and not as_json:
        # the ranking as a club prints it: place, name, total, games won/lost
        width = max((len(r["name"]) for r in out["standings"]), default=0)
        for r in out["standings"]:
            click.echo(
                f"{r['place']:>3}. {r['name']:<{width}} {r['total']:>+6}"
                f"  won {r['won']}, lost {r['lost']}"
            )
        return
    click.echo(json.dumps(out, indent=1 if not as_json else None))
