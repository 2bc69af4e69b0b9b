"""The strong player's settings: one frozen value, each setting documented
once, and the constants its decisions use (docs/players.md).

Only what the product plays with is here. Switches that were measured and
not kept (the solved auction, the partner model, the lookahead, the
rejudged auction, ...) are gone; their measurements stay in
docs/lab/strength-log.md, and the players they made are measured again
from an older commit (docs/players.md, "Settings").
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import bidmodel, seatmodel
from ..handeval import BID_FLOOR, CONTEST
from ..worlds import BID_MISS, PASS_MISS, Inference

Curve = tuple[tuple[int, float], ...]

#: Plain Null is not played open: the defenders do not see the declarer's
#: cards, so of the Nulls the open-card solve loses this share is counted won.
NULL_HIDDEN = 0.3
#: Worlds after which the discard keeps only the best games (successive halving).
PROBE = 3
#: Candidate discards per game (by the quick score) solved after the pickup.
DISCARDS = 3
#: After PROBE worlds of the discard, a second game goes on only this close to the best.
DISCARD_SPREAD = 25.0
#: A card-play world is this much less likely for every card another seat
#: played that `heuristic` would not have played with that world's hand.
PLAY_MISS = 0.3
#: The real win chance of a suit game by the declarer's open-card points
#: from its first card: (points reached, chance); the first threshold
#: reached gives the chance. The open-card defence sees every card, a real
#: one does not. Calibrated on the 191 suit games `search` declared against
#: `heuristic` on 150 arena deals (docs/lab/strength-log.md).
WIN_CURVE: Curve = ((53, 0.97), (41, 0.65), (0, 0.25))
#: Kontra when the declarer wins at most this share of the worlds; Re when at least.
KONTRA_P = 0.35
RE_P = 0.8
#: The points tie-break solves the first this many worlds of a card
#: decision: level in play against three opponents with all of them (8-20),
#: at 0.82 times the CPU of a whole deal (docs/lab/strength-log.md).
TIEBREAK_WORLDS = 4
#: The same while nine or ten cards are in hand, where its solves are the
#: longest: none (`heuristic` takes the tied cards there).
EARLY_TIEBREAK_WORLDS = 0
#: With a ``time_budget`` the solver stops any search at this multiple of
#: it, when the server stops waiting (it gives the search 3/4 of its own).
HARD_LIMIT = 4 / 3


@dataclass(frozen=True)
class SearchSettings:
    """How the strong player searches. The defaults are the product's
    ``strong`` level; ``club`` (the casual level) plays its cards with
    ``worlds=16, time_budget=0.015, early_tiebreak_worlds=None, bid_model=False``."""

    #: Worlds per card decision (half of them at nine or ten cards in hand,
    #: three quarters at seven or eight, where the solves are longest).
    worlds: int = 20
    #: Worlds for the discard and the game after the pickup.
    discard_worlds: int = 8
    #: Seconds a decision may think (None: the fixed number of worlds, so a
    #: seed replays exactly; the arena's and the tests' choice). With a
    #: budget it stops adding worlds when the time is up.
    time_budget: float | None = None
    #: Seconds after which the solver stops whatever it searches (None:
    #: ``HARD_LIMIT`` times ``time_budget``). The server gives what is left
    #: of its own wait, so that a search cut to a short share of the search
    #: processes (many tables starting together) still finishes one world.
    time_limit: float | None = None
    #: Errors propagate instead of falling back to `heuristic` (tests).
    strict: bool = False
    #: Worlds drawn per world used in card play (the inference keeps the likeliest).
    pool: int = 3
    #: A card-play world's weight for every card another seat played that
    #: `heuristic` would not have played with that world's hand
    #: (`worlds.Inference`; None: the cards played are not read).
    play_miss: float | None = PLAY_MISS
    #: A world's weight for a bid or hold above what `heuristic` would bid.
    bid_miss: float = BID_MISS
    #: A world's weight for a pass where `heuristic` would have bid.
    pass_miss: float = PASS_MISS
    #: The auction read by `heuristic`'s own bidding rule (False: by the
    #: value of the best game in the hand).
    exact: bool = True
    #: Card points added to 61 for a Grand solved before play (negative: the
    #: open-card defence is pessimistic for the declarer).
    margin: int = -8
    #: The same for Schneider's 90.
    schneider_margin: int = 0
    #: The real win chance of a suit game by its open-card points (`WIN_CURVE`).
    win_curve: Curve = WIN_CURVE
    #: How many worlds the hand evaluator's chances of the ten cards kept
    #: count for beside the solved worlds of a discard.
    prior_worlds: float = 4.0
    #: Cards tied on the expected entry go to the best open-card card points
    #: over the first this many worlds (None: all of them).
    tiebreak_worlds: int | None = TIEBREAK_WORLDS
    #: The same while nine or ten cards are in hand (None: ``tiebreak_worlds``).
    early_tiebreak_worlds: int | None = EARLY_TIEBREAK_WORLDS
    #: The bidding's chances lowered by what the other seats bid or held
    #: (`handeval.CONTEST`; empty: not lowered).
    contest: Curve = CONTEST
    #: The expected result a game must promise for a bid (`handeval.BID_FLOOR`).
    bid_floor: float = BID_FLOOR
    #: How much a defender's 40 from a lost game weighs in the declarer's
    #: choices (`handeval.FORTY`; None: 1 in the bid and Hand or pickup, 0
    #: in the discard and the game).
    forty: float | None = None
    #: Where the game looks decided (`decided`), cards tied on the expected
    #: entry go first to those that leave the other side the most replies
    #: that turn it, over the first this many worlds (0: not looked at).
    traps: int = 0
    #: Decided: the contract's fate is the same after every card in all
    #: but this share of the worlds.
    decided: float = 0.1
    #: The cards the other seats played read by the learned seat model
    #: (`seatmodel`, `worlds.model_fit`) instead of by `heuristic`'s rule.
    play_model: bool = False
    #: The other seats' bids and passes read by a mixture of `heuristic`'s
    #: rule and the learned bid model (`bidmodel`, `worlds.likelihood`;
    #: False: by the rule's factors alone, ``bid_miss`` and ``pass_miss``).
    bid_model: bool = True
    #: The learned card policy (`seatmodel.card_policy`, trained on `search`'s
    #: card choices): cards within this many points (per world) of the best
    #: expected entry count as tied, and the cards still tied after the
    #: points tie-break go to the policy's likeliest instead of `heuristic`'s
    #: card (None: not used; 0.0: only exact ties).
    policy: float | None = None

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.discard_worlds < 1 or self.pool < 1:
            raise ValueError("worlds, discard_worlds and pool must be at least 1")
        if self.time_budget is not None and self.time_budget <= 0:
            raise ValueError("time_budget must be positive (or None)")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError("time_limit must be positive (or None)")
        if self.policy is not None and self.policy < 0:
            raise ValueError("policy must be at least 0 (or None)")
        # curves given as lists (from a command line) are kept as tuples
        object.__setattr__(self, "win_curve", tuple(tuple(p) for p in self.win_curve))
        object.__setattr__(self, "contest", tuple(tuple(p) for p in self.contest))

    def inference(
        self,
        play: bool,
        seat_model: seatmodel.SeatModel | None = None,
        bids: bidmodel.BidModel | None = None,
    ) -> Inference:
        """How the worlds are weighted: by the auction, and in card play
        (``play``) by the cards played too; the models given, else the
        shipped ones where a setting asks for them. The player and the
        review (`skat.players.review`) weigh alike."""
        model = (seat_model or seatmodel.default()) if play and self.play_model else None
        return Inference(
            self.bid_miss,
            self.pass_miss,
            self.play_miss if play else None,
            self.exact,
            play_model=model,
            bid_model=(bids or bidmodel.default()) if self.bid_model else None,
        )


def settings_table() -> list[str]:
    """The Markdown rows of docs/players.md's settings table: each setting,
    its default and its comment above (a test keeps the page equal to it)."""
    import inspect
    from dataclasses import fields

    lines = inspect.getsource(SearchSettings).splitlines()
    notes: dict[str, str] = {}
    block: list[str] = []
    for line in lines:
        text = line.strip()
        if text.startswith("#:"):
            block.append(text[2:].strip())
        elif block and ":" in text:
            notes[text.split(":")[0]] = " ".join(block)
            block = []
    rows = []
    for f in fields(SearchSettings):
        rows.append(f"| `{f.name}` | {f.default!r} | {notes[f.name]} |")
    return rows
