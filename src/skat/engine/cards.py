"""Cards and card sets as bits (R0.3, R1.1, R1.2).

A card is an int 0..31 (`Card`, an IntEnum): ``suit * 8 + rank`` with suits
C, S, H, D and ranks A T K Q J 9 8 7 in that order. A set of cards is a 32-bit
mask; `CardSet` is the small immutable set-like wrapper around it that the
public API hands out. Hot paths work on the raw ``int``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

SUIT_CHARS = "CSHD"
RANK_CHARS = "ATKQJ987"
#: Card points by rank index (R1.2).
RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0)

CLUBS, SPADES, HEARTS, DIAMONDS = 0, 1, 2, 3
ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN = range(8)

ALL_CARDS = 0xFFFFFFFF
SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
JACKS = sum(1 << (8 * s + JACK) for s in range(4))


class Card(IntEnum):
    """One of the 32 cards; ``str(Card.CJ) == 'CJ'`` and ``Card.parse('CJ')``."""

    CA = 0
    CT = 1
    CK = 2
    CQ = 3
    CJ = 4
    C9 = 5
    C8 = 6
    C7 = 7
    SA = 8
    ST = 9
    SK = 10
    SQ = 11
    SJ = 12
    S9 = 13
    S8 = 14
    S7 = 15
    HA = 16
    HT = 17
    HK = 18
    HQ = 19
    HJ = 20
    H9 = 21
    H8 = 22
    H7 = 23
    DA = 24
    DT = 25
    DK = 26
    DQ = 27
    DJ = 28
    D9 = 29
    D8 = 30
    D7 = 31

    @property
    def suit(self) -> int:
        """Printed suit index: 0 clubs, 1 spades, 2 hearts, 3 diamonds."""
        return self >> 3

    @property
    def rank(self) -> int:
        """Rank index in A T K Q J 9 8 7 order."""
        return self & 7

    @property
    def points(self) -> int:
        """Card points (Augen), R1.2."""
        return RANK_POINTS[self & 7]

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``'CJ'``; raises `InvalidCardError` (R10 ``INVALID_CARD``)."""
        try:
            return CARD_BY_NAME[text.strip().upper()]
        except (KeyError, AttributeError):
            from .errors import InvalidCardError

            raise InvalidCardError(f"not a card: {text!r}") from None


CARD_BY_NAME: dict[str, Card] = {c.name: c for c in Card}
CARDS: tuple[Card, ...] = tuple(Card)
#: Card names per card index (``CARD_NAMES[c]`` is ``c.name`` without the enum's descriptor).
CARD_NAMES: tuple[str, ...] = tuple(c.name for c in Card)
#: Card points per card index.
POINTS: tuple[int, ...] = tuple(RANK_POINTS[i & 7] for i in range(32))

# Card points of every 8-bit slice of a mask, so that points(mask) is four lookups.
_BYTE_POINTS = tuple(
    tuple(sum(POINTS[8 * k + i] for i in range(8) if b >> i & 1) for b in range(256))
    for k in range(4)
)
_BYTE_CARDS = tuple(
    tuple(CARDS[8 * k + i] for i in range(8) if b >> i & 1) for k in range(4) for b in range(256)
)
_BYTE_INDICES = tuple(
    tuple(8 * k + i for i in range(8) if b >> i & 1) for k in range(4) for b in range(256)
)


def mask_points(mask: int) -> int:
    """Card points in a mask."""
    p0, p1, p2, p3 = _BYTE_POINTS
    return p0[mask & 255] + p1[mask >> 8 & 255] + p2[mask >> 16 & 255] + p3[mask >> 24 & 255]


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in index order (C, S, H, D; A T K Q J 9 8 7)."""
    b = _BYTE_CARDS
    return (
        b[mask & 255]
        + b[256 + (mask >> 8 & 255)]
        + b[512 + (mask >> 16 & 255)]
        + b[768 + (mask >> 24 & 255)]
    )


def mask_indices(mask: int) -> list[int]:
    """The card indices of a mask in index order, as plain ints (for the
    hot loops of search, where a `Card` would cost its enum lookups)."""
    b = _BYTE_INDICES
    return [
        *b[mask & 255],
        *b[256 + (mask >> 8 & 255)],
        *b[512 + (mask >> 16 & 255)],
        *b[768 + (mask >> 24 & 255)],
    ]


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Parse cards separated by spaces, commas or dots (``'CJ SJ,HA.D7'``)."""
    if isinstance(text, str):
        parts = text.replace(",", " ").replace(".", " ").split()
    else:
        parts = [p if isinstance(p, str) else p.name for p in text]
    return [Card.parse(p) for p in parts]


def to_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class CardSet:
    """An immutable set of cards backed by a 32-bit mask.

    Supports ``in``, ``len``, iteration (in card index order), ``|``, ``&``,
    ``-`` and equality with other card sets. ``str`` gives ``'CJ SJ HA'``.
    """

    __slots__ = ("mask",)

    def __init__(self, cards: int | Iterable[int] | str = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= ALL_CARDS:
                raise ValueError(f"card mask out of range: {cards}")
            self.mask = cards
        elif isinstance(cards, str):
            self.mask = to_mask(parse_cards(cards))
        else:
            self.mask = to_mask(cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        return cls(to_mask(parse_cards(text)))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter(mask_cards(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    @property
    def points(self) -> int:
        return mask_points(self.mask)

    def __str__(self) -> str:
        return " ".join(c.name for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
