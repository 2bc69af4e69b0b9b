"""What each viewer receives: the one place that decides visibility.

Everything a client sees of a table is made here from the engine's views
(R3.7: a view never holds a card its seat may not know): events, snapshots
and downloads. A discard is hidden exactly where the engine's view of that
deal hides it; the seed only once the list is over; the deck of a deal in
play never leaves the server.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, assert_never

import msgspec
from msgspec.structs import astuple

from ..engine import Action, DealResult, GameRecord, Phase, Trick, View
from ..engine.cards import CARD_NAMES, CardSet
from ..engine.game import Contract, GameType, sorted_cards
from ..engine.iss import to_iss
from ..engine.values import seeger_fabian_others
from ..engine.views import PlayPart, history_texts, play_part, seat_part
from ..players.levels import level_of
from ..series import ListOptions, Series, SheetRow
from ..series.record import list_record
from . import events as ev
from . import messages as m
from .table import TableState

Viewer = int | None  # a table seat, or None for a spectator
_PLAY_PHASE = Phase.PLAY.value  # a view's phase on the wire while the trick play goes on


class Shared:
    """What every viewer of one moment of a table sees alike, built once.

    One event goes to every connection of its table; the parts of the
    messages that do not depend on the viewer (finished tricks, the result,
    the contract, the sheet, the seats) and each viewer's engine view are
    made once per moment instead of once per connection. Keys are the ids
    of the engine's objects, which the memo keeps alive, so one `Shared`
    must serve one moment only (the actor makes one per event)."""

    __slots__ = ("_memo", "_outs", "_part", "_prior", "_views", "from_prior")

    def __init__(self, prior: Mapping[Viewer, m.ViewOut] | None = None) -> None:
        """``prior``: each viewer's view before the event, where the event is
        a move (`TableActor` keeps the views it sent): after a card played
        in the trick play, a view is that one with what the card changed
        (`engine.views.play_part`), not made anew from the deal."""
        self._memo: dict[tuple[str, int], tuple[Any, Any]] = {}
        self._views: dict[Viewer, View] = {}
        self._outs: dict[Viewer, m.ViewOut] = {}
        self._prior = prior
        self._part: tuple[PlayPart, dict[str, Any]] | None = None
        self.from_prior = 0  # views made from ``prior`` (tests count them)

    def get(self, kind: str, obj: Any, make: Callable[[], Any]) -> Any:
        key = (kind, id(obj))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = (obj, make())  # obj pinned: its id stays unique
        return hit[1]

    def view(self, series: Series, viewer: Viewer) -> View:
        v = self._views.get(viewer)
        if v is None:
            v = self._views[viewer] = series.deal.view(viewer)
        return v

    def view_out(self, series: Series, viewer: Viewer) -> m.ViewOut:
        """``viewer``'s view as it goes on the wire, made once per moment: the
        public (spectator) view once, and a seat's from it with only the
        seat's own parts made anew (`engine.views.seat_part`: its hand, the
        skat it may see, its own discard in the history, its moves)."""
        out = self._outs.get(viewer)
        if out is not None:
            return out
        if self._prior is not None:
            before = self._prior.get(viewer)
            if before is not None and before.phase == _PLAY_PHASE:
                out = self._after_play(series, viewer, before)
                if out is not None:
                    self._outs[viewer] = out
                    self.from_prior += 1
                    return out
        if viewer is None:
            out = self._outs[None] = view_json(self.view(series, None), self)
            return out
        public = self.view_out(series, None)
        deal = series.deal
        part = seat_part(deal, viewer)
        history = public.history
        if part.discards:
            texts = history_texts(deal)
            own = list(history)
            for i in part.discards:
                own[i] = (own[i][0], texts[i])
            history = tuple(own)
        contract = self.view(series, None).contract
        legal = deal.legal_actions(viewer) if part.position is not None else ()
        out = self._outs[viewer] = msgspec.structs.replace(
            public,
            seat=viewer,
            position=part.position,
            hand=_sorted(part.hand, contract),
            skat=_cards(part.skat),
            legal=_legal_texts(legal),
            offers=_offers(deal.offers(viewer)),
            history=history,
        )
        return out

    def _after_play(self, series: Series, viewer: Viewer, before: m.ViewOut) -> m.ViewOut | None:
        """``viewer``'s view after the card just played, made from its view
        ``before`` it (None: the move was no card played in the trick play
        going on, so the view is made whole). Only the parts a card changes
        are made: whose turn it is, the trick, the hand sizes, the history
        and the finished tricks (each one item longer), the open cards,
        and the hand, moves and offers of a seat."""
        deal = series.deal
        if self._part is None:
            part = play_part(deal)
            if part is None:
                self._prior = None  # not a card played: every view whole
                return None
            self._part = (
                part,
                {
                    "turn": part.current_seat,
                    "hand_sizes": part.hand_sizes,
                    "trick": tuple((s, CARD_NAMES[card]) for s, card in part.trick),
                    "open_cards": _sorted(part.open_cards, deal.contract),
                },
            )
        part, fields = self._part
        changed = dict(fields)
        changed["history"] = (*before.history, (part.seat, part.text))
        if part.finished is not None:
            changed["tricks"] = (*before.tricks, trick_json(part.finished, before.seats))
        if viewer is not None and before.position is not None:
            if viewer == part.seat:
                changed["hand"] = _sorted(deal.hand(viewer), deal.contract)
            changed["legal"] = _legal_texts(deal.legal_actions(viewer))
            changed["offers"] = _offers(deal.offers(viewer))
        return msgspec.structs.replace(before, **changed)


# -------------------------------------------------------------- the engine's view
def _cards(cs: Iterable[Any] | None) -> tuple[str, ...] | None:
    return None if cs is None else tuple(CARD_NAMES[c] for c in cs)


#: Every card in the display order of each game (`sorted_cards` of the whole deck).
_DISPLAY = tuple(tuple(sorted_cards(range(32), g)) for g in GameType)


def _sorted(cs: CardSet | None, contract: Contract | None) -> tuple[str, ...] | None:
    """Cards in the display order of the game (Grand order before there is one):
    the same as `sorted_cards`, as a filter of the whole deck in that order.
    Made once per set of cards and game (a hand recurs in every message of
    its deal): the tuple is shared."""
    if cs is None:
        return None
    mask = cs.mask
    game = contract.game if contract is not None else GameType.GRAND
    key = mask << 3 | game
    out = _HANDS.get(key)
    if out is None:
        if len(_HANDS) >= 50_000:
            _HANDS.clear()
        order = _DISPLAY[game]
        out = _HANDS[key] = tuple(CARD_NAMES[c] for c in order if mask >> c & 1)
    return out


_HANDS: dict[int, tuple[str, ...]] = {}


@lru_cache(maxsize=512)
def contract_json(c: Contract) -> m.ContractOut:
    """A contract on the wire, made once per contract (a few hundred exist)
    and shared by every message that shows it."""
    return m.ContractOut(
        game=c.game.label,
        hand=c.hand,
        schneider=c.schneider,
        schwarz=c.schwarz,
        ouvert=c.ouvert,
        words=list(c.words),  # the name as keys, for front ends to word
        text=c.describe(),
    )


@lru_cache(maxsize=4096)
def trick_json(t: Trick, seats: tuple[int, ...]) -> m.TrickOut:
    """A finished trick on the wire, made once (every later message of its
    deal shows it again)."""
    return m.TrickOut(
        leader=seats[t.leader],
        cards=tuple(CARD_NAMES[c] for c in t.cards),
        winner=seats[t.winner],
        points=t.points,
        by=tuple(seats[p] for p in t.players),
    )


def result_json(r: DealResult, v: View) -> m.ResultOut:
    val = r.valuation
    c = r.contract
    return m.ResultOut(
        kind=r.kind,
        declarer=r.declarer_seat,
        bid=r.bid,
        game=c.describe() if c is not None else None,
        won=r.won,
        value=r.value,
        matadors=val.matadors if val else 0,
        declarer_points=r.declarer_points,
        declarer_tricks=r.declarer_tricks,
        schneider=bool(val and val.schneider),
        schwarz=bool(val and val.schwarz),
        overbid=bool(val and val.overbid),
        explanation=val.explanation if val else None,
        parts=list(val.parts) if val else None,
        levels=val.levels if val else 0,
        multiplier=val.multiplier if val else 0,
        contract=contract_json(c) if val is not None and c is not None else None,  # declared
        ended=r.ended,
        kontra=r.kontra,
        re=r.re,
        factor=r.factor,
        bock_factor=r.bock_factor,
        plain=list(r.plain),
        seeger_fabian=list(r.seeger_fabian),
        others_bonus=seeger_fabian_others(False, r.players),  # R8.2, for the words
        ramsch_points=_per_seat(r, r.ramsch_points) if r.ramsch_points else None,
        ramsch=ramsch_json(r, v),
    )


def _per_seat(r: DealResult, by_position: tuple[int, ...]) -> list[int]:
    """Values by position (forehand, middlehand, rearhand) as a list by table
    seat, like every other list on the wire (0 for a dealer who sits out)."""
    out = [0] * r.players
    for position, value in enumerate(by_position):
        out[(r.dealer + 1 + position) % r.players] = value
    return out


def ramsch_json(r: DealResult, v: View) -> m.RamschOut | None:
    """A Ramsch deal per table seat (R9.1), as the engine settled it
    (`engine/ramsch.py`): card points, tricks, who stayed Jungfrau (no
    trick: the loss doubles) and who made a Durchmarsch."""
    return _ramsch_out(r, v.seats)


def _ramsch_out(r: DealResult, by_position: Sequence[int]) -> m.RamschOut | None:
    """`ramsch_json` with the deal's table seats by position."""
    out = r.ramsch
    if r.kind != "ramsch" or out is None:
        return None
    seats = list(by_position)
    march = out.durchmarsch
    return m.RamschOut(
        seats=seats,
        points=list(out.points),
        tricks=list(out.tricks),
        jungfrau=[seats[p] for p in out.jungfrau],
        durchmarsch=None if march is None else seats[march],
        pushes=out.pushes,  # Schieberamsch: pushed on unseen, each doubling
    )


