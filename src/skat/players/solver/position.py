"""The open-card position a solver works on (all hands known), and the tables it uses.

Positions here are deal positions (0 forehand, 1 middlehand, 2 rearhand), never
table seats; `Position.from_deal` translates.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import Deal, GameType, Phase
from ...engine.cards import POINTS, mask_indices
from ...engine.game import EFFECTIVE, FOLLOW, TRICK_KEY

#: Search modes shared by both cores: what one trick is worth to the declarer.
POINTS_MODE = 0  # the card points of the trick when the declarer wins it
ALL_MODE = 1  # 1 when the declarer wins the trick (Schwarz: all of them)
NULL_MODE = 2  # 1 when a defender wins the trick (Null: all of them)

SOLVABLE = (
    GameType.CLUBS,
    GameType.SPADES,
    GameType.HEARTS,
    GameType.DIAMONDS,
    GameType.GRAND,
    GameType.NULL,
)


@dataclass(frozen=True, slots=True)
class Position:
    """All hands open: the contract, the trick in progress, what is won so far.

    ``hands`` are 32-bit card masks by position; ``trick`` holds the cards
    already played to the current trick in play order, led by ``leader``.
    ``declarer_points`` counts the skat in suit and Grand games.
    """

    game: GameType
    hands: tuple[int, int, int]
    declarer: int
    leader: int
    trick: tuple[int, ...] = ()
    declarer_points: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0

    def __post_init__(self) -> None:
        if self.game not in SOLVABLE:
            raise ValueError(f"the solver plays suit, Grand and Null games, not {self.game}")
        if not (0 <= self.declarer <= 2 and 0 <= self.leader <= 2):
            raise ValueError("declarer and leader are positions 0..2")
        if len(self.trick) > 2:
            raise ValueError("a trick in progress holds at most two cards")
        h0, h1, h2 = self.hands
        seen = 0
        for m in (h0, h1, h2, *(1 << c for c in self.trick)):
            if seen & m:
                raise ValueError("a card is in two places")
            seen |= m
        sizes = [h.bit_count() for h in self.hands]
        n = len(self.trick)
        for i in range(3):
            p = (self.leader + i) % 3
            expect = sizes[self.to_move] - (1 if i < n else 0)
            if sizes[p] != expect:
                raise ValueError("hand sizes do not fit the trick in progress")

    @property
    def to_move(self) -> int:
        """The position to play next."""
        return (self.leader + len(self.trick)) % 3

    @property
    def tricks_left(self) -> int:
        """Tricks still to complete, the one in progress included."""
        return (sum(h.bit_count() for h in self.hands) + len(self.trick)) // 3

    def legal_cards(self) -> list[int]:
        """The cards `to_move` may play (R4.2), in card index order."""
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & FOLLOW[self.game][self.trick[0]]
            if follow:
                hand = follow
        return mask_indices(hand)

    def play(self, card: int) -> Position:
        """The position after `to_move` plays ``card`` (assumed legal)."""
        p = self.to_move
        hands = list(self.hands)
        hands[p] &= ~(1 << card)
        trick = (*self.trick, card)
        if len(trick) < 3:
            return Position(
                self.game,
                (hands[0], hands[1], hands[2]),
                self.declarer,
                self.leader,
                trick,
                self.declarer_points,
                self.declarer_tricks,
                self.defender_tricks,
            )
        w = trick_winner(self.game, self.leader, trick)
        won = w == self.declarer
        return Position(
            self.game,
            (hands[0], hands[1], hands[2]),
            self.declarer,
            w,
            (),
            self.declarer_points + (sum(POINTS[c] for c in trick) if won else 0),
            self.declarer_tricks + won,
            self.defender_tricks + (not won),
        )

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The open-card position of a deal in play (or after the discard, before trick 1)."""
        if deal.phase not in (Phase.PLAY, Phase.KONTRA) or deal.contract is None:
            raise ValueError("the deal is not in the play phase")
        d = deal.declarer
        assert d is not None
        game = deal.contract.game
        hands = tuple(deal.hand(deal.seat_of(p)).mask for p in range(3))
        tricks = deal.tricks
        trick = deal.current_trick
        if trick:
            first_seat = deal.view(None).trick[0][0]
            leader = deal.position_of(first_seat)
            assert leader is not None
        else:
            leader = tricks[-1].winner if tricks else 0
        won = [t for t in tricks if t.winner == d]
        points = sum(t.points for t in won)
        if game != GameType.NULL:
            points += deal.skat.points
        return cls(
            game,
            (hands[0], hands[1], hands[2]),
            d,
            leader,
            tuple(int(c) for c in trick),
            points,
            len(won),
            len(tricks) - len(won),
        )


def card_orders() -> list[list[list[int]]]:
    """Per game type 0..5: its effective suits (trumps first), each strongest card first.

    The compiled core renumbers the cards by this order.
    """
    out = []
    for g in range(int(GameType.NULL) + 1):
        eff = EFFECTIVE[g]
        groups = []
        for s in (4, 0, 1, 2, 3):
            keys = TRICK_KEY[g][s]
            cards = sorted((c for c in range(32) if eff[c] == s), key=lambda c: -keys[c])
            if cards:
                groups.append(cards)
        out.append(groups)
    return out


def trick_winner(game: int, leader: int, trick: tuple[int, ...]) -> int:
    """The position that wins a full trick (R4.4)."""
    keys = TRICK_KEY[game][EFFECTIVE[game][trick[0]]]
    k0, k1, k2 = keys[trick[0]], keys[trick[1]], keys[trick[2]]
    if k0 >= k1 and k0 >= k2:
        return leader
    if k1 >= k2:
        return (leader + 1) % 3
    return (leader + 2) % 3
