"""International Skat Server one-line records (shared/formats/ISS-FORMAT.md).

`parse_iss` reads a record into a `GameRecord` plus the server's own result;
`to_iss` writes a three-player deal without house rules back in that format.
Both declaration forms (combined ``D.ST.H8`` and split ``D`` then ``ST.H8``),
the special moves ``SC``, ``RE``, ``TI.n``, ``LE.n``, the old 2007-2008 form
and the quirks of section 4.4 are handled as documented in docs/formats.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import (
    CLAIM,
    CONCEDE,
    HOLD,
    LEAVE,
    PASS,
    PICKUP,
    PLAYS,
    TIMEOUT,
    Abandon,
    Action,
    Announce,
    Bid,
    Claim,
    Concede,
    Discard,
    Hold,
    Pass,
    Pickup,
    Play,
    Refuse,
)
from .cards import Card
from .deal import Deal, deck_from_hands
from .errors import Reason
from .game import Contract, GameType, Rules
from .records import GameRecord, RecordError
from .values import Outcome, value_game

_PROP = re.compile(r"([A-Z][A-Z0-9]*)\[([^\]]*)\]")
_TYPE_LETTERS = {
    "G": GameType.GRAND,
    "C": GameType.CLUBS,
    "S": GameType.SPADES,
    "H": GameType.HEARTS,
    "D": GameType.DIAMONDS,
    "N": GameType.NULL,
}
_LETTER_OF = {v: k for k, v in _TYPE_LETTERS.items()}
HEADER_KEYS = ("GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2", "R0", "R1", "R2")


@dataclass
class IssGame:
    """One ISS record: the replayable `GameRecord`, the header and the server's result."""

    record: GameRecord
    header: dict[str, str]
    server: dict[str, Any]  # parsed R[...]; {"passed": True} for passed deals
    notes: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.header.get("ID", "")


def parse_declaration(text: str) -> Contract:
    """``'GHZ'`` -> Grand Hand Schwarz announced (ISS-FORMAT.md 2.5)."""
    if not text or text[0] not in _TYPE_LETTERS:
        raise ValueError(f"not a game declaration: {text!r}")
    flags = set(text[1:])
    if not flags <= set("OHSZ") or len(text) - 1 != len(flags):
        raise ValueError(f"bad modifiers in {text!r}")
    return Contract(
        _TYPE_LETTERS[text[0]],
        hand="H" in flags,
        schneider="S" in flags,
        schwarz="Z" in flags,
        ouvert="O" in flags,
    )


def format_declaration(c: Contract) -> str:
    """The ISS letters of a contract, in the documented order O H S Z."""
    out = _LETTER_OF[c.game]
    if c.game == GameType.NULL:
        return out + ("O" if c.ouvert else "") + ("H" if c.hand else "")
    if c.ouvert:
        return out + "O"
    if c.hand:
        out += "H"
    if c.schwarz:
        out += "Z"
    elif c.schneider:
        out += "S"
    return out


def parse_server_result(text: str) -> dict[str, Any]:
    """Parse ``R[...]`` (ISS-FORMAT.md 4.1)."""
    text = text.strip()
    if text == "passed":
        return {"passed": True}
    out: dict[str, Any] = {"passed": False}
    for tok in text.split():
        if ":" in tok:
            k, v = tok.split(":", 1)
            out[k] = int(v)
        elif tok in ("win", "loss", "penalty"):
            out["outcome"] = tok
        elif tok in ("bidok", "overbid"):
            out["overbid"] = tok == "overbid"
    return out


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split(".") if t]


