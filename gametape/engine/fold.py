"""The one fold: a game is its setup plus its events, and every state is derived.

``Fold`` applies events one at a time with the checks every game shares (one setup, at seq 0;
nothing after the end; the acting seat exists; abandon and retract), keeping every state for
replay and retraction. ``fold`` is the same loop for validation: it keeps only the last state
unless the log retracts something.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from gametape.engine.moves import R_NAMES, names_problem
from gametape.engine.ruleset import Result, Ruleset, RuleViolation
from gametape.errors import GametapeError
from gametape.events.base import Abandon, Event, Move, Retract, Setup

R_RETRACT = "a retraction takes back the last move still in effect"
R_SETUP = "a log starts with its game's setup event, and has only one"
R_OVER = "no move after the end of the game"
R_SEAT = "an event names a seat of the game"
_SHARED = frozenset((Abandon, Retract))


class IllegalEvent(GametapeError):
    """An event at ``seq`` that the rules refuse; ``violation`` says which rule."""

    def __init__(self, seq: int, event: Event | None, violation: RuleViolation) -> None:
        super().__init__(violation.message, seq=seq)
        self.event = event
        self.violation = violation

    @property
    def rule(self) -> str:
        return self.violation.rule


class Fold:
    """A game's states, event by event.

    >>> f = Fold(ruleset, setup)
    >>> f.push(event); f.state
    """

    def __init__(self, ruleset: Ruleset[Any], setup: Event, *, keep: bool = True) -> None:
        if not isinstance(setup, ruleset.setup_type):
            raise IllegalEvent(
                0, setup, RuleViolation(f"the first event is not a {ruleset.name} setup", R_SETUP)
            )
        problem = names_problem(setup.players)
        if problem is not None:
            raise IllegalEvent(0, setup, RuleViolation(problem, R_NAMES))
        self.ruleset = ruleset
        self.players: tuple[str, ...] = setup.players
        self.keep = keep
        self.events: list[Event] = [setup]
        try:
            self.states: list[Any] = [ruleset.start(setup)]
        except RuleViolation as v:
            raise IllegalEvent(0, setup, v) from None
        self.live: list[int] = []  # seqs still in effect (not retracted), oldest first
        # The frame the fold keeps beside the game's state: the seq of an abandon in effect.
        # After it no move is taken, whatever the game's own state says.
        self.ended: int | None = None

    def __repr__(self) -> str:
        return f"<Fold {self.ruleset.name}: {len(self.events)} events>"

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def setup(self) -> Setup:
        return self.events[0]  # type: ignore[return-value]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: by its rules, or abandoned."""
        return self.ended is not None or self.ruleset.is_over(self.state)

    def result(self) -> Result | None:
        """How the game ended: the game's own result, or for a game abandoned at a state
        whose rules say nothing, ``terminated`` with a score of 0 for every seat."""
        result = self.ruleset.result(self.state)
        if result is None and self.ended is not None:
            return Result(outcome="terminated", scores=(0,) * len(self.players))
        return result

    def step(self, state: Any, event: Event) -> Any:
        """The state after ``event`` (not recorded here); raises RuleViolation."""
        rules = self.ruleset
        if isinstance(event, Setup):
            raise RuleViolation("a second setup event", R_SETUP)
        if rules.is_over(state):
            raise RuleViolation("the game is already over", R_OVER)
        if type(event) is Abandon:
            self._check_seat(event.player)
            return rules.abandon(state, event)
        if isinstance(event, Move):
            self._check_seat(event.player)
            if event.player not in rules.to_act(state):
                raise rules.not_to_act(state, event.player, self.players)
        return rules.apply(state, event)

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(self.players):
            raise RuleViolation(
                f"no player at seat {seat}: the seats are 0 to {len(self.players) - 1}", R_SEAT
            )

    def push(self, event: Event) -> Any:
        """Apply and record one event; return the new state. Raises RuleViolation and
        then records nothing."""
        seq = len(self.events)
        if type(event) is Retract:
            after = self._retract(event)
        else:
            try:
                if self.ended is not None:
                    raise RuleViolation(f"the game was abandoned at seq {self.ended}", R_OVER)
                after = self.step(self.states[-1], event)
            except RuleViolation as v:
                v.locate(self.live)
                raise
            self.live.append(seq)
            if type(event) is Abandon:
                self.ended = seq
        self.events.append(event)
        if self.keep:
            self.states.append(after)
        else:
            self.states[-1] = after
        return after

    def _retract(self, event: Retract) -> Any:
        """The state a retraction restores: from before the last event still in effect."""
        self._check_seat(event.player)
        if not self.live:
            raise RuleViolation("there is no move to take back", R_RETRACT)
        if event.seq != self.live[-1]:
            raise RuleViolation(
                f"seq {event.seq} is not the last move in effect (seq {self.live[-1]} is)",
                R_RETRACT,
            )
        if not self.keep:
            raise AssertionError("a fold without kept states cannot retract")
        self.live.pop()
        if self.ended == event.seq:  # taking back the abandon: the game goes on
            self.ended = None
        return self.states[event.seq - 1]

    def walk(self, events: Sequence[Event]) -> Iterator[tuple[int, Event, Any, Any]]:
        """Push each event, yielding (seq, event, state before, state after); raises
        IllegalEvent at the first refused one (the fold then holds the states before it)."""
        for event in events:
            seq, before = len(self.events), self.state
            try:
                after = self.push(event)
            except RuleViolation as v:
                raise IllegalEvent(seq, event, v) from None
            yield seq, event, before, after

    def extend(self, events: Sequence[Event]) -> Fold:
        """Push every event; raises IllegalEvent at the first refused one.

        Without kept states (validation) this is a tight loop over the game's ``apply``; any
        event the shared checks refuse or must look at (abandon, retract, a setup, a move by
        a seat not to act, a move after the end) goes through ``push`` and so gets exactly
        the same checks.
        """
        if self.keep:
            for _ in self.walk(events):
                pass
            return self
        apply, is_over, to_act = self.ruleset.apply, self.ruleset.is_over, self.ruleset.to_act
        recorded, live, states = self.events, self.live, self.states
        state = states[-1]
        for event in events:
            if (
                type(event) in _SHARED
                or isinstance(event, Setup)
                or self.ended is not None
                or is_over(state)
                or (isinstance(event, Move) and event.player not in to_act(state))
            ):
                states[-1] = state
                try:
                    state = self.push(event)
                except RuleViolation as v:
                    raise IllegalEvent(len(recorded), event, v) from None
                continue
            try:
                state = apply(state, event)
            except RuleViolation as v:
                states[-1] = state
                v.locate(live)
                raise IllegalEvent(len(recorded), event, v) from None
            live.append(len(recorded))
            recorded.append(event)
        states[-1] = state
        return self


def start(ruleset: Ruleset[Any], events: Sequence[Event], *, keep: bool = True) -> Fold:
    """A fold of ``ruleset`` at the setup ``events[0]``; IllegalEvent at seq 0 if it is not."""
    if not events:
        raise IllegalEvent(0, None, RuleViolation("the log holds no events", R_SETUP))
    return Fold(ruleset, events[0], keep=keep)


def fold(ruleset: Ruleset[Any], events: Sequence[Event]) -> Any:
    """The state after all ``events`` (the first is the setup); raises IllegalEvent."""
    keep = Retract in set(map(type, events))  # C-level scan; most logs retract nothing
    return start(ruleset, events, keep=keep).extend(events[1:]).state


def iter_states(
    ruleset: Ruleset[Any], events: Sequence[Event]
) -> Iterator[tuple[int, Event, Any, Any]]:
    """Yield (seq, event, state before, state after) for every event after the setup;
    raises IllegalEvent."""
    yield from start(ruleset, events).walk(events[1:])


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
