"""The terminal game's loop: `run_game` and `TerminalGame`, one list with
the person in seat 0 against two computer players through the one game loop
of the players (`skat.players.loop`), the person's answers read line by line
from any text source and checked against the rules before they are played;
the computer players' RNGs come from the list's seed."""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from ...engine import Action, Deal, IllegalActionError, Play, View, sorted_cards
from ...engine.deal import POSITION_NAMES
from ...players import Player, make_player
from ...players.loop import play_deal
from ...series import ListOptions, Series
from .draw import Screen
from .words import action_markup, choices, hand_order, interpret

SEAT_NAMES = ("You", "Left", "Right")
QUIT_WORDS = ("q", "quit", "exit")


class LineSource(Protocol):
    """Where answers come from: ``sys.stdin`` or anything with ``readline``."""

    def readline(self) -> str: ...


class QuitGame(Exception):
    """The human left: ``q`` (``reason='quit'``) or the end of the input (``'eof'``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class GameOutcome:
    """What `run_game` returns: the list as far as it went, and why it ended."""

    series: Series
    finished: bool
    quit_reason: str | None = None  # "quit" or "eof" when the human left early


# ------------------------------------------------------------------ game
def bot_rng(seed: bytes, seat: int) -> random.Random:
    """The RNG of the computer player in ``seat``, drawn from the list's seed."""
    h = hashlib.sha256(b"skat-play/" + seed + bytes([seat])).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def run_game(
    input_stream: LineSource,
    console: Console,
    options: ListOptions,
    opponents: Sequence[str],
    seed: bytes,
    *,
    pause: float = 0.0,
    echo: bool | None = None,
    on_prompt: Callable[[View], None] | None = None,
) -> GameOutcome:
    """Play a list of ``options`` with the human in seat 0 against ``opponents``
    (two registered player names, left then right), reading answers from
    ``input_stream`` and writing to ``console``.

    ``pause`` waits that many seconds before each computer move; ``echo``
    repeats each answer after the prompt (default: when the input is not a
    terminal); ``on_prompt`` is called with the human's view before each
    answer is read (for tests). Leaving with ``q`` or at the end of the input
    returns normally with ``quit_reason`` set.
    """
    game = TerminalGame(input_stream, console, options, opponents, seed, pause, echo, on_prompt)
    return game.run()