def parse_iss(line: str) -> IssGame:
    """Read one ISS record line; raises `RecordError` if it cannot be read."""
    line = line.strip()
    if not line.startswith("(;GM[Skat]"):
        raise RecordError(Reason.MALFORMED_ACTION, 0, "not an ISS record")
    props = dict(_PROP.findall(line))
    if "MV" not in props:
        raise RecordError(Reason.MALFORMED_ACTION, 0, "ISS record without MV[...]")
    header = {k: props[k] for k in HEADER_KEYS if k in props}
    server = parse_server_result(props["R"]) if "R" in props else {}
    rules = Rules(
        concede_after_claim="one" if header.get("PC") == "ISS2" else "both",
        claim_levels="taken",
        announce_before_discard=True,
    )
    tokens = props["MV"].split()
    if len(tokens) % 2:
        raise RecordError(Reason.MALFORMED_ACTION, 0, "MV has an odd number of tokens")
    moves = list(zip(tokens[::2], tokens[1::2], strict=True))
    if not moves or moves[0][0] != "w":
        raise RecordError(Reason.MALFORMED_ACTION, 0, "MV must start with the deal")
    try:
        cards = _cards(moves[0][1])
        if len(cards) != 32:
            raise ValueError("the deal must list 32 cards")
        deck = deck_from_hands([cards[0:10], cards[10:20], cards[20:30]], cards[30:32])
    except ValueError as exc:
        raise RecordError(Reason.MALFORMED_ACTION, 1, str(exc)) from None
    notes: list[str] = []
    actions = list(_translate(moves, notes))
    record = GameRecord(tuple(deck), tuple(actions), rules, 2, id=header.get("ID"))
    return IssGame(record, header, server, notes)


def _translate(moves: list[tuple[str, str]], notes: list[str]) -> Iterator[tuple[int, Action]]:
    picked_up = False
    pending: tuple[int, Contract] | None = None  # split form: declaration waiting for discard
    for i, (actor, move) in enumerate(moves[1:], 2):
        try:
            if actor == "w":
                if move.startswith(("TI.", "LE.")):
                    seat = int(move[3:])
                    if pending is not None:
                        # ISS 4.4: the declaration counts, the game is settled as declared.
                        notes.append("game declared before the discard, then ended (ISS 4.4)")
                        yield pending[0], Announce(pending[1])
                        pending = None
                    yield seat, (TIMEOUT if move.startswith("TI.") else LEAVE)
                # other world moves (the shown skat) carry no decision
                continue
            seat = int(actor)
            if pending is not None:
                pseat, contract = pending
                pending = None
                if pseat == seat and "." in move and move[:2] not in ("SC", "RE"):
                    d = _cards(move)
                    yield seat, Discard(tuple(d[:2]))
                    yield seat, Announce(contract)
                    continue
                raise ValueError("a split declaration must be followed by the discard")
            if move == "y":
                yield seat, HOLD
            elif move == "p":
                yield seat, PASS
            elif move.isdigit():
                yield seat, Bid(int(move))
            elif move == "s":
                picked_up = True
                yield seat, PICKUP
            elif move.startswith("SC"):
                yield seat, CLAIM
            elif move == "RE":
                yield seat, CONCEDE
            elif move == "??":
                nxt = moves[i] if i < len(moves) else None
                if nxt is None or nxt[0] != "w":
                    raise ValueError("an unknown card can only precede the end of a game")
                notes.append(f"unknown card of seat {seat} skipped (ISS 4.4)")
            elif len(move) == 2 and move[0] in "CSHD" and move[1] in "ATKQJ987":
                yield seat, PLAYS[Card.parse(move)]
            else:
                decl, _, rest = move.partition(".")
                contract = parse_declaration(decl)
                if picked_up:
                    if rest:
                        d = _cards(rest)
                        yield seat, Discard(tuple(d[:2]))
                        yield seat, Announce(contract)
                    else:
                        pending = (seat, contract)
                else:
                    c = Contract(
                        contract.game, True, contract.schneider, contract.schwarz, contract.ouvert
                    )
                    yield seat, Announce(c.normalised())
        except ValueError as exc:
            raise RecordError(Reason.MALFORMED_ACTION, i, f"{actor} {move}: {exc}") from None


