"""Run every benchmark: `python -m bench` (what `make bench` runs)."""

from __future__ import annotations

from bench import analytics_bench, import_bench, record_bench, replay_bench, validate_bench


def main() -> None:
    validate_bench.run()
    print()
    replay_bench.run()
    print()
    analytics_bench.run()
    print()
    import_bench.run()
    print()
    record_bench.run()


if __name__ == "__main__":
    main()
