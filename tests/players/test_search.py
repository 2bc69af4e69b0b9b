"""The ``search`` player (issue 9, point 2) and its worlds (`skat.players.worlds`).

Worlds must fit everything the seat's view shows (SKAT-RULES.md R3.7): its
own cards, the cards played, the voids shown by not following suit (R4.2),
the skat when it knows it, the declarer's open cards, the hand sizes; and
nothing else. The player must never play an illegal action under any option
set, must not see hidden cards (the leak test of tests/players/test_players.py), and
must find the card that is right in every world.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skat.engine import Card, Contract, Deal, GameType, Phase, Play, Rules
from skat.engine.cards import ALL_CARDS, mask_points
from skat.engine.game import EFFECTIVE, SUIT_OF
from skat.players import make_player, play_deal, play_list, player_names
from skat.players import solver as solver_module
from skat.players.search import SearchPlayer
from skat.players.worlds import Inference, Knowledge, Sampler, World, likelihood
from skat.series import ListOptions, Series
from skat.series.shuffle import deal_deck
from tests.helpers.players import LEAK_CONFIGS, may_know, play_until, reshuffled


def _seed(i: int) -> bytes:
    return i.to_bytes(4, "big") * 8


def _cheap(rng: random.Random, *, strict: bool = True) -> SearchPlayer:
    """A search player with few worlds: enough to exercise every path."""
    return SearchPlayer(rng, worlds=3, discard_worlds=2, strict=strict)


def _advance(deal: Deal, steps: int, rng: random.Random) -> None:
    """Play ``steps`` actions with heuristic players (or until the end)."""
    players = [make_player("heuristic", random.Random(rng.random())) for _ in range(deal.players)]
    for _ in range(steps):
        if deal.is_terminal():
            return
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(deal.view(seat)), seat)


def _advance_to_play(deal: Deal, rng: random.Random) -> None:
    """Play heuristic actions until the first card of a declared game is due."""
    players = [make_player("heuristic", random.Random(rng.random())) for _ in range(deal.players)]
    while not deal.is_terminal() and deal.phase is not Phase.PLAY:
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(deal.view(seat)), seat)


def _in_play(seed: int, numbers: range, *, null: bool) -> Iterator[tuple[int, Deal, random.Random]]:
    """The deals of ``_seed(seed)`` that reach trick play among `heuristic`
    players, at their first card, with the RNG that continues them (Ramsch
    left out, and Null too unless ``null``)."""
    for number in numbers:
        deal = Deal(deal_deck(_seed(seed), number))
        rng = random.Random(number)
        _advance_to_play(deal, rng)
        c = deal.contract
        if deal.phase is not Phase.PLAY or c is None or c.game == GameType.RAMSCH:
            continue
        if c.game == GameType.NULL and not null:
            continue
        yield number, deal, rng


def _views_in_play(
    seed: int, numbers: range, steps: int, spread: int, *, null: bool
) -> Iterator[tuple[int, Deal, Any]]:
    """The view of the seat to move in the deals of `_in_play`, after
    ``steps + number % spread`` more `heuristic` actions (finished deals
    left out): (number, deal, view)."""
    for number, deal, rng in _in_play(seed, numbers, null=null):
        _advance(deal, steps + number % spread, rng)
        if deal.is_terminal():
            continue
        seat = deal.current_seat
        assert seat is not None
        yield number, deal, deal.view(seat)


def _voids_from_deal(deal: Deal) -> list[int]:
    """Cards each position cannot hold, worked out from the deal's tricks (R4.2)."""
    voids = [0, 0, 0]
    if deal.contract is None:
        return voids
    g = deal.contract.game
    eff = EFFECTIVE[g]
    tricks = [(t.leader, list(t.cards)) for t in deal.tricks]
    if deal.current_trick:
        first_seat = deal.view(None).trick[0][0]
        lead = deal.position_of(first_seat)
        assert lead is not None
        tricks.append((lead, list(deal.current_trick)))
    for leader, cards in tricks:
        for i, c in enumerate(cards[1:], start=1):
            if eff[c] != eff[cards[0]]:
                voids[(leader + i) % 3] |= SUIT_OF[g][eff[cards[0]]]
    return voids


# ------------------------------------------------------------------ worlds
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(1, 10_000),
    steps=st.integers(0, 40),
    rules=st.sampled_from([Rules(), Rules(players=4, kontra=True), Rules(kontra=True)]),
    seed=st.integers(0, 2**32),
)
@example(number=1, steps=18, rules=Rules(), seed=0)  # the declarer's discard: skat in hand
def test_sampled_worlds_fit_the_view(number: int, steps: int, rules: Rules, seed: int) -> None:
    """Every world keeps the seat's cards and every card it saw, gives each
    seat its hand size, puts no card in a suit a seat showed void in, and the
    true deal is one of the worlds the sampler can draw."""
    deal = Deal(deal_deck(_seed(3), number), rules=rules, dealer=number % rules.players)
    _advance(deal, steps, random.Random(seed))
    if deal.is_terminal() or (deal.contract and deal.contract.game == GameType.RAMSCH):
        return
    seat = deal.current_seat
    assert seat is not None
    view = deal.view(seat)
    know = Knowledge.from_view(view)
    me = know.me
    sampler = Sampler(know)
    true_voids = _voids_from_deal(deal)
    played = 0
    for t in deal.tricks:
        for c in t.cards:
            played |= 1 << c
    for c in deal.current_trick:
        played |= 1 << c
    true_hands = tuple(deal.hand(deal.seat_of(p)).mask for p in range(3))
    # the truth fits the hard facts
    assert all(true_hands[p] & know.voids[p] == 0 for p in range(3))
    assert know.voids == true_voids
    rng = random.Random(seed)
    for world, _ in sampler.weighted(rng, 6):
        h = world.hands
        assert h[me] == true_hands[me] == view.hand.mask
        for p in range(3):
            assert h[p].bit_count() == true_hands[p].bit_count()
            assert h[p] & true_voids[p] == 0, (p, view.phase)
            assert h[p] & played == 0
        assert world.skat.bit_count() == (0 if know.skat_in_hand else 2)
        assert h[0] | h[1] | h[2] | world.skat | played == ALL_CARDS
        assert (h[0] & h[1]) | (h[0] & h[2]) | (h[1] & h[2]) | (
            world.skat & (h[0] | h[1] | h[2])
        ) == 0
        if know.skat is not None:
            assert world.skat == know.skat  # the declarer knows his skat
        if view.open_cards is not None and know.declarer >= 0:
            assert h[know.declarer] == view.open_cards.mask
        assert likelihood(know, world) > 0


def _brute_force_worlds(know: Knowledge) -> set[World]:
    """Every consistent world, by enumeration (small cases only)."""
    holders = [p for p in range(3) if p != know.me]
    needs = know.needs()
    unknown = [c for c in range(32) if know.unknown >> c & 1]
    skat_need = know.skat_need
    out: set[World] = set()
    for a in itertools.combinations(unknown, needs[holders[0]]):
        rest = [c for c in unknown if c not in a]
        for b in itertools.combinations(rest, needs[holders[1]]):
            s = [c for c in rest if c not in b]
            if len(s) != skat_need:
                continue
            hands = list(know.known)
            hands[holders[0]] |= sum(1 << c for c in a)
            hands[holders[1]] |= sum(1 << c for c in b)
            if any(hands[p] & know.voids[p] for p in range(3)):
                continue
            skat = (know.skat or 0) | sum(1 << c for c in s)
            out.add(World((hands[0], hands[1], hands[2]), skat))
    return out


