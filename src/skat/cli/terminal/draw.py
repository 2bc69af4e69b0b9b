"""What the person at the terminal sees: `Screen`, the half of the game that
writes (the table and the person's turn, each move told in words, the
result of a deal and the standings), always from the person's view, so the
other hands and the skat stay hidden until the deal is over (R3.7). A
console without Unicode gets its decorations in plain ASCII."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from ...engine import (
    Action,
    Announce,
    Bid,
    Discard,
    GameType,
    Hold,
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
from ...engine.deal import POSITION_NAMES
from ...series import ListOptions, Series
from .words import (
    BIDS_SHOWN,
    Choice,
    card_markup,
    cards_markup,
    choosing_two,
    discard_cards,
    hand_order,
)

#: Replacements for the decoration characters on a console without Unicode.
_ASCII = str.maketrans({"━": "=", "─": "-", "→": "->", "✗": "x", "»": ">>", "…": "...", "·": "-"})


class Screen:
    """What one list at the terminal shows, from the person's view (seat 0):
    the half of `TerminalGame` that writes; the game sets these attributes."""

    console: Console
    options: ListOptions
    series: Series
    names: list[str]
    symbols: bool  # the console prints the suit symbols and decorations

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
        if choosing_two(view):
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
