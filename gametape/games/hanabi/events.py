"""Hanabi's events. Cards are named by their *order*: their index in the shuffled deck."""

from __future__ import annotations

import msgspec

from gametape.events.base import Event, Move, Setup

DEFAULT_SUITS: tuple[str, ...] = ("red", "yellow", "green", "blue", "white")
# hanab.live's No Variant calls the fifth suit purple; gametape (its logs since imports use
# DEFAULT_SUITS, and its read model for older imports) calls it white, as the published game.
HANABLIVE_SUITS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
DEFAULT_COPIES: tuple[int, ...] = (3, 2, 2, 2, 1)
TUTORIAL_COPIES: tuple[int, ...] = (1, 2, 2, 2, 1)


class Face(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """What is printed on a card: a suit index and a rank (1-5). Encoded as ``[suit, rank]``."""

    suit: int
    rank: int


class HanabiOptions(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    gc=False,
):
    """Setup options. ``copies[r-1]`` is the number of copies of rank r in each suit.

    ``variant``: a hanab.live variant by its name (docs/variants.md); it brings its own suits
    and copies, so ``suits`` and ``copies`` apply to "No Variant" only. ``empty_clues``,
    ``one_extra_card`` and ``one_less_card`` are hanab.live's game options of those names."""

    suits: tuple[str, ...] = DEFAULT_SUITS
    copies: tuple[int, ...] = DEFAULT_COPIES
    starting_seat: int = 0
    end_at_max_score: bool = False
    end_when_nothing_playable: bool = False
    variant: str = "No Variant"
    empty_clues: bool = False
    one_extra_card: bool = False
    one_less_card: bool = False


class HanabiSetup(Setup, frozen=True, kw_only=True, tag="hanabi.setup"):
    """Players, options and the deck in dealing order.

    A ``null`` entry in ``deck`` is a card whose face was not known when the game was
    recorded (a game at a real table); plays and discards then record the face they revealed.
    """

    options: HanabiOptions = HanabiOptions()
    deck: tuple[Face | None, ...]


class HanabiPlay(Move, frozen=True, kw_only=True, tag="hanabi.play"):
    """``player`` plays the card ``card`` (an order). ``face``: the face a recorder saw, if any."""

    card: int
    face: Face | None = None


class HanabiDiscard(Move, frozen=True, kw_only=True, tag="hanabi.discard"):
    """``player`` discards the card ``card`` (an order). ``face``: the face seen, if any."""

    card: int
    face: Face | None = None


class HanabiClue(Move, frozen=True, kw_only=True, tag="hanabi.clue"):
    """``player`` clues ``target`` with exactly one of ``suit`` or ``rank`` (1-5).

    ``suit`` is a clue colour, by its index among the colours the game's clues can name: in
    the published game and "No Variant" the suits themselves; in a variant its clue colours
    (``Rainbow (6 Suits)`` has five colours for six suits). The name is kept for old logs.

    ``touched``: the orders a recorder saw touched, if any; the engine derives them from the
    deck when it knows the faces and checks the two agree.
    """

    target: int
    suit: int | None = None
    rank: int | None = None
    touched: tuple[int, ...] | None = None


class HanabiSee(Event, frozen=True, kw_only=True, tag="hanabi.see"):
    """A recorder at a real table notes faces they saw in ``target``'s hand: ``faces[i]`` is
    the face of the card ``cards[i]`` (an order). Not a move: nobody's turn passes."""

    target: int
    cards: tuple[int, ...]
    faces: tuple[Face, ...]


HANABI_EVENTS = (HanabiSetup, HanabiPlay, HanabiDiscard, HanabiClue, HanabiSee)
