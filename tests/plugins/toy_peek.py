"""A toy game with a public move that has a private result, written against the plug-in API
alone: peek (after Love Letter's Priest).

Each player is dealt one card, face down; two more are set aside unseen. In turn each player
peeks at another player's card: everyone sees who looked at whom, only the peeker sees the
card. After one peek each, every hand is shown and the highest card wins; the cards set
aside are never shown. Every secret a seat learns is in an event as ``redact`` gives it to that seat
(the deal shows a seat its own card, a peek its result to the peeker), so the secrecy kit
judges what a requester may know by those events alone (``secrecy="events"``), never by the
view: docs/writing-a-game.md shows the pattern.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from gametape.engine.ruleset import ONLOOKER, Declaration, Result, Ruleset, RuleViolation, on
from gametape.events.base import Event, Move, Setup
from gametape.messages import Message, say

CARDS = tuple(range(1, 9))


class PeekSetup(Setup, frozen=True, kw_only=True, tag="toy-peek.setup"):
    pass


class Deal(Event, frozen=True, kw_only=True, tag="toy-peek.deal"):
    """The cards dealt, one per seat (0: not shown to this requester), and the two set
    aside (empty: unseen)."""

    hands: tuple[int, ...]
    aside: tuple[int, ...] = ()


class Peek(Move, frozen=True, kw_only=True, tag="toy-peek.peek"):
    """``player`` looks at ``target``'s card: a public move, whose result is the next event."""

    target: int


class Look(Event, frozen=True, kw_only=True, tag="toy-peek.look"):
    """The result of a peek: the card seen, shown to the peeker (``to``) alone: every other
    requester is told the event without it (``card`` 0)."""

    to: int
    card: int


class Showdown(Event, frozen=True, kw_only=True, tag="toy-peek.showdown"):
    """Every hand shown at the end."""

    hands: tuple[int, ...]


class PeekState(msgspec.Struct, frozen=True):
    players: int
    hands: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()
    peeks: tuple[tuple[int, int], ...] = ()  # (peeker, target) in order
    seen: tuple[int, ...] = ()  # what each peek showed its peeker, once looked
    shown: bool = False

    @property
    def looking(self) -> bool:
        """A peek made whose result is not recorded yet."""
        return len(self.seen) < len(self.peeks)

    @property
    def current(self) -> int:
        return len(self.peeks) % self.players


class PeekView(msgspec.Struct, frozen=True):
    ruleset: str
    own: int | None
    peeked: tuple[tuple[int, int], ...]  # (target, card) this seat saw
    peeks: tuple[tuple[int, int], ...]  # who looked at whom
    hands: tuple[int, ...]  # every hand, once shown


class PeekGame(Ruleset[PeekState]):
    declared = Declaration(
        name="toy-peek",
        events=(PeekSetup, Deal, Peek, Look, Showdown),
        players=(2, 4),
        secrecy="events",
    )

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> PeekSetup:
        return PeekSetup(players=tuple(players))

    def start(self, setup: PeekSetup) -> PeekState:
        return PeekState(players=len(setup.players))

    def chance(self, state: PeekState, rng: random.Random) -> Event | None:
        if not state.hands:
            cards = rng.sample(CARDS, state.players + 2)
            return Deal(hands=tuple(cards[:-2]), aside=tuple(cards[-2:]))
        if state.looking:  # the peek's result, told to the peeker
            peeker, target = state.peeks[-1]
            return Look(to=peeker, card=state.hands[target])
        if len(state.peeks) == state.players and not state.shown:
            return Showdown(hands=state.hands)
        return None

    @on(Deal)
    def deal(self, state: PeekState, event: Deal) -> PeekState:
        cards = (*event.hands, *event.aside)
        if (
            state.hands
            or len(event.hands) != state.players
            or len(event.aside) != 2
            or len(set(cards)) != len(cards)
        ):
            raise RuleViolation(
                say("toy-peek.bad-deal", "a deal of one card each, all different"),
                say("toy-peek.rule.deal", "each player is dealt one card once"),
            )
        return msgspec.structs.replace(state, hands=event.hands, aside=event.aside)

    @on(Peek)
    def peek(self, state: PeekState, event: Peek) -> PeekState:
        if not 0 <= event.target < state.players or event.target == event.player:
            raise RuleViolation(
                say("toy-peek.no-target", "{player} peeks at another player", player=event.player),
                say("toy-peek.rule.target", "a player peeks at another player's card"),
            )
        return msgspec.structs.replace(state, peeks=(*state.peeks, (event.player, event.target)))

    @on(Look)
    def look(self, state: PeekState, event: Look) -> PeekState:
        if not state.looking or event.card != state.hands[state.peeks[-1][1]]:
            raise RuleViolation(
                say("toy-peek.look", "a look at {card}, not the card peeked at", card=event.card),
                say("toy-peek.rule.look", "a peek's result is the card peeked at"),
            )
        return msgspec.structs.replace(state, seen=(*state.seen, event.card))

    @on(Showdown)
    def showdown(self, state: PeekState, event: Showdown) -> PeekState:
        if event.hands != state.hands or len(state.seen) != state.players:
            raise RuleViolation(
                say("toy-peek.bad-showdown", "the hands shown are not the hands dealt"),
                say("toy-peek.rule.showdown", "every hand is shown after one peek each"),
            )
        return msgspec.structs.replace(state, shown=True)

    def to_act(self, state: PeekState) -> tuple[int, ...]:
        if not state.hands or state.looking or len(state.peeks) >= state.players:
            return ()
        return (state.current,)

    def legal_moves(self, state: PeekState, seat: int) -> list[Event]:
        if seat not in self.to_act(state):
            return []
        return [Peek(player=seat, target=t) for t in range(state.players) if t != seat]

    def redact(self, state: PeekState, event: Event, seat: int) -> Event | None:
        if isinstance(event, Deal):  # a seat sees its own card; the one set aside, nobody
            hands = tuple(c if s == seat else 0 for s, c in enumerate(event.hands))
            return Deal(hands=hands)
        if isinstance(event, Look) and seat != event.to:
            return Look(to=event.to, card=0)
        return event

    def result(self, state: PeekState) -> Result | None:
        if not state.shown:
            return None
        best = max(state.hands)
        scores = tuple(int(c == best) for c in state.hands)
        return Result(outcome="win", scores=scores, winners=(state.hands.index(best),))

    def view(self, state: PeekState, seat: int | None) -> PeekView:
        mine = [
            (target, card)
            for (peeker, target), card in zip(state.peeks, state.seen, strict=False)
            if seat is None or peeker == seat
        ]
        own = state.hands[seat] if state.hands and seat not in (None, ONLOOKER) else None
        return PeekView(
            ruleset=self.name,
            own=own,  # type: ignore[arg-type]
            peeked=tuple(mine),
            peeks=state.peeks,
            hands=state.hands if state.shown or seat is None else (),
        )

    def describe(
        self, before: PeekState, event: Event, after: PeekState, seat: int | None = None
    ) -> Message:
        """A peek and its result as the requester was told them (the card, to the peeker
        alone: the framework hands the event redacted)."""
        if isinstance(event, Peek):
            return say(
                "toy-peek.peeked",
                "seat {player} peeked at seat {target}'s card",
                player=event.player,
                target=event.target,
            )
        if isinstance(event, Look) and event.card:
            return say("toy-peek.saw", "seat {to} saw {card}", to=event.to, card=event.card)
        if isinstance(event, Look):
            return say("toy-peek.looked", "seat {to} saw the card", to=event.to)
        return super().describe(before, event, after, seat)


RULESET = PeekGame()
