"""Both stores in one run (#25): the file store is the baseline PostgreSQL is measured against.

A throwaway PostgreSQL server is started from the machine's own binaries
(gametape.testing.postgres), on loopback, with its default durability (synchronous commit:
a move is on the server's disk when COMMIT returns, as a file store's is after fsync).

- append:   one writer recording 1,000 moves one at a time, from the call to the move being
            committed (fsync, or COMMIT): p50 and p99 in ms. Aim: PostgreSQL p99 <= 5 ms.
- writers:  20 processes recording into 20 games at once, moves/s over the whole run.
- validate: every game of the same 2,000 simulated Hanabi games (about 140,000 events),
            read and checked by every rule; PostgreSQL's time over the file store's (aim
            <= 1.5x).
- index:    the read model rebuilt from scratch from each store (`index --rebuild`), the
            same ratio (aim <= 1.5x).
"""

from __future__ import annotations

import multiprocessing as mp
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import Figure
from gametape.analytics import ReadModel
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.events import Store
from gametape.events.postgres import PgStore
from gametape.events.store import GameStore
from gametape.testing.postgres import Server, binaries
from gametape.usecases.check import validate_store
from gametape.usecases.copying import copy_store

GAMES = 2000
APPENDS = 1000
WRITERS = 20


def _played(count: int, seed: int = 0) -> list:
    rules = get_ruleset("hanabi")
    names = sim.default_players(3)
    return [
        sim.play(rules, names, rules.default_bot, random.Random(seed + i)) for i in range(count)
    ]


def _latencies(store: GameStore, played: list) -> list[float]:
    """Milliseconds per append, one move at a time, game after game."""
    times = []
    for game in played:
        gid = store.create(game.setup)
        log = store.path(gid)
        for seq in range(1, len(game.events)):
            started = time.perf_counter()
            store.append_to(log, [game.events[seq]], expected_seq=seq)
            times.append((time.perf_counter() - started) * 1000)
            if len(times) == APPENDS:
                return times
    return times


def _writer(spec: str, game, barrier, done) -> None:
    store = PgStore(spec) if spec.startswith("postgresql://") else Store(spec)
    gid = store.create(game.setup)
    log = store.path(gid)
    barrier.wait()
    for seq in range(1, len(game.events)):
        store.append_to(log, [game.events[seq]], expected_seq=seq)
    done.put(len(game.events) - 1)


def _moves_per_second(spec: str, played: list) -> float:
    ctx = mp.get_context("fork")
    barrier, done = ctx.Barrier(WRITERS + 1), ctx.Queue()
    procs = [ctx.Process(target=_writer, args=(spec, g, barrier, done)) for g in played]
    for p in procs:
        p.start()
    barrier.wait()
    started = time.perf_counter()
    moves = sum(done.get(timeout=300) for _ in procs)
    elapsed = time.perf_counter() - started
    for p in procs:
        p.join()
    return moves / elapsed


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def run(games: int = GAMES) -> list[Figure]:
    if binaries() is None:
        print("stores: no PostgreSQL binaries here (Debian's postgresql); skipped")
        return []
    server = Server().init().start()
    figures = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            files = Store(Path(tmp) / "files")
            stores: dict[str, tuple[str, GameStore]] = {
                "file": (str(files.root), files),
                "postgresql": (url := server.create_database("bench"), PgStore(url)),
            }
            long_games = _played(40, seed=10_000)
            writers_games = _played(WRITERS, seed=20_000)
            print(f"stores: both stores, one run; PostgreSQL {server.bin.parent.name} on loopback")
            results: dict[str, dict[str, float]] = {}
            for kind, (spec, store) in stores.items():
                store.ensure()
                lat = sorted(_latencies(store, long_games))
                p50 = statistics.median(lat)
                p99 = lat[int(len(lat) * 0.99) - 1]
                rate = _moves_per_second(spec, writers_games)
                results[kind] = {"p50": p50, "p99": p99, "rate": rate}
                print(
                    f"  {kind:<10} append p50 {p50:6.2f} ms  p99 {p99:6.2f} ms   "
                    f"{WRITERS} writers {rate:8,.0f} moves/s"
                )
            # the same games in both stores: simulated into files, copied to PostgreSQL
            corpus = Store(Path(tmp) / "corpus")
            rules = get_ruleset("hanabi")
            with corpus.batch():
                for game in _played(games):
                    corpus.create(game.setup, game.events[1:])
            pg = PgStore(server.create_database("corpus"))
            for _ in copy_store(corpus, pg):
                pass
            assert rules.name == "hanabi"
            times: dict[str, dict[str, float]] = {}
            for kind, store in (("file", corpus), ("postgresql", pg)):
                models = Path(tmp) / f"model-{kind}"
                times[kind] = {
                    "validate": min(
                        _timed(lambda s=store: list(validate_store(s, 0))) for _ in range(2)
                    ),
                    "index": min(
                        _timed(
                            lambda s=store, m=models, i=i: ReadModel(s, m / f"{i}.duckdb").refresh(
                                jobs=0
                            )
                        )
                        for i in range(2)
                    ),
                }
            for what in ("validate", "index"):
                ratio = times["postgresql"][what] / times["file"][what]
                print(
                    f"  {what:<9} {games:,} games: file {times['file'][what]:6.2f} s, "
                    f"PostgreSQL {times['postgresql'][what]:6.2f} s  ({ratio:4.2f}x)  aim <= 1.5x"
                )
                figures.append(
                    Figure(
                        "stores",
                        f"{games:,} games: {what}, PostgreSQL vs file (x)",
                        ratio,
                        1.5,
                        "at_most",
                    )
                )
            figures += [
                Figure(
                    "stores",
                    "PostgreSQL append p99 (ms)",
                    results["postgresql"]["p99"],
                    5,
                    "at_most",
                ),
                Figure("stores", "PostgreSQL append p50 (ms)", results["postgresql"]["p50"]),
                Figure("stores", "file append p99 (ms)", results["file"]["p99"]),
                Figure(
                    "stores",
                    f"PostgreSQL {WRITERS} writers (moves/s)",
                    results["postgresql"]["rate"],
                ),
                Figure("stores", f"file {WRITERS} writers (moves/s)", results["file"]["rate"]),
            ]
    finally:
        server.stop()
    return figures


if __name__ == "__main__":
    run()
