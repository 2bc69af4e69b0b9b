"""The computer seats of a table: what the computer players decide (off the
event loop: a thread, or the search processes with a time budget), Kontra
offered to them off their turn, their answers to a claim or a concession,
and the strong player's hints for people. Owned by one `TableActor`, which
applies what they decide as `BotMove` commands like any other move; they
reach it only through `Table`, the few things they need of it.

A computer player answers in text (a search process hands back a string);
it is parsed here, once, and the `Action` travels on typed."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine import Action, View, parse_action
from ..engine.actions import CONCEDE, REFUSE
from ..players import claims, in_processes, searches
from ..players.levels import LEVELS, choose_noted, fallback, offturn_within, quick
from . import messages as m
from .commands import BotMove, Command
from .config import ServerConfig
from .conn import Conn
from .errors import CommandError, ErrorCode
from .metrics import Metrics
from .table import TableState
from .work import SearchPool

log = logging.getLogger("skat.server")

#: The least share of the search processes a claim's answer is given: a
#: proof cut short proves nothing (the defender then refuses, R6.6)
CLAIM_FLOOR = 0.15


class Table(Protocol):
    """What the computer seats use of their table's actor (`TableActor`):
    the table, where to think, and the way back into its queue."""

    state: TableState
    config: ServerConfig
    metrics: Metrics
    pool: Executor  # threads: fast computer players, off-turn questions
    search: SearchPool | None  # processes for searching players and hints
    conns: set[Conn]

    def post(self, command: Command) -> None:
        """Queue a command (a `BotMove`) without waiting for it."""

    def seat_of(self, conn: Conn | None) -> int:
        """The seat ``conn`` holds; `CommandError` NOT_SEATED if none."""

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the queue, until the table stops."""


@dataclass(eq=False)
class _Hint:
    game_version: int  # the decision it is for
    waiting: set[Conn]  # who asked and has no answer yet
    answer: tuple[Action, bool] | None = None  # (action, fell back to a quick player)


def _hint_message(answer: tuple[Action, bool], version: int) -> m.Hint:
    return m.Hint(action=str(answer[0]), fallback=answer[1], version=version)


def _parsed(text: str | None) -> Action | None:
    """A computer player's answer (a move or nothing); raises for text
    that is not an action, which the caller treats as a failure."""
    return None if text is None else parse_action(text)


