"""Draw the published Hanamikoji: the seven geishas with their markers, and each side's cards
this round beside them, at a glance."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gametape.games.hanamikoji_classic.events import GEISHAS
from gametape.games.hanamikoji_classic.view import ClassicView

STYLES = ("magenta", "red", "yellow", "blue", "dark_orange", "green", "hot_pink")


def _cards(cards: tuple[int, ...] | None, count: int) -> Text:
    if cards is None:
        return Text("▒ " * count or "-", style="dim")
    shown = [
        Text(f"{GEISHAS[c]}", style=STYLES[c]) if c >= 0 else Text("?", style="dim") for c in cards
    ]
    return Text(" ").join(shown) if shown else Text("-", style="dim")


def render(view: ClassicView, title: str) -> RenderableType:
    names = view.players
    grid = Table(box=None, show_header=True, pad_edge=False)
    grid.add_column(Text(names[0], style="bold"), justify="right")
    grid.add_column("geisha", justify="center")
    grid.add_column(Text(names[1], style="bold"), justify="left")
    for g, geisha in enumerate(view.geishas):
        marker = view.markers[g]
        label = Text(f"{geisha} {view.values[g]}", style=f"bold {STYLES[g]}")
        if marker is not None:
            label = (
                Text("◀ ", style="bold").append_text(label)
                if marker == 0
                else label.append(" ▶", style="bold")
            )
        left = Text("▮" * view.sides[0].cards[g], style=STYLES[g])
        right = Text("▮" * view.sides[1].cards[g], style=STYLES[g])
        grid.add_row(left, label, right)
    sides = Table(box=None, show_header=False, pad_edge=False)
    sides.add_column(style="dim")
    for _ in view.sides:
        sides.add_column()
    sides.add_row("", *[Text(s.name, style="bold") for s in view.sides])
    sides.add_row("hand", *[_cards(s.hand, s.hand_size) for s in view.sides])
    sides.add_row(
        "secret",
        *[
            (
                _cards((s.secret,), 1)
                if s.secret is not None
                else Text("▒" if s.has_secret else "-", style="dim")
            )
            for s in view.sides
        ],
    )
    sides.add_row("traded", *[_cards(s.traded, 2 if "trade" in s.used else 0) for s in view.sides])
    sides.add_row("actions", *[Text(", ".join(s.used) or "-") for s in view.sides])
    sides.add_row("score", *[Text(f"{s.points} points, {s.geishas} geishas") for s in view.sides])
    if view.outcome is not None:
        status = Text(
            f"game over: {names[view.winner]} wins by {view.decided_by}"
            if view.winner is not None
            else f"game over ({view.outcome})",
            style="bold",
        )
    elif view.phase == "deal":
        status = Text(f"round {view.round + 1} is to be dealt")
    else:
        acting = ", ".join(names[s] for s in view.to_act)
        doing = {"act": "to act", "choose": "to choose", "reveal": "to show the secret card"}
        status = Text(
            f"round {view.round}, turn {min(view.turn, 8)} of 8: {acting} "
            f"{doing.get(view.phase, '')} · pile {view.pile}"
        )
    parts: list[RenderableType] = [status, Text(""), grid, Text(""), sides]
    if view.offer is not None:
        options = " or ".join("+".join(GEISHAS[c] for c in o) for o in view.offer.options)
        parts.append(
            Text(f"{names[view.offer.player]}'s {view.offer.action}: {options}", style="bold")
        )
    viewer = f" · as {names[view.seat]}" if view.seat is not None else ""
    return Panel(
        Group(*parts), title=Text(f"Hanamikoji · {title}{viewer}"), title_align="left", expand=False
    )
