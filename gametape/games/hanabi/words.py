"""How Hanabi says its cards, faces and clues aloud: the words the rules' refusals and the
notation's descriptions are made of (each a message, rendered in the reader's language)."""

from __future__ import annotations

from gametape.games.hanabi.deck import HIDDEN_COLOUR, HIDDEN_RANK, Deck
from gametape.games.hanabi.events import Face
from gametape.games.hanabi.state import HanabiState
from gametape.games.hanabi.variants import START_RANK
from gametape.messages import Message, Term, say, seat_of, term


def card_words(state: HanabiState, card: int) -> Message:
    """A card as the table knows it: ``ben's slot 2``, else the card's place in the deck."""
    for seat, hand in enumerate(state.hands):
        if card in hand:
            return say(
                "hanabi.card-in-hand",
                "{holder}'s slot {slot}",
                holder=seat_of(state.setup.players, seat),
                slot=len(hand) - hand.index(card),
            )
    return say("hanabi.card-in-deck", "the deck's card {card}", card=card + 1)


def face_words(face: Face, suits: tuple[str, ...]) -> Message:
    """A face as said aloud: ``red 3``."""
    return say(
        "hanabi.face",
        "{suit} {rank}",
        suit=term("hanabi.suit", suits[face.suit]),
        rank=rank_word(face.rank),
    )


def rank_word(rank: int) -> int | Term:
    """A card's rank as said aloud: the number, or Up or Down's ``START``."""
    return term("hanabi.rank", "START") if rank == START_RANK else rank


def clue_words(deck: Deck, colour: int | None, rank: int | None) -> Term:
    """What a clue names, as said aloud: ``red``, ``3`` (``odd`` in Odds and Evens); a value
    hidden (``hide_value``) as hanab.live says it: ``moo``, ``oink``, ``quack``."""
    if colour == HIDDEN_COLOUR:
        return term("hanabi.clue-sound", "moo")
    if rank == HIDDEN_RANK:
        return term("hanabi.clue-sound", "oink")
    if colour is None and rank is None:
        return term("hanabi.clue-sound", "quack")
    if colour is not None:
        return term("hanabi.colour", deck.colours[colour])
    return term("hanabi.rank", deck.rank_word(rank))  # type: ignore[arg-type]