class ComputerSeats:
    def __init__(self, actor: Table) -> None:
        self.actor = actor
        self._offturn: asyncio.Task[None] | None = None
        self._offturn_key: tuple[Any, ...] | None = None
        self._answering: asyncio.Task[None] | None = None
        self._answered: dict[int, tuple[int, int]] = {}  # seat -> (deal, history index)
        # per seat: the decision (game version) a hint is for, the connections
        # waiting for it and, once thought out, the answer sent to each asker
        self._hints: dict[int, _Hint] = {}
        # per seat, what its computer player carries to its next decision
        # (`levels.choose_noted`: the game planned with the discard); lost
        # with a restart, when the player works the choice out again
        self._notes: dict[int, Any] = {}

    def tasks(self) -> tuple[asyncio.Task[None] | None, ...]:
        return (self._offturn, self._answering)

    def cancel(self) -> None:
        """Stop asking (the table rests, stops or is served elsewhere); the
        next `schedule_*` asks again."""
        for t in self.tasks():
            if t is not None and not t.done():
                t.cancel()
        self._offturn = self._answering = None
        self._offturn_key = None

    def _name(self, seat: int) -> str:
        return self.actor.state.seats[seat].bot or self.actor.state.settings.bot

    async def think(self, name: str, view: View, budget: float, seat: int) -> tuple[Action, bool]:
        """One decision of computer player ``name`` for ``seat`` off the event
        loop: a searching or light player in the search pool with a time
        budget, others in a thread; whatever fails or runs late is
        `heuristic`'s choice instead. Returns the action and whether it is
        that fallback (the player's own included: a search whose first world
        did not finish in its time)."""
        loop = asyncio.get_running_loop()
        legal = view.legal_actions
        phase = str(view.phase)
        decisions = self.actor.metrics.decisions.labels(name, phase)
        if len(legal) == 1:  # nothing to think about (the last trick): no trip
            decisions.inc()
            return legal[0], False
        seed = random.getrandbits(32)
        notes = self._notes.get(seat)
        why = "it fell back itself"
        try:
            if in_processes(name) and self.actor.search is not None:
                # the pool gives the search what is left of the budget when a
                # process is free (a fair share when many wait): the answer is
                # due by then, with a little room for the trip back (the solver
                # stops there: a short share still finishes one world); a bid,
                # Hand or pickup, a planned announcement (a millisecond) first
                job = self.actor.search.run(
                    self.actor.state.id,
                    choose_noted,
                    budget,
                    name,
                    view,
                    seed,
                    notes,
                    quick=quick(view, notes),
                    limit=True,
                )
                choice = await asyncio.wait_for(job, budget + 0.5)
            else:
                inner = budget * 0.75 if searches(name) else None
                choice = await asyncio.wait_for(
                    loop.run_in_executor(
                        self.actor.pool, choose_noted, name, view, seed, notes, inner
                    ),
                    budget,
                )
            self._notes[seat] = choice.notes
            action = parse_action(choice.text)
            if action in legal and not choice.fell_back:
                decisions.inc()
                return action, False
            if action in legal:  # `heuristic`'s already, made in the player's time
                decisions.inc()
                self.actor.metrics.fallbacks.labels(name, phase).inc()
                log.warning(
                    "table %s: %s fell back in %s (%s); heuristic instead",
                    self.actor.state.id,
                    name,
                    phase,
                    why,
                )
                return action, True
            why = f"it chose {choice.text!r}, not legal"
        except Exception as exc:  # TimeoutError and work.Late included
            why = str(exc) or type(exc).__name__
        log.warning(
            "table %s: %s failed in %s (%s); heuristic instead",
            self.actor.state.id,
            name,
            phase,
            why,
        )
        decisions.inc()
        self.actor.metrics.fallbacks.labels(name, phase).inc()
        return await loop.run_in_executor(self.actor.pool, fallback, view), True

    async def move(self, seat: int, game_version: int) -> None:
        st = self.actor.state
        assert st.series is not None
        view = st.series.deal.view(seat)
        loop = asyncio.get_running_loop()
        started = loop.time()
        action, _ = await self.think(self._name(seat), view, self.actor.config.bot_budget, seat)
        rest = self.actor.config.bot_delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        self.actor.post(BotMove(seat, action, game_version))

    def schedule_offturn(self) -> None:
        """Offer Kontra to computer players that may say it now but are not to
        move (R9.3's window runs until their own first card), once per game
        state; the seat to move is asked through its own decision."""
        st = self.actor.state
        seats: tuple[int, ...] = ()
        if st.status == "playing" and st.series is not None:
            now = st.to_move()
            seats = tuple(
                s
                for s in st.series.deal.kontra_seats()
                if s != now and (st.seats[s].bot is not None or st.seats[s].auto)
            )
        key = (st.game_version, seats) if seats else None
        if key == self._offturn_key:
            return
        if self._offturn is not None and not self._offturn.done():
            self._offturn.cancel()
        self._offturn_key = key
        self._offturn = None if not seats else asyncio.create_task(self._ask_offturn(seats))

    async def _ask_offturn(self, seats: tuple[int, ...]) -> None:
        st = self.actor.state
        assert st.series is not None
        gv = st.game_version
        loop = asyncio.get_running_loop()
        for seat in seats:
            view = st.series.deal.view(seat)
            name = self._name(seat)
            try:
                said = _parsed(
                    await asyncio.wait_for(
                        loop.run_in_executor(
                            self.actor.pool, offturn_within, name, view, random.getrandbits(32)
                        ),
                        self.actor.config.bot_budget,
                    )
                )
            except Exception as exc:  # a computer player that fails says nothing
                log.warning("table %s: %s off-turn failed (%s)", st.id, name, exc)
                continue
            if said is not None:
                self.actor.post(BotMove(seat, said, gv, offturn=True))
                return

    def schedule_answers(self) -> None:
        """A computer defender answers a claim or its partner's concession
        (R6.6, players/claims.py), once per such move, one seat at a time."""
        st = self.actor.state
        if st.status != "playing" or st.series is None:
            return
        if self._answering is not None and not self._answering.done():
            return  # it schedules again when done
        deal, number = st.series.deal, st.series.number
        for seat, s in enumerate(st.seats):
            if (s.bot is None and not s.auto) or CONCEDE not in deal.offers(seat):
                continue
            view = deal.view(seat)
            last_deal, last = self._answered.get(seat, (number, -1))
            asked = last if last_deal == number else -1
            at = claims.pending(view, asked)
            if at is None:
                continue
            self._answered[seat] = (number, at)
            self._answering = asyncio.create_task(self._answer(seat, view, number))
            return

    async def _answer(self, seat: int, view: View, number: int) -> None:
        loop = asyncio.get_running_loop()
        config = self.actor.config  # up to 66 solves at the first trick, once a deal
        budget = max(config.bot_budget * 2, config.claim_budget)
        seed = random.getrandbits(32)
        answer: Action | None
        job: Awaitable[str | None]
        try:
            if self.actor.search is not None:  # solves: in the search processes, fairly
                job = self.actor.search.run(
                    self.actor.state.id,
                    claims.answer_within,
                    budget,
                    view,
                    seed,
                    floor=CLAIM_FLOOR,
                )
            else:
                job = loop.run_in_executor(
                    self.actor.pool, claims.answer_within, view, seed, budget * 0.75
                )
            answer = _parsed(await asyncio.wait_for(job, budget + 0.5))
        except Exception as exc:  # an answer that fails or runs late plays on
            log.warning("table %s: the answer to a claim failed (%s)", self.actor.state.id, exc)
            answer = None
        if answer is None and REFUSE in view.offers:
            answer = REFUSE  # a claim it cannot prove: it says so at once (R6.6)
        if answer is not None:
            self.actor.post(BotMove(seat, answer, -1, offturn=True, answer_to_deal=number))
        self._answering = None
        self.schedule_answers()  # another seat may be waiting for its turn to answer

    def hint(self, conn: Conn) -> None:
        """The strong player's suggestion for the decision in front of the
        person (shown, never played for them); answered to them alone. One
        is thought out per seat and decision: asking again, from this or
        another device, waits for that one or gets its answer."""
        st = self.actor.state
        if not st.settings.hint:
            raise CommandError(ErrorCode.HINT_OFF, "this table plays without hints")
        seat = self.actor.seat_of(conn)
        if st.series is None or st.to_move() != seat or st.status != "playing":
            raise CommandError(ErrorCode.NO_DECISION, "nothing to decide right now")
        gv = st.game_version
        hint = self._hints.get(seat)
        if hint is not None and hint.game_version == gv:
            if hint.answer is None:
                hint.waiting.add(conn)
                return
            if not hint.answer[1]:  # a quick one (fell back) may be searched when asked again
                self.actor.spawn(conn.send(_hint_message(hint.answer, st.version)))
                return
        hint = self._hints[seat] = _Hint(gv, {conn})
        view = st.series.deal.view(seat)

        async def think() -> None:
            action, fell_back = await self.think(
                LEVELS["strong"], view, self.actor.config.hint_budget, seat
            )
            # "fallback": the strong player had no time; the page says so
            hint.answer = (action, fell_back)
            if gv == st.game_version:  # still the same decision
                for c in hint.waiting:
                    if c in self.actor.conns and c.seat == seat:
                        await c.send(_hint_message(hint.answer, st.version))
            hint.waiting.clear()

        self.actor.spawn(think())
