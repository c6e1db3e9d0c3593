"""Import: 1,000 hanab.live-format games (simulated with hanab.live's end at the best score
still reachable, exported with gametape's own exporter), in games per second, and where the
time goes: JSON parsing (msgspec typed decode), the engine (validating every action), and
reading files, de-duplication and writing the logs."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from bench.common import best_of
from gametape.engine import simulate as sim
from gametape.events import Store
from gametape.games.hanabi import HANABI
from gametape.games.hanabi import hanablive as hl
from gametape.usecases.importing import import_files as _import_files

GAMES = 1000


def run(games: int = GAMES) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "hanablive"
        src.mkdir()
        for i in range(games):
            game = sim.play(
                HANABI,
                sim.default_players(3 + i % 3),
                "heuristic",
                random.Random(i),
                {"end_at_max_score": "true"},
            )
            (src / f"{i}.json").write_text(json.dumps(hl.from_events(game.events)))
        files = sorted(src.glob("*.json"))
        datas = [f.read_bytes() for f in files]
        t_parse = best_of(lambda: [hl.parse(d) for d in datas])
        parsed = [hl.parse(d) for d in datas]
        t_engine = best_of(lambda: [hl.to_game(p) for p in parsed])
        n = 0

        def full() -> None:
            nonlocal n
            n += 1
            results = import_files(Store(Path(tmp) / f"store{n}"), [src])
            assert sum(r.status == "imported" for r in results) == games

        t_full = best_of(full)
    result = {
        "games": games,
        "games_per_s": games / t_full,
        "parse_share": t_parse / t_full,
        "engine_share": t_engine / t_full,
        "write_share": 1 - (t_parse + t_engine) / t_full,
    }
    print(f"import: {games} hanab.live games")
    print(
        f"  {result['games_per_s']:,.0f} games/s; time in JSON parsing "
        f"{result['parse_share']:.0%}, engine {result['engine_share']:.0%}, "
        f"reading files, dedup and writing logs {result['write_share']:.0%}"
    )
    return result


if __name__ == "__main__":
    run()


def import_files(store, paths, progress=None):
    """Import hanab.live files (the format the Hanabi game offers)."""
    return _import_files(store, hl.HANABLIVE, paths, progress)
