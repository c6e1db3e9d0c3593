"""Hanabi bots. They see only their seat's view and their legal moves."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from gametape.engine.ruleset import Bot
from gametape.events.base import Event
from gametape.games.hanabi.deck import Deck, deck_of
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiOptions, HanabiPlay
from gametape.games.hanabi.stacks import next_ranks, useful
from gametape.games.hanabi.variants import NO_VARIANT, RANKS
from gametape.games.hanabi.view import CardView, HanabiView

MAX_CLUES = 8


class RandomBot:
    """Picks uniformly among the legal moves."""

    def choose(self, view: HanabiView, legal: Sequence[Event], rng: random.Random) -> Event:
        return rng.choice(list(legal))


class HeuristicBot:
    """Plays like a sensible beginner.

    1. Plays a card it knows is playable (every face its clues and the visible cards allow
       is playable).
    2. Clues a teammate's playable card, so it becomes known-playable (rank first, then suit).
    3. Discards a card it knows is useless, else its oldest unclued card, else its oldest.
    4. At 8 tokens with nothing better, gives the clue that touches the most cards.

    A card it knows is orange goes the other way: it is played with Discard and discarded
    with Play (a card that may be orange or not is neither played nor thrown on purpose).
    """

    def choose(self, view: HanabiView, legal: Sequence[Event], rng: random.Random) -> Event:
        me = view.seat
        assert me is not None, "a bot plays from a seat"
        legal = list(legal)
        hand = view.hands[me]  # newest first
        unseen = self._unseen(view)
        oldest_first = list(reversed(hand))

        plays = {
            c.order: move
            for c in oldest_first
            if all(self._playable(view, f) for f in self._candidates(view, c, unseen))
            and (move := self._button(view, c, unseen, to_play=True)) in legal
        }
        if plays:
            card = min(
                (c for c in oldest_first if c.order in plays),
                key=lambda c: min(c.ranks, default=0),
            )
            return plays[card.order]

        if view.clues > 0:
            clue = self._play_clue(view, legal)
            if clue is not None:
                return clue

        if view.clues < MAX_CLUES:
            useless = [
                move
                for c in oldest_first
                if all(self._useless(view, f) for f in self._candidates(view, c, unseen))
                and (move := self._button(view, c, unseen, to_play=False)) is not None
            ]
            if useless:
                return useless[0]
            unclued = [c for c in oldest_first if not c.clued]
            target = (unclued or oldest_first)[0]
            return HanabiDiscard(player=me, card=target.order)

        clues = [m for m in legal if isinstance(m, HanabiClue)]
        if clues:
            return max(clues, key=lambda m: (self._touch_count(view, m), -m.target))
        return rng.choice(legal)

    @staticmethod
    def _playable(view: HanabiView, face: Face) -> bool:
        if view.stacks:
            return face.rank in next_ranks(_deck(view), view.stacks, face.suit)
        return view.fireworks[face.suit] == _position(view, face.suit, face.rank) - 1

    @staticmethod
    def _useless(view: HanabiView, face: Face) -> bool:
        if view.stacks:  # played, or on a way the firework did not take
            deck = _deck(view)
            return face.rank not in useful(deck, view.stacks, (0,) * len(deck.copies), face.suit)
        return view.fireworks[face.suit] >= _position(view, face.suit, face.rank)

    def _button(
        self, view: HanabiView, card: CardView, unseen: Counter[Face], to_play: bool
    ) -> Event | None:
        """The move that sends ``card`` to its firework (``to_play``) or to the discards:
        Play and Discard, the other way round for a card known to be orange; None where the
        card may be orange or not."""
        me = view.seat
        assert me is not None
        orange = {
            bool(view.inverted and view.inverted[f.suit])
            for f in self._candidates(view, card, unseen)
        }
        if len(orange) > 1:
            return None
        play = to_play != (orange == {True})
        return (
            HanabiPlay(player=me, card=card.order)
            if play
            else HanabiDiscard(player=me, card=card.order)
        )

    @staticmethod
    def _unseen(view: HanabiView) -> Counter[Face]:
        """How many copies of each face the viewer has not seen anywhere."""
        left: Counter[Face] = Counter()
        for s in range(len(view.suits)):
            for r in range(1, view.stride + 1):
                n = view.copies[s * view.stride + r - 1]
                played = (
                    r in view.stacks[s]
                    if view.stacks
                    else view.fireworks[s] >= _position(view, s, r)
                )
                left[Face(s, r)] = n - played
        for f in view.discards:
            if f is not None:
                left[f] -= 1
        for hand in view.hands:
            for c in hand:
                if c.face is not None:
                    left[c.face] -= 1
        return left

    @staticmethod
    def _candidates(view: HanabiView, card: CardView, unseen: Counter[Face]) -> list[Face]:
        return [f for f in card.possible if unseen[f] > 0]

    def _play_clue(self, view: HanabiView, legal: list[Event]) -> Event | None:
        me = view.seat
        n = len(view.players)
        for step in range(1, n):
            target = (me + step) % n  # type: ignore[operator]
            for card in reversed(view.hands[target]):  # oldest first
                face = card.face
                if face is None or not self._playable(view, face):
                    continue
                if len(card.ranks) == 1 and len(card.suits) == 1:
                    continue  # they already know it exactly
                deck = _deck(view)
                i = deck.index(face.suit, face.rank)
                ranks = [
                    HanabiClue(player=me, target=target, rank=r)  # type: ignore[arg-type]
                    for r in deck.ranks
                    if deck.rank_masks[r - 1] >> i & 1
                ]
                colours = [
                    HanabiClue(player=me, target=target, suit=c)  # type: ignore[arg-type]
                    for c, mask in enumerate(deck.colour_masks)
                    if mask >> i & 1
                ]
                # rank first while its rank is open, as a beginner would; in a variant whose
                # clues of that kind cannot reach it, the other kind
                first, then = (ranks, colours) if len(card.ranks) > 1 else (colours, ranks)
                move = next((m for m in first or then if m in legal), None)
                if move is not None:
                    return move
        return None

    @staticmethod
    def _touch_count(view: HanabiView, clue: HanabiClue) -> int:
        deck = _deck(view)
        mask = deck.mask(clue.suit, clue.rank)
        return sum(
            1
            for c in view.hands[clue.target]
            if c.face is not None and mask >> deck.index(c.face.suit, c.face.rank) & 1
        )


def _position(view: HanabiView, suit: int, rank: int) -> int:
    """A rank's place in its firework (6 - rank in a suit built from 5 down)."""
    return RANKS + 1 - rank if view.reversed and view.reversed[suit] else rank


def _deck(view: HanabiView) -> Deck:
    """What the view's clues touch (the suits' names matter only to No Variant)."""
    if view.variant == NO_VARIANT:
        return deck_of(HanabiOptions(suits=view.suits))
    return deck_of(HanabiOptions(variant=view.variant))


BOTS: dict[str, Callable[[], Bot]] = {"heuristic": HeuristicBot, "random": RandomBot}
