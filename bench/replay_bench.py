"""Replay: on the longest simulated game of each ruleset, after opening a cursor, the median
time of a jump to a random seq and of a single step; and stepping through the whole game one
event at a time against one fold through the game's ``apply`` (aim: at most 2x: keeping
every state costs little over computing each once). The fold is without the fast path
validation uses (``apply_many``, #41), which computes no state between a log's first and
last, as a viewer must."""

from __future__ import annotations

import random

from bench.common import best_of, fold, median_of
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset, names
from gametape.replay import Cursor

GAMES = 200
OPS = 2000


def _longest(name: str) -> list:
    rules = get_ruleset(name)
    names = sim.default_players(sim.default_count(rules))
    games = (sim.play(rules, names, rules.default_bot, random.Random(i)) for i in range(GAMES))
    return max((g.events for g in games), key=len)


def run() -> dict[str, dict[str, float]]:
    results = {}
    print(f"replay: the longest of {GAMES} simulated games per ruleset")
    for name in names():
        events = _longest(name)
        rng = random.Random(1)
        cursor = Cursor(events)
        t_open = best_of(lambda ev=events: Cursor(ev))
        t_jump = median_of(lambda c=cursor, r=rng: c.jump(r.randrange(c.last + 1)), OPS)
        cursor.start()
        t_step = median_of(lambda c=cursor: c.step() if c.seq < c.last else c.start(), OPS)
        t_fold = best_of(lambda ev=events: fold(ev, fast=False))

        def walk(ev=events) -> None:
            c = Cursor(ev)
            while c.seq < c.last:
                c.step()
                _ = c.state

        def walk_frames(ev=events) -> None:
            c = Cursor(ev)
            for s in range(c.last + 1):
                c.frame(s, seat=0)

        t_walk = best_of(walk)
        t_frames = best_of(walk_frames)
        results[name] = {
            "events": len(events),
            "open_ms": t_open * 1e3,
            "jump_us": t_jump * 1e6,
            "step_us": t_step * 1e6,
            "walk_vs_fold": t_walk / t_fold,
            "frames_vs_fold": t_frames / t_fold,
        }
        r = results[name]
        print(
            f"  {name:<11} {r['events']:>4} events  open {r['open_ms']:6.2f} ms  "
            f"jump {r['jump_us']:5.2f} us  step {r['step_us']:5.2f} us  "
            f"step-through/fold {r['walk_vs_fold']:4.2f}x (aim <= 2x)  "
            f"with a frame per step {r['frames_vs_fold']:5.1f}x"
        )
    return results


if __name__ == "__main__":
    run()
