"""Computer players: the protocol and registry, the scripted double, the game
loop, the arena's duplicate scoring, and the bots' honesty and legality.

The leak test is the important one: at random decision points the cards a
seat cannot see (the other hands, and the skat when it may not know it) are
relabelled at random, consistently through the whole deal (the hidden
discards included); the action history is replayed on the new deal, and the
bot, with an identically seeded RNG, must choose exactly as before. A bot
that peeked at anything outside its view (SKAT-RULES.md R3.7) would sooner or
later choose differently.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from skat.engine import (
    Action,
    Deal,
    IllegalActionError,
    Pass,
    Phase,
)
from skat.players import (
    BasePlayer,
    Player,
    PlayerError,
    ScriptedPlayer,
    in_processes,
    make_player,
    play_deal,
    play_list,
    player_info,
    player_names,
    public_players,
    register,
    searches,
)
from skat.players.arena import run_arena
from skat.players.club import CARD_WORLDS, ClubPlayer
from skat.players.search import SearchPlayer
from skat.series import ListOptions, Series, seeger_fabian_formula
from skat.series.shuffle import deal_deck
from tests.helpers.players import LEAK_CONFIGS, may_know, reshuffled

BOTS = ("heuristic", "random")
README_DECK = (
    "CJ SJ HJ DJ CA CT CK CQ C9 C8 SA ST SK SQ S9 S8 "  # the README's deck
    "HA HT HK HQ H9 H8 DA DT DK DQ D9 D8 C7 S7 H7 D7"
)


def _seed(i: int) -> bytes:
    return i.to_bytes(4, "big") * 8


# ------------------------------------------------------------------ protocol
def test_every_registered_player_is_made_by_name_and_plays_legally() -> None:
    names = player_names(lab=True)
    assert {"heuristic", "club", "novice", "search", "random", "search-v1"} <= set(names)
    assert names == sorted(names)
    deal = Deal(deal_deck(_seed(1), 1))
    for name in names:
        p = make_player(name, random.Random(3), lab=True)
        assert isinstance(p, Player)
        assert p.name == name
        view = deal.view(deal.current_seat)
        assert p.choose(view) in view.legal_actions
        p.notify(1, Pass())  # notifications are accepted
    assert make_player("random", lab=True).name == "random"  # a default RNG is injected


def test_unknown_or_duplicate_names_are_refused() -> None:
    with pytest.raises(ValueError, match="no player named 'nobody'"):
        make_player("nobody")
    with pytest.raises(ValueError, match="registered already"):
        register("random")(lambda rng: BasePlayer(rng))
    assert player_names(lab=True).count("random") == 1


def test_the_registry_keeps_the_lab_apart_and_says_what_each_player_costs() -> None:
    """Issue 25, point 1: the product's players are the levels' and
    heuristic; the lab's are found by name but are never public."""
    assert set(player_names()) == {"club", "heuristic", "novice", "search"}
    assert {"random", "heuristic-v1", "search-v1"} <= set(player_names(lab=True))
    assert set(public_players()) == {"club", "heuristic", "novice", "search"}
    for name in player_names(lab=True):
        info = player_info(name, lab=True)
        assert info.cost in ("cheap", "light", "search") and info.summary
        assert info.public == (not info.lab and name in public_players())
    # the server's questions know only the product's players
    assert [n for n in player_names(lab=True) if searches(n)] == ["search"]
    with pytest.raises(ValueError, match="no player named 'random'"):
        make_player("random")  # without lab=True the lab stays unknown
    # club searches 15 ms a card: in the search processes, not a strong table
    assert player_info("club").cost == "light"
    assert in_processes("club") and not searches("club")
    assert not in_processes("heuristic") and in_processes("search")
    assert player_info("search-v1", lab=True).lab and not player_info("search-v1", lab=True).public


def _reference_actions(deal: Deal, rng: random.Random) -> list[tuple[int, Action]]:
    while not deal.is_terminal():
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return list(deal.history)


def test_scripted_players_drive_a_deal_through_play_deal() -> None:
    from skat.engine import parse_cards

    deck = parse_cards(README_DECK)
    reference = Deal(deck)
    history = _reference_actions(reference, random.Random(11))
    assert reference.result is not None
    # each seat gets its own actions as text, in order
    scripts: list[list[Action | str]] = [[], [], []]
    for seat, action in history:
        scripts[seat].append(str(action))
    players = [ScriptedPlayer(s) for s in scripts]
    seen: list[tuple[int, Action]] = []
    deal = Deal(deck)
    result = play_deal(deal, players, on_action=lambda d, s, a: seen.append((s, a)))
    assert deal.history == tuple(history)
    assert result == reference.result
    assert seen == history
    for p in players:
        assert p.script == []  # every scripted action was used
        assert p.seen == history  # every seat is told every action, its own too


