"""The server's hallway (issue 10): typed events, the game clock apart from
chat, one projection module.

Each defect found by hand becomes a test here: a spectator's chat no longer
makes a player's move stale, chat neither freezes computer players nor
postpones the turn timer, and names are stored as typed (escaped only where
the page puts them into HTML). Unit tests drive `TableState` and the
projection without any websocket; a golden transcript of one whole deal
(every message to every viewer) shows any change of the wire in review.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skat.engine import Card, GameType, Phase, View, parse_action
from skat.players import make_player
from skat.series import ListOptions
from skat.server import events as ev
from skat.server import projection
from skat.server.errors import CommandError, ErrorCode
from skat.server.table import Settings, TableState
from tests.helpers.paths import GOLDEN_DIR, ROOT
from tests.helpers.server import join, new_table, public, pump, serve, watch
from tests.helpers.wire import wire

GOLDEN = GOLDEN_DIR / "one_deal.jsonl"


# ------------------------------------------------------------ the four defects
def test_a_spectators_chat_does_not_make_a_players_move_stale(tmp_path: Path) -> None:
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        spectator = watch(client, tid)
        anna = join(client, tid, "Anna")
        anna.send(type="fill", creator=t["creator"])
        pump([anna, spectator], anna.my_turn)
        seen = anna.view_version
        spectator.send(type="chat", text="good luck")
        anna.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat")
        assert anna.version > seen  # the table moved on, the game did not
        assert anna.view is not None
        move = anna.view["legal"][0]
        anna.send(type="act", action=move, version=seen)
        got = anna.wait_for(
            lambda m: (
                m["type"] == "error"
                or (
                    m["type"] == "event" and m["event"]["kind"] == "act" and m["event"]["seat"] == 0
                )
            )
        )
        assert got["type"] == "event", got
        # a move made against an older game state is still refused
        pump([anna, spectator], anna.my_turn)
        anna.send(type="act", action=anna.view["legal"][0], version=seen)
        assert anna.wait_for(lambda m: m["type"] == "error")["code"] == "STALE_VERSION"


@pytest.mark.slow
def test_chat_faster_than_their_delay_does_not_freeze_computer_players(tmp_path: Path) -> None:
    with serve(tmp_path, bot_delay=0.5) as (_, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        spectator = watch(client, tid)
        spectator.send(type="fill", creator=t["creator"])  # three computer players
        spectator.wait_for(lambda m: m["type"] == "event" and m["event"]["kind"] == "start")
        acts_before = len(spectator.events("act"))
        end = time.monotonic() + 3.0
        i = 0
        while time.monotonic() < end:  # a chat every 0.3 s, faster than a bot's 0.5 s
            spectator.send(type="chat", text=f"chat {i}")
            i += 1
            spectator.drain(0.3)
        moved = len(spectator.events("act")) - acts_before
        assert moved >= 2, f"computer players made {moved} moves while the chat went on"


@pytest.mark.slow
def test_chat_does_not_postpone_the_turn_timer(tmp_path: Path) -> None:
    with serve(tmp_path, bot_delay=0.05) as (app, client, _db):
        tables = app.state.tables
        tid, creator = client.portal.call(
            tables.create, ListOptions(players=3, deals=3), Settings(timer=1)
        )
        spectator = watch(client, tid)
        anna = join(client, tid, "Anna")
        anna.plays = False
        anna.send(type="fill", creator=creator)
        pump([anna, spectator], anna.my_turn)
        turn_at = time.monotonic()
        auto = None
        while auto is None and time.monotonic() < turn_at + 4.0:
            spectator.send(type="chat", text="tick")
            spectator.drain(0.25)
            autos = [
                e for e in spectator.events("auto") if e == {"kind": "auto", "seat": 0, "on": True}
            ]
            auto = autos[0] if autos else None
        assert auto is not None, "the 1 s turn timer never fired while a spectator chatted"


@pytest.mark.parametrize("name", ["Tom & Jerry", "<b>\"Ann\"</b> & 'Bo'"])
def test_a_name_round_trips_exactly_into_state_list_and_csv(tmp_path: Path, name: str) -> None:
    rng = random.Random(2)
    with serve(tmp_path) as (_, client, _db):
        t = new_table(client, players=3)
        tid = t["id"]
        anna = join(client, tid, name)
        anna.send(type="fill", creator=t["creator"])
        pump([anna], lambda: anna.list_over, rng, timeout=60)
        assert public(client, tid)["seats"][0]["name"] == name
        assert anna.events("sit")[0]["name"] == name
        record = client.get(f"/api/tables/{tid}/list.json").json()
        assert record["players"][0] == name
        rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{tid}/sheet.csv").text)))
        assert name in rows[0]
        assert "&amp;" not in json.dumps(record) and "&lt;" not in json.dumps(record)


# ------------------------------------------------- the table without a socket
def _table(players: int = 3, deals: int = 3) -> TableState:
    return TableState(
        id="T",
        options=ListOptions(players=players, deals=deals),
        settings=Settings(),
        seed=bytes(range(32)),
        creator_hash="c",
    )


def _apply(st: TableState, events: list[ev.TableEvent]) -> None:
    for e in events:
        st.apply(e)


def test_seat_changes_and_chat_leave_the_game_clock_alone() -> None:
    st = _table()
    _apply(st, st.plan_sit("Anna", None, "h0"))
    _apply(st, st.plan_fill())
    assert st.status == "playing" and st.game_version == st.version
    gv = st.game_version
    _apply(st, st.plan_chat(None, "hello"))
    _apply(st, st.plan_react(0, "👍"))
    assert st.version == gv + 2 and st.game_version == gv
    seat = st.to_move()
    assert seat is not None and st.series is not None
    move = str(st.series.deal.legal_actions()[0])
    # planned against the version before the chat: still fresh
    planned = st.plan_act(seat, parse_action(move), gv)
    assert planned == [ev.Act(seat=seat, action=move, auto=False)]
    _apply(st, planned)
    assert st.game_version == st.version
    with pytest.raises(CommandError) as err:
        st.plan_act(st.to_move() or 0, parse_action("pass"), gv)
    assert err.value.code == ErrorCode.STALE_VERSION


def test_a_claim_and_its_answer_leave_the_turn_clock_alone() -> None:
    """Issue 54, finding 5: the turn timer counts from `turn_version`; a
    declarer's claim (once a deal, R6.6) and a defender's `refuse` move the
    game clock (a move made before them is stale) but not the turn's."""
    st = _table()
    for i in range(3):
        _apply(st, st.plan_sit(f"P{i}", i, f"h{i}"))
    assert st.series is not None
    deal = st.series.deal
    while "claim" not in [str(a) for a in deal.offers(deal.declarer_seat or 0)] or (
        deal.declarer_seat is None
    ):
        seat = deal.current_seat
        assert seat is not None and not deal.is_terminal()
        _apply(st, st.plan_act(seat, parse_action(_fixed_policy(deal.view(seat))), None))
    turn = st.turn_version
    declarer = deal.declarer_seat
    assert declarer is not None
    _apply(st, st.plan_act(declarer, parse_action("claim"), None))
    defender = next(s for s in range(3) if s != declarer)
    _apply(st, st.plan_act(defender, parse_action("refuse"), None))
    assert st.game_version == st.version and st.turn_version == turn
    with pytest.raises(CommandError) as err:  # once a deal
        st.plan_act(declarer, parse_action("claim schneider"), None)
    assert err.value.code == "WRONG_PHASE"
    seat = st.to_move()
    assert seat is not None
    _apply(st, st.plan_act(seat, parse_action(_fixed_policy(deal.view(seat))), None))
    assert st.turn_version == st.version  # a card is a turn


