"""Scale: a file store of 100,000 Hanabi games (hanab.live's archive holds about 1.2 million),
measured whole: validate, index --rebuild, export --parquet and a query, each as the command
runs it (every CPU), with what each would take at hanab.live's size if it grows linearly.

The games are the real-shaped corpus of ``store_bench`` (played in DeepMind's HLE, 2 to 5
players, a fifth of them reckless), each written again under other players' names until the
store holds ``GAMES``: every log is a log of its own (its own id, names and hash chain).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from msgspec.structs import replace

from bench.common import Figure
from gametape.analytics import ReadModel
from gametape.events import Store, read_log
from gametape.games.hanabi import hanablive as hl
from gametape.usecases.check import validate_store
from gametape.usecases.importing import import_files

GAMES = 100_000
SEEDS = 2_000
HANABLIVE = 1_200_000  # games on hanab.live, about (docs/benchmarks.md)
QUERY = """
    SELECT g.player_count, count(*) AS games, avg(g.score) AS mean_score,
           count(*) FILTER (WHERE g.outcome = 'perfect') AS perfect
    FROM games g GROUP BY g.player_count ORDER BY g.player_count
"""


def _timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def _fill(store: Store, seeds: Path, games: int) -> int:
    """Write ``games`` logs from the seed corpus; return the moves written."""
    from bench.store_bench import _corpus

    src = seeds / "hanablive"
    src.mkdir()
    _corpus(src, min(SEEDS, games))
    first = Store(seeds / "store")
    import_files(first, hl.HANABLIVE, [src], options={"play_on": "true"})
    logs = [read_log(first.path(g)).events for g in first.game_ids()]
    moves = 0
    with store.batch():
        for i in range(games):
            events = logs[i % len(logs)]
            copy = i // len(logs)
            setup = events[0]
            names = tuple(f"{name}-{copy}" for name in setup.players)
            setup = replace(setup, players=names, game="", meta={"copy": copy, "of": setup.game})
            store.create(setup, events[1:])
            moves += len(events) - 1
    return moves


def run(games: int = GAMES) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        store = Store(root / "store")
        seeds = root / "seeds"
        seeds.mkdir()
        t_write = time.perf_counter()
        moves = _fill(store, seeds, games)
        t_write = time.perf_counter() - t_write
        shutil.rmtree(seeds)
        disk = sum(p.stat().st_size for p in store.root.glob("*.jsonl"))

        def validate() -> None:
            for report in validate_store(store, jobs=0):
                assert report.status != "invalid", report

        t_validate = _timed(validate)
        model = ReadModel(store, root / "model.duckdb")
        t_index = _timed(lambda: model.refresh(jobs=0))
        t_export = _timed(lambda: model.export_parquet(root / "parquet"))
        parquet = sum(p.stat().st_size for p in (root / "parquet").rglob("*.parquet"))
        t_query = _timed(lambda: list(model.query(QUERY)))
        db = (root / "model.duckdb").stat().st_size
    lines = moves + games
    scale = HANABLIVE / games
    figures = [
        Figure("scale", "corpus", f"{games:,} games, {moves:,} moves, {disk / 2**20:,.0f} MiB"),
        Figure("scale", "write the store (s)", t_write),
        Figure("scale", "validate, every CPU (s)", t_validate),
        Figure("scale", "validate moves/s", moves / t_validate),
        Figure("scale", "index --rebuild, every CPU (s)", t_index),
        Figure("scale", "index events/s", lines / t_index),
        Figure("scale", "read model on disk (MiB)", db / 2**20),
        Figure("scale", "export --parquet (s)", t_export),
        Figure("scale", "parquet on disk (MiB)", parquet / 2**20),
        Figure("scale", "a query over every game (s)", t_query),
        Figure("scale", "at 1.2 million games: validate (min)", t_validate * scale / 60),
        Figure("scale", "at 1.2 million games: index --rebuild (min)", t_index * scale / 60),
        Figure("scale", "at 1.2 million games: export --parquet (s)", t_export * scale),
        Figure("scale", "at 1.2 million games: logs on disk (GiB)", disk * scale / 2**30),
    ]
    print(f"scale: a store of {games:,} Hanabi games, each command on every CPU")
    for figure in figures:
        print(figure.line())
    return figures


if __name__ == "__main__":
    run()
