"""Ohanami (tutorial edition) events. Cards are the numbers 4-72 (1-3 are the row markers)."""

from __future__ import annotations

from typing import ClassVar

from gametape.events.base import Event, Move, Setup
from gametape.messages import (
    Message,
    say,
)


class OhanamiSetup(Setup, frozen=True, kw_only=True, tag="ohanami.setup"):
    """Players in seat order. Each round's deck order comes later, in an ``ohanami.deal``."""


class OhanamiDeal(Event, frozen=True, kw_only=True, tag="ohanami.deal"):
    """The chance event starting a round: the shuffled deck, top first (ruling R3).

    ``deck`` is null for a game dealt at a real table: the order is not known, and a card is
    known once it is picked.
    """

    round: int
    deck: tuple[int, ...] | None


class OhanamiPick(Move, frozen=True, kw_only=True, tag="ohanami.pick"):
    """``player`` picks ``card``; it goes to the end of ``row`` (1-3), or is discarded (None)."""

    secret: ClassVar[Message] = say("ohanami.secret-pick", "picked a card in secret")

    card: int
    row: int | None = None


OHANAMI_EVENTS = (OhanamiSetup, OhanamiDeal, OhanamiPick)
