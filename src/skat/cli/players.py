"""The commands of computer players and people: `arena` (player A against
player B on duplicate deals), `bench playouts` (the engine's throughput) and
`play` (a list in the terminal against two computer players; the game itself
is `skat.cli.terminal`)."""

from __future__ import annotations

import json
import statistics
import sys

import click

from ..levels import LEVELS
from . import main


# ------------------------------------------------------------------- arena
@main.command("arena")
@click.argument("a")
@click.argument("b")
@click.option(
    "--deals",
    type=int,
    default=100,
    show_default=True,
    help="Deals, each played in every arrangement of A and B.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals.")
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

    from ..players import player_names
    from ..players.arena import load_decks, make_decks, run_arena, save_decks
    from ..series import ListOptions

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
@click.option("--seconds", type=float, default=5.0, show_default=True, help="Length of one run.")
@click.option("--runs", type=int, default=3, show_default=True, help="Runs; the median is shown.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the random deals.")
@click.option(
    "--players",
    type=click.Choice(["3", "4"]),
    default="3",
    show_default=True,
    help="Players at the table.",
)
def bench_playouts(seconds: float, runs: int, seed: int, players: str) -> None:
    """Random complete deals through the public API; last line `deals/s: N`."""
    from ..bench import playouts
    from ..engine import Rules

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
    "--opponents",
    nargs=2,
    metavar="LEFT RIGHT",
    help="The two computer players by name [the casual level's].",
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
    type=click.Choice(list(LEVELS)),
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

    from ..players.levels import player_for
    from ..series import ListOptions, new_seed
    from ..series.shuffle import SEED_BYTES
    from .terminal import run_game

    try:
        names = list(opponents) if opponents else [level or "casual"] * 2
        names = [player_for(left or names[0], lab=True), player_for(right or names[1], lab=True)]
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
