"""One websocket connection as the table actor sees it (issue 29, point 3:
out of actor.py): a bounded queue of outgoing messages written in order by
one task, a rate limit on what it may send, and a watch that drops a client
too slow to read."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any

from . import protocol as p
from .config import ServerConfig
from .errors import CommandError, ErrorCode
from .messages import ServerMessage, State

log = logging.getLogger("skat.server")

#: Close code: the client did not read its messages in time.
CLOSE_TOO_SLOW = 4408
#: Close code: another server process serves the table now; the client reconnects.
CLOSE_MOVED = 4503
#: Close code: more new connections from the client's address than it may make.
CLOSE_RATE_LIMITED = 4429
#: Close code: the client speaks another protocol than the server (HTTP 426's
#: "upgrade required"): it reloads, or is updated.
CLOSE_OLD_CLIENT = 4426


class TokenBucket:
    """At most ``burst`` at once and ``rate`` a second after that."""

    def __init__(self, rate: float, burst: float) -> None:
        self._rate, self._burst = rate, burst
        self._allowance = burst
        self._last = time.monotonic()

    def allow(self) -> bool:
        """Take one; False (nothing taken) when there is none left."""
        now = time.monotonic()
        self._allowance = min(self._burst, self._allowance + (now - self._last) * self._rate)
        self._last = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True


def address_of(host: str | None) -> str | None:
    """The client address that the per-address limits count: an IPv4
    address whole, an IPv6 address by its /64 (one household or one
    server's block: a client has all of it), anything else as given."""
    if host is None:
        return None
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class AddressBuckets:
    """A `TokenBucket` per client address (`address_of`), the ``kept``
    addresses seen last remembered (a forgotten one starts full again)."""

    def __init__(self, rate: float, burst: float, kept: int = 4096) -> None:
        self._rate, self._burst, self._kept = rate, burst, kept
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, address: str | None) -> bool:
        """Take one for ``address``; False when it has none left."""
        if address is None:
            return True
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = TokenBucket(self._rate, self._burst)
        self._buckets[address] = bucket
        while len(self._buckets) > self._kept:
            self._buckets.popitem(last=False)
        return bucket.allow()


