"""A toy game written against the plug-in API alone: Nim (take 1-3, who takes the last wins).

The test suite installs it through the `gametape.games` entry point, never by editing a shared
file, to show a new game needs nothing but its own module. It writes only the required core
and one analytics column; everything else comes from the defaults: whose turn it is and the
abandon are the fold's. docs/writing-a-game.md walks through it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from gametape.engine.ruleset import Declaration, Option, Result, Ruleset, RuleViolation, on
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
    declared = Declaration(
        name="toy-nim",
        events=(NimSetup, NimTake),
        players=(2, 3),
        # a table counts its pile by hand and says how many: -o pile=N
        options=(Option("pile", int, None, bounds=(1, 99), at_table=True, help="the pile"),),
        table=True,  # it gives table_setup
        secrecy="open",  # nothing is hidden: every seat sees the whole state (no view)
        event_columns={"pile": "INTEGER"},
        reports=(
            (
                "takes by size",
                "SELECT count(*) AS takes FROM toy_nim.events WHERE type = 'toy-nim.take'",
            ),
        ),
    )

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> NimSetup:
        return NimSetup(players=tuple(players), pile=options["pile"] or rng.randrange(10, 30))

    def table_setup(self, players: Sequence[str], options: Mapping[str, Any]) -> NimSetup:
        return NimSetup(players=tuple(players), pile=options["pile"], table=True)

    def start(self, setup: NimSetup) -> NimState:
        return NimState(players=len(setup.players), pile=setup.pile)

    @on(NimTake)
    def take(self, state: NimState, event: NimTake) -> NimState:
        if not 1 <= event.count <= min(3, state.pile):
            raise RuleViolation(
                say("nim.cannot-take", "cannot take {count}", count=event.count),
                say("nim.rule.take", "take 1 to 3 from the pile"),
            )
        pile, current = state.pile - event.count, (state.current + 1) % state.players
        won = {"winner": event.player, "outcome": "win"} if pile == 0 else {}
        return msgspec.structs.replace(state, pile=pile, current=current, **won)

    def to_act(self, state: NimState) -> tuple[int, ...]:
        return () if state.outcome else (state.current,)

    def legal_moves(self, state: NimState, seat: int) -> list[Event]:
        if state.outcome or seat != state.current:
            return []
        return [NimTake(player=seat, count=n) for n in range(1, min(3, state.pile) + 1)]

    def result(self, state: NimState) -> Result | None:
        scores = tuple(int(s == state.winner) for s in range(state.players))
        return Result.highest_total(scores, state.outcome) if state.outcome else None

    def event_facts(self, before: NimState, event: Event, after: NimState) -> dict[str, Any]:
        return {"pile": after.pile}


RULESET = Nim()
