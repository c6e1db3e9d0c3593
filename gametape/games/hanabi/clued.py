"""What a clue tells its receiver, card by card: the one definition, which the rules
(gametape.games.hanabi.rules) and the fast path (quick.py) both call. Compiled by mypyc with
the fast path: it runs for every clue of every game checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from gametape.games.hanabi.deck import Deck
from gametape.games.hanabi.state import CLUED as _CLUED

CLUED: Final = _CLUED  # read without a lookup, compiled


def learn(
    knowledge: list[int], deck: Deck, hand: Sequence[int], touched: Sequence[int], mask: int
) -> None:
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
        knowledge[o] = (k & mask) | CLUED if o in touched else k & ~mask
