"""Run every benchmark: `python -m bench` (what `make bench` runs)."""

from __future__ import annotations

from bench import validate_bench


def main() -> None:
    validate_bench.run()


if __name__ == "__main__":
    main()