def test_a_person_who_plays_a_card_after_a_claim_says_no_first() -> None:
    """R6.6: a defender who plays on instead of answering refuses the claim;
    the table writes the `refuse` before the card, so the declarer reads the
    answer at once (issue 49, finding 5)."""
    st = _table()
    for i in range(3):
        _apply(st, st.plan_sit(f"P{i}", i, f"h{i}"))
    assert st.series is not None
    deal = st.series.deal
    while deal.declarer_seat is None or "claim" not in [
        str(a) for a in deal.offers(deal.declarer_seat)
    ]:
        seat = deal.current_seat
        assert seat is not None and not deal.is_terminal()
        _apply(st, st.plan_act(seat, parse_action(_fixed_policy(deal.view(seat))), None))
    declarer = deal.declarer_seat
    _apply(st, st.plan_act(declarer, parse_action("claim"), None))
    seat = st.to_move()
    if seat == declarer:  # the declarer leads: his card says nothing
        card = _fixed_policy(deal.view(seat))
        assert st.plan_act(seat, parse_action(card), None) == [
            ev.Act(seat=seat, action=card, auto=False)
        ]
        _apply(st, st.plan_act(seat, parse_action(card), None))
        seat = st.to_move()
    assert seat is not None and seat != declarer
    card = _fixed_policy(deal.view(seat))
    planned = st.plan_act(seat, parse_action(card), None)
    assert planned == [
        ev.Act(seat=seat, action="refuse", auto=False),
        ev.Act(seat=seat, action=card, auto=False),
    ]
    _apply(st, planned)
    assert "refuse" not in [str(a) for s in range(3) for a in deal.offers(s)]