def test_sampler_counts_and_draws_uniformly_late_in_a_deal() -> None:
    """Late in a deal the worlds can be listed: the sampler's count matches
    the enumeration, and its draws cover them evenly."""
    checked = 0
    for number in range(1, 60):
        deal = Deal(deal_deck(_seed(8), number))
        _advance(deal, 40, random.Random(number))
        if deal.is_terminal() or deal.phase is not Phase.PLAY or len(deal.tricks) < 6:
            continue
        if deal.contract is None or deal.contract.game == GameType.RAMSCH:
            continue
        seat = deal.current_seat
        assert seat is not None
        know = Knowledge.from_view(deal.view(seat))
        sampler = Sampler(know)
        every = _brute_force_worlds(know)
        assert sampler.ways(0, tuple(sampler.need)) == len(every)
        if 2 <= len(every) <= 20:
            rng = random.Random(number)
            draws = Counter(sampler.sample(rng) for _ in range(300 * len(every)))
            assert set(draws) == every
            assert min(draws.values()) > 200  # expected 300 each
            checked += 1
    assert checked >= 3


def test_inference_prefers_hands_that_fit_the_auction() -> None:
    """A seat that bid high is given strong hands more often than a uniform draw would."""
    from skat.players.worlds import bid_limit

    high = 0
    for number in range(1, 200):
        deal = Deal(deal_deck(_seed(9), number))
        _advance_to_play(deal, random.Random(number))
        if deal.phase is not Phase.PLAY or deal.contract is None:
            continue
        if deal.contract.game == GameType.RAMSCH or deal.tricks or deal.current_trick:
            continue
        if deal.bid < 24 or deal.declarer is None:
            continue
        d = deal.declarer
        defender = next(p for p in range(3) if p != d)
        know = Knowledge.from_view(deal.view(deal.seat_of(defender)))
        sampler = Sampler(know)
        rng = random.Random(number)
        uniform = [sampler.sample(rng) for _ in range(60)]
        weighted = [w for w, m in sampler.weighted(rng, 60, 180) for _ in range(m)]

        def strong(ws: list[World], d: int, bid: int) -> float:
            return sum(bid_limit(w.hands[d]) >= bid for w in ws) / len(ws)

        high += strong(weighted, d, deal.bid) >= strong(uniform, d, deal.bid)
        if high >= 5:
            break
    assert high >= 5


# ------------------------------------------------------------------ the player
def test_search_is_registered_beside_heuristic() -> None:
    assert {"search", "heuristic"} <= set(player_names())
    p = make_player("search", random.Random(1))
    assert isinstance(p, SearchPlayer) and p.name == "search"
    assert p.time_budget is None  # reproducible by default (the arena's choice)


@pytest.mark.arena
def test_search_does_not_see_hidden_cards() -> None:
    """The leak test of tests/players/test_players.py, for `search` (few worlds)."""
    rng = random.Random(99)
    checks = 0
    phases: Counter[Phase] = Counter()
    for number in range(1, 19):
        label, rules, extra = LEAK_CONFIGS[number % len(LEAK_CONFIGS)]
        n = rules.players
        deal = Deal(deal_deck(_seed(78), number), rules=rules, dealer=number % n, **extra)  # type: ignore[arg-type]
        players = [make_player("heuristic", random.Random(number * 10 + s)) for s in range(n)]
        step = 0
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            step += 1
            if len(view.legal_actions) > 1 and rng.random() < 0.5:
                new = reshuffled(deal, seat, rng)
                if new is not None:
                    key = number * 1000 + step
                    a = _cheap(random.Random(key)).choose(view)
                    b = _cheap(random.Random(key)).choose(new.view(seat))
                    assert a == b, (label, number, step, view.phase, a, b)
                    assert view.known_cards().mask & ~may_know(deal, seat) == 0
                    checks += 1
                    phases[view.phase] += 1
            action = players[seat].choose(view)
            deal.apply(action, seat)
    assert checks > 60, checks
    assert phases[Phase.PLAY] > 0 and phases[Phase.BIDDING] > 0, phases


OPTION_SETS: list[dict[str, object]] = [
    {},
    {"all_pass": "ramsch"},
    {"kontra": True, "bock": True},
    {"kontra": True, "kontra_window": "first_lead"},
    {"kontra": True, "kontra_window": "trick_one", "kontra_requires_bid": True},
    {"enforce_reachable_announcement": True},
    {"players": 4, "all_pass": "ramsch", "kontra": True, "bock": True, "ramsch_after_bock": True},
    {"players": 4, "kontra": True, "kontra_window": "first_lead"},
    {"all_pass": "ramsch", "schieberamsch": True},
]


@pytest.mark.arena
@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(map(str, o)) or "isko")
def test_search_never_plays_an_illegal_action(opts: dict[str, object]) -> None:
    """Lists under every option set with `search` in every seat but one;
    ``strict`` lets any internal error out instead of hiding it behind the
    fallback, and any refused action raises PlayerError."""
    options = ListOptions.from_dict({**opts, "deals": 4})
    series = Series(options, seed=_seed(4000 + len(str(opts))))
    n = options.players
    players = [
        _cheap(random.Random(s)) if s else make_player("heuristic", random.Random(s))
        for s in range(n)
    ]
    play_list(series, players)
    assert series.is_over()


@pytest.mark.arena
def test_a_full_list_of_search_players_completes() -> None:
    options = ListOptions(deals=3, kontra=True, bock=True, all_pass="ramsch")
    series = Series(options, seed=_seed(4242))
    play_list(series, [_cheap(random.Random(s)) for s in range(3)])
    assert series.is_over() and len(series.rows) == 3


def test_the_evaluator_auction_bids_and_picks_up_without_a_solve() -> None:
    """Every bid, hold and pass
    is the one `handeval.bid_limit` allows, lowered by what the other seats
    bid (`handeval.CONTEST`, the default), and Hand or pickup is
    `handeval.hand_game`'s, with no auction simulated; the discard and the
    game are still solved, and whole deals finish strictly."""
    from skat.engine import Announce, Bid, Hold, Pass, Pickup
    from skat.players.handeval import CONTEST, HAND_MARGIN, bid_limit, default, hand_game
    from skat.players.worlds import Knowledge

    checked = {"bid": 0, "skat": 0}
    for number in range(1, 9):
        deal = Deal(deal_deck(_seed(31), number))
        players = [
            SearchPlayer(random.Random(s), worlds=3, discard_worlds=2, strict=True)
            for s in range(3)
        ]
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            action = players[seat].choose(view)
            if view.phase is Phase.BIDDING and len(view.legal_actions) > 1:
                shown = Knowledge.from_view(view).shown_by_others
                limit = bid_limit(
                    default(), view.hand.mask, view.position or 0, shown=shown, shifts=CONTEST
                )
                if isinstance(action, Bid):
                    assert action.value <= limit
                elif isinstance(action, Hold):
                    assert view.bid <= limit
                else:
                    assert isinstance(action, Pass)
                    offered = [a for a in view.legal_actions if isinstance(a, (Bid, Hold))]
                    assert all(
                        (a.value if isinstance(a, Bid) else view.bid) > limit for a in offered
                    )
                checked["bid"] += 1
            if view.phase is Phase.SKAT:
                game = hand_game(
                    default(), view.hand.mask, view.position or 0, view.bid, HAND_MARGIN
                )
                if game is None:
                    assert isinstance(action, Pickup)
                else:
                    assert action == Announce(game) or isinstance(action, Pickup)
                checked["skat"] += 1
            deal.apply(action, seat)
    assert checked["bid"] >= 8 and checked["skat"] >= 4


