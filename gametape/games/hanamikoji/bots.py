"""Hanamikoji bots. They see only their own view and legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from gametape.engine.ruleset import Bot
from gametape.events.base import Event
from gametape.games.hanamikoji.events import HanamikojiAssign
from gametape.games.hanamikoji.rules import artist_of
from gametape.games.hanamikoji.view import HanamikojiView


class RandomBot:
    """A uniformly random legal assignment."""

    def choose(self, view: HanamikojiView, legal: Sequence[Event], rng: random.Random) -> Event:
        return rng.choice(list(legal))


class GreedyBot:
    """Values the artists it can still capture.

    Performs its most valuable card (an unowned artist, worth its value; the higher of the
    pair breaks ties, since higher numbers resolve first), keeps the next two best for the
    next round, and puts its least valuable cards where they cost or earn the same whatever
    they are: the vote (+1), the sacrifice, and the hidden zone last (-1, the cheapest card).
    """

    def choose(self, view: HanamikojiView, legal: Sequence[Event], rng: random.Random) -> Event:
        seat = view.seat
        assert seat is not None
        hand = view.seats[seat].hand or ()

        def value(card: int) -> tuple[float, int]:
            artist = artist_of(card)
            worth = artist + 1 if view.owners[artist] is None else 0
            return (worth, card)

        ranked = sorted(hand, key=value, reverse=True)
        perform = ranked[0]
        rest = ranked[1:]
        # rest[:2] stays in hand; the three cheapest fill the other zones
        vote, sacrifice, hidden = rest[-3], rest[-2], rest[-1]
        return HanamikojiAssign(
            player=seat, perform=perform, hidden=hidden, sacrifice=sacrifice, vote=vote
        )


BOTS: dict[str, Callable[[], Bot]] = {"greedy": GreedyBot, "random": RandomBot}