def test_engine_only_moves_are_refused_from_the_wire() -> None:
    st = _table()
    _apply(st, st.plan_sit("Anna", 0, "h0"))
    _apply(st, st.plan_fill())
    seat = st.to_move()
    assert seat is not None
    for text in ("timeout", "leave"):
        with pytest.raises(CommandError) as err:
            st.plan_act(seat, parse_action(text), st.version)
        assert err.value.code == ErrorCode.BAD_MESSAGE
    assert st.series is not None and not st.series.deal.is_terminal()


def test_text_is_cleaned_but_never_escaped() -> None:
    st = _table()
    (sit, *_) = st.plan_sit("  Tom\x00 &\u200b Jerry <3 \n", None, "h")
    assert isinstance(sit, ev.Sit) and sit.name == "Tom & Jerry <3"
    (chat,) = st.plan_chat(None, "a" * 500)
    assert isinstance(chat, ev.Chat) and chat.text == "a" * 200


def test_stored_rows_convert_both_ways_and_old_rows_replay() -> None:
    samples: list[ev.TableEvent] = [
        ev.Sit(seat=0, name="Anna", token_hash="ab"),
        ev.Bot(seat=1, bot="heuristic"),
        ev.Takeover(seat=1, name="Ben", token_hash="cd"),
        ev.Leave(seat=0, keep_bot=True),
        ev.Auto(seat=2, on=True),
        ev.Start(),
        ev.Act(seat=0, action="bid 18", auto=False),
        ev.Next(),
        ev.Ready(seat=2),
        ev.Chat(seat=None, name="spectator", text="hi"),
        ev.React(seat=1, emoji="👍"),
        ev.Again(table="xyz"),
        ev.Expire(),
        ev.Rest(),
        ev.Wake(),
    ]
    assert {type(e) for e in samples} == set(ev.TableEvent.__args__)
    for e in samples:
        kind, payload = ev.to_row(e)
        assert "kind" not in payload
        assert ev.from_row(kind, json.loads(json.dumps(payload))) == e
    # an `act` row written before `auto` was stored
    assert ev.from_row("act", {"seat": 1, "action": "pass"}) == ev.Act(seat=1, action="pass")
    with pytest.raises(ValueError):
        ev.from_row("teleport", {})


def _seated() -> TableState:
    """A table whose three seats are taken (so its first deal is dealt)."""
    st = _table()
    for i in range(3):
        _apply(st, st.plan_sit(f"P{i}", i, f"h{i}"))
    assert st.series is not None
    return st


def test_the_projection_hides_a_discard_exactly_where_the_engine_does() -> None:
    st = _seated()
    assert st.series is not None
    deal = st.series.deal
    discard_seen: dict[int | None, str] = {}
    declarer = None
    while not deal.is_terminal():
        seat = deal.current_seat
        assert seat is not None
        action = _fixed_policy(deal.view(seat))  # bids 18, holds, picks up: a discard comes
        _apply(st, st.plan_act(seat, parse_action(action), None))
        if action.startswith("discard"):
            for viewer in (None, 0, 1, 2):
                msg = projection.event_message(
                    st, st.version, ev.Act(seat=seat, action=action), viewer, set(), set()
                )
                discard_seen[viewer] = wire(msg)["event"]["action"]
            declarer = seat
    assert declarer is not None and len(discard_seen) == 4
    for viewer, text in discard_seen.items():
        assert (text == "discard") is (viewer != declarer), (viewer, text)
    # replayed after the deal is over, the engine's view shows it to everyone
    ref = next(
        (st.series.number, i)
        for i, (_, a) in enumerate(deal.history)
        if str(a).startswith("discard")
    )
    assert projection.act_texts(st.series, None)(ref).startswith("discard ")


