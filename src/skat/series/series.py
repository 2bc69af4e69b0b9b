"""A list at one table (R1.6, R8, R9.4, R9.5): dealer rotation, house rules,
the score sheet and the verifiable shuffle.

Usage::

    series = Series(ListOptions(players=3), seed=new_seed())
    while not series.is_over():
        if series.deal.is_terminal():
            series.next_deal()
        else:
            series.apply(some_action, seat)
    series.sheet, series.totals()

The series never edits a deal by hand; every change is an engine action.
After a deal is settled its row is on the sheet at once; `next_deal` starts
the next one (until then game actions get ``DEAL_OVER``, after the last deal
``LIST_OVER``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..engine import Action, Card, Deal, GameType, Reason
from ..engine.errors import reject
from .options import ListOptions
from .sheet import PlayerTotal, SheetRow, totals
from .shuffle import commitment, deal_deck


class Series:
    """The state of one list."""

    def __init__(
        self,
        options: ListOptions | None = None,
        seed: bytes | None = None,
        *,
        names: Sequence[str] | None = None,
        decks: Sequence[Sequence[Card]] | None = None,
        commit: str | None = None,
    ) -> None:
        """Start a list. Decks come from ``seed`` (docs/fairness.md); when
        replaying a list whose seed is not revealed, pass ``decks`` and the
        published ``commit`` instead."""
        self.options = options or ListOptions()
        if seed is None and decks is None:
            raise ValueError("a list needs a seed (or, to replay, the decks)")
        self._seed = seed
        self._decks = [list(d) for d in decks] if decks is not None else None
        self.commitment = commitment(seed) if seed is not None else (commit or "")
        n = self.options.players
        self.names = list(names) if names is not None else [f"Player {i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise ValueError(f"{n} names are needed")
        self.rules = self.options.deal_rules()
        self.rows: list[SheetRow] = []
        self.deals: list[Deal] = []
        self._queue: list[str] = []  # bock_overlap=queue: "bock" / "ramsch" per deal
        self._stack: list[int] = []  # bock_overlap=stack: deals left per running round
        self._ramsch_round: list[bool] = []
        self._start(1, self.options.first_dealer)

    # ----------------------------------------------------------------- queries
    @property
    def deal(self) -> Deal:
        """The current (or, after it was settled, the last) deal."""
        return self.deals[-1]

    @property
    def number(self) -> int:
        """1-based number of the current deal."""
        return len(self.deals)

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    def is_over(self) -> bool:
        return self.number >= self.options.deals_per_list and self.deal.is_terminal()

    @property
    def seed(self) -> bytes | None:
        """The seed, revealed only when the list is over (None before)."""
        return self._seed if self.is_over() else None

    @property
    def pending_bock(self) -> tuple[str, ...]:
        """What the coming deals will be: ``bock``/``ramsch`` per deal (queue),
        or ``bock xF`` with the factor F of each coming deal (stack)."""
        if self.options.bock_overlap == "queue":
            return tuple(self._queue)
        longest = max(self._stack, default=0)
        return tuple(f"bock x{2 ** sum(1 for k in self._stack if k > i)}" for i in range(longest))

    def totals(self) -> list[PlayerTotal]:
        return totals(self.rows, self.options.players, self.options.scoring)

    def deck_for(self, number: int) -> list[Card]:
        if self._decks is not None:
            if number > len(self._decks):
                raise ValueError(f"no deck for deal {number}")
            return list(self._decks[number - 1])
        assert self._seed is not None
        return deal_deck(self._seed, number)

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action, seat: int) -> None:
        """Apply a game action of ``seat`` to the current deal (R10 codes;
        ``LIST_OVER`` after the last deal)."""
        if self.is_over():
            raise reject(Reason.LIST_OVER, "the list is over", seat=seat, action=action)
        deal = self.deal
        deal.apply(action, seat)
        if deal.is_terminal():
            self._settled(deal)

    def next_deal(self) -> Deal:
        """Start the next deal once the current one is settled."""
        if self.is_over():
            raise reject(Reason.LIST_OVER, "the list is over")
        if not self.deal.is_terminal():
            raise reject(Reason.WRONG_PHASE, "the current deal is not over")
        n = self.options.players
        return self._start(self.number + 1, (self.dealer + 1) % n)

    # -------------------------------------------------------------- internals
    def _start(self, number: int, dealer: int) -> Deal:
        bock_factor, ramsch = self._consume_bock()
        deal = Deal(
            self.deck_for(number),
            rules=self.rules,
            dealer=dealer,
            ramsch=ramsch,
            bock_factor=bock_factor,
        )
        self.deals.append(deal)
        self._ramsch_round.append(ramsch)
        return deal

    def _consume_bock(self) -> tuple[int, bool]:
        if not self.options.bock:
            return 1, False
        if self.options.bock_overlap == "queue":
            if not self._queue:
                return 1, False
            kind = self._queue.pop(0)
            return (1, True) if kind == "ramsch" else (2, False)
        running = len(self._stack)
        self._stack = [k - 1 for k in self._stack if k > 1]
        return 2**running, False

    def _settled(self, deal: Deal) -> None:
        result = deal.result
        assert result is not None
        seats = tuple(deal.seat_of(p) for p in range(3))
        last = self.number >= self.options.deals_per_list  # pending Bock lapses (R9.4)
        fired: tuple[str, ...] = ()
        if self.options.bock and result.kind == "game" and not last:
            fired = self._fired(deal)
        row = SheetRow.from_result(self.number, result, seats, self._ramsch_round[-1])
        self.rows.append(replace(row, bock_fired=fired))
        if fired:
            rounds = len(fired) if self.options.bock_count == "per_trigger" else 1
            n = self.options.players
            for _ in range(rounds):
                if self.options.bock_overlap == "queue":
                    self._queue += ["bock"] * n
                    if self.options.ramsch_after_bock:
                        self._queue += ["ramsch"] * n
                else:
                    self._stack.append(n)

    def _fired(self, deal: Deal) -> tuple[str, ...]:
        """R9.4: the Bock triggers (of the list's options) a settled game fires."""
        r = deal.result
        assert r is not None and r.valuation is not None and r.contract is not None
        val = r.valuation
        g = r.contract.game
        fired = set()
        if g != GameType.NULL and r.ended == "played" and r.declarer_points == 60:
            fired.add("sixty_sixty")
        if r.kontra and r.re:
            fired.add("kontra_re")
        if r.kontra and not val.won:
            fired.add("kontra_lost")
        if val.value >= 100:
            fired.add("value_100")
        if g == GameType.GRAND and r.contract.hand and val.won:
            fired.add("grand_hand")
        if g != GameType.NULL:
            if r.declarer_points >= 90 or (r.declarer_points <= 30 and deal.tricks):
                fired.add("schneider")
            if r.declarer_tricks in (0, 10) and len(deal.tricks) == 10:
                fired.add("schwarz")
        return tuple(sorted(fired & set(self.options.bock_triggers)))
