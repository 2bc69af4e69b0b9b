"""Tournaments on the server (issue 27, point 1; docs/tournaments.md).

An organiser creates a tournament and gets two links: one to share, one to
run it (its secret, kept hashed like the creator's of a table). Entrants
enter a name by the shared link and get a token of their own (hashed
here); it is their seat token at every table of the tournament, so the
table page seats them with nothing more. The organiser starts each series:
the draw of `skat.series.tournament` (committed to at creation, revealed
when the tournament is over) seats the entrants, with computer fill to
whole tables where the tournament allows it, and every table is an
ordinary table, stored with its seats taken and its list started in the
same transaction as the draw. A seat whose person never comes is played
by a computer player after the grace time while someone else plays at
the table, and the table shows it; a table with none of its people
connected rests like any other (issue 54, finding 3; issue 49, item 1);
once no table of the series plays, the organiser may close the resting
ones, their lists unfinished. The standings add every table's list
totals as played (R8.4).

A tournament is one row whose entrants and draws change by compare-and-set
(`Store.update_tournament`): two workers taking entries at once both land,
one after the other.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..players import searches
from ..series import commitment, new_seed
from ..series.sheet import totals
from ..series.tournament import MAX_ENTRANTS, draw, fill_to_tables, standings, table_sizes
from ..sheetview import safe_csv
from .config import ServerConfig
from .conn import AddressBuckets
from .errors import ErrorCode
from .offer import NotOffered, rounds_option, table_options
from .protocol import MAX_NAME
from .registry import LIVE, TableBroken, TableElsewhere, Tables
from .schema import CorruptRow
from .store import Store, StoredTournament, address_key
from .table import TableState, clean_text, name_problem
from .tokens import hash_token, new_token, token_matches

log = logging.getLogger("skat.server")

#: The longest tournament name; the most series; tries of a compare-and-set.
MAX_TITLE = 60
MAX_SERIES = 8
TRIES = 8
#: The table options a tournament sets itself (each table's size and length,
#: and it never shows in the lobby; `rest` is no table's option any more).
OWN_KEYS = frozenset({"players", "rounds", "deals", "rest", "public", "lang"})


class TournamentError(Exception):
    """A refused tournament request: the wire's ``error.code``, a message,
    the HTTP status."""

    def __init__(self, code: ErrorCode, message: str, status: int = 409) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Created:
    id: str
    organiser: str


def _int(data: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{key} must be a whole number from {low} to {high}")
    return value


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false")
    return value


def tournament_config(data: Any, config: ServerConfig) -> dict[str, Any]:
    """The checked settings of a creation body; raises `ValueError`."""
    if not isinstance(data, dict):
        raise ValueError("a JSON object is expected")
    known = {"name", "series", "rounds", "fill", "public", "lang", "rules"}
    if set(data) - known:
        raise ValueError(f"unknown field(s): {', '.join(sorted(set(data) - known))[:100]}")
    raw = data.get("name")
    name = clean_text(raw, MAX_TITLE) if isinstance(raw, str) else ""
    problem = "a name is needed" if not name else name_problem(name, [])
    if problem is not None:
        raise ValueError(f"name: {problem}")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise ValueError("rules must be an object of table options")
    if set(rules) & OWN_KEYS:
        raise ValueError(f"the tournament sets {', '.join(sorted(set(rules) & OWN_KEYS))} itself")
    series = _int(data, "series", 1, 1, MAX_SERIES)
    rounds_spec = rounds_option(config)
    rounds = data.get("rounds", rounds_spec.default)
    rounds_spec.check(rounds)
    lang = data.get("lang", "en")
    for players in (3, 4):  # every table the draw can make must be a valid table
        table_options({**rules, "players": players, "rounds": rounds, "lang": lang}, config)
    return {
        "name": name,
        "series": series,
        "rounds": rounds,
        "fill": _bool(data, "fill", True),
        "public": _bool(data, "public", False),
        "lang": lang,
        "rules": rules,
    }


def _fill_names(count: int, taken: list[str]) -> list[str]:
    """Names for ``count`` computer players that read like no entrant's."""
    out: list[str] = []
    n = 0
    while len(out) < count:
        n += 1
        name = f"Computer {n}"
        if name_problem(name, [*taken, *out]) is None:
            out.append(name)
    return out


