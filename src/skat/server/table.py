"""The state of one online table, rebuilt from its event log.

`TableState.plan_*` validate a command and return the typed events it
causes (raising `CommandError` otherwise); `TableState.apply` applies one
event and never fails for events that a plan produced. The same `apply`
rebuilds a table after a restart, so live play and recovery cannot drift
apart. What each viewer may see of it is decided in `projection.py`.
"""

from __future__ import annotations

import copy
import unicodedata
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any, assert_never

from ..engine import Abandon, Action, IllegalActionError, Play, parse_action
from ..engine.actions import REFUSE
from ..players import player_names
from ..players.levels import level_of
from ..series import ListOptions, Series
from ..series.spec import LANGS
from . import events as ev
from .errors import CommandError, ErrorCode
from .protocol import MAX_CHAT, MAX_NAME, REACTIONS
from .store import Event as StoredEvent
from .store import StoredTable
from .tokens import token_matches

TIMERS = (0, 30, 60, 120)
#: Seconds a deal's result shows before the next deal (0: the server's
#: default, 6 s with one person and 20 s at a table of people).
RESULT_TIMES = (0, 10, 20, 30, 60)
#: Names of the computer players, by seat.
BOT_NAMES = ("Ada", "Bruno", "Cora", "Dieter")
#: The name of the computer player that keeps a seat its person gave up
#: with "Leave the table" (issue 49, item 1), in the table's language: the
#: sheet and every download name it from that deal on, so that no deal is
#: credited to a person who did not play it.
FOR_WORDS = {
    "en": "Computer (for {name})",
    "de": "Computer (für {name})",
    "da": "Computer (for {name})",
}


def computer_name(name: str, lang: str) -> str:
    """The name of the computer player that plays on in ``name``'s seat."""
    return FOR_WORDS.get(lang, FOR_WORDS["en"]).format(name=name)


def clean_text(text: str, limit: int) -> str:
    """Text as typed, made safe to store: control characters stripped, runs of
    white space folded, trimmed and limited. It is escaped only where it is
    put into HTML (the browser client), never here."""
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return " ".join(text.split())[:limit]


#: Letters that show as nothing (Hangul and braille fillers): a name of them is blank.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Alphabets whose letters look alike (a Cyrillic "а" is a Latin "a" on screen).
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})


