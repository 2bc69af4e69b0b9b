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

from .actions import (
    CLAIM,
    CONCEDE,
    KONTRA,
    NO_KONTRA,
    PICKUP,
    Abandon,
    Action,
    Announce,
    Bid,
    Claim,
    Concede,
    Discard,
    Hold,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Pickup,
    Play,
    Re,
)
from .cards import ALL_CARDS, CARDS, JACKS, POINTS, Card, CardSet, mask_cards, mask_points
from .errors import Reason, reject
from .game import (
    EFFECTIVE,
    FOLLOW,
    NULL_VALUES,
    TRICK_KEY,
    TRUMP,
    Contract,
    GameType,
    Rules,
)
from .ramsch import RamschOutcome
from .ramsch import settle as settle_ramsch
from .state import DealResult, Phase, Trick
from .tables import (
    BIDDER_ACTIONS as _BIDDER_ACTIONS,
)
from .tables import (
    DISCARDS as _DISCARDS,
)
from .tables import (
    FOREHAND_18 as _FOREHAND_18,
)
from .tables import (
    GAME_ORDER as _GAME_ORDER,
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
    PUSH_ACTIONS as _PUSH_ACTIONS,
)
from .tables import (
    RE_ACTIONS as _RE_ACTIONS,
)
from .tables import (
    plays_of as _plays,
)
from .values import (
    BID_SET,
    Valuation,
    reachable_max,
    seeger_fabian_others,
    value_game,
)
from .views import View

# Deal order of R1.5: which deck indices each position receives.
DEAL_INDICES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 11, 12, 13, 14, 23, 24, 25),
    (3, 4, 5, 15, 16, 17, 18, 26, 27, 28),
    (6, 7, 8, 19, 20, 21, 22, 29, 30, 31),
    (9, 10),
)
POSITION_NAMES = ("forehand", "middlehand", "rearhand")
_SUIT_WORDS = ("clubs", "spades", "hearts", "diamonds")  # by effective-suit index

_NULL = GameType.NULL
_NEXT = (1, 2, 0)
_INT_TYPES = {int, Card}
_RAMSCH = GameType.RAMSCH
_PLAY = Phase.PLAY
_DECLARER_PHASES = (Phase.SKAT, Phase.DISCARD, Phase.DECLARE)