#: Finished tables whose summaries the views keep (8 series of 67 tables
#: are 536 of one tournament; a summary is a few hundred bytes).
FINISHED_KEPT = 20_000


@dataclass(frozen=True)
class _Summary:
    """What a tournament's view shows of one table: its status, and once its
    list began, the deals played and to play, its sheet's totals by seat
    and the seats computers play for people who are away."""

    status: str
    closed: bool
    deal: int = 0
    deals: int = 0
    sums: tuple[Any, ...] | None = None
    away: tuple[int, ...] = ()
    resting: bool = False  # none of its people is here: nothing is played


def _summary(state: TableState) -> _Summary:
    lst = state.series
    if lst is None:
        return _Summary(state.status, state.closed())
    return _Summary(
        state.status,
        state.closed(),
        len(lst.rows),
        state.options.deals_per_list,
        tuple(totals(lst.rows, len(state.seats), state.options.scoring)),
        tuple(i for i, x in enumerate(state.seats) if x.auto),
        state.resting and not state.closed(),
    )


def _active(entrants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entrants the next draw seats (those not withdrawn)."""
    return [e for e in entrants if not e.get("withdrawn")]


class Tournaments:
    """The server's tournaments: made, entered, drawn and ranked here; the
    tables themselves are `Tables`'."""

    def __init__(self, tables: Tables, store: Store, config: ServerConfig) -> None:
        self.tables = tables
        self.store = store
        self.config = config
        # entries by shared links, per client address (`enter`)
        self._entry_rates = AddressBuckets(config.entry_rate, config.entry_burst)
        # per tournament: when its public view was made, and the view (it is
        # polled by every entrant's page and the standings screen)
        self._views: dict[str, tuple[float, dict[str, Any]]] = {}
        self._rendering: dict[str, asyncio.Future[dict[str, Any]]] = {}  # views being made
        self._bodies: dict[str, tuple[dict[str, Any], bytes]] = {}  # views encoded, by id
        self._finished: OrderedDict[str, _Summary] = OrderedDict()  # finished tables, by id

    # --------------------------------------------------------------- make
    async def create(self, data: Any, address: str | None) -> Created:
        settings = tournament_config(data, self.config)
        key = None if address is None else address_key(address)
        now = time.time()
        if key is not None and await self.store.tournaments_from(key, now - 3600) >= (
            self.config.tournaments_per_address
        ):
            raise TournamentError(
                ErrorCode.TOO_MANY_TOURNAMENTS,
                f"at most {self.config.tournaments_per_address} new tournaments an hour "
                "from one address",
                429,
            )
        organiser = new_token()
        seed = new_seed()
        t = StoredTournament(
            id=secrets.token_urlsafe(9),
            created_at=now,
            status="open",
            config=settings,
            seed=seed.hex(),
            commitment=commitment(seed),
            organiser_hash=hash_token(organiser),
            version=0,
            doc={"entrants": [], "series": []},
        )
        await self.store.create_tournament(t, key)
        return Created(t.id, organiser)

    async def _get(self, tournament_id: str) -> StoredTournament:
        try:
            t = await self.store.tournament(tournament_id)
        except CorruptRow as exc:
            log.error("tournament %s cannot be read: %s", tournament_id, exc)
            raise TournamentError(
                ErrorCode.TOURNAMENT_BROKEN, "this tournament's record cannot be read", 500
            ) from None
        if t is None:
            raise TournamentError(ErrorCode.NO_TOURNAMENT, "no such tournament", 404)
        return t

    def _expired(self, t: StoredTournament) -> bool:
        return t.status == "expired" or (
            t.status == "open" and time.time() - t.created_at > self.config.tournament_timeout
        )

    def _organiser(self, t: StoredTournament, token: Any) -> None:
        if not isinstance(token, str) or not token_matches(token, t.organiser_hash):
            raise TournamentError(
                ErrorCode.NOT_ORGANISER, "only the organiser's link may do that", 403
            )

    # -------------------------------------------------------------- enter
    async def enter(
        self, tournament_id: str, data: Any, address: str | None = None
    ) -> tuple[str, str]:
        """A new entrant: their cleaned name and their token. By the shared
        link until the first series is drawn or the organiser closes the
        entries, at most ``entries_per_address`` from one client address
        and at most ``entry_rate`` a second; the organiser adds people
        (``organiser`` in the body) at any time, from the next series on."""
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise TournamentError(ErrorCode.BAD_NAME, "a name is needed", 400)
        name = clean_text(data["name"], MAX_NAME)
        if "organiser" not in data and not self._entry_rates.allow(address):
            raise TournamentError(
                ErrorCode.TOO_MANY_ENTRIES, "too many entries at once; try again shortly", 429
            )
        # one change at a time in this process; other workers' by compare-and-set
        async with self.tables.locked(f"tournament:{tournament_id}"):
            return await self._enter(tournament_id, data, name, address)

    async def _enter(
        self, tournament_id: str, data: dict[str, Any], name: str, address: str | None
    ) -> tuple[str, str]:
        token = new_token()
        by = None if "organiser" in data or address is None else address_key(address)
        for _ in range(TRIES):
            t = await self._get(tournament_id)
            if self._expired(t) or t.status != "open":
                raise TournamentError(ErrorCode.TOURNAMENT_OVER, "this tournament is over")
            if "organiser" in data:
                self._organiser(t, data["organiser"])
            elif t.doc["series"]:
                raise TournamentError(
                    ErrorCode.ENTRY_CLOSED,
                    "the first series has begun: the organiser can still add you",
                )
            elif t.doc.get("entry_closed"):
                raise TournamentError(
                    ErrorCode.ENTRY_CLOSED,
                    "the organiser has closed the entries: they can still add you",
                )
            entrants = t.doc["entrants"]
            if (
                by is not None
                and sum(1 for e in _active(entrants) if e.get("by") == by)
                >= self.config.entries_per_address
            ):
                raise TournamentError(
                    ErrorCode.TOO_MANY_ENTRIES,
                    f"at most {self.config.entries_per_address} entries from one address: "
                    "the organiser can add more",
                    429,
                )
            if len(_active(entrants)) >= min(MAX_ENTRANTS, self.config.max_entrants):
                raise TournamentError(ErrorCode.TOURNAMENT_FULL, "the tournament is full")
            problem = (
                "a name is needed"
                if not name
                else name_problem(name, [e["name"] for e in entrants])
            )
            if problem is not None:
                raise TournamentError(ErrorCode.BAD_NAME, problem, 400)
            entry = {"name": name, "hash": hash_token(token), "at": time.time()}
            if by is not None:  # a hash of the address, as the creation limits keep it
                entry["by"] = by
            doc = {**t.doc, "entrants": [*entrants, entry]}
            if await self.store.update_tournament(t, doc):
                self._views.pop(tournament_id, None)
                return name, token
        raise TournamentError(ErrorCode.BUSY, "many entries at once: try again", 503)

    async def set_entry(self, tournament_id: str, data: Any) -> bool:
        """The organiser closes the entry by the shared link (``{"organiser",
        "open": false}``) or opens it again; whether it is open now. The
        organiser still adds people; a closed tournament leaves the lobby."""
        if not isinstance(data, dict) or not isinstance(data.get("open"), bool):
            raise TournamentError(
                ErrorCode.BAD_REQUEST, '{"organiser", "open": true or false} is expected', 400
            )
        async with self.tables.locked(f"tournament:{tournament_id}"):
            for _ in range(TRIES):
                t = await self._get(tournament_id)
                self._organiser(t, data.get("organiser"))
                if self._expired(t) or t.status != "open":
                    raise TournamentError(ErrorCode.TOURNAMENT_OVER, "this tournament is over")
                doc = {**t.doc, "entry_closed": not data["open"]}
                if await self.store.update_tournament(t, doc):
                    self._views.pop(tournament_id, None)
                    return bool(data["open"])
        raise TournamentError(ErrorCode.BUSY, "many changes at once: try again", 503)

    async def withdraw(self, tournament_id: str, data: Any) -> str:
        """Take an entrant out of the series still to be drawn: the organiser
        any of them by name (a no-show, a name that should not be there),
        an entrant themselves by their token. Their lists played so far stay
        in the standings; the name stays taken. The name withdrawn."""
        if not isinstance(data, dict):
            raise TournamentError(ErrorCode.BAD_REQUEST, "a JSON object is expected", 400)
        async with self.tables.locked(f"tournament:{tournament_id}"):
            for _ in range(TRIES):
                t = await self._get(tournament_id)
                if self._expired(t) or t.status != "open":
                    raise TournamentError(ErrorCode.TOURNAMENT_OVER, "this tournament is over")
                entrants = t.doc["entrants"]
                if "organiser" in data:
                    self._organiser(t, data["organiser"])
                    name = data.get("name")
                    found = [e for e in _active(entrants) if e["name"] == name]
                else:
                    token = data.get("token")
                    found = _active(
                        [
                            e
                            for e in entrants
                            if isinstance(token, str) and token_matches(token, e["hash"])
                        ]
                    )
                if not found:
                    raise TournamentError(ErrorCode.NO_ENTRANT, "no such entrant", 404)
                gone: str = found[0]["name"]
                if t.doc["series"]:  # they played: keep the entry, out of the next draws
                    kept = [{**e, "withdrawn": True} if e["name"] == gone else e for e in entrants]
                else:  # nothing played: the entry goes, and its name is free again
                    kept = [e for e in entrants if e["name"] != gone]
                if await self.store.update_tournament(t, {**t.doc, "entrants": kept}):
                    self._views.pop(tournament_id, None)
                    return gone
        raise TournamentError(ErrorCode.BUSY, "many changes at once: try again", 503)

    # ------------------------------------------------------------- series
    async def _summaries(self, ids: list[str]) -> list[_Summary | None]:
        """What the views show of each table (None: broken): a finished
        table's kept once made (it never changes again: no replay, however
        many tables and views), an unfinished one's from its state now."""
        out: list[_Summary | None] = []
        for table_id in ids:
            done = self._finished.get(table_id)
            if done is not None:
                out.append(done)
                continue
            try:
                state = await self.tables.follow(table_id)
            except TableBroken:
                state = None
            if state is None:
                out.append(None)
                continue
            summary = _summary(state)
            if state.closed():
                self._finished[table_id] = summary
                while len(self._finished) > FINISHED_KEPT:
                    self._finished.popitem(last=False)
            out.append(summary)
        return out

    async def start_series(
        self, tournament_id: str, organiser: Any, address: str | None = None
    ) -> int:
        """Draw the next series and start its tables; its number. The tables
        count as the organiser's (``address``, the draw's): against the
        limits of unfinished tables from one address (`tournament_tables`
        in all, `strong_tables_per_address` with searching computer
        players), as tables they create count."""
        async with self.tables.locked(f"tournament:{tournament_id}"):
            return await self._start_series(tournament_id, organiser, address)

    async def close_resting(self, tournament_id: str, organiser: Any) -> int:
        """The organiser closes the resting tables of the latest series once
        no table of it plays: each list unfinished, its totals as played (the
        series is over then; the next draw may come). How many."""
        async with self.tables.locked(f"tournament:{tournament_id}"):
            t = await self._get(tournament_id)
            self._organiser(t, organiser)
            done = t.doc["series"]
            if self._expired(t) or t.status != "open" or not done:
                raise TournamentError(ErrorCode.TOURNAMENT_OVER, "no series is in play")
            ids = [x["id"] for x in done[-1]["tables"]]
            states = await self._summaries(ids)
            if any(s is not None and not s.closed and not s.resting for s in states):
                raise TournamentError(
                    ErrorCode.SERIES_IN_PLAY, "a table of this series still plays"
                )
            closed = 0
            for table_id, s in zip(ids, states, strict=True):
                if s is not None and s.resting:
                    try:
                        await self.tables.close_resting(table_id)
                    except TableElsewhere:
                        raise TournamentError(
                            ErrorCode.SERIES_IN_PLAY,
                            "a resting table is being handed over by another server "
                            "process: try again in a moment",
                        ) from None
                    except TableBroken:
                        continue
                    closed += 1
            self._views.pop(tournament_id, None)
            return closed

    async def _limits(self, key: str | None, count: int, strong: bool) -> None:
        """Refuse a draw of ``count`` tables that the organiser's address
        (``key``) may not have beside its unfinished ones."""
        if key is None:
            return
        cfg = self.config
        unfinished, searching = await self.store.unfinished_from(key, LIVE)
        if unfinished + count > max(cfg.tournament_tables, cfg.open_tables_per_address):
            raise TournamentError(
                ErrorCode.TOO_MANY_TABLES,
                f"this series has {count} tables, and one address may have at most "
                f"{max(cfg.tournament_tables, cfg.open_tables_per_address)} unfinished "
                f"({unfinished} now)",
                429,
            )
        if strong and searching + count > cfg.strong_tables_per_address:
            raise TournamentError(
                ErrorCode.TOO_MANY_TABLES,
                f"this series has {count} tables with strong computer players, and one "
                f"address may have at most {cfg.strong_tables_per_address} of them "
                f"unfinished ({searching} now): choose another level",
                429,
            )

    async def _start_series(self, tournament_id: str, organiser: Any, address: str | None) -> int:
        key = None if address is None else address_key(address)
        for _ in range(TRIES):
            t = await self._get(tournament_id)
            self._organiser(t, organiser)
            cfg = t.config
            done = t.doc["series"]
            if self._expired(t) or t.status != "open" or len(done) >= cfg["series"]:
                raise TournamentError(ErrorCode.TOURNAMENT_OVER, "every series has been played")
            if done:
                states = await self._summaries([x["id"] for x in done[-1]["tables"]])
                if any(s is not None and not s.closed for s in states):
                    raise TournamentError(
                        ErrorCode.SERIES_IN_PLAY,
                        "the next series is drawn when every table has finished "
                        "(or, resting, was closed by the organiser)",
                    )
            people = _active(t.doc["entrants"])
            names = [e["name"] for e in people]
            fill = fill_to_tables(len(names)) if cfg["fill"] else 0
            try:
                if not names:
                    raise ValueError("nobody has entered")
                table_sizes(len(names) + fill)
            except ValueError:
                raise TournamentError(
                    ErrorCode.NO_ENTRANTS,
                    f"{len(names)} entrants cannot sit at tables of three and four "
                    "without computer players",
                ) from None
            computers = _fill_names(fill, names)
            number = len(done) + 1
            drawn = draw(bytes.fromhex(t.seed), number, names + computers)
            if await self.store.count(LIVE) + len(drawn) > self.config.max_open_tables:
                raise TournamentError(
                    ErrorCode.TOO_MANY_TABLES, "too many open tables; try later", 503
                )
            hashes = {e["name"]: e["hash"] for e in people}
            made = []
            strong = False
            # a tournament keeps the length it was made with, as a stored
            # table does, whatever --max-rounds is now (issue 54, finding 10)
            made_with = dataclasses.replace(
                self.config, max_rounds=max(self.config.max_rounds, cfg["rounds"])
            )
            for seats in drawn:
                try:
                    options, settings = table_options(
                        {
                            **cfg["rules"],
                            "players": len(seats),
                            "rounds": cfg["rounds"],
                            "lang": cfg["lang"],
                        },
                        made_with,
                    )
                except (ValueError, TypeError, NotOffered) as exc:  # e.g. a level withdrawn
                    log.warning("tournament %s: its tables cannot be made: %s", t.id, exc)
                    raise TournamentError(
                        ErrorCode.BAD_OPTIONS,
                        f"this tournament's tables cannot be made on this server: {exc}"[:300],
                    ) from None
                # a tournament table moves on by itself (the series waits for it),
                # and its seats are the entrants'
                settings = dataclasses.replace(settings, countdown=True, reserved=True)
                strong = strong or searches(settings.bot)
                made.append(
                    self.tables.seated(options, settings, [(n, hashes.get(n)) for n in seats])
                )
            series = {
                "entrants": names + computers,
                "computers": computers,
                "tables": [
                    {"id": stored.id, "seats": seats}
                    for (stored, _, _), seats in zip(made, drawn, strict=True)
                ],
            }
            await self._limits(key, len(made), strong)
            doc = {**t.doc, "series": [*done, series]}
            rows = [(stored, table_rows) for stored, _, table_rows in made]
            if await self.store.update_tournament(t, doc, tables=rows, address=key, strong=strong):
                for _, state, _ in made:
                    await self.tables.start_seated(state)
                self._views.pop(tournament_id, None)
                return number
        raise TournamentError(ErrorCode.BUSY, "the tournament changed meanwhile: try again", 503)

    # --------------------------------------------------------------- view
    async def view(self, tournament_id: str) -> dict[str, Any]:
        """What everyone may see: the entrants, every series' tables with
        their progress and totals, the standings; the draw's seed once the
        tournament is over. Made at most once per ``tournament_cache``."""
        kept = self._views.get(tournament_id)
        if kept is not None and time.monotonic() - kept[0] < self.config.tournament_cache:
            return kept[1]
        # the views asked for while one is being made wait for that one
        task = self._rendering.get(tournament_id)
        if task is None:
            task = asyncio.ensure_future(self._fresh(tournament_id))
            self._rendering[tournament_id] = task

            def done(finished: asyncio.Future[dict[str, Any]]) -> None:
                if self._rendering.get(tournament_id) is finished:
                    del self._rendering[tournament_id]

            task.add_done_callback(done)
        return await asyncio.shield(task)

    async def view_body(self, tournament_id: str) -> bytes:
        """`view` as JSON, encoded once per view made (every entrant's page
        polls it twice a second)."""
        out = await self.view(tournament_id)
        kept = self._bodies.get(tournament_id)
        if kept is not None and kept[0] is out:
            return kept[1]
        body = json.dumps(out, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        self._bodies.pop(tournament_id, None)
        self._bodies[tournament_id] = (out, body.encode())
        while len(self._bodies) > 256:  # the longest unasked go
            del self._bodies[next(iter(self._bodies))]
        return self._bodies[tournament_id][1]

    async def _fresh(self, tournament_id: str) -> dict[str, Any]:
        now = time.monotonic()
        t = await self._get(tournament_id)
        out = await self._render(t)
        self._views[tournament_id] = (now, out)
        if len(self._views) > 256:  # the oldest go
            for key in sorted(self._views, key=lambda k: self._views[k][0])[:64]:
                del self._views[key]
        return out

    async def _render(self, t: StoredTournament) -> dict[str, Any]:
        cfg = t.config
        results = []
        by_series: dict[str, list[int | None]] = {}  # each person's total per series
        series_out = []
        playing = False
        resting: list[str] = []  # tables none of whose people is here
        for number, s in enumerate(t.doc["series"], 1):
            computers = set(s["computers"])
            states = await self._summaries([x["id"] for x in s["tables"]])
            tables_out = []
            for table, state in zip(s["tables"], states, strict=True):
                seats = table["seats"]
                row: dict[str, Any] = {
                    "id": table["id"],
                    "url": f"/t/{table['id']}",
                    "seats": [{"name": n, "computer": n in computers} for n in seats],
                    "status": "broken" if state is None else state.status,
                }
                if state is not None and state.sums is not None:
                    row["deal"] = state.deal
                    row["deals"] = state.deals
                    row["totals"] = {seats[x.seat]: x.total for x in state.sums}
                    row["away"] = [seats[i] for i in state.away]
                    if state.resting:
                        row["resting"] = True
                    for x in state.sums:
                        who = seats[x.seat]
                        if who in computers:
                            continue
                        results.append((who, x))
                        column = by_series.setdefault(who, [None] * len(t.doc["series"]))
                        column[number - 1] = x.total
                if state is not None and not state.closed:
                    if state.resting:
                        resting.append(table["id"])
                    else:
                        playing = True
                tables_out.append(row)
            series_out.append({"number": number, "tables": tables_out})
        drawn = len(t.doc["series"])
        # a resting table holds up the series until its people come back or
        # the organiser closes it (`close_resting`): nothing is closed behind
        # the back of someone who is on their way to the table
        playing = playing or bool(resting)
        over = not playing and drawn >= cfg["series"]
        if over and t.status == "open":
            await self.store.update_tournament(t, t.doc, status="finished")
        expired = self._expired(t) and not over
        return {
            "id": t.id,
            "name": cfg["name"],
            "url": f"/tournament/{t.id}",
            "rules": cfg["rules"],
            "series_total": cfg["series"],
            "rounds": cfg["rounds"],
            "fill": cfg["fill"],
            "public": cfg["public"],
            "lang": cfg["lang"],
            "state": (
                "expired"
                if expired
                else "finished"
                if over
                else "playing"
                if playing
                else "entry"
                if not drawn
                else "between"
            ),
            "entry_closed": bool(t.doc.get("entry_closed")),
            "entrants": [e["name"] for e in _active(t.doc["entrants"])],
            "withdrawn": [e["name"] for e in t.doc["entrants"] if e.get("withdrawn")],
            "series": series_out,
            "standings": [
                {
                    "name": r.name,
                    "total": r.total,
                    "won": r.won,
                    "lost": r.lost,
                    "lists": r.lists,
                    "place": r.place,
                    "series": by_series.get(r.name, []),
                }
                for r in standings(results)
            ],
            "commitment": t.commitment,
            "seed": t.seed if over else None,
            "draws": (
                [{"number": i, "entrants": s["entrants"]} for i, s in enumerate(t.doc["series"], 1)]
                if over
                else None
            ),
        }

    async def standings_csv(self, tournament_id: str) -> tuple[str, str]:
        """The standings as CSV (place, name, total, won, lost, lists, one
        column per series) and the tournament's name."""
        v = await self.view(tournament_id)
        count = len(v["series"])
        rows: list[list[Any]] = [
            ["place", "name", "total", "won", "lost", "lists"]
            + [f"series {n}" for n in range(1, count + 1)]
        ]
        for r in v["standings"]:
            per = [("" if x is None else x) for x in r["series"]]
            rows.append(
                [r["place"], r["name"], r["total"], r["won"], r["lost"], r["lists"]]
                + per
                + [""] * (count - len(per))
            )
        return safe_csv(rows), v["name"]

    async def lobby(self, limit: int, per_address: int) -> list[dict[str, Any]]:
        """Public tournaments open for entry, newest first: what the home
        page lists (name, rules, entrants, series and rounds, language)."""
        since = time.time() - self.config.tournament_timeout
        out = []
        for t in await self.store.listed_tournaments(since, limit, per_address):
            cfg = t.config
            out.append(
                {
                    "id": t.id,
                    "url": f"/tournament/{t.id}",
                    "name": cfg["name"],
                    "rules": cfg["rules"],
                    "series": cfg["series"],
                    "rounds": cfg["rounds"],
                    "fill": cfg["fill"],
                    "lang": cfg["lang"],
                    "entrants": len(_active(t.doc["entrants"])),
                    "places": min(MAX_ENTRANTS, self.config.max_entrants),
                }
            )
        return out

    async def me(self, tournament_id: str, token: Any) -> dict[str, Any]:
        """An entrant's own view: their name and their table in the series
        in play (or the last one drawn)."""
        t = await self._get(tournament_id)
        if not isinstance(token, str):
            raise TournamentError(ErrorCode.BAD_TOKEN, "an entrant's token is needed", 400)
        mine = [e for e in t.doc["entrants"] if token_matches(token, e["hash"])]
        if not mine:
            raise TournamentError(ErrorCode.BAD_TOKEN, "not an entrant of this tournament", 403)
        name = mine[0]["name"]
        tables = [
            {
                "series": number,
                "table": k,
                "id": x["id"],
                "url": f"/t/{x['id']}",
                "seat": x["seats"].index(name),
            }
            for number, s in enumerate(t.doc["series"], 1)
            for k, x in enumerate(s["tables"], 1)
            if name in x["seats"]
        ]
        return {
            "name": name,
            "table": tables[-1] if tables else None,  # the newest
            "tables": tables,  # one a series they sat in: their sheets
            "withdrawn": bool(mine[0].get("withdrawn")),
        }


__all__ = ["Created", "TournamentError", "Tournaments", "tournament_config"]
