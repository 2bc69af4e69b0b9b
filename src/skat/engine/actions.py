"""Actions a seat can take, as small immutable values with a canonical text form.

``parse_action('bid 18') == Bid(18)`` and ``str(Bid(18)) == 'bid 18'``. The
text forms are what records, the CLI and the wire protocol use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import CARD_NAMES, CARDS, Card, parse_cards
from .errors import InvalidCardError, MalformedActionError
from .game import Contract


class Action:
    """Base class of all actions."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """The bidder names a value (R2.3); Vorhand taking the game at 18 (R2.4)."""

    value: int

    def __str__(self) -> str:
        return f"bid {self.value}"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """The listener accepts the current value ("yes", R2.3)."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Leave the auction (R2.3)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Pickup(Action):
    """The declarer takes the skat (R3.1)."""

    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """The declarer puts two cards away as the new skat (R3.2)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "discard " + " ".join([CARD_NAMES[c] for c in self.cards])


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """The declarer announces the game (R3.3); flags are normalised by the engine."""

    contract: Contract

    def __str__(self) -> str:
        return f"announce {self.contract}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick (R4)."""

    card: Card

    def __str__(self) -> str:
        return "play " + CARD_NAMES[self.card]


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """A defender doubles (R9.3)."""

    def __str__(self) -> str:
        return "kontra"


@dataclass(frozen=True, slots=True)
class NoKontra(Action):
    """A defender declines to double (``first_lead`` window, R9.3)."""

    def __str__(self) -> str:
        return "no_kontra"


@dataclass(frozen=True, slots=True)
class Re(Action):
    """The declarer redoubles after a Kontra (R9.3)."""

    def __str__(self) -> str:
        return "re"


@dataclass(frozen=True, slots=True)
class NoRe(Action):
    """The declarer declines to redouble (R9.3)."""

    def __str__(self) -> str:
        return "no_re"


#: The levels a declarer may claim when he shows his cards (R6.6).
ClaimLevel = Literal["game", "schneider", "schwarz"]
CLAIM_LEVELS: tuple[ClaimLevel, ...] = ("game", "schneider", "schwarz")


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """The declarer shows his cards (ISS ``SC``); it does not end the deal by
    itself. ``level``: what he claims (R6.6: a higher level than the game
    counts only if claimed when showing): ``claim``, ``claim schneider``,
    ``claim schwarz``."""

    level: ClaimLevel = "game"

    def __str__(self) -> str:
        return "claim" if self.level == "game" else f"claim {self.level}"


@dataclass(frozen=True, slots=True)
class Refuse(Action):
    """A defender says no to the declarer's claim (R6.6): play goes on with
    the declarer's cards open and the deal is scored by its actual outcome.
    (A defender who plays a card without answering refuses too.)"""

    def __str__(self) -> str:
        return "refuse"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """Give up during card play (ISS ``RE``, ISS-FORMAT.md 2.7)."""

    def __str__(self) -> str:
        return "concede"


@dataclass(frozen=True, slots=True)
class Abandon(Action):
    """A seat ran out of time or left the table (ISS ``TI.n``/``LE.n``); ends the deal."""

    reason: Literal["timeout", "leave"] = "timeout"

    def __str__(self) -> str:
        return self.reason


HOLD = Hold()
PASS = Pass()
PICKUP = Pickup()
KONTRA = Kontra()
NO_KONTRA = NoKontra()
RE = Re()
NO_RE = NoRe()
CLAIM = Claim()
REFUSE = Refuse()
CONCEDE = Concede()
TIMEOUT = Abandon("timeout")
LEAVE = Abandon("leave")
#: One shared `Play` per card, so the hot path allocates nothing.
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)

_SIMPLE: dict[str, Action] = {
    str(a): a
    for a in (
        HOLD,
        PASS,
        PICKUP,
        KONTRA,
        NO_KONTRA,
        RE,
        NO_RE,
        CLAIM,
        REFUSE,
        CONCEDE,
        TIMEOUT,
        LEAVE,
    )
}
_CLAIMS: dict[str, Claim] = {lv: Claim(lv) for lv in CLAIM_LEVELS if lv != "game"}


def parse_action(text: str) -> Action:
    """Parse the canonical text form; raises `MalformedActionError` (or
    `InvalidCardError` for a malformed card)."""
    if not isinstance(text, str) or len(text) > 200:
        raise MalformedActionError(f"not an action: {text!r}")
    words = text.strip().split(None, 1)
    if not words:
        raise MalformedActionError("empty action")
    verb = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if verb in _SIMPLE and not rest:
        return _SIMPLE[verb]
    try:
        if verb == "bid":
            return Bid(int(rest))
        if verb == "play":
            (card,) = parse_cards(rest)
            return PLAYS[card]
        if verb == "discard":
            return Discard(tuple(parse_cards(rest)))
        if verb == "announce":
            return Announce(Contract.parse(rest))
        if verb == "claim" and rest.lower() in _CLAIMS:
            return _CLAIMS[rest.lower()]
    except InvalidCardError:
        raise
    except ValueError as exc:
        raise MalformedActionError(f"malformed action {text!r}: {exc}") from None
    raise MalformedActionError(f"unknown action {text!r}")
