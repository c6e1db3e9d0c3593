"""Draw a board (gametape.engine.board's data) in the terminal.

``drawing`` says what is drawn, as styled text (gametape.cli.drawing): cards are their face
in their colour, or a back (``▒▒``); a card the last clue touched is underlined and marked
``^``, a card the move brought is bold and reversed; notes go under the cards they belong to.
``render`` makes it a rich panel (the viewer, the recorder, and a board too wide for
``drawing.lay_out``). Every text from the board is drawn as text, never as markup.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Any

from gametape.cli.drawing import Grid, Line, Panel, Part
from gametape.usecases.store import Board, Card, Counter, Zone

if TYPE_CHECKING:
    from rich.console import RenderableType

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
    "black": "bright_white on black",
    "rainbow": "bright_magenta",
}
WIDE = 12  # a zone with more cards than this is drawn as a wrapped line, notes left out


def card_text(card: Card) -> Line:
    """One card: its face in its colour, or its back; marks as styles (and ``^`` touched)."""
    if card.back:  # in the colour the clues told, if they told one
        face, style = "▒▒", STYLES.get(card.colour, "dim")
    else:
        face, style = card.text or "??", f"bold {STYLES.get(card.colour, '')}".strip()
    extra = ""
    if "touched" in card.marks:
        extra += " underline"
    if "new" in card.marks:
        extra += " reverse"
    line: Line = [(face, style + extra)]
    if "touched" in card.marks:
        line.append(("^", "bold" + (" reverse" if "new" in card.marks else "")))
    if "critical" in card.marks:
        line.append(("!", "bold red"))
    return line


def _counter(counter: Counter) -> Line:
    value = counter.value + (f"/{counter.of}" if counter.of else "")
    style = f"bold {STYLES.get(counter.colour, '')}".strip()
    return [(f"{counter.label} ", ""), (value, style)]


def _counters(counters: tuple[Counter, ...]) -> Line:
    line: Line = []
    for i, counter in enumerate(counters):
        line += ([("   ", "")] if i else []) + _counter(counter)
    return line


def _zone_title(zone: Zone) -> Line:
    style = "bold" if zone.seat is not None else ""
    return [(zone.title, f"{style} reverse".strip() if zone.acting else style)]


def _group(zones: list[Zone]) -> list[Part]:
    """Zones drawn together: a grid with a column per card, notes on a line under the faces."""
    width = max((len(z.cards) for z in zones), default=0)
    if width > WIDE:
        lines: list[Part] = []
        for zone in zones:
            line = [*_zone_title(zone), ("  ", "")]
            cards: Line = []
            for i, card in enumerate(zone.cards):
                cards += ([(" ", "")] if i else []) + card_text(card)
            line += cards or [("-", "")]
            if zone.counters:
                line += [("  ", ""), *_counters(zone.counters)]
            if zone.text:
                line.append((f"  {zone.text}", "dim"))
            lines.append(line)
        return lines
    rows: list[list[Line]] = []
    for zone in zones:
        faces = [card_text(c) for c in zone.cards]
        notes: list[Line] = [[(c.note, "dim")] for c in zone.cards]
        rest: Line = [(zone.text, "dim")]
        if zone.counters:
            rest = _counters(zone.counters) + ([("  ", ""), (zone.text, "")] if zone.text else [])
        pad: list[Line] = [[("", "")]] * (width - len(faces))
        rows.append([_zone_title(zone), *faces, *pad, rest])
        if any(c.note for c in zone.cards):
            rows.append([[("", "")], *notes, *pad, [("", "")]])
    return [Grid(rows)]


def drawing(board: Board) -> Panel:
    """What a board looks like: a panel of lines and grids of styled text."""
    parts: list[Part] = []
    if board.status:
        parts.append([(board.status, "")])
    if board.counters:
        parts.append(_counters(board.counters))
    if parts:
        parts.append([("", "")])
    for i, (_, zones) in enumerate(groupby(board.zones, key=lambda z: z.group or id(z))):
        group = list(zones)
        if i and group[0].group:  # a player's zones, the hands: set apart by a blank line
            parts.append([("", "")])
        parts += _group(group)
    if board.notes:
        parts += [[("", "")], *([(note, "dim")] for note in board.notes)]
    return Panel(board.title, parts)


def render(board: Board) -> RenderableType:
    """A board as a rich panel."""
    return to_rich(drawing(board))


def _stacked(line: Line) -> Line:
    """A row's last cell with each counter and its text on a line of its own."""
    return [("\n", "") if not (text.strip() or style) else (text, style) for text, style in line]


def to_rich(panel: Panel) -> RenderableType:
    """A drawing as rich renderables: the panel, its grids and its lines.

    A grid too wide for the terminal stacks each row's counters in its last column rather than
    letting the terminal break "votes 0" between its label and its value.
    """
    from rich.console import Console, ConsoleOptions, Group, RenderResult
    from rich.measure import Measurement
    from rich.panel import Panel as RichPanel
    from rich.table import Table
    from rich.text import Text

    def text(line: Line) -> Text:
        return Text.assemble(*((t, s) for t, s in line if t or s)) if line else Text("")

    def table(grid: Grid, stacked: bool) -> Table:
        columns = max(len(row) for row in grid.rows)
        made = Table.grid(padding=(0, 1))
        made.add_column()
        for _ in range(columns - 2):
            made.add_column(justify="center")
        made.add_column()
        for row in grid.rows:
            made.add_row(*map(text, row[:-1]), text(_stacked(row[-1]) if stacked else row[-1]))
        return made

    class Fitted:
        """A grid in one row per zone where the terminal is wide enough, stacked where not."""

        def __init__(self, grid: Grid) -> None:
            self.wide, self.narrow = table(grid, False), table(grid, True)

        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            unbounded = options.update_width(10 * options.max_width)
            fits = Measurement.get(console, unbounded, self.wide).maximum <= options.max_width
            yield self.wide if fits else self.narrow

        def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
            narrow = Measurement.get(console, options, self.narrow)
            return Measurement(narrow.minimum, Measurement.get(console, options, self.wide).maximum)

    parts: list[Any] = [Fitted(p) if isinstance(p, Grid) else text(p) for p in panel.parts]
    return RichPanel(Group(*parts), title=Text(panel.title), title_align="left", expand=False)
