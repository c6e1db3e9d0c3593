"""A game in play: its ruleset, its events and the current state (after python-chess's Board)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from gametape.engine.fold import (
    NOTHING_TO_TAKE_BACK,
    R_RETRACT,
    R_SETUP,
    Fold,
    IllegalEvent,
    live_seqs,
    start,
)
from gametape.engine.moves import check_length, seat_named
from gametape.engine.options import read_options
from gametape.engine.registry import ruleset_for
from gametape.engine.ruleset import ONLOOKER, Result, Ruleset, RuleViolation, move_value
from gametape.events.base import Abandon, Event, Retract, Setup, actor
from gametape.messages import Message, Param, say, seat_of

ABANDON_WORDS = ("abandon", "stop")
UNDO_WORDS = ("undo", "take back")


def is_undo(text: str) -> bool:
    """Whether ``text`` is the shared notation of taking back the last move (``undo``)."""
    return text.strip().lower() in UNDO_WORDS


class Game:
    """One game: its ruleset, its events and the current state.

    >>> game = Game.from_events(read_log(path).events)
    >>> game.push(game.parse("play 2"))
    """

    def __init__(self, fold: Fold) -> None:
        self.fold = fold
        self.ruleset = fold.ruleset

    def __repr__(self) -> str:
        rules = self.ruleset
        status = "over" if self.is_over else f"{rules.turn_word} {self.turn}"
        name = f"{self.ruleset.name} {self.setup.game or '?'}"
        return f"<Game {name}: {len(self.events)} events, {status}>"

    @classmethod
    def create(
        cls,
        ruleset: Ruleset[Any],
        players: Sequence[str],
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        **meta: Any,
    ) -> Game:
        """A new game: chance outcomes drawn from ``rng``, ``meta`` kept in the setup, and any
        deal the table owes at the start recorded. ``options`` as ``key=value`` strings (or
        typed); OptionError for an unknown or bad one."""
        typed = read_options(ruleset.name, ruleset.options, options or {})
        setup = ruleset.new_setup(players, rng, typed)
        if meta:
            setup = msgspec.structs.replace(setup, meta={**setup.meta, **meta})
        game = cls(Fold(ruleset, setup))
        game.deal(rng)
        return game

    @classmethod
    def new(cls, setup: Setup) -> Game:
        return cls(Fold(ruleset_for(setup), setup))

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Game:
        """Fold events into a game; raises IllegalEvent at the first refused event."""
        events = list(events)
        if not events or not isinstance(events[0], Setup):
            raise IllegalEvent(
                0,
                events[0] if events else None,
                RuleViolation(
                    say("core.first-not-a-setup", "the first event is not a setup"), R_SETUP
                ),
            )
        return cls(start(ruleset_for(events[0]), events).extend(events[1:]))

    @property
    def events(self) -> list[Event]:
        return self.fold.events

    @property
    def state(self) -> Any:
        return self.fold.state

    @property
    def setup(self) -> Setup:
        return self.fold.setup

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def next_seq(self) -> int:
        return len(self.events)

    @property
    def turn(self) -> int:
        """The turn being played now (a simultaneous step is one), or the game's round."""
        return self.fold.turn()

    @property
    def is_over(self) -> bool:
        return self.fold.is_over

    def result(self) -> Result | None:
        return self.fold.result()

    def to_act(self) -> tuple[int, ...]:
        return self.ruleset.to_act(self.state)

    def legal_moves(self, seat: int) -> list[Event]:
        return self.ruleset.legal_moves(self.state, seat)

    def view(self, seat: int | None = None) -> Any:
        return self.ruleset.view(self.state, seat)

    def seat(self, name: str) -> int:
        """The seat of the player called ``name`` (case-insensitive); NotationError lists them."""
        return seat_named(self.players, name)

    def parse(self, text: str, seat: int | None = None) -> Event:
        """A move from notation; ``abandon`` works in every game."""
        return parse_move(self.ruleset, self.state, text, seat)

    def push(self, event: Event) -> Any:
        """Apply a move (raises RuleViolation, leaving the game unchanged)."""
        return self.fold.push(event)

    def undo(self, seat: int | None = None, reason: str = "") -> list[Retract]:
        """Retractions taking back the last player's move still in effect, and any chance
        events (deals) recorded after it. Raises RuleViolation if there is none."""
        live = live_seqs(self.events)
        taken = []
        while (
            live
            and actor(self.events[live[-1]]) is None
            and not isinstance(self.events[live[-1]], Abandon)
        ):
            taken.append(live.pop())
        if not live:
            raise RuleViolation(NOTHING_TO_TAKE_BACK, R_RETRACT)
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
    """Parse notation, including the shared ``abandon``; a JSON object is a move as a value
    (``{"type": "hanabi.play", "player": 0, "card": 12}``), in every game."""
    check_length(text)
    if text.strip().lower() in ABANDON_WORDS:
        return Abandon(player=seat)
    if text.lstrip().startswith("{"):
        return move_value(ruleset, text)
    return ruleset.parse_move(state, text, seat)


