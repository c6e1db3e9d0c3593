"""Hanabi's card-by-card loops that the rules call, compiled by mypyc with the fast path:
what a clue tells each card (``learn``), where a card is in a hand (``place``) and where a
deal first goes wrong (``deal_problem``, for every game started); the fast path calls them
too, and reads the faces' indices of the deal checked last."""

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


# The last deal found right and its faces' indices (read only), which the fast path reads
LAST_DEAL: tuple[Sequence[Face | None], list[int]] = ((), [])


def deal_problem(faces: Sequence[Face | None], deck: Deck) -> tuple[int, bool, list[int]]:
    """Where a deal first goes wrong (-1: nowhere): the first card whose face the deck has no
    card of, or has fewer copies of than the faces so far; whether a face before it is not
    known (None: at a real table); the known faces' indices (``Deck.index``) before it."""
    global LAST_DEAL
    copies, stride, n_suits = deck.copies, deck.stride, len(deck.suits)
    counts = [0] * len(copies)
    codes: list[int] = []
    unknown = False
    for at, face in enumerate(faces):
        if face is None:
            unknown = True
            continue
        suit, rank = face.suit, face.rank
        code = suit * stride + rank - 1
        if not (0 <= suit < n_suits and 0 < rank <= stride) or counts[code] == copies[code]:
            return at, unknown, codes  # (copies 0: the deck has no such card)
        counts[code] = counts[code] + 1  # (+= on an item is not compiled to native ints)
        codes.append(code)
    if not unknown:
        LAST_DEAL = (faces, codes)  # one assignment: a thread reads both or neither
    return -1, unknown, codes
