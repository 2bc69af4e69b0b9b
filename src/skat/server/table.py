"""The state of one online table, rebuilt from its event log.

`TableState.plan` validates a command and returns the events it causes
(raising `CommandError` otherwise); `TableState.apply` applies one event and
never fails for events that `plan` produced. The same `apply` rebuilds a
table after a restart, so live play and recovery cannot drift apart.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ..engine import IllegalActionError, parse_action
from ..series import ListOptions, Series
from ..series.record import list_record
from .protocol import MAX_CHAT, MAX_NAME, REACTIONS, view_json

TIMERS = (0, 30, 60, 120)
#: Names of the computer players, by seat.
BOT_NAMES = ("Ada", "Bruno", "Cora", "Dieter")


class CommandError(ValueError):
    """A command the table refuses: ``code`` and a message for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, token_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if not token or not token_hash:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def clean_text(text: str, limit: int) -> str:
    """Strip control characters, trim, limit and HTML-escape user text."""
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    text = " ".join(text.split())[:limit]
    return html.escape(text, quote=True)


@dataclass
class Settings:
    bot: str = "heuristic"
    timer: int = 0  # seconds per turn, 0 = off

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "timer": self.timer}


@dataclass
class SeatState:
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None  # a computer player holds the seat
    auto: bool = False  # a computer player acts for the absent or slow human

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
    version: int = 0
    status: str = "open"  # open, playing, finished, expired
    series: Series | None = None
    seats: list[SeatState] = field(default_factory=list)
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=50))
    auto_moves: dict[int, list[int]] = field(default_factory=dict)  # deal -> seats
    next_table: str | None = None

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [SeatState() for _ in range(self.options.players)]

    # ------------------------------------------------------------- queries
    @property
    def players(self) -> int:
        return self.options.players

    def seat_of_token(self, token: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and token_matches(token, s.token_hash):
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

    # ------------------------------------------------------------ commands
    def plan_sit(
        self, name: str, seat: int | None, token_hash: str
    ) -> list[tuple[str, dict[str, Any]]]:
        clean = clean_text(name, MAX_NAME)
        if not clean:
            raise CommandError("BAD_NAME", "a name is needed")
        if self.status in ("finished", "expired"):
            raise CommandError("TABLE_CLOSED", "this table is closed")
        free = [i for i, s in enumerate(self.seats) if s.free]
        if seat is None:
            if not free:
                raise CommandError("TABLE_FULL", "no free seat")
            seat = free[0]
        if not 0 <= seat < self.players or not self.seats[seat].free:
            raise CommandError("SEAT_TAKEN", "that seat is not free")
        events = [("sit", {"seat": seat, "name": clean, "token_hash": token_hash})]
        if self.status == "open" and len(free) == 1:
            events.append(("start", {}))
        return events

    def plan_fill(self) -> list[tuple[str, dict[str, Any]]]:
        if self.status != "open":
            raise CommandError("ALREADY_STARTED", "the list has started")
        events: list[tuple[str, dict[str, Any]]] = [
            ("bot", {"seat": i, "bot": self.settings.bot})
            for i, s in enumerate(self.seats)
            if s.free
        ]
        return [*events, ("start", {})]

    def plan_start(self) -> list[tuple[str, dict[str, Any]]]:
        if self.status != "open":
            raise CommandError("ALREADY_STARTED", "the list has started")
        if any(s.free for s in self.seats):
            return self.plan_fill()
        return [("start", {})]

    def plan_act(
        self, seat: int, text: str, version: int | None, auto: bool = False
    ) -> list[tuple[str, dict[str, Any]]]:
        if self.series is None or self.status == "open":
            raise CommandError("NOT_STARTED", "the list has not started")
        if version is not None and version != self.version:
            raise CommandError("STALE_VERSION", f"the table is at version {self.version}")
        try:
            action = parse_action(text)
        except IllegalActionError as exc:
            raise CommandError(exc.code.value, exc.message) from None
        if self.series.is_over():
            raise CommandError("LIST_OVER", "the list is over")
        try:
            self.series.deal.clone().apply(action, seat)
        except IllegalActionError as exc:
            raise CommandError(exc.code.value, exc.message) from None
        events: list[tuple[str, dict[str, Any]]] = [
            ("act", {"seat": seat, "action": str(action), "auto": auto})
        ]
        if not auto and self.seats[seat].auto:
            events.insert(0, ("auto", {"seat": seat, "on": False}))
        return events

    def plan_next(self) -> list[tuple[str, dict[str, Any]]]:
        if not self.deal_over():
            raise CommandError("WRONG_PHASE", "the deal is not over")
        return [("next", {})]

    def plan_leave(self, seat: int, keep_bot: bool) -> list[tuple[str, dict[str, Any]]]:
        return [("leave", {"seat": seat, "keep_bot": keep_bot or self.status == "playing"})]

    def plan_chat(self, seat: int | None, text: str) -> list[tuple[str, dict[str, Any]]]:
        clean = clean_text(text, MAX_CHAT)
        if not clean:
            raise CommandError("BAD_MESSAGE", "empty chat message")
        name = self.seats[seat].name if seat is not None else "spectator"
        return [("chat", {"seat": seat, "name": name, "text": clean})]

    def plan_react(self, seat: int | None, emoji: str) -> list[tuple[str, dict[str, Any]]]:
        if emoji not in REACTIONS:
            raise CommandError("BAD_MESSAGE", "unknown reaction")
        return [("react", {"seat": seat, "emoji": emoji})]

    # -------------------------------------------------------------- events
    def apply(self, kind: str, payload: dict[str, Any]) -> None:
        """Apply one event (live or during recovery)."""
        self.version += 1
        if kind == "sit":
            s = self.seats[payload["seat"]]
            s.name, s.token_hash, s.bot, s.auto = (
                payload["name"],
                payload["token_hash"],
                None,
                False,
            )
        elif kind == "bot":
            s = self.seats[payload["seat"]]
            s.bot = payload["bot"]
            s.name = s.name or BOT_NAMES[payload["seat"]]
        elif kind == "leave":
            s = self.seats[payload["seat"]]
            s.token_hash = None
            s.auto = False
            if payload["keep_bot"]:
                s.bot = self.settings.bot
            else:
                s.name, s.bot = None, None
        elif kind == "auto":
            self.seats[payload["seat"]].auto = bool(payload["on"])
        elif kind == "start":
            self.series = Series(
                self.options, seed=self.seed, names=[s.name or "?" for s in self.seats]
            )
            self.status = "playing"
        elif kind == "act":
            assert self.series is not None
            seat = payload["seat"]
            self.series.apply(parse_action(payload["action"]), seat)
            if payload.get("auto"):
                self.auto_moves.setdefault(self.series.number, []).append(seat)
            if self.series.is_over():
                self.status = "finished"
        elif kind == "next":
            assert self.series is not None
            self.series.next_deal()
        elif kind in ("chat", "react"):
            self.chat.append({"version": self.version, "kind": kind, **payload})
        elif kind == "again":
            self.next_table = payload["table"]
        elif kind == "expire":
            self.status = "expired"
        else:  # pragma: no cover - events come from plan()
            raise ValueError(f"unknown event kind {kind!r}")

    # --------------------------------------------------------- projections
    def public_event(
        self, kind: str, payload: dict[str, Any], viewer: int | None
    ) -> dict[str, Any]:
        """What ``viewer`` may learn of an event (no token hashes, no hidden cards)."""
        out: dict[str, Any] = {"kind": kind}
        if kind == "sit":
            out.update(seat=payload["seat"], name=payload["name"])
        elif kind in ("bot", "leave", "auto", "react"):
            out.update({k: v for k, v in payload.items() if k != "token_hash"})
        elif kind == "act":
            text = payload["action"]
            if (
                text.startswith("discard")
                and viewer != payload["seat"]
                and self.status == "playing"
            ):
                text = "discard"
            out.update(seat=payload["seat"], action=text, auto=payload.get("auto", False))
        elif kind == "chat":
            out.update(payload)
        elif kind == "again":
            out.update(table=payload["table"])
        return out

    def snapshot(
        self, viewer: int | None, connected: set[int], muted: set[int] | None = None
    ) -> dict[str, Any]:
        series = self.series
        finished = self.status == "finished"
        out: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "table": {
                "id": self.id,
                "status": self.status,
                "options": self.options.to_dict(),
                "settings": self.settings.to_dict(),
                "commitment": series.commitment if series else _commit(self.seed),
                "seed": self.seed.hex() if finished else None,
                "next_table": self.next_table,
            },
            "you": viewer,
            "seats": [
                {
                    "name": s.name,
                    "bot": s.bot,
                    "auto": s.auto,
                    "human": s.human,
                    "connected": i in connected or s.bot is not None,
                }
                for i, s in enumerate(self.seats)
            ],
            "chat": [
                {"kind": c["kind"], "muted": True, "seat": c.get("seat"), "version": c["version"]}
                if muted and c.get("seat") in muted
                else c
                for c in self.chat
            ],
        }
        if series is not None:
            deal = series.deal
            out["deal"] = {
                "number": series.number,
                "of": series.options.deals_per_list,
                "dealer": deal.dealer,
                "bock_factor": deal.bock_factor,
                "ramsch_round": deal.forced_ramsch,
                "pending_bock": list(series.pending_bock),
                "auto_moves": self.auto_moves.get(series.number, []),
            }
            out["view"] = view_json(deal.view(viewer))
            out["sheet"] = {
                "rows": [r.to_dict() for r in series.rows],
                "totals": [t.__dict__ for t in series.totals()],
                "auto_moves": {str(k): v for k, v in self.auto_moves.items()},
            }
            out["list_over"] = series.is_over()
        return out

    def record(self) -> dict[str, Any]:
        assert self.series is not None
        return list_record(self.series, id=self.id)


def _commit(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


__all__ = ["BOT_NAMES", "TIMERS", "CommandError", "SeatState", "Settings", "TableState"]
