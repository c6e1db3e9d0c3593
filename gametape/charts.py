"""Charts as data and as SVG: score bins for a histogram, and a line of values over games.

Shared by the terminal (gametape.cli.tables draws bins as bars) and the HTML pages (the SVG
here). Every label goes into the SVG as escaped text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from gametape.messages import current, render, say

MOST_BINS = 12


def bins(counts: Mapping[int, int], most: int = MOST_BINS) -> list[tuple[str, int]]:
    """Scores and how many games had each, as at most ``most`` bars of equal width, low to
    high: ``[("3", 2), ("4", 0), ...]``, or ``("10-14", 3)`` when a bar holds several scores.
    Scores between the lowest and the highest that nobody had are bars of 0."""
    if not counts:
        return []
    lo, hi = min(counts), max(counts)
    step = max(1, math.ceil((hi - lo + 1) / most))
    totals = dict.fromkeys(range(lo, hi + 1, step), 0)
    for score, games in counts.items():
        totals[lo + (score - lo) // step * step] += games
    return [
        (str(start) if step == 1 else f"{start}-{start + step - 1}", games)
        for start, games in totals.items()
    ]


W, H, PAD = 480, 160, 28  # the charts' drawing box, in SVG units
LEFT = 48  # room for the line chart's labels


def _number(value: float) -> str:
    """A value as a chart labels it, in the reader's digits."""
    return current().digits(f"{value:.2f}".rstrip("0").rstrip("."))


def _game(n: int) -> str:
    return escape(render(say("core.chart-game", "game {n}", n=n)))


def svg_line(values: Sequence[float], title: str) -> str:
    """``values`` in order as a line with a dot per value, the lowest and highest labelled."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1
    dx = (W - LEFT - PAD) / max(1, len(values) - 1)
    points = [
        (LEFT + i * dx, H - PAD - (v - low) / span * (H - 2 * PAD)) for i, v in enumerate(values)
    ]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>' for x, y in points)
    return (
        f'<svg class="chart line" viewBox="0 0 {W} {H}" direction="ltr" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<line class="axis" x1="{LEFT}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}"/>'
        f'<polyline points="{line}"/><g class="dots">{dots}</g>'
        f'<text x="2" y="{PAD + 4}">{_number(high)}</text>'
        f'<text x="2" y="{H - PAD + 4}">{_number(low)}</text>'
        f'<text x="{LEFT}" y="{H - 6}">{_game(1)}</text>'
        f'<text x="{W - PAD}" y="{H - 6}" text-anchor="end">{_game(len(values))}</text></svg>'
    )


def svg_bars(bars: Sequence[tuple[str, int]], title: str) -> str:
    """A histogram: one bar per bin of :func:`bins`, its count above it, its label below."""
    if not bars:
        return ""
    top = max(games for _, games in bars) or 1
    width = (W - 2 * PAD) / len(bars)
    parts = []
    for i, (bin_, games) in enumerate(bars):
        label = current().digits(bin_)  # a bin's range, as the reader writes numbers
        x = PAD + i * width
        height = games / top * (H - 2 * PAD - 12)
        y = H - PAD - height
        mid = x + width / 2
        parts.append(
            f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{width - 4:.1f}" height="{height:.1f}">'
            f"<title>{escape(label)}: {_number(games)}</title></rect>"
            f'<text x="{mid:.1f}" y="{H - PAD + 14}" text-anchor="middle">{escape(label)}</text>'
        )
        if games:
            count = _number(games)
            parts.append(f'<text x="{mid:.1f}" y="{y - 3:.1f}" text-anchor="middle">{count}</text>')
    return (
        f'<svg class="chart bars" viewBox="0 0 {W} {H}" direction="ltr" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<line class="axis" x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}"/>'
        f"{''.join(parts)}</svg>"
    )