def move_as_value(event: Event) -> Any:
    """``event`` as a JSON-able value (its ``type`` and typed fields), as ``move_value``
    reads it back."""
    return msgspec.to_builtins(event)


def notation(ruleset: Ruleset[Any], state: Any, event: Event) -> str:
    """The notation of ``event`` in the state before it, including ``abandon`` and ``undo``."""
    if isinstance(event, Abandon):
        return "abandon"
    if isinstance(event, Retract):
        return "undo"
    return ruleset.notation(state, event)


def describe(
    ruleset: Ruleset[Any],
    players: Sequence[str],
    before: Any,
    event: Event,
    after: Any,
    seat: int | None = None,
    fold: Fold | None = None,
) -> Message:
    """What ``event`` changed, in one line, as ``seat`` saw it (None: everything). Given the
    ``fold`` it happened in, an undo says which move it took back.

    The framework, not the game, decides what a seat is told: the game describes the event
    as the seat sees it (``redact``), and an event the seat sees nothing of is worded here
    from its class alone (``Event.secret``), whatever it held."""
    if isinstance(event, Retract | Abandon):
        who = _who(players, event.player)
        if isinstance(event, Retract) and fold is not None and seat is None:
            what = say(
                "core.took-back-move",
                "{who} took back seq {seq} ({move})",
                who=who,
                seq=event.seq,
                move=move_summary(fold, event.seq),
            )
        elif isinstance(event, Retract):
            what = say("core.took-back", "{who} took back seq {seq}", who=who, seq=event.seq)
        else:
            what = say("core.abandoned-by", "{who} abandoned the game", who=who)
        if event.reason:
            return say("core.because", "{what}: {reason}", what=what, reason=event.reason)
        return what
    if seat is None:
        return ruleset.describe(before, event, after, None)
    shown = ruleset.redact(before, event, seat)
    if shown is None:
        return hidden(players, event)
    return ruleset.describe(before, shown, after, seat if ruleset.describes_per_seat else None)


def hidden(players: Sequence[str], event: Event) -> Message:
    """How an event its requester sees nothing of is told: who made it and its class's
    ``secret`` words, nothing of what it held."""
    return say(
        "core.hidden-move",
        "{who} {what}",
        who=_who(players, actor(event)),
        what=type(event).secret,
    )


def _who(players: Sequence[str], seat: int | None) -> Param:
    """A seat, or the table (an event nobody made)."""
    return seat_of(players, seat) if seat is not None else say("core.the-table", "the table")


def move_summary(fold: Fold, seq: int) -> str:
    """The event at ``seq`` as a score sheet writes it: ``cat: play 2`` (its mover, if any,
    and its notation in the state before it; the fold must keep its states)."""
    event = fold.events[seq]
    who = actor(event)
    text = notation(fold.ruleset, fold.states[seq - 1], event)
    return f"{fold.players[who]}: {text}" if who is not None else text


def undone_by(events: Sequence[Event]) -> dict[int, int]:
    """For each seq taken back, the seq of the undo that took it back."""
    return {event.seq: seq for seq, event in enumerate(events) if isinstance(event, Retract)}


def redact(ruleset: Ruleset[Any], before: Any, event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` sees it when it happens in ``before`` (None: only that something
    happened)."""
    if seat is None or isinstance(event, Abandon | Retract):
        return event
    return ruleset.redact(before, event, seat)


def check_known(ruleset: Ruleset[Any], state: Any, event: Event, viewer: int | None) -> None:
    """Refuse ``event`` on what ``viewer`` (a seat, ONLOOKER for a host's page, None for a
    scribe who sees everything) can see alone, before the rules consult anything hidden."""
    if isinstance(event, Abandon | Retract):
        return
    ruleset.check_known(ruleset.view(state, viewer), event)


def is_public(ruleset: Ruleset[Any], state: Any, event: Event) -> bool:
    """Whether the whole table sees ``event`` as it is (the host's page may enter it)."""
    return redact(ruleset, state, event, ONLOOKER) == event


def kinds(ruleset: Ruleset[Any], before: Any, event: Event, after: Any) -> tuple[str, ...]:
    """What kind of event this was, for jumps in replay."""
    if isinstance(event, Abandon):
        return ("abandon",)
    if isinstance(event, Retract):
        return ("retract",)
    return ruleset.kinds(before, event, after)
