"""validate vs a decode-only pass over the same 2,000 simulated 3-player Hanabi games.

decode-only: read each file, split lines, msgspec typed decode of every line (no hash, no rules).
validate:    what `gametape validate` does per file: decode, seq and hash-chain checks, and the
             fold through the rules.
Aim: validate costs at most 3x decode-only.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgspec

from bench.common import best_of, corpus
from gametape.engine.validate import validate
from gametape.events import read_log
from gametape.events.codec import codec_for
from gametape.usecases.check import validate_paths

GAMES = 2000


def run(games: int = GAMES) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        paths = corpus(Path(tmp), "hanabi", games, 3)
        decoder = msgspec.json.Decoder(codec_for("hanabi").record)  # Hanabi's typed lines
        events = sum(p.read_bytes().count(b"\n") for p in paths)

        def decode_only() -> None:
            for p in paths:
                for line in p.read_bytes().split(b"\n")[:-1]:
                    decoder.decode(line)

        def full_validate() -> None:
            for p in paths:
                report, _ = validate(read_log(p))
                assert report.status == "finished", report

        def parallel_validate() -> None:
            for report in validate_paths(paths, jobs=2):
                assert report.status == "finished", report

        t_decode = best_of(decode_only)
        t_validate = best_of(full_validate)
        t_parallel = best_of(parallel_validate)
    result = {
        "games": games,
        "events": events,
        "decode_events_per_s": events / t_decode,
        "validate_events_per_s": events / t_validate,
        "ratio": t_validate / t_decode,
        "validate_2_jobs_events_per_s": events / t_parallel,
        "ratio_2_jobs": t_parallel / t_decode,
    }
    print(f"validate: {games} games, {events} events")
    print(f"  decode-only  {result['decode_events_per_s']:>12,.0f} events/s")
    print(f"  validate     {result['validate_events_per_s']:>12,.0f} events/s")
    print(f"  ratio        {result['ratio']:>12.2f}x  (aim: <= 3x; one process each)")
    print(
        f"  validate -j2 {result['validate_2_jobs_events_per_s']:>12,.0f} events/s  "
        f"ratio {result['ratio_2_jobs']:.2f}x against the one-process decode"
    )
    return result


if __name__ == "__main__":
    run()