class _FakeTime:
    """A clock that only moves when a fake solve says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def test_the_points_tie_break_stops_inside_a_solve_once_the_time_is_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An exact solve from the first trick can take seconds, so each one gets
    only the time left: the decision gives up the tie-break (every tied card
    stays) when the time is up, not after a whole world nor a whole solve."""
    from skat.players.search import cards, decision

    fake = _FakeTime()
    monkeypatch.setattr(decision, "time", fake)
    calls: list[int] = []

    deadline = 1.5

    class SlowSolver:
        """Each exact solve takes a second; the solver stops one at the deadline."""

        @staticmethod
        def best_points(pos: object, near: int | None = None) -> int:
            calls.append(1)
            if fake.now + 1.0 > deadline:
                fake.now = deadline
                raise solver_module.Stopped
            fake.now += 1.0
            return 60

    tied = [1, 2, 3, 4]
    done = [(1, 0, {c: (True, None) for c in tied}) for _ in range(3)]
    clock = decision.Clock(deadline)
    got = cards.by_points(tied, done, True, SlowSolver, clock)  # type: ignore[arg-type]
    assert got == tied
    assert len(calls) == 2  # before: the whole first world, 4 solves, then a check
    assert fake.now == 1.5  # the second solve stopped when the time was up, not a second later
    # with time enough every card of every world is solved
    calls.clear()
    fake.now, deadline = 0.0, 100.0
    assert cards.by_points(tied, done, True, SlowSolver, decision.Clock(None)) == tied  # type: ignore[arg-type]
    assert len(calls) == 12


def test_tiebreak_worlds_limits_the_points_tie_break_to_the_first_worlds() -> None:
    """``tiebreak_worlds`` (4 by default; the tie-break's exact solves are
    the largest share of the strong player's CPU): only the first worlds
    are solved, and their points decide."""
    from skat.players.search import cards, decision

    solved: list[tuple[int, int]] = []

    class Recorder:
        @staticmethod
        def best_points(pos: tuple[int, int], near: int | None = None) -> int:
            solved.append(pos)
            world, card = pos
            return 70 + card if world < 2 else 100 - 10 * card  # later worlds favour card 1

    tied = [1, 2, 3]
    done = [(1, 0, {c: (True, (w, c)) for c in tied}) for w in range(5)]
    clock = decision.Clock(None)
    n = SearchPlayer(random.Random(1), tiebreak_worlds=2).settings.tiebreak_worlds
    assert cards.by_points(tied, done[:n], True, Recorder, clock) == [3]  # type: ignore[arg-type]
    assert sorted({w for w, _ in solved}) == [0, 1] and len(solved) == 6
    solved.clear()
    n = SearchPlayer(random.Random(1), tiebreak_worlds=None).settings.tiebreak_worlds
    assert cards.by_points(tied, done[:n], True, Recorder, clock) == [1]  # type: ignore[arg-type]
    assert len(solved) == 15


def _grand_endgame() -> tuple[Any, dict[int, tuple[bool, Any]]]:
    """Grand, three cards each, the declarer (forehand) to lead with 50 card
    points taken and 27 still out: HQ SQ DK against ST S7 H8 (middlehand)
    and SK C9 DQ (rearhand). With all cards open he is held to 60 whatever
    he leads, and per card: (does he make 61, the position after it)."""
    from skat.players.solver import Position

    def mask(*names: str) -> int:
        return sum(1 << int(Card.parse(n)) for n in names)

    hands = (mask("HQ", "SQ", "DK"), mask("ST", "S7", "H8"), mask("SK", "C9", "DQ"))
    pos = Position(GameType.GRAND, hands, 0, 0, (), 50)
    per = {}
    for card in pos.legal_cards():
        after = pos.play(card)
        per[card] = (solver_module.reaches(after, 61), after)
    return pos, per


def test_a_lost_game_is_played_for_the_defenders_mistakes() -> None:
    """Issue 53, point 3: every card loses against an open-card defence,
    but after DK middlehand, who has no diamond, may smear ST on the
    declarer's trick (one reply of three that gives him 67), while after
    HQ or SQ no reply helps him. ``by_traps`` keeps DK; as a defender
    the same position counts the declarer's replies, of which there are
    none next (middlehand, a defender, plays after HQ, SQ and DK)."""
    from skat.players.search import cards, decision

    _, per = _grand_endgame()
    assert not any(made for made, _ in per.values())
    tied = sorted(per)
    dk = int(Card.parse("DK"))
    done = [(1, 0, per)]
    clock = decision.Clock(None)

    def makes(pos: Any) -> bool:
        return bool(solver_module.reaches(pos, 61))

    first_of = {c: c for c in tied}
    assert cards.by_traps(tied, done, makes, True, clock, first_of) == [dk]
    # the ties stay ties where no world gives a way to go wrong
    others = [c for c in tied if c != dk]
    assert cards.by_traps(others, done, makes, True, clock, first_of) == others
    assert cards.by_traps(tied, done, makes, False, clock, first_of) == tied
    # a world where the card already wins counts whole, and a stopped clock keeps all
    won = {c: (c == others[0], after) for c, (_, after) in per.items()}
    assert cards.by_traps(tied, [(1, 0, won)], makes, True, clock, first_of) == [others[0]]
    assert cards.by_traps(tied, done, makes, True, decision.Clock(0.0), first_of) == tied


def test_traps_are_weighed_only_where_the_game_looks_decided() -> None:
    """``decided``: the contract's fate is the same after every card in all
    but ``SearchSettings.decided`` of the worlds (10% by default)."""
    from skat.players.search import cards

    assert cards.decided({1: 0, 2: 2}, 20, True, 0.1)
    assert not cards.decided({1: 0, 2: 3}, 20, True, 0.1)
    assert cards.decided({1: 18, 2: 20}, 20, False, 0.1)
    assert not cards.decided({1: 17, 2: 20}, 20, False, 0.1)
    assert SearchPlayer(random.Random(1)).settings.traps == 0  # a lab setting until measured


def _first_views(phase: Phase, seed: int, count: int) -> Iterator[Any]:
    """The first views in ``phase`` of deals bid by `heuristic`: DISCARD, a
    declarer about to put two cards away (R3.2); PLAY, the first card of a
    suit or Grand game."""
    found = 0
    for number in itertools.count(1):
        deal = Deal(deal_deck(_seed(seed), number))
        players = [make_player("heuristic", random.Random(s)) for s in range(3)]
        while not deal.is_terminal() and deal.phase not in (phase, Phase.PLAY):
            seat = deal.current_seat
            assert seat is not None
            deal.apply(players[seat].choose(deal.view(seat)), seat)
        c = deal.contract
        if deal.is_terminal() or deal.phase is not phase:
            continue
        if phase is Phase.PLAY and (c is None or c.game in (GameType.NULL, GameType.RAMSCH)):
            continue
        seat = deal.current_seat
        assert seat is not None
        yield deal.view(seat)
        found += 1
        if found == count:
            return