def iter_iss(text: str) -> Iterator[str]:
    """The record lines of an ISS file."""
    for line in text.splitlines():
        if line.strip().startswith("(;GM[Skat]"):
            yield line.strip()


def result_fields(deal: Deal) -> dict[str, Any]:
    """The R[...] fields our engine computes for a finished three-player deal."""
    r = deal.result
    if r is None:
        raise ValueError("the deal is not over")
    if r.kind == "passed":
        return {"passed": True}
    val = r.valuation
    out: dict[str, Any] = {"passed": False}
    # ISS seats are positions (0 forehand), whatever our dealer was.
    out["d"] = -1 if r.declarer_position is None else r.declarer_position
    if r.kind == "abandoned":
        out["outcome"] = "penalty"
        out["v"] = 0
    else:
        assert val is not None
        out["outcome"] = "win" if val.won else "loss"
        out["v"] = r.score
    out["m"] = val.matadors if val else 0
    out["overbid"] = bool(val and val.overbid)
    out["p"] = r.declarer_points
    out["t"] = r.declarer_tricks
    out["s"] = int(bool(val and val.schneider))
    out["z"] = int(bool(val and val.schwarz))
    for seat in range(3):
        out[f"p{seat}"] = r.penalties[seat] if r.penalties else 0
    out["l"] = r.ended_by if r.ended == "leave" and r.ended_by is not None else -1
    out["to"] = r.ended_by if r.ended == "timeout" and r.ended_by is not None else -1
    out["r"] = int(r.ended in ("declarer_conceded", "defenders_conceded"))
    return out


#: ISS-FORMAT.md 4.4, the one documented server quirk that changes a result.
QUIRK_MATADORS_FROM_SKAT = (
    "ISS-FORMAT.md 4.4: the game ended after the declaration and before the discard; "
    "the server took the matadors from the two skat cards alone, we from the "
    "declarer's hand and skat (R5.2)"
)


@dataclass(frozen=True)
class ServerComparison:
    """Our settlement against the server's ``R[...]``: the differing fields
    (ours, the server's) and, when a documented quirk accounts for every one
    of them, its reason."""

    differences: dict[str, tuple[Any, Any]]
    known: str | None = None

    @property
    def agrees(self) -> bool:
        return not self.differences


def compare_with_server(game: IssGame, deal: Deal) -> ServerComparison:
    """Compare a replayed ISS record with the server's own result."""
    ours = result_fields(deal)
    diff = {k: (ours.get(k), v) for k, v in game.server.items() if ours.get(k) != v}
    if not diff:
        return ServerComparison({})
    quirk = _skat_only_fields(deal, ours)
    if quirk is not None and all(quirk.get(k) == v for k, v in game.server.items()):
        return ServerComparison(diff, QUIRK_MATADORS_FROM_SKAT)
    return ServerComparison(diff)


def _skat_only_fields(deal: Deal, ours: dict[str, Any]) -> dict[str, Any] | None:
    """What the server reports for a game ended before the discard: matadors
    from the dealt skat alone (ISS-FORMAT.md 4.4); ``None`` for other deals."""
    r = deal.result
    if r is None or r.kind != "game" or r.contract is None or len(deal.skat):
        return None
    outcome: Outcome = "declarer_lost" if r.ended_by == r.declarer_seat else "defenders_lost"
    val = value_game(
        r.contract,
        r.bid,
        r.declarer_points,
        r.declarer_tricks,
        deal.dealt_skat.mask,
        tricks_played=len(deal.tricks),
        outcome=outcome,
    )
    out = dict(ours)
    out.update(
        outcome="win" if val.won else "loss",
        v=val.plain_entry(),
        m=val.matadors,
        overbid=val.overbid,
        s=int(val.schneider),
        z=int(val.schwarz),
    )
    return out


