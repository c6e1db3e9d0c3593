"""The events every ruleset shares: the base classes, and abandonment."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import msgspec

from gametape.messages import Message, say

Meta = dict[str, str | int | float | bool | None]
Upgrade = Callable[[dict[str, Any]], dict[str, Any]]


class Event(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True, gc=False
):
    """Base of every event. Subclasses set a tag such as ``"hanabi.play"``.

    An event's shape can change: the new class takes a new tag (``"hanabi.play2"``) and lists
    in ``upgrades`` each older tag it replaces, with a function taking that old event's JSON
    object to the new one (its ``"type"`` set to the new tag). Old lines are upgraded as
    they are read; the log on disk never changes, and the hash chain covers its bytes.
    """

    upgrades: ClassVar[Mapping[str, Upgrade]] = {}
    # How a requester who sees nothing of this event (its ``redact`` is None) is told of it,
    # after who made it: "picked a card in secret". The framework words it; a game never
    # describes an event its requester cannot see.
    secret: ClassVar[Message] = say("core.secret-move", "made a secret move")

    # The id its sender chose for it (a phone's retry, a script's): a retry with the same id
    # gets the first answer and never records twice (docs/format.md). Empty: none.
    move_id: str = ""


class Setup(Event, frozen=True, kw_only=True):
    """The first event of every log: which game, who plays, and every chance outcome.

    ``game`` is the game id (also the log's file name); ``table`` says the game was dealt by
    hand at a real table (nothing of the deal is known; cards enter the log as the game shows
    them); ``meta`` holds facts about the recording that the rules never read (the RNG seed
    used to shuffle, an import's source).
    """

    game: str = ""
    players: tuple[str, ...]
    table: bool = False
    meta: Meta = {}

    @property
    def at_table(self) -> bool:
        """Whether the game was dealt at a real table: ``table``, or in a log written before
        that field existed, ``meta.table`` (docs/format.md)."""
        return self.table or self.meta.get("table") is True


class Move(Event, frozen=True, kw_only=True):
    """Base of every event a player makes: ``player`` is the seat that made it. The fold
    checks that this seat is one of the seats to act before the game sees the move; undo,
    replay and the read model know the mover by this field alone. An event nobody makes (a
    deal, a note by the recorder) derives from ``Event`` instead."""

    player: int


class Abandon(Event, frozen=True, kw_only=True, tag="abandon"):
    """The players stopped the game. Every ruleset accepts it while the game is running."""

    player: int | None = None
    reason: str = ""


class Retract(Event, frozen=True, kw_only=True, tag="retract"):
    """Takes back the event at ``seq``, which must be the last one still in effect.

    Logs are never edited: a mistake is corrected by appending this, and the fold restores
    the state from before the retracted event. ``player`` is who asked for it, if known.
    """

    seq: int
    player: int | None = None
    reason: str = ""


# a tuple, made once: ``A | B`` in an isinstance call makes a union at every call (3x slower)
_MADE_BY_A_SEAT = (Move, Abandon, Retract)


def actor(event: Event) -> int | None:
    """The seat that made this event (a move, or who abandoned or took back a move), or
    None for setup, chance and table events."""
    if isinstance(event, _MADE_BY_A_SEAT):
        return event.player
    return None
