"""One actor per table: every change goes through its queue (ARCHITECTURE.md).

Commands from people, computer players, timers and the server itself are
handled one at a time: the table plans the events (the engine decides
legality), the store appends them **before** anything is published, the
table applies them, and every connection receives its own projection.

What the table waits for (a computer player's move, a person's turn timer
or grace, the next deal) is keyed by the game clock: chat, reactions and
seat changes leave a thinking computer player and a running timer alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, assert_never

from . import events as ev
from . import messages as m
from . import projection
from . import protocol as p
from .bots import ComputerSeats
from .commands import (
    Back,
    BotMove,
    Command,
    DealDue,
    Disconnected,
    Expire,
    Inbound,
    Remaining,
    Rest,
    TimeUp,
)
from .config import HISTORY, ServerConfig
from .conn import Conn, TokenBucket
from .errors import CommandError, ErrorCode
from .metrics import Metrics
from .store import NotOwner, Store, StoreFailed, VersionTaken
from .table import TableState, lobby_summary
from .tokens import hash_token, new_token, token_matches
from .work import SearchPool

log = logging.getLogger("skat.server")
#: The metrics of an actor made without a registry's (tests of the actor alone).
_UNWATCHED = Metrics()


@dataclass
class _Queued:
    command: Command
    done: asyncio.Future[None] | None = None
    at: float = field(default_factory=time.monotonic)  # when it reached the table


class TableActor:
    def __init__(
        self,
        state: TableState,
        store: Store,
        pool: Executor,
        config: ServerConfig,
        search: SearchPool | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.state = state
        self.metrics = metrics if metrics is not None else _UNWATCHED
        self.store = store
        self.pool = pool  # threads: fast computer players, off-turn questions
        # processes for searching players and hints (the GIL), shared fairly
        # between tables; None (tests of the actor alone): threads instead
        self.search = search
        self.config = config
        self.queue: asyncio.Queue[_Queued] = asyncio.Queue()
        # held while a command is served, by the actor's task or by a
        # submitter that found the table idle (`submit`): one at a time
        self._serving = asyncio.Lock()
        self._stopping = False  # stop() has begun
        self.conns: set[Conn] = set()
        # (version, event, where an Act landed in its deal) for reconnects
        self.history: deque[tuple[int, ev.TableEvent, projection.ActRef | None]] = deque(
            maxlen=HISTORY
        )
        self.gone_since: dict[int, float] = {}
        self.empty_since: float | None = time.time()  # since nobody is connected
        self.last_event = time.time()  # of the last event that is not chat or a reaction
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._wait_key: tuple[Any, ...] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self.bots = ComputerSeats(self)  # the computer players' decisions, Kontra, answers, hints
        self._turn_since: tuple[int, float] = (-1, 0.0)  # (game version, monotonic start)
        # since when no person is connected (monotonic; a loaded table starts
        # without anyone), and the timer that rests the table (issue 26)
        self._listed: dict[str, Any] | None = None  # what the lobby shows of it (issue 27)
        self._lobby_lock = asyncio.Lock()  # one lobby write at a time, the latest last
        self._people_gone: float | None = time.monotonic()
        self._rest_timer: asyncio.Task[None] | None = None
        # builds the next table and stores this table's `Again` event, in one
        # transaction (registry.Tables.again); returns the event to apply
        self.on_again: Callable[[TableState], Awaitable[ev.Again]] | None = None
        # called once when a store append finds the table's lease gone (another
        # server process took the table over): the registry drops this actor
        self.on_lost: Callable[[], None] | None = None
        self.lost = False
        self._failures = 0  # store writes refused in a row (the retries' backoff)
        # chat and reactions of everyone at the table together: many connections
        # (each within its own rate) cannot fill the table's log with them
        self._chat = TokenBucket(config.chat_rate, config.chat_burst)
        # each viewer's view (a seat's, None: a spectator's) as last sent, with
        # its version: what the next event's changes are made against
        self._bases: dict[int | None, tuple[int, m.ViewOut]] = {}
        # spectators together have a smaller allowance of their own: a
        # stranger with the link cannot use up the players' chat
        self._watchers_chat = TokenBucket(config.chat_rate / 4, config.chat_burst / 4)

    # ---------------------------------------------------------------- life
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table-{self.state.id}")
            self._schedule()
            if self.state.settings.public:  # after a restart: in the lobby again
                self._listed = {}
                self._relist()

    async def stop(self) -> None:
        """Serve nothing more: the table's task ends, a command being served
        by its submitter finishes, then the timers and the computer players'
        work stop and every waiting command is released unserved."""
        self._stopping = True  # from now on no submitter serves (`submit`)
        task = self._task
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        async with self._serving:  # what the command served meanwhile started, stopped too
            self._task = None
            bots = self.bots.tasks()
            timers = (self._timer, self._rest_timer, *bots)
            for t in (*self._background, *timers):
                if t is not None:
                    t.cancel()
            for t in timers:
                if t is not None:
                    try:
                        await t
                    except (asyncio.CancelledError, Exception):
                        pass
            self._timer = self._rest_timer = None
            self.bots.cancel()
            while not self.queue.empty():  # nobody handles these any more: release the waiters
                item = self.queue.get_nowait()
                if item.done is not None and not item.done.done():
                    item.done.set_result(None)

    def _stopped(self, command: Command) -> bool:
        """True (and a connection told so) when this actor serves nothing more:
        another server process serves the table, or it is being stopped."""
        if self._task is not None and not self.lost and not self._stopping:
            return False
        if isinstance(command, Inbound):
            command.conn.moved("this table is served by another server process now")
        return True

    async def submit(self, command: Command) -> None:
        """Queue a command and wait until it has been handled (at once if
        the actor has stopped: another server process serves the table).
        Not to be cancelled or cut short by a time limit: an idle table's
        command is served in the caller's task."""
        if self._stopped(command):
            return
        if self.queue.empty() and not self._serving.locked():
            # the table is idle: served here, in the submitter's task, so a
            # move takes two passes of the event loop fewer (the actor's
            # task woken, and the submitter woken again); under load every
            # pass is a wait behind all the other tables' work
            async with self._serving:
                if not self._stopped(command):  # stop() came first to the lock
                    await self._serve(_Queued(command))
            return
        done = asyncio.get_running_loop().create_future()
        await self.queue.put(_Queued(command, done))
        await done

    def post(self, command: Command) -> None:
        """Queue a command without waiting for it."""
        self.queue.put_nowait(_Queued(command))

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None and not c.closed}

    # ---------------------------------------------------------------- loop
    async def _run(self) -> None:
        while True:
            # one command at a time, in its own frame: nothing of it stays
            # referenced while the table waits seconds for the next
            item = await self.queue.get()
            try:
                async with self._serving:
                    await self._serve(item)
            finally:  # stopped while a submitter served: its waiter is released
                if item.done is not None and not item.done.done():
                    item.done.set_result(None)

    async def _serve(self, item: _Queued) -> None:
        command = item.command
        conn = command.conn if isinstance(command, Inbound) else None
        # a person's move: its answer's latency (refused or stored and sent)
        timed = isinstance(command, Inbound) and isinstance(command.msg, p.Act)
        try:
            await self._handle(command)
        except CommandError as exc:
            if timed:
                self.metrics.move("person", False)
            elif isinstance(command, BotMove):
                self.metrics.move("computer", False)
            if conn is not None:
                await conn.send(exc.to_message())
            if isinstance(item.command, BotMove):
                self._wait_key = None  # a refused computer move: think again
        except NotOwner:  # nothing was stored or applied: the new owner serves it
            log.warning("table %s: its lease is gone; another worker serves it", self.state.id)
            self.lose()
        except StoreFailed:  # nothing was stored or applied: try again later
            await self._store_failed(item.command, conn)
        except VersionTaken:
            # the version is in the store already: a commit whose answer
            # was lost (the connection dropped during COMMIT) stored it.
            # The store is the truth: this actor goes, and the table is
            # loaded again from its events (its clients reconnect to it)
            log.warning("table %s: its next version is stored already; reloading", self.state.id)
            self.lose()
        except Exception:  # a bug must not kill the table
            log.exception("table %s: %s failed", self.state.id, type(item.command).__name__)
            if conn is not None:
                await conn.send(CommandError(ErrorCode.SERVER_ERROR, "internal error").to_message())
        finally:
            if timed:
                self.metrics.act_seconds.observe(time.monotonic() - item.at)
            if item.done is not None and not item.done.done():
                item.done.set_result(None)
            self._schedule()

    async def _handle(self, command: Command) -> None:
        st = self.state
        if st.resting and isinstance(command, BotMove | TimeUp | DealDue):
            return  # thought out or timed before the table rested: nothing is played now
        match command:
            case Inbound(conn=conn, msg=msg):
                await self._inbound(conn, msg)
            case BotMove(seat=seat, action=action, game_version=gv, offturn=offturn) if (
                command.answer_to_deal is not None
            ):
                if st.series is None or st.series.number != command.answer_to_deal:
                    return
                if action not in st.series.deal.offers(seat):
                    return  # answered already, the claim refused, or the deal is over
                s = st.seats[seat]
                if s.bot is None and not s.auto:
                    return  # the person took the seat back
                await self._commit_all(st.plan_act(seat, action, None, auto=self._for_absent(seat)))
            case BotMove(seat=seat, action=action, game_version=gv, offturn=offturn):
                if gv != st.game_version or st.series is None:
                    return  # the game moved on while the computer player thought
                if seat not in (st.series.deal.kontra_seats() if offturn else (st.to_move(),)):
                    return
                s = st.seats[seat]
                if s.bot is None and not s.auto:
                    return  # the person took the seat back
                await self._commit_all(st.plan_act(seat, action, None, auto=self._for_absent(seat)))
            case TimeUp(seat=seat, game_version=gv):
                if gv == st.game_version and st.to_move() == seat:
                    await self._commit_all(st.plan_auto(seat, True))
            case DealDue(game_version=gv):
                if gv == st.game_version and st.deal_over():
                    await self._commit_all(st.plan_next())
            case Expire(only_resting=only_resting):
                if only_resting and not st.resting:
                    return  # a person came back: the table plays on
                await self._commit_all(st.plan_expire())
            case Rest():
                await self._rest()
            case Disconnected(seat=seat):
                if seat not in self.connected_seats():
                    await self._presence()  # shown offline at once; the grace starts below
            case Back(seat=seat):
                if seat in self.connected_seats():
                    if st.resting and st.seats[seat].human:
                        await self._commit_all([ev.Wake()])
                    await self._commit_all(st.plan_auto(seat, False))
            case Remaining(events=rest, version=version):
                if version == st.version:
                    await self._commit_all(rest)
            case _:  # pragma: no cover - mypy proves every command is handled
                assert_never(command)

    async def _inbound(self, conn: Conn, msg: p.ClientMessage) -> None:
        st = self.state
        if st.status == "expired" and isinstance(
            msg, p.Sit | p.Act | p.Next | p.Leave | p.Reclaim | p.Again | p.Chat | p.React
        ):
            raise CommandError(ErrorCode.TABLE_CLOSED, "this table has expired")
        if st.status == "finished" and isinstance(msg, p.Chat | p.React):
            raise CommandError(ErrorCode.TABLE_CLOSED, "the list is over")
        match msg:
            case p.Hello(token=token, last_version=last):
                await self._hello(conn, token, last)
            case p.Sit(name=name, seat=seat, profile=profile):
                if conn.seat is not None or conn.pending is not None:
                    raise CommandError(ErrorCode.ALREADY_SEATED, "you have a seat at this table")
                token = new_token()
                planned = st.plan_sit(name, seat, hash_token(token))
                sat = planned[0]
                assert isinstance(sat, ev.Sit | ev.Takeover)
                later = isinstance(sat, ev.Takeover)
                # seated before the events go out, so that everybody sees the
                # newcomer online (a Takeover watches until the next deal)
                if later:
                    conn.pending = token
                else:
                    conn.seat, conn.token = sat.seat, token
                try:
                    await self._commit_all(planned)
                except BaseException:
                    conn.seat = conn.token = conn.pending = None
                    raise
                if profile is not None:  # linked before the seat is answered
                    await self._link_profile(profile, sat.seat, sat.name)
                await conn.send(
                    m.Seated(seat=sat.seat, token=token, version=st.version, from_next_deal=later)
                )
                await conn.send(
                    projection.snapshot(st, conn.seat, self.connected_seats(), conn.muted)
                )
            case p.Fill(creator=creator) | p.Start(creator=creator):
                if not st.is_creator(creator):
                    raise CommandError(
                        ErrorCode.NOT_CREATOR, "only the table's creator can do that"
                    )
                await self._commit_all(
                    st.plan_fill() if isinstance(msg, p.Fill) else st.plan_start()
                )
            case p.Act(action=action, version=version):
                await self._commit_all(st.plan_act(self.seat_of(conn), action, version))
            case p.Next():
                await self._commit_all(st.plan_next(self.seat_of(conn)))
            case p.Leave(keep_bot=keep_bot):
                seat = self.seat_of(conn)
                # every device of that seat now watches, and is told so (_commit)
                await self._commit_all(st.plan_leave(seat, keep_bot))
            case p.Reclaim():
                await self._commit_all(st.plan_auto(self.seat_of(conn), False))
            case p.Chat(text=text):
                planned = st.plan_chat(conn.seat, text)
                self._chat_allowed(conn)
                await self._commit_all(planned)
            case p.React(emoji=emoji):
                planned = st.plan_react(conn.seat, emoji)
                self._chat_allowed(conn)
                await self._commit_all(planned)
            case p.Mute(seat=seat, on=on):
                (conn.muted.add if on else conn.muted.discard)(seat)
            case p.Again():
                self.seat_of(conn)
                if st.status != "finished":
                    raise CommandError(ErrorCode.WRONG_PHASE, "the list is not over")
                if st.next_table is None:
                    assert self.on_again is not None
                    await self._commit(await self.on_again(st), stored=True)
            case p.Ping():
                await conn.send(m.Pong(version=conn.view_at))
            case p.Hint():
                self.bots.hint(conn)
            case p.Resync():  # the client lost a change: the whole table again
                await conn.send(
                    projection.snapshot(st, conn.seat, self.connected_seats(), conn.muted)
                )
            case _:  # pragma: no cover - mypy proves every message is handled
                assert_never(msg)

    async def _store_failed(self, command: Command, conn: Conn | None) -> None:
        """A write the store refused (a full disk, a stopped database). A
        person is told to try again; what the table itself waits for (a
        computer player's move, a timer, the next deal) is tried again after
        a backoff, so the table resumes by itself once the store works."""
        self._failures += 1
        if conn is not None:
            await conn.send(
                CommandError(
                    ErrorCode.STORE_FAILED, "the server could not save that; try again shortly"
                ).to_message()
            )
        # (an expiry is not: the sweep looks again whether the table is stale)
        if isinstance(command, BotMove | TimeUp | DealDue | Back | Remaining | Rest):
            self._retry(command)

    def _retry(self, command: Command) -> None:
        """Post ``command`` again after the backoff (it doubles with every
        refused write in a row), if the table still waits for the same then
        (a person who came back meanwhile is not timed out)."""
        cfg = self.config
        delay = min(cfg.retry_max, cfg.retry_first * 2 ** min(self._failures - 1, 16))
        key = self._wait_key if isinstance(command, BotMove | TimeUp | DealDue) else None

        async def again() -> None:
            await asyncio.sleep(delay)
            if key is None or key == self._wait_key:
                self.post(command)

        self.spawn(again())

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the queue; `stop` cancels it."""
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _chat_allowed(self, conn: Conn) -> None:
        bucket = self._chat if conn.seat is not None else self._watchers_chat
        if not bucket.allow():
            raise CommandError(ErrorCode.RATE_LIMITED, "this table's chat is busy; wait a moment")

    def seat_of(self, conn: Conn | None) -> int:
        if conn is None or conn.seat is None:
            raise CommandError(ErrorCode.NOT_SEATED, "take a seat first")
        return conn.seat

    async def _commit_all(self, events: list[ev.TableEvent]) -> None:
        self.state.check_all(events)  # nothing of a batch is stored that would fail
        for i, event in enumerate(events):
            try:
                await self._commit(event)
            except StoreFailed:
                if i == 0:
                    raise  # nothing stored: the caller is told
                # the first events are stored and applied: the rest follow
                # when the store takes them (the sender is answered as usual)
                self._failures += 1
                self._retry(Remaining(events[i:], self.state.version))
                return

    async def _commit(self, event: ev.TableEvent, stored: bool = False) -> None:
        """Persist, apply, publish: in this order (``stored``: the event is in
        the store already, written with other rows in one transaction)."""
        st = self.state
        before = st.status
        if not stored:
            st.check(event)  # proven to apply before it is stored (moves: on a clone)
            kind, payload = ev.to_row(event)
            await self.store.append(st.id, st.version + 1, kind, payload)
            self._failures = 0
        self._keep_bases()
        st.apply(event)
        if isinstance(event, ev.Next):  # pending takeovers: those people play now
            for c in self.conns:
                if c.pending is not None:
                    seat = st.seat_of_token(c.pending)
                    if seat is not None:
                        c.seat, c.token, c.pending = seat, c.pending, None
        if not isinstance(event, ev.Chat | ev.React):  # chat keeps no table alive
            self.last_event = time.time()
        if isinstance(event, ev.Act):  # by a computer: at its own seat, or for a person (auto)
            self.metrics.move(
                "computer" if event.auto or st.seats[event.seat].bot else "person", True
            )
        if st.status != before:
            try:
                await self.store.set_status(st.id, st.status)
            except Exception as exc:  # the event is stored: publish it all the same
                log.warning("table %s: storing its status failed (%s)", st.id, exc)
                self.spawn(self._save_status())
        self.history.append((st.version, event, st.act_ref(event)))
        self._relist()
        # the countdown to the next deal, fixed once when a deal ends (the
        # messages below show it; _waiting waits for it)
        if not st.deal_over():
            st.next_due = None
        elif st.next_due is None and (delay := self._next_delay()) is not None:
            st.next_due = time.time() + delay
        lost = self._follow_seats() if isinstance(event, ev.SEAT_EVENTS) else []
        seats = self.connected_seats()
        # viewers who see the same (spectators, a seat's devices) get the same
        # text, made and encoded once; the rest of the work is shared too.
        # A client that holds this viewer's view of the version before gets
        # only what changed (docs/protocol.md, "Changes"), one that does not
        # (it has just changed seats) the whole view
        version = st.version
        bases = self._bases
        # after a move, the views sent before it are the ground of the new
        # ones (`projection.Shared`: a card played changes a few parts)
        prior = (
            {v: view for v, (at, view) in bases.items() if at == version - 1}
            if isinstance(event, ev.Act)
            else None
        )
        shared = projection.Shared(prior)
        texts: dict[tuple[int | None, frozenset[int], bool], str] = {}
        for conn in list(self.conns):
            viewer = conn.seat
            held = conn.view_at == version - 1 and conn.view_of == viewer
            key = (viewer, frozenset(conn.muted), held)
            text = texts.get(key)
            if text is None:
                base = bases.get(viewer) if held else None
                text = texts[key] = p.encode(
                    projection.event_message(
                        st,
                        version,
                        event,
                        viewer,
                        conn.muted,
                        seats,
                        shared,
                        base[1] if base is not None and base[0] == version - 1 else None,
                    )
                )
            conn.push_text(text)
            conn.view_of, conn.view_at = viewer, version
        series = st.series
        if series is not None:  # the views just sent: the bases of the next changes
            for viewer in {c.seat for c in self.conns}:
                bases[viewer] = (version, shared.view_out(series, viewer))
        else:
            bases.clear()
        for conn, seat in lost:
            await conn.send(
                m.Notice(
                    code=ErrorCode.SEAT_LOST.value,
                    seat=seat,
                    message="this connection holds no seat any more; it watches",
                )
            )
            await conn.send(projection.snapshot(st, None, seats, conn.muted))

    def _keep_bases(self) -> None:
        """Before an event is applied: the view of this version for each
        viewer whose clients hold it and that no event has left in
        `_bases` (a client that has just come, with a `state`), so that
        the event's changes can be made against it."""
        st = self.state
        series = st.series
        if series is None:
            return
        version = st.version
        shared: projection.Shared | None = None
        for conn in self.conns:
            viewer = conn.seat
            if conn.view_at != version or conn.view_of != viewer:
                continue
            base = self._bases.get(viewer)
            if base is None or base[0] != version:
                shared = shared or projection.Shared()
                self._bases[viewer] = (version, shared.view_out(series, viewer))

    def _relist(self) -> None:
        """Keep the lobby's row of a public table as it is: listed with its
        free seats while it waits for people, out of it once it starts."""
        if not self.state.settings.public:
            return
        summary = lobby_summary(self.state)
        if summary == self._listed:
            return
        self._listed = summary
        st, store = self.state, self.store

        async def write() -> None:
            async with self._lobby_lock:  # what is current when it is this write's turn
                try:
                    await store.list_table(st.id, self._listed)
                except Exception as exc:  # the lobby is a view: the table plays on
                    log.warning("table %s: the lobby could not be updated (%s)", st.id, exc)

        self.spawn(write())

    async def _save_status(self) -> None:
        """Write the table's status (its summary for restarts and the sweep:
        the events stay the truth), tried again until the store takes it."""
        cfg = self.config
        for tries in itertools.count():
            await asyncio.sleep(min(cfg.retry_max, cfg.retry_first * 2 ** min(tries, 16)))
            if self.lost:
                return
            with contextlib.suppress(Exception):
                await self.store.set_status(self.state.id, self.state.status)
                return

    def _follow_seats(self) -> list[tuple[Conn, int]]:
        """Every connection whose token no longer holds its seat (the person
        left, someone else or a computer player took it) becomes a spectator."""
        lost = []
        for conn in self.conns:
            seat = conn.seat
            if seat is None:
                continue
            if not token_matches(conn.token, self.state.seats[seat].token_hash):
                conn.seat, conn.token = None, None
                lost.append((conn, seat))
        return lost

    async def _link_profile(self, key: str, seat: int, name: str) -> None:
        """Link the sitter's profile (issue 48) to ``seat``: a row of the
        profiles' own, never the table's (no table message holds a key or a
        profile's id). A link that cannot be stored costs the person nothing
        but the list's place in their profile: logged, never refused."""
        try:
            if not await self.store.link_list(hash_token(key), self.state.id, seat, name):
                log.info("table %s: a seat came with an unknown profile key", self.state.id)
        except Exception:
            log.exception("table %s: the profile's link was not stored", self.state.id)

    async def _hello(self, conn: Conn, token: str | None, last: int | None) -> None:
        st = self.state
        seat = st.seat_of_token(token) if token else None
        pending = st.pending_seat_of_token(token) if token and seat is None else None
        if token and seat is None and pending is None:
            await conn.send(
                CommandError(ErrorCode.BAD_TOKEN, "unknown seat token; watching").to_message()
            )
        conn.seat = seat
        conn.token = token if seat is not None else None
        conn.pending = token if pending is not None else None
        # a person of the table is back with their seat token: a resting
        # table goes on (a stored `wake`, told to everyone watching before
        # this connection joins them; its own `state` follows below). Not a
        # spectator, nor one waiting to take a computer's seat over
        woken = False
        if st.resting and seat is not None and st.seats[seat].human:
            try:
                await self._commit_all([ev.Wake()])
                self._people_gone = None
                woken = True
            except StoreFailed:  # the table stays resting until the store takes it
                pass
        self.conns.add(conn)
        self.empty_since = None
        if seat is not None:
            self.gone_since.pop(seat, None)
        await conn.send(m.Welcome(table=st.id, seat=seat, version=st.version, pending=pending))
        oldest = self.history[0][0] if self.history else st.version + 1
        if isinstance(last, int) and 0 <= last <= st.version and last + 1 >= oldest:
            text = projection.act_texts(st.series, seat)
            for version, event, ref in self.history:
                if version > last:

                    def move_text(ref: projection.ActRef | None = ref) -> str:
                        assert ref is not None  # only an Act asks for its text
                        return text(ref)

                    message = projection.event_json(event, seat, conn.muted, move_text)
                    await conn.send(m.Event(version=version, event=message, replayed=True))
        # with the earlier deals, so that a page opened now shows their log
        await conn.send(
            projection.snapshot(st, seat, self.connected_seats(), conn.muted, past=True)
        )
        if seat is not None:
            await self._presence()
            try:
                if st.resting and not woken and st.seats[seat].human:
                    raise StoreFailed("the wake was not stored")
                await self._commit_all(st.plan_auto(seat, False))  # the person is back
            except StoreFailed:
                self._failures += 1
                self._retry(Back(seat))

    async def _presence(self) -> None:
        """Tell everyone who is online now (not an event: nothing is stored)."""
        seats = projection.seats_json(self.state, self.connected_seats())
        for c in list(self.conns):
            await c.send(m.Presence(version=self.state.version, seats=seats))

    async def disconnect(self, conn: Conn) -> None:
        conn.stop()
        self.conns.discard(conn)
        if not self.conns and self.empty_since is None:
            self.empty_since = time.time()
        if conn.seat is not None and conn.seat not in self.connected_seats():
            self.gone_since[conn.seat] = time.monotonic()
            self.post(Disconnected(conn.seat))

    # ----------------------------------------------------- bots and timers
    def lose(self) -> None:
        """Another server process serves this table now: wait for nothing,
        send the clients there (they reconnect), let the registry drop it."""
        if self.lost:
            return
        self.lost = True
        for t in (self._timer, self._rest_timer):
            if t is not None:
                t.cancel()
        self.bots.cancel()
        for c in list(self.conns):
            c.moved("this table is served by another server process now")
        if self.on_lost is not None:
            self.on_lost()

    def _schedule(self) -> None:
        """Arm what the table waits for, unless it is armed already."""
        if self.lost:
            return
        if self._schedule_rest():  # nothing is played for people who have gone
            if self._timer is not None and not self._timer.done():
                self._timer.cancel()
            self.bots.cancel()
            self._wait_key = None
            return
        self.bots.schedule_offturn()
        self.bots.schedule_answers()
        key, wait = self._waiting()
        if key is not None and key == self._wait_key:
            return
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._wait_key = key
        self._timer = None if wait is None else asyncio.create_task(wait())

    # ------------------------------- tables that rest (issue 26; issue 49, item 1)
    def _people_here(self) -> bool:
        """Whether a person of the table is connected to their seat. Not one
        waiting to take a computer player's seat over at the next deal
        (issue 54, finding 8): anyone with the link can ask, and the deal
        would be played out for the people who left; the takeover waits
        until a person of the table is back."""
        seats = self.state.seats
        return any(not c.closed and c.seat is not None and seats[c.seat].human for c in self.conns)

    def _for_absent(self, seat: int) -> bool:
        """Whether a computer's move at ``seat`` is made for an absent person
        (marked in every output): the seat's person is away or timed out
        (``auto``), or gave the seat up with "Leave the table" during this
        deal (the computer finishes it for them)."""
        st = self.state
        return st.seats[seat].bot is None or seat in st.left_in_deal

    def _schedule_rest(self) -> bool:
        """Arm the table's rest once no person of it is connected (it rests
        after the disconnect grace, whatever is in play); whether it rests."""
        st = self.state
        if st.status != "playing" or self._people_here():
            self._people_gone = None
            if self._rest_timer is not None:
                self._rest_timer.cancel()
                self._rest_timer = None
            # nothing is played until the `wake` is stored (`_hello`, `Back`)
            return st.resting and st.status == "playing"
        if st.resting:
            return True  # only a person of the table wakes it (`_hello`)
        now = time.monotonic()
        if self._people_gone is None:
            self._people_gone = now
        if self._rest_timer is None or self._rest_timer.done():
            wait = max(0.0, self.config.grace - (now - self._people_gone))
            self._rest_timer = asyncio.create_task(self._later(wait, Rest()))
        return False

    async def _rest(self) -> None:
        """The grace is over with no person of the table here: the table
        rests (a stored `rest` event), and whoever watches is told."""
        st = self.state
        gone = self._people_gone
        if st.resting or st.status != "playing" or gone is None or self._people_here():
            return
        if time.monotonic() - gone < self.config.grace - 0.05:
            return  # an old timer: the people came and went again since
        await self._commit_all([ev.Rest()])
        log.info("table %s rests: no person at it", st.id)

    def _waiting(
        self,
    ) -> tuple[tuple[Any, ...] | None, Callable[[], Coroutine[Any, Any, None]] | None]:
        """The key of what the table waits for now (it changes only with the
        game clock, the seat to move, who holds it and whether it is online)
        and how to wait for it."""
        st = self.state
        gv = st.game_version
        if st.status != "playing" or st.series is None:
            return None, None
        if st.deal_over():
            due = st.next_due
            if due is None:
                after = self._next_delay()
                if after is None:  # one person reads as long as they like
                    return ("next", gv, None), None
                due = time.time() + after
            delay = max(0.0, due - time.time())
            return ("next", gv), lambda: self._later(delay, DealDue(gv))
        seat = st.to_move()
        if seat is None:
            return None, None
        s = st.seats[seat]
        if s.bot is not None or s.auto:
            return ("bot", gv, seat, s.bot), lambda: self.bots.move(seat, gv)
        now = time.monotonic()
        if self._turn_since[0] != st.turn_version:  # a claim is not a turn (R6.6)
            self._turn_since = (st.turn_version, now)
        delays = []
        if st.settings.timer:
            delays.append(max(0.0, st.settings.timer - (now - self._turn_since[1])))
        online = seat in self.connected_seats()
        if not self._people_here():
            return ("alone", gv, seat), None  # nobody's turn runs out: the table rests
        if not online:
            since = self.gone_since.setdefault(seat, now)
            delays.append(max(0.0, self.config.grace - (now - since)))
        key = ("turn", gv, seat, online)
        if not delays:
            return key, None
        delay = min(delays)
        return key, lambda: self._later(delay, TimeUp(seat, gv))

    def _next_delay(self) -> float | None:
        """Seconds a result shows before the next deal: a table of people
        waits longer, each may read it (all pressing Next deals at once); one
        person with computers waits for Next (None; issue 49, item 4) unless
        the server counts down (``solo_next``); a table that chose its time,
        that."""
        chosen = self.state.settings.result  # the table's own choice, if it made one
        if chosen:
            return float(chosen)
        people = len(self.state.people())
        if people > 1:
            return self.config.next_delay_people
        if people == 1 and self.config.solo_next == "wait" and not self.state.settings.countdown:
            return None
        return self.config.next_delay

    async def _later(self, delay: float, command: Command) -> None:
        await asyncio.sleep(delay)
        self.post(command)