def test_the_discard_stops_inside_a_world_once_the_time_is_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the server's budget the discard reads the clock before every
    solve, not once a world (up to six games and discards, and after the
    probe worlds the new candidates' catch-up: seconds). A world it cannot
    finish is dropped for every candidate, and a legal discard comes out."""
    from skat.engine import Discard
    from skat.players.search import contract, decision

    fake = _FakeTime()
    monkeypatch.setattr(decision, "time", fake)
    solves = [0]
    real = contract.start_steps

    def slow(*args: Any) -> Iterator[list[tuple[float, float]]]:
        fake.now += 0.1  # each solve a tenth of a second (of the fake clock)
        solves[0] += 1
        with solver_module.limit(None):  # the real solve: not under the real clock
            yield from real(*args)

    monkeypatch.setattr(contract, "start_steps", slow)
    for view in _first_views(Phase.DISCARD, 43, 4):
        for budget in (0.35, 1.0, 2.0):
            p = SearchPlayer(random.Random(1), time_budget=budget, strict=True)
            solves[0] = 0
            fake.now = 0.0
            action = p.choose(view)
            assert isinstance(action, Discard) and action in view.legal_actions
            assert p.fallbacks == 0
            # at most one solve past the budget (0.1), the first world is always finished
            assert fake.now <= budget + 0.1 + 1e-9 or solves[0] <= 6, (budget, fake.now)


def _discard_solving_everything(d: Any, evaluator: Any, inference: Any) -> tuple[Any, Any]:
    """The discard as it was chosen before candidates were dropped (issue 52,
    point 2): successive halving after the probe, every candidate left
    solved in every world, the best score (first of equals) chosen."""
    from skat.players.search import contract

    hand12 = d.view.hand.mask
    candidates = contract.discard_candidates(contract.discard_games(d.view, hand12), hand12)
    table = contract.DiscardSolves(d, evaluator, inference, candidates, hand12)
    firsts = {c: contract.best_discards(hand12, c.game, 1)[0] for c, _ in candidates}
    alive = [k for k in candidates if k[1] == firsts[k[0]]]
    for i in range(len(table.worlds)):
        if i == contract.PROBE:
            ranked = sorted(alive, key=lambda k: -table.score(k)[0])
            top = table.score(ranked[0])[0]
            going = {k[0] for k in ranked[:2] if table.score(k)[0] >= top - contract.DISCARD_SPREAD}
            alive = [k for k in candidates if k[0] in going]
        for k in alive:
            table.advance(k, i + 1, False)
    chosen = max(alive, key=lambda k: table.score(k)[0])
    return chosen[1], table.score(chosen)[1]


def test_dropping_discards_that_cannot_win_keeps_the_choice() -> None:
    """The discard stops solving a candidate once even its best outcome in
    every world left cannot beat another's worst (issue 52, point 2): on
    many hands it chooses the same discard and game as solving every
    candidate in every world, with fewer solver questions."""
    import random as random_module

    from skat.players.handeval import default as default_evaluator
    from skat.players.search import contract
    from skat.players.search.decision import Clock, Decision
    from skat.players.search.settings import SearchSettings
    from skat.players.worlds import Inference

    asked = [0]

    class Counting:
        Position = solver_module.Position

        @staticmethod
        def reaches(pos: Any, points: int) -> bool:
            asked[0] += 1
            return solver_module.reaches(pos, points)

        @staticmethod
        def null_wins(pos: Any) -> bool:
            asked[0] += 1
            return solver_module.null_wins(pos)

    evaluator = default_evaluator()
    settings = SearchSettings(discard_worlds=6)
    fewer = 0
    for n, view in enumerate(_first_views(Phase.DISCARD, 52, 14)):
        know = Knowledge.from_view(view)
        questions = []
        choices = []
        for pick in (contract.discard, _discard_solving_everything):
            d = Decision(view, know, Counting, Clock(None), random_module.Random(n), settings)
            asked[0] = 0
            got = pick(d, evaluator, Inference())
            assert got is not None
            action, game = got
            put = action if isinstance(action, int) else sum(1 << int(c) for c in action.cards)
            choices.append((put, game))
            questions.append(asked[0])
        assert choices[0] == choices[1], view.hand
        assert questions[0] <= questions[1]
        fewer += questions[0] < questions[1]
    assert fewer >= 3  # the test sees candidates dropped


def test_a_card_decision_out_of_time_inside_its_first_world_is_heuristics() -> None:
    """The solver stops a search at the hard limit even inside the first world
    of a decision (a zero-window test from the first trick can take seconds);
    the decision is then `heuristic`'s, not late."""
    for view in _first_views(Phase.PLAY, 44, 3):
        p = SearchPlayer(random.Random(1), time_budget=1e-6)
        action = p.choose(view)
        assert action == make_player("heuristic", random.Random(0)).choose(view)
        assert p.fallbacks == 1
        # what the server's search processes answer says so (it counts it)
        from skat.players.levels import choose_noted

        assert choose_noted("search", view, 1, None, 1e-6).fell_back
        assert not choose_noted("search", view, 1, None, None).fell_back


def test_a_card_decision_with_a_short_share_finishes_its_first_world() -> None:
    """The server cuts a search to a share of the processes when many wait,
    and stops it only where its own wait ends (``time_limit``): the first
    world is then finished and decides, not `heuristic`."""
    from skat.players.levels import choose_noted

    for view in _first_views(Phase.PLAY, 44, 3):
        p = SearchPlayer(random.Random(1), time_budget=1e-6, time_limit=60.0)
        assert p.choose(view) in view.legal_actions
        assert p.fallbacks == 0
        assert not choose_noted("search", view, 1, None, 1e-6, 60.0).fell_back


def test_a_discard_out_of_time_inside_its_first_world_is_the_priors() -> None:
    """Tables that start together share the search processes: a discard
    given too little time to solve one world is chosen by the evaluator's
    prior among the same candidates (and its game announced with it), not
    left to `heuristic`."""
    from skat.players.search import contract as contract_module

    differs = 0
    for view in _first_views(Phase.DISCARD, 44, 4):
        p = SearchPlayer(random.Random(1), time_budget=1e-6)
        action = p.choose(view)
        assert p.fallbacks == 0 and action in view.legal_actions
        hand12 = view.hand.mask
        candidates = contract_module.discard_candidates(
            contract_module.discard_games(view, hand12), hand12
        )
        put = sum(1 << int(c) for c in action.cards)
        assert put in {mask for _, mask in candidates}
        (game,) = p.notes.values()  # the announcement needs no solve
        assert any(c.game == game.game for c, mask in candidates if mask == put)
        differs += action != make_player("heuristic", random.Random(0)).choose(view)
    assert differs  # the test sees a choice `heuristic` would not make


def test_a_world_stopped_by_the_solver_is_left_out_of_the_card_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A world the solver could not finish in time is dropped whole: the card
    is chosen on the worlds before it, not given up to `heuristic`."""
    from skat.players.search import cards as cards_module

    original = cards_module.Outcomes.primary
    for view in _first_views(Phase.PLAY, 44, 3):
        cards = sum(isinstance(a, Play) for a in view.legal_actions)
        calls = 0

        def primary(self: Any, pos: Any, cards: int = cards) -> bool:
            nonlocal calls
            calls += 1
            if calls > cards:  # the second world: out of time
                raise solver_module.Stopped
            return bool(original(self, pos))

        monkeypatch.setattr(cards_module.Outcomes, "primary", primary)
        p = SearchPlayer(random.Random(1), time_budget=60.0, strict=True)
        action = p.choose(view)
        assert p.fallbacks == 0 and action in view.legal_actions
        # the same card as a search of that one world alone
        calls = -(10**6)
        one = SearchPlayer(random.Random(1), strict=True)
        first = cards_module.card_worlds
        with monkeypatch.context() as m:
            m.setattr(cards_module, "card_worlds", lambda d, i, first=first: first(d, i)[:1])
            assert one.choose(view) == action


def test_a_failure_falls_back_to_heuristic_not_the_first_action() -> None:
    """With the solver broken, every decision is heuristic's."""

    class Broken(SearchPlayer):
        def _choose(self, view, clock):  # type: ignore[no-untyped-def]
            raise RuntimeError("no solver today")

    for number in range(1, 4):
        deal = Deal(deal_deck(_seed(12), number))
        p = Broken(random.Random(1), worlds=2, discard_worlds=2)
        h = make_player("heuristic", random.Random(2))
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            assert p.choose(view) == h.choose(view)
            deal.apply(h.choose(view), seat)
        assert p.fallbacks > 0


def _clear_cards(deal: Deal, seat: int) -> tuple[set[int], set[int]] | None:
    """For a declarer's decision late in a suit/Grand game: the cards that
    reach 61 in every world the view allows, and the cards that miss it in
    the true deal; None unless both sets are non-empty."""
    know = Knowledge.from_view(deal.view(seat))
    every = _brute_force_worlds(know)
    c = deal.contract
    assert c is not None
    d = deal.declarer
    assert d is not None
    won = [t for t in deal.tricks if t.winner == d]
    points = sum(t.points for t in won) + deal.skat.points
    sure: set[int] | None = None
    for w in every:
        pos = solver_module.Position(
            c.game,
            w.hands,
            d,
            deal.tricks[-1].winner,
            (),
            points,
            len(won),
            len(deal.tricks) - len(won),
        )
        good = {card for card in pos.legal_cards() if solver_module.reaches(pos.play(card), 61)}
        sure = good if sure is None else sure & good
    truth = solver_module.Position.from_deal(deal)
    bad = {card for card in truth.legal_cards() if not solver_module.reaches(truth.play(card), 61)}
    if not sure or not bad:
        return None
    return sure, bad


def test_the_declarer_does_not_give_away_the_61st_point() -> None:
    """Positions where one card makes the game in every world the declarer's
    view allows and another loses it: search plays a winning card."""
    found = 0
    for number in range(1, 400):
        deal = Deal(deal_deck(_seed(21), number))
        rng = random.Random(number)
        _advance(deal, 12, rng)
        c = deal.contract
        if (
            deal.phase is not Phase.PLAY
            or c is None
            or not (c.game.is_suit or c.game == GameType.GRAND)
        ):
            continue
        d = deal.declarer
        assert d is not None
        players = [make_player("heuristic", random.Random(s)) for s in range(3)]
        while not deal.is_terminal() and len(deal.tricks) < 8:
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            if len(deal.tricks) >= 6 and not deal.current_trick and deal.position_of(seat) == d:
                clear = _clear_cards(deal, seat)
                if clear is not None:
                    sure, _ = clear
                    action = SearchPlayer(random.Random(number), worlds=12, strict=True).choose(
                        view
                    )
                    assert isinstance(action, Play) and action.card in sure, (number, action, sure)
                    found += 1
                    break
            deal.apply(players[seat].choose(view), seat)
        if found >= 4:
            break
    assert found >= 4


def test_time_budget_still_answers_legally() -> None:
    """With a tiny time budget the player still answers (search or fallback)."""
    deal = Deal(deal_deck(_seed(31), 2))
    players = [SearchPlayer(random.Random(s), time_budget=0.01) for s in range(3)]
    result = play_deal(deal, players)
    assert result.kind in ("game", "passed")
    assert mask_points(ALL_CARDS) == 120


#: Forehand with CJ SJ, seven clubs and three side aces: a Grand Hand with 2
#: under `_FakeSolver`, and the deal the discard's test starts from.
_GRAND_FOREHAND = [
    "CJ SJ CA CT CK CQ C9 SA HA DA".split(),
    "HJ DJ C8 C7 ST SK SQ S9 HT HK".split(),
    "S8 S7 HQ H9 H8 H7 DT DK DQ D9".split(),
]


class _FakeSolver:
    """An open-card 'solver' under which the declarer always reaches 85 card
    points but never 90: a game that is won, but never Schneider."""

    IMPLEMENTATION = "fake"

    @staticmethod
    def Position(*args: object) -> tuple[object, ...]:
        return args

    @staticmethod
    def reaches(pos: object, points: int) -> bool:
        return points <= 85

    @staticmethod
    def null_wins(pos: object) -> bool:
        return False


def _truth(deal: Deal) -> World:
    """The real hands (by position) and skat of a deal now."""
    hands = [deal.hand(deal.seat_of(p)).mask for p in range(3)]
    return World((hands[0], hands[1], hands[2]), deal.skat.mask)


def test_play_inference_fits_the_truth_and_sharpens_the_worlds() -> None:
    """Among `heuristic` players the true cards fit every card they played
    (`play_fit` 1), and worlds weighted by the play place the hidden cards
    where they really are more often than uniform worlds do."""
    from skat.players.worlds import play_fit

    checked = 0
    right = {"uniform": 0, "weighted": 0}
    telling = 0  # decisions where some uniform world contradicts a card played
    for number in range(1, 80):
        deal = Deal(deal_deck(_seed(10), number))
        _advance(deal, 4 + 3 * 12 + number % 9, random.Random(number))
        if deal.is_terminal() or deal.phase is not Phase.PLAY or deal.contract is None:
            continue
        if deal.contract.game == GameType.RAMSCH or len(deal.tricks) < 3:
            continue
        seat = deal.current_seat
        assert seat is not None
        know = Knowledge.from_view(deal.view(seat))
        truth = _truth(deal)
        assert play_fit(know, truth, 0.3) == 1.0
        sampler = Sampler(know)
        rng = random.Random(number)
        uniform = [sampler.sample(rng) for _ in range(40)]
        weighted = [
            w for w, m in sampler.weighted(rng, 40, 160, Inference(play_miss=0.3)) for _ in range(m)
        ]
        telling += any(play_fit(know, w, 0.3) < 1.0 for w in uniform)
        for name, ws in (("uniform", uniform), ("weighted", weighted)):
            for w in ws:
                right[name] += sum(
                    (w.hands[p] & truth.hands[p]).bit_count() for p in range(3) if p != know.me
                )
        checked += 1
    assert checked >= 15
    assert telling >= checked * 0.8
    assert right["weighted"] > 1.1 * right["uniform"]


def test_exact_auction_inference_fits_heuristic_bidders() -> None:
    """`heuristic`'s own bidding rule (`Inference.exact`) never contradicts
    what `heuristic` players bid, held or passed: during every auction among
    them the true hands get the full weight. The old rule (the best game's
    value, whether or not it beats passing) does contradict it."""
    exact_misses = old_misses = checked = 0
    for number in range(1, 60):
        deal = Deal(deal_deck(_seed(11), number))
        players = [make_player("heuristic", random.Random(number * 3 + s)) for s in range(3)]
        while deal.phase is Phase.BIDDING:
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            know = Knowledge.from_view(view)
            truth = _truth(deal)
            exact_misses += likelihood(know, truth, 0.5, 0.5, exact=True) < 1.0
            old_misses += likelihood(know, truth, 0.5, 0.5) < 1.0
            checked += 1
            deal.apply(players[seat].choose(view), seat)
    assert checked >= 100
    assert exact_misses == 0
    assert old_misses > 0


@pytest.mark.arena
def test_discard_inference_fits_the_truth() -> None:
    """Against a `heuristic` declarer who picked up, the true skat is always
    the one `heuristic` would put away (`discard_fit` 1), while uniform
    worlds often put a skat there that it would not have."""
    from skat.players.worlds import _reads_discard, discard_fit

    checked = contradicted = 0
    for number in range(1, 120):
        deal = Deal(deal_deck(_seed(12), number))
        _advance_to_play(deal, random.Random(number))
        if deal.phase is not Phase.PLAY or deal.contract is None or deal.declarer is None:
            continue
        if deal.contract.game == GameType.RAMSCH or deal.contract.hand:
            continue
        d = deal.declarer
        defender = next(p for p in range(3) if p != d)
        know = Knowledge.from_view(deal.view(deal.seat_of(defender)))
        assert _reads_discard(know)
        truth = _truth(deal)
        assert discard_fit(know, truth, 0.3) == 1.0
        rng = random.Random(number)
        worlds = [Sampler(know).sample(rng) for _ in range(10)]
        contradicted += sum(discard_fit(know, w, 0.3) < 1.0 for w in worlds)
        checked += 1
    assert checked >= 20
    assert contradicted >= checked * 5


def test_a_view_draws_the_same_worlds_whatever_was_decided_before() -> None:
    """Common random numbers: a decision's worlds depend on the player's
    seed and the view, not on how many worlds earlier decisions drew, so
    two settings compared on the same deals differ only where a decision
    changed."""
    deal = Deal(deal_deck(_seed(21), 1))
    _advance_to_play(deal, random.Random(2))
    view = deal.view(deal.current_seat)
    other = Deal(deal_deck(_seed(21), 2))
    _advance_to_play(other, random.Random(3))
    fresh, used = _cheap(random.Random(5)), _cheap(random.Random(5))
    used.choose(other.view(other.current_seat))
    assert fresh.choose(view) == used.choose(view)
    assert fresh.rng.getstate() == used.rng.getstate()


@pytest.mark.arena
def test_a_solved_game_is_won_by_the_calibrated_chance_of_its_open_card_points() -> None:
    """The open-card defence sees every card, so a suit game the solve loses
    with 48 points is still won most of the time at a real table
    (`WIN_CURVE`, calibrated on `search`'s own games). A world's chance
    follows the curve by the exact open-card points, and Schneider counts
    only where the top tier and 90 itself are reached; Grand keeps the cut
    at 61 plus ``margin`` (-8)."""
    from skat.players.search import entries
    from skat.players.search.contract import quick_discard, solve_start
    from skat.players.search.settings import WIN_CURVE, SearchSettings

    solver = solver_module
    default = SearchSettings()
    rng = random.Random(5)
    seen = set()
    for _ in range(60):
        deal = Deal(deal_deck(rng.randbytes(32), 1))
        world = _truth(deal)
        game = rng.choice([GameType.CLUBS, GameType.HEARTS, GameType.GRAND])
        me = rng.randrange(3)
        cards12 = world.hands[me] | world.skat
        discard = quick_discard(cards12, game)
        hands = list(world.hands)
        hands[me] = cards12 & ~discard
        pos = solver.Position(game, tuple(hands), me, 0, (), mask_points(discard))
        best = solver.best_points(pos)
        got = solve_start(solver, default, game, hands, me, mask_points(discard))
        if game == GameType.GRAND:
            assert got == (float(best >= 53), best >= 90)
            continue
        chance = next(c for t, c in WIN_CURVE if best >= t)
        seen.add(chance)
        assert got == (chance, chance == WIN_CURVE[0][1] and best >= 90)
    assert len(seen) >= len(WIN_CURVE) - 1  # (nearly) every tier was met
    # the chances weigh the entries: clubs with 1 (2 x 12 = 24; Schneider 36)
    # won +74, Schneider +86, lost -98 (R5.3, R6.4, R8.2); a Hand with Schneider
    # announced (5 x 12 = 60) is won +110 only with the Schneider, else -170
    cards = sum(1 << int(Card.parse(c)) for c in ("CJ", "C7"))
    clubs = Contract(GameType.CLUBS)
    assert entries.entry(clubs, 18, 1.0, 0.5, cards) == pytest.approx((74 + 86) / 2)
    assert entries.entry(clubs, 18, 0.5, 0.0, cards) == pytest.approx((74 - 98) / 2)
    announced = Contract(GameType.CLUBS, hand=True, schneider=True)
    assert entries.entry(announced, 18, 1.0, 0.5, cards) == pytest.approx((110 - 170) / 2)


def _forehand_declares(hands: list[list[str]], skat: list[str]) -> Deal:
    """A deal at the Hand-or-pickup choice: middlehand and rearhand pass,
    forehand bids 18 and is the declarer (R2.3)."""
    from skat.engine import Bid, Pass, deck_from_hands

    deal = Deal(deck_from_hands(hands, skat))
    deal.apply(Pass(), deal.seat_of(1))
    deal.apply(Pass(), deal.seat_of(2))
    deal.apply(Bid(18), deal.seat_of(0))
    assert deal.phase is Phase.SKAT
    return deal


def test_the_discard_solves_its_own_number_of_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``discard_worlds`` sets the worlds of the game and discard after the
    pickup: more of them, more solves, and still a legal discard."""
    from skat.engine import Discard, Pickup
    from skat.players.search import player as player_module

    calls: list[int] = []

    class Counting(_FakeSolver):
        @staticmethod
        def Position(*args: object) -> tuple[object, ...]:
            calls.append(1)
            return args

    hands = _GRAND_FOREHAND
    monkeypatch.setattr(player_module, "_solver", lambda: Counting)
    solves = {}
    for n in (2, 8):
        deal = _forehand_declares(hands, ["D8", "D7"])
        deal.apply(Pickup(), deal.seat_of(0))
        view = deal.view(deal.seat_of(0))
        calls.clear()
        action = SearchPlayer(random.Random(1), strict=True, discard_worlds=n).choose(view)
        assert isinstance(action, Discard) and action in view.legal_actions
        solves[n] = len(calls)
    assert solves[8] >= 3 * solves[2] > 0


def test_cards_tied_on_the_entry_go_to_the_best_open_card_points() -> None:
    """The points tie-break: of cards whose expected entry is equal, the
    declarer takes the one with the most card points over the worlds (with
    their multiplicity) and a defender the one that leaves him the fewest,
    by the solver's exact points; the tie stays where they are equal."""
    from skat.players.search import cards as cards_module
    from skat.players.search.decision import Clock
    from skat.players.solver import Position, best_points

    clock = Clock(None)
    decided = split = 0
    for number, deal, view in _views_in_play(44, range(1, 40), 15, 6, null=False):
        cards = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
        if len(cards) < 2:
            continue
        know = Knowledge.from_view(view)
        worlds = [(_truth(deal), 2), *Sampler(know).weighted(random.Random(number), 3)]
        d = deal.declarer
        assert d is not None
        me_declarer = know.me == d
        done = []
        expected = dict.fromkeys(cards, 0)
        for pos, _, mult in cards_module.positions(view, know, worlds):
            per = {card: (True, pos.play(card)) for card in cards}
            done.append((mult, 0, per))
            for card in cards:
                expected[card] += mult * best_points(per[card][1])
        got = cards_module.by_points(cards, done, me_declarer, solver_module, clock)
        best = (max if me_declarer else min)(expected.values())
        assert got == [card for card in cards if expected[card] == best], (number, expected)
        decided += 1
        split += len(set(expected.values())) > 1
        assert isinstance(done[0][2][cards[0]][1], Position)
    assert decided >= 15 and split >= 5, (decided, split)


def _mask(text: str) -> int:
    return sum(1 << int(Card.parse(x)) for x in text.split())


def test_equivalent_cards_join_only_cards_nothing_can_come_between() -> None:
    """Two cards are one class when every card between them in their suit's
    order is gone (finished tricks, a known skat) and their card points are
    equal (Null: no points); a card still in play, another seat's or in the
    current trick, keeps them apart."""
    from skat.players.search.cards import equivalent_cards

    def classes(game: GameType, cards: str, gone: str = "") -> set[frozenset[str]]:
        mine = [int(Card.parse(x)) for x in cards.split()]
        first = equivalent_cards(game, mine, _mask(gone) if gone else 0)
        out: dict[int, set[str]] = {}
        for card, rep in first.items():
            out.setdefault(rep, set()).add(str(Card(card)))
        return {frozenset(v) for v in out.values()}

    # Grand: CJ and HJ apart while SJ is in play, one class once it is gone
    assert classes(GameType.GRAND, "CJ HJ") == {frozenset({"CJ"}), frozenset({"HJ"})}
    assert classes(GameType.GRAND, "CJ HJ", "SJ") == {frozenset({"CJ", "HJ"})}
    # held in a row: one class; the jacks are trumps in Clubs, apart from CA
    assert classes(GameType.CLUBS, "CJ SJ CA") == {frozenset({"CJ", "SJ"}), frozenset({"CA"})}
    # equal points needed: SK (4) and S9 (0) stay apart with SQ gone; S9 and S7 join over S8
    assert classes(GameType.CLUBS, "SK S9 S7", "SQ S8") == {
        frozenset({"SK"}),
        frozenset({"S9", "S7"}),
    }
    # Null orders A K Q J T 9 8 7 and counts no points: HT and H9 are one class
    assert classes(GameType.NULL, "HT H9 HA") == {frozenset({"HT", "H9"}), frozenset({"HA"})}
    assert classes(GameType.DIAMONDS, "HT H9") == {frozenset({"HT"}), frozenset({"H9"})}


def test_cards_of_one_class_have_the_same_open_card_value_in_every_world() -> None:
    """What lets `search` solve one card of a class for all: in real deals,
    Null too, every card of a class of the seat to move (`card_classes`)
    gives the same exact outcome as its class's first card in the true world
    and in sampled worlds (the declarer's points, or in Null whether he
    takes no trick)."""
    from skat.players.search import cards as search_module
    from skat.players.solver import best_points, null_wins

    joined = 0
    for number, deal, view in _views_in_play(45, range(1, 70), 6, 15, null=True):
        first_of = search_module.card_classes(view)
        pairs = [(card, first) for card, first in first_of.items() if card != first]
        if not pairs:
            continue
        know = Knowledge.from_view(view)
        worlds = [_truth(deal), *(w for w, _ in Sampler(know).weighted(random.Random(number), 2))]
        d = deal.declarer
        assert d is not None
        c = deal.contract
        assert c is not None
        for pos, _, _ in search_module.positions(view, know, [(w, 1) for w in worlds]):
            for card, first in pairs:
                a, b = pos.play(card), pos.play(first)
                if c.game == GameType.NULL:
                    assert null_wins(a) == null_wins(b), (number, card, first)
                else:
                    assert best_points(a) == best_points(b), (number, card, first)
                joined += 1
    assert joined >= 30


def test_search_chooses_the_same_cards_with_one_solve_per_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Solving one card per class changes no decision: the same views give
    the same cards as with every card solved on its own."""
    from skat.players.search import cards as search_module

    views = []
    for _, _, view in _views_in_play(46, range(1, 40), 3, 12, null=True):
        if any(k != v for k, v in search_module.card_classes(view).items()):
            views.append(view)
    assert len(views) >= 10

    def choices() -> list[str]:
        return [str(SearchPlayer(random.Random(7), worlds=6).choose(v)) for v in views]

    merged = choices()
    monkeypatch.setattr(
        search_module,
        "equivalent_cards",
        lambda game, cards, gone: {card: card for card in cards},
    )
    assert choices() == merged


def test_a_card_in_the_current_trick_keeps_two_cards_apart() -> None:
    """A card on the table between two of the seat's cards (it follows S8
    holding S9 and S7) is not gone: one of them beats it, the other does not.
    `card_classes` keeps such cards apart, and in real deals their exact
    values do differ."""
    from skat.players.search import cards as search_module
    from skat.players.solver import best_points

    apart = differ = 0
    for _number, deal, rng in _in_play(47, range(1, 400), null=False):
        for _ in range(30):
            _advance(deal, 1, rng)
            if deal.is_terminal() or not deal.view(deal.current_seat or 0).trick:
                continue
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            c = view.contract
            assert c is not None
            table = sum(1 << int(x) for _, x in view.trick)
            gone = table | sum(1 << int(x) for t in view.tricks for x in t.cards)
            cards = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
            loose = search_module.equivalent_cards(c.game, cards, gone)
            first_of = search_module.card_classes(view)
            pairs = [(k, v) for k, v in loose.items() if k != v and first_of[k] != first_of[v]]
            if not pairs:
                continue
            apart += 1
            know = Knowledge.from_view(view)
            ((pos, _, _),) = search_module.positions(view, know, [(_truth(deal), 1)])
            differ += any(best_points(pos.play(a)) != best_points(pos.play(b)) for a, b in pairs)
        if differ >= 3:
            break
    assert apart >= 3 and differ >= 3, (apart, differ)


def test_the_likelihood_with_the_limits_kept_is_the_same() -> None:
    """`likelihood` keeps each ten cards' bidding limit for later worlds and
    decisions (`worlds._LIMITS`): the weights are those of limits found
    afresh, for the forehand's own rule (`exact`, which differs by
    position) and the plain one."""
    from skat.players import worlds as worlds_module

    judged = 0
    for _, _, view in _views_in_play(48, range(1, 20), 3, 20, null=True):
        know = Knowledge.from_view(view)
        worlds = [Sampler(know).sample(random.Random(i % 7)) for i in range(30)]
        for exact in (True, False):
            kept = [likelihood(know, w, 0.3, 0.2, exact) for w in worlds]
            afresh = []
            for w in worlds:
                worlds_module._LIMITS.clear()
                afresh.append(likelihood(know, w, 0.3, 0.2, exact))
            assert kept == afresh
            judged += sum(x < 1.0 for x in kept)
    assert judged > 0


def _decide_some(
    seed: int,
    numbers: range,
    decisions: int,
    make: Callable[[int], SearchPlayer],
    seen: Callable[[Any], None] | None = None,
) -> None:
    """In the deals of `_in_play`, ``decisions`` times: the seat to move
    decides with ``make(number)`` (``seen`` shown its view first), then
    `heuristic` plays two more actions."""
    for number, deal, rng in _in_play(seed, numbers, null=False):
        for _ in range(decisions):
            if deal.is_terminal():
                break
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            if seen is not None:
                seen(view)
            deal.apply(make(number).choose(view), seat)
            _advance(deal, 2, rng)


def test_the_points_tie_break_waits_for_the_third_trick(monkeypatch: pytest.MonkeyPatch) -> None:
    """``early_tiebreak_worlds`` (0 by default): while nine or ten cards are
    in hand, tied cards go to `heuristic` without an exact solve (those are
    the longest); from eight cards on the tie-break solves its worlds. None
    brings back the tie-break at every trick."""
    from skat.players.search import cards as search_module

    calls: list[tuple[int, int]] = []  # (cards in hand, worlds given to the tie-break)
    hand_size = [0]
    original = search_module.by_points

    def recording(tied: list[int], done: list[Any], *rest: Any) -> list[int]:
        calls.append((hand_size[0], len(done)))
        return original(tied, done, *rest)

    monkeypatch.setattr(search_module, "by_points", recording)

    def decide(early: int | None, numbers: range, decisions: int) -> None:
        def make(number: int) -> SearchPlayer:
            return SearchPlayer(
                random.Random(number), worlds=4, tiebreak_worlds=2, early_tiebreak_worlds=early
            )

        def seen(view: Any) -> None:
            hand_size[0] = len(view.hand)

        _decide_some(49, numbers, decisions, make, seen)

    decide(0, range(1, 8), 6)
    assert any(n >= 9 for n, _ in calls) and any(n <= 8 for n, _ in calls)
    assert all(worlds == 0 for n, worlds in calls if n >= 9)
    assert all(worlds > 0 for n, worlds in calls if n <= 8)
    calls.clear()
    decide(None, range(1, 6), 2)
    assert any(worlds > 0 for n, worlds in calls if n >= 9)


def test_the_schneider_pass_runs_at_every_trick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Schneider and Schwarz questions (pass 2) are asked at every
    trick, nine or ten cards in hand too (waiting for the third trick was
    measured and not kept: docs/lab/strength-log.md)."""
    from skat.players.search import cards as search_module

    sizes: list[int] = []  # cards in hand at each Schneider/Schwarz question
    original = search_module.Outcomes.outcome

    def recording(self: Any, won: bool, pos: Any) -> tuple[int, int]:
        sizes.append(len(self.view.hand))
        return original(self, won, pos)

    monkeypatch.setattr(search_module.Outcomes, "outcome", recording)

    def make(number: int) -> SearchPlayer:
        return SearchPlayer(random.Random(number), worlds=4, tiebreak_worlds=0)

    _decide_some(51, range(1, 5), 2, make)
    assert any(n >= 9 for n in sizes)