def format_result(fields: dict[str, Any]) -> str:
    if fields.get("passed"):
        return "passed"
    return (
        f"d:{fields['d']} {fields['outcome']} v:{fields['v']} m:{fields['m']} "
        f"{'overbid' if fields['overbid'] else 'bidok'} p:{fields['p']} t:{fields['t']} "
        f"s:{fields['s']} z:{fields['z']} p0:{fields['p0']} p1:{fields['p1']} p2:{fields['p2']} "
        f"l:{fields['l']} to:{fields['to']} r:{fields['r']}"
    )


#: The deal rules an ISS record can stand beside when they differ from the
#: ISkO's (`Rules.to_dict` names the ones that do): those that replay the
#: server's own ways and those that mean nothing without a rule it lacks
#: (Kontra's window without Kontra, Schieberamsch without Ramsch). Any
#: other rule, a new one included, keeps a deal out of the format.
ISS_CARRIES = frozenset(
    {
        "concede_after_claim",
        "claim_levels",
        "announce_before_discard",
        "enforce_reachable_announcement",
        "kontra_window",
        "kontra_requires_bid",
        "schieberamsch",
    }
)


def to_iss(record: GameRecord, header: dict[str, str] | None = None) -> str:
    """Write a record as an ISS line (three players, no house rules).

    ISS seats are positions (0 forehand); the result field is our own settlement.
    """
    rules = record.rules
    beyond = sorted(set(rules.to_dict()) - ISS_CARRIES)
    if beyond or record.ramsch:
        raise ValueError(
            "only three-player deals without house rules fit the ISS format"
            + (f" (not {', '.join(beyond)})" if beyond else "")
        )
    if record.bock_factor != 1:
        raise ValueError("Bock deals do not fit the ISS format")
    from .records import replay

    deal = replay(record)
    pos = {deal.seat_of(p): p for p in range(3)}
    hands = [deal.dealt_hand(p) for p in range(3)]
    # Keep the deck order inside each hand so that import gives the same deck.
    from .deal import DEAL_INDICES

    deal_cards = [deal.deck[i].name for idx in DEAL_INDICES for i in idx]
    assert len(hands) == 3
    mv = ["w", ".".join(deal_cards)]
    discard: Discard | None = None
    announced = False
    for seat, a in record.actions:
        p = str(pos[seat])
        match a:
            case Bid(value=v):
                mv += [p, str(v)]
            case Hold():
                mv += [p, "y"]
            case Pass():
                mv += [p, "p"]
            case Pickup():
                mv += [p, "s", "w", ".".join(c.name for c in deal.dealt_skat)]
            case Discard():
                if announced:  # split form: the declaration came first (2.4)
                    mv += [p, ".".join(x.name for x in a.cards)]
                else:
                    discard = a
            case Announce(contract=c):
                text = format_declaration(c)
                if discard is not None:
                    text += "." + ".".join(x.name for x in discard.cards)
                    discard = None
                announced = True
                mv += [p, text]
            case Play(card=c):
                mv += [p, c.name]
            case Claim():
                mv += [p, "SC"]
            case Refuse():
                pass  # the ISS has no word for it: play simply goes on
            case Concede():
                mv += [p, "RE"]
            case Abandon(reason=why):
                mv += ["w", f"{'TI' if why == 'timeout' else 'LE'}.{p}"]
            case _:
                raise ValueError(f"'{a}' has no ISS form")
    h = {"GM": "Skat", "PC": "skat", "CO": "", "SE": "0", "ID": record.id or "0", "DT": ""}
    h.update({f"P{i}": f"seat{deal.seat_of(i)}" for i in range(3)})
    h.update({f"R{i}": "" for i in range(3)})
    if header:
        h.update(header)
    head = "".join(f"{k}[{h[k]}]" for k in HEADER_KEYS if k in h)
    if discard is not None:  # the deal ended between discard and announcement
        mv += [str(pos[record.actions[-1][0]]), ".".join(x.name for x in discard.cards)]
    return f"(;{head}MV[{' '.join(mv)} ]R[{format_result(result_fields(deal))}] ;)"