#: The text of each legal action by the action's id: the engine lists its
#: legal actions from constant tables (engine/tables.py), so a few thousand
#: objects recur and their text is made once; an entry pins its action, so
#: the id stays its own. Bounded in case an action is made anew each time.
_TEXTS: dict[int, tuple[Action, str]] = {}


def _text(a: Action) -> str:
    if len(_TEXTS) >= 20_000:
        _TEXTS.clear()
    text = str(a)
    _TEXTS[id(a)] = (a, text)
    return text


#: The texts of a tuple of legal actions by the tuple's id: the auction's
#: and the announcements' tuples are constants of the engine (the longest
#: lists, sent after every call), a card play's are small. Pinned and
#: bounded as `_TEXTS`; the texts' tuple is shared.
_LEGAL: dict[int, tuple[tuple[Action, ...], tuple[str, ...]]] = {}


def _legal_texts(legal: tuple[Action, ...]) -> tuple[str, ...]:
    hit = _LEGAL.get(id(legal))
    if hit is not None and hit[0] is legal:
        return hit[1]
    if len(_LEGAL) >= 20_000:
        _LEGAL.clear()
    out = tuple(_TEXTS[id(a)][1] if id(a) in _TEXTS else _text(a) for a in legal)
    _LEGAL[id(legal)] = (legal, out)
    return out