def test_the_view_carries_what_front_ends_used_to_guess() -> None:
    st = _seated()
    assert st.series is not None
    deal = st.series.deal
    v = wire(projection.view_json(deal.view(0)))
    # the auction: middlehand bids to forehand
    assert (v["bidder"], v["listener"]) == (deal.seat_of(1), deal.seat_of(0))
    assert v["offers"] == []
    bots = [make_player("heuristic", random.Random(i)) for i in range(3)]
    while not deal.is_terminal():
        seat = deal.current_seat
        assert seat is not None
        view = deal.view(seat)
        if view.phase.value == "play":
            out = wire(projection.view_json(view))
            assert "concede" in out["offers"]
            if out["tricks"]:
                t = out["tricks"][-1]
                assert t["points"] == sum(Card.parse(c).points for c in t["cards"])
            if view.contract is not None and view.contract.game.is_suit:
                hand = [Card.parse(c) for c in out["hand"]]
                trumps = [c for c in hand if c.suit == view.contract.game or c.rank == 4]
                assert hand[: len(trumps)] == trumps  # trumps first, in order
        _apply(st, st.plan_act(seat, bots[seat].choose(view), None))
    result = wire(projection.view_json(deal.view(None)))["result"]
    if result["kind"] == "game" and result["contract"]["game"] != "null":
        parts = dict((k, n) for k, n in result["parts"])
        assert parts["total"] == parts["base"] * max(
            n for k, n in result["parts"] if k not in ("base", "total", "bid", "charged", "value")
        )
    row = wire(projection.sheet_json(st))["rows"][0]
    assert (row["contract"] is None) is (row["kind"] != "game")


@pytest.mark.slow
def test_removing_a_case_from_apply_fails_mypy(tmp_path: Path) -> None:
    source = ROOT / "src" / "skat" / "server" / "table.py"
    text = source.read_text()
    broken = re.sub(
        r"\n            case ev\.Next\(\):\n.*?\n(?=            case )", "\n", text, flags=re.S
    )
    assert broken != text
    shadow = tmp_path / "table.py"
    shadow.write_text(broken)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--shadow-file", str(source), str(shadow), str(source)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode != 0 and "assert_never" in run.stdout + run.stderr, run.stdout


