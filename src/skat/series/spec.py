"""The options of a list, declared once (SKAT-RULES.md R0.4; issue 29, point 1).

Each `Option` states its kind, its values or range, its default, the rule
section it switches and its words in the three languages of the interface.
`ListOptions` validates by it, ``GET /api/options`` serves it (with the
server's own table settings, declared the same way in `skat.server`), the
page builds its options form and a table's rules line from it, and
docs/rules-decisions.md's option table is generated from it (a test keeps
the two equal). A house rule is one more entry here and the engine module
that plays it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

LANGS = ("en", "de", "da")
Kind = Literal["choice", "switch", "count", "set"]


@dataclass(frozen=True)
class Words:
    """An option's words in one language: its label, one line of help and,
    for a choice or a set, the words of each value (keyed by the value as
    text)."""

    label: str
    help: str
    values: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """One option: ``choice`` (one of ``choices``), ``switch`` (true or
    false), ``count`` (a whole number from ``low`` to ``high``; ``None`` is
    allowed where the default is ``None``) or ``set`` (any subset of
    ``choices``)."""

    name: str
    kind: Kind
    default: Any
    words: Mapping[str, Words]
    rule: str  # the section of SKAT-RULES.md (R9.4) or of the server's docs
    choices: tuple[Any, ...] = ()
    low: int = 0
    high: int | None = None
    form: bool = True  # on the page's options form
    needs: str = ""  # a switch this option means something under (kontra_window: kontra)
    more: str = ""  # the rules page that explains it (/rules/MORE)

    def __post_init__(self) -> None:
        missing = [lang for lang in LANGS if lang not in self.words]
        if missing:
            raise ValueError(f"option {self.name}: no words in {', '.join(missing)}")
        for lang in LANGS:
            absent = [c for c in self.choices if str(c) not in self.words[lang].values]
            if absent:
                raise ValueError(f"option {self.name}: no {lang} words for {absent}")
        self.check(self.default)

    def check(self, value: object) -> None:
        """`ValueError` with a message that names the option and what it takes,
        unless ``value`` is one of its values (a float or a boolean is never
        a whole number, a number never a switch: nothing is coerced)."""
        if self.kind == "switch":
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be true or false")
        elif self.kind == "choice":
            if not any(_same(value, c) for c in self.choices):
                raise ValueError(f"{self.name} must be {_either(self.choices)}")
        elif self.kind == "count":
            if value is None and self.default is None:
                return
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= self.low
            if not ok or (self.high is not None and isinstance(value, int) and value > self.high):
                if self.high is not None:
                    what = f"a whole number from {self.low} up to {self.high}"
                elif self.low == 1:
                    what = "a positive whole number"
                else:
                    what = f"a whole number from {self.low}"
                raise ValueError(f"{self.name} must be {what}")
        else:
            if not isinstance(value, list | tuple | set | frozenset):
                raise ValueError(f"{self.name} must be a list")
            if not all(isinstance(v, str) for v in value):
                raise ValueError(f"{self.name} must be a list of names")
            unknown = set(value) - set(self.choices)
            if unknown:
                raise ValueError(f"{self.name}: unknown value(s) {', '.join(sorted(unknown))}")

    def describe(self, lang: str | None = None) -> dict[str, Any]:
        """The option's wire form (``GET /api/options``): every language's
        words, or one language's."""
        default = sorted(self.default) if self.kind == "set" else self.default
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": default}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.kind == "count":
            out["low"] = self.low
            out["high"] = self.high
        out.update(rule=self.rule, form=self.form, needs=self.needs, more=self.more)
        langs = LANGS if lang is None else (lang,)
        out["words"] = {
            x: {
                "label": self.words[x].label,
                "help": self.words[x].help,
                "values": dict(self.words[x].values),
            }
            for x in langs
        }
        return out


def _is_int(x: object) -> bool:
    """An integer proper: not a float, not a boolean."""
    return isinstance(x, int) and not isinstance(x, bool)


def _same(value: object, choice: object) -> bool:
    if isinstance(choice, bool) or isinstance(value, bool):
        return value is choice
    if isinstance(choice, int):
        return _is_int(value) and value == choice
    return isinstance(value, str) and value == choice


def _either(choices: Sequence[object]) -> str:
    words = [str(c) for c in choices]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _w(label: str, help: str, **values: str) -> Words:
    # numbers as keyword names: v3 for 3
    return Words(label, help, {k[1:] if k[1:].isdigit() else k: v for k, v in values.items()})


BOCK_TRIGGERS = (
    "sixty_sixty",
    "kontra_re",
    "kontra_lost",
    "value_100",
    "grand_hand",
    "schneider",
    "schwarz",
)
#: R9.4 [Decision]: triggers 1-4 when Bock is on.
DEFAULT_BOCK_TRIGGERS = frozenset(BOCK_TRIGGERS[:4])

