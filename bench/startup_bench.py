"""Start-up: `gametape --help`, `show`, `move`, `list` and `log` on a one-game store, as whole
processes, against a bare `python -c pass`, timed in turn (paired) in the same run; the median
of each. `show`, `move`, `move ?` and `list` are timed in Persian and Hungarian too (#52).
Aim: --help, show, move and list each within 3x of the bare interpreter, in every language."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gametape.events import Store
from gametape.usecases.record import new_game

ROUNDS = 15
LANGUAGES = ("fa", "hu")  # English is the commands without --lang
IN_EVERY = ("show", "move", "move ?", "list")
COMMANDS = (
    "--help", "show", "move", "move ?", "list", "log",
    *(f"{c} --lang {lang}" for lang in LANGUAGES for c in IN_EVERY),
)  # fmt: skip
# log is measured, with no aim (docs/benchmarks.md)
AIMED = tuple(c for c in COMMANDS if c != "log")
AIM = 3.0


def _time(argv: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def run(rounds: int = ROUNDS) -> dict[str, float]:
    gametape = str(Path(sys.executable).parent / "gametape")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "store")
        env = {"GAMETAPE_STORE": str(store.root), "PATH": "/usr/bin:/bin", "COLUMNS": "80"}
        gid, _ = new_game(store, "hanabi", ["ann", "ben", "cat"], seed=1)
        times: dict[str, list[float]] = {"python -c pass": []} | {c: [] for c in COMMANDS}
        argv = {
            "--help": ["--help"],
            "show": ["show", gid],
            "list": ["list"],
            "log": ["log", gid],
        }
        for _ in range(rounds):
            fresh, _ = new_game(store, "hanabi", ["ann", "ben", "cat"])
            times["python -c pass"].append(_time([sys.executable, "-c", "pass"], env))
            for command in COMMANDS:
                name, _, lang = command.partition(" --lang ")
                if name == "move ?":
                    args = ["move", gid, "?"]
                else:
                    args = argv.get(name) or ["move", fresh, "play 1"]
                if lang:
                    args = ["--lang", lang, *args]
                times[command].append(_time([gametape, *args], env))
    medians = {k: statistics.median(v) for k, v in times.items()}
    bare = medians["python -c pass"]
    print(f"start-up: median of {rounds} paired runs each")
    for name, t in medians.items():
        print(f"  {name:<20} {t * 1e3:7.1f} ms  {t / bare:5.2f}x the bare interpreter")
    return (
        {"bare_ms": bare * 1e3}
        | {f"{k}_ratio": medians[k] / bare for k in COMMANDS}
        | {f"{k}_ms": medians[k] * 1e3 for k in COMMANDS}
    )


if __name__ == "__main__":
    run()