def _offers(offers: tuple[Action, ...]) -> tuple[str, ...]:
    return tuple(str(a) for a in offers) if offers else ()


def view_json(v: View, shared: Shared | None = None) -> m.ViewOut:
    """A seat's view as JSON: exactly what `View` holds, nothing more. Cards
    in hands come in the game's display order, so no front end sorts.
    ``shared``: the parts every viewer of this moment sees alike come from
    (and go into) it."""
    c = v.contract
    if shared is None:
        shared = Shared()
    seats = v.seats
    result = v.result
    dealt = v.dealt
    return m.ViewOut(
        seat=v.seat,
        position=v.position,
        dealer=v.dealer,
        phase=v.phase.value,
        turn=v.current_seat,
        seats=seats,
        hand=_sorted(v.hand, c),
        hand_sizes=v.hand_sizes,
        skat=_cards(v.skat),
        bid=v.bid,
        bidder=v.bidder,
        listener=v.listener,
        declarer=v.declarer_seat,
        contract=None if c is None else contract_json(c),
        open_cards=_sorted(v.open_cards, c),
        trick=tuple((s, CARD_NAMES[card]) for s, card in v.trick),
        tricks=tuple(trick_json(t, seats) for t in v.tricks),
        kontra=v.kontra,
        re=v.re,
        legal=_legal_texts(v.legal_actions),
        offers=_offers(v.offers),  # concede / claim, beside the game moves
        history=v.history,
        result=None
        if result is None
        else shared.get("result", result, lambda: result_json(result, v)),
        dealt=None
        if dealt is None
        else shared.get(  # shown once the deal is over: keyed by its result
            "dealt",
            result if result is not None else dealt,
            lambda: (*(_sorted(cs, c) for cs in dealt[:-1]), _cards(dealt[-1])),
        ),
    )


