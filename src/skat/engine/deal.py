"""One deal, from the shuffled deck to the list entries (R1-R8, R9.1, R9.3, R10, R12).

The game contract follows OpenSpiel's vocabulary: `Deal.current_seat`,
`Deal.legal_actions` (deterministic order), `Deal.apply`, `Deal.is_terminal`,
`Deal.result`, `Deal.view` (only what a seat may know, R3.7) and
`Deal.record` (the action log that rebuilds the deal exactly).

Seats are table seats ``0 .. players-1``. Positions are the roles of the deal:
0 forehand (Vorhand), 1 middlehand, 2 rearhand; forehand is the seat left of
the dealer (R1.4). With the default dealer (the last seat) seat and position
coincide, as in ISS records. At a four-player table the dealer sits out.
Names say which one they hold: ``current_seat``, ``declarer_seat``,
``seat_of(position)``, ``declarer_position``, ``position_of(seat)``; the
older ``declarer`` is an alias of ``declarer_position``.

`apply` validates fully before it changes anything: a rejected action raises
an `IllegalActionError` with its R10 reason code and leaves the deal as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import auction, declaring, trickplay
from . import ramsch as _ramsch
from .actions import (
    CLAIM,
    CONCEDE,
    KONTRA,
    NO_KONTRA,
    PICKUP,
    REFUSE,
    Abandon,
    Action,
    Announce,
    Bid,
    Hold,
    Pass,
    Play,
)
from .cards import ALL_CARDS, CARDS, Card, CardSet, mask_cards
from .dealstate import POSITION_NAMES as POSITION_NAMES
from .dealstate import DealState
from .errors import Reason, reject
from .game import (
    FOLLOW,
    Contract,
    GameType,
    Rules,
)
from .state import DECLARER_PHASES, DealResult, Phase, Trick
from .tables import (
    BIDDER_ACTIONS as _BIDDER_ACTIONS,
)
from .tables import (
    BYTE_PLAYS as _BYTE_PLAYS,
)
from .tables import (
    DISCARDS as _DISCARDS,
)
from .tables import (
    FOREHAND_18 as _FOREHAND_18,
)
from .tables import (
    HAND_BY_BID as _HAND_BY_BID,
)
from .tables import (
    LISTENER_ACTIONS as _LISTENER_ACTIONS,
)
from .tables import (
    PICKUP_ANNOUNCES as _PICKUP_ANNOUNCES,
)
from .tables import (
    PICKUP_BY_BID as _PICKUP_BY_BID,
)
from .tables import (
    RE_ACTIONS as _RE_ACTIONS,
)
from .tables import (
    plays_of as _plays,
)
from .views import View, view_of

# Deal order of R1.5: which deck indices each position receives.
DEAL_INDICES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 11, 12, 13, 14, 23, 24, 25),
    (3, 4, 5, 15, 16, 17, 18, 26, 27, 28),
    (6, 7, 8, 19, 20, 21, 22, 29, 30, 31),
    (9, 10),
)

_NEXT = (1, 2, 0)
_INT_TYPES = {int, Card}
_RAMSCH = GameType.RAMSCH


def _dealt_masks(d: Sequence[int]) -> list[int]:
    """The three hands by position and the skat as masks (R1.5, unrolled from
    DEAL_INDICES)."""
    return [
        1 << d[0]
        | 1 << d[1]
        | 1 << d[2]
        | 1 << d[11]
        | 1 << d[12]
        | 1 << d[13]
        | 1 << d[14]
        | 1 << d[23]
        | 1 << d[24]
        | 1 << d[25],
        1 << d[3]
        | 1 << d[4]
        | 1 << d[5]
        | 1 << d[15]
        | 1 << d[16]
        | 1 << d[17]
        | 1 << d[18]
        | 1 << d[26]
        | 1 << d[27]
        | 1 << d[28],
        1 << d[6]
        | 1 << d[7]
        | 1 << d[8]
        | 1 << d[19]
        | 1 << d[20]
        | 1 << d[21]
        | 1 << d[22]
        | 1 << d[29]
        | 1 << d[30]
        | 1 << d[31],
        1 << d[9] | 1 << d[10],
    ]


def _seating(n: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The table seat of each position (forehand left of the dealer, R1.4)
    and the position of each seat (-1: a dealer sitting out), once a table."""
    seats = tuple((dealer + 1 + i) % n for i in range(3))
    pos = [-1] * n
    for p, s in enumerate(seats):
        pos[s] = p
    if dealer.__class__ is int:
        _SEATING[n, dealer] = seats, tuple(pos)
    return seats, tuple(pos)


