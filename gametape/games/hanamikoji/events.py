"""Hanamikoji (tutorial edition) events.

A performer card is named by its number, 1-14: artist k has the performers k and k + 7, and each
player owns one full set, so a number names one card of that player's deck.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from gametape.events.base import Move, Setup
from gametape.messages import (
    Message,
    say,
)

ARTISTS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
ZONES: tuple[str, ...] = ("perform", "hidden", "sacrifice", "vote")


class HanamikojiSetup(Setup, frozen=True, kw_only=True, tag="hanamikoji.setup"):
    """Two players, each one's shuffled 14-card deck (top first), and the starting seat.

    A game dealt at a real table has decks of fourteen 0s: the order is not known.
    """

    decks: tuple[tuple[int, ...], ...]
    first: int


class HanamikojiAssign(Move, frozen=True, kw_only=True, tag="hanamikoji.assign"):
    """``player`` puts four different cards of their hand, one in each zone, in secret.

    At a real table the hidden and sacrificed cards may stay unknown (null): only the
    performed and voted cards are shown when the round resolves.
    """

    secret: ClassVar[Message] = say("hanamikoji.secret-assign", "assigned four cards in secret")

    perform: int
    hidden: int | None
    sacrifice: int | None
    vote: int

    def cards(self) -> tuple[int | None, int | None, int | None, int | None]:
        return (self.perform, self.hidden, self.sacrifice, self.vote)


class Zones(msgspec.Struct, frozen=True, gc=False):
    """A revealed assignment, as views and round records show it (``hidden`` may be masked;
    at a real table the hidden and sacrificed cards may be unknown)."""

    perform: int
    hidden: int | None
    sacrifice: int | None
    vote: int


HANAMIKOJI_EVENTS = (HanamikojiSetup, HanamikojiAssign)