# --------------------------------------------------------------------- events
#: Where an `Act` landed: (deal number, index in that deal's history).
ActRef = tuple[int, int]
ActText = Callable[[ActRef], str]


def act_texts(series: Series | None, viewer: Viewer) -> ActText:
    """The engine's public text of each move for ``viewer`` (a discard reads
    ``discard`` to anyone the engine's view of that deal hides it from)."""
    views: dict[int, View] = {}

    def text(ref: ActRef) -> str:
        number, index = ref
        assert series is not None
        view = views.get(number)
        if view is None:
            view = views[number] = series.deals[number - 1].view(viewer)
        return view.history[index][1]

    return text


def event_json(
    event: ev.TableEvent, viewer: Viewer, muted: set[int], text: Callable[[], str]
) -> m.EventOut:
    """What ``viewer`` may learn of one event (never a token hash or a hidden card).
    ``text`` gives the public text of an `Act` for this viewer."""
    match event:
        case ev.Sit(seat=seat, name=name):
            return m.SitOut(seat=seat, name=name)
        case ev.Bot(seat=seat, bot=bot):
            return m.BotOut(seat=seat, bot=bot)
        case ev.Takeover(seat=seat, name=name):
            return m.TakeoverOut(seat=seat, name=name)
        case ev.Leave(seat=seat, keep_bot=keep_bot):
            return m.LeaveOut(seat=seat, keep_bot=keep_bot)
        case ev.Auto(seat=seat, on=on):
            return m.AutoOut(seat=seat, on=on)
        case ev.Act(seat=seat, auto=auto):
            return m.ActOut(seat=seat, action=text(), auto=auto)
        case ev.Chat() | ev.React():
            return _chat_json(event, muted)
        case ev.Again(table=table):
            return m.AgainOut(table=table)
        case ev.Start():
            return m.StartOut()
        case ev.Next():
            return m.NextOut()
        case ev.Ready(seat=seat):
            return m.ReadyOut(seat=seat)
        case ev.Expire():
            return m.ExpireOut()
        case ev.Rest():
            return m.RestOut()
        case ev.Wake():
            return m.WakeOut()
        case _:  # pragma: no cover - mypy proves every kind is handled
            assert_never(event)


def _chat_json(
    event: ev.Chat | ev.React, muted: set[int], version: int | m.UnsetType = m.UNSET
) -> m.ChatOut | m.ReactOut:
    """A chat line or reaction (``version``: as a line of a snapshot's history);
    from a seat this viewer muted only that it was muted."""
    if isinstance(event, ev.React):
        return m.ReactOut(seat=event.seat, emoji=event.emoji, version=version)
    seat = event.seat
    if seat is not None and seat in muted:
        return m.ChatOut(seat=seat, muted=True, version=version)
    return m.ChatOut(seat=seat, name=event.name, text=event.text, version=version)


def changes_sheet(event: ev.TableEvent, state: TableState) -> bool:
    """Whether the event changes the score sheet or the deal (a full state follows)."""
    match event:
        case ev.Start() | ev.Next() | ev.Ready() | ev.Rest() | ev.Wake():
            return True
        case ev.Act():
            return state.series is not None and state.series.deal.is_terminal()
        case _:
            return False