def test_no_event_kind_is_compared_as_a_string_in_the_server() -> None:
    server = ROOT / "src" / "skat" / "server"
    pattern = re.compile(r"\b(kind|k) ==")
    hits = [
        f"{f.name}:{n}"
        for f in sorted(server.glob("*.py"))
        for n, line in enumerate(f.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == []


# ------------------------------------------------------- the golden transcript
CARD_RE = re.compile(r"\b[CSHD][AKQJT987]\b")


def _fixed_policy(view: View) -> str:
    """A fixed way to play (independent of any computer player, so the golden
    transcript changes only with the wire): bid 18 once, hold it, then the
    first legal action."""
    texts = [str(a) for a in view.legal_actions]
    if view.phase is Phase.BIDDING:
        if view.bid == 0 and "bid 18" in texts:
            return "bid 18"
        return "hold" if "hold" in texts else "pass"
    return texts[0]


def _transcript() -> list[tuple[str, int]]:
    """Every message of one whole deal to every viewer (a spectator and three
    seats), made by the projection from a fixed table: fixed seed, names,
    token hashes and computer players; each with the mask of the cards the
    engine's view lets that viewer know at that moment."""
    st = _table(deals=1)
    lines: list[tuple[str, int]] = []
    viewers: list[int | None] = [None, 0, 1, 2]
    bases: dict[int | None, Any] = {}  # each viewer's view as last sent (the actor's)

    def commit(events: list[ev.TableEvent]) -> None:
        for e in events:
            st.apply(e)
            shared = projection.Shared(dict(bases) if isinstance(e, ev.Act) else None)
            for viewer in viewers:
                msg = projection.event_message(
                    st, st.version, e, viewer, set(), {0, 1, 2}, shared, bases.get(viewer)
                )
                line = json.dumps({"to": viewer, **wire(msg)}, sort_keys=True, ensure_ascii=False)
                known = st.series.deal.view(viewer).known_cards().mask if st.series else 0
                lines.append((line, known))
                if st.series is not None:
                    bases[viewer] = shared.view_out(st.series, viewer)

    for i, name in enumerate(("Anna", "Bert", "Cora")):
        commit(st.plan_sit(name, i, f"hash{i}"))
    assert st.series is not None
    deal = st.series.deal
    while not deal.is_terminal():
        seat = deal.current_seat
        assert seat is not None
        commit(st.plan_act(seat, parse_action(_fixed_policy(deal.view(seat))), st.version))
    commit(st.plan_chat(1, "gg & <thanks>"))
    return lines


def test_golden_transcript_of_one_deal() -> None:
    lines = _transcript()
    if os.environ.get("SKAT_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("\n".join(line for line, _ in lines) + "\n", encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    for i, ((got, _), want) in enumerate(zip(lines, expected, strict=False)):
        assert got == want, f"message {i + 1} differs (regenerate with SKAT_UPDATE_GOLDEN=1)"
    assert len(lines) == len(expected)
    assert len(lines) > 4 * 30  # sit x3 and start, the auction, the skat, 30 cards, the chat
    # no message holds a card its viewer may not know (checked with the engine)
    for line, known in lines:
        shown = 0
        for name in CARD_RE.findall(line):
            shown |= 1 << Card.parse(name)
        assert shown & ~known == 0, (json.loads(line)["to"], line[:200])


def test_changes_applied_to_the_view_held_give_the_whole_view_for_every_viewer() -> None:
    """Issue 52, point 3: after each event a connection gets only what changed
    of its view (`changes`, and the `added` items of the lists that grow);
    applied to the view of the version before (`ViewKeeper`, as the page
    does) they give exactly the whole view, for a spectator and every seat,
    through whole random lists of three and four players, Ramsch,
    Schieberamsch, Kontra, Ouvert games and claims; a seat's view, made
    from the public view and the seat's own part, is the engine's view of
    that seat;
    and the changes of a card played are a fraction of the whole view."""
    sizes: list[tuple[int, int]] = []
    lists: list[dict[str, Any]] = [
        {"players": 3},
        {"players": 4, "kontra": True},
        {"players": 3, "all_pass": "ramsch"},
        {"players": 3, "all_pass": "ramsch", "schieberamsch": True},
        {"players": 3, "open": True},  # Ouvert games and claims wherever they may come
        {"players": 4, "open": True},
    ]
    for k, options in enumerate(lists):
        made: list[tuple[int, bool]] = []
        # the sizes of plain games only (open cards are part of every change)
        _play_with_changes(k, options, [] if options.get("open") else sizes, made)
        # every view after a card played came from the one before it
        assert len(made) >= 20
        assert {n for n, _ in made} == {options["players"] + 1}, options
        if options.get("open"):  # open cards (an Ouvert game, a claim refused) were played to
            assert sum(shown for _, shown in made) >= 10, options
    changes = sorted(a for a, _ in sizes)
    wholes = sorted(b for _, b in sizes)
    assert changes[len(changes) // 2] * 4 < wholes[len(wholes) // 2]


def _play_with_changes(
    k: int, options: dict[str, Any], sizes: list[tuple[int, int]], made: list[tuple[int, bool]]
) -> None:
    """A random list whose every event's changes are applied by each viewer's
    `ViewKeeper` and compared with the whole view; ``sizes`` gets (changes,
    whole view) in bytes for every move that did not bring a whole state;
    ``made``, for each card played in the trick play, how many of its
    views were made from the views before it (`projection.Shared`'s prior)
    and whether the declarer's cards lay open. ``options["open"]``: Ouvert
    games declared wherever the auction allows, claims more often."""
    from skat.server.messages import ViewKeeper
    from skat.server.protocol import encode

    rng = random.Random(k)
    options = dict(options)
    open_games = options.pop("open", False)
    st = TableState(
        id=f"T{k}",
        options=ListOptions(deals=options["players"] * (3 if open_games else 1), **options),
        settings=Settings(),
        seed=rng.randbytes(32),
        creator_hash="c",
    )
    seats = list(range(options["players"]))
    viewers: list[int | None] = [None, *seats]
    keepers = {v: ViewKeeper() for v in viewers}
    for v in viewers:  # on connecting: the whole state
        assert keepers[v].note(wire(projection.snapshot(st, v, set())))
    bases: dict[int | None, Any] = {}

    def commit(events: list[ev.TableEvent]) -> None:
        for e in events:
            st.apply(e)
            # as the actor: after a move, the views sent before it are the
            # ground of the new ones (a card played changes a few parts)
            shared = projection.Shared(dict(bases) if isinstance(e, ev.Act) else None)
            for viewer in viewers:
                msg = projection.event_message(
                    st, st.version, e, viewer, set(), set(seats), shared, bases.get(viewer)
                )
                got = wire(msg)
                assert "view" not in got or viewer not in bases  # a change, not the whole
                assert keepers[viewer].note(got)
                if st.series is None:
                    continue
                whole = shared.view_out(st.series, viewer)
                assert keepers[viewer].view == wire(whole), (viewer, e)
                # a seat's view made from the public one is the engine's view of that seat
                own = projection.view_json(st.series.deal.view(viewer))
                assert wire(whole) == wire(own), (viewer, e)
                bases[viewer] = whole
                if isinstance(e, ev.Act) and "state" not in got:
                    sizes.append((len(encode(msg)), len(encode(whole))))
            series = st.series
            if (
                isinstance(e, ev.Act)
                and e.action.startswith("play ")
                and series is not None
                and series.deal.phase is Phase.PLAY
            ):
                # a card played, the trick play goes on: (views made from the
                # views before, the declarer's cards shown)
                made.append((shared.from_prior, series.deal.view(None).open_cards is not None))

    def step(deal: Any) -> None:
        seat = st.to_move()
        assert seat is not None
        if rng.random() < 0.05:
            commit(st.plan_chat(seat, "hi"))
        offers = deal.offers(seat)
        legal = deal.legal_actions()
        ouvert = [a for a in legal if "ouvert" in str(a)] if open_games else []
        if offers and rng.random() < (0.04 if open_games else 0.02):
            commit(st.plan_act(seat, rng.choice(offers), st.version))  # claim, concede, refuse
        else:
            commit(st.plan_act(seat, rng.choice(ouvert or legal), st.version))

    _play_list(st, commit, step)


def _play_list(
    st: TableState, commit: Callable[[list[ev.TableEvent]], None], step: Callable[[Any], None]
) -> None:
    """Seat everyone at ``st``, then play its list: ``step(deal)`` commits
    the next moves of the deal in play, and each finished deal is followed
    by the next."""
    for i in range(st.players):
        commit(st.plan_sit(f"P{i}", i, f"h{i}"))
    while st.series is not None and not st.series.is_over():
        deal = st.series.deal
        if deal.is_terminal():
            commit(st.plan_next())
        else:
            step(deal)


def test_a_cards_views_made_from_the_views_before_equal_the_whole_views() -> None:
    """After a card played in the trick play, each viewer's view is made from
    the view it was sent before (`projection.Shared`'s prior): it equals the
    view made whole and the engine's own view of that seat, field for field,
    for every viewer, through random lists whose moves seek out what a card
    can meet: Ramsch and Schieberamsch (everyone passes), Null and Null
    Ouvert, a claim refused and played on with open cards, Kontra said out
    of turn, four players (the dealer sits out), computer moves, and viewers
    who hold no view of the version before (made whole beside the others)."""
    seen: dict[str, int] = {}
    lists: list[dict[str, Any]] = [
        {"players": 3, "all_pass": "ramsch", "deals": 12},
        {"players": 3, "all_pass": "ramsch", "schieberamsch": True, "deals": 12},
        {"players": 3, "deals": 36},
        {"players": 4, "kontra": True, "deals": 16},
        {"players": 3, "kontra": True, "deals": 18},
    ]
    for k, options in enumerate(lists):
        _cards_from_the_views_before(k, options, seen)
    for case in ("ramsch", "null", "null ouvert", "claimed", "kontra", "four", "mixed"):
        assert seen.get(case, 0) >= 10, (case, seen)


def _cards_from_the_views_before(k: int, options: dict[str, Any], seen: dict[str, int]) -> None:
    rng = random.Random(100 + k)
    st = TableState(
        id=f"P{k}",
        options=ListOptions(**options),
        settings=Settings(),
        seed=rng.randbytes(32),
        creator_hash="c",
    )
    players = options["players"]
    viewers: list[int | None] = [None, *range(players)]
    ramsch = "all_pass" in options
    bases: dict[int | None, Any] = {}

    def commit(events: list[ev.TableEvent]) -> None:
        for e in events:
            st.apply(e)
            series = st.series
            if series is None:
                continue
            held = {v: b for v, b in bases.items() if rng.random() < 0.9}
            shared = projection.Shared(held if isinstance(e, ev.Act) else None)
            for v in rng.sample(viewers, len(viewers)):
                made = shared.view_out(series, v)
                assert made == projection.Shared().view_out(series, v), (e, v)
                assert made == projection.view_json(series.deal.view(v)), (e, v)
                bases[v] = made
            deal = series.deal
            if isinstance(e, ev.Act) and e.action.startswith("play ") and deal.phase is Phase.PLAY:
                assert shared.from_prior == len(held), e  # every view held was the ground
                c = deal.contract
                texts = [t for _, t in projection.view_json(deal.view(None)).history]
                for case, hit in (
                    ("ramsch", c is not None and c.game is GameType.RAMSCH),
                    ("null", c is not None and c.game is GameType.NULL and not c.ouvert),
                    ("null ouvert", c is not None and c.game is GameType.NULL and c.ouvert),
                    ("claimed", any(t.startswith("claim") for t in texts)),
                    ("kontra", "kontra" in texts),
                    ("four", players == 4),
                    ("mixed", 0 < len(held) < len(viewers)),
                ):
                    seen[case] = seen.get(case, 0) + hit

    def step(deal: Any) -> None:
        if rng.random() < 0.1:  # Kontra, or anything else open to a seat not to move
            other = rng.randrange(players)
            if other != deal.current_seat and (moves := deal.legal_actions(other)):
                commit(st.plan_act(other, rng.choice(moves), st.version))
                return
        seat = st.to_move()
        assert seat is not None
        legal = [str(a) for a in deal.legal_actions()]
        offers = [str(a) for a in deal.offers(seat)]
        if deal.phase is Phase.BIDDING and (ramsch or rng.random() < 0.3):
            move = "pass" if "pass" in legal else rng.choice(legal)
        elif nulls := [t for t in legal if "null" in t]:
            move = rng.choice(nulls)
        elif "claim" in offers and rng.random() < 0.15:
            move = "claim"
        else:  # a card: a person who holds a claim open refuses it with it
            move = rng.choice(legal)
        auto = rng.random() < 0.2  # a computer for the person: no refusal written first
        commit(st.plan_act(seat, parse_action(move), st.version, auto=auto))

    _play_list(st, commit, step)


def test_a_new_connection_gets_the_earlier_deals_for_its_log() -> None:
    """Issue 26, item 10: a page opened (or reloaded) later shows the log of
    one that stayed open, so the `state` answering `hello` carries the
    earlier deals (`past`: public once a deal is over, the same for every
    viewer), as many of the latest as fill the page's 80 lines; and every
    sheet row carries what its result shows beyond the row (item 2)."""
    st = _table(deals=6)
    for i in range(3):
        _apply(st, st.plan_sit(f"P{i}", i, f"h{i}"))
    series = st.series
    assert series is not None
    for _ in range(3):
        deal = series.deal
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            _apply(st, st.plan_act(seat, parse_action(_fixed_policy(deal.view(seat))), None))
        _apply(st, st.plan_next())
    assert series.number == 4 and not series.deal.is_terminal()
    seen = []
    for viewer in (None, 0, 1, 2):
        past = wire(projection.snapshot(st, viewer, set(), past=True))["past"]
        assert "past" not in wire(projection.snapshot(st, viewer, set()))  # only on connecting
        numbers = [d["number"] for d in past]
        assert numbers == list(range(numbers[0], 4)), numbers  # the latest, oldest first
        for d in past:
            public = wire(projection.view_json(series.deals[d["number"] - 1].view(None)))
            for key in ("history", "tricks", "result", "contract"):
                assert d[key] == public[key], key
        lines = [len(d["history"]) + len(d["tricks"]) + 2 for d in past]
        assert sum(lines[1:]) < projection.PAST_LINES <= sum(lines) or numbers[0] == 1
        seen.append(past)
    assert all(p == seen[0] for p in seen)  # no viewer sees more of a finished deal
    sheet = wire(projection.sheet_json(st))
    assert [r["number"] for r in sheet["results"]] == [r["number"] for r in sheet["rows"]]
    for extra in sheet["results"]:
        result = wire(projection.view_json(series.deals[extra["number"] - 1].view(None)))["result"]
        for key in ("parts", "factor", "schneider", "schwarz", "ramsch"):
            assert extra[key] == result[key], key