def test_scripted_player_errors() -> None:
    deal = Deal(deal_deck(_seed(2), 1))
    before = deal.view(None)
    bad = [ScriptedPlayer(["hold"]), ScriptedPlayer(["hold"]), ScriptedPlayer(["hold"])]
    with pytest.raises(PlayerError, match="chose 'hold'"):
        play_deal(deal, bad)  # middlehand opens the auction: it cannot hold
    assert deal.view(None) == before  # the refused action changed nothing
    with pytest.raises(RuntimeError, match="exhausted"):
        ScriptedPlayer([]).choose(deal.view(1))
    with pytest.raises(PlayerError, match="no player in seat"):
        play_deal(deal, [None, None, None])


# ------------------------------------------------------------------ arena
@pytest.mark.parametrize("name", BOTS)
def test_mirror_match_is_exactly_zero(name: str) -> None:
    report = run_arena(name, name, deals=20, seed=5)
    assert report.deals == 20
    assert report.diffs == [0.0] * 20
    assert report.mean == 0.0


def test_mirror_match_at_four_players_is_exactly_zero() -> None:
    report = run_arena("heuristic", "heuristic", deals=8, options=ListOptions(players=4))
    assert report.diffs == [0.0] * 8


def _stats(report: object) -> list[object]:
    """The report without decision times (the only thing allowed to differ)."""
    sides = [dataclasses.replace(s, times={}) for s in report.sides]  # type: ignore[attr-defined]
    r = report
    return [r.a, r.b, r.deals, r.mean, r.low, r.high, r.diffs, sides]  # type: ignore[attr-defined]


def test_arena_is_deterministic_and_independent_of_jobs() -> None:
    one = run_arena("heuristic", "random", deals=20, seed=9)
    again = run_arena("heuristic", "random", deals=20, seed=9)
    two = run_arena("heuristic", "random", deals=20, seed=9, jobs=2)
    assert _stats(one) == _stats(again)
    assert _stats(two) == _stats(one)
    other = run_arena("heuristic", "random", deals=20, seed=10)
    assert other.diffs != one.diffs


@pytest.mark.arena
def test_heuristic_beats_random_by_a_wide_margin() -> None:
    report = run_arena("heuristic", "random", deals=200, seed=1)
    assert report.low > 20, report.summary()


# ------------------------------------------------------------------ leak test
def _leak_player(name: str, rng: random.Random) -> Player:
    """The player as the leak test runs it: the casual level's card search
    without its time budget, so that the same view always gets the same
    answer (a budget cut by a busy machine is no leak), on at most 4 worlds
    (how many it searches does not change what it may see)."""
    player = make_player(name, rng, lab=True)
    if isinstance(player, ClubPlayer):
        player.cards = SearchPlayer(rng, worlds=min(4, CARD_WORLDS), time_budget=None)
    return player


#: Every public player's view is checked; the searching casual level on
#: fewer deals (each of its card decisions is a search).
LEAK_DEALS = {"heuristic": 90, "random": 90, "novice": 90, "club": 24}


@pytest.mark.parametrize("name", sorted(LEAK_DEALS))
def test_bots_do_not_see_hidden_cards(name: str) -> None:
    rng = random.Random(2024)
    checks = 0
    phases: Counter[Phase] = Counter()
    deals = LEAK_DEALS[name]
    for number in range(1, deals + 1):
        label, rules, extra = LEAK_CONFIGS[number % len(LEAK_CONFIGS)]
        n = rules.players
        deal = Deal(deal_deck(_seed(77), number), rules=rules, dealer=number % n, **extra)  # type: ignore[arg-type]
        players = [_leak_player(name, random.Random(number * 10 + s)) for s in range(n)]
        step = 0
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            step += 1
            if rng.random() < 0.35:
                new = reshuffled(deal, seat, rng)
                if new is not None:
                    new_view = new.view(seat)
                    key = number * 1000 + step
                    a = _leak_player(name, random.Random(key)).choose(view)
                    b = _leak_player(name, random.Random(key)).choose(new_view)
                    assert a == b, (label, number, step, view.phase, a, b)
                    assert new_view == view, (label, number, step)  # the view cannot tell
                    assert view.known_cards().mask & ~may_know(deal, seat) == 0
                    checks += 1
                    phases[view.phase] += 1
            action = players[seat].choose(view)
            deal.apply(action, seat)
            for p in players:
                p.notify(seat, action)
    assert checks > 4 * deals, checks
    for phase in (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE, Phase.PLAY):
        assert phases[phase] > 0, (phase, phases)
    assert phases[Phase.KONTRA] > 0, phases


