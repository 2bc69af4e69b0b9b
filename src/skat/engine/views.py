"""What one seat may know of a deal (R3.7), the only thing that crosses to
players, browsers and spectators (ARCHITECTURE.md practice 6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import CardSet

if TYPE_CHECKING:
    from .actions import Action
    from .game import Contract, Rules
    from .state import DealResult, Phase, Trick


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view of a deal; ``seat is None`` is the public (spectator) view.

    Hidden cards never appear: ``hand`` is the seat's own cards, ``skat`` only
    for the declarer after pickup (or for everyone once the deal is over),
    ``open_cards`` the declarer's cards in Ouvert games or after a claim, and
    ``dealt`` (all hands as dealt) only once the deal is over. ``history`` is
    the list of public actions, with a discard shown as ``discard`` to anyone
    but the declarer.
    """

    seat: int | None
    position: int | None
    players: int
    dealer: int
    rules: Rules
    phase: Phase
    current_seat: int | None
    seats: tuple[int, int, int]  # table seat of forehand, middlehand, rearhand
    hand: CardSet
    hand_sizes: tuple[int, ...]  # per table seat
    skat: CardSet | None
    bid: int
    declarer_seat: int | None
    contract: Contract | None
    open_cards: CardSet | None
    trick: tuple[tuple[int, Any], ...]  # (seat, card) played to the current trick
    tricks: tuple[Trick, ...]  # completed tricks (positions, as in `Deal.tricks`)
    kontra: bool
    re: bool
    legal_actions: tuple[Action, ...]
    history: tuple[tuple[int, str], ...]
    result: DealResult | None = None
    dealt: tuple[CardSet, ...] | None = None  # hands by position + dealt skat, after the end
    # the auction's stage (R2): the seat that bids and the seat it bids to
    # (None when nobody listens: forehand alone may still bid 18)
    bidder: int | None = None
    listener: int | None = None
    # moves beside the game moves that the seat may make now: `concede`
    # (not in Ramsch), `claim` (the declarer); never chosen by the game loop
    offers: tuple[Action, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def declarer_position(self) -> int | None:
        """The declarer's position (0 forehand, 1 middlehand, 2 rearhand);
        ``declarer_seat`` is his table seat."""
        s = self.declarer_seat
        return None if s is None else self.seats.index(s)

    def known_cards(self) -> CardSet:
        """Every card this view shows in any place (for leak tests)."""
        m = self.hand.mask
        for cs in (self.skat, self.open_cards):
            if cs is not None:
                m |= cs.mask
        for _, c in self.trick:
            m |= 1 << c
        for t in self.tricks:
            for c in t.cards:
                m |= 1 << c
        if self.dealt is not None:
            for cs in self.dealt:
                m |= cs.mask
        for _, text in self.history:
            for word in text.split()[1:]:
                if len(word) == 2 and word[0] in "CSHD":
                    from .cards import Card

                    try:
                        m |= 1 << Card.parse(word)
                    except ValueError:
                        pass
        return CardSet(m)