def test_the_settings_table_of_the_docs_is_the_code() -> None:
    """docs/players.md lists every `SearchSettings` field with its default
    and its comment, and nothing else (the table is generated by
    `settings_table`: paste its rows when a setting changes)."""
    from pathlib import Path

    from skat.players.search.settings import settings_table

    page = (Path(__file__).parents[2] / "docs" / "players.md").read_text()
    start = page.index("<!-- settings table: generated from SearchSettings -->")
    end = page.index("<!-- end of the settings table -->")
    rows = [line for line in page[start:end].splitlines() if line.startswith("| `")]
    assert rows == settings_table()


def test_the_discards_entries_weigh_the_defenders_forty_as_told() -> None:
    """``SearchSettings.forty`` (issue 53): a lost class of a solved world
    costs the declarer 40 more per unit of ``forty`` (R8.2: each defender
    gains 40), a won one nothing; a Null lost in the open costs the same,
    a hidden one only by the share it is lost."""
    from skat.engine import Contract
    from skat.players.handeval import Chances
    from skat.players.search.entries import entry, prior_entry

    hearts, null = Contract(GameType.HEARTS), Contract(GameType.NULL)
    twelve = sum(1 << i for i in (0, 1, 2, 3, 4, 12, 20, 28, 8, 9, 10, 11))
    for won in (0.0, 0.3, 1.0):
        own = entry(hearts, 18, won, 0.0, twelve)
        assert entry(hearts, 18, won, 0.0, twelve, forty=1.0) == pytest.approx(own - 40 * (1 - won))
    assert entry(null, 23, 1.0, 0.0, twelve, forty=1.0) == entry(null, 23, 1.0, 0.0, twelve)
    ouvert = Contract(GameType.NULL, ouvert=True)
    assert (
        entry(ouvert, 23, 0.0, 0.0, twelve, forty=1.0) == entry(ouvert, 23, 0.0, 0.0, twelve) - 40
    )
    prior = Chances(0.25, 0.0)
    assert prior_entry(null, 23, prior, twelve, forty=0.5) == pytest.approx(
        prior_entry(null, 23, prior, twelve) - 20 * 0.75
    )