# ------------------------------------------------------------------ snapshots
def seats_json(state: TableState, connected: set[int]) -> list[m.SeatOut]:
    return [
        m.SeatOut(
            name=s.name,
            bot=s.bot,
            level=level_of(s.bot),
            auto=s.auto,
            human=s.human,
            connected=i in connected or s.bot is not None,
            pending=s.pending[0] if s.pending is not None else None,  # takes over next deal
        )
        for i, s in enumerate(state.seats)
    ]


def sheet_json(state: TableState) -> m.SheetOut:
    series = state.series
    assert series is not None
    rows = [_row_json(series, r) for r in series.rows]
    return m.SheetOut(
        rows=[row for row, _ in rows],
        totals=[dict(t.__dict__) for t in series.totals()],
        auto_moves={str(k): v for k, v in state.auto_moves.items()},
        # R8.2: what each other player gets for a declarer's lost game (40, or 30 at four)
        others_bonus=seeger_fabian_others(False, state.options.players),
        names_from={str(k): list(v) for k, v in state.names_from().items()},
        results=[result for _, result in rows],
    )


#: A settled deal's sheet row and its result on the wire by the row's id:
#: a row never changes once written, and the sheet goes out whole at every
#: deal's start and end, so each row is made once, not once per deal of
#: the list (an entry pins its row, so the id stays its own). Bounded.
_ROWS: dict[int, tuple[SheetRow, dict[str, Any], m.SheetResultOut]] = {}


def _row_json(series: Series, row: SheetRow) -> tuple[dict[str, Any], m.SheetResultOut]:
    hit = _ROWS.get(id(row))
    if hit is None or hit[0] is not row:
        if len(_ROWS) >= 20_000:
            _ROWS.clear()
        hit = _ROWS[id(row)] = (row, row.to_dict(), _sheet_result(series, row.number))
    return hit[1], hit[2]


def _sheet_result(series: Series, number: int) -> m.SheetResultOut:
    """What the result of settled deal ``number`` shows beyond its sheet row
    (the page reopens it from the sheet): all of it public once it is over."""
    deal = series.deals[number - 1]
    r = deal.result
    assert r is not None
    val = r.valuation
    return m.SheetResultOut(
        number=number,
        parts=list(val.parts) if val else None,
        factor=r.factor,
        schneider=bool(val and val.schneider),
        schwarz=bool(val and val.schwarz),
        ramsch=_ramsch_out(r, [deal.seat_of(p) for p in range(3)]),
    )


#: The page keeps the last 80 lines of its log; a deal takes a line per
#: move and per trick, and two more (its number and its result).
PAST_LINES = 80


def past_json(series: Series) -> list[m.PastDealOut]:
    """The deals before the one in play, as many of the latest as fill the
    page's log: their moves, tricks and results, which every viewer may
    see once a deal is over (R3.7), so that a page opened (or reloaded)
    now shows the log of a page that stayed open."""
    out: list[m.PastDealOut] = []
    lines = 0
    for number in range(series.number - 1, 0, -1):
        if lines >= PAST_LINES:
            break
        v = series.deals[number - 1].view(None)
        result = v.result
        if result is None:  # pragma: no cover - an earlier deal is always over
            continue
        c = v.contract
        out.append(
            m.PastDealOut(
                number=number,
                declarer=v.declarer_seat,
                contract=None if c is None else contract_json(c),
                ramsch_round=series.deals[number - 1].forced_ramsch,
                history=list(v.history),
                tricks=[trick_json(t, v.seats) for t in v.tricks],
                result=result_json(result, v),
            )
        )
        lines += len(v.history) + len(v.tricks) + 2
    out.reverse()
    return out


