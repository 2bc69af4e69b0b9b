"""`skat value`: the game-value calculator on the command line, a game
(R5-R8) from the declarer's cards or matadors and what he took, or a Ramsch
deal (R9.1) from each player's card points; in words or as JSON."""

from __future__ import annotations

import json

import click

from ..engine import GameType, Rules
from . import main
from .common import fail, one_number


@main.command("value")
@click.argument("game", type=click.Choice([g.label for g in GameType]))
@click.option("--cards", help="Declarer's cards incl. the skat as far as known (CJ,SJ HA ...).")
@click.option(
    "--matadors", type=int, help="Signed matadors instead of --cards (2 = with 2, -3 = without 3)."
)
@click.option("--hand", is_flag=True, help="A Hand game (the skat not taken up).")
@click.option("--schneider-announced", is_flag=True, help="Schneider announced (Hand games).")
@click.option("--schwarz-announced", is_flag=True, help="Schwarz announced (Hand games).")
@click.option("--ouvert", is_flag=True, help="Played open (Ouvert).")
@click.option("--bid", type=int, help="The bid [18].")
@click.option(
    "--points",
    help="Declarer's card points incl. the skat; Ramsch: each player's, in seat order (61,41,18).",
)
@click.option("--tricks", help="Declarer's tricks; Ramsch: each player's, in seat order (5,4,1).")
@click.option("--kontra", is_flag=True, help="A defender said Kontra: the value doubles.")
@click.option("--re", "re_", is_flag=True, help="The declarer answered Re: it doubles again.")
@click.option("--bock", is_flag=True, help="A Bock deal: the entries count double (R9.4).")
@click.option(
    "--players",
    type=click.Choice(["3", "4"]),
    default="3",
    show_default=True,
    help="Players at the table (the Seeger-Fabian bonus of the others depends on it).",
)
@click.option(
    "--rules",
    "rules_json",
    help="A table's house rules that change a value, as JSON: '{\"max_matadors\": 4}'.",
)
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
    rules_json: str | None,
    as_json: bool,
) -> None:
    """Reckon a game value with its explanation (R5-R8), or a Ramsch deal (R9.1):
    `skat value ramsch --points 61,41,18 [--tricks 5,4,1] [--bock]`."""
    from ..engine.reckoner import ReckonerError, parse_numbers, reckon, reckon_ramsch

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
                fail("BAD_OPTION", f"{', '.join(wrong)} {verb} not apply to Ramsch (R9.1)")
            if points is None:
                fail("BAD_POINTS", "give --points A,B,C: the card points of the three players")
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
            points=None if points is None else one_number(points, "BAD_POINTS", "--points"),
            tricks=None if tricks is None else one_number(tricks, "BAD_TRICKS", "--tricks"),
            kontra=kontra,
            re=re_,
            bock=bock,
            players=int(players),
            rules=_rules(rules_json),
        )
    except ReckonerError as exc:
        fail(exc.code, exc.message)
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


def _rules(text: str | None) -> Rules | None:
    """The deal rules of ``--rules`` (the form of a record's ``rules``)."""
    if text is None:
        return None
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("give a JSON object")
        return Rules.from_dict(data)
    except (ValueError, TypeError) as exc:
        fail("BAD_RULES", f"--rules: {exc}")
