"""A toy game with a simultaneous phase, written against the plug-in API alone: secret bids.

Each round every player bids a card of their hand (1..N) at once, in secret; the highest bid
alone scores the round's prize (the prizes' order is chance, in the setup). It declares its
shape (``together``) and its secrecy (``redact``) and nothing else: no ``turn``, no
``not_to_act``, no option checks, no event switch, no ``describe``. The secrecy kit and the
simultaneous-move tests run on it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from gametape.engine.moves import gather
from gametape.engine.ruleset import Declaration, Option, Result, Ruleset, RuleViolation, on
from gametape.events.base import Event, Move, Setup, actor
from gametape.messages import Message, say


class BidsSetup(Setup, frozen=True, kw_only=True, tag="toy-bids.setup"):
    prizes: tuple[int, ...]


class Bid(Move, frozen=True, kw_only=True, tag="toy-bids.bid"):
    secret: ClassVar[Message] = say("bids.secret", "bid in secret")

    card: int


class BidsState(msgspec.Struct, frozen=True):
    prizes: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    pending: tuple[Bid | None, ...]
    scores: tuple[int, ...]
    round: int = 0
    outcome: str | None = None


def _cards(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 300:
        raise ValueError(f"{text!r} is not a number of cards from 1 to 300")
    return int(text)


class BidsView(msgspec.Struct, frozen=True):
    ruleset: str
    round: int
    prize: int | None
    hands: tuple[tuple[int, ...], ...]
    pending: tuple[int | str | None, ...]
    scores: tuple[int, ...]


class Bids(Ruleset[BidsState]):
    declared = Declaration(
        name="toy-bids",
        events=(BidsSetup, Bid),
        players=(2, 8),
        options=(
            Option(
                "cards",
                _cards,
                5,
                help=say("toy-bids.option-cards", "cards in each hand, and so rounds (1-300)"),
            ),
        ),
    )

    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> BidsSetup:
        prizes = list(range(1, options["cards"] + 1))
        rng.shuffle(prizes)
        return BidsSetup(players=tuple(players), prizes=tuple(prizes))

    def start(self, setup: BidsSetup) -> BidsState:
        n = len(setup.players)
        hand = tuple(range(1, len(setup.prizes) + 1))
        return BidsState(setup.prizes, (hand,) * n, (None,) * n, (0,) * n)

    @on(Bid)
    def bid(self, state: BidsState, event: Bid) -> BidsState:
        if event.card not in state.hands[event.player]:
            raise RuleViolation(
                say("bids.not-in-hand", "{card} is not in the hand", card=event.card),
                say("bids.rule.in-hand", "a bid is a card of the hand"),
            )
        pending, bids = gather(state.pending, event.player, event)
        if bids is None:
            return msgspec.structs.replace(state, pending=pending)
        top = max(b.card for b in bids)
        winners = [b.player for b in bids if b.card == top]
        scores = list(state.scores)
        if len(winners) == 1:
            scores[winners[0]] += state.prizes[state.round]
        hands = tuple(
            tuple(c for c in h if c != b.card) for h, b in zip(state.hands, bids, strict=True)
        )
        done = state.round + 1 == len(state.prizes)
        return BidsState(
            state.prizes,
            hands,
            (None,) * len(bids),
            tuple(scores),
            state.round + 1,
            "finished" if done else None,
        )

    def to_act(self, state: BidsState) -> tuple[int, ...]:
        if state.outcome:
            return ()
        return tuple(s for s, b in enumerate(state.pending) if b is None)

    def together(self, state: BidsState) -> bool:
        return state.outcome is None

    def legal_moves(self, state: BidsState, seat: int) -> list[Event]:
        if seat not in self.to_act(state):
            return []
        return [Bid(player=seat, card=c) for c in state.hands[seat]]

    def result(self, state: BidsState) -> Result | None:
        if state.outcome is None:
            return None
        best = max(state.scores)
        winners = tuple(s for s, p in enumerate(state.scores) if p == best)
        return Result(outcome=state.outcome, scores=state.scores, winners=winners)

    def view(self, state: BidsState, seat: int | None) -> BidsView:
        """Every hand is public (a bid leaves it when the round resolves); a pending bid is
        its bidder's alone."""
        pending = tuple(
            None if b is None else (b.card if seat is None or seat == s else "?")
            for s, b in enumerate(state.pending)
        )
        prize = state.prizes[state.round] if state.outcome is None else None
        return BidsView(self.name, state.round, prize, state.hands, pending, state.scores)

    def redact(self, state: BidsState, event: Event, seat: int) -> Event | None:
        """A bid is secret until the round's last bid shows them all."""
        if actor(event) == seat or sum(b is None for b in state.pending) == 1:
            return event
        return None

    def parse_move(self, state: BidsState, text: str, seat: int | None) -> Event:
        words = text.split()
        if len(words) == 2 and words[0] == "bid" and words[1].isdigit() and seat is not None:
            return Bid(player=seat, card=int(words[1]))
        return super().parse_move(state, text, seat)

    def notation(self, state: BidsState, event: Event) -> str:
        assert isinstance(event, Bid)
        return f"bid {event.card}"


RULESET = Bids()
