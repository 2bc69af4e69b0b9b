"""The server's tunables and limits (docs/protocol.md, Security; issue 29,
point 3: out of actor.py). `skat serve`'s options set them: a field declared
with `tunable` has an option of its name, its help and range given here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..players import public_players
from .store import LEASE_TTL
from .tunable import tunable

HISTORY = 256  # events kept for resending to a client that reconnects


@dataclass
class ServerConfig:
    """Tunables and limits (docs/protocol.md, Security); tests set the delays to 0.
    The fields made with `tunable` are `skat serve`'s options, in this order."""

    bot_delay: float = tunable(0.8, "Seconds before a computer player's move is shown.")
    next_delay: float = tunable(  # seconds between a settled deal and the next one
        6.0, "Seconds a result shows before the next deal (one person with computers)."
    )
    # the same at a table of two or more people, unless all press Next first
    next_delay_people: float = tunable(
        20.0, "The same at a table of people, unless every person presses Next first."
    )
    # issue 49, item 4: one person with computers reads the result as long
    # as they like (a table's own "Time to read the result" counts down)
    solo_next: Literal["wait", "countdown"] = tunable(
        "wait",
        "One person with computers: the next deal waits for Next (wait), or "
        "comes after --next-delay (countdown); a table's chosen time counts down.",
    )
    grace: float = tunable(
        30.0,
        "Seconds a disconnected person keeps the turn; a table with no person "
        "connected that long rests.",
    )
    bot_budget: float = 2.0  # seconds a computer player may think
    hint_budget: float = 2.0  # seconds the strong player thinks for a hint
    # seconds a computer defender may take to answer a claim (once a deal,
    # R6.6: up to 66 solves at the first trick); one not settled by then
    # says no (at least twice bot_budget)
    claim_budget: float = 8.0
    search_workers: int = 2  # processes for searching computer players and hints
    analysis_threads: int = 1  # threads for open-card analyses (their own, low priority)
    analysis_queue: int = 8  # distinct analyses waiting beyond those; more: 503 BUSY
    # seconds a list's review answers within at most (with the deals reviewed
    # by then; the rest go on being reviewed, and the page asks again)
    review_wait: float = 10.0
    idle_timeout: float = 6 * 3600.0  # a started table without a game event expires
    unstarted_timeout: float = 2 * 3600.0  # a table never started, idle that long, expires
    unvisited_timeout: float = 15 * 60.0  # a table nobody ever sat at expires
    abandoned_timeout: float = 20 * 60.0  # a table never started, nobody connected, expires
    rate: float = 10.0  # messages per second per connection (sustained)
    burst: float = 30.0
    allowed_origins: tuple[str, ...] | None = None  # None: same host only
    # the computer players a table may seat by name: the levels' (no lab baseline)
    offered_players: tuple[str, ...] = tuple(public_players())
    # list length: at most this many rounds (deals = rounds x players)
    max_rounds: int = tunable(12, "Longest list a table may have, in rounds.", low=1)
    tables_per_address: int = tunable(  # tables one client address may create per hour
        30, "New tables one client address may create per hour.", low=1
    )
    open_tables_per_address: int = tunable(  # unfinished tables one address created, at once
        10, "Unfinished tables created from one client address, at once.", low=1
    )
    strong_tables_per_address: int = tunable(  # of those, with searching computer players
        3, "Of those, tables with the strong (searching) computer players.", low=0
    )
    max_open_tables: int = tunable(  # unfinished (open or playing) tables in total
        1000, "Unfinished tables in total.", low=1
    )
    max_body: int = 4096  # bytes of an HTTP request body
    send_timeout: float = tunable(  # seconds one message may take to send before the drop
        10.0, "Seconds a message may take before its reader is dropped.", low=0.1
    )
    send_queue: int = tunable(  # messages waiting for one connection before it is dropped
        512, "Messages waiting for one connection before it is dropped.", low=1
    )
    finished_cache: int = 64  # closed tables kept rendered for downloads
    # this server process's name, unique in a deployment (docs/deploy.md)
    worker: str = tunable(
        "main", "This process's name, unique among the processes sharing one database."
    )
    lease_ttl: float = tunable(  # seconds a table's lease lasts unless its owner renews it
        LEASE_TTL,
        "Seconds before another process takes over the tables of a dead one.",
        low=1.0,
        high=600.0,
    )
    chat_rate: float = 1.0  # chat messages and reactions per second per table (sustained)
    chat_burst: float = 20.0
    board_rate: float = 0.5  # uploads to the analysis board per second per address (sustained)
    board_burst: float = 20.0
    retry_first: float = 0.5  # seconds before a write the store refused is tried again
    retry_max: float = 10.0  # the longest wait between tries (the wait doubles up to it)
    tournaments_per_address: int = tunable(  # tournaments one client address may create per hour
        5, "Tournaments one client address may create per hour.", low=1
    )
    tournament_tables: int = tunable(  # unfinished tables from one address, with tournaments'
        60,
        "Unfinished tables from one client address with its tournaments' (more than "
        "--open-tables-per-address).",
        low=1,
    )
    connect_burst: float = tunable(  # new websockets one address may open at once (a club's
        60.0,  # people behind one address come at once), then `connect_rate` a second
        "New websocket connections one client address may open at once (then 5 a second).",
        low=1.0,
    )
    connect_rate: float = 5.0
    entries_per_address: int = tunable(  # entries by a tournament's shared link, one address
        20, "Entries to one tournament by its shared link from one client address.", low=1
    )
    profiles_per_address: int = tunable(  # profiles one client address may create per hour
        20,
        "Profiles (names kept without signing up) one client address may create per hour.",
        low=1,
    )
    entry_rate: float = 0.5  # entries by shared links per second per address (sustained)
    entry_burst: float = 10.0
    tournament_timeout: float = 3 * 24 * 3600.0  # an unfinished tournament expires (seconds)
    max_entrants: int = 200  # entrants of one tournament (the draw's limit too)
    tournament_cache: float = 0.5  # seconds one tournament's public view is reused
    lobby_cache: float = 1.0  # seconds one answer of GET /api/lobby is reused


#: Close code of a connection that does not read what it is sent (docs/protocol.md).


__all__ = ["HISTORY", "ServerConfig"]
