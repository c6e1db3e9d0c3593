"""What a requester was told: the events as redacted for it, position by position.

A seat learns of an event when it happens (``Ruleset.redact``), of a simultaneous step's moves
when the move that ends the step shows them, of an earlier private entry when the game says it
may now see it (``Ruleset.sees``: a passed hand's entry, seen by its later holders), and of a
deal's cards as they are shown to it (``Ruleset.shown``: a Hanabi seat sees every card drawn
but its own hand's). The framework keeps this account, not each game, so whatever a game
answers a requester can be held to it: the secrecy kit (``gametape.testing.secrecy``) compares
every answer across worlds whose accounts agree (DESIGN: claims and facts).
"""

from __future__ import annotations

from typing import Any

import msgspec

from gametape.engine.fold import Fold
from gametape.engine.game import redact
from gametape.events.base import Move


def told(fold: Fold, seat: int) -> list[bytes]:
    """For each position k of ``fold`` (a fold of live events, its setup first), what
    ``seat`` was told at k, as bytes: the event as redacted for the seat when it happened, and
    what it showed beyond that (``Ruleset.shown``); when it ends a simultaneous step, the
    step's moves as ``redact`` shows them in the state before it; each earlier private entry
    the seat may see from k on (``Ruleset.sees``); and the cards of the setup's deck or a
    deal shown to it since (``Ruleset.shown``), each earlier event with its position. Two
    worlds a seat cannot tell apart up to k give the same first k + 1 items."""
    rules: Any = fold.ruleset
    encode = msgspec.json.encode
    events, states, frames = fold.events, fold.states, fold.frames
    chances = {0: rules.shown(states[0], events[0], seat)}  # what of each was shown, so far
    items = [encode(chances[0] or events[0])]  # the setup, as the seat is shown it
    hidden: dict[int, Any] = {}  # the events the seat has not seen whole, as it saw them
    for k in range(1, len(events)):
        before, event, after = states[k - 1], events[k], states[k]
        shown = redact(rules, before, event, seat)
        now: list[Any] = [shown, rules.shown(after, event, seat)]
        if shown != event and isinstance(event, Move):
            hidden[k] = shown
        if (
            isinstance(event, Move)
            and frames[k].turn != frames[k - 1].turn
            and rules.together(before)
        ):  # the move ends a simultaneous step: its moves show as the state before it says
            step = frames[k - 1].turn
            for i in [i for i in hidden if i < k and frames[i - 1].turn == step]:
                again = redact(rules, before, events[i], seat)
                if isinstance(events[i], Move) and again != hidden[i]:
                    now.append((i, again))
                    hidden[i] = again
                    if again == events[i]:
                        del hidden[i]
        for i in [i for i in hidden if rules.sees(after, events[i], seat)]:
            now.append((i, events[i]))
            del hidden[i]
        for j, was in chances.items():  # the cards of a deal shown since
            again = rules.shown(after, events[j], seat)
            if again != was:
                now.append((j, again))
                chances[j] = again
        if not isinstance(event, Move):  # a deal: what it shows is followed from here on
            chances[k] = now[1]
        items.append(encode(now))
    return items


def accounts_for_chance(rules: Any) -> bool:
    """Whether ``rules`` says what of its chance events each seat has been shown
    (``Ruleset.shown``), so that what a seat was told holds all it may know."""
    from gametape.engine.ruleset import Ruleset

    return getattr(type(rules), "shown", None) is not Ruleset.shown
