"""What a table may be made with (issue 29, point 1): the list's options
(`skat.series.spec`) and the server's own settings of a table (rounds, the
computer players' level, hints, the turn timer), declared the same way.
``GET /api/options`` serves both (`offered`); the page builds its options
form and a table's rules line from that answer; `table_options` checks a
creation body by the same declarations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..players import player_names
from ..players.levels import DEFAULT_LEVEL, LEVEL_OF, LEVELS, player_for
from ..series import LIST_SPEC, ListOptions, Option, Words
from ..series.spec import BY_NAME, LANGS
from .config import ServerConfig
from .table import RESULT_TIMES, TIMERS, Settings

ROUNDS = Option(
    "rounds",
    "count",
    12,
    {
        "en": Words("Rounds", "One round is one deal per player; 12 rounds are an official list."),
        "de": Words(
            "Runden",
            "In einer Runde gibt jeder Spieler einmal; 12 Runden sind eine offizielle Liste.",
        ),
        "da": Words(
            "Runder", "I en runde giver hver spiller én gang; 12 runder er en officiel liste."
        ),
    },
    "R1.6",
    low=1,
    high=12,  # the server's `max_rounds` (`offered`)
)
LEVEL = Option(
    "level",
    "choice",
    DEFAULT_LEVEL,
    {
        "en": Words(
            "Computer players",
            "How well the computer players in the empty seats play. Strong ones search every "
            "card and think a little longer.",
            {name: level.label["en"] for name, level in LEVEL_OF.items()},
        ),
        "de": Words(
            "Computerspieler",
            "Wie gut die Computerspieler auf den freien Plätzen spielen. Starke rechnen jede "
            "Karte durch und denken etwas länger.",
            {name: level.label["de"] for name, level in LEVEL_OF.items()},
        ),
        "da": Words(
            "Computerspillere",
            "Hvor godt computerspillerne på de ledige pladser spiller. Stærke regner hvert kort "
            "igennem og tænker lidt længere.",
            {name: level.label["da"] for name, level in LEVEL_OF.items()},
        ),
    },
    "docs/players.md",
    choices=tuple(LEVELS),
)
HINT = Option(
    "hint",
    "switch",
    False,
    {
        "en": Words(
            "Hints",
            "Each person may ask the strong computer player for a suggestion: shown, never "
            "played for you.",
        ),
        "de": Words(
            "Tipps",
            "Jeder kann den starken Computerspieler um einen Vorschlag bitten: nur angezeigt, "
            "nie für einen gespielt.",
        ),
        "da": Words(
            "Hjælp",
            "Alle kan bede den stærke computerspiller om et forslag: det vises kun og spilles "
            "aldrig for en.",
        ),
    },
    "docs/protocol.md",
)
TIMER = Option(
    "timer",
    "choice",
    0,
    {
        "en": Words(
            "Turn timer",
            "When it runs out, a computer player acts for the seat until its player is back.",
            {"0": "Off", "30": "30 seconds", "60": "60 seconds", "120": "2 minutes"},
        ),
        "de": Words(
            "Bedenkzeit",
            "Läuft sie ab, spielt ein Computerspieler für den Platz, bis sein Spieler zurück ist.",
            {"0": "Aus", "30": "30 Sekunden", "60": "60 Sekunden", "120": "2 Minuten"},
        ),
        "da": Words(
            "Betænkningstid",
            "Når tiden løber ud, spiller en computer for pladsen, indtil spilleren er tilbage.",
            {"0": "Fra", "30": "30 sekunder", "60": "60 sekunder", "120": "2 minutter"},
        ),
    },
    "docs/protocol.md",
    choices=TIMERS,
)
RESULT = Option(
    "result",
    "choice",
    0,
    {
        "en": Words(
            "Time to read the result",
            "How long a deal's result shows before the next deal, unless everyone at the "
            "table presses Next first.",
            {
                "0": "Automatic (alone: until you press Next; with friends: 20 s)",
                "10": "10 seconds",
                "20": "20 seconds",
                "30": "30 seconds",
                "60": "1 minute",
            },
        ),
        "de": Words(
            "Zeit zum Lesen des Ergebnisses",
            "Wie lange das Ergebnis eines Spiels steht, bevor das nächste beginnt, "
            "falls nicht alle am Tisch vorher auf Weiter drücken.",
            {
                "0": "Automatisch (allein: bis du Weiter drückst; mit Freunden: 20 s)",
                "10": "10 Sekunden",
                "20": "20 Sekunden",
                "30": "30 Sekunden",
                "60": "1 Minute",
            },
        ),
        "da": Words(
            "Tid til at læse resultatet",
            "Hvor længe et spils resultat vises, før det næste begynder, medmindre alle "
            "ved bordet trykker Videre først.",
            {
                "0": "Automatisk (alene: til du trykker Videre; med venner: 20 s)",
                "10": "10 sekunder",
                "20": "20 sekunder",
                "30": "30 sekunder",
                "60": "1 minut",
            },
        ),
    },
    "docs/protocol.md",
    choices=RESULT_TIMES,
)
PUBLIC = Option(
    "public",
    "switch",
    False,
    {
        "en": Words(
            "In the lobby",
            "Strangers see the table on the home page while it waits for players, and may "
            "sit down.",
        ),
        "de": Words(
            "In der Lobby",
            "Fremde sehen den Tisch auf der Startseite, solange er auf Spieler wartet, und "
            "können sich setzen.",
        ),
        "da": Words(
            "I lobbyen",
            "Fremde ser bordet på forsiden, mens det venter på spillere, og kan sætte sig.",
        ),
    },
    "docs/protocol.md",
)
#: The server's settings of a table, in the order of the page's form (after
#: the list's options; rounds comes right after players).
SETTINGS_SPEC: tuple[Option, ...] = (ROUNDS, LEVEL, HINT, TIMER, RESULT, PUBLIC)


def rounds_option(config: ServerConfig) -> Option:
    """Rounds up to the server's `max_rounds` (a full list where it allows one)."""
    most = config.max_rounds
    return replace(ROUNDS, high=most, default=min(ROUNDS.default, most))


