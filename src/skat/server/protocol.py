"""The wire protocol (docs/protocol.md): typed client messages parsed once at
the edge, and the JSON the server sends.

Client messages are msgspec structs tagged by ``type``; anything else is
refused with an error reply before it reaches a table.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..engine import DealResult, Trick, View

MAX_MESSAGE_BYTES = 4096
MAX_NAME = 24
MAX_CHAT = 200
REACTIONS = ("👍", "👏", "😄", "😮", "😢", "🤔")


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    token: str | None = None
    last_version: int | None = None


class Sit(msgspec.Struct, tag="sit", forbid_unknown_fields=True):
    name: str
    seat: int | None = None


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    action: str
    version: int


class Next(msgspec.Struct, tag="next", forbid_unknown_fields=True):
    pass


class Fill(msgspec.Struct, tag="fill", forbid_unknown_fields=True):
    creator: str


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    creator: str


class Leave(msgspec.Struct, tag="leave", forbid_unknown_fields=True):
    keep_bot: bool = True


class Reclaim(msgspec.Struct, tag="reclaim", forbid_unknown_fields=True):
    pass


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True):
    text: str


class React(msgspec.Struct, tag="react", forbid_unknown_fields=True):
    emoji: str


class Mute(msgspec.Struct, tag="mute", forbid_unknown_fields=True):
    seat: int
    on: bool = True


class Again(msgspec.Struct, tag="again", forbid_unknown_fields=True):
    pass


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


ClientMessage = (
    Hello | Sit | Act | Next | Fill | Start | Leave | Reclaim | Chat | React | Mute | Again | Ping
)
_decoder = msgspec.json.Decoder(ClientMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode(raw: str | bytes) -> ClientMessage:
    """Parse one client message; raises `ProtocolError` (TOO_LARGE, BAD_MESSAGE)."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError("TOO_LARGE", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError("BAD_MESSAGE", str(exc)[:200]) from None


def encode(obj: Any) -> str:
    return _encoder.encode(obj).decode()


# ---------------------------------------------------------------- projections
def _cards(cs: Any) -> list[str] | None:
    return None if cs is None else [c.name for c in cs]


def trick_json(t: Trick, seats: tuple[int, ...]) -> dict[str, Any]:
    return {
        "leader": seats[t.leader],
        "cards": [c.name for c in t.cards],
        "winner": seats[t.winner],
    }


def result_json(r: DealResult) -> dict[str, Any]:
    val = r.valuation
    c = r.contract
    return {
        "kind": r.kind,
        "declarer": r.declarer_seat,
        "bid": r.bid,
        "game": c.describe() if c is not None else None,
        "won": r.won,
        "value": r.value,
        "matadors": val.matadors if val else 0,
        "declarer_points": r.declarer_points,
        "declarer_tricks": r.declarer_tricks,
        "schneider": bool(val and val.schneider),
        "schwarz": bool(val and val.schwarz),
        "overbid": bool(val and val.overbid),
        "explanation": val.explanation if val else None,
        "levels": val.levels if val else 0,
        "multiplier": val.multiplier if val else 0,
        "contract": None
        if c is None
        else {"game": c.game.label, "hand": c.hand, "ouvert": c.ouvert},
        "ended": r.ended,
        "kontra": r.kontra,
        "re": r.re,
        "bock_factor": r.bock_factor,
        "plain": list(r.plain),
        "seeger_fabian": list(r.seeger_fabian),
        "ramsch_points": list(r.ramsch_points) if r.ramsch_points else None,
    }


def view_json(v: View) -> dict[str, Any]:
    """A seat's view as JSON: exactly what `View` holds, nothing more."""
    c = v.contract
    return {
        "seat": v.seat,
        "position": v.position,
        "dealer": v.dealer,
        "phase": v.phase.value,
        "turn": v.current_seat,
        "seats": list(v.seats),
        "hand": _cards(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "skat": _cards(v.skat),
        "bid": v.bid,
        "declarer": v.declarer_seat,
        "contract": None
        if c is None
        else {
            "game": c.game.label,
            "hand": c.hand,
            "schneider": c.schneider,
            "schwarz": c.schwarz,
            "ouvert": c.ouvert,
            "text": c.describe(),
        },
        "open_cards": _cards(v.open_cards),
        "trick": [[s, card.name] for s, card in v.trick],
        "tricks": [trick_json(t, v.seats) for t in v.tricks],
        "kontra": v.kontra,
        "re": v.re,
        "legal": [str(a) for a in v.legal_actions],
        "history": [[s, text] for s, text in v.history],
        "result": result_json(v.result) if v.result is not None else None,
        "dealt": None if v.dealt is None else [_cards(cs) for cs in v.dealt],
    }
