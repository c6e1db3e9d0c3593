"""Run every benchmark: `python -m bench [--quick] [--json PATH]` (what `make bench` runs).

Each benchmark prints its own figures as it goes; at the end a summary lists every figure with
an aim, marks each one missed, and the whole set is written as JSON (default
bench-results.json). docs/benchmarks.md says what each aim means.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from bench import (
    analytics_bench,
    import_bench,
    page_bench,
    players_bench,
    record_bench,
    replay_bench,
    review_bench,
    rules_bench,
    scale_bench,
    serve_bench,
    startup_bench,
    store_bench,
    stores_bench,
    validate_bench,
)
from bench.common import Figure
from gametape import compiled


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small corpora (a smoke run)")
    parser.add_argument("--json", type=Path, default=Path("bench-results.json"))
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    figures: list[Figure] = []
    started = time.time()

    s = startup_bench.run(5 if args.quick else startup_bench.ROUNDS)
    for cmd in startup_bench.COMMANDS:  # the aim is the four a person types most (#41)
        aimed = cmd in startup_bench.AIMED
        figures.append(
            Figure(
                "startup",
                f"{cmd} vs python -c pass (x)",
                s[f"{cmd}_ratio"],
                startup_bench.AIM if aimed else None,
                "at_most" if aimed else None,
            )
        )
    print()
    figures += rules_bench.run()
    print()
    figures += store_bench.run(store_bench.GAMES // scale)
    print()
    v = validate_bench.run(validate_bench.GAMES // scale)
    figures.append(
        Figure("validate", "simulated: validate vs decode-only (x)", v["ratio"], 3, "at_most")
    )
    figures.append(Figure("validate", "simulated: validate events/s", v["validate_events_per_s"]))
    print()
    for name, r in replay_bench.run().items():
        figures.append(
            Figure(
                "replay", f"{name}: step-through vs one fold (x)", r["walk_vs_fold"], 2, "at_most"
            )
        )
    print()
    for name, r in analytics_bench.run(analytics_bench.GAMES // scale).items():
        figures.append(
            Figure("index", f"{name}: index vs read_json (x slower)", r["ratio"], 3, "at_most")
        )
    print()
    i = import_bench.run(import_bench.GAMES // scale)
    figures.append(
        Figure("import", "simulated hanab.live: games/s", i["games_per_s"], 2000, "at_least")
    )
    print()
    for name, pg in page_bench.run(page_bench.GAMES // scale).items():
        figures.append(
            Figure("page", f"{name}: draw the HTML page (s)", pg["seconds"], 0.5, "at_most")
        )
    print()
    pl = players_bench.run(players_bench.GAMES // scale)
    for key, label in (
        ("records", "every person's records"),
        ("one", "one person in detail"),
        ("page", "one person's HTML page"),
        ("ratings", "every rating recomputed"),
    ):
        games = f"{players_bench.GAMES // scale:,} games"
        figures.append(Figure("players", f"{games}: {label} (s)", pl[key], 1, "at_most"))
    print()
    figures += stores_bench.run(stores_bench.GAMES // scale)
    print()
    figures += scale_bench.run(scale_bench.GAMES // scale)
    print()
    r = record_bench.run()
    figures.append(Figure("record", "Hanabi play: keystrokes", r["hanabi_play_keys"], 8, "at_most"))
    figures.append(Figure("record", "Enter to on disk, median ms", r["latency_ms"], 20, "at_most"))

    print()
    figures += serve_bench.run(
        serve_bench.TABLES // scale, serve_bench.SECONDS / (2 if args.quick else 1)
    )
    print()
    figures += review_bench.run(
        review_bench.ROOMS // (2 if args.quick else 1),
        review_bench.SECONDS / (3 if args.quick else 1),
    )

    built = compiled.in_use()  # every built module is imported by now (validate, index)
    print(f"\nbuild: {'compiled: ' + ', '.join(built) if built else 'pure Python'}")
    print("summary (every figure with an aim; the store corpus first)")
    for figure in figures:
        print(figure.line())
    missed = [f for f in figures if f.met is False]
    print(f"\n{len(missed)} of {sum(f.aim is not None for f in figures)} aims missed")
    args.json.write_text(
        json.dumps(
            {
                "machine": {"python": platform.python_version(), "platform": platform.platform()},
                "compiled": built,
                "quick": args.quick,
                "seconds": round(time.time() - started),
                "figures": [f._asdict() | {"met": f.met} for f in figures],
                "missed": [f.name for f in missed],
            },
            indent=2,
        )
    )
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
