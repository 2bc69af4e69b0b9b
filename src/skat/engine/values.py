"""Bid values, matadors, game values, winning and list entries (R2.1, R5-R8, R9.1, R9.6).

These are pure functions of the facts of a deal, shared by the deal state,
the ``skat value`` reckoner and the series. `value_game` is R6.5 with the
International Skat Server's refinement for deals ended early (ISS-FORMAT.md
4.2): a Schneider or Schwarz level is *suffered* by the declarer only once at
least one trick has been completed.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .cards import mask_points
from .game import BASE_VALUE, NULL_VALUES, TRUMP_ORDER, Contract, GameType, Rules

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_NULL = GameType.NULL
_RAMSCH = GameType.RAMSCH


def _bid_values() -> tuple[int, ...]:
    values = {b * k for b in (9, 10, 11, 12) for k in range(2, 19)}
    values |= {24 * k for k in range(2, 12)}
    values |= set(NULL_VALUES.values())
    return tuple(sorted(values))


#: The 63 legal bid values from 18 to 264 (R2.1).
BID_VALUES: tuple[int, ...] = _bid_values()
BID_SET = frozenset(BID_VALUES)
assert len(BID_VALUES) == 63 and BID_VALUES[0] == 18 and BID_VALUES[-1] == 264


def matadors(game: GameType, cards12: int, rules: Rules | None = None) -> int:
    """Signed matadors of R5.2: +n "with n", -n "without n"; 0 for Null and Ramsch.

    ``cards12`` is the mask of the declarer's ten dealt cards plus the skat as
    dealt. ``rules`` (a table's house rules) may count fewer: `Rules.max_matadors`.
    """
    order = TRUMP_ORDER[game]
    if game == _NULL or not order:
        return 0
    holds_top = bool(cards12 >> order[0] & 1)
    n = 0
    for t in order:
        if bool(cards12 >> t & 1) == holds_top:
            n += 1
        else:
            break
    if rules is not None and rules.max_matadors is not None:
        n = min(n, rules.max_matadors)
    return n if holds_top else -n


_LEVEL_NAMES = (
    "Hand",
    "Schneider",
    "Schneider announced",
    "Schwarz",
    "Schwarz announced",
    "Ouvert",
)
#: The levels as keys (for `Valuation.parts`), in the order of `_LEVEL_NAMES`.
LEVEL_KEYS = tuple(n.lower().replace(" ", "_") for n in _LEVEL_NAMES)
_WORDS = {"with": "with", "without": "without", "game": "game"} | dict(
    zip(LEVEL_KEYS, _LEVEL_NAMES, strict=True)
)


class Valuation(NamedTuple):
    """The value of a declared game and whether it was won (R5-R7)."""

    contract: Contract
    bid: int
    matadors: int
    multiplier: int  # 0 for Null
    value: int  # R6.5: the game value, or the charged amount when overbid
    won: bool
    overbid: bool
    schneider: bool  # reached in play (ISS-FORMAT.md 4.3)
    schwarz: bool
    levels: int = 0  # bit i set: level _LEVEL_NAMES[i] counts

    @property
    def parts(self) -> tuple[tuple[str, int], ...]:
        """The value's reckoning as ``(term, number)`` steps, for front ends to
        word in any language without knowing the rules (R5, R6.5):

        - suit and Grand: ``("with"|"without", n)``, ``("game", n + 1)``, one
          ``(level, running multiplier)`` per level that counts (``hand``,
          ``schneider``, ``schneider_announced``, ``schwarz``,
          ``schwarz_announced``, ``ouvert``), ``("base", base value)``,
          ``("total", multiplier x base)``; when overbid also ``("bid", bid)``
          and ``("charged", multiple of the base)``, ``("value", charged amount)``;
        - Null: ``("null", value)`` (the contract says which Null).
        """
        c = self.contract
        if c.game == _NULL:
            return (("null", self.value),)
        n = abs(self.matadors)
        out: list[tuple[str, int]] = [("with" if self.matadors > 0 else "without", n)]
        mult = n + 1
        out.append(("game", mult))
        for i, key in enumerate(LEVEL_KEYS):
            if self.levels >> i & 1:
                mult += 1
                out.append((key, mult))
        base = BASE_VALUE[c.game]
        out += [("base", base), ("total", mult * base)]
        if self.overbid:
            out += [("bid", self.bid), ("charged", self.value // base), ("value", self.value)]
        return tuple(out)

    @property
    def explanation(self) -> str:
        """In words: ``'with 2, game 3, Hand 4 x 12 = 48'`` (and the overbid charge)."""
        c = self.contract
        if c.game == _NULL:
            name = "Null" + (" Ouvert" if c.ouvert else "") + (" Hand" if c.hand else "")
            return f"{name} = {self.value}"
        steps = dict(self.parts)
        words = [f"{_WORDS[k]} {n}" for k, n in self.parts if k in _WORDS]
        text = f"{', '.join(words)} x {steps['base']} = {steps['total']}"
        if self.overbid:
            text += (
                f" < bid {self.bid}: overbid, charged {steps['base']} x {steps['charged']}"
                f" = {self.value}"
            )
        return text

    def plain_entry(self, factor: int = 1) -> int:
        """The declarer's plain-list entry (R8.1) with a Kontra/Re/Bock factor (R9.6)."""
        v = self.value * factor
        return v if self.won else -2 * v

    def seeger_fabian_entry(self, factor: int = 1) -> int:
        """The declarer's Seeger-Fabian entry (R8.2); the 50 is never multiplied."""
        return self.plain_entry(factor) + (50 if self.won else -50)


Outcome = Literal["played", "declarer_lost", "defenders_lost"]


def value_game(
    contract: Contract,
    bid: int,
    declarer_points: int,
    declarer_tricks: int,
    cards12: int,
    *,
    tricks_played: int = 10,
    outcome: Outcome = "played",
    rules: Rules | None = None,
    claimed: int | None = None,
) -> Valuation:
    """Settle a declared game (R6.5, R7) under ``rules`` (a table's house
    rules that change a game's value; None: the ISkO's).

    ``outcome`` forces the result of a deal ended by concession, time-out or
    leaving (ISS-FORMAT.md 4.2): ``declarer_lost`` or ``defenders_lost`` (the
    latter still loses when overbid).

    ``claimed`` (with ``defenders_lost``): the defenders accepted the
    declarer's claim at that level (0 the game, 1 Schneider, 2 Schwarz):
    R6.6, a level beyond the announced ones counts only if claimed, whatever
    the cards handed over would have made.
    """
    c = contract.normalised()
    if c.game == _NULL:
        value = NULL_VALUES[c.hand, c.ouvert]
        won = declarer_tricks == 0 if outcome == "played" else outcome == "defenders_lost"
        return Valuation(c, bid, 0, 0, value, won, False, False, False)
    if c.game == _RAMSCH:
        raise ValueError("Ramsch has no declarer; see ramsch.entries()")
    base = BASE_VALUE[c.game]
    m = matadors(c.game, cards12, rules)
    sa, wa = c.schneider, c.schwarz
    played = tricks_played > 0
    if outcome == "played":
        if wa:
            made = declarer_tricks == 10
        elif sa:
            made = declarer_points >= 90
        else:
            made = declarer_points >= 61
    else:
        made = outcome == "defenders_lost"
    # Levels reached in play, for either party (R5.3); suffered only after a trick.
    schneider = declarer_points >= 90 or (played and declarer_points <= 30) or sa
    schwarz = declarer_tricks == 10 or (played and declarer_tricks == 0) or wa
    if claimed is not None and made:  # R6.6: only what was claimed
        schneider, schwarz = claimed >= 1 or sa or wa, claimed >= 2 or wa
    levels = c.hand | schneider << 1 | sa << 2 | schwarz << 3 | wa << 4 | c.ouvert << 5
    mult = abs(m) + 1 + levels.bit_count()
    value = mult * base
    overbid = value < bid
    if overbid:  # R7.2
        value = base * -(-bid // base)
    # ISS-FORMAT.md 4.3: the flags report what was reached or suffered beyond
    # what was announced when the contract failed.
    if made and claimed is not None:
        s_flag, z_flag = schneider, schwarz
    elif made:
        s_flag, z_flag = declarer_points >= 90 or declarer_tricks == 10, declarer_tricks == 10
    else:
        s_flag = not sa and played and declarer_points <= 30
        z_flag = not wa and played and declarer_tricks == 0
    return Valuation(c, bid, m, mult, value, made and not overbid, overbid, s_flag, z_flag, levels)


def seeger_fabian_others(won: bool, players: int) -> int:
    """What each other player at the table gets under Seeger-Fabian (R8.2)."""
    if won:
        return 0
    return 40 if players == 3 else 30


def reachable_max(game: GameType, cards12: int, rules: Rules | None = None) -> int:
    """The highest value a pickup suit/Grand game could reach (R3.5): (n + 3) x base."""
    return (abs(matadors(game, cards12, rules)) + 3) * BASE_VALUE[game]


__all__ = [
    "BID_VALUES",
    "Valuation",
    "mask_points",
    "matadors",
    "reachable_max",
    "seeger_fabian_others",
    "value_game",
]
