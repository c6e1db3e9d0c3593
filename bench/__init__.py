"""Benchmarks: `make bench` (or `python -m bench`). Each prints ratios against a baseline
measured in the same run, so the figures mean something on any machine."""
