"""Draw a Hanamikoji view: the seven artists and their owners, and each player's side."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gametape.games.hanamikoji.events import ARTISTS
from gametape.games.hanamikoji.rules import artist_of
from gametape.games.hanamikoji.view import HanamikojiView, SeatView
from gametape.text import plural

COLOURS = ("red", "dark_orange", "yellow", "green", "blue", "slate_blue1", "magenta")


def _card(card: int | None) -> Text:
    if card is None:
        return Text("▒▒", style="dim")
    if card == 0:  # a game dealt at the table: not shown yet
        return Text("??", style="dim")
    a = artist_of(card)
    return Text(f"{ARTISTS[a]}{card}", style=f"bold {COLOURS[a]}")


def _cards(cards: tuple[int | None, ...] | None, count: int) -> Text:
    if cards is None:
        return Text(" ".join(["▒▒"] * count) or "-", style="dim")
    if not cards:
        return Text("-", style="dim")
    return Text(" ").join(_card(c) for c in cards)


def _side(view: HanamikojiView, seat: int, side: SeatView) -> Table:
    t = Table.grid(padding=(0, 1))
    t.add_column(style="dim")
    t.add_column()
    t.add_row("hand", _cards(side.hand, side.hand_size))
    t.add_row("display", _cards(side.display, len(side.display)))
    t.add_row("deck", Text(plural(side.deck_size, "card")))
    t.add_row(
        "artists",
        Text(" ").join(Text(f"{ARTISTS[a]}({a + 1})", style=COLOURS[a]) for a in side.artists)
        if side.artists
        else Text("-"),
    )
    t.add_row("votes", Text(f"{len(side.votes)}  ").append_text(_cards(side.votes, 0)))
    t.add_row(
        "hidden", Text(f"{side.hidden_count}  ").append_text(_cards(side.hidden, side.hidden_count))
    )
    t.add_row("sacrificed", _cards(side.sacrificed, 0))
    if side.pending is not None:
        p = side.pending
        t.add_row(
            "assigned",
            Text.assemble(
                "perform ",
                _card(p.perform),
                "  hidden ",
                _card(p.hidden),
                "  sacrifice ",
                _card(p.sacrifice),
                "  vote ",
                _card(p.vote),
            ),
        )
    elif side.assigned:
        t.add_row("assigned", Text("yes (secret until both have assigned)", style="italic"))
    if side.score is not None:
        t.add_row("score", Text(str(side.score), style="bold"))
    return t


def render(view: HanamikojiView, title: str) -> RenderableType:
    artists = Table(box=None, show_header=True, pad_edge=False)
    for a, name in enumerate(ARTISTS):
        artists.add_column(Text(f"{name} {a + 1}", style=f"bold {COLOURS[a]}"), justify="center")
    artists.add_row(
        *[
            Text(
                view.players[o] if o is not None else "·", style="bold" if o is not None else "dim"
            )
            for o in view.owners
        ]
    )
    sides = Table(box=None, show_header=True, expand=False)
    for seat, side in enumerate(view.seats):
        label = side.name + (" (you)" if seat == view.seat else "")
        label += " · starts" if seat == view.starting and view.outcome is None else ""
        sides.add_column(Text(label, style="bold"))
    sides.add_row(*[_side(view, s, side) for s, side in enumerate(view.seats)])
    if view.outcome is None:
        waiting = [s.name for s in view.seats if not s.assigned]
        status = Text(f"round {view.round} of 3: waiting for {' and '.join(waiting)}")
    else:
        status = Text(
            f"game over ({view.outcome}): " + ", ".join(f"{s.name} {s.score}" for s in view.seats),
            style="bold",
        )
    viewer = f" · as {view.players[view.seat]}" if view.seat is not None else ""
    return Panel(
        Group(status, Text(""), artists, Text(""), sides),
        title=Text(f"Hanamikoji · {title}{viewer}"),
        title_align="left",
        expand=False,
    )