# ------------------------------------------------------------------ legality
OPTION_SETS: list[dict[str, object]] = [
    {},
    {"all_pass": "ramsch"},
    {"kontra": True},
    {"kontra": True, "kontra_window": "first_lead"},
    {"kontra": True, "kontra_window": "trick_one", "kontra_requires_bid": True},
    {"bock": True, "ramsch_after_bock": True, "all_pass": "ramsch", "kontra": True},
    {"bock": True, "bock_overlap": "stack", "bock_count": "per_trigger", "kontra": True},
    {"enforce_reachable_announcement": True, "scoring": "plain"},
    {"players": 4},
    {"players": 4, "all_pass": "ramsch", "kontra": True, "bock": True, "ramsch_after_bock": True},
    {"players": 4, "kontra": True, "kontra_window": "first_lead", "first_dealer": 2},
    {"all_pass": "ramsch", "schieberamsch": True},
    {"players": 4, "bock": True, "ramsch_after_bock": True, "schieberamsch": True},
]
LINEUPS = (("heuristic",), ("random",), ("heuristic", "random"), ("novice", "heuristic"))


def _players(lineup: Sequence[str], n: int, seed: int) -> list[Player]:
    return [
        make_player(lineup[s % len(lineup)], random.Random(seed * 10 + s), lab=True)
        for s in range(n)
    ]


@pytest.mark.arena
def test_no_illegal_action_in_thousands_of_deals() -> None:
    """Any action the rules refuse would raise PlayerError out of play_list."""
    deals = 0
    seen: Counter[str] = Counter()
    for i, opts in enumerate(OPTION_SETS):
        for j, lineup in enumerate(LINEUPS):
            options = ListOptions.from_dict({**opts, "deals": 75})
            series = Series(options, seed=_seed(1000 + 10 * i + j))
            play_list(series, _players(lineup, options.players, i * 10 + j))
            assert series.is_over() and len(series.rows) == 75
            deals += len(series.deals)
            for deal in series.deals:
                r = deal.result
                assert r is not None
                seen[r.kind] += 1
                seen["kontra"] += r.kontra
                seen["re"] += r.re
                seen["bock"] += r.bock_factor > 1
                seen["forced_ramsch"] += deal.forced_ramsch
                seen["hand"] += bool(r.contract and r.contract.hand and r.kind == "game")
                seen["ouvert"] += bool(r.contract and r.contract.ouvert)
                seen["pushed"] += bool(r.ramsch and r.ramsch.pushes)
                seen["picked_up"] += any(str(a) == "pickup" for _, a in deal.history) and (
                    r.kind == "ramsch"
                )
    assert deals >= 2000
    for what in (
        *("game", "passed", "ramsch", "kontra", "re", "bock", "forced_ramsch", "hand"),
        *("pushed", "picked_up"),
    ):
        assert seen[what] > 0, (what, seen)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("lineup", [*LINEUPS, ("club", "heuristic")])
def test_bots_complete_lists_with_ramsch_kontra_and_bock(
    players: int, lineup: tuple[str, ...]
) -> None:
    options = ListOptions(
        players=players,  # type: ignore[arg-type]
        deals=12,
        all_pass="ramsch",
        kontra=True,
        bock=True,
        ramsch_after_bock=True,
    )
    series = Series(options, seed=_seed(5000 + players))
    play_list(series, _players(lineup, players, players))
    assert series.is_over()
    assert [r.number for r in series.rows] == list(range(1, 13))
    assert [r.dealer for r in series.rows] == [k % players for k in range(12)]
    totals = series.totals()
    for t in totals:
        assert t.seeger_fabian == seeger_fabian_formula(t, players)  # R8.3
    assert sorted(t.place for t in totals)[0] == 1
    with pytest.raises(IllegalActionError):
        series.apply(Pass(), 0)  # LIST_OVER


def test_play_deal_records_timings_per_phase() -> None:
    """Decision times are recorded per phase (their size is not asserted)."""
    from skat.players import Timings

    deal = Deal(deal_deck(_seed(3), 1))
    timings = [Timings() for _ in range(3)]
    play_deal(deal, _players(("heuristic",), 3, 1), timings=timings)
    phases = {p for t in timings for p in t.by_phase}
    assert "bidding" in phases
    assert sum(len(t.all()) for t in timings) == len(deal.history)
