"""XSkat's computer players at our table (issue 53, point 1).

One XSkat process (``build.py``'s program) plays one deal: it holds XSkat's
own game state for the whole table, as XSkat's program always does (its
computers read from that state; docs/xskat.md lists where they look beyond
their own hand), and runs XSkat's own game loop for its seats. At most one
seat is played from outside, by one of our players; XSkat sees it as its own
"human" seat 0, so the table's seats are turned to put that seat at XSkat's
0 (turning keeps who sits left of whom). Our engine is the referee: every
action of XSkat's seats is checked against the seat's legal actions and
applied by `skat.players.loop.play_deal`, which scores the deal.

`XSkatTable` is the process of one deal; `XSkatSeat` is the `Player` of
one XSkat seat at it (all the XSkat seats of a deal share the table).
`play_deal_with_xskat` plays one deal: ``ours`` in ``our_seat`` and XSkat
in the others, or XSkat in all three.
"""

from __future__ import annotations

import hashlib
import random
import subprocess
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from skat.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Contract,
    Deal,
    DealResult,
    Discard,
    GameType,
    Hold,
    Pass,
    Pickup,
    Play,
    Rules,
    View,
)
from skat.players.base import BasePlayer, Player
from skat.players.loop import play_deal

from .build import build

SKAT = 3  # owner code of the skat's cards in the deal line