def offered(config: ServerConfig, lang: str | None = None) -> dict[str, Any]:
    """The answer of ``GET /api/options``: every option with its kind,
    values, default, rule and words (``where``: ``list`` for the list's,
    ``table`` for the server's settings), in the order of the page's form."""
    rounds = rounds_option(config)
    out: list[dict[str, Any]] = []
    for o in LIST_SPEC:
        out.append({**o.describe(lang), "where": "list"})
        if o.name == "players":
            out.append({**rounds.describe(lang), "where": "table"})
    out += [{**o.describe(lang), "where": "table"} for o in SETTINGS_SPEC if o is not ROUNDS]
    # a computer seat's word for its level, beside its name (skat/levels.py)
    langs = LANGS if lang is None else (lang,)
    seats = {x: {name: level.seat[x] for name, level in LEVEL_OF.items()} for x in langs}
    next(o for o in out if o["name"] == "level")["seats"] = seats
    return {"options": out, "bots": list(config.offered_players)}


class NotOffered(ValueError):
    """A computer player that exists but no table may be made with."""


def table_options(data: Any, config: ServerConfig) -> tuple[ListOptions, Settings]:
    """The options and settings of a table-creation body, checked strictly
    (types, ranges, the list length of ``config``); raises `ValueError`."""
    if not isinstance(data, dict):
        raise ValueError("a JSON object is expected")
    data = dict(data)
    rounds = data.pop("rounds", None)
    level = data.pop("level", None)
    bot = data.pop("bot", None)
    timer = data.pop("timer", TIMER.default)
    hint = data.pop("hint", HINT.default)
    if "rest" in data:  # issue 49, item 1: no table plays on for people who have gone
        raise ValueError(
            "rest is no longer an option: every table rests once no person of it "
            "has been connected for the disconnect grace"
        )
    result = data.pop("result", RESULT.default)
    public = data.pop("public", PUBLIC.default)
    lang = data.pop("lang", "en")  # the page's language, not a form field
    if level is not None and bot is not None:
        raise ValueError("give either a level or a computer player, not both")
    if level is not None:
        LEVEL.check(level)
    choice = level if level is not None else bot if bot is not None else DEFAULT_LEVEL
    # the frozen baselines and lab variants are no table's to choose (one of
    # them thinks for seconds with no time budget)
    offered_players = config.offered_players
    if bot is not None and (not isinstance(bot, str) or bot not in player_names()):
        raise ValueError(f"bot must be one of {', '.join(offered_players)} (or give a level)")
    if bot is not None and choice not in offered_players:
        raise NotOffered(f"bot must be one of {', '.join(offered_players)} (or give a level)")
    bot = player_for(choice)
    TIMER.check(timer)
    HINT.check(hint)
    RESULT.check(result)
    PUBLIC.check(public)
    if not isinstance(lang, str) or lang not in LANGS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}")
    players = data.get("players", 3)
    BY_NAME["players"].check(players)
    if rounds is not None:
        rounds_option(config).check(rounds)
        if "deals" in data:
            raise ValueError("give rounds or deals, not both")
        data["deals"] = rounds * players
    options = ListOptions.from_dict(data, config.max_rounds)
    return options, Settings(
        bot=bot, timer=timer, hint=hint, public=public, lang=lang, result=result
    )


__all__ = ["SETTINGS_SPEC", "NotOffered", "offered", "table_options"]
