"""An app on the test store in process (Starlette's TestClient) and websocket
peers that record everything they receive; what each viewer may know."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient

from skat.engine import Card
from skat.server import ServerConfig, create_app
from skat.server.events import from_row
from skat.server.messages import ViewKeeper
from skat.server.protocol import PROTOCOL
from skat.server.table import TableState
from tests.helpers.stores import Db, db_for

CARD_RE = re.compile(r"\b[CSHD][AKQJT987]\b")
FULL_DECK = (1 << 32) - 1
# Keys whose string values are random identifiers (table ids, tokens): they may
# contain a card-like fragment by chance and are no cards.
ID_KEYS = {"id", "table", "token", "next_table", "creator", "ws", "url"}
# Tests that are not about rate limits lift them.
FAST: dict[str, Any] = {
    "bot_delay": 0,
    "next_delay": 0,
    "next_delay_people": 0,
    "solo_next": "countdown",
    "grace": 30.0,
    "rate": 1e6,
    "burst": 1e6,
    "chat_rate": 1e6,
    "chat_burst": 1e6,
    "lobby_cache": 0.0,
    "tournament_cache": 0.0,
}


# ------------------------------------------------------------------ helpers
@contextlib.contextmanager
def serve(tmp_path: Path, **config: Any) -> Iterator[tuple[Any, TestClient, Db]]:
    """An app on the test store (tests/helpers/stores.py): the same database for
    the same folder, so a second `serve` is a restart."""
    db = db_for(tmp_path)
    app = create_app(db.url, ServerConfig(**{**FAST, **config}))
    with TestClient(app) as client:
        try:
            yield app, client, db
        finally:  # open sockets would keep the test client from shutting down
            while OPEN:
                peer = OPEN.pop()
                with contextlib.suppress(Exception):
                    peer.close()


def new_table(client: TestClient, **options: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"rounds": 1, **options})
    assert r.status_code == 201, r.text
    return r.json()


OPEN: list[Peer] = []


class Closed(Exception):
    pass


@dataclass
class Rec:
    raw: str
    msg: dict[str, Any]
    at: int  # the table version when the server sent it (as far as the client can tell)
    viewer: int | None
    replayed: bool
    # the view the client holds after this message (its changes applied:
    # docs/protocol.md, "Changes"), for the leak oracle
    view: dict[str, Any] | None = None


@dataclass
class Peer:
    """One websocket client with its own record of everything it received."""

    client: TestClient
    tid: str
    label: str = ""
    records: list[Rec] = field(default_factory=list)
    seat: int | None = None
    token: str | None = None
    version: int = 0
    view: dict[str, Any] | None = None
    view_version: int = -1
    acted: int = -1
    list_over: bool = False
    last_state: dict[str, Any] | None = None
    gap_errors: list[str] = field(default_factory=list)
    plays: bool = True
    session: Any = None
    keeper: ViewKeeper = field(default_factory=ViewKeeper)
    resyncs: int = 0  # changes that did not follow: the whole state asked for again
    # a test's hook: the first message it answers True for is lost on the way
    # (never noted nor recorded), as if the network had dropped it
    lose: Callable[[dict[str, Any]], bool] | None = None
    lost: list[dict[str, Any]] = field(default_factory=list)
    _expect: int | None = None
    _replay_base: int | None = None

    # connection
    def connect(
        self,
        *,
        hello: bool = True,
        token: str | None = None,
        last_version: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> Peer:
        self.session = self.client.websocket_connect(
            f"/ws/{self.tid}", headers=dict(headers or {})
        ).__enter__()
        OPEN.append(self)
        self._expect = None
        self._replay_base = last_version
        self.keeper = ViewKeeper()  # a new connection: a whole state first
        if hello:
            msg: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL}
            if token is not None:
                msg["token"] = token
            if last_version is not None:
                msg["last_version"] = last_version
            self.send(**msg)
        return self

    def close(self) -> None:
        if self.session is not None:
            session, self.session = self.session, None
            session.__exit__(None, None, None)

    def send(self, **msg: Any) -> None:
        self.session.send_text(json.dumps(msg))

    def send_raw(self, text: str) -> None:
        self.session.send_text(text)

    # receiving
    def recv(self, timeout: float = 5.0) -> dict[str, Any] | None:
        session = self.session

        async def get() -> Any:
            with anyio.move_on_after(timeout):
                return await session._send_rx.receive()
            return None

        message = session.portal.call(get)
        if message is None:
            return None
        if message["type"] == "websocket.close":
            raise Closed(f"{self.label}: closed with {message.get('code')}")
        return self._note(message["text"])

    def drain(self, timeout: float = 0.005) -> int:
        n = 0
        while self.recv(timeout) is not None:
            n += 1
            assert n < 20000, f"{self.label}: endless stream"
        return n

    def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = self.recv(max(0.01, end - time.monotonic()))
            if m is not None and pred(m):
                return m
        raise AssertionError(f"{self.label}: nothing matching arrived in {timeout}s")

    def barrier(self) -> list[dict[str, Any]]:
        """Everything that arrives before the answer to a ping."""
        start = len(self.records)
        self.send(type="ping")
        self.wait_for(lambda m: m["type"] == "pong")
        return [r.msg for r in self.records[start:-1]]

    def _note(self, raw: str) -> dict[str, Any]:
        msg = json.loads(raw)
        if self.lose is not None and self.lose(msg):
            self.lose = None
            self.lost.append(msg)
            return {"type": "lost"}
        t = msg.get("type")
        replayed = bool(msg.get("replayed"))
        if t == "welcome":
            self.version = msg["version"]
            self.seat = msg["seat"]
        elif t == "seated":
            self.version = msg["version"]
            self.seat = msg["seat"]
            self.token = msg["token"]
        elif t == "event":
            v = msg["version"]
            if replayed:
                if self._expect is None:
                    self._expect = (self._replay_base or 0) + 1
                if v != self._expect:
                    self.gap_errors.append(f"replayed {v}, expected {self._expect}")
                self._expect = v + 1
            else:
                if self._expect is not None and v != self._expect:
                    self.gap_errors.append(f"event {v}, expected {self._expect}")
                self._expect = v + 1
                self.version = v
        elif t == "state":
            s = msg["version"]
            if self._expect is not None and s + 1 != self._expect:
                self.gap_errors.append(f"state {s} after events up to {self._expect - 1}")
            self._expect = s + 1
            self.version = s
        if not self.keeper.note(msg):  # a change (or a pong) shows one lost: the whole state
            self.resyncs += 1
            self.gap_errors.append(f"{t} {msg['version']} does not follow the view held")
            self.send(type="resync")
        self.records.append(Rec(raw, msg, self.version, self.seat, replayed, self.keeper.view))
        if (t == "event" and not replayed) or t == "state":
            st = msg if t == "state" else msg.get("state")
            view = self.keeper.view
            if view is not None and not self.keeper.waiting:
                self.view = view
                self.view_version = msg["version"]
            if st:
                self.last_state = st
                if st.get("list_over"):
                    self.list_over = True
        return msg

    # playing
    def my_turn(self) -> bool:
        v = self.view
        return (
            not self.list_over
            and v is not None
            and self.seat is not None
            and v["turn"] == self.seat
            and bool(v["legal"])
        )

    def maybe_act(self, rng: random.Random) -> bool:
        if not self.plays or not self.my_turn() or self.view_version <= self.acted:
            return False
        assert self.view is not None
        self.send(type="act", action=rng.choice(self.view["legal"]), version=self.view_version)
        self.acted = self.view_version
        return True

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            r.msg["event"]
            for r in self.records
            if r.msg["type"] == "event" and (kind is None or r.msg["event"]["kind"] == kind)
        ]

    def errors(self) -> list[dict[str, Any]]:
        return [r.msg for r in self.records if r.msg["type"] == "error"]


def pump(
    peers: list[Peer],
    until: Callable[[], bool],
    rng: random.Random | None = None,
    timeout: float = 30.0,
) -> None:
    """Read every connection and let the playing ones act until ``until()``."""
    rng = rng or random.Random(1)
    end = time.monotonic() + timeout
    while True:
        for p in peers:
            if p.session is not None:
                p.drain()
        if until():
            return
        assert time.monotonic() < end, "the table did not get there in time"
        for p in peers:
            if p.session is not None:
                p.maybe_act(rng)


def join(client: TestClient, tid: str, name: str) -> Peer:
    p = Peer(client, tid, name).connect()
    p.send(type="sit", name=name)
    p.wait_for(lambda m: m["type"] == "seated")
    p.wait_for(lambda m: m["type"] == "state")
    return p


def watch(client: TestClient, tid: str, label: str = "spectator") -> Peer:
    p = Peer(client, tid, label, plays=False).connect()
    p.wait_for(lambda m: m["type"] == "state")
    return p


def started(
    client: TestClient, names: Sequence[str], players: int = 3
) -> tuple[str, list[Peer], Peer]:
    """A new table with a spectator watching and ``names`` seated in order,
    the first filling the other seats with computer players and starting
    the list: (table id, the people, the spectator)."""
    t = new_table(client, players=players)
    tid = t["id"]
    spectator = watch(client, tid)
    people = [join(client, tid, name) for name in names]
    people[0].send(type="fill", creator=t["creator"])
    return tid, people, spectator


def public(client: TestClient, tid: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    return r.json()


def without(d: Any, *keys: str) -> Any:
    return {k: v for k, v in d.items() if k not in keys}


# ------------------------------------------------------- what may be known
@dataclass
class Knowledge:
    """Per version of a table: the cards each viewer may know (rebuilt from the store)."""

    known: dict[int, dict[int | None, int]]
    deal: dict[int, int]
    earlier: dict[int, int]
    over: dict[int, bool]
    seed: str
    final: int


def knowledge(app: Any, client: TestClient, tid: str) -> Knowledge:
    store = app.state.store
    t = client.portal.call(store.table, tid)
    events = client.portal.call(store.events, tid)
    st = TableState.from_stored(t)
    viewers: list[int | None] = [None, *range(st.players)]
    kn = Knowledge({0: dict.fromkeys(viewers, 0)}, {0: 0}, {0: 0}, {0: False}, t.seed, 0)
    for e in events:
        assert e.version == st.version + 1, "versions in the store have a gap"
        st.apply(from_row(e.kind, e.payload))
        v = st.version
        if st.series is None:
            kn.known[v] = dict.fromkeys(viewers, 0)
            kn.deal[v] = 0
            kn.earlier[v] = 0
            kn.over[v] = False
        else:
            d = st.series.deal
            kn.known[v] = {s: d.view(s).known_cards().mask for s in viewers}
            kn.deal[v] = st.series.number
            kn.earlier[v] = FULL_DECK if st.series.number > 1 else 0
            kn.over[v] = st.series.is_over()
    kn.final = st.version
    return kn


def strip_ids(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: strip_ids(v) for k, v in x.items() if not (k in ID_KEYS and isinstance(v, str))}
    if isinstance(x, list):
        return [strip_ids(v) for v in x]
    return x


def card_mask(x: Any) -> int:
    m = 0
    for tok in CARD_RE.findall(json.dumps(x, ensure_ascii=False)):
        m |= 1 << Card.parse(tok)
    return m


def names(mask: int) -> list[str]:
    return [Card(i).name for i in range(32) if mask >> i & 1]


def leaks(peer: Peer, kn: Knowledge) -> list[str]:
    """Every message of ``peer`` that shows a card its viewer may not know then."""
    out = []
    for i, r in enumerate(peer.records):
        where = f"{peer.label} message {i} ({r.msg.get('type')}, at version {r.at})"
        if "token_hash" in r.raw:
            out.append(f"{where}: contains 'token_hash'")
        if not kn.over[r.at] and kn.seed in r.raw:
            out.append(f"{where}: contains the seed before the list is over")
        allowed = kn.known[r.at][r.viewer]
        msg = strip_ids(r.msg)
        if r.replayed:
            if kn.deal[msg["version"]] < kn.deal[r.at]:
                continue  # an event of an earlier, revealed deal
            bad = card_mask(msg) & ~allowed
        else:
            st = msg.get("state") if msg.get("type") == "event" else msg
            sheet = st.pop("sheet", None) if isinstance(st, dict) else None
            # the deals before the one in play, for the log (revealed: over)
            past = st.pop("past", None) if isinstance(st, dict) else None
            if past and max(d["number"] for d in past) >= kn.deal[r.at]:
                out.append(f"{where}: 'past' holds the deal in play")
            bad = card_mask(msg) & ~allowed
            bad |= card_mask([sheet, past]) & ~(allowed | kn.earlier[r.at])
            if r.view is not None and msg.get("type") == "event" and r.at == msg["version"]:
                # the view rebuilt from the changes: no more than the whole would show
                bad |= card_mask(strip_ids(r.view)) & ~allowed
        if bad:
            out.append(f"{where} to viewer {r.viewer}: shows {names(bad)}: {r.raw[:300]}")
    return out
