"""What one seat may know of a deal (R3.7), the only thing that crosses to
players, browsers and spectators (ARCHITECTURE.md practice 6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Discard, Play
from .cards import CARDS, CardSet
from .state import DECLARER_PHASES, Phase

if TYPE_CHECKING:
    from .actions import Action
    from .dealstate import DealState
    from .game import Contract, Rules
    from .state import DealResult, Trick

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_BIDDING = Phase.BIDDING
_DONE = Phase.DONE
_KONTRA = Phase.KONTRA
_PLAY = Phase.PLAY


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


@dataclass(frozen=True, slots=True)
class SeatPart:
    """What a seat's view holds beyond the public (spectator) view of the same
    moment (R3.7): its position, its own hand, the skat when this seat may
    see it, and the places of the history where it sees a discard that the
    public view reads as ``discard`` (its own, before the end). Everything
    else of a seat's view is the public view's, so a server that shows one
    moment to many viewers builds the public part once (`seat_part`)."""

    position: int | None
    hand: CardSet
    skat: CardSet | None
    discards: tuple[int, ...]  # indices into the history, shown with their cards


def seat_part(deal: DealState, seat: int | None) -> SeatPart:
    """``seat``'s own part of its view (`SeatPart`; ``None``: the public
    view's, which has none of its own)."""
    pos = None if seat is None else deal.position_of(seat)
    done = deal._phase is _DONE
    d = deal._declarer
    hand = CardSet(deal._hands[pos]) if pos is not None else _NO_CARDS
    skat: CardSet | None = None
    if done or (pos is not None and pos == d and deal._picked_up):
        # before the discard the declarer still sees which two cards he took
        skat = CardSet(deal._skat if deal._discard or done else deal._dealt[3])
    elif pos is not None and deal._pusher == pos and deal._taken:
        skat = CardSet(deal._taken)  # Schieberamsch: the two cards just taken up
    elif pos is not None and deal._skat_known == pos:
        skat = CardSet(deal._skat)  # the two cards this seat pushed on, still the skat
    discards: tuple[int, ...] = ()
    if not done and seat is not None:
        # only a discard reads differently to the others before the end (R3.7)
        discards = tuple(
            i for i, (s, a) in enumerate(deal._history) if s == seat and a.__class__ is Discard
        )
    return SeatPart(pos, hand, skat, discards)


_NO_CARDS = CardSet()


def history_texts(deal: DealState) -> list[str]:
    """The text of each action of the history, made once per action and kept
    on the deal (the server shows every move to every viewer)."""
    entries = deal._history
    texts = deal._texts
    if len(texts) < len(entries):
        texts.extend([str(a) for _, a in entries[len(texts) :]])
    return texts


def public_history(deal: DealState) -> list[tuple[int, str]]:
    """The history as the public view shows it: a discard reads ``discard``
    until the deal is over (R3.7)."""
    texts = history_texts(deal)
    if deal._phase is _DONE:
        return [(s, t) for (s, _), t in zip(deal._history, texts, strict=True)]
    return [
        (s, "discard" if a.__class__ is Discard else t)
        for (s, a), t in zip(deal._history, texts, strict=True)
    ]


def _hand_sizes(deal: DealState) -> tuple[int, ...]:
    sizes = [0] * deal.players
    for p, s in enumerate(deal._seats):
        sizes[s] = deal._hands[p].bit_count()
    return tuple(sizes)


def _trick(deal: DealState) -> tuple[tuple[int, Any], ...]:
    seats, leader = deal._seats, deal._leader
    return tuple((seats[(leader + i) % 3], CARDS[c]) for i, c in enumerate(deal._trick))


def _open_cards(deal: DealState) -> CardSet | None:
    """The declarer's cards, shown to all in an Ouvert game or after a claim."""
    d = deal._declarer
    contract = deal._contract
    if d >= 0 and deal._phase in (_KONTRA, _PLAY, _DONE) and contract is not None:
        if contract.ouvert or deal._claimed:
            return CardSet(deal._hands[d])
    return None


@dataclass(frozen=True, slots=True)
class PlayPart:
    """What the card just played changed in every view of its deal while
    the trick play goes on (`play_part`): the rest of each view is as it
    was before the card, so a server that keeps the views it sent makes
    the new ones from them (docs/protocol.md, "Changes")."""

    seat: int  # the table seat that played
    text: str  # its entry in the history
    current_seat: int | None
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Any], ...]
    finished: Trick | None  # the trick this card completed
    open_cards: CardSet | None


def play_part(deal: DealState) -> PlayPart | None:
    """`PlayPart` of the deal's last action when it is a card played and
    the trick play goes on after it (not the last card, no claim); else
    None (the views are made whole)."""
    if deal._phase is not _PLAY or not deal._history:
        return None
    seat, action = deal._history[-1]
    if action.__class__ is not Play:
        return None
    return PlayPart(
        seat=seat,
        text=history_texts(deal)[-1],
        current_seat=deal.current_seat,
        hand_sizes=_hand_sizes(deal),
        trick=_trick(deal),
        finished=None if deal._trick else deal._tricks[-1],
        open_cards=_open_cards(deal),
    )


def view_of(
    deal: DealState,
    seat: int | None,
    legal: tuple[Action, ...],
    offers: tuple[Action, ...],
) -> View:
    """Build the view of ``seat`` (``None``: spectators), R3.7, with the moves
    the deal lists for it (``legal``, ``offers``: `Deal.view` asks for them):
    the public view's parts and the seat's own (`seat_part`)."""
    part = seat_part(deal, seat)
    done = deal._phase is _DONE
    d = deal._declarer
    contract = deal._contract
    # the history's texts are made once per action, not once per view (the
    # server builds a view per viewer after every move)
    history = public_history(deal)
    if part.discards:
        texts = history_texts(deal)
        for i in part.discards:
            history[i] = (history[i][0], texts[i])
    bidder = listener = None
    if deal._phase is _BIDDING:
        bidder = deal._seats[deal._bidder]
        listener = None if deal._stage == 3 else deal._seats[deal._listener]
    return View(
        seat=seat,
        position=part.position,
        players=deal.players,
        dealer=deal.dealer,
        rules=deal.rules,
        phase=deal._phase,
        current_seat=deal.current_seat,
        seats=deal._seats,  # type: ignore[arg-type]
        hand=part.hand,
        hand_sizes=_hand_sizes(deal),
        skat=part.skat,
        bid=deal._value,
        declarer_seat=None if d < 0 else deal._seats[d],
        contract=contract if deal._phase not in (_BIDDING, *DECLARER_PHASES) else None,
        open_cards=_open_cards(deal),
        trick=_trick(deal),
        tricks=tuple(deal._tricks),
        kontra=deal._kontra >= 0,
        re=deal._re,
        legal_actions=legal,
        history=tuple(history),
        result=deal._result,
        dealt=tuple(CardSet(m) for m in deal._dealt) if done else None,
        bidder=bidder,
        listener=listener,
        offers=offers,
    )
