"""The one fold: a game is its setup plus its events, and every state is derived.

``Fold`` applies events one at a time with the checks every game shares (one setup, at seq 0;
nothing after the end; the acting seat exists; abandon and retract), keeping every state for
replay and retraction. ``fold`` is the same loop for validation: it keeps only the last state
unless the log retracts something.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from gametape.engine.moves import R_NAMES, names_problem
from gametape.engine.ruleset import R_STEP, TERMINATED, Result, Ruleset, RuleViolation
from gametape.errors import GametapeError
from gametape.events.base import Abandon, Event, Move, Retract, Setup
from gametape.messages import say, seat_of

R_RETRACT = say("core.rule.retract", "a retraction takes back the last move still in effect")
R_SETUP = say("core.rule.setup", "a log starts with its game's setup event, and has only one")
R_OVER = say("core.rule.over", "no move after the end of the game")
R_SEAT = say("core.rule.seat", "an event names a seat of the game")
NOTHING_TO_TAKE_BACK = say("core.nothing-to-take-back", "there is no move to take back")
SHARED = frozenset((Abandon, Retract))  # the events every game shares


# A game's fast path (``Ruleset.apply_many``): the state after the run it takes, and its length
Many = Callable[[Any, Sequence[Event]], tuple[Any, int]]


class IllegalEvent(GametapeError):
    """An event at ``seq`` that the rules refuse; ``violation`` says which rule."""

    def __init__(self, seq: int, event: Event | None, violation: RuleViolation) -> None:
        super().__init__(violation.message, seq=seq)
        self.event = event
        self.violation = violation

    @property
    def rule(self) -> str:
        return self.violation.rule


class Frame(msgspec.Struct, frozen=True, gc=False):
    """What the fold keeps beside each state, so no game counts it (after boardgame.io's
    ctx): the turn being played (one per step; a simultaneous step is one turn) and the
    seats that have moved in the simultaneous step under way."""

    turn: int = 1
    moved: frozenset[int] = frozenset()


FIRST = Frame()


def next_frame(ruleset: Ruleset[Any], frame: Frame, before: Any, event: Event, after: Any) -> Frame:
    """The frame after ``event``. A move ends its step, and the turn goes on by one, unless
    it was made in a simultaneous step that goes on: the seats to act after it are exactly
    those before it but its mover, and the game still says they move together."""
    if not isinstance(event, Move):
        return frame
    seat = event.player
    if ruleset.together(before) and ruleset.together(after):
        acting, was = set(ruleset.to_act(after)), set(ruleset.to_act(before))
        # the step goes on: its mover is done, or the move was out of turn (``anytime``)
        if acting == was or (acting and acting == was - {seat}):
            return Frame(turn=frame.turn, moved=frame.moved | {seat})
    return Frame(turn=frame.turn + 1)


class Fold:
    """A game's states, event by event.

    >>> f = Fold(ruleset, setup)
    >>> f.push(event); f.state
    """

    def __init__(
        self, ruleset: Ruleset[Any], setup: Event, *, keep: bool = True, fast: bool = True
    ) -> None:
        if not isinstance(setup, ruleset.setup_type):
            raise IllegalEvent(
                0,
                setup,
                RuleViolation(
                    say(
                        "core.first-not-setup",
                        "the first event is not a {game} setup",
                        game=ruleset.name,
                    ),
                    R_SETUP,
                ),
            )
        problem = names_problem(setup.players)
        if problem is not None:
            raise IllegalEvent(0, setup, RuleViolation(problem, R_NAMES))
        self.ruleset = ruleset
        self.players: tuple[str, ...] = setup.players
        self.keep = keep
        self.fast = fast  # without kept states, the game's apply_many may take runs of moves
        self.events: list[Event] = [setup]
        try:
            self.states: list[Any] = [ruleset.start(setup)]
        except RuleViolation as v:
            raise IllegalEvent(0, setup, v) from None
        self.frames: list[Frame] = [FIRST]  # beside each kept state
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
        first = self.events[0]
        assert isinstance(first, Setup)  # the fold starts only from a setup
        return first

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: by its rules, or abandoned."""
        return self.ended is not None or self.ruleset.is_over(self.state)

    def result(self) -> Result | None:
        """How the game ended: the game's own result, or for a game abandoned at a state
        whose rules say nothing, ``terminated`` with a score of 0 for every seat."""
        result = self.ruleset.result(self.state)
        if result is None and self.ended is not None:
            return Result(outcome=TERMINATED, scores=(0,) * len(self.players))
        return result

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def turn(self, index: int = -1) -> int:
        """The turn (or the game's own round) being played at the kept state ``index``."""
        own = self.ruleset.turn(self.states[index])
        return own if own is not None else self.frames[index].turn

    def turn_of(self, seq: int) -> int:
        """The turn (or round) the event at ``seq`` belongs to: the one a move was made in;
        for an undo the one it returns to (taking back turn 9's move is shown as turn 9, not
        10); for a deal or another event nobody makes, the one it opens (round 2's deal is in
        round 2). Seq 0: the first turn. The fold must keep its states."""
        if seq == 0:
            return self.turn(0)
        event = self.events[seq]
        made = isinstance(event, Move | Abandon)  # an undo is neither
        return self.turn(seq - 1 if made else seq)

    def step(self, state: Any, event: Event, frame: Frame = FIRST) -> Any:
        """The state after ``event`` (not recorded here); raises RuleViolation."""
        rules = self.ruleset
        if isinstance(event, Setup):
            raise RuleViolation(say("core.second-setup", "a second setup event"), R_SETUP)
        if rules.is_over(state):
            raise RuleViolation(say("core.game-over", "the game is already over"), R_OVER)
        if type(event) is Abandon:
            self._check_seat(event.player)
            return rules.abandon(state, event)
        if isinstance(event, Move):
            self._check_seat(event.player)
            if event.player not in rules.to_act(state) and not rules.anytime(state, event):
                if event.player in frame.moved and rules.together(state):
                    # a move of another kind is refused by its own rule (a placement before
                    # the reveal: "cards are placed once everyone's two are shown"); the
                    # step's own move again, for that reason
                    rules.apply(state, event)
                    raise RuleViolation(
                        say(
                            "core.moved-this-step",
                            "{player} has already moved this step",
                            player=seat_of(self.players, event.player),
                        ),
                        R_STEP,
                    )
                raise rules.not_to_act(state, event.player, self.players)
        return rules.apply(state, event)

    def independent(self, since: int, seat: int) -> bool:
        """Whether a move by ``seat`` sent when the game stood at seq ``since`` (its next
        event's) may be made now: every event recorded since is another seat's move in the
        same simultaneous step, which ``seat`` is still to act in. Such moves commute: the
        step's result does not depend on their order."""
        if not self.keep or not 0 < since <= len(self.events):
            return False
        base = since - 1
        frame, state = self.frames[base], self.states[base]
        if not self.ruleset.together(state) or seat not in self.ruleset.to_act(state):
            return False
        for seq in range(since, len(self.events)):
            event = self.events[seq]
            if not isinstance(event, Move) or event.player == seat or seq not in self.live:
                return False
            if self.frames[seq].turn != frame.turn:
                return False
        return self.ended is None and seat in self.ruleset.to_act(self.state)

    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(self.players):
            raise RuleViolation(
                say(
                    "core.no-such-seat",
                    "no player at seat {seat}: the seats are 0 to {last}",
                    seat=seat,
                    last=len(self.players) - 1,
                ),
                R_SEAT,
            )

    def push(self, event: Event) -> Any:
        """Apply and record one event; return the new state. Raises RuleViolation and
        then records nothing."""
        seq = len(self.events)
        before, frame = self.states[-1], self.frames[-1]
        if type(event) is Retract:
            after = self._retract(event)
            frame = self.frames[event.seq - 1]
        else:
            try:
                if self.ended is not None:
                    raise RuleViolation(
                        say(
                            "core.abandoned",
                            "the game was abandoned at seq {seq}",
                            seq=self.ended,
                        ),
                        R_OVER,
                    )
                after = self.step(before, event, frame)
            except RuleViolation as v:
                v.locate(self.live)
                raise
            self.live.append(seq)
            if type(event) is Abandon:
                self.ended = seq
            frame = next_frame(self.ruleset, frame, before, event, after)
        self.events.append(event)
        if self.keep:
            self.states.append(after)
            self.frames.append(frame)
        else:
            self.states[-1] = after
            self.frames[-1] = frame
        return after

    def _retract(self, event: Retract) -> Any:
        """The state a retraction restores: from before the last event still in effect."""
        self._check_seat(event.player)
        if not self.live:
            raise RuleViolation(NOTHING_TO_TAKE_BACK, R_RETRACT)
        if event.seq != self.live[-1]:
            raise RuleViolation(
                say(
                    "core.not-last-move",
                    "seq {seq} is not the last move in effect (seq {last} is)",
                    seq=event.seq,
                    last=self.live[-1],
                ),
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

    def extend(self, events: Sequence[Event], many: Many | None = None) -> Fold:
        """Push every event; raises IllegalEvent at the first refused one.

        Without kept states (validation) this is a tight loop over the game's ``apply``; any
        event the shared checks refuse or must look at (abandon, retract, a setup, a move by
        a seat not to act, a move after the end) goes through ``push`` and so gets exactly
        the same checks. ``many``, if given, stands for the game's ``apply_many`` (the read
        model's, which writes down what it applies).
        """
        if self.keep:
            for _ in self.walk(events):
                pass
            return self
        rules = self.ruleset
        apply, is_over, to_act = rules.apply, rules.is_over, rules.to_act
        # A game with no simultaneous step counts a turn a move, with no call of its own.
        together = type(rules).together is not Ruleset.together
        custom = type(rules).apply_many is not Ruleset.apply_many
        if not (self.fast and custom and not together):
            many = None
        elif many is None:
            many = rules.apply_many
        recorded, live, states, frames = self.events, self.live, self.states, self.frames
        state, frame = states[-1], frames[-1]
        at, end = 0, len(events)
        while at < end:
            if many is not None and self.ended is None:
                state, n = many(state, events[at:] if at else events)
                if n:
                    first = len(recorded)
                    live.extend(range(first, first + n))
                    recorded.extend(events[at : at + n])
                    frame = Frame(turn=frame.turn + n)
                    at += n
                    if at == end:
                        break
            event = events[at]
            at += 1
            if (
                type(event) in SHARED
                or isinstance(event, Setup)
                or self.ended is not None
                or is_over(state)
                or (isinstance(event, Move) and event.player not in to_act(state))
            ):
                states[-1], frames[-1] = state, frame
                try:
                    state = self.push(event)
                except RuleViolation as v:
                    raise IllegalEvent(len(recorded), event, v) from None
                frame = frames[-1]
                continue
            try:
                after = apply(state, event)
            except RuleViolation as v:
                states[-1], frames[-1] = state, frame
                v.locate(live)
                raise IllegalEvent(len(recorded), event, v) from None
            if isinstance(event, Move):
                if together:
                    frame = next_frame(rules, frame, state, event, after)
                else:
                    frame = Frame(turn=frame.turn + 1)
            state = after
            live.append(len(recorded))
            recorded.append(event)
        states[-1], frames[-1] = state, frame
        return self


def start(
    ruleset: Ruleset[Any], events: Sequence[Event], *, keep: bool = True, fast: bool = True
) -> Fold:
    """A fold of ``ruleset`` at the setup ``events[0]``; IllegalEvent at seq 0 if it is not."""
    if not events:
        raise IllegalEvent(
            0, None, RuleViolation(say("core.no-events", "the log holds no events"), R_SETUP)
        )
    return Fold(ruleset, events[0], keep=keep, fast=fast)


def fold(ruleset: Ruleset[Any], events: Sequence[Event], *, fast: bool = True) -> Any:
    """The state after all ``events`` (the first is the setup); raises IllegalEvent.
    ``fast=False``: every event through the game's ``apply`` (no ``apply_many``)."""
    keep = Retract in map(type, events)  # C-level, stops at one; most logs retract nothing
    return start(ruleset, events, keep=keep, fast=fast).extend(events[1:]).state


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


def live_events(events: Sequence[Event]) -> list[Event]:
    """The setup and the events still in effect, in order: the game's history with every
    move taken back left out (and the retractions that took them back)."""
    return [events[0], *(events[s] for s in live_seqs(events))]


def walk_live(ruleset: Ruleset[Any], events: Sequence[Event]) -> Iterator[tuple[Event, Any, Any]]:
    """(event, state before, state after) for each event of ``live_events``; raises
    IllegalEvent (the events must fold)."""
    live = live_events(events)
    for _, event, before, after in start(ruleset, live).walk(live[1:]):
        yield event, before, after
