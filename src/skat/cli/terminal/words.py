"""The words of the terminal game: cards as text and coloured markup, the
numbered menu of the person's turn with friendly words for each action, and
`interpret`, which turns a typed answer (a number, ``pass``, ``bid 20``,
``ST``, ``grand hand``, two cards to put away) into an action, or a
`BadInput` with a one-line reason. No rule is decided here: the menu is a
subset of the view's legal actions, and the game checks every answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.markup import escape

from ...engine import (
    Action,
    Announce,
    Bid,
    Card,
    Contract,
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

SUIT_SYMBOLS = ("♣", "♠", "♥", "♦")
SUIT_LETTERS = ("C", "S", "H", "D")
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
#: A four-colour deck, as at tournaments: clubs black, spades green, hearts red, diamonds yellow.
SUIT_STYLES = ("bold", "bold green", "bold red", "bold yellow")
RANK_LABELS = ("A", "10", "K", "Q", "J", "9", "8", "7")
#: How many bids the menu lists; higher ones are typed (``bid 48``).
BIDS_SHOWN = 6

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


class BadInput(ValueError):
    """An answer that cannot be understood; the message is the one-line reason."""


@dataclass(frozen=True)
class Choice:
    """One numbered entry of the menu: rich markup and the action it stands for."""

    label: str
    action: Action


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
    if choosing_two(view):
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


def choosing_two(view: View) -> bool:
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
    if choosing_two(view):
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
