"""Query results and reports for people: tables, CSV, JSON Lines, Markdown, histograms."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from typing import IO, Any

import msgspec
from rich.table import Table
from rich.text import Text

from gametape.charts import bins
from gametape.messages import Term, current, render

FORMATS = ("table", "csv", "json", "markdown")


def cell(value: Any) -> str:
    """A value as a table shows it (a float to 4 significant digits)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return ", ".join(map(cell, value))
    return str(value)


def heading(game: str, column: str) -> str:
    """A column of a report in the reader's language: the game's word for it, else
    gametape's (in English: the column's name, as SQL reads it)."""
    own = render(Term(f"{game}.column", column))
    return own if own != column else render(Term("core.column", column))


def rich_table(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], title: str | None = None
) -> Table:
    """A table of data: every cell and heading is text, never markup (a name ``[/]`` is
    shown as typed)."""
    table = Table(title=Text(title) if title else None, title_justify="left", header_style="bold")
    for name in columns:
        table.add_column(Text(name))
    for row in rows:
        table.add_row(*(Text(cell(v)) for v in row))
    return table


def text_writer(
    columns: Sequence[str], fmt: str, stream: IO[str]
) -> Callable[[Sequence[Sequence[Any]]], None]:
    """A writer of rows in CSV, JSON Lines (one object per row) or a Markdown table, batch by
    batch: the header is written at once, then each batch as it comes."""
    if fmt == "csv":
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(columns)
        return lambda rows: writer.writerows([[cell(v) for v in row] for row in rows])
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
            stream.write("".join(md([cell(v) for v in row]) for row in rows))

        return write_md
    raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")


def histogram(
    rows: Sequence[dict[str, Any]],
    heads: Sequence[str] = ("players", "score", "games"),
    width: int = 40,
) -> Table:
    """Scores by player count as horizontal bars; wide score ranges are binned. ``heads``:
    the columns' headings (player count, score, games), in the reader's language."""
    by_count: dict[int, dict[int, int]] = {}
    for r in rows:
        by_count.setdefault(r["player_count"], {})[r["score"]] = r["games"]
    groups = {str(count): bins(scores) for count, scores in sorted(by_count.items())}
    return bar_table(heads, groups, width)


def bar_table(
    heads: Sequence[str], groups: dict[str, list[tuple[str, int]]], width: int = 40
) -> Table:
    """Histograms (``charts.bins``) one under another: ``heads`` names the columns (the
    group, the score, the games), each group's name in the first."""
    table = Table(box=None, show_header=True, header_style="bold")
    digits = current().digits  # numbers in the reader's digits
    for head in heads:
        table.add_column(Text(head), justify="right")
    table.add_column("")
    for name, bars in groups.items():
        top = max((games for _, games in bars), default=0) or 1
        for i, (label, games) in enumerate(bars):
            bar = Text("█" * (max(1, round(games / top * width)) if games else 0), style="cyan")
            row = (name if i == 0 else "", label, str(games))
            table.add_row(*(Text(digits(v)) for v in row), bar)
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
