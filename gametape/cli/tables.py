"""Query results and reports for people: tables, CSV, JSON Lines, Markdown, histograms."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Sequence
from typing import IO, Any

import msgspec
from rich.table import Table
from rich.text import Text

FORMATS = ("table", "csv", "json", "markdown")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return ", ".join(map(_cell, value))
    return str(value)


def rich_table(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None
) -> Table:
    """A table of data: every cell and heading is text, never markup (a name ``[/]`` is
    shown as typed)."""
    table = Table(title=Text(title) if title else None, title_justify="left", header_style="bold")
    for name in columns:
        table.add_column(Text(name))
    for row in rows:
        table.add_row(*(Text(_cell(v)) for v in row))
    return table


def text_writer(
    columns: Sequence[str], fmt: str, stream: IO[str]
) -> Callable[[Sequence[Sequence[Any]]], None]:
    """A writer of rows in CSV, JSON Lines (one object per row) or a Markdown table, batch by
    batch: the header is written at once, then each batch as it comes."""
    if fmt == "csv":
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(columns)
        return lambda rows: writer.writerows([[_cell(v) for v in row] for row in rows])
    if fmt == "json":
        enc = msgspec.json.Encoder(decimal_format="number")

        def write_json(rows: Sequence[Sequence[Any]]) -> None:
            stream.write(
                "".join(
                    enc.encode(dict(zip(columns, row, strict=True))).decode() + "\n" for row in rows
                )
            )

        return write_json
    if fmt == "markdown":

        def md(cells: Sequence[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |\n"

        stream.write(md(columns) + "|" + "---|" * len(columns) + "\n")

        def write_md(rows: Sequence[Sequence[Any]]) -> None:
            stream.write("".join(md([_cell(v) for v in row]) for row in rows))

        return write_md
    raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")


def histogram(rows: Sequence[dict[str, Any]], width: int = 40) -> Table:
    """Scores by player count as horizontal bars; wide score ranges are binned."""
    table = Table(box=None, show_header=True, header_style="bold")
    table.add_column("players", justify="right")
    table.add_column("score", justify="right")
    table.add_column("games", justify="right")
    table.add_column("")
    by_count: dict[int, dict[int, int]] = {}
    for r in rows:
        by_count.setdefault(r["player_count"], {})[r["score"]] = r["games"]
    for count, scores in sorted(by_count.items()):
        lo, hi = min(scores), max(scores)
        step = max(1, math.ceil((hi - lo + 1) / 12))
        bins: dict[int, int] = {}
        for score, games in scores.items():
            start = lo + (score - lo) // step * step
            bins[start] = bins.get(start, 0) + games
        top = max(bins.values())
        for i, (start, games) in enumerate(sorted(bins.items())):
            label = str(start) if step == 1 else f"{start}-{start + step - 1}"
            bar = Text("█" * max(1, round(games / top * width)), style="cyan")
            table.add_row(str(count) if i == 0 else "", label, str(games), bar)
    return table


BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float], width: int = 40) -> str:
    """``values`` as one line of bars, lowest ▁ to highest █; the last ``width`` values when
    there are more."""
    values = list(values)[-width:]
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1
    return "".join(BARS[round((v - low) / span * (len(BARS) - 1))] for v in values)
