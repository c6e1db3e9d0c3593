"""Fireworks whose order the plays decide (a deck's ``routes``), as hanab.live builds them.

- **Up or Down**: a suit is built up from 1 to 5 or down from 5 to 1, which its first card
  decides; its START card may begin either way, and then the next card (a 2 or a 4) decides.
- **Sudoku**: each suit starts at any rank no other suit started at, and goes up, wrapping
  round from the top rank to 1, until it holds a card of every rank.

A firework is kept as the ranks played on it, in order (``HanabiState.stacks``); its height is
their count, as in every other variant. In the other decks a rank's place is fixed
(``Deck.position``) and the state keeps heights only.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from gametape.games.hanabi.deck import Deck
from gametape.games.hanabi.variants import START_RANK

Stack = tuple[int, ...]
# The steps a firework can still take: each step the ranks that may come next (a START card
# and a 1 may both begin a suit built up)
Walk = tuple[tuple[int, ...], ...]


UP: Walk = ((1, START_RANK), (2,), (3,), (4,), (5,))
DOWN: Walk = ((5, START_RANK), (4,), (3,), (2,), (1,))


def _up(stack: Stack) -> bool:
    """Whether an Up or Down suit is built up (its first card, or after START its second)."""
    first = stack[1] if stack[0] == START_RANK else stack[0]
    return first in (1, 2)


@functools.cache
def _cycle(start: int, size: int) -> Walk:
    """Sudoku's way from ``start``: up, wrapping from ``size`` to 1."""
    return tuple(((start - 1 + i) % size + 1,) for i in range(size))


def _starts(stacks: Sequence[Stack]) -> frozenset[int]:
    return frozenset(stack[0] for stack in stacks if stack)


def walks(deck: Deck, stacks: Sequence[Stack], suit: int) -> tuple[Walk, ...]:
    """The ways the firework of ``suit`` can still go, from the cards played on it."""
    stack = stacks[suit]
    if deck.routes == "sudoku" and not stack:
        return _ways(deck.routes, deck.stack_size, stack, _starts(stacks))
    return _ways(deck.routes, deck.stack_size, stack, frozenset())


@functools.cache  # a handful of stacks and starts recur all game long
def _ways(routes: str, size: int, stack: Stack, taken: frozenset[int]) -> tuple[Walk, ...]:
    if len(stack) == size:
        return ((),)
    if routes == "sudoku":
        if stack:
            return (_cycle(stack[0], size)[len(stack) :],)
        return tuple(_cycle(k, size) for k in range(1, size + 1) if k not in taken)
    if not stack:
        return (UP, DOWN)
    if stack == (START_RANK,):
        return (UP[1:], DOWN[1:])
    way = UP if _up(stack) else DOWN
    return (way[len(stack) :],)


def next_ranks(deck: Deck, stacks: Sequence[Stack], suit: int) -> tuple[int, ...]:
    """The ranks that may go on the firework of ``suit`` now."""
    out: list[int] = []
    for walk in walks(deck, stacks, suit):
        if walk:
            out += [r for r in walk[0] if r not in out]
    return tuple(out)


def direction(stack: Stack) -> int:
    """An Up or Down firework's direction: 1 up, -1 down, 0 not decided yet."""
    if not stack or stack == (START_RANK,):
        return 0
    return 1 if _up(stack) else -1


def _dead(deck: Deck, lost: Sequence[int], suit: int) -> frozenset[int]:
    """The ranks of ``suit`` whose every copy is lost."""
    base, copies = suit * deck.stride - 1, deck.copies
    return frozenset(r for r in deck.card_ranks if lost[base + r] >= copies[base + r])


def _reach(dead: frozenset[int], walk: Walk) -> int:
    """How many steps of a walk can still be taken: up to the first whose cards are all lost."""
    steps = 0
    for step in walk:
        if dead.issuperset(step):
            break
        steps += 1
    return steps


def useful(deck: Deck, stacks: Sequence[Stack], lost: Sequence[int], suit: int) -> set[int]:
    """The ranks of ``suit`` that may still go on its firework, some way it can still go."""
    dead = _dead(deck, lost, suit)
    out: set[int] = set()
    for walk in walks(deck, stacks, suit):
        for step in walk[: _reach(dead, walk)]:
            out.update(step)
    return out


def sudoku_runs(deck: Deck, lost: Sequence[int], suit: int) -> tuple[int, ...]:
    """For each rank a Sudoku suit could start at, how many cards it can still take from
    there (hanab.live's ``sudokuWalkUpAll``)."""
    return _runs(_dead(deck, lost, suit), deck.stack_size)


def _runs(dead: frozenset[int], size: int) -> tuple[int, ...]:
    return tuple(_reach(dead, _cycle(k, size)) for k in range(1, size + 1))


def best_heights(deck: Deck, stacks: Sequence[Stack], lost: Sequence[int]) -> tuple[int, ...]:
    """Each firework's best reachable height, together (their sum is the best score).

    In Sudoku two suits cannot start at the same rank, so the suits not started share out the
    free starts: the best sharing is searched (hanab.live's ``sudokuGetMaxScorePerStack``; at
    most 5! ways)."""
    n, size = len(stacks), deck.stack_size
    dead = [_dead(deck, lost, s) for s in range(n)]
    best = [
        len(stacks[s]) + max(_reach(dead[s], w) for w in walks(deck, stacks, s)) for s in range(n)
    ]
    waiting = [s for s in range(n) if not stacks[s] and best[s] < size]
    if deck.routes != "sudoku" or not waiting:
        return tuple(best)
    runs = {s: _runs(dead[s], size) for s in waiting}
    free = sorted(set(range(1, size + 1)) - _starts(stacks))
    chosen = max(
        itertools.permutations(free, len(waiting)),
        key=lambda starts: sum(runs[s][k - 1] for s, k in zip(waiting, starts, strict=True)),
    )
    for s, k in zip(waiting, chosen, strict=True):
        best[s] = runs[s][k - 1]
    return tuple(best)
