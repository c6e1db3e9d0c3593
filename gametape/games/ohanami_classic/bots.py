"""Bots for the published Ohanami. They see only their own view (ruling O6)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from gametape.engine.ruleset import Bot, RuleViolation
from gametape.events.base import Event
from gametape.games.ohanami_classic.events import ClassicOhanamiChoose, ClassicOhanamiPlace
from gametape.games.ohanami_classic.rules import kind, placed
from gametape.games.ohanami_classic.view import ClassicOhanamiView


class RandomBot:
    """A uniformly random legal move."""

    def choose(self, view: ClassicOhanamiView, legal: Sequence[Event], rng: random.Random) -> Event:
        return rng.choice(list(legal))


def worth(card: int, round_: int, pinks: int) -> float:
    """What a card in a row earns from now to the end: blue 3 every round left, green 4 in
    rounds 2 and 3, grey 7 in round 3, a pink card the step it adds to the triangle."""
    k = kind(card)
    if k == "blue":
        return 3.0 * (4 - round_)
    if k == "green":
        return 4.0 * (3 - max(round_, 2) + 1)
    if k == "grey":
        return 7.0
    return float(min(pinks + 1, 15))


class GreedyBot:
    """Places the cards that earn most, keeping rows open at both ends.

    A placement is worth what its cards earn to the end of the game (``worth``), less room
    used: a card far above or below its row's end costs 0.1 a number; a new row costs 2 (rows
    are few). Choosing, it keeps the pair whose cards are worth most placed each on its own.
    """

    def choose(self, view: ClassicOhanamiView, legal: Sequence[Event], rng: random.Random) -> Event:
        seat = view.seat
        assert seat is not None
        rows = view.gardens[seat].rows
        pinks = sum(kind(c) == "pink" for row in rows for c in row)

        def placing(cards: tuple[int, ...], where: tuple[int | None, ...]) -> float:
            value, now = 0.0, rows
            for card, row in zip(cards, where, strict=True):
                if row is None:
                    continue
                if row == len(now) + 1:
                    value -= 2.0
                else:
                    line = now[row - 1]
                    value -= 0.1 * min(abs(card - line[-1]), abs(card - line[0]))
                value += worth(card, view.round, pinks)
                now = placed(now, card, row)
            return value

        singles: dict[int, float] = {}

        def alone(card: int) -> float:
            """The best a card earns placed on its own now (0: discarded)."""
            if card not in singles:
                options = [0.0]
                for row in range(1, len(rows) + 2):
                    try:
                        placed(rows, card, row)
                    except RuleViolation:  # an illegal placement
                        continue
                    options.append(placing((card,), (row,)))
                singles[card] = max(options)
            return singles[card]

        def value(move: Event) -> float:
            if isinstance(move, ClassicOhanamiChoose):
                return alone(move.cards[0]) + alone(move.cards[1])
            assert isinstance(move, ClassicOhanamiPlace)
            return placing(move.cards, move.rows)

        return max(legal, key=value)


BOTS: dict[str, Callable[[], Bot]] = {"greedy": GreedyBot, "random": RandomBot}