def snapshot(
    state: TableState,
    viewer: Viewer,
    connected: set[int],
    muted: set[int] | None = None,
    view: View | None = None,
    shared: Shared | None = None,
    past: bool = False,
) -> m.State:
    """The whole table as ``viewer`` may see it (``shared``: see `Shared`;
    ``past``: with the earlier deals for the log, for a connection that
    has just come)."""
    series = state.series
    muted = muted or set()
    if shared is None:
        shared = Shared()
    out = m.State(
        version=state.version,
        table=shared.get("table", state, lambda: _table_json(state)),
        you=viewer,
        seats=shared.get("seats", state.seats, lambda: seats_json(state, connected)),
        chat=[_chat_json(e, muted, version) for version, e in state.chat],
    )
    if series is None:
        return out
    return msgspec.structs.replace(
        out,
        deal=shared.get("deal", series, lambda: _deal_json(state, series)),
        view=shared.view_out(series, viewer) if view is None else view_json(view, shared),
        sheet=shared.get("sheet", series, lambda: sheet_json(state)),
        list_over=series.is_over(),
        past=past_json(series) if past and series.number > 1 else m.UNSET,
    )


def _table_json(state: TableState) -> m.TableOut:
    series = state.series
    return m.TableOut(
        id=state.id,
        status=state.status,
        options=_options_json(state.options),
        settings={**state.settings.to_dict(), "level": level_of(state.settings.bot)},
        commitment=series.commitment if series else _commit(state.seed),
        seed=state.seed.hex() if state.status == "finished" else None,
        next_table=state.next_table,
        resting=state.resting,
    )


#: A table's list options on the wire by the options' id (they never change
#: once a table is made; `state`s carry them at every deal's start and end).
_OPTIONS: dict[int, tuple[ListOptions, dict[str, Any]]] = {}


def _options_json(options: ListOptions) -> dict[str, Any]:
    hit = _OPTIONS.get(id(options))
    if hit is None or hit[0] is not options:
        if len(_OPTIONS) >= 20_000:
            _OPTIONS.clear()
        hit = _OPTIONS[id(options)] = (options, options.to_dict())
    return hit[1]


def _deal_json(state: TableState, series: Series) -> m.DealOut:
    deal = series.deal
    return m.DealOut(
        number=series.number,
        of=series.options.deals_per_list,
        dealer=deal.dealer,
        bock_factor=deal.bock_factor,
        ramsch_round=deal.forced_ramsch,
        pending_bock=list(series.pending_bock),
        auto_moves=state.auto_moves.get(series.number, []),
        # after the deal: who still reads the result (the next deal waits for them)
        waiting_for=state.waiting_for() if deal.is_terminal() else [],
        next_in=_next_in(state) if deal.is_terminal() else None,
    )


def _next_in(state: TableState) -> float | None:
    due = state.next_due
    return None if due is None else round(max(0.0, due - time.time()), 1)


def view_changes(
    old: m.ViewOut, new: m.ViewOut
) -> tuple[dict[str, Any], dict[str, tuple[Any, ...]]]:
    """What turns view ``old`` into ``new`` (docs/protocol.md, "Changes"): the
    keys whose value changed, with the new value, and for the lists that
    grow (`messages.GROWING`) their new items (else, when the list did not
    grow from the one held, it is among the changes, whole)."""
    changes: dict[str, Any] = {}
    added: dict[str, tuple[Any, ...]] = {}
    for name, a, b in zip(_VIEW_FIELDS, astuple(old), astuple(new), strict=True):
        if name in _GROWING:
            # within a deal they only grow (a new deal comes as a whole
            # state), so the length and the last item held tell: no copy,
            # no comparison of the whole list every event
            held = len(a)
            if len(b) >= held and (held == 0 or b[held - 1] == a[-1]):
                if len(b) > held:
                    added[name] = b[held:]
                continue
            changes[name] = b
        elif a is not b and a != b:
            changes[name] = b
    return changes, added


_VIEW_FIELDS: tuple[str, ...] = m.ViewOut.__struct_fields__
_GROWING = frozenset(m.GROWING)


