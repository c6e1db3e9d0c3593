"""Hanamikoji (the published game) events. A card is named by its geisha, 0-6: item cards of
one geisha are alike, at a real table as in the rules."""

from __future__ import annotations

from gametape.events.base import Event, Move, Setup

GEISHAS: tuple[str, ...] = ("violet", "red", "yellow", "blue", "orange", "green", "pink")
VALUES: tuple[int, ...] = (2, 2, 2, 3, 3, 4, 5)  # charm; geisha g has VALUES[g] item cards


class ClassicSetup(Setup, frozen=True, kw_only=True, tag="hanamikoji-classic.setup"):
    """Two players and who starts round 1 (ruling C1). Each round's deal comes later."""

    first: int


class ClassicDeal(Event, frozen=True, kw_only=True, tag="hanamikoji-classic.deal"):
    """A round's shuffle: ``deck[0]`` is removed unseen, seat 0 gets the next 6, seat 1 the 6
    after, and the last 8 are the draw pile, top first. Null at a real table."""

    round: int
    deck: tuple[int, ...] | None


class ClassicSecret(Move, frozen=True, kw_only=True, tag="hanamikoji-classic.secret"):
    """``player`` puts one card face down; it scores at the end of the round. ``card`` is
    null at a real table until it is shown (``reveal``)."""

    card: int | None


class ClassicTrade(Move, frozen=True, kw_only=True, tag="hanamikoji-classic.trade"):
    """``player`` puts two cards out of the round (null at a real table: never shown)."""

    cards: tuple[int, int] | None


class ClassicGift(Move, frozen=True, kw_only=True, tag="hanamikoji-classic.gift"):
    """``player`` reveals three cards; the opponent chooses one (``choose``)."""

    cards: tuple[int, int, int]


class ClassicCompete(Move, frozen=True, kw_only=True, tag="hanamikoji-classic.compete"):
    """``player`` reveals two pairs; the opponent chooses one pair (``choose``)."""

    pairs: tuple[tuple[int, int], tuple[int, int]]


class ClassicChoose(Move, frozen=True, kw_only=True, tag="hanamikoji-classic.choose"):
    """The opponent's choice in a gift (one card) or a competition (one pair)."""

    take: tuple[int, ...]


class ClassicReveal(Move, frozen=True, kw_only=True, tag="hanamikoji-classic.reveal"):
    """At a real table, at scoring: the secret card ``player`` kept, now shown."""

    card: int


CLASSIC_EVENTS = (
    ClassicSetup,
    ClassicDeal,
    ClassicSecret,
    ClassicTrade,
    ClassicGift,
    ClassicCompete,
    ClassicChoose,
    ClassicReveal,
)
