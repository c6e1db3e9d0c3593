"""What one player can see: every hand but their own, and what clues told them."""

from __future__ import annotations

import msgspec

from gametape.games.hanabi.events import Face
from gametape.games.hanabi.state import HanabiState, Knowledge


class CardView(msgspec.Struct, frozen=True, kw_only=True):
    """A card in a hand as the viewer sees it. ``face`` is None when hidden from the viewer.

    ``suits``/``ranks`` are what its holder knows from clues (clues are public).
    """

    order: int
    face: Face | None
    clued: bool
    suits: tuple[int, ...]
    ranks: tuple[int, ...]


class HanabiView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view (``seat`` None: the omniscient view). Hands are newest card first."""

    ruleset: str
    seat: int | None
    players: tuple[str, ...]
    suits: tuple[str, ...]
    copies: tuple[int, ...]
    current: int
    turn: int
    hands: tuple[tuple[CardView, ...], ...]
    fireworks: tuple[int, ...]
    discards: tuple[Face | None, ...]
    clues: int
    strikes: int
    deck: int
    score: int
    fireworks_sum: int
    max_score: int
    final_turns: int | None
    outcome: str | None


def view(state: HanabiState, seat: int | None) -> HanabiView:
    n_suits = len(state.fireworks)
    hands = []
    for holder, hand in enumerate(state.hands):
        cards = []
        for order in reversed(hand):
            k = Knowledge.of(state.knowledge[order], n_suits)
            cards.append(
                CardView(
                    order=order,
                    face=None if holder == seat else state.faces[order],
                    clued=k.clued,
                    suits=k.suits,
                    ranks=k.ranks,
                )
            )
        hands.append(tuple(cards))
    opts = state.setup.options
    return HanabiView(
        ruleset="hanabi",
        seat=seat,
        players=state.setup.players,
        suits=opts.suits,
        copies=opts.copies,
        current=state.current,
        turn=state.moves + 1,
        hands=tuple(hands),
        fireworks=state.fireworks,
        discards=tuple(state.faces[o] for o in state.discards),
        clues=state.clues,
        strikes=state.strikes,
        deck=state.deck_left,
        score=state.score,
        fireworks_sum=state.fireworks_sum,
        max_score=state.max_score,
        final_turns=state.final_turns,
        outcome=state.outcome,
    )