_TRIGGER_WORDS = {
    "en": {
        "sixty_sixty": "60:60",
        "kontra_re": "Kontra and Re",
        "kontra_lost": "a lost Kontra",
        "value_100": "a game value of 100 or more",
        "grand_hand": "a won Grand Hand",
        "schneider": "Schneider",
        "schwarz": "Schwarz",
    },
    "de": {
        "sixty_sixty": "60:60",
        "kontra_re": "Kontra und Re",
        "kontra_lost": "ein verlorenes Kontra",
        "value_100": "ein Spielwert von 100 oder mehr",
        "grand_hand": "ein gewonnener Grand Hand",
        "schneider": "Schneider",
        "schwarz": "Schwarz",
    },
    "da": {
        "sixty_sixty": "60:60",
        "kontra_re": "Kontra og Re",
        "kontra_lost": "en tabt Kontra",
        "value_100": "en spilværdi på 100 eller mere",
        "grand_hand": "en vundet Grand Hand",
        "schneider": "Schneider",
        "schwarz": "Schwarz",
    },
}

#: The options of a list (`ListOptions`), in the order of R0.4.
LIST_SPEC: tuple[Option, ...] = (
    Option(
        "players",
        "choice",
        3,
        {
            "en": _w(
                "Players",
                "Three at the table, or four: then the dealer sits out each deal.",
                v3="Three",
                v4="Four",
            ),
            "de": _w(
                "Spieler",
                "Zu dritt am Tisch oder zu viert: Dann setzt der Geber in jedem Spiel aus.",
                v3="Drei",
                v4="Vier",
            ),
            "da": _w(
                "Spillere",
                "Tre ved bordet eller fire: så sidder giveren over i hvert spil.",
                v3="Tre",
                v4="Fire",
            ),
        },
        "R1.4",
        choices=(3, 4),
        more="four",
    ),
    Option(
        "deals",
        "count",
        None,
        {
            "en": _w("Deals", "The list's length; none given: 12 rounds (36 or 48 deals)."),
            "de": _w("Spiele", "Die Länge der Liste; ohne Angabe 12 Runden (36 oder 48 Spiele)."),
            "da": _w("Spil", "Listens længde; uden angivelse 12 runder (36 eller 48 spil)."),
        },
        "R1.6",
        low=1,
        form=False,  # the page asks for rounds (a table setting)
    ),
    Option(
        "first_dealer",
        "count",
        0,
        {
            "en": _w("First dealer", "The seat that deals first."),
            "de": _w("Erster Geber", "Der Platz, der zuerst gibt."),
            "da": _w("Første giver", "Pladsen, der giver først."),
        },
        "R1.6",
        low=0,
        high=3,
        form=False,
    ),
    Option(
        "scoring",
        "choice",
        "seeger_fabian",
        {
            "en": _w(
                "Scoring",
                "Tournament scoring adds 50 for a won game and gives the others 40 "
                "(30 at four) when a game is lost.",
                seeger_fabian="Tournament (Seeger-Fabian)",
                plain="Plain list",
            ),
            "de": _w(
                "Wertung",
                "Die Turnierwertung gibt 50 für ein gewonnenes Spiel und den anderen 40 "
                "(am Vierertisch 30), wenn ein Spiel verloren geht.",
                seeger_fabian="Turnier (Seeger-Fabian)",
                plain="Einfache Liste",
            ),
            "da": _w(
                "Pointtælling",
                "Turneringstælling giver 50 for et vundet spil og de andre 40 (30 ved fire), "
                "når et spil tabes.",
                seeger_fabian="Turnering (Seeger-Fabian)",
                plain="Simpel liste",
            ),
        },
        "R8",
        choices=("seeger_fabian", "plain"),
        more="tournament",
    ),
    Option(
        "all_pass",
        "choice",
        "einpassen",
        {
            "en": _w(
                "When everyone passes",
                "Throw the deal in, or play Ramsch: everyone alone, most card points lose.",
                einpassen="Thrown in",
                ramsch="Ramsch",
            ),
            "de": _w(
                "Wenn alle passen",
                "Einpassen oder Ramsch spielen: Jeder spielt für sich, wer die meisten "
                "Augen hat, verliert.",
                einpassen="Einpassen",
                ramsch="Ramsch",
            ),
            "da": _w(
                "Når alle passer",
                "Giv kortene om, eller spil Ramsch: alle spiller alene, og flest kortpoint taber.",
                einpassen="Giv om",
                ramsch="Ramsch",
            ),
        },
        "R2.6, R9.1",
        choices=("einpassen", "ramsch"),
        more="ramsch",
    ),
    Option(
        "kontra",
        "switch",
        False,
        {
            "en": _w(
                "Kontra and Re",
                "A defender may double the game (Kontra), the declarer may double again (Re).",
            ),
            "de": _w(
                "Kontra und Re",
                "Ein Gegenspieler darf das Spiel verdoppeln (Kontra), der Alleinspieler "
                "noch einmal (Re).",
            ),
            "da": _w(
                "Kontra og Re",
                "En modspiller kan fordoble spillet (Kontra), solisten kan fordoble igen (Re).",
            ),
        },
        "R9.3",
        more="kontra",
    ),
    Option(
        "kontra_window",
        "choice",
        "own_first_card",
        {
            "en": _w(
                "Kontra until",
                "How long a defender may still say Kontra.",
                own_first_card="the defender's own first card",
                first_lead="the first card of the deal",
                trick_one="the end of the first trick",
            ),
            "de": _w(
                "Kontra bis",
                "Wie lange ein Gegenspieler noch Kontra sagen darf.",
                own_first_card="zur eigenen ersten Karte",
                first_lead="zur ersten Karte des Spiels",
                trick_one="zum Ende des ersten Stichs",
            ),
            "da": _w(
                "Kontra indtil",
                "Hvor længe en modspiller stadig må sige Kontra.",
                own_first_card="modspillerens eget første kort",
                first_lead="spillets første kort",
                trick_one="første stik er slut",
            ),
        },
        "R9.3",
        choices=("own_first_card", "first_lead", "trick_one"),
        needs="kontra",
        more="kontra",
    ),
    Option(
        "kontra_requires_bid",
        "switch",
        False,
        {
            "en": _w("Kontra only after a bid", "Only a defender who bid may say Kontra."),
            "de": _w(
                "Kontra nur nach Reizen",
                "Nur ein Gegenspieler, der gereizt hat, darf Kontra sagen.",
            ),
            "da": _w(
                "Kontra kun efter melding", "Kun en modspiller, der har meldt, må sige Kontra."
            ),
        },
        "R9.3",
        form=False,
        needs="kontra",
    ),
    Option(
        "bock",
        "switch",
        False,
        {
            "en": _w(
                "Bock rounds",
                "After a remarkable game (60:60, Kontra and Re, a lost Kontra, value 100 or "
                "more) a round of doubled deals follows.",
            ),
            "de": _w(
                "Bockrunden",
                "Nach einem besonderen Spiel (60:60, Kontra und Re, verlorenes Kontra, "
                "Spielwert 100 oder mehr) folgt eine Runde, in der jedes Spiel doppelt zählt.",
            ),
            "da": _w(
                "Bockrunder",
                "Efter et bemærkelsesværdigt spil (60:60, Kontra og Re, tabt Kontra, værdi 100 "
                "eller mere) følger en runde, hvor hvert spil tæller dobbelt.",
            ),
        },
        "R9.4",
        more="bock",
    ),
    Option(
        "bock_triggers",
        "set",
        DEFAULT_BOCK_TRIGGERS,
        {
            lang: Words(label, help, _TRIGGER_WORDS[lang])
            for lang, label, help in (
                ("en", "Bock after", "The games that bring a Bock round."),
                ("de", "Bock nach", "Die Spiele, nach denen eine Bockrunde folgt."),
                ("da", "Bock efter", "De spil, der udløser en Bockrunde."),
            )
        },
        "R9.4",
        choices=BOCK_TRIGGERS,
        form=False,
        needs="bock",
    ),
    Option(
        "bock_count",
        "choice",
        "per_deal",
        {
            "en": _w(
                "Bock rounds per game",
                "One round per remarkable game, or one per reason it was remarkable.",
                per_deal="one per game",
                per_trigger="one per reason",
            ),
            "de": _w(
                "Bockrunden je Spiel",
                "Eine Runde je besonderem Spiel oder eine je Grund.",
                per_deal="eine je Spiel",
                per_trigger="eine je Grund",
            ),
            "da": _w(
                "Bockrunder pr. spil",
                "Én runde pr. bemærkelsesværdigt spil, eller én pr. grund.",
                per_deal="én pr. spil",
                per_trigger="én pr. grund",
            ),
        },
        "R9.4",
        choices=("per_deal", "per_trigger"),
        form=False,
        needs="bock",
    ),
    Option(
        "bock_overlap",
        "choice",
        "queue",
        {
            "en": _w(
                "Bock rounds together",
                "A new round waits for the pending ones (a deal is doubled once), or starts "
                "at once and doubles again.",
                queue="one after the other",
                stack="doubled again",
            ),
            "de": _w(
                "Mehrere Bockrunden",
                "Eine neue Runde wartet auf die anstehenden (ein Spiel zählt höchstens "
                "doppelt) oder beginnt sofort und verdoppelt noch einmal.",
                queue="nacheinander",
                stack="nochmals verdoppelt",
            ),
            "da": _w(
                "Flere Bockrunder",
                "En ny runde venter på de ventende (et spil tæller højst dobbelt), eller "
                "begynder straks og fordobler igen.",
                queue="efter hinanden",
                stack="fordoblet igen",
            ),
        },
        "R9.4",
        choices=("queue", "stack"),
        form=False,
        needs="bock",
    ),
    Option(
        "ramsch_after_bock",
        "switch",
        False,
        {
            "en": _w(
                "Ramsch round after Bock",
                "Each Bock round is followed by one compulsory Ramsch deal per player.",
            ),
            "de": _w(
                "Ramschrunde nach Bock", "Auf jede Bockrunde folgt ein Pflichtramsch pro Spieler."
            ),
            "da": _w(
                "Ramschrunde efter Bock",
                "Efter hver Bockrunde følger ét tvungent Ramsch-spil pr. spiller.",
            ),
        },
        "R9.5",
        needs="bock",
        more="bock",
    ),
    Option(
        "schieberamsch",
        "switch",
        False,
        {
            "en": _w(
                "Schieberamsch",
                "Before a Ramsch each player in turn takes the skat up and pushes two cards on "
                "(no jack), or pushes it on unseen: each unseen push doubles the deal.",
            ),
            "de": _w(
                "Schieberamsch",
                "Vor einem Ramsch nimmt jeder der Reihe nach den Skat auf und schiebt zwei "
                "Karten weiter (keinen Buben) oder schiebt ihn ungesehen: Jedes ungesehene "
                "Schieben verdoppelt.",
            ),
            "da": _w(
                "Schieberamsch",
                "Før en Ramsch tager hver spiller på skift skatten op og skubber to kort videre "
                "(ingen knægt), eller skubber den videre usét: hvert usete skub fordobler.",
            ),
        },
        "R9.2",
        more="ramsch",
    ),
    Option(
        "enforce_reachable_announcement",
        "switch",
        False,
        {
            "en": _w(
                "Only reachable announcements",
                "A game must be able to reach the bid with the matadors the declarer holds.",
            ),
            "de": _w(
                "Nur erreichbare Ansagen",
                "Ein Spiel muss das Gebot mit den Spitzen des Alleinspielers erreichen können.",
            ),
            "da": _w(
                "Kun opnåelige meldinger",
                "Et spil skal kunne nå meldingen med solistens egne matadorer.",
            ),
        },
        "R3.5",
        form=False,
    ),
    Option(
        "max_matadors",
        "count",
        None,
        {
            "en": _w(
                "Matadors counted at most",
                "A house rule: with or without more matadors than this counts only this many "
                "(4: the jacks only). Empty: all of them, as the ISkO counts.",
            ),
            "de": _w(
                "Spitzen höchstens",
                "Eine Hausregel: Mit oder ohne mehr Spitzen zählt nur so viele (4: nur die "
                "Buben). Leer: alle, wie die ISkO zählt.",
            ),
            "da": _w(
                "Højst antal matadorer",
                "En husregel: med eller uden flere matadorer tæller kun så mange (4: kun "
                "knægtene). Tom: alle, som ISkO tæller.",
            ),
        },
        "rules-decisions.md",
        low=1,
        high=11,
    ),
)

