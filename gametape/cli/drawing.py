"""Boards and tables as styled text, laid out here without rich.

A drawing is lines of styled runs (``Run``: text and a rich style name such as ``"bold red"``)
and grids of them, inside a panel or as a table. ``lay_out`` places them exactly as rich does
(rounded panel, grid columns centred one space apart, table cells padded, words wrapped the
way rich wraps them; tests/test_drawing.py holds the two to the same characters), so a
command that prints a board or the game list imports no rich. What it cannot promise to place
as rich would (a grid wider than the terminal, a character whose width it does not know) it
gives back as None, and the caller draws with rich (``gametape.cli.board``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from gametape.text import visible

Run = tuple[str, str]  # text and its style
Line = list[Run]


class Grid(NamedTuple):
    """Rows of cells (each a line of runs); every column but the first and last is centred."""

    rows: list[list[Line]]


class Table(NamedTuple):
    """rich's ``Table(box=None)``: a bold header row, then the rows, each cell padded by a
    space each side, left-justified."""

    header: list[str]
    rows: list[list[Line]]


Part = Line | Grid


class Panel(NamedTuple):
    title: str
    parts: list[Part]


# Characters whose width is one cell, as rich counts them: printable ASCII and the few others
# the boards use (tests/test_drawing.py asks rich). Text with any other is drawn by rich.
NARROW = frozenset(" ▒·→←—–…✎★☆✓✗⚑♦♥♠♣✿≈▲▼↩⁂°±×÷«»‘’“”")


def _cells(text: str) -> int:
    """The cells ``text`` takes (its characters are narrow or zero-width: ``_narrow``)."""
    return len(text) if text.isascii() else len(text) - sum(map(zero_width, text))


@lru_cache(maxsize=2048)
def zero_width(c: str) -> bool:
    """Whether ``c`` takes no cell, as rich counts it: the zero-width non-joiner and joiner
    (Persian's می‌دانند) and a nonspacing mark (Persian's kasra, a hamza above)."""
    import unicodedata

    return c in "\u200c\u200d" or unicodedata.category(c) == "Mn"


def _width(line: Line) -> int:
    return sum(_cells(text) for text, _ in line)


def _narrow(text: str) -> bool:
    if text.isascii():
        return text.isprintable()
    return all(" " <= c <= "~" or c in NARROW or _one_cell(c) or zero_width(c) for c in text)


@lru_cache(maxsize=2048)
def _one_cell(c: str) -> bool:
    """Whether ``c`` takes one cell, as rich counts it: a letter, digit, mark of punctuation
    or symbol that is neither wide nor combining (Hungarian's ő, Persian's letters and
    digits); a zero-width joiner, a control or a wide character is rich's to lay out."""
    import unicodedata

    return (
        unicodedata.category(c)[0] in "LNPS"
        and unicodedata.east_asian_width(c) in ("N", "Na", "A", "H")
        and not unicodedata.combining(c)
    )


def _safe(line: Line) -> bool:
    return all(_narrow(text) for text, _ in line)


def _wrap(line: Line, width: int) -> list[Line] | None:
    """``line`` wrapped at ``width`` as rich wraps a Text (a word that does not fit starts
    the next line); None for a word longer than the width (rich folds it)."""
    plain = "".join(text for text, _ in line)
    if _cells(plain) <= width:
        return [line]
    breaks, offset = [], 0
    for match in re.finditer(r"\s*\S+\s*", plain):  # rich's words: with their spaces
        word = match.group()
        length = _cells(word.rstrip())
        if width - offset >= length:
            offset += _cells(word)
        elif length > width:
            return None
        else:
            breaks.append(match.start())
            offset = _cells(word)
    ends = zip([0, *breaks], [*breaks, len(plain)], strict=True)
    return [
        _slice(line, a, b if _cells(plain[a:b]) <= width else a + len(plain[a:b].rstrip()))
        for a, b in ends
    ]


def _slice(line: Line, start: int, end: int) -> Line:
    out: Line = []
    at = 0
    for text, style in line:
        a, b = max(start, at), min(end, at + len(text))
        if a < b:
            out.append((text[a - at : b - at], style))
        at += len(text)
    return out


