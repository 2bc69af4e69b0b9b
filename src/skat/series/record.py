"""The list record: a whole list as JSON, replayable from its actions
(docs/formats.md), and its verification against the shuffle commitment
(docs/fairness.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..engine import GameRecord, IllegalActionError
from ..engine.errors import Reason
from ..engine.records import RecordError
from .options import ListOptions
from .series import Series
from .shuffle import SEED_BYTES, commitment, deal_deck

FORMAT = "skat-list"
VERSION = 1
MAX_LIST_BYTES = 4 * 1024 * 1024


def list_record(series: Series, *, id: str | None = None) -> dict[str, Any]:
    """The JSON-ready record of a list; the seed is included once the list is over."""
    seed = series.seed
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if id is not None:
        out["id"] = id
    out["options"] = series.options.to_dict()
    out["players"] = list(series.names)
    out["commitment"] = series.commitment
    out["seed"] = seed.hex() if seed is not None else None
    out["deals"] = [
        GameRecord.from_deal(d, id=f"{id or 'list'}-{i}").to_dict()
        for i, d in enumerate(series.deals, 1)
    ]
    out["sheet"] = [row.to_dict() for row in series.rows]
    return out


def load_list(text: str) -> dict[str, Any]:
    if len(text) > MAX_LIST_BYTES:
        raise RecordError(Reason.MALFORMED_ACTION, 0, "list record too large")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(Reason.MALFORMED_ACTION, 0, f"invalid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(Reason.MALFORMED_ACTION, 0, f"not a {FORMAT} record")
    if data.get("version") != VERSION:
        raise RecordError(
            Reason.MALFORMED_ACTION, 0, f"unsupported version {data.get('version')!r}"
        )
    return data


@dataclass
class ListReplay:
    """A list rebuilt from its record, with what did not check out."""

    series: Series
    problems: list[str] = field(default_factory=list)


def replay_list(data: dict[str, Any]) -> ListReplay:
    """Rebuild a list from its record's actions alone.

    Raises `RecordError` (with the deal number in the message) for an action
    the rules refuse; mismatches of deal numbers, dealers, Bock and Ramsch
    rounds against what the list rules give are reported as problems.
    """
    try:
        options = ListOptions.from_dict(data.get("options") or {})
        games = [GameRecord.from_dict(g) for g in data.get("deals") or []]
        names = data.get("players")
        seed_hex = data.get("seed")
        seed = bytes.fromhex(seed_hex) if isinstance(seed_hex, str) else None
        if seed is not None and len(seed) != SEED_BYTES:
            raise ValueError("the seed must have 32 bytes")
    except (ValueError, TypeError) as exc:
        raise RecordError(Reason.MALFORMED_ACTION, 0, str(exc)) from None
    if not games:
        raise RecordError(Reason.MALFORMED_ACTION, 0, "a list record holds at least one deal")
    if len(games) > options.deals_per_list:
        raise RecordError(Reason.LIST_OVER, 0, "more deals than the list has")
    try:  # e.g. a list of names for another number of players
        series = Series(
            options,
            decks=[g.deck for g in games],
            names=names if isinstance(names, list) else None,
            commit=str(data.get("commitment") or ""),
        )
    except (ValueError, TypeError) as exc:
        raise RecordError(Reason.MALFORMED_ACTION, 0, str(exc)) from None
    series._seed = seed  # revealed with the record; checked by verify_list
    problems: list[str] = []
    for number, game in enumerate(games, 1):
        if number > 1:
            series.next_deal()
        deal = series.deal
        expected = (deal.dealer, deal.forced_ramsch, deal.bock_factor, deal.rules)
        got = (game.dealer, game.ramsch, game.bock_factor, game.rules)
        if expected != got:
            problems.append(
                f"deal {number}: dealer/ramsch/bock/rules {got} differ from the list's {expected}"
            )
        for move, (seat, action) in enumerate(game.actions, 1):
            try:
                series.apply(action, seat)
            except IllegalActionError as exc:
                raise RecordError(exc.code, move, f"deal {number}: {exc.message}") from None
        if not deal.is_terminal() and number < len(games):
            raise RecordError(
                "RECORD_INCOMPLETE", len(game.actions) + 1, f"deal {number} is not over"
            )
    return ListReplay(series, problems)


def verify_list(data: dict[str, Any]) -> list[str]:
    """Everything that does not check out in a list record (empty: verified).

    Checks the seed against the commitment, every deal's deck against the
    shuffle of that seed, every action against the rules, and the stored
    sheet against the replayed one.
    """
    problems: list[str] = []
    seed_hex = data.get("seed")
    if not isinstance(seed_hex, str):
        return ["the seed is not revealed (the list is not over)"]
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        return ["the seed is not hexadecimal"]
    if commitment(seed) != data.get("commitment"):
        problems.append("the seed does not match the commitment")
    try:
        rebuilt = replay_list(data)
    except RecordError as exc:
        return [*problems, f"{exc.code} at move {exc.move}: {exc.message}"]
    problems += rebuilt.problems
    if len(seed) == SEED_BYTES:
        for number, deal in enumerate(rebuilt.series.deals, 1):
            if list(deal.deck) != deal_deck(seed, number):
                problems.append(f"deal {number}: the cards are not the shuffle of the seed")
    stored = data.get("sheet")
    if stored is not None:
        ours = [row.to_dict() for row in rebuilt.series.rows]
        for a, b in zip(stored, ours, strict=False):  # records before rows had `contract`
            if isinstance(a, dict) and "contract" not in a:
                b.pop("contract", None)
        if stored != ours:
            bad = [i + 1 for i, (a, b) in enumerate(zip(stored, ours, strict=False)) if a != b]
            if len(stored) != len(ours):
                bad.append(min(len(stored), len(ours)) + 1)
            problems.append(f"the stored sheet differs from the replay at deal(s) {bad[:5]}")
    if not rebuilt.series.is_over():
        problems.append("the list is not finished")
    return problems


def who_played(
    data: dict[str, Any], series: Series
) -> tuple[dict[int, list[str]], dict[int, list[int]]]:
    """A server's additions to a list record (docs/formats.md): who played
    each seat from which deal on (`players_from`) and, by deal, the seats a
    computer made moves for (from `computer_moves`, one seat a move). Both
    empty for a record without them; raises `RecordError` for a malformed one."""

    def bad(what: str) -> RecordError:
        return RecordError(Reason.MALFORMED_ACTION, 0, f"malformed {what}")

    def deal_number(key: Any, dealt: bool) -> int:
        """A deal number as text: one of the record's deals (``dealt``), or
        any deal of the list (a download made mid-list names the deal in
        play, whose cards it leaves out)."""
        if not isinstance(key, str) or not key.isascii() or not key.isdigit() or len(key) > 6:
            raise bad("deal number")
        number = int(key)
        if not 1 <= number <= (len(series.deals) if dealt else series.options.deals_per_list):
            raise bad("deal number")
        return number

    names: dict[int, list[str]] = {}
    players_from = data.get("players_from", {})
    if not isinstance(players_from, dict):
        raise bad("players_from")
    for key, value in players_from.items():
        if (
            not isinstance(value, list)
            or len(value) != len(series.names)
            or not all(isinstance(n, str) for n in value)
        ):
            raise bad("players_from")
        names[deal_number(key, False)] = value
    seats: dict[int, list[int]] = {}
    moves = data.get("computer_moves", {})
    if not isinstance(moves, dict):
        raise bad("computer_moves")
    for key, value in moves.items():
        number = deal_number(key, True)
        history = series.deals[number - 1].history
        if not isinstance(value, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(history) for i in value
        ):
            raise bad("computer_moves")
        seats[number] = [history[i][0] for i in value]
    return names, seats
