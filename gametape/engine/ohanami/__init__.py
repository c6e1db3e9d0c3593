"""Ohanami (tutorial edition), as ../shared/rules/ohanami.md specifies."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from gametape.engine.ohanami import notation as _notation
from gametape.engine.ohanami import rules as _rules
from gametape.engine.ohanami.bots import BOTS
from gametape.engine.ohanami.rules import OhanamiState
from gametape.engine.ohanami.view import OhanamiView, view
from gametape.engine.ruleset import Result
from gametape.events.base import Event
from gametape.events.ohanami import OhanamiDeal, OhanamiSetup


class Ohanami:
    """The ``ohanami`` ruleset: 2-4 players, simultaneous picks, three seasons."""

    name = "ohanami"
    version = 1
    setup_type = OhanamiSetup
    min_players = 2
    max_players = 4
    bots = BOTS
    default_bot = "greedy"
    options_help: ClassVar[dict[str, str]] = {}

    def __repr__(self) -> str:
        return "<Ruleset ohanami>"

    def new_setup(self, players: Sequence[str], rng: random.Random,
                  options: dict[str, str]) -> OhanamiSetup:
        if options:
            raise ValueError(f"unknown option {sorted(options)[0]!r}; ohanami has no options")
        return OhanamiSetup(players=tuple(players))

    def start(self, setup: OhanamiSetup) -> OhanamiState:  # type: ignore[override]
        return _rules.start(setup)

    def apply(self, state: OhanamiState, event: Event) -> OhanamiState:
        return _rules.apply(state, event)

    def to_act(self, state: OhanamiState) -> tuple[int, ...]:
        if state.outcome is not None or not state.in_round:
            return ()
        return tuple(s for s, p in enumerate(state.pending) if p is None)

    def chance(self, state: OhanamiState, rng: random.Random) -> Event | None:
        """The next round's deal: every card outside the rows, shuffled (ruling R3)."""
        if not state.needs_deal:
            return None
        deck = list(state.deck + state.discards)
        rng.shuffle(deck)
        return OhanamiDeal(round=state.round + 1, deck=tuple(deck))

    def legal_moves(self, state: OhanamiState, seat: int) -> list[Event]:
        return _rules.legal_moves(state, seat)

    def is_over(self, state: OhanamiState) -> bool:
        return state.outcome is not None

    def result(self, state: OhanamiState) -> Result | None:
        return _rules.result(state)

    def view(self, state: OhanamiState, seat: int | None) -> OhanamiView:
        return view(state, seat)

    def turn(self, state: OhanamiState) -> int:
        return state.turns + 1

    def players(self, state: OhanamiState) -> tuple[str, ...]:
        return state.setup.players

    def parse_move(self, state: OhanamiState, text: str, seat: int | None) -> Event:
        return _notation.parse(state, text, seat)

    def notation(self, state: OhanamiState, event: Event) -> str:
        return _notation.notation(state, event)

    def describe(self, before: OhanamiState, event: Event, after: OhanamiState,
                 seat: int | None = None) -> str:
        return _notation.describe(before, event, after)  # says only what everyone can see

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """A pick is secret to its maker until the turn resolves; nobody sees a deck order."""
        if seat is None:
            return event
        return event if getattr(event, "player", None) == seat else None

    def kinds(self, before: OhanamiState, event: Event, after: OhanamiState) -> tuple[str, ...]:
        """``deal``; ``turn`` for the pick that resolved a turn, plus ``round end``."""
        if isinstance(event, OhanamiDeal):  # a deal of nothing scores its round at once
            return ("deal", "round end") if len(after.scores) > len(before.scores) else ("deal",)
        if len(after.scores) > len(before.scores):
            return ("turn", "round end")
        return ("turn",) if after.turns > before.turns else ("pick",)

    def facts(self, state: OhanamiState) -> dict[str, Any]:
        return {"round": state.round, "turn": state.turn, "deck": len(state.deck),
                "row_lengths": [[len(r) for r in rows] for rows in state.rows],
                "scores": list(state.totals())}


OHANAMI = Ohanami()
