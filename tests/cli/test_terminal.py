"""`skat play`: the terminal game against two computer players.

The human's answers are scripted. A scripted player reads the human's view
(handed to it by ``run_game``'s ``on_prompt`` hook, exactly what the terminal
shows) and answers as the heuristic bot would, by number or in words, with
bad answers mixed in. Every output is checked for leaks: up to each prompt it
shows no card of another hand or of the skat that the human's view does not
show at that moment (SKAT-RULES.md R3.7).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner
from rich.console import Console

from skat.cli import main
from skat.cli.terminal import (
    BadInput,
    GameOutcome,
    card_text,
    choices,
    discard_cards,
    interpret,
    parse_card_word,
    run_game,
)
from skat.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Contract,
    Discard,
    GameType,
    Hold,
    Pass,
    Phase,
    Pickup,
    Play,
    View,
    sorted_cards,
)
from skat.engine.game import EFFECTIVE
from skat.players import make_player
from skat.series import ListOptions

ONE_DEAL = ListOptions(deals=1)
OPPONENTS = ("heuristic", "random")


def seed_of(i: int) -> bytes:
    return bytes([i]) * 32


@dataclass
class Human:
    """Answers prompts from the human's view; ``extra`` answers come first.

    ``extra`` maps a prompt predicate to the answers typed (in order) before
    the real one the first time the predicate holds.
    """

    console_file: io.StringIO
    discard_mode: str = "cards"  # "cards" (ST H8) or "numbers" (3 7)
    text_at: int = 2  # answer this prompt (1-based) in words, not by number
    extra: list[tuple[Callable[[View], list[str] | None], bool]] = field(default_factory=list)
    quit_at: int | None = None  # answer q at this prompt
    eof_at: int | None = None  # end the input at this prompt
    prompts: list[tuple[int, View]] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)
    chosen: list[Action] = field(default_factory=list)
    _pending: list[str] = field(default_factory=list)
    _view: View | None = None

    def __post_init__(self) -> None:
        self.bot = make_player("heuristic", random.Random(7))

    def hook(self, view: View) -> None:
        self._view = view
        self.prompts.append((len(self.console_file.getvalue()), view))

    def readline(self) -> str:
        line = self._answer()
        if line is not None:
            self.typed.append(line)
            return line + "\n"
        return ""

    def _answer(self) -> str | None:
        view = self._view
        assert view is not None
        n = len(self.prompts)
        if self.eof_at == n:
            return None
        if self.quit_at == n:
            return "q"
        if self._pending:
            return self._pending.pop(0)
        for i, (pred, used) in enumerate(self.extra):
            if not used:
                answers = pred(view)
                if answers:
                    self.extra[i] = (pred, True)
                    self._pending = answers[1:]
                    return answers[0]
        action = self.bot.choose(view)
        self.chosen.append(action)
        if isinstance(action, Discard):
            if self.discard_mode == "numbers":
                cards12 = discard_cards(view)
                return " ".join(str(cards12.index(c) + 1) for c in action.cards)
            return " ".join(c.name for c in action.cards)
        menu = choices(view)
        numbered = [i for i, c in enumerate(menu, 1) if c.action == action]
        if numbered and n != self.text_at:
            return str(numbered[0])
        return str(action)


def play(
    human: Human, seed: bytes, options: ListOptions = ONE_DEAL, opponents: Sequence[str] = OPPONENTS
) -> tuple[GameOutcome, str]:
    console = Console(file=human.console_file, width=120, color_system=None)
    outcome = run_game(human, console, options, opponents, seed, on_prompt=human.hook)
    return outcome, human.console_file.getvalue()


def new_human(**kw: object) -> Human:
    return Human(io.StringIO(), **kw)  # type: ignore[arg-type]


def assert_no_leak(human: Human, outcome: GameOutcome, text: str) -> int:
    """No card the human may not know is printed before it may be known.

    For each deal, up to each of the human's prompts, the output since the deal
    began holds no card of the other dealt hands or the dealt skat outside what
    the human's view shows at that prompt. Returns the number of checks.
    """
    starts = [m.start() for m in re.finditer(r"━━ Deal \d+ of", text)]
    ends = [m.start() for m in re.finditer(r"── Result of deal", text)]
    checks = 0
    for k, deal in enumerate(outcome.series.deals):
        me = deal.position_of(0)
        secret = deal.dealt_skat.mask
        for p in range(3):
            if p != me:
                secret |= deal.dealt_hand(p).mask
        start = starts[k] if k else 0  # before a deal: the last deal's result, all open
        end = ends[k] if k < len(ends) else len(text)
        for pos, view in human.prompts:
            if not start <= pos <= end:
                continue
            hidden = secret & ~view.known_cards().mask
            shown = text[start:pos]
            for c in Card:
                if hidden >> c & 1:
                    assert card_text(c) not in shown, f"{c.name} shown before it is known"
                    checks += 1
    return checks


def human_declares(i: int) -> bool:
    human = new_human()
    outcome, _ = play(human, seed_of(i))
    deal = outcome.series.deals[0]
    return any(isinstance(a, Pickup) and s == 0 for s, a in deal.history)


@pytest.fixture(scope="module")
def declarer_seed() -> bytes:
    """A list whose one deal the scripted human wins at auction and picks up."""
    for i in range(100):
        if human_declares(i):
            return seed_of(i)
    pytest.fail("no seed in 0..99 lets the scripted human declare")


def _first_bidding(view: View) -> list[str] | None:
    if view.phase is Phase.BIDDING:
        return ["xyz", "99", "0", "bid 19"]
    return None


def _must_follow_violation(view: View) -> list[str] | None:
    """At a play prompt with a card led: a card of the hand that does not follow."""
    if view.phase is not Phase.PLAY or not view.trick or view.contract is None:
        return None
    eff = EFFECTIVE[view.contract.game]
    led = eff[view.trick[0][1]]
    follows = [c for c in view.hand if eff[c] == led]
    others = [c for c in view.hand if eff[c] != led]
    if follows and others:
        return [f"play {others[0].name}"]
    return None


def _played_card(view: View) -> list[str] | None:
    """At a play prompt: a card the human knows but does not hold (the discards)."""
    if view.phase is not Phase.PLAY or view.skat is None:
        return None
    known_not_held = [c for c in view.skat if c not in view.hand]
    return [known_not_held[0].name, "zz"] if known_not_held else None


# ----------------------------------------------------------------- the game
def test_whole_deal_with_bad_input_text_and_numbers(declarer_seed: bytes) -> None:
    human = new_human(
        extra=[(_first_bidding, False), (_played_card, False), (_must_follow_violation, False)]
    )
    outcome, text = play(human, declarer_seed)
    assert outcome.finished and outcome.quit_reason is None
    deal = outcome.series.deals[0]
    result = deal.result
    assert result is not None and result.kind == "game" and result.declarer_seat == 0
    # bad answers: each re-asked with a one-line reason, nothing applied
    assert "✗ not understood: 'xyz'" in text
    assert "✗ there is no choice 99: pick a number from 1 to" in text
    assert "✗ there is no choice 0" in text
    assert "✗ 19 is no game value" in text
    assert "is not in your hand" in text
    assert "✗ 'zz' is not a card" in text or "✗ not understood: 'zz'" in text
    if any(_must_follow_violation(v) for _, v in human.prompts):
        # the engine's reason, naming what to follow (no rule in the terminal)
        assert re.search(r"✗ you must follow suit: play (clubs|spades|hearts|diamonds|trump)", text)
    # the answers the human gave are exactly what the deal holds
    mine = [a for s, a in deal.history if s == 0]
    norm = [Discard(tuple(sorted(a.cards))) if isinstance(a, Discard) else a for a in mine]
    assert norm == [
        Discard(tuple(sorted(a.cards))) if isinstance(a, Discard) else a for a in human.chosen
    ]
    # a text answer and number answers were both used
    assert any(not t.isdigit() and t not in ("xyz", "zz") for t in human.typed)
    assert sum(t.isdigit() for t in human.typed) >= 5
    # the auction, the skat and the result with its explanation
    assert "You pick up the skat." in text
    assert "The skat was" in text
    assert re.search(r"(Left|Right) \((fore|middle|rear)hand\) (bids \d+|holds \d+|passes)", text)
    assert result.valuation is not None
    assert f"Value: {result.valuation.explanation}" in text
    assert ("won." in text) == result.valuation.won
    assert "Final standings" in text
    assert "The seed is revealed: replay this list with --seed " + declarer_seed.hex() in text
    for t in outcome.series.totals():
        assert f"{['You', 'Left', 'Right'][t.seat]}: {t.total} " in text
    assert assert_no_leak(human, outcome, text) > 50


def test_discard_by_two_numbers_and_hand_order(declarer_seed: bytes) -> None:
    human = new_human(discard_mode="numbers", text_at=0)
    outcome, text = play(human, declarer_seed)
    deal = outcome.series.deals[0]
    discards = [a for s, a in deal.history if s == 0 and isinstance(a, Discard)]
    assert len(discards) == 1
    prompt = next(v for _, v in human.prompts if v.phase is Phase.DISCARD)
    typed = next(t for t in human.typed if re.fullmatch(r"\d+ \d+", t))
    cards12 = discard_cards(prompt)
    assert set(discards[0].cards) == {cards12[int(n) - 1] for n in typed.split()}
    assert "put away" in text
    # during play the hand is shown in the order of the game
    play_view = next(v for _, v in human.prompts if v.phase is Phase.PLAY)
    assert play_view.contract is not None
    labels = " ".join(card_text(c) for c in sorted_cards(play_view.hand, play_view.contract.game))
    assert f"Your cards: {labels}" in text
    # during bidding in Grand order
    first = human.prompts[0][1]
    labels = " ".join(card_text(c) for c in sorted_cards(first.hand, GameType.GRAND))
    assert f"Your cards: {labels}" in text
    assert_no_leak(human, outcome, text)


def test_quit_with_q_leaves_cleanly() -> None:
    human = new_human(quit_at=1)
    outcome, text = play(human, seed_of(1), ListOptions(deals=3))
    assert not outcome.finished and outcome.quit_reason == "quit"
    assert "You leave the table. Goodbye!" in text
    assert "Final standings" not in text
    assert_no_leak(human, outcome, text)


def test_quit_in_the_second_deal_shows_standings_so_far() -> None:
    human = new_human()
    outcome, text = play(human, seed_of(3), ListOptions(deals=2))
    assert outcome.finished
    second = text.index("━━ Deal 2 of 2")
    first_prompt_of_deal_2 = 1 + sum(1 for pos, _ in human.prompts if pos < second)
    human2 = new_human(quit_at=first_prompt_of_deal_2)
    outcome2, text2 = play(human2, seed_of(3), ListOptions(deals=2))
    assert outcome2.quit_reason == "quit" and len(outcome2.series.rows) == 1
    assert text2[:second] == text[:second]  # the same deal 1, answered the same way
    assert "Standings so far (Seeger-Fabian, 1 deal)" in text2
    assert "Final standings" not in text2
    assert_no_leak(human2, outcome2, text2)


def test_end_of_input_leaves_cleanly() -> None:
    human = new_human(eof_at=3)
    outcome, text = play(human, seed_of(5), ListOptions(deals=2))
    if outcome.finished:  # the deal ended before the third prompt; unlikely
        pytest.skip("no third prompt")
    assert outcome.quit_reason == "eof"
    assert "End of input: you leave the table. Goodbye!" in text
    assert_no_leak(human, outcome, text)


@pytest.mark.arena
def test_many_lists_never_leak_and_always_finish() -> None:
    """Lists under several house rules, the human answering by number."""
    rule_sets: list[dict[str, object]] = [
        {},
        {"all_pass": "ramsch"},
        {"kontra": True},
        {"kontra": True, "kontra_window": "first_lead"},
        {"bock": True, "ramsch_after_bock": True, "kontra": True},
        {"scoring": "plain"},
    ]
    ouvert = kontra = ramsch = 0
    runs = [(rules, 100 + i, 4) for i, rules in enumerate(rule_sets * 4)]
    runs.append(({"all_pass": "ramsch"}, 116, 3))  # all pass in deal 2: a Ramsch
    for rules, seed, deals in runs:
        human = new_human()
        options = ListOptions.from_dict({**rules, "deals": deals})
        outcome, text = play(human, seed_of(seed), options, ("random", "heuristic"))
        assert outcome.finished, text[-2000:]
        assert "Final standings" in text
        assert_no_leak(human, outcome, text)
        for deal in outcome.series.deals:
            r = deal.result
            assert r is not None
            if r.valuation is not None:
                assert r.valuation.explanation in text
            if r.contract is not None and r.contract.ouvert and r.declarer_seat != 0:
                assert "lays the cards open" in text
                ouvert += 1
            kontra += r.kontra
            ramsch += r.kind == "ramsch"
    assert ouvert and kontra and ramsch


# ----------------------------------------------------------------- parsing
def test_card_words() -> None:
    for word in ("ST", "st", "S10", "♠10", "10S", "s10", "♠T"):
        assert parse_card_word(word) == Card.ST, word
    assert parse_card_word("CJ") == Card.CJ
    assert parse_card_word("h7") == Card.H7
    for word in ("", "x", "S1", "Z9", "S11", "10", "hello"):
        assert parse_card_word(word) is None, word


def _view_at(phase: Phase, seed: int = 0) -> View:
    from skat.engine import Deal
    from skat.series import deal_deck

    deal = Deal(deal_deck(seed_of(seed), 1))
    while deal.phase is not phase:
        deal.apply(deal.legal_actions()[-1] if deal.phase is Phase.BIDDING else _first(deal))
    seat = deal.current_seat
    assert seat is not None
    return deal.view(seat)


def _first(deal: object) -> Action:
    legal = deal.legal_actions()  # type: ignore[attr-defined]
    return legal[0]  # type: ignore[no-any-return]


def test_interpret_answers() -> None:
    bidding = _view_at(Phase.BIDDING)
    menu = choices(bidding)
    assert interpret("1", bidding, menu) == Pass()
    assert interpret(" 2 ", bidding, menu) == Bid(18)
    assert interpret("pass", bidding, menu) == Pass()
    assert interpret("bid 48", bidding, menu) == Bid(48)
    assert interpret("hold", bidding, menu) == Hold()  # understood; the rules judge it
    assert len(menu) == 7  # pass and the next six bids; higher ones are typed
    for bad, why in (
        ("xyz", "not understood"),
        ("99", "no choice 99"),
        ("0", "no choice 0"),
        ("", "type a number"),
        ("bid x", "no bid"),
    ):
        with pytest.raises(BadInput, match=why):
            interpret(bad, bidding, menu)
    skat = _view_at(Phase.SKAT)
    menu = choices(skat)
    assert menu[0].action == Pickup()
    assert interpret("pick up", skat, menu) == Pickup()
    grand_hand = Announce(Contract(GameType.GRAND, hand=True))
    assert interpret("grand", skat, menu) == grand_hand
    assert interpret("announce grand", skat, menu) == grand_hand
    assert interpret("grand hand ouvert", skat, menu) == Announce(
        Contract(GameType.GRAND, True, True, True, True)
    )
    assert all(a.action in skat.legal_actions for a in menu)
    discard = _view_at(Phase.DISCARD)
    cards12 = discard_cards(discard)
    assert len(cards12) == 12
    a, b = cards12[0], cards12[5]
    expected = Discard(tuple(sorted((a, b))))
    assert interpret("1 6", discard, []) == expected
    assert interpret(f"{b.name} {a.name}", discard, []) == expected
    assert interpret(f"discard {a.name}, {b.name}", discard, []) == expected
    for bad, why in (
        ("1", "exactly two"),
        ("1 1", "two different"),
        ("1 13", "no card 13"),
        ("1 zz", "'zz' is not a card"),
        ("1 2 3", "exactly two"),
    ):
        with pytest.raises(BadInput, match=why):
            interpret(bad, discard, [])
    play_view = _view_at(Phase.PLAY)
    menu = choices(play_view)
    assert all(isinstance(c.action, Play) for c in menu)
    card = menu[0].action
    assert isinstance(card, Play)
    assert interpret(card.card.name, play_view, menu) == card
    assert interpret(f"play {card.card.name.lower()}", play_view, menu) == card
    assert interpret(card_text(card.card), play_view, menu) == card


# ----------------------------------------------------------------- the command
def _cli(*args: str, input: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["play", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def test_cli_plays_a_one_deal_list_by_numbers() -> None:
    seed = seed_of(0).hex()
    code, out, err = _cli(
        "--deals", "1", "--seed", seed, "--opponents", "heuristic", "random", input="1\n" * 400
    )
    assert code == 0, err
    assert "Deal 1 of 1" in out and "Result of deal 1" in out
    assert "Final standings (Seeger-Fabian, 1 deal)" in out
    assert "Left (heuristic)" in out and "Right (random)" in out
    assert "\x1b[" not in out  # no colour codes when stdout is not a terminal
    again = _cli(
        "--deals",
        "1",
        "--seed",
        seed,
        "--left",
        "heuristic",
        "--right",
        "random",
        input="1\n" * 400,
    )
    assert again[1] == out  # the seed makes the list reproducible


def test_cli_quits_with_q_and_at_end_of_input() -> None:
    code, out, _ = _cli("--deals", "2", input="q\n")
    assert code == 0 and "You leave the table. Goodbye!" in out
    code, out, _ = _cli("--deals", "2", input="")
    assert code == 0 and "End of input: you leave the table. Goodbye!" in out
    code, out, _ = _cli("--deals", "1", input="banana\n7777\nq\n")
    assert code == 0
    assert "✗ not understood: 'banana'" in out and "✗ there is no choice 7777" in out


def test_cli_rejects_bad_options() -> None:
    for args, msg in (
        (["--opponents", "heuristic", "nobody"], "no player named 'nobody'"),
        (["--left", "nobody"], "no player named 'nobody'"),
        (["--seed", "abc"], "skat play:"),
        (["--seed", "ab" * 16], "64 hex digits"),
        (["--rules", '{"players": 4}'], "three players"),
        (["--rules", '{"colour": 1}'], "unknown option"),
        (["--rules", "[1]"], "JSON object"),
        (["--deals", "0"], "positive"),
    ):
        code, _, err = _cli(*args, input="")
        assert code == 2, args
        assert msg in err, (args, err)


def test_interpret_refuses_garbage_with_a_reason_and_never_crashes() -> None:
    rng = random.Random(1)
    alphabet = "abcdehjkloqrstuwxyz0123456789 ,.-!?[]♠♥♦♣²١"
    words = ["bid", "play", "discard", "grand", "hand", "ouvert", "null", "ST", "S10", "9" * 5000]
    words += ["²", "pass", "hold", "kontra", "re", "1", "13", "0", "leave", "claim", "[red]"]
    views = [_view_at(p) for p in (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.PLAY)]
    for _ in range(3000):
        view = rng.choice(views)
        if rng.random() < 0.5:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
        else:
            text = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 4)))
        try:
            interpret(text, view, choices(view))
        except ValueError as exc:
            assert str(exc) and "\n" not in str(exc)
