"""Draw an Ohanami view: each garden's three rows, coloured by season, and the score table."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gametape.games.ohanami.rules import MARKERS, SEASONS, colour, row_bonus
from gametape.games.ohanami.view import OhanamiView

STYLE = {"green": "green", "red": "red", "blue": "blue"}


def _card(card: int) -> Text:
    return Text(f"{card:>2}", style=f"bold {STYLE[colour(card)]}")


def _cards(cards: tuple[int, ...]) -> Text:
    return Text(" ").join(map(_card, cards)) if cards else Text("-", style="dim")


def _gardens(view: OhanamiView) -> Table:
    """One line per row: the player, the row with its marker, its length and bonus."""
    t = Table(box=None, show_header=False, pad_edge=False)
    t.add_column(style="bold")
    t.add_column(style="dim", justify="right")
    t.add_column()
    t.add_column(style="dim", justify="right")
    for s, g in enumerate(view.gardens):
        name = g.name + (" (you)" if s == view.seat else "")
        for r, row in enumerate(g.rows):
            bonus = row_bonus(len(row))
            t.add_row(
                Text(name if r == 0 else ""),
                Text(f"[{MARKERS[r]}]"),
                _cards(row),
                f"{len(row)}" + (f" +{bonus}" if bonus else ""),
            )
        hand = _cards(g.hand) if g.hand is not None else Text("▒▒ " * g.hand_size, style="dim")
        note = "picked" if g.picked else ""
        if g.pick is not None:
            card, to_row = g.pick
            note = f"picked {card} → {'discard' if to_row is None else f'row {to_row}'}"
        t.add_row("", "hand", hand, note)
        t.add_row("", "", "", "")
    return t


def render(view: OhanamiView, title: str) -> RenderableType:
    if view.outcome is not None:
        status = Text(f"game over ({view.outcome})", style="bold")
    elif view.season is None:
        status = Text("waiting for the first deal")
    else:
        waiting = [g.name for g in view.gardens if not g.picked]
        status = Text(
            f"{view.season} (round {view.round}), turn {view.turn}: deck {view.deck}; "
            f"waiting for {', '.join(waiting) or 'the deal'}"
        )
    legend = Text.assemble(
        ("green", "green"),
        " scores in spring, ",
        ("red", "red"),
        " in summer, ",
        ("blue", "blue"),
        " in autumn; rows of 5+ cards earn 2, of 7+ earn 5",
        style="dim",
    )
    gardens = _gardens(view)
    scores = Table(box=None, title="points", title_justify="left")
    scores.add_column("")
    for name in SEASONS:
        scores.add_column(name, justify="right")
    scores.add_column("total", justify="right")
    for g in view.gardens:
        cells = [str(p) for p in g.round_scores] + [""] * (3 - len(g.round_scores))
        scores.add_row(Text(g.name), *cells, Text(str(g.total), style="bold"))
    parts: list[RenderableType] = [status, legend, Text(""), gardens, Text(""), scores]
    if view.discards:
        parts.append(
            Text("discards this round: ").append_text(Text(" ").join(map(_card, view.discards)))
        )
    seat = f" · as {view.players[view.seat]}" if view.seat is not None else ""
    return Panel(
        Group(*parts), title=Text(f"Ohanami · {title}{seat}"), title_align="left", expand=False
    )
