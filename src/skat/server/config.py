"""The server's tunables and limits (docs/protocol.md, Security; issue 29,
point 3: out of actor.py). `skat serve`'s options set them."""

from __future__ import annotations

from dataclasses import dataclass

from ..players import public_players
from .store import LEASE_TTL

HISTORY = 256  # events kept for resending to a client that reconnects


@dataclass
class ServerConfig:
    """Tunables and limits (docs/protocol.md, Security); tests set the delays to 0."""

    bot_delay: float = 0.8  # seconds before a computer player's move is shown
    next_delay: float = 6.0  # seconds between a settled deal and the next one
    # the same at a table of two or more people, unless all press Next first
    next_delay_people: float = 20.0
    grace: float = 30.0  # seconds a disconnected human keeps the turn
    bot_budget: float = 2.0  # seconds a computer player may think
    hint_budget: float = 2.0  # seconds the strong player thinks for a hint
    search_workers: int = 2  # processes for searching computer players and hints
    analysis_threads: int = 1  # threads for open-card analyses (their own, low priority)
    analysis_queue: int = 8  # distinct analyses waiting beyond those; more: 503 BUSY
    idle_timeout: float = 6 * 3600.0  # a started table without a game event expires
    unstarted_timeout: float = 2 * 3600.0  # a table never started, idle that long, expires
    unvisited_timeout: float = 15 * 60.0  # a table nobody ever sat at expires
    abandoned_timeout: float = 20 * 60.0  # a table never started, nobody connected, expires
    rate: float = 10.0  # messages per second per connection (sustained)
    burst: float = 30.0
    allowed_origins: tuple[str, ...] | None = None  # None: same host only
    # the computer players a table may seat by name: the levels' (no lab baseline)
    offered_players: tuple[str, ...] = tuple(public_players())
    max_rounds: int = 12  # list length: at most this many rounds (deals = rounds x players)
    tables_per_address: int = 30  # tables one client address may create per hour
    max_open_tables: int = 1000  # unfinished (open or playing) tables in total
    open_tables_per_address: int = 10  # unfinished tables one address created, at once
    strong_tables_per_address: int = 3  # of those, with searching computer players
    max_body: int = 4096  # bytes of an HTTP request body
    send_queue: int = 512  # messages waiting for one connection before it is dropped
    send_timeout: float = 10.0  # seconds one message may take to send before the drop
    finished_cache: int = 64  # closed tables kept rendered for downloads
    worker: str = "main"  # this server process's name, unique in a deployment (docs/deploy.md)
    lease_ttl: float = LEASE_TTL  # seconds a table's lease lasts unless its owner renews it
    chat_rate: float = 1.0  # chat messages and reactions per second per table (sustained)
    chat_burst: float = 20.0
    retry_first: float = 0.5  # seconds before a write the store refused is tried again
    retry_max: float = 10.0  # the longest wait between tries (the wait doubles up to it)


#: Close code of a connection that does not read what it is sent (docs/protocol.md).


__all__ = ["HISTORY", "ServerConfig"]