class TerminalGame(Screen):
    """One list at the terminal; see `run_game`."""

    def __init__(
        self,
        input_stream: LineSource,
        console: Console,
        options: ListOptions,
        opponents: Sequence[str],
        seed: bytes,
        pause: float = 0.0,
        echo: bool | None = None,
        on_prompt: Callable[[View], None] | None = None,
    ) -> None:
        if options.players != 3:
            raise ValueError("skat play seats three players (you and two computer players)")
        if len(opponents) != 2:
            raise ValueError("two opponents are needed")
        self.input = input_stream
        self.console = console
        self.options = options
        self.opponents = list(opponents)
        self.seed = seed
        self.pause = pause
        if echo is None:
            isatty = getattr(input_stream, "isatty", None)
            echo = not (callable(isatty) and isatty())
        self.echo = echo
        self.on_prompt = on_prompt
        self.symbols = (console.encoding or "").lower().replace("-", "").startswith("utf")
        self.names = list(SEAT_NAMES)
        # the person is a player like the computer players: one game loop for all
        self.players: list[Player] = [
            _Person(self),
            *(
                _Paused(make_player(name, bot_rng(seed, seat), lab=True), pause)
                for seat, name in enumerate(opponents, 1)
            ),
        ]
        self.series = Series(options, seed=seed, names=self.names)
        self._before: View = self.series.deal.view(0)  # the person's view before a move

    # -- the list
    def run(self) -> GameOutcome:
        series = self.series
        o = self.options
        scoring = "Seeger-Fabian" if o.scoring == "seeger_fabian" else "plain"
        self.say(
            f"[bold]Skat[/]: you against {self.who(1)} ({escape(self.opponents[0])}) and "
            f"{self.who(2)} ({escape(self.opponents[1])}), "
            f"{o.deals_per_list} deal{'s' if o.deals_per_list != 1 else ''}, "
            f"{scoring} list."
        )
        extras = [
            name
            for name, on in (
                ("Ramsch when all pass", o.all_pass == "ramsch"),
                ("Kontra and Re", o.kontra),
                ("Bock", o.bock),
            )
            if on
        ]
        if extras:
            self.say("House rules: " + ", ".join(extras) + ".")
        self.say(f"Shuffle commitment {series.commitment[:16]}… (the seed is shown at the end).")
        self.say("Answer with a number from the list or an action in words; ? helps, q quits.")
        try:
            while True:
                self.play_deal()
                if series.is_over():
                    break
                series.next_deal()
        except QuitGame as exc:
            self.say()
            if exc.reason == "eof":
                self.say("End of input: you leave the table. Goodbye!")
            else:
                self.say("You leave the table. Goodbye!")
            if series.rows:
                self.show_standings(final=False)
            return GameOutcome(series, False, exc.reason)
        self.show_standings(final=True)
        seed = series.seed
        if seed is not None:
            self.say(f"The seed is revealed: replay this list with --seed {seed.hex()}")
        return GameOutcome(series, True)

    def play_deal(self) -> None:
        series = self.series
        deal = series.deal
        view = deal.view(0)
        self.say()
        n, total = series.number, self.options.deals_per_list
        self.say(f"[bold magenta]━━ Deal {n} of {total} ━━[/] dealer: {self.who(deal.dealer)}")
        roles = ", ".join(f"{POSITION_NAMES[p]} {self.who(s)}" for p, s in enumerate(view.seats))
        self.say(f"Seats: {roles}.")
        if deal.bock_factor > 1:
            self.say(f"[bold]Bock[/]: this deal counts x{deal.bock_factor}.")
        if deal.forced_ramsch:
            self.say("[bold]Ramsch round[/]: no bidding; take as few card points as you can.")
        self.say(f"Your cards: {self.cards(sorted_cards(view.hand, hand_order(view)))}")
        self._before = view

        def narrate(deal: Deal, seat: int, action: Action) -> None:
            after = deal.view(0)
            self.narrate(self._before, after)
            self._before = after

        play_deal(deal, self.players, on_action=narrate, apply=series.apply)
        self.show_result(deal.view(0))

    # -- the human's turn
    def ask(self, view: View) -> Action:
        menu = choices(view, self.symbols)
        self.show_turn(view, menu)
        while True:
            if self.on_prompt is not None:
                self.on_prompt(view)
            self.say("[bold cyan]Your choice[/] (number or words, ? help, q quit): ", end="")
            line = self.input.readline()
            if not line:
                if self.echo:
                    self.say()
                raise QuitGame("eof")
            text = line.strip()
            if self.echo:
                self.say(escape(text))
            if text.lower() in QUIT_WORDS:
                raise QuitGame("quit")
            if text in ("?", "help"):
                self.show_help(view)
                continue
            if text.lower() in ("list", "menu", "cards", "hand"):
                self.show_turn(view, menu)
                continue
            try:
                action = interpret(text, view, menu)
            except ValueError as exc:  # BadInput, or anything else the parsers refuse
                self.say(f"[red]✗[/] {escape(str(exc))}")
                continue
            reason = self.why_illegal(action, view)
            if reason is None:
                return action
            self.say(f"[red]✗[/] {reason}")

    def why_illegal(self, action: Action, view: View) -> str | None:
        """None for a legal action, else the one-line reason (rich markup)."""
        if action in view.legal_actions:
            return None
        if isinstance(action, Play):
            if action.card not in view.hand:
                return f"{self.card(action.card)} is not in your hand"
        # The engine's R10 reason (a revoke names the suit to follow), on a
        # copy of the deal: it changes nothing. No rule is checked here.
        trial: Deal = self.series.deal.clone()
        try:
            trial.apply(action, 0)
        except IllegalActionError as exc:
            return escape(exc.message)
        return f"'{action_markup(action, self.symbols)}' is not one of your choices now"


class _Person:
    """The person at the terminal as a `Player`: asked through the menu."""

    name = "person"

    def __init__(self, game: TerminalGame) -> None:
        self.game = game

    def choose(self, view: View) -> Action:
        return self.game.ask(view)  # checked against the rules before it returns

    def notify(self, seat: int, action: Action) -> None:
        return None


class _Paused:
    """A computer player that waits ``pause`` seconds before each move, so the
    person can follow."""

    def __init__(self, player: Player, pause: float) -> None:
        self.player = player
        self.name = player.name
        self.pause = pause

    def choose(self, view: View) -> Action:
        if self.pause:
            time.sleep(self.pause)
        return self.player.choose(view)

    def notify(self, seat: int, action: Action) -> None:
        self.player.notify(seat, action)