def test_the_strong_player_announces_the_game_it_discarded_for_across_fresh_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server makes each decision with a fresh player: the notes it keeps
    per seat (`levels.choose_noted`) carry the game planned with the discard
    (R3.2) to the announcement, which then needs no solve of its own;
    without them the choice is worked out again (`contract.declare`)."""
    from skat.engine import Announce, parse_action
    from skat.players.levels import choose_noted, quick
    from skat.players.search import contract as contract_module

    declared = 0
    original = contract_module.declare

    def declare(*args: Any) -> Any:
        nonlocal declared
        declared += 1
        return original(*args)

    monkeypatch.setattr(contract_module, "declare", declare)
    seen = 0
    for number in itertools.count(1):
        deal = Deal(deal_deck(_seed(45), number))
        players = [make_player("heuristic", random.Random(s)) for s in range(3)]
        seat = play_until(deal, players, Phase.DISCARD)
        if seat is None:
            continue
        text, notes, fell_back = choose_noted("search", deal.view(seat), 1, None, None)
        assert not fell_back
        deal.apply(parse_action(text), seat)
        assert deal.phase is Phase.DECLARE
        planned = set(notes.values())
        assert len(planned) == 1
        declared = 0
        # so the server sends it ahead of the searches (`levels.quick`)
        assert quick(deal.view(seat), notes) and not quick(deal.view(seat), None)
        text, _, _ = choose_noted("search", deal.view(seat), 2, notes, None)
        assert parse_action(text) == Announce(planned.pop()) and declared == 0
        choose_noted("search", deal.view(seat), 2, None, None)
        assert declared == 1
        seen += 1
        if seen == 3:
            break
