"""Recording at the table: keystrokes per move, and the time from Enter to the move on disk.

Keystrokes count every key a person presses for one move, Enter included. "Before" is the
only way there was: one `gametape move GAME "..."` command per move in the long notation
(with a short 4-letter id prefix); "after" is one line at the `gametape record` prompt in
the short notation. The moves are those of complete bot games on invented deals, typed as
at a real table (tests/helpers.py: TABLE_LINES).

Latency is `Recording.move` (parse, rules, append and fsync), the work between Enter and the
next prompt; the baseline measured in the same run is one bare append + fsync of a line of
the same size, which no recorder can beat.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from gametape.engine import simulate as sim
from gametape.engine.game import notation
from gametape.engine.registry import get_ruleset
from gametape.events import Store
from gametape.usecases.record import Recording, new_game
from tests.helpers import TABLE_LINES

AIM_KEYS_HANABI_PLAY = 8  # "plays slot 2, it was r3"
AIM_LATENCY_MS = 20.0
GAMES = 5


def _games(name: str) -> list:
    rules = get_ruleset(name)
    players = ["ann", "ben", "cat"][: max(rules.min_players, min(3, rules.max_players))]
    return [
        sim.play(rules, players, rules.default_bot, random.Random(seed)) for seed in range(GAMES)
    ]


def _long_form(game) -> list[str]:  # type: ignore[no-untyped-def]
    states = game.fold.states
    return [
        f'gametape move k3x9 "{notation(game.ruleset, states[s - 1], game.events[s])}"'
        for s in range(1, len(game.events))
        if game.events[s].__struct_config__.tag.rsplit(".", 1)[-1] not in ("deal",)
    ]


def keystrokes() -> dict[str, tuple[float, float]]:
    """Per game: mean keys per move before and after (Enter counted)."""
    out = {}
    for name, lines_of in TABLE_LINES.items():
        before, after = [], []
        for game in _games(name):
            before += [len(line) + 1 for line in _long_form(game)]
            after += [len(line) + 1 for line in lines_of(game)]
        out[name] = (statistics.mean(before), statistics.mean(after))
    return out


def latency(moves: int = 60) -> tuple[float, float, float]:
    """Median and 95th percentile ms of Recording.move, and a bare append+fsync's median."""
    game = _games("hanabi")[0]
    lines = TABLE_LINES["hanabi"](game)[:moves]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        gid, _ = new_game(store, "hanabi", game.players, table=True)
        rec = Recording(store, store.path(gid))
        times = []
        for line in lines:
            t = time.perf_counter()
            rec.move(line)
            times.append(time.perf_counter() - t)
        bare = []
        path = Path(tmp) / "bare"
        line = store.path(gid).read_bytes().splitlines(keepends=True)[-1]
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for _ in lines:
                t = time.perf_counter()
                os.write(fd, line)
                os.fsync(fd)
                bare.append(time.perf_counter() - t)
        finally:
            os.close(fd)
    times.sort()
    return (
        statistics.median(times) * 1000,
        times[int(len(times) * 0.95)] * 1000,
        statistics.median(bare) * 1000,
    )


def run() -> dict[str, object]:
    print(
        "record: keystrokes per move (Enter included), one `move` command each vs the "
        "`record` prompt"
    )
    keys = keystrokes()
    for name, (before, after) in keys.items():
        print(
            f"  {name:<11} before {before:5.1f}   after {after:5.1f}   "
            f"({before / after:.1f}x fewer)"
        )
    play = len("p2 r3") + 1
    mark = "" if play <= AIM_KEYS_HANABI_PLAY else "   ** MISSED **"
    print(
        f"  'plays slot 2, it was r3' = `p2 r3` + Enter: {play} keys "
        f"(aim <= {AIM_KEYS_HANABI_PLAY}){mark}"
    )
    median, p95, bare = latency()
    mark = "" if median <= AIM_LATENCY_MS else "   ** MISSED **"
    print(
        f"record: Enter to on disk {median:.2f} ms median, {p95:.2f} ms p95; a bare "
        f"append+fsync {bare:.2f} ms ({median / bare:.1f}x) (aim <= {AIM_LATENCY_MS:.0f} ms)"
        f"{mark}"
    )
    return {
        "keystrokes": keys,
        "hanabi_play_keys": play,
        "latency_ms": median,
        "latency_p95_ms": p95,
        "fsync_ms": bare,
    }


if __name__ == "__main__":
    run()