class Deal:
    """The state of one deal; see the module docstring for the contract."""

    __slots__ = (
        "_asked",
        "_bidder",
        "_claimed",
        "_conceded",
        "_contract",
        "_dealt",
        "_declarer",
        "_discard",
        "_g",
        "_hands",
        "_history",
        "_kontra",
        "_kontra_rule",
        "_leader",
        "_listener",
        "_named",
        "_ntricks",
        "_passed",
        "_phase",
        "_picked_up",
        "_played",
        "_points",
        "_pos",
        "_pusher",
        "_pushes",
        "_re",
        "_re_answered",
        "_re_pending",
        "_result",
        "_seats",
        "_skat",
        "_skat_known",
        "_stage",
        "_taken",
        "_to_act",
        "_to_play",
        "_trick",
        "_tricks",
        "_value",
        "bock_factor",
        "dealer",
        "deck",
        "forced_ramsch",
        "rules",
    )

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
        if {c.__class__ for c in raw} <= _INT_TYPES:
            cards = raw  # type: ignore[assignment]
        else:
            cards = [c if isinstance(c, int) else Card.parse(c) for c in raw]
        seen = 0
        try:
            for c in cards:
                seen |= 1 << c
        except (TypeError, ValueError):
            seen = -1
        if len(cards) != 32 or seen != ALL_CARDS:
            raise ValueError("a deck must hold each of the 32 cards exactly once")
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
        self.deck: tuple[Card, ...] = tuple(map(CARDS.__getitem__, cards))
        self.forced_ramsch = ramsch
        self.bock_factor = bock_factor
        self._seats = tuple((dealer + 1 + i) % n for i in range(3))
        self._pos = [-1] * n
        for p, s in enumerate(self._seats):
            self._pos[s] = p
        d = cards  # R1.5, unrolled from DEAL_INDICES
        hands = [
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
        self._dealt = tuple(hands)
        self._hands = hands[:3]
        self._skat = hands[3]
        self._history: list[tuple[int, Action]] = []
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
        self._contract: Contract | None = None
        self._picked_up = False
        self._discard: tuple[Card, ...] = ()
        # play (R4)
        self._g = int(GameType.GRAND)
        self._trick: list[int] = []
        self._leader = 0
        self._to_play = 0
        self._tricks: list[Trick] = []
        self._points = [0, 0, 0]
        self._ntricks = [0, 0, 0]
        # Kontra/Re (R9.3), claims and concessions (ISS)
        self._kontra = -1
        self._re = False
        self._re_pending = False
        self._re_answered = False
        self._asked = 0  # first_lead: index into the defenders' asking order
        self._played = 0  # positions that have played a card
        self._claimed = False
        self._conceded = 0
        self._result: DealResult | None = None
        # Schieberamsch (ramsch.py): whose turn to push, the unseen pushes,
        # who put the skat down last, the two cards the pusher took up
        self._pusher = -1
        self._pushes = 0
        self._skat_known = -1
        self._taken = 0
        self._phase = Phase.BIDDING
        if ramsch:
            self._start_ramsch()

    # ----------------------------------------------------------------- queries
    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def players(self) -> int:
        return self.rules.players

    def seat_of(self, position: int) -> int:
        """Table seat of a position (0 forehand, 1 middlehand, 2 rearhand)."""
        return self._seats[position]

    def position_of(self, seat: int) -> int | None:
        """Position of a table seat; ``None`` for the dealer sitting out."""
        if not 0 <= seat < len(self._pos):
            raise ValueError(f"no seat {seat} at a table of {len(self._pos)}")
        p = self._pos[seat]
        return None if p < 0 else p

    @property
    def current_seat(self) -> int | None:
        """The seat whose turn it is, ``None`` when the deal is over."""
        p = self._current()
        return None if p < 0 else self._seats[p]

    def _current(self) -> int:
        ph = self._phase
        if ph is Phase.PLAY:
            return self._declarer if self._re_pending else self._to_play
        if ph is Phase.BIDDING:
            return self._to_act
        if ph is Phase.DONE:
            return -1
        if ph is Phase.KONTRA:
            return self._declarer if self._re_pending else self._defenders()[self._asked]
        if ph is Phase.PUSH:
            return self._pusher
        return self._declarer

    def is_terminal(self) -> bool:
        return self._phase is Phase.DONE

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

    def _defenders(self) -> tuple[int, ...]:
        d = self._declarer
        return tuple(p for p in (0, 1, 2) if p != d)

    # --------------------------------------------------------------- legality
    def legal_actions(self, seat: int | None = None) -> tuple[Action, ...]:
        """The game moves open to ``seat`` (default: the seat to move), in a
        fixed order. Special moves (``claim``, ``concede``, ``timeout``,
        ``leave``) are accepted by `apply` but not listed."""
        ph = self._phase
        if seat is None and ph is Phase.PLAY and not self._kontra_rule and not self._re_pending:
            hand = self._hands[self._to_play]  # hot path of playouts and search
            if self._trick:
                follow = hand & FOLLOW[self._g][self._trick[0]]
                if follow:
                    return _plays(follow)
            return _plays(hand)
        if seat is None and ph is Phase.BIDDING:
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
        if ph is Phase.PLAY:
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
            return (KONTRA,) if ph is Phase.KONTRA and self._can_kontra(p) else ()
        if ph is Phase.BIDDING:
            if self._stage == 3:
                return _FOREHAND_18
            if p == self._listener:
                return _LISTENER_ACTIONS
            return _BIDDER_ACTIONS[self._value]
        if ph is Phase.SKAT:
            return (PICKUP, *_HAND_BY_BID[self._value])
        if ph is Phase.DISCARD:
            cards = mask_cards(self._hands[p])
            return tuple(
                _DISCARDS[a][b]  # type: ignore[misc]
                for i, a in enumerate(cards)
                for b in cards[i + 1 :]
            )
        if ph is Phase.DECLARE:
            if self.rules.enforce_reachable_announcement:
                return tuple(a for a in _PICKUP_ANNOUNCES if self._announce_ok(a.contract))
            return _PICKUP_BY_BID[self._value]
        if ph is Phase.KONTRA:
            if self._re_pending:
                return _RE_ACTIONS
            return (NO_KONTRA, KONTRA) if self._can_kontra(p) else (NO_KONTRA,)
        if ph is Phase.PUSH:
            if not self._taken:
                return _PUSH_ACTIONS
            cards = mask_cards(self._hands[p] & ~JACKS)  # jacks stay (ramsch.py)
            return tuple(
                _DISCARDS[a][b]  # type: ignore[misc]
                for i, a in enumerate(cards)
                for b in cards[i + 1 :]
            )
        return ()

    def offers(self, seat: int) -> tuple[Action, ...]:
        """The special moves open to ``seat`` now, beside `legal_actions`:
        ``concede`` during trick play (not in Ramsch; a defender once) and
        ``claim`` for the declarer (once). ``timeout`` and ``leave`` come from
        the table, never from a player, and are not offered."""
        if self._phase is not Phase.PLAY or self._g == _RAMSCH:
            return ()
        p = self._pos[seat] if 0 <= seat < len(self._pos) else -1
        if p < 0:
            return ()
        if p == self._declarer:
            return (CONCEDE,) if self._claimed else (CONCEDE, CLAIM)
        return () if self._conceded >> p & 1 else (CONCEDE,)

    def _announce_ok(self, c: Contract) -> bool:
        try:
            self._check_announce(c, self._declarer)
        except ValueError:
            return False
        return True

    def _can_kontra(self, p: int) -> bool:
        return self._check_kontra(p)

    def kontra_seats(self) -> tuple[int, ...]:
        """The seats that may say Kontra at this moment (R9.3), in seat order,
        whether it is their turn or not: under ``own_first_card`` a defender
        may say it at any moment until his own first card, not only on his
        turn. Empty once Kontra is said (Re is the declarer's turn then).
        Pure and cheap: the game loop asks it before every action."""
        if not self.rules.kontra or self._kontra >= 0:
            return ()
        if self._phase is not Phase.PLAY and self._phase is not Phase.KONTRA:
            return ()
        return tuple(sorted(self._seats[p] for p in self._defenders() if self._check_kontra(p)))

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
                        self._complete_trick()
                    else:
                        self._to_play = _NEXT[p]
                    return
        elif self._phase is Phase.BIDDING:
            # Fast path: an auction call by the seat to speak (checks in _auction).
            p = self._to_act
            cls = action.__class__
            if (seat is None or seat == self._seats[p]) and (
                cls is Bid or cls is Pass or cls is Hold
            ):
                self._auction(p, action)
                self._history.append((self._seats[p], action))
                return
        self._apply_checked(action, seat)

    def _apply_checked(self, action: Action, seat: int | None) -> None:
        ph = self._phase
        if ph is Phase.DONE:
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
            self._abandon(p, action)  # type: ignore[arg-type]
        elif ph is Phase.BIDDING:
            self._auction(p, action)
        elif ph in _DECLARER_PHASES:
            self._declaration(p, action)
        elif ph is Phase.PUSH:
            self._push(p, action)
        else:  # KONTRA or PLAY
            self._card_phase(p, action)
        if cls is Announce and self._contract is not None:
            action = Announce(self._contract)  # the record keeps the normalised flags (R3.4)
        self._history.append((seat, action))

    def _wrong_phase(self, p: int, action: Action) -> Exception:
        return reject(
            Reason.WRONG_PHASE,
            f"'{action}' is not possible during {self._phase.value}",
            seat=self._seats[p],
            action=action,
        )

    def _turn(self, p: int, action: Action) -> None:
        if p != self._current():
            raise reject(
                Reason.NOT_YOUR_TURN,
                f"it is {POSITION_NAMES[self._current()]}'s turn",
                seat=self._seats[p],
                action=action,
            )

    # -- auction (R2)
    def _auction(self, p: int, action: Action) -> None:
        seat = self._seats[p]
        cls = action.__class__
        if cls not in (Bid, Hold, Pass):
            raise self._wrong_phase(p, action)
        if self._passed >> p & 1:
            raise reject(Reason.ALREADY_PASSED, "you have passed", seat=seat, action=action)
        self._turn(p, action)
        if cls is Bid:
            value: int = action.value  # type: ignore[attr-defined]
            if self._stage != 3 and p == self._listener:
                raise reject(
                    Reason.LISTENER_CANNOT_BID,
                    "the listener holds or passes",
                    seat=seat,
                    action=action,
                )
            if value not in BID_SET:
                raise reject(
                    Reason.BID_NOT_IN_LIST, f"{value} is no game value", seat=seat, action=action
                )
            if value <= self._value:
                raise reject(
                    Reason.BID_NOT_HIGHER,
                    f"the bid must exceed {self._value}",
                    seat=seat,
                    action=action,
                )
            if self._stage == 3:
                if value != 18:
                    raise reject(
                        Reason.VORHAND_TAKES_AT_18,
                        "forehand may only take the game at 18",
                        seat=seat,
                        action=action,
                    )
                self._value = 18
                self._named |= 1
                self._end_auction(0)
                return
            self._value = value
            self._named |= 1 << p
            self._to_act = self._listener
        elif cls is Hold:
            if self._stage == 3 or p != self._listener:
                raise reject(
                    Reason.BIDDER_CANNOT_HOLD, "the bidder bids or passes", seat=seat, action=action
                )
            self._named |= 1 << p
            self._to_act = self._bidder
        else:
            self._passed |= 1 << p
            if self._stage == 1:
                survivor = self._listener if p == self._bidder else self._bidder
                self._stage, self._bidder, self._listener = 2, 2, survivor
                self._to_act = 2
            elif self._stage == 2:
                survivor = self._listener if p == self._bidder else self._bidder
                if self._value:
                    self._end_auction(survivor)
                else:  # nobody named a number: forehand may take the game at 18 (R2.4)
                    self._stage, self._bidder = 3, 0  # forehand bids, to nobody
                    self._to_act = 0
            else:
                self._end_auction(-1)

    def _end_auction(self, declarer: int) -> None:
        if declarer >= 0:
            self._declarer = declarer
            self._phase = Phase.SKAT
        elif self.rules.all_pass == "ramsch":
            self._start_ramsch()
        else:
            self._finish_passed()

    # -- skat and announcement (R3)
    def _declaration(self, p: int, action: Action) -> None:
        cls = action.__class__
        if cls not in (Pickup, Discard, Announce):
            raise self._wrong_phase(p, action)
        self._turn(p, action)
        seat = self._seats[p]
        ph = self._phase
        if cls is Pickup:
            if ph is not Phase.SKAT:
                raise reject(
                    Reason.SKAT_ALREADY_TAKEN, "the skat is taken", seat=seat, action=action
                )
            self._hands[p] |= self._skat
            self._skat = 0  # the two cards are in his hand now (R3.1)
            self._picked_up = True
            self._phase = Phase.DISCARD
        elif cls is Discard:
            if ph is Phase.SKAT:
                raise reject(
                    Reason.PICKUP_REQUIRED, "pick up the skat first", seat=seat, action=action
                )
            if ph is Phase.DECLARE:
                raise reject(
                    Reason.ALREADY_DISCARDED, "you have discarded", seat=seat, action=action
                )
            cards: tuple[Card, ...] = action.cards  # type: ignore[attr-defined]
            mask = self._two_of_twelve(p, action, "discard")
            self._hands[p] &= ~mask
            self._skat = mask
            self._discard = tuple(cards)
            self._phase = Phase.DECLARE
            if self._contract is not None:  # announced before the discard (ISS)
                self._begin_game(self._contract)
        else:
            contract = self._check_announce(action.contract, p)  # type: ignore[attr-defined]
            self._contract = contract
            if ph is not Phase.DISCARD:
                self._begin_game(contract)

    def _two_of_twelve(self, p: int, action: Action, verb: str) -> int:
        """The mask of a `Discard`'s two cards, checked to be two different
        cards of ``p``'s hand (R3.2; the Schieberamsch push too)."""
        cards: tuple[Card, ...] = action.cards  # type: ignore[attr-defined]
        mask = 0
        for c in cards:
            mask |= 1 << c
        if len(cards) != 2 or mask.bit_count() != 2 or mask & ~self._hands[p]:
            raise reject(
                Reason.DISCARD_INVALID,
                f"{verb} exactly two different cards of your twelve",
                seat=self._seats[p],
                action=action,
            )
        return mask

    def _begin_game(self, contract: Contract) -> None:
        self._start_play(int(contract.game))
        if self.rules.kontra and self.rules.kontra_window == "first_lead":
            self._phase = Phase.KONTRA
            self._asked = 0

    def _check_announce(self, c: Contract, p: int) -> Contract:
        seat = self._seats[p]
        ph = self._phase
        if c.game == _RAMSCH:
            raise reject(Reason.MALFORMED_ACTION, "Ramsch cannot be announced", seat=seat)
        if ph is Phase.SKAT:
            c = c.normalised()
            if not c.hand:
                raise reject(Reason.PICKUP_REQUIRED, "pick up the skat or play Hand", seat=seat)
        else:
            if c.hand:
                raise reject(Reason.HAND_AFTER_PICKUP, "no Hand game after pickup", seat=seat)
            if ph is Phase.DISCARD:
                if not self.rules.announce_before_discard:
                    raise reject(Reason.DISCARD_REQUIRED, "discard two cards first", seat=seat)
                if self._contract is not None:
                    raise reject(
                        Reason.WRONG_PHASE, "the game is announced: discard two cards", seat=seat
                    )
        is_null = c.game == _NULL
        if is_null and (c.schneider or c.schwarz):
            raise reject(
                Reason.NOT_APPLICABLE_TO_NULL, "Null has no Schneider or Schwarz", seat=seat
            )
        if ph is not Phase.SKAT:
            if c.schneider or c.schwarz:
                raise reject(
                    Reason.ANNOUNCEMENT_REQUIRES_HAND,
                    "Schneider and Schwarz can be announced only in Hand games",
                    seat=seat,
                )
            if c.ouvert and not is_null:
                raise reject(
                    Reason.OUVERT_REQUIRES_HAND, "suit and Grand Ouvert need Hand", seat=seat
                )
        if is_null:
            v = NULL_VALUES[c.hand, c.ouvert]
            if v < self._value:
                raise reject(
                    Reason.NULL_VALUE_BELOW_BID,
                    f"{c.describe()} ({v}) is below the bid {self._value}",
                    seat=seat,
                )
        elif self.rules.enforce_reachable_announcement and ph is not Phase.SKAT:
            cards12 = self._dealt[p] | self._dealt[3]
            if reachable_max(c.game, cards12) < self._value and self._any_reachable(cards12):
                raise reject(
                    Reason.UNREACHABLE_ANNOUNCEMENT,
                    f"{c.describe()} cannot reach the bid {self._value}",
                    seat=seat,
                )
        return c

    def _any_reachable(self, cards12: int) -> bool:
        if max(NULL_VALUES[False, False], NULL_VALUES[False, True]) >= self._value:
            return True
        return any(reachable_max(g, cards12) >= self._value for g in _GAME_ORDER)

    # -- play (R4), Kontra/Re (R9.3), specials (ISS)
    def _start_play(self, game: int) -> None:
        self._g = game
        self._phase = Phase.PLAY
        self._leader = self._to_play = 0

    def _start_ramsch(self) -> None:
        self._contract = Contract(_RAMSCH)
        self._start_play(int(_RAMSCH))
        if self.rules.schieberamsch:  # the skat goes round first (ramsch.py)
            self._phase = Phase.PUSH
            self._pusher = 0

    def _push(self, p: int, action: Action) -> None:
        """Schieberamsch (ramsch.py): the seat to push takes the skat up and
        pushes two cards on (no jack), or pushes it on unseen (``pass``)."""
        cls = action.__class__
        if cls not in (Pickup, Pass, Discard):
            raise self._wrong_phase(p, action)
        self._turn(p, action)
        seat = self._seats[p]
        if cls is Pickup:
            if self._taken:
                raise reject(
                    Reason.SKAT_ALREADY_TAKEN, "the skat is taken", seat=seat, action=action
                )
            self._taken = self._skat
            self._hands[p] |= self._skat
            self._skat = 0
            self._skat_known = -1
            return
        if cls is Pass:
            if self._taken:
                raise reject(Reason.DISCARD_REQUIRED, "push two cards on", seat=seat, action=action)
            self._pushes += 1  # pushed on unseen: the deal counts double
        else:
            if not self._taken:
                raise reject(
                    Reason.PICKUP_REQUIRED, "take up the skat first", seat=seat, action=action
                )
            mask = self._two_of_twelve(p, action, "push")
            if mask & JACKS:
                raise reject(
                    Reason.DISCARD_INVALID, "a jack may not be pushed on", seat=seat, action=action
                )
            self._hands[p] &= ~mask
            self._skat = mask
            self._skat_known = p
            self._taken = 0
        if p == 2:
            self._pusher = -1
            self._phase = Phase.PLAY  # forehand leads (R4.1)
        else:
            self._pusher = p + 1

    def _card_phase(self, p: int, action: Action) -> None:
        cls = action.__class__
        seat = self._seats[p]
        ph = self._phase
        if cls is Kontra:
            self._check_kontra(p, raise_=True)
            self._kontra = p
            self._re_pending = True
            return
        if cls is Re or cls is NoRe:
            if not self.rules.kontra or not self._re_pending or p != self._declarer:
                raise reject(
                    Reason.RE_NOT_ALLOWED,
                    "Re only answers a Kontra, by the declarer",
                    seat=seat,
                    action=action,
                )
            self._re = cls is Re
            self._re_pending = False
            self._re_answered = True
            if ph is Phase.KONTRA:
                self._phase = Phase.PLAY
            return
        if ph is Phase.KONTRA:
            if cls is not NoKontra:
                raise self._wrong_phase(p, action)
            if p == self._declarer:
                raise reject(
                    Reason.KONTRA_NOT_ALLOWED,
                    "only a defender answers Kontra",
                    seat=seat,
                    action=action,
                )
            self._turn(p, action)
            self._asked += 1
            if self._asked >= 2:
                self._phase = Phase.PLAY
            return
        if cls is Play:
            if self._re_pending:
                raise reject(
                    Reason.RE_DECISION_PENDING,
                    "the declarer answers the Kontra first",
                    seat=seat,
                    action=action,
                )
            self._turn(p, action)
            card: int = action.card  # type: ignore[attr-defined]
            hand = self._hands[p]
            if not hand >> card & 1:
                raise reject(
                    Reason.CARD_NOT_IN_HAND,
                    f"{CARDS[card]} is not in your hand",
                    seat=seat,
                    action=action,
                )
            if self._trick:
                follow = hand & FOLLOW[self._g][self._trick[0]]
                if follow and not follow >> card & 1:
                    led = EFFECTIVE[self._g][self._trick[0]]
                    what = "trump" if led == TRUMP else _SUIT_WORDS[led]
                    raise reject(
                        Reason.MUST_FOLLOW_SUIT,
                        f"you must follow suit: play {what}",
                        seat=seat,
                        action=action,
                    )
            self._play(p, card)
        elif cls is Claim:
            if p != self._declarer:
                raise reject(
                    Reason.NOT_YOUR_TURN, "only the declarer can claim", seat=seat, action=action
                )
            self._claimed = True
        elif cls is Concede:
            if self._g == _RAMSCH:
                raise self._wrong_phase(p, action)
            if p == self._declarer:
                self._finish_game("declarer_conceded", "declarer_lost", seat)
                return
            self._conceded |= 1 << p
            both = self._conceded.bit_count() == 2
            if both or (self._claimed and self.rules.concede_after_claim == "one"):
                self._finish_game("defenders_conceded", "defenders_lost", seat)
        else:
            raise self._wrong_phase(p, action)

    def _check_kontra(self, p: int, raise_: bool = False) -> bool:
        """R9.3: who may say Kontra, and when."""
        why = ""
        r = self.rules
        if self._phase not in (Phase.KONTRA, Phase.PLAY):
            if raise_:
                raise reject(
                    Reason.WRONG_PHASE, "Kontra follows the announcement", seat=self._seats[p]
                )
            return False
        if not r.kontra:
            why = "Kontra is not played at this table"
        elif self._g == _RAMSCH:
            why = "no Kontra in Ramsch"
        elif p == self._declarer:
            why = "only a defender can say Kontra"
        elif self._kontra >= 0:
            why = "Kontra was said already"
        elif r.kontra_requires_bid and not self._named >> p & 1:
            why = "only a defender who bid may say Kontra"
        elif r.kontra_window == "own_first_card" and self._played >> p & 1:
            why = "too late: you have played your first card"
        elif r.kontra_window == "first_lead" and (self._phase is Phase.PLAY):
            why = "too late: the first card is played"
        elif r.kontra_window == "trick_one" and self._tricks:
            why = "too late: the first trick is complete"
        if why:
            if raise_:
                raise reject(Reason.KONTRA_NOT_ALLOWED, why, seat=self._seats[p], action=KONTRA)
            return False
        return True

    def _play(self, p: int, card: int) -> None:
        """Play a card known to be legal (the unchecked core of R4)."""
        self._hands[p] &= ~(1 << card)
        self._played |= 1 << p
        trick = self._trick
        trick.append(card)
        if len(trick) < 3:
            self._to_play = _NEXT[p]
            return
        self._complete_trick()

    def _complete_trick(self) -> None:
        """Settle a trick of three cards (R4.4, R4.7) and the early ends of R6.6."""
        trick = self._trick
        g = self._g
        keys = TRICK_KEY[g][EFFECTIVE[g][trick[0]]]
        c0, c1, c2 = trick
        k0, k1, k2 = keys[c0], keys[c1], keys[c2]
        lead = self._leader
        if k0 >= k1 and k0 >= k2:
            w = lead
        elif k1 >= k2:
            w = _NEXT[lead]
        else:
            w = _NEXT[_NEXT[lead]]
        self._points[w] += POINTS[c0] + POINTS[c1] + POINTS[c2]
        self._ntricks[w] += 1
        self._tricks.append(Trick(lead, (CARDS[c0], CARDS[c1], CARDS[c2]), w))
        self._trick = []
        self._leader = self._to_play = w
        if len(self._tricks) == 10:
            if g == _RAMSCH:
                self._finish_ramsch(w)
            else:
                self._finish_game("played", "played", None)
            return
        if g == _NULL:
            if w == self._declarer:  # R6.6 (1)
                self._finish_game("early", "played", None)
        elif g != _RAMSCH and w != self._declarer:
            c = self._contract
            if c is not None and c.schwarz:  # R6.6 (2)
                self._finish_game("early", "played", None)

    def _abandon(self, p: int, action: Abandon) -> None:
        seat = self._seats[p]
        ph = self._phase
        reason = action.reason
        if self._contract is None or self._g == _RAMSCH:
            # No game announced: nothing is scored; the seat that went is
            # penalised, or both defenders when one of them leaves a declarer
            # (ISS-FORMAT.md 4.4). A game announced before the discard
            # (Rules.announce_before_discard) is a declared game: it is
            # settled below like a time-out during play.
            n = self.players
            pen = [0] * n
            if ph is Phase.BIDDING or self._g == _RAMSCH or p == self._declarer:
                pen[seat] = 1
            else:
                for d in self._defenders():
                    pen[self._seats[d]] = 1
            declarer = self._declarer if ph in _DECLARER_PHASES else -1
            self._set_result(
                kind="abandoned",
                declarer=declarer,
                valuation=None,
                ended=reason,
                plain=(0,) * n,
                sf=(0,) * n,
                penalties=tuple(pen),
                ended_by=seat,
            )
            return
        outcome = "declarer_lost" if p == self._declarer else "defenders_lost"
        self._finish_game(reason, outcome, seat)

    # ------------------------------------------------------------- settlement
    def _finish_passed(self) -> None:
        n = self.players
        self._set_result(
            kind="passed", declarer=-1, valuation=None, ended="played", plain=(0,) * n, sf=(0,) * n
        )

    def _finish_ramsch(self, last_winner: int) -> None:
        # R9.1, settled in ramsch.py: the skat goes to the winner of the last trick
        out = settle_ramsch(
            self._points,
            self._ntricks,
            last_winner,
            mask_points(self._skat),
            self.bock_factor,
            self._pushes,
        )
        row = [0] * self.players
        for pos, e in enumerate(out.entries):
            row[self._seats[pos]] = e
        self._set_result(
            kind="ramsch",
            declarer=-1,
            valuation=None,
            ended="played",
            plain=tuple(row),
            sf=tuple(row),
            ramsch_points=out.points,
            ramsch=out,
        )

    def _finish_game(self, ended: str, outcome: str, by: int | None) -> None:
        d = self._declarer
        contract = self._contract
        assert contract is not None
        # The skat counts for the declarer (R4.7): his discard, the skat of a
        # Hand game, or, when the game ended before the discard (ISS 4.4),
        # the two cards he picked up.
        points = self._points[d] + mask_points(self._skat or self._dealt[3])
        tricks = self._ntricks[d]
        if outcome == "defenders_lost" and contract.game != _NULL:
            # Everything a defender has not won goes to the declarer (ISS 4.2).
            defender_points = sum(self._points[q] for q in self._defenders())
            defender_tricks = sum(self._ntricks[q] for q in self._defenders())
            points, tricks = 120 - defender_points, 10 - defender_tricks
        cards12 = self._dealt[d] | self._dealt[3]
        val = value_game(
            contract,
            self._value,
            points,
            tricks,
            cards12,
            tricks_played=len(self._tricks),
            outcome=outcome,  # type: ignore[arg-type]
        )
        factor = (4 if self._re else 2 if self._kontra >= 0 else 1) * self.bock_factor
        n = self.players
        dseat = self._seats[d]
        plain = [0] * n
        plain[dseat] = val.plain_entry(factor)
        sf = [seeger_fabian_others(val.won, n)] * n
        sf[dseat] = val.seeger_fabian_entry(factor)
        self._set_result(
            kind="game",
            declarer=d,
            valuation=val,
            ended=ended,
            plain=tuple(plain),
            sf=tuple(sf),
            points=points,
            tricks=tricks,
            ended_by=by,
        )

    def _set_result(
        self,
        *,
        kind: str,
        declarer: int,
        valuation: Valuation | None,
        ended: str,
        plain: tuple[int, ...],
        sf: tuple[int, ...],
        points: int = 0,
        tricks: int = 0,
        ramsch_points: tuple[int, ...] | None = None,
        ramsch: RamschOutcome | None = None,
        penalties: tuple[int, ...] = (),
        ended_by: int | None = None,
    ) -> None:
        self._phase = Phase.DONE
        self._result = DealResult(
            kind=kind,
            players=self.players,
            dealer=self.dealer,
            declarer=None if declarer < 0 else declarer,
            declarer_seat=None if declarer < 0 else self._seats[declarer],
            bid=self._value,
            contract=self._contract if kind in ("game", "ramsch") else None,
            valuation=valuation,
            declarer_points=points,
            declarer_tricks=tricks,
            ended=ended,
            kontra=self._kontra >= 0,
            re=self._re,
            bock_factor=self.bock_factor,
            plain=plain,
            seeger_fabian=sf,
            ramsch_points=ramsch_points,
            ramsch=ramsch,
            penalties=penalties or (0,) * self.players,
            ended_by=ended_by,
        )

    # ---------------------------------------------------------------- helpers
    def clone(self) -> Deal:
        """An independent copy (for search)."""
        new = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._history = list(self._history)
        new._trick = list(self._trick)
        new._tricks = list(self._tricks)
        new._points = list(self._points)
        new._ntricks = list(self._ntricks)
        return new

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may know (R3.7); ``None`` gives the public (spectator) view."""
        return _view(self, seat)

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


def _view(deal: Deal, seat: int | None) -> View:
    """Build the view of ``seat`` (``None``: spectators), R3.7."""
    pos = None if seat is None else deal.position_of(seat)
    done = deal._phase is Phase.DONE
    d = deal._declarer
    hand = CardSet(deal._hands[pos]) if pos is not None else CardSet()
    skat: CardSet | None = None
    if done or (pos is not None and pos == d and deal._picked_up):
        # before the discard the declarer still sees which two cards he took
        skat = CardSet(deal._skat if deal._discard or done else deal._dealt[3])
    elif pos is not None and deal._pusher == pos and deal._taken:
        skat = CardSet(deal._taken)  # Schieberamsch: the two cards just taken up
    elif pos is not None and deal._skat_known == pos:
        skat = CardSet(deal._skat)  # the two cards this seat pushed on, still the skat
    contract = deal._contract
    open_cards: CardSet | None = None
    if d >= 0 and deal._phase in (Phase.KONTRA, Phase.PLAY, Phase.DONE) and contract is not None:
        if contract.ouvert or deal._claimed:
            open_cards = CardSet(deal._hands[d])
    history: list[tuple[int, str]] = []
    for s, a in deal._history:
        if isinstance(a, Discard) and not done and s != seat:
            history.append((s, "discard"))
        else:
            history.append((s, str(a)))
    bidder = listener = None
    if deal._phase is Phase.BIDDING:
        bidder = deal._seats[deal._bidder]
        listener = None if deal._stage == 3 else deal._seats[deal._listener]
    sizes = [0] * deal.players
    for p, s in enumerate(deal._seats):
        sizes[s] = deal._hands[p].bit_count()
    return View(
        seat=seat,
        position=pos,
        players=deal.players,
        dealer=deal.dealer,
        rules=deal.rules,
        phase=deal._phase,
        current_seat=deal.current_seat,
        seats=deal._seats,  # type: ignore[arg-type]
        hand=hand,
        hand_sizes=tuple(sizes),
        skat=skat,
        bid=deal._value,
        declarer_seat=None if d < 0 else deal._seats[d],
        contract=contract if deal._phase not in (Phase.BIDDING, *_DECLARER_PHASES) else None,
        open_cards=open_cards,
        trick=tuple(
            (deal._seats[(deal._leader + i) % 3], CARDS[c]) for i, c in enumerate(deal._trick)
        ),
        tricks=tuple(deal._tricks),
        kontra=deal._kontra >= 0,
        re=deal._re,
        legal_actions=deal.legal_actions(seat) if seat is not None and pos is not None else (),
        history=tuple(history),
        result=deal._result,
        dealt=tuple(CardSet(m) for m in deal._dealt) if done else None,
        bidder=bidder,
        listener=listener,
        offers=deal.offers(seat) if seat is not None else (),
    )