def event_message(
    state: TableState,
    version: int,
    event: ev.TableEvent,
    viewer: Viewer,
    muted: set[int],
    connected: set[int],
    shared: Shared | None = None,
    base: m.ViewOut | None = None,
) -> m.Event:
    """The live message for one event just applied: the event as ``viewer``
    may see it, with the new view (or the whole state when the sheet changed).
    ``shared``: one `Shared` for all the viewers of this event. ``base``:
    ``viewer``'s view at the version before, which the connection holds: the
    message carries only what changed since (the view's `changes` and
    `added` items), not the whole view."""
    if shared is None:
        shared = Shared()
    series = state.series

    def text() -> str:
        assert series is not None
        return shared.view_out(series, viewer).history[-1][1]  # the move just applied

    out = event_json(event, viewer, muted, text)
    if changes_sheet(event, state):
        return m.Event(
            version=version,
            event=out,
            state=snapshot(state, viewer, connected, muted, None, shared),
        )
    if series is None:
        return m.Event(version=version, event=out)
    now = shared.view_out(series, viewer)
    seats = (
        shared.get("seats", state.seats, lambda: seats_json(state, connected))
        if isinstance(event, ev.SEAT_EVENTS)
        else None
    )
    if base is None:
        return m.Event(version=version, event=out, view=now, seats=seats)
    changes, added = view_changes(base, now)
    return m.Event(
        version=version,
        event=out,
        changes=changes or m.UNSET,
        added=added or m.UNSET,
        seats=m.UNSET if seats is None else seats,
    )


def _commit(seed: bytes) -> str:
    import hashlib

    return hashlib.sha256(seed).hexdigest()


# ------------------------------------------------------------------ downloads
def _settled(series: Series) -> list[int]:
    """Numbers of the deals whose every card may be published (settled ones)."""
    return [i for i, d in enumerate(series.deals, 1) if d.is_terminal()]


def list_download(state: TableState) -> dict[str, Any]:
    """The list record: the deal in play is left out (its deck holds hidden cards, R3.7)."""
    assert state.series is not None
    record = list_record(state.series, id=state.id)
    keep = set(_settled(state.series))
    record["deals"] = [d for i, d in enumerate(record["deals"], 1) if i in keep]
    # "players" are the names the list began with; who played from which deal on
    record["players_from"] = {str(k): list(v) for k, v in state.names_from().items()}
    # which moves a computer made for an absent person (issue 49, item 1):
    # deal number (as text) -> indices into that deal's `actions`
    record["computer_moves"] = {
        str(k): list(v) for k, v in sorted(state.auto_acts.items()) if k in keep
    }
    return record


def iss_download(state: TableState, dealt_at: Sequence[float] = ()) -> tuple[str, str | None]:
    """Settled deals as ISS records with the players' names and, where
    ``dealt_at`` gives deal ``i``'s start (``dealt_at[i - 1]``, seconds since
    the epoch), its ``DT`` in ISS's form; and why there are none when no
    settled deal fits the format (four players, house rules, Bock) or none
    is settled yet."""
    assert state.series is not None
    lines = []
    why: str | None = None
    settled = _settled(state.series)
    for i in settled:
        deal = state.series.deals[i - 1]
        names = state.deal_names.get(i) or tuple(state.series.names)
        header = {f"P{p}": _iss_name(names[deal.seat_of(p)]) for p in range(3)}
        # moves a computer made for an absent person (issue 49, item 1): ISS
        # has no mark for a move, so the record's comment names the positions
        seats = set(state.auto_moves.get(i, []))
        away = [p for p in range(3) if deal.seat_of(p) in seats]
        if away:
            header["CO"] = "computer moves for " + " ".join(f"P{p}" for p in away)
        if i <= len(dealt_at):
            header["DT"] = time.strftime("%Y-%m-%d/%H:%M:%S/UTC", time.gmtime(dealt_at[i - 1]))
        try:
            lines.append(to_iss(GameRecord.from_deal(deal, id=f"{state.id}-{i}"), header))
        except ValueError as exc:
            why = why or str(exc)
            continue
    if not lines:
        return "", why or "no deal of this list is finished yet"
    return "\n".join(lines) + "\n", None


def _iss_name(name: str) -> str:
    """A name as an ISS header value (no brackets or backslashes, no spaces)."""
    clean = "".join(ch for ch in name if ch not in "[]\\").strip()
    return "_".join(clean.split()) or "?"


__all__ = [
    "Shared",
    "act_texts",
    "contract_json",
    "event_json",
    "event_message",
    "iss_download",
    "list_download",
    "past_json",
    "ramsch_json",
    "result_json",
    "seats_json",
    "snapshot",
    "trick_json",
    "view_changes",
    "view_json",
]
