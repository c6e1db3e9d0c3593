"""Ohanami (the published game) events. A card is its number, 1-120; its kind follows from
the number (ruling O1, ``rules.kind``)."""

from __future__ import annotations

from typing import ClassVar

from gametape.events.base import Event, Move, Setup
from gametape.messages import (
    Message,
    say,
)


class ClassicOhanamiSetup(Setup, frozen=True, kw_only=True, tag="ohanami-classic.setup"):
    """Players in clockwise seat order (ruling O2b). ``triangle``: more than 15 pink cards
    go on up the triangle (16: 136, ...) instead of scoring 120 (ruling O3)."""

    triangle: bool = False


class ClassicOhanamiDeal(Event, frozen=True, kw_only=True, tag="ohanami-classic.deal"):
    """A round's deal: 10 cards to each seat from the cards still in the box. Null at a real
    table: each holder enters their hand (``hand``)."""

    round: int
    hands: tuple[tuple[int, ...], ...] | None


class ClassicOhanamiHand(Move, frozen=True, kw_only=True, tag="ohanami-classic.hand"):
    """At a real table: the 10 cards ``player`` was dealt, entered by its holder (or by a
    scribe who was shown them; ruling O7)."""

    secret: ClassVar[Message] = say("ohanami-classic.secret-hand", "entered their hand")

    cards: tuple[int, ...]


class ClassicOhanamiChoose(Move, frozen=True, kw_only=True, tag="ohanami-classic.choose"):
    """``player`` puts two cards of their hand face down; they show when everyone has chosen."""

    secret: ClassVar[Message] = say("ohanami-classic.secret-choice", "chose two cards face down")

    cards: tuple[int, int]


class ClassicOhanamiPlace(Move, frozen=True, kw_only=True, tag="ohanami-classic.place"):
    """``player`` places their two shown cards, in this order (ruling O2): ``rows[i]`` is the
    row (1-3) ``cards[i]`` goes into, a row one past the player's last starts it, and None
    discards the card."""

    cards: tuple[int, int]
    rows: tuple[int | None, int | None]


CLASSIC_OHANAMI_EVENTS = (
    ClassicOhanamiSetup,
    ClassicOhanamiDeal,
    ClassicOhanamiHand,
    ClassicOhanamiChoose,
    ClassicOhanamiPlace,
)
