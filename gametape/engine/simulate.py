"""Simulated games: bots play a ruleset from their own seats' views. No files here."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gametape.engine.game import Game
from gametape.engine.ruleset import Ruleset
from gametape.events.base import Event

MAX_EVENTS = 10_000  # a guard against a ruleset that never ends


def play(
    ruleset: Ruleset[Any],
    players: Sequence[str],
    bot: str,
    rng: random.Random,
    options: dict[str, str] | None = None,
    seed: int | None = None,
) -> Game:
    """Play one complete game with ``bot`` in every seat; return it (setup first)."""
    if bot not in ruleset.bots:
        raise KeyError(f"no bot {bot!r} for {ruleset.name}; bots: {', '.join(ruleset.bots)}")
    meta = {"seed": seed, "bot": bot} if seed is not None else {}
    game = Game.create(ruleset, players, rng, options, **meta)
    bots = [ruleset.bots[bot]() for _ in players]
    while not game.is_over:
        if len(game.events) > MAX_EVENTS:
            raise RuntimeError(f"{ruleset.name} game did not end after {MAX_EVENTS} events")
        moves: list[Event] = []
        for seat in game.to_act():
            moves.append(bots[seat].choose(game.view(seat), game.legal_moves(seat), rng))
        for move in moves:
            game.push(move)
        game.deal(rng)
    return game


def default_players(count: int) -> list[str]:
    names = ["alice", "bob", "cara", "dan", "erin", "finn"]
    return names[:count] if count <= len(names) else [f"p{i + 1}" for i in range(count)]


def default_count(ruleset: Ruleset[Any]) -> int:
    """Three players, or the nearest count the ruleset allows."""
    return max(ruleset.min_players, min(3, ruleset.max_players))
