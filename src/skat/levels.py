"""The levels people choose (issue 50, point 4): each level's name, the
registered player behind it and its words, declared once. The options form,
the computer seats' words, the command line's choices and the docs read
it; `skat.players.levels` turns a level into its player. A module of the
players' layer that imports nothing, so the command line reads it without
loading a player."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """A level people choose: the registered player behind it and its words
    in each language (the options form's label, and a computer seat's word
    beside its name). Declared once here; the options form, the seats, the
    command line's choices and the docs read it."""

    player: str
    label: dict[str, str]
    seat: dict[str, str]


LEVEL_OF: dict[str, Level] = {
    "beginner": Level(
        "novice",
        {"en": "Beginner", "de": "Anfänger", "da": "Begynder"},
        {"en": "beginner", "de": "Anfänger", "da": "begynder"},
    ),
    "casual": Level(
        "club",
        {
            "en": "Casual (club player)",
            "de": "Locker (Vereinsspieler)",
            "da": "Afslappet (klubspiller)",
        },
        {"en": "club player", "de": "Vereinsspieler", "da": "klubspiller"},
    ),
    "strong": Level(
        "search",
        {"en": "Strong", "de": "Stark", "da": "Stærk"},
        {"en": "strong", "de": "stark", "da": "stærk"},
    ),
}
LEVELS: dict[str, str] = {name: level.player for name, level in LEVEL_OF.items()}
DEFAULT_LEVEL = "casual"