class Conn:
    """A websocket connection as the actor sees it.

    A message is sent at once, in the caller's frame, when nothing is in
    flight: a socket write completes without waiting unless the client's
    buffer is full, and a task per message was a tenth of the server's CPU
    per move (docs/lab/benchmarks-history.md). A send that has to wait
    goes on in a writer task of its own, with a timeout, and what comes
    meanwhile waits in a bounded queue behind it: the table never waits
    for a client. The writer lives while there is something to send, so an
    idle connection (most of them, most of the time) holds no task,
    coroutine or future that the collector would have to scan. A client
    that lets the queue fill or a send time out is dropped (closed with
    `CLOSE_TOO_SLOW`) and receives nothing more."""

    def __init__(
        self,
        send: Callable[[str], Coroutine[Any, Any, None]],
        config: ServerConfig,
        close: Callable[[int, str], Awaitable[None]] | None = None,
        send_now: Callable[[str], bool] | None = None,
    ) -> None:
        self._send = send
        # the server's websocket protocol writes a frame at once when it can
        # (server/wsprotocol.py); False: it cannot now, ``send`` decides
        self._send_at_once = send_now
        self._close = close
        self.seat: int | None = None
        self.token: str | None = None
        self.pending: str | None = None  # the token of a seat taken over at the next deal
        self.muted: set[int] = set()
        # the view this client holds: whose (a seat, None: a spectator's) and
        # at which version (None: none yet). An event's changes go only to a
        # client that holds the same viewer's view of the version before
        self.view_of: int | None = None
        self.view_at: int | None = None
        self.closed = False
        self.dropped = False
        self._bucket = TokenBucket(config.rate, config.burst)
        self._max_queue = config.send_queue
        self._timeout = config.send_timeout
        self._out: deque[str] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self._since: float | None = None  # when the send in progress started
        self._watch: asyncio.TimerHandle | None = None

    def allow(self) -> bool:
        """False when the client sends faster than allowed."""
        return self._bucket.allow()

    async def send(self, message: ServerMessage) -> None:
        """Queue a message; returns at once (never waits for the client)."""
        self.push(message)

    def push(self, message: ServerMessage) -> None:
        if not self.closed:
            if isinstance(message, State):  # the whole table: the client's view is this
                self.view_of, self.view_at = message.you, message.version
            self.push_text(p.encode(message))

    def push_text(self, text: str) -> None:
        """Send a message encoded already (one event's same text for many
        viewers): now, or queued behind a send that waits."""
        if self.closed:
            return
        if self._writer is None:  # nothing in flight (then nothing is queued)
            self._send_now(text)
            return
        if len(self._out) >= self._max_queue:
            self.drop("outbound queue full")
            return
        self._out.append(text)

    def _send_now(self, text: str) -> None:
        """Run the send until it completes or has to wait (the first step of
        a task, without the task: Python 3.12's eager tasks do the same);
        one that waits is finished by the writer, watched."""
        if self._send_at_once is not None and self._send_at_once(text):
            return
        send = self._send(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:  # the socket went away; the endpoint cleans up
            self.closed = True
            return
        loop = asyncio.get_running_loop()
        self._started(loop)
        self._writer = loop.create_task(
            self._write_loop(_Resume(send, waiting)), name="conn-writer"
        )

    async def _write_loop(self, first: Awaitable[None]) -> None:
        loop = asyncio.get_running_loop()
        try:
            await first
        except Exception:
            self.closed = True
        finally:
            self._since = None
        while self._out and not self.closed:
            text = self._out.popleft()
            self._started(loop)
            try:
                await self._send(text)
            except Exception:  # the socket went away; the endpoint cleans up
                self.closed = True
            finally:
                self._since = None
        # nothing left to send (no await since the test): the next push starts a new writer
        if self._writer is asyncio.current_task():
            self._writer = None

    def _started(self, loop: asyncio.AbstractEventLoop) -> None:
        """A send that may wait is in flight: its start, and the watch (one
        timer per send_timeout, not one per message) that drops a client
        that does not read."""
        self._since = loop.time()
        if self._watch is None:
            self._watch = loop.call_at(self._since + self._timeout, self._check)

    def _check(self) -> None:
        """The watch: drop the client if the send in progress has taken
        longer than ``send_timeout``; look again when the one now in
        progress would; stop while nothing is being sent."""
        self._watch = None
        since = self._since
        if self.closed or since is None:
            return
        loop = asyncio.get_running_loop()
        due = since + self._timeout
        if loop.time() >= due:
            self.drop("send timed out")
        else:
            self._watch = loop.call_at(due, self._check)

    def drop(self, why: str) -> None:
        """Stop sending to a client that does not read, and close it."""
        if self.closed:
            return
        self.closed = self.dropped = True
        self._out.clear()
        self._unwatch()
        log.info("dropped a connection that does not read (%s)", why)
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
        if self._close is not None:
            self._closing = asyncio.create_task(self._close_later(), name="conn-close")

    async def _close_later(self) -> None:
        assert self._close is not None
        try:  # the close frame waits behind what the client has not read
            await asyncio.wait_for(self._close(CLOSE_TOO_SLOW, ErrorCode.TOO_SLOW.value), 30)
        except Exception:
            pass

    def moved(self, message: str) -> None:
        """Tell the client that another server process serves its table now,
        then close it (4503): it reconnects, and the proxy sends it there."""
        if self.closed:
            return
        self.push(CommandError(ErrorCode.TABLE_MOVED, message).to_message())
        if self._close is not None:
            self._closing = asyncio.create_task(self._close_moved(), name="conn-moved")

    async def _close_moved(self) -> None:
        assert self._close is not None
        for _ in range(50):  # what is queued goes out first (at most a second)
            if not self._out or self.closed:
                break
            await asyncio.sleep(0.02)
        self.closed = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(CLOSE_MOVED, ErrorCode.TABLE_MOVED.value), 5)

    def stop(self) -> None:
        """The connection ended: stop its writer."""
        self.closed = True
        self._unwatch()
        if self._writer is not None and not self.dropped:
            self._writer.cancel()

    def _unwatch(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None


class _Resume:
    """Awaiting it finishes a coroutine that was run up to its first wait
    (``waiting``: what it yielded there), as ``await`` would have: each
    future it waits on goes to the awaiting task, and a cancellation goes
    into it."""

    __slots__ = ("_coro", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self._coro, self._waiting = coro, waiting

    def __await__(self) -> Generator[Any, None, None]:
        coro, waiting = self._coro, self._waiting
        while True:
            try:
                yield waiting
            except BaseException as exc:  # the task was cancelled: so is the send
                try:
                    waiting = coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                waiting = coro.send(None)
            except StopIteration:
                return


__all__ = [
    "CLOSE_MOVED",
    "CLOSE_OLD_CLIENT",
    "CLOSE_RATE_LIMITED",
    "CLOSE_TOO_SLOW",
    "AddressBuckets",
    "Conn",
    "TokenBucket",
    "address_of",
]
