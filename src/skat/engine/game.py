"""Game types, contracts, card order tables and the rules options (R1.3, R3, R4.2, R5).

Per game type the module precomputes the tables the hot path needs, so that
following suit is ``hand & FOLLOW[g][led] or hand`` and a trick winner is three
table lookups.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any, Literal

from .cards import ACE, CARDS, EIGHT, JACK, JACKS, KING, NINE, QUEEN, SEVEN, SUIT_MASKS, TEN, Card


class GameType(IntEnum):
    """The kind of game; the four suits share their suit index with the cards."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3
    GRAND = 4
    NULL = 5
    RAMSCH = 6

    @property
    def is_suit(self) -> bool:
        return self <= 3

    @property
    def label(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> GameType:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"not a game type: {text!r}") from None


#: R5.1 base values.
BASE_VALUE = {
    GameType.DIAMONDS: 9,
    GameType.HEARTS: 10,
    GameType.SPADES: 11,
    GameType.CLUBS: 12,
    GameType.GRAND: 24,
}

#: R5.5 Null values by (hand, ouvert).
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

TRUMP = 4  # effective-suit index of trump
_JACK_ORDER = (Card.CJ, Card.SJ, Card.HJ, Card.DJ)
_PLAIN_ORDER = (ACE, TEN, KING, QUEEN, NINE, EIGHT, SEVEN)
_NULL_ORDER = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)


def _trump_order(g: GameType) -> tuple[Card, ...]:
    if g.is_suit:
        return _JACK_ORDER + tuple(CARDS[8 * g + r] for r in _PLAIN_ORDER)
    if g in (GameType.GRAND, GameType.RAMSCH):
        return _JACK_ORDER
    return ()


#: Trumps from the highest down (R1.3), used for matadors (R5.2).
TRUMP_ORDER: tuple[tuple[Card, ...], ...] = tuple(_trump_order(g) for g in GameType)
#: Mask of trumps per game type.
TRUMPS: tuple[int, ...] = tuple(sum(1 << c for c in TRUMP_ORDER[g]) for g in GameType)


def _effective(g: GameType) -> tuple[int, ...]:
    trumps = TRUMPS[g]
    return tuple(TRUMP if trumps >> c & 1 else c >> 3 for c in range(32))


#: Effective suit of each card (R4.2): 0..3 printed suit, 4 trump.
EFFECTIVE: tuple[tuple[int, ...], ...] = tuple(_effective(g) for g in GameType)


def _suit_masks(g: GameType) -> tuple[int, ...]:
    trumps = TRUMPS[g]
    return tuple(SUIT_MASKS[s] & ~trumps for s in range(4)) + (trumps,)


#: Mask of each effective suit per game type (index 4 = trumps).
SUIT_OF: tuple[tuple[int, ...], ...] = tuple(_suit_masks(g) for g in GameType)
#: Mask of the cards that follow a led card, per game type and card.
FOLLOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(SUIT_OF[g][EFFECTIVE[g][c]] for c in range(32)) for g in GameType
)


def _power(g: GameType) -> tuple[int, ...]:
    order = TRUMP_ORDER[g]
    plain = _NULL_ORDER if g == GameType.NULL else _PLAIN_ORDER
    power = [0] * 32
    for c in range(32):
        if c in order:
            power[c] = 100 + len(order) - order.index(Card(c))
        else:
            power[c] = 1 + len(plain) - plain.index(c & 7)
    return tuple(power)


_POWER = tuple(_power(g) for g in GameType)
#: TRICK_KEY[g][led_effective_suit][card]: the card's strength in a trick with
#: that led suit; 0 for a card that cannot win (R4.4). Highest key wins.
TRICK_KEY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            _POWER[g][c] if EFFECTIVE[g][c] == led or EFFECTIVE[g][c] == TRUMP else 0
            for c in range(32)
        )
        for led in range(5)
    )
    for g in GameType
)

#: Display order of cards in a hand for each game type: trumps first, then suits.
SORT_KEY: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (0 if EFFECTIVE[g][c] == TRUMP else 1 + EFFECTIVE[g][c]) * 100 - _POWER[g][c]
        for c in range(32)
    )
    for g in GameType
)


def sorted_cards(cards: Any, game: GameType | None = None) -> list[Card]:
    """Cards sorted for display in ``game`` (Grand order when ``None``)."""
    key = SORT_KEY[GameType.GRAND if game is None else game]
    return [CARDS[c] for c in sorted(cards, key=key.__getitem__)]


#: The games without announcement levels (`Contract.normalised` leaves them be).
_NO_LEVELS = frozenset((GameType.NULL, GameType.RAMSCH))


