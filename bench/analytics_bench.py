"""Indexing: 2,000 simulated games of each ruleset into the read model from scratch, in
events per second, against the floor: DuckDB's own read_json of the same files into a table
with no engine work (aim: at most 3x the floor). And a refresh when nothing changed."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.common import best_of, corpus, paired, read_json
from gametape.analytics import ReadModel
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset, names

GAMES = 2000


def run(games: int = GAMES) -> dict[str, dict[str, float]]:
    results = {}
    print(f"analytics: indexing {games} simulated games per ruleset from scratch")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names():
            root = Path(tmp) / name
            paths = corpus(root, name, games, sim.default_count(get_ruleset(name)))
            events = sum(p.read_bytes().count(b"\n") for p in paths)
            timings = {}
            for jobs in (1, 2):
                db = Path(tmp) / f"{name}-{jobs}.duckdb"

                def index(j: int = jobs, db: Path = db, root: Path = root) -> None:
                    db.unlink(missing_ok=True)
                    ReadModel(root, db).refresh(jobs=j)

                if jobs == 1:  # the floor in turns with it: a slow spell falls on both
                    timings[jobs], t_floor = paired(index, read_json(root), 2)
                else:
                    timings[jobs] = best_of(index, 2)
            model = ReadModel(root, Path(tmp) / f"{name}-1.duckdb")
            t = time.perf_counter()
            summary = model.refresh()
            t_noop = time.perf_counter() - t
            assert not summary.changed
            r = results[name] = {
                "events": events,
                "floor_events_per_s": events / t_floor,
                "index_events_per_s": events / timings[1],
                "index_2_jobs_events_per_s": events / timings[2],
                "ratio": timings[1] / t_floor,
                "ratio_2_jobs": timings[2] / t_floor,
                "noop_refresh_s": t_noop,
            }
            print(
                f"  {name:<11} {events:>7} events  read_json floor "
                f"{r['floor_events_per_s']:>9,.0f} ev/s  index {r['index_events_per_s']:>8,.0f}"
                f" ev/s ({r['ratio']:.1f}x)  -j2 {r['index_2_jobs_events_per_s']:>8,.0f} ev/s "
                f"({r['ratio_2_jobs']:.1f}x; aim <= 3x)  no-change refresh "
                f"{t_noop * 1e3:.0f} ms"
            )
    return results


if __name__ == "__main__":
    run()