def _fold(name: str) -> str:
    """A name as the eye compares it: compatibility forms, case and spaces
    gone, and every mark that shows as nothing (format characters such as
    joiners, combining marks such as the grapheme joiner and variation
    selectors, the blank fillers)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return "".join(
        ch
        for ch in text
        if not ch.isspace() and ch not in _BLANK and unicodedata.category(ch) not in _UNSEEN
    )


#: Categories of code points that add nothing a reader sees to a name.
_UNSEEN = frozenset({"Cf", "Mn", "Me"})


def name_problem(name: str, others: Iterable[str]) -> str | None:
    """Why the cleaned ``name`` cannot sit beside the names ``others`` at a
    table (a blank name, letters of look-alike alphabets mixed, a name that
    reads like another's), or None."""
    # compatibility forms as the letters they show (a mathematical bold 𝐀 is a Latin A)
    folded = unicodedata.normalize("NFKC", name)
    shown = [ch for ch in folded if ch not in _BLANK and not ch.isspace()]
    if not any(unicodedata.category(ch)[0] in "LN" for ch in shown):
        return "a name needs a letter or a digit"
    scripts = {
        unicodedata.name(ch, "").split(" ")[0] for ch in shown if unicodedata.category(ch)[0] == "L"
    }
    if len(scripts & _LOOKALIKE_SCRIPTS) > 1:
        mixed = " and ".join(sorted(scripts & _LOOKALIKE_SCRIPTS)).lower()
        return f"a name mixes {mixed} letters: write it in one alphabet"
    key = _fold(name)
    for other in others:
        if _fold(other) == key:
            return f"{other} sits at this table already: add an initial"
    return None


@dataclass
class Settings:
    bot: str = "heuristic"  # the computer players' kind (a level names one: levels.py)
    timer: int = 0  # seconds per turn, 0 = off
    hint: bool = False  # people may ask the strong player for a suggestion
    # records before issue 49 kept a rest time here; it is read and ignored:
    # every table rests after the disconnect grace (`ServerConfig.grace`)
    rest: int = 300
    public: bool = False  # listed in the lobby while it waits for people (issue 27)
    lang: str = "en"  # the language of the page it was made on (the lobby shows it)
    # seconds a result shows before the next deal unless everyone pressed Next
    # (0: the server's `next_delay` / `next_delay_people`); records before it: 0
    result: int = 0
    # the next deal comes by itself even with one person at the table
    # (tournament tables: the other tables wait for the series); otherwise
    # one person with computers presses Next (issue 49, item 4)
    countdown: bool = False
    # a tournament's table (issue 54, finding 4): its seats are its entrants'
    # for good: nobody sits down (nobody takes a computer fill's seat), and
    # "leave" hands the seat to a computer player, the entrant's token still
    # the seat's, so their own link always brings them back to it
    reserved: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.bot, str) or self.bot not in player_names():
            # the lab's players (frozen baselines, measurement variants) are
            # never loaded by the server: a table naming one is refused
            raise ValueError(
                f"computer player {self.bot!r} is not one of the product's "
                f"({', '.join(player_names())})"
            )
        # the edge offers TIMERS; any whole number of seconds replays
        if not isinstance(self.timer, int) or isinstance(self.timer, bool) or self.timer < 0:
            raise ValueError("timer must be a whole number of seconds")
        if not isinstance(self.hint, bool):
            raise ValueError("hint must be true or false")
        if not isinstance(self.rest, int) or isinstance(self.rest, bool) or self.rest < 0:
            raise ValueError("rest must be a whole number of seconds")
        if not isinstance(self.public, bool):
            raise ValueError("public must be true or false")
        if self.lang not in LANGS:
            raise ValueError(f"lang must be one of {', '.join(LANGS)}")
        if not isinstance(self.result, int) or isinstance(self.result, bool) or self.result < 0:
            raise ValueError("result must be a whole number of seconds")
        if not isinstance(self.countdown, bool):
            raise ValueError("countdown must be true or false")
        if not isinstance(self.reserved, bool):
            raise ValueError("reserved must be true or false")

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "timer": self.timer,
            "hint": self.hint,
            "public": self.public,
            "lang": self.lang,
            "result": self.result,
            "countdown": self.countdown,
            **({"reserved": True} if self.reserved else {}),  # older records: none
        }

    @classmethod
    def from_dict(cls, data: Any) -> Settings:
        known = {f.name for f in fields(cls)}
        if not isinstance(data, dict) or set(data) - known:
            raise ValueError(f"settings must be an object with {', '.join(sorted(known))}")
        return cls(**data)


@dataclass
class SeatState:
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None  # a computer player holds the seat
    auto: bool = False  # a computer player acts for the absent or slow human
    # a person who takes the seat from its computer player at the next deal
    pending: tuple[str, str] | None = None  # (name, token hash)

    @property
    def free(self) -> bool:
        return self.name is None and self.bot is None

    @property
    def human(self) -> bool:
        return self.token_hash is not None and self.bot is None


