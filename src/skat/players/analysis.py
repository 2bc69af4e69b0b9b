"""\"Could I have won?\": the open-card analysis of a played game (issue 9, point 4).

For a game that reached trick play (suit, Grand, Null), with all cards open:

- per trick from 1 (the dealt hands after the discard) to the last trick
  played, the declarer's best final card points (suit and Grand, skat
  included) or whether the Null declarer could still win, when everyone plays
  perfectly from the start of that trick;
- the turning card: the first card actually played that changed the
  open-card outcome, who played it (table seat), in which trick, and a card
  that would have kept the outcome.

The outcome is the contract's card condition: 61 card points, 90 with
Schneider announced, every trick with Schwarz announced (and Ouvert), no
trick in Null. Whether the game value covers the bid (R7) is not part of it:
the cards cannot change the value, only the Schneider and Schwarz levels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import Deal, GameType, Phase, Play
from ..engine.cards import CARDS, Card, mask_indices
from ..engine.game import SORT_KEY
from .solver import Position, best_points, card_values, null_wins, reaches, takes_all


@dataclass
class TurningCard:
    seat: int
    trick: int
    card: str
    better: str
    kept_win: bool  # the declarer was winning before the card (not part of the JSON form)
    # suit and Grand: the declarer's best final card points after the card
    # played and after ``better`` (everyone playing perfectly from there)
    best_after: int | None = None
    best_better: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "trick": self.trick, "card": self.card, "better": self.better}

    def swing_dict(self) -> dict[str, Any]:
        """The swing in full (``turning_cards``): the outcome before and after."""
        return {
            **self.to_dict(),
            "declarer_winning_before": self.kept_win,
            "declarer_winning_after": not self.kept_win,
            "best_after": self.best_after,
            "best_better": self.best_better,
        }


@dataclass
class GameAnalysis:
    """The open-card analysis of one game (``skipped`` says why there is none)."""

    id: str | None
    skipped: str | None = None
    contract: str | None = None
    declarer_seat: int | None = None
    declarer_points: int | None = None  # what the declarer actually made
    won: bool | None = None  # the actual result (the value and the bid included)
    can_win: bool | None = None  # open-card verdict of the dealt hands after the discard
    positions: list[dict[str, Any]] = field(default_factory=list)
    turning_card: TurningCard | None = None  # the first of ``turning_cards``
    # every card that changed the open-card outcome, in the order played
    # (for either side: a defender's error can give back what the declarer lost)
    turning_cards: list[TurningCard] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        if self.skipped is not None:
            return {"id": self.id, "skipped": self.skipped}
        return {
            "id": self.id,
            "contract": self.contract,
            "declarer_seat": self.declarer_seat,
            "declarer_points": self.declarer_points,
            "won": self.won,
            "declarer_can_win": self.can_win,
            "positions": self.positions,
            "turning_card": None if self.turning_card is None else self.turning_card.to_dict(),
            "turning_cards": [t.swing_dict() for t in self.turning_cards],
        }

    def describe(self) -> str:
        """One or two readable lines."""
        head = f"{self.id or 'game'}:"
        if self.skipped is not None:
            return f"{head} not analysed ({self.skipped})"
        head += f" {self.contract} by seat {self.declarer_seat}"
        first = self.positions[0] if self.positions else {}
        # what best play on both sides gives, then what happened: never "could
        # have made 28" beside a declarer who made 50 (issue 26, item 1)
        if "best_declarer_points" in first:
            best = first["best_declarer_points"]
            verdict = (
                f"with best play on both sides the declarer would have made {best}"
                f" card points; made {self.declarer_points}"
            )
        else:
            can = "wins" if first.get("declarer_can_win") else "loses"
            verdict = f"with best play on both sides the declarer {can} the Null;"
            verdict += f" took {'no trick' if self.won else 'a trick'}"
        verdict += f" ({'won' if self.won else 'lost'})"
        if not self.turning_cards:
            return f"{head}: {verdict}; no card turned the open-card outcome"
        turns = []
        for t in self.turning_cards:
            kept = "the win" if t.kept_win else "the defenders' win"
            turns.append(
                f"trick {t.trick}: seat {t.seat} played {t.card}, {t.better} would have kept {kept}"
            )
        return f"{head}: {verdict}; " + "; ".join(turns)


def _target(deal: Deal) -> tuple[str, int]:
    c = deal.contract
    assert c is not None
    if c.game == GameType.NULL:
        return "null", 0
    c = c.normalised()
    if c.schwarz:
        return "schwarz", 0
    return "points", 90 if c.schneider else 61


def _outcome(pos: Position, target: tuple[str, int]) -> bool:
    kind, points = target
    if kind == "null":
        return null_wins(pos)
    if kind == "schwarz":
        return takes_all(pos)
    return reaches(pos, points)


def _start(deal: Deal) -> tuple[Deal, int]:
    """A fresh replay of ``deal`` up to its play phase; the index of the next action."""
    fresh = deal.fresh()
    history = deal.history
    i = 0
    while i < len(history) and fresh.phase not in (Phase.PLAY, Phase.KONTRA):
        seat, action = history[i]
        fresh.apply(action, seat)
        i += 1
    return fresh, i


def declarer_could_win(deal: Deal) -> bool | None:
    """The open-card verdict alone (one solve): could the declarer make the
    contract's card condition with the dealt hands after the discard, every
    seat playing perfectly? None for a deal without trick play."""
    r = deal.result
    if r is None or r.kind != "game" or deal.contract is None:
        return None
    fresh, _ = _start(deal)
    if fresh.phase not in (Phase.PLAY, Phase.KONTRA):
        return None
    return _outcome(Position.from_deal(fresh), _target(deal))


def analyse_deal(deal: Deal, rid: str | None = None) -> GameAnalysis:
    """The open-card analysis of a finished (or abandoned) deal."""
    r = deal.result
    if r is None:
        return GameAnalysis(rid, skipped="the deal is not over")
    if r.kind == "passed":
        return GameAnalysis(rid, skipped="passed: thrown in")
    if r.kind == "ramsch":
        return GameAnalysis(rid, skipped="Ramsch: no declarer")
    if r.kind != "game" or deal.contract is None:
        return GameAnalysis(rid, skipped="abandoned before trick play")
    fresh, i = _start(deal)
    if fresh.phase not in (Phase.PLAY, Phase.KONTRA):
        return GameAnalysis(rid, skipped="abandoned before trick play")
    contract = deal.contract
    target = _target(deal)
    null = contract.game == GameType.NULL
    out = GameAnalysis(
        rid,
        contract=contract.describe(),
        declarer_seat=r.declarer_seat,
        declarer_points=r.declarer_points,
        won=r.won,
    )
    pos = Position.from_deal(fresh)
    plays = [(s, a.card) for s, a in deal.history[i:] if isinstance(a, Play)]
    before = _outcome(pos, target)
    out.can_win = before
    for n, (seat, card) in enumerate(plays):
        if not pos.trick:  # the start of a trick
            out.positions.append(_position(pos, len(out.positions) + 1, null))
        after_pos = pos.play(int(card))
        after = _outcome(after_pos, target)
        if after != before:
            better = _better(pos, target, before, null)
            turn = TurningCard(seat, n // 3 + 1, str(card), better, before)
            if not null:
                turn.best_after = best_points(after_pos)
                turn.best_better = best_points(pos.play(int(Card.parse(better))))
            out.turning_cards.append(turn)
        pos, before = after_pos, after
    out.turning_card = out.turning_cards[0] if out.turning_cards else None
    if not out.positions:
        out.positions.append(_position(pos, 1, null))
    return out


def _position(pos: Position, trick: int, null: bool) -> dict[str, Any]:
    if null:
        return {"trick": trick, "declarer_can_win": null_wins(pos)}
    return {"trick": trick, "best_declarer_points": best_points(pos)}


def _better(pos: Position, target: tuple[str, int], keep: bool, null: bool) -> str:
    """A card of the mover that keeps the outcome ``keep``: the best one by card points."""
    key = SORT_KEY[pos.game]
    cards = sorted(pos.legal_cards(), key=lambda c: key[c])
    if target[0] == "points" and not null:
        values = card_values(pos)
        mine = pos.to_move == pos.declarer
        cards.sort(key=lambda c: -values[c] if mine else values[c])
    for c in cards:
        if _outcome(pos.play(c), target) == keep:
            return str(CARDS[c])
    raise AssertionError("the outcome changed although no card can change it")  # pragma: no cover


def deal_board(deal: Deal, rid: str | None = None) -> dict[str, Any]:
    """The analysis board of a settled deal (issue 26, point 1): the deal
    card by card with all hands open. For every card played: the hands and
    the trick before it (table seats, the game's display order), the
    open-card value before and after it and the value of every card the
    player could have played instead (the solver's per-card values: the
    declarer's best final card points, or for Null 1 = the declarer can
    still win), and whether it swung the outcome (`analyse_deal`'s swings).
    The page only shows these; it works out nothing."""
    verdict = analyse_deal(deal, rid)
    if verdict.skipped is not None:
        return {"id": rid, "skipped": verdict.skipped}
    fresh, start = _start(deal)
    contract = deal.contract
    assert contract is not None and deal.result is not None
    null = contract.game == GameType.NULL
    seats = [deal.seat_of(p) for p in range(3)]
    order = SORT_KEY[contract.game]
    pos = Position.from_deal(fresh)
    swings = {(t.trick, t.card) for t in verdict.turning_cards}

    def cards(mask: int) -> list[str]:
        return [str(CARDS[c]) for c in sorted(mask_indices(mask), key=lambda c: order[c])]

    def value(p: Position) -> int:
        return int(null_wins(p)) if null else best_points(p)

    steps: list[dict[str, Any]] = []
    before = value(pos)
    plays = [(s, a.card) for s, a in deal.history[start:] if isinstance(a, Play)]
    for n, (seat, card) in enumerate(plays):
        values = card_values(pos)
        mine = pos.to_move == pos.declarer
        ranked = sorted(values, key=lambda c: (-values[c] if mine else values[c], order[c]))
        trick = n // 3 + 1
        steps.append(
            {
                "seat": seat,
                "card": str(card),
                "trick": trick,
                "hands": {str(seats[p]): cards(pos.hands[p]) for p in range(3)},
                "table": [
                    [seats[(pos.leader + k) % 3], str(CARDS[c])] for k, c in enumerate(pos.trick)
                ],
                "before": before,
                "after": values[int(card)],
                "alternatives": [{"card": str(CARDS[c]), "value": values[c]} for c in ranked],
                "swing": (trick, str(card)) in swings,
            }
        )
        pos = pos.play(int(card))
        before = values[int(card)]
    view = deal.view(None)
    dealt = view.dealt
    return {
        "id": rid,
        "contract": contract.describe(),
        "words": list(contract.words),
        "null": null,
        "target": _target(deal)[1] if not null else None,
        "declarer_seat": verdict.declarer_seat,
        "declarer_points": verdict.declarer_points,
        "won": verdict.won,
        "auction": [[s, text] for s, text in view.history[:start]],
        "skat": {
            "dealt": [str(c) for c in dealt[3]] if dealt else [],
            "put": [str(c) for c in deal.skat] if not contract.hand else [],
        },
        "start": verdict.positions[0] if verdict.positions else None,
        "steps": steps,
        "verdict": verdict.to_dict(),
    }
