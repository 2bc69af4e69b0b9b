"""The game record: rules, deck, dealer and the action log (docs/formats.md).

A record rebuilds its deal exactly (`replay`), and `GameRecord.from_deal`
then `replay` is the identity. JSON form, version 1::

    {"format": "skat-game", "version": 1, "id": "...",
     "rules": {"players": 3}, "dealer": 2,
     "deck": "CJ SJ ... (32 cards in the order of R1.5)",
     "actions": [[1, "bid 18"], [0, "hold"], ...]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .cards import Card
from .deal import Deal
from .errors import IllegalActionError, MalformedActionError, Reason
from .game import Rules

FORMAT = "skat-game"
VERSION = 1
#: Records larger than this are refused before parsing (network input).
MAX_RECORD_BYTES = 64 * 1024


class RecordError(ValueError):
    """A record that cannot be replayed: ``code`` (R10) and ``move`` (1-based
    index into the actions, 0 for the header)."""

    def __init__(self, code: Reason | str, move: int, message: str) -> None:
        super().__init__(f"{code} at move {move}: {message}")
        self.code = str(code)
        self.move = move
        self.message = message


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay one deal."""

    deck: tuple[Card, ...]
    actions: tuple[tuple[int, Action], ...] = ()
    rules: Rules = field(default_factory=Rules)
    dealer: int | None = None
    ramsch: bool = False
    bock_factor: int = 1
    id: str | None = None

    @classmethod
    def from_deal(cls, deal: Deal, id: str | None = None) -> GameRecord:
        return cls(
            deck=deal.deck,
            actions=deal.history,
            rules=deal.rules,
            dealer=deal.dealer,
            ramsch=deal.forced_ramsch,
            bock_factor=deal.bock_factor,
            id=id,
        )

    def new_deal(self) -> Deal:
        return Deal(
            self.deck,
            rules=self.rules,
            dealer=self.dealer,
            ramsch=self.ramsch,
            bock_factor=self.bock_factor,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.id is not None:
            out["id"] = self.id
        out["rules"] = self.rules.to_dict()
        out["dealer"] = self.dealer if self.dealer is not None else self.rules.players - 1
        out["deck"] = " ".join(c.name for c in self.deck)
        if self.ramsch:
            out["ramsch"] = True
        if self.bock_factor != 1:
            out["bock_factor"] = self.bock_factor
        out["actions"] = [[s, str(a)] for s, a in self.actions]
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(Reason.MALFORMED_ACTION, 0, f"not a {FORMAT} record")
        if data.get("version") != VERSION:
            raise RecordError(
                Reason.MALFORMED_ACTION, 0, f"unsupported version {data.get('version')!r}"
            )
        try:
            rules = Rules.from_dict(data.get("rules") or {})
            deck_text = data["deck"]
            if not isinstance(deck_text, str):
                raise ValueError("deck must be a string of 32 cards")
            from .cards import parse_cards

            deck = tuple(parse_cards(deck_text))
            dealer = data.get("dealer")
            if dealer is not None and not isinstance(dealer, int):
                raise ValueError("dealer must be a seat number")
            bock = data.get("bock_factor", 1)
            ramsch = data.get("ramsch", False)
            if not isinstance(bock, int) or not isinstance(ramsch, bool):
                raise ValueError("bad ramsch or bock_factor")
            raw = data.get("actions", [])
            if not isinstance(raw, list):
                raise ValueError("actions must be a list")
            rid = data.get("id")
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(Reason.MALFORMED_ACTION, 0, str(exc)) from None
        actions: list[tuple[int, Action]] = []
        for i, entry in enumerate(raw, 1):
            try:
                seat, text = entry
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise MalformedActionError(f"seat must be a number, not {seat!r}")
                actions.append((seat, parse_action(text)))
            except IllegalActionError as exc:
                raise RecordError(exc.code, i, exc.message) from None
            except (TypeError, ValueError):
                raise RecordError(Reason.MALFORMED_ACTION, i, f"bad entry {entry!r}") from None
        return cls(
            deck, tuple(actions), rules, dealer, ramsch, bock, None if rid is None else str(rid)
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(Reason.MALFORMED_ACTION, 0, "record too large")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(Reason.MALFORMED_ACTION, 0, f"invalid JSON: {exc.msg}") from None
        return cls.from_dict(data)


def replay(record: GameRecord) -> Deal:
    """Rebuild the deal of ``record``, checking every action.

    Raises `RecordError` with the reason code and the 1-based move number of
    the first action the rules reject.
    """
    try:
        deal = record.new_deal()
    except ValueError as exc:
        raise RecordError(Reason.MALFORMED_ACTION, 0, str(exc)) from None
    for i, (seat, action) in enumerate(record.actions, 1):
        try:
            deal.apply(action, seat)
        except IllegalActionError as exc:
            raise RecordError(exc.code, i, exc.message) from None
    return deal
