"""A toy game written against the plug-in API alone: Nim (take 1-3, who takes the last wins).

The test suite installs it through the `gametape.games` entry point, never by editing a shared
file, to show a new game needs nothing but its own module. It writes only the required core
and one analytics column; everything else comes from the defaults: whose turn it is and the
abandon are the fold's. docs/writing-a-game.md walks through it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from gametape.engine.ruleset import Option, OptionError, Result, Ruleset, RuleViolation, on
from gametape.events.base import Event, Move, Setup
from gametape.messages import say


class NimSetup(Setup, frozen=True, kw_only=True, tag="toy-nim.setup"):
    pile: int


class NimTake(Move, frozen=True, kw_only=True, tag="toy-nim.take"):
    """Take ``count`` from the pile (``player``, from Move, is who takes)."""

    count: int


class NimState(msgspec.Struct, frozen=True):
    players: int
    pile: int
    current: int = 0
    winner: int | None = None
    outcome: str | None = None


class Nim(Ruleset[NimState]):
    name = "toy-nim"
    events = (NimSetup, NimTake)
    min_players = 2
    max_players = 3
    event_columns: ClassVar[Mapping[str, str]] = {"pile": "INTEGER"}
    options = (Option("pile", int, None, help="the pile counted by hand, at a table (1-99)"),)
    reports = (
        (
            "takes by size",
            "SELECT count(*) AS takes FROM toy_nim.events WHERE type = 'toy-nim.take'",
        ),
    )

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> NimSetup:
        pile = rng.randrange(10, 30)
        return NimSetup(players=tuple(players), pile=options["pile"] or pile)

    def table_setup(self, players: Sequence[str], options: Mapping[str, Any]) -> NimSetup:
        """At a table the pile is counted by hand: ``-o pile=N`` says how many."""
        pile = options["pile"]
        if pile is None or not 1 <= pile <= 99:
            raise OptionError("say how many the pile holds: -o pile=N (1-99)")
        return NimSetup(players=tuple(players), pile=pile, table=True)

    def start(self, setup: NimSetup) -> NimState:
        return NimState(players=len(setup.players), pile=setup.pile)

    @on(NimTake)
    def take(self, state: NimState, event: NimTake) -> NimState:
        if not 1 <= event.count <= min(3, state.pile):
            raise RuleViolation(
                say("nim.cannot-take", "cannot take {count}", count=event.count),
                say("nim.rule.take", "take 1 to 3 from the pile"),
            )
        pile = state.pile - event.count
        winner = event.player if pile == 0 else None
        return NimState(
            players=state.players,
            pile=pile,
            current=(state.current + 1) % state.players,
            winner=winner,
            outcome="win" if winner is not None else None,
        )

    def to_act(self, state: NimState) -> tuple[int, ...]:
        return () if state.outcome else (state.current,)

    def legal_moves(self, state: NimState, seat: int) -> list[Event]:
        if state.outcome or seat != state.current:
            return []
        return [NimTake(player=seat, count=n) for n in range(1, min(3, state.pile) + 1)]

    def result(self, state: NimState) -> Result | None:
        if state.outcome is None:
            return None
        scores = tuple(int(s == state.winner) for s in range(state.players))
        winners = (state.winner,) if state.winner is not None else ()
        return Result(outcome=state.outcome, scores=scores, winners=winners)

    def view(self, state: NimState, seat: int | None) -> NimState:
        return state

    def event_facts(self, before: NimState, event: Event, after: NimState) -> dict[str, Any]:
        return {"pile": after.pile}


RULESET = Nim()
