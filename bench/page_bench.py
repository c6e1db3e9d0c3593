"""The HTML replay page: for the longest of 50 simulated games of each ruleset, the time to
draw its spectator's page (every frame for the spectator and for each seat, for its seat
picker), that time as a multiple of folding the game once (measured in the same run), and
the page's size. Aim: at most 0.5 s a page for the slowest game (it took 2.6 s for Ohanami
when boards were rich text laid out per frame)."""

from __future__ import annotations

import random

from bench.common import best_of
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset, names
from gametape.replay import Cursor
from gametape.replay.html import page

GAMES = 50


def run(games: int = GAMES) -> dict[str, dict[str, float]]:
    results = {}
    print(f"page: the longest of {games} simulated games per ruleset, its spectator's page")
    for name in names():
        rules = get_ruleset(name)
        players = sim.default_players(sim.default_count(rules))
        played = (
            sim.play(rules, players, rules.default_bot, random.Random(i)) for i in range(games)
        )
        events = max((g.events for g in played), key=len)
        cursor = Cursor(events)
        seconds = best_of(lambda c=cursor: page(c))
        fold = best_of(lambda e=events: Cursor(e))  # the baseline: fold the game once
        results[name] = {
            "events": len(events),
            "seconds": seconds,
            "vs_fold": seconds / fold,
            "kb": len(page(cursor)) / 1024,
        }
        r = results[name]
        print(
            f"  {name:<19} {r['events']:>4} events  draw {r['seconds']:6.3f} s (aim <= 0.5), "
            f"{r['vs_fold']:5.1f}x one fold  size {r['kb']:6.1f} KB"
        )
    return results


if __name__ == "__main__":
    run()