@dataclass
class TableState:
    id: str
    options: ListOptions
    settings: Settings
    seed: bytes
    creator_hash: str
    version: int = 0  # of the last event of any kind (gapless, the store's key)
    game_version: int = 0  # of the last game event: a move is stale only against this
    # of the last game event that is not a claim or its answer (R6.6): the
    # turn timers count from it, so that showing the cards (once a deal)
    # never buys the declarer time (issue 54, finding 5)
    turn_version: int = 0
    status: str = "open"  # open, playing, finished, expired
    series: Series | None = None
    seats: list[SeatState] = field(default_factory=list)
    chat: deque[tuple[int, ev.Chat | ev.React]] = field(default_factory=lambda: deque(maxlen=50))
    auto_moves: dict[int, list[int]] = field(default_factory=dict)  # deal -> seats
    # deal -> the indices (in that deal's moves) of the moves a computer made
    # for an absent person: timed out, away, or after "Leave the table" in
    # the deal it was given up in (the list record's `computer_moves`)
    auto_acts: dict[int, list[int]] = field(default_factory=dict)
    # seats given up with "Leave the table" during the deal in play: the
    # computer finishes that deal for the person, each move marked
    left_in_deal: set[int] = field(default_factory=set)
    next_table: str | None = None
    #: the names at the table when each deal was dealt (a seat can change hands between deals)
    deal_names: dict[int, tuple[str, ...]] = field(default_factory=dict)
    ready: set[int] = field(default_factory=set)  # seats whose person pressed Next
    # the table rests: no person of it has been connected for the disconnect
    # grace, so nothing is played until one is back (the `rest` and `wake`
    # events: a restarted server or another worker keeps it resting)
    resting: bool = False
    # after a deal: when (wall clock) the next one is dealt unless everyone
    # presses Next first (the actor's, not stored; None: not known)
    next_due: float | None = None

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [SeatState() for _ in range(self.options.players)]

    @classmethod
    def from_stored(
        cls,
        table: StoredTable,
        events: Iterable[StoredEvent] = (),
    ) -> TableState:
        """A table rebuilt from its stored row and events (recovery, downloads),
        its options validated as strictly as at creation but for the list
        length: a table keeps the rules it was made with when an operator
        lowers ``--max-rounds`` later. Raises `ValueError` (or another
        exception) for a table that cannot be rebuilt."""
        state = cls(
            id=table.id,
            options=ListOptions.from_dict(table.config["options"]),
            settings=Settings.from_dict(table.config["settings"]),
            seed=bytes.fromhex(table.seed),
            creator_hash=table.creator_hash,
        )
        for _ in state.replay(events):
            pass
        return state

    def replay(self, events: Iterable[StoredEvent]) -> Iterator[ev.TableEvent]:
        """Apply stored events in order, yielding each one once applied."""
        for e in events:
            if e.version != self.version + 1:
                raise RuntimeError(f"table {self.id}: event {e.version} after {self.version}")
            event = ev.from_row(e.kind, e.payload)
            self.apply(event)
            yield event

    def act_ref(self, event: ev.TableEvent) -> tuple[int, int] | None:
        """Where an `Act` just applied landed: (deal number, index in its history)."""
        if not isinstance(event, ev.Act) or self.series is None:
            return None
        return self.series.number, len(self.series.deal.history) - 1

    # ------------------------------------------------------------- queries
    @property
    def players(self) -> int:
        return self.options.players

    def names_from(self) -> dict[int, tuple[str, ...]]:
        """Who played each seat, from the deal on which that changed: deal 1's
        names, then each deal whose names differ from the deal before (a
        friend took a computer's seat); the sheet and the downloads credit
        every deal to whoever played it (issue 26, item 8)."""
        out: dict[int, tuple[str, ...]] = {}
        last: tuple[str, ...] | None = None
        for number in sorted(self.deal_names):
            names = self.deal_names[number]
            if names != last:
                out[number] = names
                last = names
        return out

    def seat_of_token(self, token: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and token_matches(token, s.token_hash):
                return i
        return None

    def pending_seat_of_token(self, token: str | None) -> int | None:
        """The seat this token takes over at the next deal, if any."""
        for i, s in enumerate(self.seats):
            if s.pending is not None and token_matches(token, s.pending[1]):
                return i
        return None

    def is_creator(self, token: str) -> bool:
        return token_matches(token, self.creator_hash)

    def to_move(self) -> int | None:
        """The seat whose decision the table waits for (None between deals)."""
        if self.series is None or self.status != "playing":
            return None
        return self.series.deal.current_seat

    def deal_over(self) -> bool:
        return (
            self.series is not None and self.series.deal.is_terminal() and not self.series.is_over()
        )

    def closed(self) -> bool:
        return self.status in ("finished", "expired")

    # ------------------------------------------------------------ commands
    def plan_sit(self, name: str, seat: int | None, token_hash: str) -> list[ev.TableEvent]:
        """Take a free seat, or a computer player's seat: at once while the
        list has not started or between deals, else from the next deal
        (`Takeover`; the person watches until then)."""
        clean = clean_text(name, MAX_NAME)
        if not clean:
            raise CommandError(ErrorCode.BAD_NAME, "a name is needed")
        if self.closed():
            raise CommandError(ErrorCode.TABLE_CLOSED, "this table is closed")
        if self.settings.reserved:
            raise CommandError(
                ErrorCode.SEAT_TAKEN,
                "the seats of a tournament's table are its entrants': "
                "an entrant comes back by their own link",
            )
        free = [i for i, s in enumerate(self.seats) if s.free]
        if seat is None:
            if not free:
                raise CommandError(ErrorCode.TABLE_FULL, "no free seat")
            seat = free[0]
        if not 0 <= seat < self.players:
            raise CommandError(ErrorCode.SEAT_TAKEN, "that seat is not free")
        others = [
            n
            for i, other in enumerate(self.seats)
            if i != seat  # a seat's own name may come back (a person who left)
            # people's names only: a computer player's seat is taken over by
            # whoever likes, and a name it kept is no person's
            for n in (
                other.name if other.human else None,
                other.pending[0] if other.pending else None,
            )
            if n is not None
        ]
        problem = name_problem(clean, others)
        if problem is not None:
            raise CommandError(ErrorCode.BAD_NAME, problem)
        s = self.seats[seat]
        if s.bot is not None and s.pending is None:  # a computer player's seat
            # at a resting table the newcomer waits too: a stranger does not
            # wake it to have the deal played out for the people who left
            # (issue 54, finding 8; issue 49, item 1)
            if self.status == "playing" and (not self.deal_over() or self.resting):
                return [ev.Takeover(seat=seat, name=clean, token_hash=token_hash)]
            return [ev.Sit(seat=seat, name=clean, token_hash=token_hash)]
        if not s.free:
            raise CommandError(ErrorCode.SEAT_TAKEN, "that seat is not free")
        events: list[ev.TableEvent] = [ev.Sit(seat=seat, name=clean, token_hash=token_hash)]
        if self.status == "open" and len(free) == 1:
            events.append(ev.Start())
        return events

    def plan_fill(self) -> list[ev.TableEvent]:
        if self.status != "open":
            raise CommandError(ErrorCode.ALREADY_STARTED, "the list has started")
        events: list[ev.TableEvent] = [
            ev.Bot(seat=i, bot=self.settings.bot) for i, s in enumerate(self.seats) if s.free
        ]
        return [*events, ev.Start()]

    def plan_start(self) -> list[ev.TableEvent]:
        if self.status != "open":
            raise CommandError(ErrorCode.ALREADY_STARTED, "the list has started")
        if any(s.free for s in self.seats):
            return self.plan_fill()
        return [ev.Start()]

    def plan_again(self, old: TableState) -> list[ev.TableEvent]:
        """This (new, empty) table takes the people of ``old``: the same seats
        and seat tokens, computer players where ``old`` had them, and starts."""
        if self.version != 0:
            raise CommandError(ErrorCode.ALREADY_STARTED, "the list has started")
        events: list[ev.TableEvent] = []
        for i, s in enumerate(old.seats):
            if s.human and s.name is not None and s.token_hash is not None:
                events.append(ev.Sit(seat=i, name=s.name, token_hash=s.token_hash))
            else:
                events.append(ev.Bot(seat=i, bot=s.bot or old.settings.bot))
        return [*events, ev.Start()]

    def plan_act(
        self, seat: int, action: Action, version: int | None, auto: bool = False
    ) -> list[ev.TableEvent]:
        """A move of ``seat`` (parsed at the edge: protocol.decode, or the
        computer seats). ``version`` is the table version the mover saw
        (None for the server's own moves): stale only if the game moved on
        since, never because of chat or seat changes."""
        if self.series is None or self.status == "open":
            raise CommandError(ErrorCode.NOT_STARTED, "the list has not started")
        if version is not None and not self.game_version <= version <= self.version:
            raise CommandError(ErrorCode.STALE_VERSION, f"the table is at version {self.version}")
        if isinstance(action, Abandon):  # `timeout` and `leave` are the table's, not a person's
            raise CommandError(ErrorCode.BAD_MESSAGE, f"'{action}' is not a move a player makes")
        if self.series.is_over():
            raise CommandError(ErrorCode.LIST_OVER, "the list is over")
        deal = self.series.deal
        # a move the engine lists for the seat to move applies (its contract);
        # anything else is tried on a copy, for the engine's reason if it fails
        if deal.current_seat != seat or action not in deal.legal_actions(seat):
            try:
                deal.clone().apply(action, seat)
            except IllegalActionError as exc:
                raise CommandError(exc.code.value, exc.message) from None
        events: list[ev.TableEvent] = [ev.Act(seat=seat, action=str(action), auto=auto)]
        # R6.6: a person who plays a card instead of answering the declarer's
        # claim (or the partner's give-up) says no; the answer is written
        # before the card, so that everyone reads it at once
        if (
            isinstance(action, Play)
            and not auto
            and self.seats[seat].bot is None
            and REFUSE in deal.offers(seat)
        ):
            events.insert(0, ev.Act(seat=seat, action=str(REFUSE), auto=False))
        if not auto and self.seats[seat].auto:
            events.insert(0, ev.Auto(seat=seat, on=False))
        return events

    def people(self) -> set[int]:
        """The seats whose person plays them now (not a computer for them)."""
        return {i for i, s in enumerate(self.seats) if s.human and not s.auto}

    def waiting_for(self) -> list[int]:
        """After a deal: the seated people who have not pressed Next yet."""
        return sorted(self.people() - self.ready)

    def plan_next(self, seat: int | None = None) -> list[ev.TableEvent]:
        """The next deal: at once for the table's wait being over (``seat``
        None) or when the last seated person is ready; else that person is
        marked ready and the result stays for the others (issue 26, point 3)."""
        if not self.deal_over():
            raise CommandError(ErrorCode.WRONG_PHASE, "the deal is not over")
        if seat is None or self.people() <= self.ready | {seat}:
            return [ev.Next()]
        if seat in self.ready:
            return []
        return [ev.Ready(seat=seat)]

    def plan_leave(self, seat: int, keep_bot: bool) -> list[ev.TableEvent]:
        if self.settings.reserved:  # the seat stays the entrant's: a computer plays it
            return self.plan_auto(seat, True)
        return [ev.Leave(seat=seat, keep_bot=keep_bot or self.status == "playing")]

    def plan_auto(self, seat: int, on: bool) -> list[ev.TableEvent]:
        """Hand ``seat``'s decisions to a computer player (or take them back);
        nothing if that is the case already."""
        s = self.seats[seat]
        if s.auto == on or (on and not s.human):
            return []
        return [ev.Auto(seat=seat, on=on)]

    def plan_chat(self, seat: int | None, text: str) -> list[ev.TableEvent]:
        clean = clean_text(text, MAX_CHAT)
        if not _fold(clean):  # nothing a reader sees: blank fillers, joiners
            raise CommandError(ErrorCode.BAD_MESSAGE, "empty chat message")
        name = self.seats[seat].name if seat is not None else "spectator"
        return [ev.Chat(seat=seat, name=name, text=clean)]

    def plan_react(self, seat: int | None, emoji: str) -> list[ev.TableEvent]:
        if emoji not in REACTIONS:
            raise CommandError(ErrorCode.BAD_MESSAGE, "unknown reaction")
        return [ev.React(seat=seat, emoji=emoji)]

    def plan_expire(self) -> list[ev.TableEvent]:
        return [] if self.closed() else [ev.Expire()]

    # -------------------------------------------------------------- events
    def check(self, event: ev.TableEvent) -> None:
        """Raise `CommandError` unless ``event`` applies to this state; the
        actor calls it before storing, so a stored log always replays. A move
        was tried on a clone of the deal by `plan_act` already."""
        match event:
            case (
                ev.Sit(seat=seat)
                | ev.Takeover(seat=seat)
                | ev.Bot(seat=seat)
                | ev.Leave(seat=seat)
                | ev.Auto(seat=seat)
            ):
                if not 0 <= seat < self.players:
                    raise CommandError(ErrorCode.SEAT_TAKEN, "no such seat")
            case ev.Start():
                if self.series is not None:
                    raise CommandError(ErrorCode.ALREADY_STARTED, "the list has started")
                try:
                    Series(self.options, seed=self.seed, names=[s.name or "?" for s in self.seats])
                except (ValueError, TypeError) as exc:
                    raise CommandError(ErrorCode.BAD_OPTIONS, str(exc)) from None
            case ev.Act():
                if self.series is None or self.series.is_over():
                    raise CommandError(ErrorCode.NOT_STARTED, "no deal in play")
            case ev.Next() | ev.Ready():
                if not self.deal_over():
                    raise CommandError(ErrorCode.WRONG_PHASE, "the deal is not over")
            case ev.Chat() | ev.React() | ev.Again() | ev.Expire():
                pass
            case ev.Rest() | ev.Wake():
                if self.status != "playing":
                    raise CommandError(ErrorCode.WRONG_PHASE, "the list is not in play")
            case _:  # pragma: no cover - mypy proves every kind is handled
                assert_never(event)

    def check_all(self, events: list[ev.TableEvent]) -> None:
        """`check` a batch of planned events in order. Before the list starts
        (a table without a deal is cheap to copy) they are applied to a copy,
        so that nothing of a batch is stored that would fail at its end."""
        if self.series is None and len(events) > 1:
            probe = copy.deepcopy(self)
            for event in events:
                probe.check(event)
                probe.apply(event)
        elif events:
            self.check(events[0])

    def apply(self, event: ev.TableEvent) -> None:
        """Apply one event (live or during recovery)."""
        self.version += 1
        if isinstance(event, ev.GAME_EVENTS):
            self.game_version = self.version
            if not (isinstance(event, ev.Act) and event.action.startswith(("claim", "refuse"))):
                self.turn_version = self.version
        match event:
            case ev.Sit(seat=seat, name=name, token_hash=token_hash):
                s = self.seats[seat]
                s.name, s.token_hash, s.bot, s.auto = name, token_hash, None, False
                s.pending = None
            case ev.Takeover(seat=seat, name=name, token_hash=token_hash):
                self.seats[seat].pending = (name, token_hash)
            case ev.Bot(seat=seat, bot=bot):
                s = self.seats[seat]
                s.bot = bot
                s.name = s.name or BOT_NAMES[seat]
            case ev.Leave(seat=seat, keep_bot=keep_bot):
                s = self.seats[seat]
                s.token_hash = None
                s.auto = False
                if keep_bot:
                    s.bot = self.settings.bot
                    if self.status != "finished":
                        self._computer_plays_on(seat)
                else:
                    s.name, s.bot = None, None
            case ev.Auto(seat=seat, on=on):
                self.seats[seat].auto = on
            case ev.Start():
                self.series = Series(
                    self.options, seed=self.seed, names=[s.name or "?" for s in self.seats]
                )
                self.status = "playing"
                self.deal_names[1] = tuple(s.name or "?" for s in self.seats)
            case ev.Act(seat=seat, action=action, auto=auto):
                assert self.series is not None
                self.series.apply(parse_action(action), seat)
                if auto:
                    self.auto_moves.setdefault(self.series.number, []).append(seat)
                    self.auto_acts.setdefault(self.series.number, []).append(
                        len(self.series.deal.history) - 1
                    )
                if self.series.is_over():
                    self.status = "finished"
            case ev.Next():
                assert self.series is not None
                for s in self.seats:  # pending takeovers: the person plays from this deal
                    if s.pending is not None:
                        s.name, s.token_hash = s.pending
                        s.bot, s.auto, s.pending = None, False, None
                self.series.next_deal()
                self.deal_names[self.series.number] = tuple(s.name or "?" for s in self.seats)
                self.ready.clear()
                self.left_in_deal.clear()
            case ev.Ready(seat=seat):
                self.ready.add(seat)
            case ev.Chat() | ev.React():
                self.chat.append((self.version, event))
            case ev.Again(table=table):
                self.next_table = table
            case ev.Expire():
                self.status = "expired"
                self.resting = False
            case ev.Rest():
                self.resting = True
            case ev.Wake():
                self.resting = False
            case _:  # pragma: no cover - mypy proves every kind is handled
                assert_never(event)

    def _computer_plays_on(self, seat: int) -> None:
        """The seat's person gave it up: the computer plays it under its own
        name from the deal in play on (every deal dealt later too), and the
        moves it makes in that deal are marked as made for the person."""
        s = self.seats[seat]
        s.name = computer_name(s.name or "?", self.settings.lang)
        series = self.series
        if series is None or series.is_over() or series.deal.is_terminal():
            return  # not started, or between deals: the next deal is dealt with the new name
        names = list(self.deal_names.get(series.number, series.names))
        names[seat] = s.name
        self.deal_names[series.number] = tuple(names)
        self.left_in_deal.add(seat)


def lobby_summary(state: TableState) -> dict[str, Any] | None:
    """What the lobby shows of a public table waiting for people (None: not
    listed): its rules, the computer players' level, its language and who
    sits where. Names are the table's public names; no token, no card."""
    if not state.settings.public or state.status != "open":
        return None
    free = sum(1 for s in state.seats if s.free)
    if not free:
        return None
    return {
        "id": state.id,
        "options": state.options.to_dict(),
        "level": level_of(state.settings.bot),
        "hint": state.settings.hint,
        "timer": state.settings.timer,
        "lang": state.settings.lang,
        "seats": [{"name": s.name, "bot": s.bot is not None} for s in state.seats],
        "free": free,
    }


__all__ = [
    "BOT_NAMES",
    "RESULT_TIMES",
    "TIMERS",
    "CommandError",
    "SeatState",
    "Settings",
    "TableState",
    "clean_text",
    "computer_name",
    "lobby_summary",
]
