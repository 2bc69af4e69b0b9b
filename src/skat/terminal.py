"""``skat play``: a game of Skat in the terminal against two computer players.

The human sits in seat 0 ("You"); the computer players sit to the left
(seat 1, who plays after you) and to the right (seat 2). Everything the game
shows comes from the human's view, ``deal.view(0)`` (SKAT-RULES.md R3.7): the
other hands and the skat stay hidden until the deal is over, only played
cards and the declarer's open cards in Ouvert games are shown. The list is a
real `Series` with a committed seed, so a list can be replayed with
``--seed``.

`run_game` is the testable core: it reads answers line by line from any text
source and writes to a rich `Console` (colours only where the console has
them, so output stays plain when it is piped or captured).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from .engine import (
    Action,
    Announce,
    Bid,
    Card,
    Contract,
    Deal,
    Discard,
    GameType,
    Hold,
    IllegalActionError,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Phase,
    Pickup,
    Play,
    Re,
    View,
    parse_action,
    sorted_cards,
)
from .engine.deal import POSITION_NAMES
from .players import Player, make_player
from .players.loop import play_deal
from .series import ListOptions, Series

SEAT_NAMES = ("You", "Left", "Right")
SUIT_SYMBOLS = ("♣", "♠", "♥", "♦")
SUIT_LETTERS = ("C", "S", "H", "D")
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
#: A four-colour deck, as at tournaments: clubs black, spades green, hearts red, diamonds yellow.
SUIT_STYLES = ("bold", "bold green", "bold red", "bold yellow")
RANK_LABELS = ("A", "10", "K", "Q", "J", "9", "8", "7")
#: How many bids the menu lists; higher ones are typed (``bid 48``).
BIDS_SHOWN = 6
QUIT_WORDS = ("q", "quit", "exit")

_SUIT_INPUT = {
    "c": 0,
    "♣": 0,
    "♧": 0,
    "s": 1,
    "♠": 1,
    "♤": 1,
    "h": 2,
    "♥": 2,
    "♡": 2,
    "d": 3,
    "♦": 3,
    "♢": 3,
}
_RANK_INPUT = {"a": 0, "t": 1, "10": 1, "k": 2, "q": 3, "j": 4, "9": 5, "8": 6, "7": 7}
_ALIASES: dict[str, Action] = {
    "p": Pass(),
    "no": Pass(),
    "n": Pass(),
    "h": Hold(),
    "yes": Hold(),
    "y": Hold(),
    "pick": Pickup(),
    "pick up": Pickup(),
    "pick up the skat": Pickup(),
    "take": Pickup(),
    "skat": Pickup(),
    "kontra!": Kontra(),
    "re!": Re(),
    "no kontra": NoKontra(),
    "no re": NoRe(),
}


#: Replacements for the decoration characters on a console without Unicode.
_ASCII = str.maketrans({"━": "=", "─": "-", "→": "->", "✗": "x", "»": ">>", "…": "...", "·": "-"})


class LineSource(Protocol):
    """Where answers come from: ``sys.stdin`` or anything with ``readline``."""

    def readline(self) -> str: ...


class QuitGame(Exception):
    """The human left: ``q`` (``reason='quit'``) or the end of the input (``'eof'``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadInput(ValueError):
    """An answer that cannot be understood; the message is the one-line reason."""


@dataclass(frozen=True)
class Choice:
    """One numbered entry of the menu: rich markup and the action it stands for."""

    label: str
    action: Action


@dataclass
class GameOutcome:
    """What `run_game` returns: the list as far as it went, and why it ended."""

    series: Series
    finished: bool
    quit_reason: str | None = None  # "quit" or "eof" when the human left early


# ------------------------------------------------------------------ cards
def card_text(card: int, symbols: bool = True) -> str:
    """Plain label of a card: ``'♠10'`` (or ``'S10'`` without symbols)."""
    c = Card(card)
    return (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[c.suit] + RANK_LABELS[c.rank]


def card_markup(card: int, symbols: bool = True) -> str:
    """A card in rich markup, coloured by suit."""
    c = Card(card)
    return f"[{SUIT_STYLES[c.suit]}]{card_text(c, symbols)}[/]"


def cards_markup(cards: Sequence[int], symbols: bool = True) -> str:
    return " ".join(card_markup(c, symbols) for c in cards) if cards else "-"


def parse_card_word(word: str) -> Card | None:
    """A card typed as ``ST``, ``S10``, ``♠10``, ``10S`` or ``st``; None if it is none."""
    w = word.strip().lower()
    if len(w) < 2:
        return None
    for suit_text, rank_text in ((w[0], w[1:]), (w[-1], w[:-1])):
        if suit_text in _SUIT_INPUT and rank_text in _RANK_INPUT:
            return Card(8 * _SUIT_INPUT[suit_text] + _RANK_INPUT[rank_text])
    return None


def hand_order(view: View) -> GameType | None:
    """The order to show the hand in: the game once announced, else Grand order."""
    return view.contract.game if view.contract is not None else None


# ------------------------------------------------------------------ menu
def action_markup(action: Action, symbols: bool = True) -> str:
    """Friendly words for an action: ``bid 20``, ``pick up the skat``, ``Grand Hand``."""
    if isinstance(action, Bid):
        return f"bid {action.value}"
    if isinstance(action, Hold):
        return "hold"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Pickup):
        return "pick up the skat"
    if isinstance(action, Announce):
        return action.contract.describe()
    if isinstance(action, Discard):
        return "put away " + cards_markup(action.cards, symbols)
    if isinstance(action, Play):
        return card_markup(action.card, symbols)
    if isinstance(action, Kontra):
        return "Kontra!"
    if isinstance(action, NoKontra):
        return "no Kontra"
    if isinstance(action, Re):
        return "Re!"
    if isinstance(action, NoRe):
        return "no Re"
    return escape(str(action))


def choices(view: View, symbols: bool = True) -> list[Choice]:
    """The numbered menu for the human's turn (a subset of ``view.legal_actions``).

    Bids are cut to the next few values and Hand games to the plain ones; the
    rest can be typed (``bid 48``, ``grand hand schneider``). In the discard
    phase the menu is empty: the numbers are those of `discard_cards`.
    """
    legal = view.legal_actions
    if _choosing_two(view):
        return []
    picked: list[Action] = []
    bids = 0
    for a in legal:
        if isinstance(a, Bid):
            bids += 1
            if bids > BIDS_SHOWN:
                continue
        if isinstance(a, Announce) and view.phase is Phase.SKAT:
            c = a.contract
            if c.schneider or (c.ouvert and c.game != GameType.NULL):
                continue
        picked.append(a)
    return [Choice(action_markup(a, symbols), a) for a in picked]


def _choosing_two(view: View) -> bool:
    """Two cards to put away, or to push on in a Schieberamsch (numbered)."""
    return view.phase is Phase.DISCARD or (view.phase is Phase.PUSH and len(view.hand) == 12)


def discard_cards(view: View) -> list[Card]:
    """The declarer's twelve cards, numbered for the discard."""
    return sorted_cards(view.hand, None)


def interpret(text: str, view: View, menu: Sequence[Choice]) -> Action:
    """Turn one answer into an action (not yet checked against the rules).

    Raises `BadInput` with a one-line reason for what cannot be understood.
    """
    t = " ".join(text.strip().split())
    if not t:
        raise BadInput("type a number from the list, an action, or q to quit")
    if _choosing_two(view):
        return _interpret_discard(t, view)
    n = _number(t)
    if n is not None:
        if not menu:
            raise BadInput("there is nothing to choose by number now")
        if not 1 <= n <= len(menu):
            raise BadInput(f"there is no choice {n}: pick a number from 1 to {len(menu)}")
        return menu[n - 1].action
    low = t.lower()
    if low in _ALIASES:
        return _normalise(_ALIASES[low], view)
    try:
        return _normalise(parse_action(t), view)
    except IllegalActionError as exc:
        parse_error = exc.message
    words = low.split()
    if view.phase is Phase.PLAY and len(words) == 1:
        card = parse_card_word(words[0])
        if card is not None:
            return Play(card)
    if words[0] == "play" and len(words) == 2:
        card = parse_card_word(words[1])
        if card is None:
            raise BadInput(f"{words[1]!r} is not a card (cards look like ST, H8, CJ)")
        return Play(card)
    if view.phase in (Phase.SKAT, Phase.DECLARE):
        try:
            contract = Contract.parse(t.removeprefix("announce "))
        except ValueError:
            pass
        else:
            return _normalise(Announce(contract), view)
    if words[0] == "bid":
        raise BadInput(f"{t!r} is no bid: type e.g. 'bid 20' ({parse_error})")
    raise BadInput(
        f"not understood: {t!r}. Type a number from the list, an action like "
        "'pass' or a card like 'ST'; q quits"
    )


def _number(word: str) -> int | None:
    """A plain ASCII number (huge ones capped), else None."""
    if not (word.isascii() and word.isdigit()):
        return None
    return int(word) if len(word) <= 9 else 10**9


def _normalise(action: Action, view: View) -> Action:
    if isinstance(action, Announce):
        c = action.contract
        if view.phase is Phase.SKAT and not c.hand:
            c = Contract(c.game, True, c.schneider, c.schwarz, c.ouvert)  # only Hand is open
        return Announce(c.normalised())
    if isinstance(action, Discard):
        return Discard(tuple(sorted(action.cards)))
    return action


def _interpret_discard(t: str, view: View) -> Action:
    cards12 = discard_cards(view)
    words = t.replace(",", " ").split()
    if words and words[0].lower() in ("discard", "put", "away"):
        words = [w for w in words if w.lower() not in ("discard", "put", "away")]
    picked: list[Card] = []
    for w in words:
        n = _number(w)
        if n is not None:
            if not 1 <= n <= len(cards12):
                raise BadInput(f"there is no card {n}: pick numbers from 1 to {len(cards12)}")
            picked.append(cards12[n - 1])
            continue
        card = parse_card_word(w)
        if card is None:
            raise BadInput(f"{w!r} is not a card (cards look like ST, H8, CJ)")
        picked.append(card)
    if len(picked) != 2:
        raise BadInput("put away exactly two cards: type e.g. 'ST H8' or '3 7'")
    if picked[0] == picked[1]:
        raise BadInput("pick two different cards")
    return Discard(tuple(sorted(picked)))


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


class TerminalGame:
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
                _Paused(make_player(name, bot_rng(seed, seat)), pause)
                for seat, name in enumerate(opponents, 1)
            ),
        ]
        self.series = Series(options, seed=seed, names=self.names)
        self._before: View = self.series.deal.view(0)  # the person's view before a move

    # -- output helpers
    def say(self, markup: str = "", end: str = "\n") -> None:
        if not self.symbols:  # a console that cannot print them: plain ASCII
            markup = markup.translate(_ASCII)
        self.console.print(markup, highlight=False, soft_wrap=True, end=end)

    def card(self, c: int) -> str:
        return card_markup(c, self.symbols)

    def cards(self, cs: Sequence[int]) -> str:
        return cards_markup(cs, self.symbols)

    def who(self, seat: int) -> str:
        style = "bold cyan" if seat == 0 else "bold"
        return f"[{style}]{self.names[seat]}[/]"

    def verb(self, seat: int, you: str, other: str) -> str:
        return f"{self.who(seat)} {you if seat == 0 else other}"

    @staticmethod
    def position(view: View, seat: int) -> str:
        return POSITION_NAMES[view.seats.index(seat)] if seat in view.seats else "dealer"

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

    def show_turn(self, view: View, menu: Sequence[Choice]) -> None:
        self.say()
        pos = self.position(view, 0)
        ph = view.phase
        head = f"[bold cyan]» Your turn[/] ({pos})"
        if ph is Phase.BIDDING:
            if view.listener == 0 and view.bidder is not None:
                head += f": {self.who(view.bidder)} bids {view.bid}. Do you hold?"
            elif view.listener is None and view.bidder == 0:
                head += ": both others passed. Play at 18, or pass (throw in)?"
            else:
                now = f"the bid stands at {view.bid}" if view.bid else "nobody has bid yet"
                head += f": your bid ({now})."
        elif ph is Phase.SKAT:
            head += f": you won the auction at {view.bid}. Pick up the skat or play Hand."
        elif ph is Phase.DISCARD:
            head += ": put two cards away (e.g. '3 7' or 'ST H8')."
        elif ph is Phase.PUSH and len(view.hand) == 12:
            head += ": Schieberamsch: push two cards on, no jack (e.g. '3 7' or 'ST H8')."
        elif ph is Phase.PUSH:
            head += ": Schieberamsch: take the skat up, or pass it on unseen (doubles the deal)."
        elif ph is Phase.DECLARE:
            head += f": announce your game (the bid is {view.bid})."
        elif view.contract is not None:
            head += ": " + self._game_line(view)
        self.say(head)
        if ph in (Phase.PLAY, Phase.KONTRA):
            self._show_table(view)
        if _choosing_two(view):
            cards12 = discard_cards(view)
            if view.skat is not None:
                self.say(f"The skat was {self.cards(sorted_cards(view.skat, None))}.")
            self.say(
                "Your 12 cards: "
                + "  ".join(f"{i}) {self.card(c)}" for i, c in enumerate(cards12, 1))
            )
            return
        self.say(f"Your cards: {self.cards(sorted_cards(view.hand, hand_order(view)))}")
        self.say("  ".join(f"[bold]{i})[/] {c.label}" for i, c in enumerate(menu, 1)))
        hints = []
        if sum(isinstance(a, Bid) for a in view.legal_actions) > BIDS_SHOWN:
            hints.append("higher bids: type e.g. 'bid 48'")
        if ph is Phase.SKAT and len(menu) < len(view.legal_actions):
            hints.append("more announcements: e.g. 'grand hand schneider', 'clubs hand ouvert'")
        if hints:
            self.say("[dim](" + "; ".join(hints) + ")[/]")

    def _game_line(self, view: View) -> str:
        c = view.contract
        assert c is not None
        if c.game == GameType.RAMSCH:
            text = "Ramsch"
        else:
            d = view.declarer_seat
            text = f"{c.describe()}, declarer {self.who(d) if d is not None else '?'}"
            if view.re:
                text += ", Kontra and Re"
            elif view.kontra:
                text += ", Kontra"
        if view.phase is Phase.PLAY:
            text += f" · trick {len(view.tricks) + 1} of 10"
        elif view.phase is Phase.KONTRA:
            text += " · Kontra?" if not view.kontra else " · Re?"
        return text

    def _show_table(self, view: View) -> None:
        d = view.declarer_seat
        if view.open_cards is not None and d is not None and d != 0:
            shown = sorted_cards(view.open_cards, hand_order(view))
            self.say(f"{self.who(d)}'s open cards: {self.cards(shown)}")
        if view.tricks:
            won = [0] * view.players
            for t in view.tricks:
                won[view.seats[t.winner]] += 1
            self.say("Tricks won: " + ", ".join(f"{self.names[s]} {won[s]}" for s in range(3)))
        if view.trick:
            self.say(
                "On the table: " + ", ".join(f"{self.who(s)} {self.card(c)}" for s, c in view.trick)
            )
        elif view.phase is Phase.PLAY:
            self.say("You lead.")

    def show_help(self, view: View) -> None:
        self.say(
            "Answer with a number from the list, or in words: 'pass', 'hold', 'bid 30', "
            "'pick up', 'grand hand', 'clubs', 'null ouvert', 'ST' or 'play ST' (spades ten), "
            "'kontra', 're'. Cards: suit C S H D (or ♣ ♠ ♥ ♦) and rank A 10/T K Q J 9 8 7, "
            "e.g. ST, H8, CJ or S10. To put cards away type two cards or two numbers. "
            "'list' shows your choices again, q leaves the table."
        )

    # -- narration
    def narrate(self, before: View, after: View) -> None:
        seat, text = after.history[-1]
        pos = self.position(after, seat)
        if text == "discard":  # another seat's discard: hidden (R3.7)
            self.say(f"{self.verb(seat, 'put', 'puts')} two cards away.")
            action: Action | None = None
        else:
            action = parse_action(text)
        role = f"{self.who(seat)} ({pos})"
        if isinstance(action, Bid):
            self.say(f"{role} {'bid' if seat == 0 else 'bids'} {action.value}")
        elif isinstance(action, Hold):
            self.say(f"{role} {'hold' if seat == 0 else 'holds'} {after.bid}")
        elif isinstance(action, Pass):
            self.say(f"{role} {'pass' if seat == 0 else 'passes'}")
        elif isinstance(action, Pickup):
            self.say(f"{self.verb(seat, 'pick', 'picks')} up the skat.")
        elif isinstance(action, Discard):
            self.say(f"{self.verb(seat, 'put', 'puts')} away {self.cards(action.cards)}.")
        elif isinstance(action, Announce):
            self.say(
                f"{self.verb(seat, 'announce', 'announces')} "
                f"[bold]{action.contract.describe()}[/] (bid {after.bid})."
            )
            d = after.declarer_seat
            if after.open_cards is not None and d is not None and d != 0:
                shown = sorted_cards(after.open_cards, hand_order(after))
                self.say(f"{self.who(d)} lays the cards open: {self.cards(shown)}")
        elif isinstance(action, Play):
            self.say(f"{self.verb(seat, 'play', 'plays')} {self.card(action.card)}")
        elif isinstance(action, Kontra):
            self.say(f"{self.verb(seat, 'say', 'says')} [bold]Kontra![/]")
        elif isinstance(action, Re):
            self.say(f"{self.verb(seat, 'say', 'says')} [bold]Re![/]")
        elif isinstance(action, NoKontra):
            self.say(f"{self.who(seat)}: no Kontra.")
        elif isinstance(action, NoRe):
            self.say(f"{self.who(seat)}: no Re.")
        if len(after.tricks) > len(before.tricks):
            t = after.tricks[-1]
            w = after.seats[t.winner]
            self.say(
                f"  → {self.verb(w, 'take', 'takes')} trick {len(after.tricks)} "
                f"({t.points} points)."
            )
        if before.phase is Phase.BIDDING and after.phase is not Phase.BIDDING:
            self._auction_over(after)

    def _auction_over(self, view: View) -> None:
        d = view.declarer_seat
        if d is not None:
            self.say(f"{self.verb(d, 'win', 'wins')} the auction at {view.bid}.")
        elif view.phase is Phase.PUSH:
            self.say("Everybody passed: [bold]Schieberamsch[/]! The skat goes round first.")
        elif view.phase is Phase.PLAY:
            self.say("Everybody passed: [bold]Ramsch[/]! Take as few card points as you can.")
            self.say(f"Your cards: {self.cards(sorted_cards(view.hand, hand_order(view)))}")

    # -- results
    def show_result(self, view: View) -> None:
        r = view.result
        assert r is not None
        self.say()
        self.say(f"[bold magenta]── Result of deal {self.series.number} ──[/]")
        dealt = view.dealt
        assert dealt is not None
        if r.kind == "passed":
            self.say("Everybody passed: the deal is thrown in (nothing is scored).")
        elif r.kind == "ramsch":
            out = r.ramsch  # settled by the engine (engine/ramsch.py), read here
            assert out is not None
            seat_of = view.seats
            per_seat = {seat_of[p]: pts for p, pts in enumerate(out.points)}
            self.say(
                "Ramsch card points (the skat goes to the last trick): "
                + ", ".join(f"{self.who(s)} {per_seat.get(s, 0)}" for s in range(3))
            )
            if out.durchmarsch is not None:
                who = seat_of[out.durchmarsch]
                self.say(f"{self.verb(who, 'take', 'takes')} every trick: Durchmarsch!")
            for p in out.jungfrau:
                self.say(f"Jungfrau: {self.who(seat_of[p])} took no trick, the loss counts double.")
            for s in range(3):
                if r.plain[s] < 0:
                    self.say(f"{self.verb(s, 'get', 'gets')} {r.plain[s]} (most card points).")
        elif r.kind == "game" and r.valuation is not None and r.contract is not None:
            d = r.declarer_seat
            assert d is not None
            val = r.valuation
            verdict = "[bold green]won[/]" if val.won else "[bold red]lost[/]"
            self.say(
                f"{self.who(d)} played [bold]{r.contract.describe()}[/] at bid {r.bid}: {verdict}."
            )
            if r.contract.game == GameType.NULL:
                self.say(f"Declarer's tricks: {r.declarer_tricks}.")
            else:
                self.say(
                    f"Declarer's card points: {r.declarer_points} (skat included), "
                    f"tricks: {r.declarer_tricks}."
                )
            if r.ended == "early":
                self.say("The deal ended early (R6.6).")
            elif r.ended != "played":
                self.say(f"The deal ended: {r.ended.replace('_', ' ')}.")
            flags = []
            if val.schwarz:
                flags.append("Schwarz")
            elif val.schneider:
                flags.append("Schneider")
            if val.overbid:
                flags.append("overbid: the game is worth less than the bid")
            if flags:
                self.say("[bold]" + ", ".join(flags) + "[/]")
            self.say(f"Value: {escape(val.explanation)}")
            factor = []
            if r.kontra:
                factor.append("Kontra and Re x4" if r.re else "Kontra x2")
            if r.bock_factor > 1:
                factor.append(f"Bock x{r.bock_factor}")
            if factor:
                self.say("Doubled: " + ", ".join(factor) + ".")
        else:
            self.say(f"The deal ended: {r.kind}.")
        picked = any(t == "pickup" for _, t in view.history)
        skat_line = f"The skat: {self.cards(sorted_cards(dealt[3], None))}"
        if picked and view.skat is not None:
            skat_line += f"; put away: {self.cards(sorted_cards(view.skat, None))}"
        self.say(skat_line + ".")
        for p, s in enumerate(view.seats):
            if s != 0:
                order = r.contract.game if r.contract is not None else None
                self.say(f"{self.who(s)} had {self.cards(sorted_cards(dealt[p], order))}")
        row = self.series.rows[-1]
        entries = row.entries(self.options.scoring)
        self.say("This deal: " + ", ".join(f"{self.names[s]} {entries[s]:+d}" for s in range(3)))
        done, total = len(self.series.rows), self.options.deals_per_list
        self.say(
            f"[bold]Score after {done} of {total}[/]: "
            + ", ".join(f"{self.names[t.seat]} {t.total}" for t in self.series.totals())
        )

    def show_standings(self, final: bool) -> None:
        totals = sorted(self.series.totals(), key=lambda t: (t.place, t.seat))
        kind = "Seeger-Fabian" if self.options.scoring == "seeger_fabian" else "plain list"
        title = "Final standings" if final else "Standings so far"
        self.say()
        n = len(self.series.rows)
        self.say(f"[bold magenta]━━ {title} ({kind}, {n} deal{'s' if n != 1 else ''}) ━━[/]")
        for t in totals:
            self.say(
                f"{t.place}. {self.who(t.seat)}: {t.total} "
                f"(games won {t.won}, lost {t.lost}; game points {t.game_points})"
            )
        if final:
            top = [t for t in totals if t.place == 1]
            if len(top) > 1:
                self.say("Shared first place: " + ", ".join(self.who(t.seat) for t in top) + ".")
            elif top[0].seat == 0:
                self.say("[bold green]You win the list. Well played![/]")
            else:
                self.say(f"{self.who(top[0].seat)} wins the list.")


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
