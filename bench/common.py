"""Shared benchmark helpers: corpora of simulated games and a timer."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.events import Store


class Figure(NamedTuple):
    """One measured figure, with its aim when it has one: ``at_least`` or ``at_most``."""

    bench: str
    name: str
    value: float | str
    aim: float | None = None
    direction: str | None = None  # "at_least" or "at_most"

    @property
    def met(self) -> bool | None:
        if self.aim is None or isinstance(self.value, str):
            return None
        return self.value >= self.aim if self.direction == "at_least" else self.value <= self.aim

    def line(self) -> str:
        value = self.value if isinstance(self.value, str) else f"{self.value:,.2f}"
        if self.aim is None:
            return f"  {self.name:<52} {value:>14}"
        sign = ">=" if self.direction == "at_least" else "<="
        mark = "met" if self.met else "** MISSED **"
        return f"  {self.name:<52} {value:>14}   aim {sign} {self.aim:,g}   {mark}"


def corpus(root: Path, ruleset: str, games: int, players: int, seed: int = 0) -> list[Path]:
    """Write ``games`` games played by the ruleset's default bot into ``root``; return paths."""
    store = Store(root)
    rules = get_ruleset(ruleset)
    names = sim.default_players(players)
    ids = []
    with store.batch():
        for i in range(games):
            game = sim.play(rules, names, rules.default_bot, random.Random(seed + i), seed=seed + i)
            ids.append(store.create(game.setup, game.events[1:]))
    return [store.path(i) for i in ids]


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by other load)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def paired(
    ours: Callable[[], object], peer: Callable[[], object], repeat: int = 3
) -> tuple[float, float]:
    """The fastest of ``repeat`` runs of each, taken in turns (ours, the peer, ours, ...), so
    that a slow spell of the machine falls on both: a ratio of the two is fair on a machine
    whose speed drifts (a shared one)."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, fn in enumerate((ours, peer)):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best[0], best[1]


def interleaved(
    ours: Callable[[int], object], peer: Callable[[int], object], parts: int, repeat: int = 5
) -> tuple[float, float]:
    """Like :func:`paired`, with the turns taken part by part (``fn(part)`` for each of
    ``parts``, a few dozen games each): within every run the two sides alternate every few
    milliseconds, so that the machine's speed, which swings by half within seconds on a
    shared one, falls on both alike. Each side's fastest whole run (the sum of its parts)."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        total = [0.0, 0.0]
        for part in range(parts):
            for i, fn in enumerate((ours, peer)):
                t = time.perf_counter()
                fn(part)
                total[i] += time.perf_counter() - t
        best = [min(b, t) for b, t in zip(best, total, strict=True)]
    return best[0], best[1]


def read_json(root: Path) -> Callable[[], None]:
    """The floor for indexing: DuckDB's own read_json of a store's logs into one table, with
    no engine work."""
    import duckdb

    def load() -> None:
        con = duckdb.connect()
        con.execute(
            f"CREATE TABLE raw AS SELECT * FROM read_json('{root}/*.jsonl', "
            "format = 'newline_delimited', union_by_name = true)"
        )
        con.close()

    return load


def median_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def fold(events, fast: bool = True):  # type: ignore[no-untyped-def]
    """The state after ``events``, folded through the game their setup names (``fast``:
    with the game's fast path for checking logs, as validation folds)."""
    from gametape.engine.fold import fold as engine_fold
    from gametape.engine.registry import ruleset_for

    return engine_fold(ruleset_for(events[0]), events, fast=fast)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0.99: the 99th percentile), a value it holds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]