BY_NAME: dict[str, Option] = {o.name: o for o in LIST_SPEC}


def options_table(spec: Sequence[Option] = LIST_SPEC, lang: str = "en") -> str:
    """The Markdown table of ``spec`` (docs/rules-decisions.md keeps a copy
    that a test compares with this)."""
    rows = ["| Option | Values | Default | Rule | What it does |", "|---|---|---|---|---|"]
    for o in spec:
        if o.kind == "switch":
            values = "`true`, `false`"
        elif o.kind == "count":
            values = f"whole number {o.low}..{'' if o.high is None else o.high}"
        else:
            values = ", ".join(f"`{c}`" for c in o.choices)
        if o.kind == "set":
            values = f"any of {values}"
            default = ", ".join(f"`{c}`" for c in o.choices if c in o.default)
        elif o.default is None:
            default = "none"
        else:
            default = f"`{str(o.default).lower() if isinstance(o.default, bool) else o.default}`"
        w = o.words[lang]
        rows.append(f"| `{o.name}` | {values} | {default} | {o.rule} | {w.label}: {w.help} |")
    return "\n".join(rows) + "\n"


__all__ = [
    "BOCK_TRIGGERS",
    "BY_NAME",
    "DEFAULT_BOCK_TRIGGERS",
    "LANGS",
    "LIST_SPEC",
    "Option",
    "Words",
    "options_table",
]
