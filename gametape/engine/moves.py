"""Small pieces several rulesets share: naming players in notation, gathering simultaneous
moves. Nothing here knows any one game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from gametape.engine.ruleset import NotationError

M = TypeVar("M")


def seat_named(players: Sequence[str], name: str, seat: int | None = None) -> int:
    """The seat of ``name`` (case-insensitive); NotationError lists the players.

    ``seat``, when given, is who is moving (``--by``): a move naming someone else is refused.
    """
    names = [p.lower() for p in players]
    if name.lower() not in names:
        raise NotationError(f"no player {name!r}; the players are {', '.join(players)}")
    named = names.index(name.lower())
    if seat is not None and seat != named:
        raise NotationError(f"the move is {players[named]}'s but --by names {players[seat]}")
    return named


def gather(pending: tuple[M | None, ...], seat: int, move: M) -> tuple[tuple[M | None, ...], bool]:
    """Record one seat's move in a simultaneous phase; True once every seat has moved."""
    moves = list(pending)
    moves[seat] = move
    return tuple(moves), None not in moves