def _pad(line: Line, width: int, centre: bool = False) -> Line:
    excess = width - _width(line)
    if excess <= 0:
        return line
    left = excess // 2 if centre else 0
    return [*([(" " * left, "")] if left else []), *line, (" " * (excess - left), "")]


def _column_widths(grid: Grid, drawn: bool = False) -> list[int]:
    """Each column's width. rich measures an empty last column as none wide but draws it
    one wide (``drawn``), so a grid may be measured to fit and then not fit."""
    columns = max(len(row) for row in grid.rows)
    widths = [0] * columns
    for row in grid.rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], _width(cell))
    if drawn and not widths[-1]:
        widths[-1] = 1
    return widths


def _grid_lines(grid: Grid, width: int) -> list[Line] | None:
    widths = _column_widths(grid, drawn=True)
    columns = len(widths)
    if sum(widths) + columns - 1 > width:
        return None  # rich would narrow the widest columns and wrap their cells
    lines = []
    for row in grid.rows:
        line: Line = []
        for i, cell in enumerate(row):
            line += _pad(cell, widths[i], centre=0 < i < columns - 1)
            if i < columns - 1:
                line.append((" ", ""))
        lines.append(line)
    return lines


def _measure(part: Part) -> int:
    if isinstance(part, Grid):
        widths = _column_widths(part)
        return sum(widths) + len(widths) - 1
    return _width(part)


def _lines_of(drawing: Panel | Table) -> Iterator[Line]:
    if isinstance(drawing, Table):
        yield [(h, "") for h in drawing.header]
        for row in drawing.rows:
            yield from row
        return
    yield [(drawing.title, "")]
    for part in drawing.parts:
        if isinstance(part, Grid):
            for row in part.rows:
                yield from row
        else:
            yield part


def lay_out(drawing: Panel | Table, width: int) -> list[Line] | None:
    """The drawing's lines at a terminal ``width`` (each line padded as rich pads it), or
    None where rich must draw it."""
    if not all(map(_safe, _lines_of(drawing))):
        return None
    if isinstance(drawing, Table):
        return _table(drawing, width)
    inner = min(width - 2, max(map(_measure, drawing.parts), default=0) + 2)
    inner = min(width - 2, max(inner, _cells(drawing.title) + 4))
    text = inner - 2
    if _cells(drawing.title) + 2 > inner - 2:
        return None  # rich cuts the title short
    body: list[Line] = []
    for part in drawing.parts:
        placed = _grid_lines(part, text) if isinstance(part, Grid) else _wrap(part, text)
        if placed is None:
            return None
        body += placed
    title = f" {drawing.title} "
    top: Line = [("╭─", ""), (title, ""), ("─" * (inner - 2 - _cells(title)) + "─╮", "")]
    lines = [top]
    for line in body:
        lines.append([("│ ", ""), *_pad(line, text), (" │", "")])
    lines.append([("╰" + "─" * inner + "╯", "")])
    return lines


def _table(table: Table, width: int) -> list[Line] | None:
    rows = [[[(h, "bold")] for h in table.header], *table.rows]
    widths = [max(_width(row[i]) for row in rows) for i in range(len(table.header))]
    if sum(widths) + 2 * len(widths) > width:
        return None  # rich would wrap the widest columns' cells
    return [
        [r for i, cell in enumerate(row) for r in [(" ", ""), *_pad(cell, widths[i]), (" ", "")]]
        for row in rows
    ]


# rich's colour names, as 8- and 256-colour SGR codes, and its attributes
_SGR = {
    "bold": "1",
    "dim": "2",
    "italic": "3",
    "underline": "4",
    "reverse": "7",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "bright_white": "97",
    "dark_orange": "38;5;208",
    "slate_blue1": "38;5;99",
    "hot_pink": "38;5;205",
    "grey50": "38;5;244",
    "grey37": "38;5;59",
}


def text_of(lines: Sequence[Line], colour: bool) -> str:
    """The lines as the terminal gets them: plain, or with colours as SGR sequences. Every
    text is made visible first (no control character reaches the terminal)."""
    out = []
    for line in lines:
        parts = []
        for text, style in line:
            shown = visible(text)
            codes = ";".join(_SGR[w] for w in style.split() if w in _SGR) if colour else ""
            parts.append(f"\x1b[{codes}m{shown}\x1b[0m" if codes else shown)
        out.append("".join(parts))
    return "\n".join(out) + "\n"
