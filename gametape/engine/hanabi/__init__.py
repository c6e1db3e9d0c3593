"""Hanabi (Antoine Bauza, 2010), as ../shared/rules/hanabi.md specifies."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from gametape.engine.hanabi import notation as _notation
from gametape.engine.hanabi import rules as _rules
from gametape.engine.hanabi.bots import BOTS
from gametape.engine.hanabi.state import HanabiState
from gametape.engine.hanabi.view import HanabiView, view
from gametape.engine.ruleset import Result, RuleViolation
from gametape.events.base import Event
from gametape.events.hanabi import (
    DEFAULT_COPIES,
    TUTORIAL_COPIES,
    Face,
    HanabiOptions,
    HanabiPlay,
    HanabiSetup,
)

OPTION_HELP = {
    "suits": "comma-separated suit names, e.g. red,yellow,green,blue,purple",
    "copies": "copies of ranks 1-5 per suit, e.g. 3,2,2,2,1; or `tutorial` for 1,2,2,2,1",
    "starting_seat": "the seat that acts first (0-based)",
    "end_at_max_score": "true: end as soon as the best score still reachable is reached",
}


def _bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{text!r} is not true or false")


def parse_options(options: dict[str, str]) -> HanabiOptions:
    """Options from ``key=value`` strings; ValueError names a bad key or value."""
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        key = key.replace("-", "_")
        if key == "suits":
            kwargs[key] = tuple(s.strip() for s in value.split(",") if s.strip())
        elif key == "copies":
            kwargs[key] = (TUTORIAL_COPIES if value == "tutorial"
                           else tuple(int(c) for c in value.split(",")))
        elif key == "starting_seat":
            kwargs[key] = int(value)
        elif key == "end_at_max_score":
            kwargs[key] = _bool(value)
        else:
            raise ValueError(f"unknown option {key!r}; hanabi options: {', '.join(OPTION_HELP)}")
    return HanabiOptions(**kwargs)


class Hanabi:
    """The ``hanabi`` ruleset."""

    name = "hanabi"
    version = 1
    setup_type = HanabiSetup
    min_players = 2
    max_players = 5
    bots = BOTS
    default_bot = "heuristic"
    options_help = OPTION_HELP

    def __repr__(self) -> str:
        return "<Ruleset hanabi>"

    def new_setup(self, players: Sequence[str], rng: random.Random,
                  options: dict[str, str]) -> HanabiSetup:
        opts = parse_options(options)
        copies = opts.copies if len(opts.copies) == 5 else DEFAULT_COPIES
        deck = [Face(s, r) for s in range(len(opts.suits))
                for r, n in enumerate(copies, start=1) for _ in range(n)]
        rng.shuffle(deck)
        return HanabiSetup(players=tuple(players), options=opts, deck=tuple(deck))

    def start(self, setup: HanabiSetup) -> HanabiState:
        return _rules.start(setup)

    # The fold calls these once per event: bound straight to the rules, no extra call.
    apply = staticmethod(_rules.apply)
    is_over = staticmethod(_rules.is_over)

    def to_act(self, state: HanabiState) -> tuple[int, ...]:
        return () if state.outcome else (state.current,)

    def chance(self, state: HanabiState, rng: random.Random) -> Event | None:
        return None  # the whole deck order is in the setup

    def legal_moves(self, state: HanabiState, seat: int) -> list[Event]:
        return _rules.legal_moves(state, seat)

    def result(self, state: HanabiState) -> Result | None:
        if state.outcome is None:
            return None
        n = state.n_players
        return Result(outcome=state.outcome, scores=(state.score,) * n, winners=(),
                      details={"fireworks_sum": state.fireworks_sum, "strikes": state.strikes,
                               "max_score": state.max_score})

    def view(self, state: HanabiState, seat: int | None) -> HanabiView:
        return view(state, seat)

    def turn(self, state: HanabiState) -> int:
        return state.moves + 1

    def players(self, state: HanabiState) -> tuple[str, ...]:
        return state.setup.players

    def parse_move(self, state: HanabiState, text: str, seat: int | None) -> Event:
        return _notation.parse(state, text, seat)

    def notation(self, state: HanabiState, event: Event) -> str:
        return _notation.notation(state, event)

    def describe(self, before: HanabiState, event: Event, after: HanabiState,
                 seat: int | None = None) -> str:
        return _notation.describe(before, event, after, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        return event  # every Hanabi action is made in the open

    def kinds(self, before: HanabiState, event: Event, after: HanabiState) -> tuple[str, ...]:
        return _notation.kinds(before, event, after)

    event_columns: ClassVar[dict[str, str]] = {
        "clues": "INTEGER", "strikes": "INTEGER", "score": "INTEGER", "deck": "INTEGER",
        "card": "VARCHAR", "card_suit": "VARCHAR", "card_rank": "INTEGER",
        "success": "BOOLEAN", "target": "VARCHAR"}
    player_columns: ClassVar[dict[str, str]] = {
        "plays": "INTEGER", "misplays": "INTEGER", "clues_given": "INTEGER",
        "discards": "INTEGER"}

    def event_facts(self, before: HanabiState, event: Event,
                    after: HanabiState) -> dict[str, Any]:
        """Tokens, strikes, fireworks sum and deck after the move; the card played or
        discarded (and whether a play succeeded); a clue's receiver."""
        facts: dict[str, Any] = {"clues": after.clues, "strikes": after.strikes,
                                 "score": after.fireworks_sum, "deck": after.deck_left}
        card = getattr(event, "card", None)
        if card is not None:
            face = after.faces[card]
            suits = before.setup.options.suits
            facts.update(card=_notation.card_name(face, suits), card_suit=suits[face.suit],
                         card_rank=face.rank)
            if isinstance(event, HanabiPlay):
                facts["success"] = after.strikes == before.strikes
        target = getattr(event, "target", None)
        if target is not None:
            facts["target"] = before.setup.players[target]
        return facts

    def player_facts(self, state: HanabiState,
                     events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        rows = [dict.fromkeys(self.player_columns, 0) for _ in state.setup.players]
        for e in events:
            seat, kind = e.get("actor"), e.get("type")
            if seat is None:
                continue
            if kind == "hanabi.play":
                rows[seat]["plays" if e.get("success") else "misplays"] += 1
            elif kind == "hanabi.clue":
                rows[seat]["clues_given"] += 1
            elif kind == "hanabi.discard":
                rows[seat]["discards"] += 1
        return rows


HANABI = Hanabi()

__all__ = ["HANABI", "Hanabi", "HanabiState", "HanabiView", "RuleViolation"]