@dataclass(frozen=True, slots=True)
class Contract:
    """An announced game (R3.3) with its normalised announcement flags (R3.4)."""

    game: GameType
    hand: bool = False
    schneider: bool = False  # Schneider announced
    schwarz: bool = False  # Schwarz announced
    ouvert: bool = False

    def normalised(self) -> Contract:
        """Apply the implications of R3.4 (Ouvert => Schwarz => Schneider => Hand)."""
        if self.game in _NO_LEVELS:
            return self
        ouvert = self.ouvert
        schwarz = self.schwarz or ouvert
        schneider = self.schneider or schwarz
        hand = self.hand or schneider
        if hand is self.hand and schneider is self.schneider and schwarz is self.schwarz:
            return self  # normalised already (frozen: the same value)
        return Contract(self.game, hand, schneider, schwarz, ouvert)

    @property
    def base_value(self) -> int:
        return BASE_VALUE[self.game]

    @property
    def null_value(self) -> int:
        return NULL_VALUES[self.hand, self.ouvert]

    def __str__(self) -> str:
        """Canonical text with every flag that is set: ``'clubs hand schneider'``.

        Parses back to an equal contract (`Contract.parse`); see `describe`
        for the spoken form.
        """
        flags = ("hand", "schneider", "schwarz", "ouvert")
        return " ".join([self.game.label, *(f for f in flags if getattr(self, f))])

    @property
    def words(self) -> tuple[str, ...]:
        """The name as keys, the highest announcement only (R3.4 implies the
        rest): ``('grand', 'hand', 'schwarz')``, ``('clubs', 'ouvert')``,
        ``('null', 'hand', 'ouvert')``. Front ends word each key."""
        out = [self.game.label]
        suit_ouvert = self.ouvert and self.game != GameType.NULL
        if self.hand and not suit_ouvert:
            out.append("hand")
        if not suit_ouvert:
            if self.schwarz:
                out.append("schwarz")
            elif self.schneider:
                out.append("schneider")
        if self.ouvert:
            out.append("ouvert")
        return tuple(out)

    def describe(self) -> str:
        """Human form: ``'Grand Hand Schwarz announced'``, ``'Clubs ouvert'``."""
        names = {"hand": "Hand", "schneider": "Schneider announced"}
        names["schwarz"] = "Schwarz announced"
        names["ouvert"] = "ouvert" if self.game != GameType.NULL else "Ouvert"
        first, *rest = self.words
        return " ".join([first.capitalize(), *(names[w] for w in rest)])

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``'clubs hand schneider'``; words in any order after the type."""
        words = text.lower().replace(",", " ").split()
        if not words:
            raise ValueError("empty contract")
        game = GameType.parse(words[0])
        flags = {"hand": False, "schneider": False, "schwarz": False, "ouvert": False}
        for w in words[1:]:
            if w == "open":
                w = "ouvert"
            if w not in flags:
                raise ValueError(f"unknown announcement {w!r} in {text!r}")
            flags[w] = True
        return cls(game, **flags)


AllPass = Literal["einpassen", "ramsch"]
KontraWindow = Literal["own_first_card", "first_lead", "trick_one"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one deal (R0.4). Defaults are the ISkO (three players).

    ``concede_after_claim`` exists to replay the International Skat Server's
    second instance (ISS-FORMAT.md 4.4): ``"one"`` lets one defender's
    concession end the deal after the declarer showed his cards.
    ``announce_before_discard`` exists to replay ISS declarations made before
    the discard (ISS-FORMAT.md 2.4, 4.4): after pickup, `Deal.apply` then
    accepts the announcement before the discard (it is not listed among the
    legal actions; the discard follows and play starts). Without it R3.2
    holds (``DISCARD_REQUIRED``).
    """

    players: Literal[3, 4] = 3
    all_pass: AllPass = "einpassen"
    kontra: bool = False
    kontra_window: KontraWindow = "own_first_card"
    kontra_requires_bid: bool = False
    enforce_reachable_announcement: bool = False
    concede_after_claim: Literal["both", "one"] = "both"
    # R6.6: an accepted claim counts the levels claimed ("claimed", the
    # ISkO), or every card to the declarer ("taken", the ISS's reading,
    # which imported ISS records carry)
    claim_levels: Literal["claimed", "taken"] = "claimed"
    announce_before_discard: bool = False
    schieberamsch: bool = False  # a house rule (R9.2): see ramsch.py
    # a house rule: matadors counted at most this many ("with 4, game 5" at
    # most: the jacks only); None, the ISkO: all of them (rules-decisions.md)
    max_matadors: int | None = None

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError(f"players must be 3 or 4, not {self.players!r}")
        if self.all_pass not in ("einpassen", "ramsch"):
            raise ValueError(f"all_pass must be einpassen or ramsch, not {self.all_pass!r}")
        if self.kontra_window not in ("own_first_card", "first_lead", "trick_one"):
            raise ValueError(f"unknown kontra_window {self.kontra_window!r}")
        if self.concede_after_claim not in ("both", "one"):
            raise ValueError("concede_after_claim must be both or one")
        if self.claim_levels not in ("claimed", "taken"):
            raise ValueError("claim_levels must be claimed or taken")
        cap = self.max_matadors
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
            raise ValueError(f"max_matadors must be a positive whole number, not {cap!r}")

    def to_dict(self) -> dict[str, Any]:
        """The options that differ from the defaults (for records)."""
        default = Rules()
        out: dict[str, Any] = {}
        for name in _RULE_FIELDS:
            if getattr(self, name) != getattr(default, name):
                out[name] = getattr(self, name)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data) - set(_RULE_FIELDS)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        return cls(**data)

    def with_(self, **changes: Any) -> Rules:
        return replace(self, **changes)


# The options a record may carry, in the order `to_dict` writes them.
_RULE_FIELDS: tuple[str, ...] = tuple(f for f in Rules.__dataclass_fields__)


assert JACKS == TRUMPS[GameType.GRAND]
