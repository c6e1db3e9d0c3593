"""The generic fold: a game is its setup plus its events, and state is always derived."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from gametape.engine.moves import seat_named
from gametape.engine.ruleset import NotationError, Result, Ruleset, RuleViolation
from gametape.events.base import Abandon, Event, Retract, Setup, actor

ABANDON_WORDS = ("abandon", "stop")
UNDO_WORDS = ("undo", "take back")
R_RETRACT = "a retraction takes back the last move still in effect"


class IllegalEvent(Exception):
    """An event at ``seq`` that the rules refuse; ``violation`` says which rule."""

    def __init__(self, seq: int, event: Event, violation: RuleViolation) -> None:
        super().__init__(f"seq {seq}: {violation}")
        self.seq = seq
        self.event = event
        self.violation = violation


def check_first(events: Sequence[Event]) -> Setup:
    if not events or not isinstance(events[0], Setup):
        raise IllegalEvent(0, events[0] if events else Event(),
                           RuleViolation("the first event is not a setup",
                                         "a log starts with its game's setup event"))
    return events[0]


def step(ruleset: Ruleset[Any], state: Any, event: Event) -> Any:
    """Apply one event with the checks every ruleset shares."""
    if isinstance(event, Setup):
        raise RuleViolation("a second setup event", "a game has one setup event, at seq 0")
    if ruleset.is_over(state):
        raise RuleViolation("the game is already over", "no move after the end of the game")
    return ruleset.apply(state, event)


def _start(events: Sequence[Event]) -> tuple[Ruleset[Any], Any]:
    """The ruleset of a log and its start state; raises IllegalEvent at seq 0."""
    from gametape.engine.registry import ruleset_for

    setup = check_first(events)
    ruleset = ruleset_for(setup)
    try:
        return ruleset, ruleset.start(setup)
    except RuleViolation as v:
        raise IllegalEvent(0, setup, v) from None


def retract(event: Retract, after: Sequence[Any], live: list[int]) -> Any:
    """The state a retraction restores: from before the last event still in effect.

    ``after[s]`` is the state after seq ``s``; ``live`` the seqs in effect (popped here).
    """
    if not live:
        raise RuleViolation("there is no move to take back", R_RETRACT)
    if event.seq != live[-1]:
        raise RuleViolation(f"seq {event.seq} is not the last move in effect "
                            f"(seq {live[-1]} is)", R_RETRACT)
    live.pop()
    return after[event.seq - 1]


def live_seqs(events: Sequence[Event]) -> list[int]:
    """The seqs of the events still in effect (not retracted), oldest first."""
    live: list[int] = []
    for seq in range(1, len(events)):
        event = events[seq]
        if type(event) is Retract:
            if live and live[-1] == event.seq:
                live.pop()
        else:
            live.append(seq)
    return live


def iter_states(events: Sequence[Event]) -> Iterator[tuple[int, Event, Any]]:
    """Yield (seq, event, state after it) for every event; raises IllegalEvent."""
    ruleset, state = _start(events)
    yield 0, events[0], state
    after: list[Any] = [state]
    live: list[int] = []
    for seq in range(1, len(events)):
        event = events[seq]
        try:
            if type(event) is Retract:
                state = retract(event, after, live)
            else:
                state = step(ruleset, state, event)
                live.append(seq)
        except RuleViolation as v:
            raise IllegalEvent(seq, event, v) from None
        after.append(state)
        yield seq, event, state


def fold(events: Sequence[Event]) -> Any:
    """The state after all ``events`` (the first is the setup); raises IllegalEvent.

    The same checks as ``iter_states``; without retractions, in a tighter loop that keeps no
    history (validation spends its time here).
    """
    if Retract in set(map(type, events)):  # C-level scan; most logs hold no retraction
        state = None
        for _seq, _event, after in iter_states(events):
            state = after
        return state
    ruleset, state = _start(events)
    apply, is_over = ruleset.apply, ruleset.is_over
    seq = 0
    try:
        for seq in range(1, len(events)):
            event = events[seq]
            if isinstance(event, Setup) or is_over(state):
                step(ruleset, state, event)
            state = apply(state, event)
    except RuleViolation as v:
        raise IllegalEvent(seq, events[seq], v) from None
    return state


class Game:
    """One game: its ruleset, its events and the current state (after python-chess's Board).

    >>> game = Game.from_events(read_log(path).events)
    >>> game.push(game.parse("play 2"))
    """

    def __init__(self, ruleset: Ruleset[Any], events: list[Event], state: Any) -> None:
        self.ruleset = ruleset
        self.events = events
        self.state = state

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"turn {self.ruleset.turn(self.state)}"
        name = f"{self.ruleset.name} {self.setup.game or '?'}"
        return f"<Game {name}: {len(self.events)} events, {status}>"

    @classmethod
    def create(cls, ruleset: Ruleset[Any], players: Sequence[str], rng: random.Random,
               options: dict[str, str] | None = None, **meta: Any) -> Game:
        """A new game: chance outcomes drawn from ``rng``, ``meta`` kept in the setup, and any
        deal the table owes at the start recorded."""
        setup = ruleset.new_setup(players, rng, options or {})
        if meta:
            setup = msgspec.structs.replace(setup, meta={**setup.meta, **meta})
        game = cls(ruleset, [setup], ruleset.start(setup))
        game.deal(rng)
        return game

    @classmethod
    def new(cls, setup: Setup) -> Game:
        from gametape.engine.registry import ruleset_for

        ruleset = ruleset_for(setup)
        return cls(ruleset, [setup], ruleset.start(setup))

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Game:
        """Fold events into a game; raises IllegalEvent at the first refused event."""
        events = list(events)
        state = fold(events)
        from gametape.engine.registry import ruleset_for

        return cls(ruleset_for(events[0]), events, state)  # type: ignore[arg-type]

    @property
    def setup(self) -> Setup:
        return self.events[0]  # type: ignore[return-value]

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def next_seq(self) -> int:
        return len(self.events)

    @property
    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def to_act(self) -> tuple[int, ...]:
        return self.ruleset.to_act(self.state)

    def legal_moves(self, seat: int) -> list[Event]:
        return self.ruleset.legal_moves(self.state, seat)

    def view(self, seat: int | None = None) -> Any:
        return self.ruleset.view(self.state, seat)

    def seat(self, name: str) -> int:
        """The seat of the player called ``name`` (case-insensitive); KeyError lists them."""
        try:
            return seat_named(self.players, name)
        except NotationError as exc:
            raise KeyError(str(exc)) from None

    def parse(self, text: str, seat: int | None = None) -> Event:
        """A move from notation; ``abandon`` works in every game."""
        return parse_move(self.ruleset, self.state, text, seat)

    def push(self, event: Event) -> Any:
        """Apply a move (raises RuleViolation, leaving the game unchanged)."""
        if type(event) is Retract:  # rare: refold to find the state to restore
            try:
                self.state = fold([*self.events, event])
            except IllegalEvent as exc:
                raise exc.violation from None
        else:
            self.state = step(self.ruleset, self.state, event)
        self.events.append(event)
        return self.state

    def undo(self, seat: int | None = None, reason: str = "") -> list[Retract]:
        """Retractions taking back the last player's move still in effect, and any chance
        events (deals) recorded after it. Raises RuleViolation if there is none."""
        live = live_seqs(self.events)
        taken = []
        while live and actor(self.events[live[-1]]) is None \
                and not isinstance(self.events[live[-1]], Abandon):
            taken.append(live.pop())
        if not live:
            raise RuleViolation("there is no move to take back", R_RETRACT)
        taken.append(live.pop())
        return [Retract(seq=s, player=seat, reason=reason) for s in taken]

    def deal(self, rng: random.Random) -> list[Event]:
        """Record every chance event the table owes now (a round's shuffle); return them."""
        dealt = []
        while not self.is_over and (event := self.ruleset.chance(self.state, rng)) is not None:
            self.push(event)
            dealt.append(event)
        return dealt


def parse_move(ruleset: Ruleset[Any], state: Any, text: str, seat: int | None) -> Event:
    """Parse notation, including the shared ``abandon``."""
    if text.strip().lower() in ABANDON_WORDS:
        return Abandon(player=seat)
    return ruleset.parse_move(state, text, seat)


def notation(ruleset: Ruleset[Any], state: Any, event: Event) -> str:
    """The notation of ``event`` in the state before it, including ``abandon`` and ``undo``."""
    if isinstance(event, Abandon):
        return "abandon"
    if isinstance(event, Retract):
        return "undo"
    return ruleset.notation(state, event)


def describe(ruleset: Ruleset[Any], before: Any, event: Event, after: Any,
             seat: int | None = None) -> str:
    """What ``event`` changed, in one line, as ``seat`` saw it (None: everything)."""
    if isinstance(event, Retract):
        who = ruleset.players(before)[event.player] if event.player is not None else "the table"
        return f"{who} took back seq {event.seq}" + (f": {event.reason}" if event.reason else "")
    if isinstance(event, Abandon):
        who = ruleset.players(before)[event.player] if event.player is not None else "the table"
        return f"{who} abandoned the game" + (f": {event.reason}" if event.reason else "")
    return ruleset.describe(before, event, after, seat)


def redact(ruleset: Ruleset[Any], event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` sees it when it happens (None: only that something happened)."""
    if seat is None or isinstance(event, Abandon | Retract):
        return event
    return ruleset.redact(event, seat)


def kinds(ruleset: Ruleset[Any], before: Any, event: Event, after: Any) -> tuple[str, ...]:
    """What kind of event this was, for jumps in replay."""
    if isinstance(event, Abandon):
        return ("abandon",)
    if isinstance(event, Retract):
        return ("retract",)
    return ruleset.kinds(before, event, after)