def to_x(card: int) -> int:
    """Our card number -> XSkat's (suits clubs spades hearts diamonds ->
    diamonds hearts spades clubs; ranks A T K Q J 9 8 7 in both)."""
    return (3 - card // 8) * 8 + card % 8


def from_x(x: int) -> Card:
    return Card(to_x(x))


def game_of(trumpf: int) -> GameType:
    """XSkat's ``trumpf`` (0..3 diamonds..clubs, 4 grand, -1 null)."""
    if trumpf == -1:
        return GameType.NULL
    if trumpf == 4:
        return GameType.GRAND
    if 0 <= trumpf <= 3:
        return GameType(3 - trumpf)
    raise ValueError(f"XSkat game {trumpf} is not played at our tables")


def trumpf_of(game: GameType) -> int:
    if game == GameType.NULL:
        return -1
    if game == GameType.GRAND:
        return 4
    if game.is_suit:
        return 3 - int(game)
    raise ValueError(f"{game} is not played against XSkat")


def xskat_seed(seed: int, number: int) -> int:
    """XSkat's random seed for deal ``number`` of an arena run (its
    ``seed[0]``, which XSkat itself takes from the clock)."""
    h = hashlib.sha256(f"xskat/{seed}/{number}".encode()).digest()
    return int.from_bytes(h[:4], "big") & 0x7FFFFFFF


class XSkatError(RuntimeError):
    """XSkat's process said something the table did not expect."""


@dataclass(frozen=True)
class Event:
    seat: int  # table seat
    action: Action


class XSkatTable:
    """XSkat's process for one deal. ``outside`` is the table seat played
    by someone else (None: XSkat plays all three)."""

    def __init__(
        self,
        deal: Deal,
        *,
        outside: int | None,
        seed: int,
        exe: Path | None = None,
    ) -> None:
        if deal.players != 3:
            raise ValueError("XSkat plays at tables of three")
        self.outside = outside
        self.turn = outside or 0  # table seat of XSkat's seat 0
        self.events: deque[Event] = deque()
        self.transcript: list[str] = []  # every line both ways, for the record
        self.ended: list[int] | None = None
        self._picked_up = False
        owners = [SKAT] * 32
        for seat in range(3):
            for card in deal.view(seat).hand:
                owners[to_x(int(card))] = self.xseat(seat)
        self.proc = subprocess.Popen(
            [str(exe or build())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        numsp = 0 if outside is None else 1
        try:
            self._send(f"deal {seed} {self.xseat(deal.dealer)} {numsp} {''.join(map(str, owners))}")
        except BaseException:
            self.close()
            raise

    def xseat(self, seat: int) -> int:
        return (seat - self.turn) % 3

    def seat(self, xseat: int) -> int:
        return (xseat + self.turn) % 3

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.transcript.append("> " + line)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        while True:
            reply = self.proc.stdout.readline()
            if not reply:
                raise XSkatError(f"XSkat's process ended after {line!r}")
            reply = reply.strip()
            self.transcript.append("< " + reply)
            words = reply.split()
            if words[0] == "wait":
                return
            if words[0] == "end":
                self.ended = [int(w) for w in words[1:]]
                return
            if words[0] == "error":
                raise XSkatError(f"XSkat refused {line!r}: {reply}")
            if words[0] != "a":
                raise XSkatError(f"unexpected line from XSkat: {reply!r}")
            self._queue(int(words[1]), words[2], [int(w) for w in words[3:]])

    def _queue(self, xseat: int, kind: str, args: list[int]) -> None:
        action: Action
        if kind == "bid":
            action = Bid(args[0])
        elif kind == "hold":
            action = Hold()
        elif kind == "pass":
            action = Pass()
        elif kind == "pickup":
            action = Pickup()
        elif kind == "discard":
            a, b = sorted((from_x(args[0]), from_x(args[1])))
            action = Discard((a, b))
        elif kind == "game":
            trumpf, hand, schneider, schwarz, ouvert = args
            game = game_of(trumpf)
            if game == GameType.NULL:
                contract = Contract(game, hand=bool(hand), ouvert=bool(ouvert))
            else:
                contract = Contract(
                    game, bool(hand), bool(schneider), bool(schwarz), bool(ouvert)
                ).normalised()
            action = Announce(contract)
        elif kind == "play":
            action = Play(from_x(args[0]))
        else:
            raise XSkatError(f"unknown action {kind!r} from XSkat")
        self.events.append(Event(self.seat(xseat), action))

    def next_action(self, seat: int) -> Action:
        """The action XSkat's seat ``seat`` takes now."""
        if not self.events:
            raise XSkatError(f"XSkat has no action for seat {seat}: {self.transcript[-4:]}")
        event = self.events.popleft()
        if event.seat != seat:
            raise XSkatError(f"XSkat acted for seat {event.seat}, the engine asks seat {seat}")
        return event.action

    def outside_did(self, action: Action) -> None:
        """Tell XSkat what the outside seat did."""
        if isinstance(action, Bid):
            self._send(f"bid {action.value}")
        elif isinstance(action, Hold):
            self._send("hold")
        elif isinstance(action, Pass):
            self._send("pass")
        elif isinstance(action, Pickup):
            self._picked_up = True
            self._send("pickup")
        elif isinstance(action, Discard):
            a, b = (to_x(int(c)) for c in action.cards)
            self._send(f"discard {a} {b}")
        elif isinstance(action, Announce):
            c = action.contract
            if c.hand and not self._picked_up:
                self._send("hand")
            ouvert = int(c.ouvert)
            self._send(f"game {trumpf_of(c.game)} {int(c.schneider)} {int(c.schwarz)} {ouvert}")
        elif isinstance(action, Play):
            self._send(f"play {to_x(int(action.card))}")
        else:
            raise XSkatError(f"{action} is not played against XSkat")

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class XSkatSeat(BasePlayer):
    """One XSkat seat at an `XSkatTable`. The seat that ``forwards`` tells
    the table what the outside seat did (one of the XSkat seats does)."""

    name = "xskat"

    def __init__(self, table: XSkatTable, seat: int, *, forwards: bool) -> None:
        super().__init__(random.Random(0))
        self.table = table
        self.seat = seat
        self.forwards = forwards

    def choose(self, view: View) -> Action:
        action = self.table.next_action(self.seat)
        if action not in view.legal_actions:
            raise XSkatError(f"XSkat in seat {self.seat} chose {action}, not legal here")
        return action

    def notify(self, seat: int, action: Action) -> None:
        if self.forwards and seat == self.table.outside:
            self.table.outside_did(action)


@dataclass
class XSkatPlay:
    """One played deal: the engine's deal (its history and result) and
    XSkat's own account of it (``end`` line: declarer, game, card points,
    won, value, bid, in XSkat's terms)."""

    deal: Deal
    result: DealResult
    xskat_end: list[int] | None
    transcript: list[str]


def play_deal_with_xskat(
    deck: Sequence[Card],
    *,
    dealer: int,
    xseed: int,
    ours: Player | None = None,
    our_seat: int | None = None,
    rules: Rules | None = None,
    exe: Path | None = None,
) -> XSkatPlay:
    """Play ``deck`` with ``ours`` in ``our_seat`` and XSkat in the other
    seats (without ``ours``: XSkat in all three)."""
    if (ours is None) != (our_seat is None):
        raise ValueError("give both ours and our_seat, or neither")
    deal = Deal(deck, rules=rules or Rules(), dealer=dealer)
    table = XSkatTable(deal, outside=our_seat, seed=xseed, exe=exe)
    try:
        players: list[Player] = []
        first = True
        for seat in range(3):
            if seat == our_seat:
                assert ours is not None
                players.append(ours)
            else:
                players.append(XSkatSeat(table, seat, forwards=first))
                first = False
        result = play_deal(deal, players)
    finally:
        table.close()
    return XSkatPlay(deal, result, table.ended, table.transcript)
