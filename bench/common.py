"""Shared benchmark helpers: corpora of simulated games and a timer."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.events import Store


def corpus(root: Path, ruleset: str, games: int, players: int, seed: int = 0) -> list[Path]:
    """Write ``games`` simulated games (heuristic bots) into ``root``; return their paths."""
    store = Store(root)
    rules = get_ruleset(ruleset)
    names = sim.default_players(players)
    with store.batch():
        ids = [store.create(*_split(sim.play(rules, names, "heuristic", random.Random(seed + i),
                                             seed=seed + i)))
               for i in range(games)]
    return [store.path(i) for i in ids]


def _split(game):
    return game.setup, game.events[1:]


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by other load)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def median_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)