_SEATING: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_GRAND = int(GameType.GRAND)
_BIDDING = Phase.BIDDING
_DECLARE = Phase.DECLARE
_DISCARD = Phase.DISCARD
_DONE = Phase.DONE
_KONTRA = Phase.KONTRA
_PLAY = Phase.PLAY
_PUSH = Phase.PUSH
_SKAT = Phase.SKAT


class Deal(DealState):
    """The state of one deal; see the module docstring for the contract."""

    __slots__ = ()

    def __init__(
        self,
        deck: Sequence[int | str],
        *,
        rules: Rules | None = None,
        dealer: int | None = None,
        ramsch: bool = False,
        bock_factor: int = 1,
    ) -> None:
        """Deal ``deck`` (a permutation of the 32 cards, R1.5).

        ``ramsch=True`` makes a compulsory Ramsch deal (R9.5, no bidding);
        ``bock_factor`` multiplies the list entries (R9.4).
        """
        rules = rules or Rules()
        raw = list(deck)
        cards: list[int]
        if set(map(type, raw)) <= _INT_TYPES:
            cards = raw  # type: ignore[assignment]
        else:
            cards = [c if isinstance(c, int) else Card.parse(c) for c in raw]
        try:  # the usual deck: 32 different cards make the four masks whole
            hands = _dealt_masks(cards)
            whole = len(cards) == 32 and hands[0] | hands[1] | hands[2] | hands[3] == ALL_CARDS
        except Exception:  # any odd entry: the full check below says what is wrong
            whole = False
        if not whole:
            seen = 0
            try:
                for c in cards:
                    seen |= 1 << c
            except (TypeError, ValueError):
                seen = -1
            if len(cards) != 32 or seen != ALL_CARDS:
                raise ValueError("a deck must hold each of the 32 cards exactly once")
            hands = _dealt_masks(cards)
        n = rules.players
        if dealer is None:
            dealer = n - 1
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        if bock_factor < 1:
            raise ValueError("bock_factor must be at least 1")
        self.rules = rules
        self._kontra_rule = rules.kontra
        self.dealer = dealer
        self.deck = tuple(map(CARDS.__getitem__, cards))
        self.forced_ramsch = ramsch
        self.bock_factor = bock_factor
        seating = _SEATING.get((n, dealer)) if dealer.__class__ is int else None
        self._seats, self._pos = seating or _seating(n, dealer)
        self._dealt = tuple(hands)
        self._hands = hands[:3]
        self._skat = hands[3]
        self._history = []
        self._texts = []
        # auction (R2)
        self._value = 0
        self._bidder = 1
        self._listener = 0
        self._to_act = 1
        self._stage = 1
        self._passed = 0  # bitmask of positions
        self._named = 0  # positions that named or held a value
        # declaration (R3)
        self._declarer = -1
        self._contract = None
        self._picked_up = False
        self._discard = ()
        # play (R4)
        self._g = _GRAND
        self._trick = []
        self._leader = 0
        self._to_play = 0
        self._tricks = []
        self._points = [0, 0, 0]
        self._ntricks = [0, 0, 0]
        # Kontra/Re (R9.3), claims and concessions (ISS)
        self._kontra = -1
        self._re = False
        self._re_pending = False
        self._re_answered = False
        self._asked = 0  # first_lead: index into the defenders' asking order
        self._played = 0  # positions that have played a card
        self._claimed = 0
        self._refused = 0
        self._conceded = 0
        self._result = None
        # Schieberamsch (ramsch.py): whose turn to push, the unseen pushes,
        # who put the skat down last, the two cards the pusher took up
        self._pusher = -1
        self._pushes = 0
        self._skat_known = -1
        self._taken = 0
        self._phase = _BIDDING
        if ramsch:
            _ramsch.start(self)

    # ----------------------------------------------------------------- queries
    @property
    def phase(self) -> Phase:
        return self._phase

    def seat_of(self, position: int) -> int:
        """Table seat of a position (0 forehand, 1 middlehand, 2 rearhand)."""
        return self._seats[position]

    def fresh(self) -> Deal:
        """The same deal again from its first action: the same deck, rules,
        dealer, compulsory Ramsch and Bock factor (for replays)."""
        return Deal(
            self.deck,
            rules=self.rules,
            dealer=self.dealer,
            ramsch=self.forced_ramsch,
            bock_factor=self.bock_factor,
        )

    def is_terminal(self) -> bool:
        return self._phase is _DONE

    @property
    def result(self) -> DealResult | None:
        """The settlement once the deal is over, else ``None``."""
        return self._result

    @property
    def bid(self) -> int:
        """The current value of the auction; after it, the declarer's bid."""
        return self._value

    @property
    def declarer_position(self) -> int | None:
        """Declarer's position (0 forehand, 1 middlehand, 2 rearhand), once the
        auction has one."""
        return None if self._declarer < 0 else self._declarer

    @property
    def declarer_seat(self) -> int | None:
        """Declarer's table seat (the kind of number `current_seat` is), once
        the auction has one."""
        return None if self._declarer < 0 else self._seats[self._declarer]

    @property
    def declarer(self) -> int | None:
        """Alias of `declarer_position`, kept for existing callers.

        A *position*, not a seat: compare it with `position_of(seat)`, never
        with `current_seat` (they differ whenever the dealer is not the last
        seat). New code should say `declarer_position` or `declarer_seat`.
        """
        return None if self._declarer < 0 else self._declarer

    @property
    def contract(self) -> Contract | None:
        return self._contract

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every accepted action as (seat, action)."""
        return tuple(self._history)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    @property
    def current_trick(self) -> tuple[Card, ...]:
        return tuple(CARDS[c] for c in self._trick)

    def hand(self, seat: int) -> CardSet:
        """The cards a seat holds now (full information; see `view` for what it may show)."""
        p = self.position_of(seat)
        return CardSet(0 if p is None else self._hands[p])

    @property
    def skat(self) -> CardSet:
        """The skat now: the dealt skat, empty while the declarer holds twelve
        cards after pickup, then his two discards (R3.1, R3.2)."""
        return CardSet(self._skat)

    def dealt_hand(self, position: int) -> CardSet:
        return CardSet(self._dealt[position])

    @property
    def dealt_skat(self) -> CardSet:
        return CardSet(self._dealt[3])

    # --------------------------------------------------------------- legality
    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The game moves open to ``seat`` (default: the seat to move), in a
        fixed order. Special moves (``claim``, ``concede``, ``timeout``,
        ``leave``) are accepted by `apply` but not listed."""
        ph = self._phase
        if seat is None and ph is _PLAY and not self._kontra_rule and not self._re_pending:
            hand = self._hands[self._to_play]  # hot path of playouts and search
            if self._trick:
                follow = hand & FOLLOW[self._g][self._trick[0]]
                if follow:
                    hand = follow
            b = _BYTE_PLAYS  # `tables.plays_of`, inlined
            return (
                b[hand & 255]
                + b[256 + (hand >> 8 & 255)]
                + b[512 + (hand >> 16 & 255)]
                + b[768 + (hand >> 24 & 255)]
            )
        if seat is None and ph is _BIDDING:
            if self._stage == 3:
                return _FOREHAND_18
            if self._to_act == self._listener:
                return _LISTENER_ACTIONS
            return _BIDDER_ACTIONS[self._value]
        cur = self._current()
        if seat is None:
            p = cur
        elif 0 <= seat < len(self._pos) and self._pos[seat] >= 0:
            p = self._pos[seat]
        else:
            return ()
        if ph is _PLAY:
            if self._re_pending:
                return _RE_ACTIONS if p == cur else ()
            kontra = (KONTRA,) if self.rules.kontra and self._can_kontra(p) else ()
            if p != cur:
                return kontra
            hand = self._hands[p]
            if self._trick:
                follow = hand & FOLLOW[self._g][self._trick[0]]
                if follow:
                    hand = follow
            return _plays(hand) + kontra
        if p < 0 or p != cur:
            return (KONTRA,) if ph is _KONTRA and self._can_kontra(p) else ()
        if ph is _BIDDING:
            if self._stage == 3:
                return _FOREHAND_18
            if p == self._listener:
                return _LISTENER_ACTIONS
            return _BIDDER_ACTIONS[self._value]
        if ph is _SKAT:
            return (PICKUP, *_HAND_BY_BID[self._value])
        if ph is _DISCARD:
            cards = mask_cards(self._hands[p])
            return tuple(
                _DISCARDS[a][b]  # type: ignore[misc]
                for i, a in enumerate(cards)
                for b in cards[i + 1 :]
            )
        if ph is _DECLARE:
            if self.rules.enforce_reachable_announcement:
                return tuple(a for a in _PICKUP_ANNOUNCES if self._announce_ok(a.contract))
            return _PICKUP_BY_BID[self._value]
        if ph is _KONTRA:
            if self._re_pending:
                return _RE_ACTIONS
            return (NO_KONTRA, KONTRA) if self._can_kontra(p) else (NO_KONTRA,)
        if ph is _PUSH:
            return _ramsch.push_actions(self, p)
        return ()

    def offers(self, seat: int) -> tuple[Action, ...]:
        """The special moves open to ``seat`` now, beside `legal_actions`:
        ``concede`` during trick play (not in Ramsch; a defender once),
        ``claim`` for the declarer (once a deal, R6.6: the levels `claim
        schneider` and `claim schwarz` are the same move with a level, not
        listed) and ``refuse`` for a defender who has not answered a claim
        nobody refused or its partner's give-up. ``timeout`` and ``leave``
        come from the table, never from a player, and are not offered."""
        if self._phase is not _PLAY or self._g == _RAMSCH:
            return ()
        p = self._pos[seat] if 0 <= seat < len(self._pos) else -1
        if p < 0:
            return ()
        if p == self._declarer:
            return (CONCEDE,) if self._claimed else (CONCEDE, CLAIM)
        if self._conceded >> p & 1:
            return ()
        return (CONCEDE, REFUSE) if self._asked_to_concede(p) else (CONCEDE,)

    def _announce_ok(self, c: Contract) -> bool:
        try:
            declaring.check_announce(self, c, self._declarer)
        except ValueError:
            return False
        return True

    def _can_kontra(self, p: int) -> bool:
        return trickplay.check_kontra(self, p)

    def kontra_seats(self) -> tuple[int, ...]:
        """The seats that may say Kontra at this moment (R9.3), in seat order,
        whether it is their turn or not: under ``own_first_card`` a defender
        may say it at any moment until his own first card, not only on his
        turn. Empty once Kontra is said (Re is the declarer's turn then).
        Pure and cheap: the game loop asks it before every action."""
        if not self.rules.kontra or self._kontra >= 0:
            return ()
        if self._phase is not _PLAY and self._phase is not _KONTRA:
            return ()
        return tuple(
            sorted(self._seats[p] for p in self._defenders() if trickplay.check_kontra(self, p))
        )

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the seat to move).

        Raises an `IllegalActionError` subclass with the R10 reason code; the
        deal is then unchanged.
        """
        # Fast path: a legal card play by the seat to move (checks inlined).
        if action.__class__ is Play and self._phase is _PLAY and not self._re_pending:
            p = self._to_play
            if seat is None or seat == self._seats[p]:
                card: int = action.card  # type: ignore[attr-defined,unused-ignore]
                hand = self._hands[p]
                if hand >> card & 1:
                    trick = self._trick
                    if trick:
                        follow = FOLLOW[self._g][trick[0]]
                        if not follow >> card & 1 and hand & follow:
                            self._apply_checked(action, seat)  # raises MUST_FOLLOW_SUIT
                    self._history.append((self._seats[p], action))
                    self._hands[p] = hand ^ (1 << card)
                    self._played |= 1 << p
                    trick.append(card)
                    if len(trick) == 3:
                        trickplay.complete_trick(self)
                    else:
                        self._to_play = _NEXT[p]
                    return
        elif self._phase is _BIDDING:
            # Fast path: an auction call by the seat to speak (checks in auction.call).
            p = self._to_act
            cls = action.__class__
            if (seat is None or seat == self._seats[p]) and (
                cls is Bid or cls is Pass or cls is Hold
            ):
                auction.call(self, p, action)
                self._history.append((self._seats[p], action))
                return
        self._apply_checked(action, seat)

    def _apply_checked(self, action: Action, seat: int | None) -> None:
        ph = self._phase
        if ph is _DONE:
            raise reject(Reason.DEAL_OVER, "the deal is over", seat=seat, action=action)
        if not isinstance(action, Action):
            raise reject(Reason.MALFORMED_ACTION, f"not an action: {action!r}", seat=seat)
        if seat is None:
            p = self._current()
            seat = self._seats[p]
        else:
            if not isinstance(seat, int) or not 0 <= seat < len(self._pos) or self._pos[seat] < 0:
                raise reject(
                    Reason.NOT_A_PLAYER, f"seat {seat} takes no part in this deal", seat=seat
                )
            p = self._pos[seat]
        cls = action.__class__
        if cls is Abandon:
            trickplay.abandon(self, p, action)  # type: ignore[arg-type]
        elif ph is _BIDDING:
            auction.call(self, p, action)
        elif ph in DECLARER_PHASES:
            declaring.declaration(self, p, action)
        elif ph is _PUSH:
            _ramsch.push(self, p, action)
        else:  # KONTRA or PLAY
            trickplay.card_phase(self, p, action)
        if cls is Announce and self._contract is not None:
            action = Announce(self._contract)  # the record keeps the normalised flags (R3.4)
        self._history.append((seat, action))

    # ---------------------------------------------------------------- helpers
    def clone(self) -> Deal:
        """An independent copy (for search)."""
        new = Deal.__new__(Deal)
        for name in DealState.__slots__:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._history = list(self._history)
        new._texts = []  # a copy's views (rare in search) make their own
        new._trick = list(self._trick)
        new._tricks = list(self._tricks)
        new._points = list(self._points)
        new._ntricks = list(self._ntricks)
        return new

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may know (R3.7); ``None`` gives the public (spectator) view."""
        pos = None if seat is None else self.position_of(seat)
        legal = self.legal_actions(seat) if seat is not None and pos is not None else ()
        return view_of(self, seat, legal, self.offers(seat) if seat is not None else ())

    def apply_text(self, text: str, seat: int | None = None) -> None:
        """Apply an action in its text form (``'bid 18'``, ``'play CJ'``)."""
        from .actions import parse_action

        self.apply(parse_action(text), seat)

    def __repr__(self) -> str:
        return (
            f"<Deal {self._phase.value} players={self.players} dealer={self.dealer} "
            f"actions={len(self._history)}>"
        )


def deck_from_hands(hands: Sequence[Sequence[int | str]], skat: Sequence[int | str]) -> list[Card]:
    """The deck (R1.5 order) that deals these hands (by position) and skat."""
    deck: list[Card | None] = [None] * 32
    groups = [*hands, skat]
    if len(groups) != 4:
        raise ValueError("three hands and a skat are needed")
    for idx, cards in zip(DEAL_INDICES, groups, strict=True):
        parsed = [CARDS[c] if isinstance(c, int) else Card.parse(c) for c in cards]
        if len(parsed) != len(idx):
            raise ValueError(f"expected {len(idx)} cards, got {len(parsed)}")
        for i, c in zip(idx, parsed, strict=True):
            deck[i] = c
    out = [c for c in deck if c is not None]
    if len(set(out)) != 32:
        raise ValueError("the hands and the skat must hold each card exactly once")
    return out


assert ALL_CARDS == sum(1 << c for c in range(32))
