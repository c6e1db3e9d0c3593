"""Draw a board (gametape.engine.board's data) in the terminal with rich.

Every text from the board is drawn as text, never as markup. Cards are their face in their
colour, or a back (``▒▒``); a card the last clue touched is underlined and marked ``^``, a
card the move brought is bold and reversed; notes go under the cards they belong to.
"""

from __future__ import annotations

from itertools import groupby

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gametape.usecases.store import Board, Card, Counter, Zone

STYLES = {
    "red": "red",
    "orange": "dark_orange",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "indigo": "slate_blue1",
    "violet": "magenta",
    "pink": "hot_pink",
    "white": "bright_white",
    "grey": "grey50",
    "teal": "cyan",
    "black": "grey37",
}
WIDE = 12  # a zone with more cards than this is drawn as a wrapped line, notes left out


def card_text(card: Card) -> Text:
    """One card: its face in its colour, or its back; marks as styles (and ``^`` touched)."""
    if card.back:
        text = Text("▒▒", style="dim")
    else:
        text = Text(card.text or "??", style=f"bold {STYLES.get(card.colour, '')}".strip())
    if "touched" in card.marks:
        text.stylize("underline")
        text.append("^", style="bold")
    if "new" in card.marks:
        text.stylize("reverse")
    if "critical" in card.marks:
        text.append("!", style="bold red")
    return text


def _counter(counter: Counter) -> Text:
    value = counter.value + (f"/{counter.of}" if counter.of else "")
    style = f"bold {STYLES.get(counter.colour, '')}".strip()
    return Text.assemble(f"{counter.label} ", (value, style))


def _counters(counters: tuple[Counter, ...]) -> Text:
    return Text("   ").join(_counter(c) for c in counters)


def _zone_title(zone: Zone) -> Text:
    title = Text(zone.title, style="bold" if zone.seat is not None else "")
    if zone.acting:
        title.stylize("reverse")
    return title


def _group(zones: list[Zone]) -> RenderableType:
    """Zones drawn together: a grid with a column per card, notes on a line under the faces."""
    width = max((len(z.cards) for z in zones), default=0)
    if width > WIDE:
        lines = []
        for zone in zones:
            line = _zone_title(zone).append("  ")
            line.append_text(Text(" ").join(card_text(c) for c in zone.cards) or Text("-"))
            if zone.text:
                line.append(f"  {zone.text}", style="dim")
            lines.append(line)
        return Group(*lines)
    grid = Table.grid(padding=(0, 1))
    grid.add_column()
    for _ in range(width):
        grid.add_column(justify="center")
    grid.add_column()
    for zone in zones:
        faces = [card_text(c) for c in zone.cards]
        notes = [Text(c.note, style="dim") for c in zone.cards]
        rest = Text(zone.text, style="dim")
        if zone.counters:
            rest = _counters(zone.counters).append(f"  {zone.text}" if zone.text else "")
        pad = [Text("")] * (width - len(faces))
        grid.add_row(_zone_title(zone), *faces, *pad, rest)
        if any(c.note for c in zone.cards):
            grid.add_row(Text(""), *notes, *pad, Text(""))
    return grid


def render(board: Board) -> RenderableType:
    """A board as a rich panel."""
    parts: list[RenderableType] = []
    if board.status:
        parts.append(Text(board.status))
    if board.counters:
        parts.append(_counters(board.counters))
    if parts:
        parts.append(Text(""))
    for i, (_, zones) in enumerate(groupby(board.zones, key=lambda z: z.group or id(z))):
        group = list(zones)
        if i and group[0].group:  # a player's zones, the hands: set apart by a blank line
            parts.append(Text(""))
        parts.append(_group(group))
    if board.notes:
        parts += [Text(""), *(Text(note, style="dim") for note in board.notes)]
    return Panel(Group(*parts), title=Text(board.title), title_align="left", expand=False)
