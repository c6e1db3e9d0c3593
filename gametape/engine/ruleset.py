"""The Ruleset protocol every game implements, and the types it shares.

A ruleset is a small declarative object (after boardgame.io): how a game starts, how one event
changes a state, who must act, what is legal, when it is over and how it scored, what one player
can see, and how people write its moves. The fold, validation, replay, analytics and the CLI use
nothing else, so no game is special-cased anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from gametape.events.base import Event, Setup

S = TypeVar("S")


class RuleViolation(Exception):
    """An event the rules do not allow. ``rule`` quotes the rule it breaks."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} (rule: {self.rule})"


class NotationError(ValueError):
    """Text that is not a move in the ruleset's notation; the message says what is expected."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished game ended.

    ``scores`` has one entry per seat (a cooperative game gives every seat the team score);
    ``winners`` lists seats (empty for a cooperative loss or a draw with no winner).
    ``details`` carries ruleset-specific facts (fireworks sum, tie-break used, ...).
    """

    outcome: str
    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    details: dict[str, Any] = {}


class Bot(Protocol):
    """Chooses a move for one seat from that seat's view and legal moves only."""

    def choose(self, view: Any, legal: Sequence[Event], rng: random.Random) -> Event: ...


class Ruleset(Protocol[S]):
    """The protocol. ``S`` is the ruleset's immutable state type."""

    # Fixed facts about the ruleset (class attributes in each implementation).
    @property
    def name(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def setup_type(self) -> type[Setup]: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def bots(self) -> Mapping[str, Callable[[], Bot]]: ...
    @property
    def default_bot(self) -> str: ...
    @property
    def options_help(self) -> Mapping[str, str]: ...

    def new_setup(self, players: Sequence[str], rng: random.Random,
                  options: dict[str, str]) -> Setup:
        """A setup event with every chance outcome drawn from ``rng``. Options as strings."""

    def start(self, setup: Any) -> S:
        """The state before any move, from this ruleset's setup event (``setup_type``)."""

    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``; never mutates ``state``. Raises RuleViolation."""

    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that may act now (several in a simultaneous phase); empty when over."""

    def chance(self, state: S, rng: random.Random) -> Event | None:
        """A chance event the table must record before anyone acts (a deal), else None."""

    def legal_moves(self, state: S, seat: int) -> list[Event]:
        """Every legal move for ``seat`` now (empty if it may not act)."""

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    def view(self, state: S, seat: int | None) -> msgspec.Struct:
        """What ``seat`` can see (None: everything). JSON-encodable."""

    def turn(self, state: S) -> int:
        """The number of the turn (or round/turn) being played now, from 1."""

    def players(self, state: S) -> tuple[str, ...]: ...

    def parse_move(self, state: S, text: str, seat: int | None) -> Event:
        """Parse notation. ``seat`` is who is moving if known. Raises NotationError."""

    def notation(self, state: S, event: Event) -> str:
        """The notation of ``event`` played in ``state`` (``parse_move`` gives it back)."""

    def describe(self, before: S, event: Event, after: S, seat: int | None = None) -> str:
        """One line saying what changed, as ``seat`` saw it (None: everything)."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """The event as ``seat`` sees it when it happens; None if they only see that it did."""

    def kinds(self, before: S, event: Event, after: S) -> tuple[str, ...]:
        """Names for what kind of event this was ("strike", "round"), for replay's jumps."""

    # Analytics: each ruleset names its own columns (DuckDB types) and fills them.
    @property
    def event_columns(self) -> Mapping[str, str]: ...
    @property
    def player_columns(self) -> Mapping[str, str]: ...

    def event_facts(self, before: S, event: Event, after: S) -> dict[str, Any]:
        """Facts about one event and the state after it, keyed by ``event_columns``."""

    def player_facts(self, state: S, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Per seat, facts keyed by ``player_columns``, from the final state and the event
        rows (each holds ``actor``, ``type`` and that event's facts)."""
