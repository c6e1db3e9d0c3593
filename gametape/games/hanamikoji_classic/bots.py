"""Bots for the published Hanamikoji, seeing only their own seat's view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from gametape.engine.ruleset import RandomBot
from gametape.events.base import Event
from gametape.games.hanamikoji_classic.events import (
    VALUES,
    ClassicChoose,
    ClassicCompete,
    ClassicGift,
    ClassicSecret,
    ClassicTrade,
)
from gametape.games.hanamikoji_classic.view import ClassicView


def _worth(view: ClassicView, me: int, mine: list[int], theirs: list[int]) -> float:
    """Charm I can count on: geishas I lead (or keep on a tie), minus the ones I trail."""
    total = 0.0
    for g, value in enumerate(VALUES):
        if mine[g] > theirs[g]:
            total += value
        elif mine[g] < theirs[g]:
            total -= value
        elif view.markers[g] is not None:
            total += value / 2 if view.markers[g] == me else -value / 2
    return total


class GreedyBot:
    """One ply: the move whose placements leave the best position, assuming the opponent
    chooses what is best for them; a secret keeps the most charming card, a trade-off gives up
    the least; cards left in hand count a little."""

    def choose(self, view: ClassicView, legal: Sequence[Event], rng: random.Random) -> Event:
        me = view.to_act[0]
        mine = list(view.sides[me].cards)
        theirs = list(view.sides[1 - me].cards)
        hand = [c for c in (view.sides[me].hand or ()) if c >= 0]

        def placed(mine_add: Sequence[int], theirs_add: Sequence[int]) -> float:
            m, t = mine[:], theirs[:]
            for c in mine_add:
                m[c] += 1
            for c in theirs_add:
                t[c] += 1
            return _worth(view, me, m, t)

        def value(move: Event) -> float:
            keep = list(hand)
            gone: tuple[int, ...] = ()
            if isinstance(move, ClassicChoose):
                offer = view.offer
                assert offer is not None
                rest = list(offer.options)
                rest.remove(next(o for o in rest if sorted(o) == sorted(move.take)))
                return placed(move.take, [c for o in rest for c in o])
            if isinstance(move, ClassicSecret) and move.card is not None:
                gone = (move.card,)
                score = placed([move.card], []) + 0.1 * VALUES[move.card]
            elif isinstance(move, ClassicTrade) and move.cards is not None:
                gone = move.cards
                score = placed([], []) - 0.3 * sum(VALUES[c] for c in move.cards)
            elif isinstance(move, ClassicGift):
                gone = move.cards
                # the opponent takes the card best for them
                score = min(
                    placed([c for j, c in enumerate(move.cards) if j != i], [move.cards[i]])
                    for i in range(3)
                )
            elif isinstance(move, ClassicCompete):
                gone = (*move.pairs[0], *move.pairs[1])
                a, b = move.pairs
                score = min(placed(b, a), placed(a, b))
            else:
                return 0.0
            for c in gone:
                keep.remove(c)
            return score + 0.2 * sum(VALUES[c] for c in keep)

        best = max(value(m) for m in legal)
        return rng.choice([m for m in legal if value(m) == best])


BOTS = {"greedy": GreedyBot, "random": RandomBot}
