"""`gametape players` on a club-sized store: 20,000 published-Hanamikoji games between 40
people. Times, on the built read model, every person's records (with streaks and ratings),
one person in detail and as an HTML page, and recomputing every rating (what a refresh that
indexed anything pays), each against a plain GROUP BY of game_players measured in the same
run. Aim: each command's work under a second at 20,000 games (#28)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from bench.common import best_of
from gametape.analytics import ReadModel, ratings
from gametape.analytics.player_page import page
from gametape.engine import simulate as sim
from gametape.engine.registry import all_rulesets, get_ruleset
from gametape.events import Store

GAMES = 20_000
PEOPLE = [f"p{i:02}" for i in range(40)]


def run(games: int = GAMES) -> dict[str, float]:
    rules = get_ruleset("hanamikoji-classic")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "store")
        rng = random.Random(0)
        with store.batch():
            for i in range(games):
                pair = rng.sample(PEOPLE, 2)
                game = sim.play(rules, pair, "random", random.Random(i))
                store.create(game.setup, game.events[1:])
        model = ReadModel(store.root)
        model.refresh(jobs=0)
        competitive = [r.name for r in all_rulesets() if not r.cooperative]

        def plain() -> None:
            model.query("SELECT player, count(*) FROM game_players GROUP BY ALL")

        def recompute() -> None:
            with model.connect() as con:
                ratings.recompute(con, competitive)

        base = best_of(plain)
        r = {
            "records": best_of(model.players),
            "one": best_of(lambda: model.players("p07")),
            "page": best_of(lambda: page(model.players("p07"), "finished games only")),
            "ratings": best_of(recompute),
        }
    print(f"players: {games:,} games between {len(PEOPLE)} people; a plain GROUP BY {base:.3f} s")
    for key, label in (
        ("records", "every person's records"),
        ("one", "one person in detail"),
        ("page", "one person's HTML page"),
        ("ratings", "every rating recomputed"),
    ):
        print(f"  {label:<26} {r[key]:6.3f} s  ({r[key] / base:5.1f}x the GROUP BY)  aim <= 1 s")
    return r


if __name__ == "__main__":
    run()
