"""Hanabi's card-by-card loops that the rules call, compiled by mypyc with the fast path:
what a clue tells each card (``learn``, which the fast path calls too), where a card is in a
hand (``place``) and a deal's faces counted and checked (``deal_problem``, for every game
started).
"""

from __future__ import annotations

from collections.abc import Sequence

from gametape.games.hanabi.deck import Deck
from gametape.games.hanabi.events import Face
from gametape.games.hanabi.state import CLUED


def learn(knowledge: list[int], deck: Deck, hand: list[int], touched: list[int], mask: int) -> None:
    """What a clue of reach ``mask`` tells its receiver of each card in ``hand`` (in place):
    a touched card is among the faces the clue touches, an untouched one is not. In Cow &
    Pig and Duck the value is its giver's alone: the touched cards are marked, no knowledge
    is narrowed (hanab.live's shouldApplyClue)."""
    if deck.hidden_clues:
        for o in touched:
            knowledge[o] |= CLUED
        return
    for o in hand:
        k = knowledge[o]
        knowledge[o] = (k & mask) | CLUED if place(touched, o) >= 0 else k & ~mask


def place(cards: list[int], card: int) -> int:
    """Where ``card`` is in ``cards``, or -1 (compiled: a loop over unboxed ints, where
    ``in`` and ``index`` box each)."""
    for at in range(len(cards)):
        if cards[at] == card:
            return at
    return -1


def deal_problem(faces: Sequence[Face | None], deck: Deck) -> tuple[int, int, bool]:
    """A deal's faces checked against ``deck``: where the first face that is wrong first
    shows (-1: none is), taking the faces in the order each first shows, a face being wrong
    when the deck has no such card or when it shows more often than the deck has copies; how
    often that face shows (0 for one the deck has no card of); and whether any face is not
    known (None: at a real table). The rules word what is wrong (``rules.start``)."""
    copies, stride, n_suits = deck.copies, deck.stride, len(deck.suits)
    ranks = 0  # the ranks printed on cards, as bits
    for r in deck.card_ranks:
        ranks |= 1 << r
    counts = [0] * len(copies)
    first = [-1] * len(copies)  # where each face first shows
    wrong = -1  # where the first face the deck has no card of shows
    unknown = False
    for at, face in enumerate(faces):
        if face is None:
            unknown = True
            continue
        suit, rank = face.suit, face.rank
        if not (0 <= suit < n_suits and 0 < rank < 64 and ranks >> rank & 1):
            if wrong < 0:
                wrong = at
            continue
        code = suit * stride + rank - 1
        counts[code] = counts[code] + 1  # (+= on an item is not compiled to native ints)
        if first[code] < 0:
            first[code] = at
    seen = 0
    for code in range(len(copies)):
        if counts[code] > copies[code] and (wrong < 0 or first[code] < wrong):
            wrong, seen = first[code], counts[code]
    return wrong, seen, unknown
