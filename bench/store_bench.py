"""A real-shaped store against the reference engine.

The corpus is shaped like a real one: many short Hanabi games, each a small hanab.live file,
imported into a store of one small log per game. The games are played in DeepMind's Hanabi
Learning Environment (HLE, in the open_spiel wheel) by an omniscient policy with a few random
moves, so the same games can be replayed in HLE itself.

- import:   `gametape import hanablive DIR` in-process, games/s (aim: >= 2,000).
- validate: one process validating the store (read, hash chain, every rule), moves/s, against
            HLE replaying the same games with a legality check on every move (aim: >= 1.0x);
            and on a process per CPU, as `gametape validate` runs by default (no aim: HLE's
            replay here is one process).
- index:    the read model rebuilt from the store by one process (`index --rebuild -j1`),
            events/s, against DuckDB's own read_json of the same files into one table, on
            every CPU as DuckDB runs by default (aim: >= 1.0x); and on a process per CPU, as
            `gametape index` runs by default.
Each ratio's two sides are timed in turns (bench.common.paired; validate's part by part,
bench.common.interleaved), so a slow spell of a shared machine falls on both.
"""

from __future__ import annotations

import json
import resource
import tempfile
from pathlib import Path
from typing import Any

from bench.common import Figure, best_of, interleaved, paired, read_json
from gametape.analytics import ReadModel
from gametape.engine.game import Game
from gametape.events import Store
from gametape.games.hanabi import hanablive as hl
from gametape.games.hanabi.events import HanabiOptions, HanabiSetup
from gametape.usecases.check import validate_paths
from gametape.usecases.importing import import_files

GAMES = 2000


def _corpus(src: Path, games: int) -> list[tuple[int, list[int], int]]:
    """Write ``games`` hanab.live files; return (players, HLE actions, moves) per game."""
    from tests.hle import SUITS, from_hle, full_deck, hle_game

    played = []
    for i in range(games):
        n = 2 + i % 4
        dealt, steps, _, _, actions = hle_game(n, i, 0.3 if i % 5 == 0 else 0.03)
        setup = HanabiSetup(
            players=tuple(f"p{k}" for k in range(n)),
            deck=full_deck(dealt),
            options=HanabiOptions(suits=SUITS),
        )
        game = Game.new(setup)
        for seat, _, text in steps:
            game.push(from_hle(text, seat, n, game.state.hands[seat]))
        (src / f"{i}.json").write_text(json.dumps(hl.from_events(game.events)))
        played.append((n, actions, len(steps)))
    return played


def _hle_games() -> dict[int, Any]:
    """HLE's game for each number of players, loaded once (as the store's rules are)."""
    import pyspiel

    return {n: pyspiel.load_game("hanabi", {"players": n}) for n in (2, 3, 4, 5)}


def _hle_replay(played: list[tuple[int, list[int], int]], games: dict[int, Any]) -> None:
    """Replay every game in HLE, checking each player's action is legal before applying it."""
    for n, actions, _ in played:
        state = games[n].new_initial_state()
        for action in actions:
            if not state.is_chance_node() and action not in state.legal_actions():
                raise AssertionError("HLE refused a move of its own game")
            state.apply_action(action)


def run(games: int = GAMES) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "hanablive"
        src.mkdir()
        played = _corpus(src, games)
        moves = sum(m for _, _, m in played)
        runs = 0

        def do_import() -> None:
            nonlocal runs
            runs += 1
            # HLE plays on after the best reachable score; hanab.live would have stopped
            store = Store(Path(tmp) / f"store{runs}")
            results = import_files(store, hl.HANABLIVE, [src], options={"play_on": "true"})
            assert sum(r.status == "imported" for r in results) == games

        t_import = best_of(do_import)
        store = Path(tmp) / "store1"
        paths = sorted(store.glob("*.jsonl"))
        lines = sum(p.read_bytes().count(b"\n") for p in paths)

        part = 50  # games a turn (a few milliseconds): bench.common.interleaved
        parts = range(0, games, part)
        hle = _hle_games()

        def validate(at: int) -> None:
            for report in validate_paths(paths[parts[at] : parts[at] + part], jobs=1):
                assert report.status == "finished", report

        def replay(at: int) -> None:
            _hle_replay(played[parts[at] : parts[at] + part], hle)

        t_validate, t_hle = interleaved(validate, replay, len(parts), 5)

        def validate_all() -> None:
            for report in validate_paths(paths, jobs=0):
                assert report.status == "finished", report

        t_validate_all = best_of(validate_all)

        def index(jobs: int) -> None:
            db = Path(tmp) / "model.duckdb"
            db.unlink(missing_ok=True)
            ReadModel(store, db).refresh(jobs=jobs)

        t_index_1, t_read_json = paired(lambda: index(1), read_json(store), 6)
        t_index = best_of(lambda: index(0), 2)  # as `gametape index` runs: a process per CPU
        disk = sum(p.stat().st_size for p in paths)
    times = (t_import, t_validate, t_validate_all, t_hle, t_index_1, t_index, t_read_json)
    figures = _figures(games, moves, lines, disk, *times)
    print("store: a real-shaped Hanabi store (short hanab.live games, one small file each)")
    for figure in figures:
        print(figure.line())
    return figures


def _figures(
    games: int,
    moves: int,
    lines: int,
    disk: int,
    t_import: float,
    t_validate: float,
    t_validate_all: float,
    t_hle: float,
    t_index_1: float,
    t_index: float,
    t_read_json: float,
) -> list[Figure]:
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    shape = f"{games} games, {moves:,} moves, {lines:,} log lines, {disk / games:,.0f} B/game"
    return [
        Figure("store", "corpus", shape),
        Figure("store", "import games/s", games / t_import, 2000, "at_least"),
        Figure("store", "HLE legality-checked replay moves/s", moves / t_hle),
        Figure("store", "validate moves/s (one process)", moves / t_validate),
        Figure("store", "validate vs HLE (x)", t_hle / t_validate, 1.0, "at_least"),
        Figure("store", "validate, a process per CPU, moves/s", moves / t_validate_all),
        Figure("store", "validate on every CPU vs HLE on one (x)", t_hle / t_validate_all),
        Figure("store", "DuckDB read_json lines/s", lines / t_read_json),
        Figure("store", "index --rebuild -j1 events/s", lines / t_index_1),
        Figure("store", "index -j1 vs read_json (x)", t_read_json / t_index_1, 1.0, "at_least"),
        Figure("store", "index --rebuild events/s (a process per CPU)", lines / t_index),
        Figure("store", "index on every CPU vs read_json (x)", t_read_json / t_index),
        Figure("store", "disk bytes per game", disk / games),
        Figure("store", "peak RSS of the benchmark process (MB)", peak_mb),
    ]


if __name__ == "__main__":
    run()
