"""Draw a Hanabi view: fireworks, tokens, every hand (newest card first) and discards."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gametape.games.hanabi.events import Face
from gametape.games.hanabi.notation import suit_letters
from gametape.games.hanabi.view import CardView, HanabiView

COLOURS = {
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "white": "bright_white",
    "purple": "magenta",
    "pink": "bright_magenta",
    "orange": "dark_orange",
    "black": "grey50",
    "teal": "cyan",
}


def _style(view: HanabiView, suit: int) -> str:
    return COLOURS.get(view.suits[suit].lower(), "default")


def _face(view: HanabiView, face: Face | None) -> Text:
    if face is None:
        return Text("??", style="dim")
    letter = suit_letters(view.suits)[face.suit]
    return Text(f"{letter}{face.rank}", style=f"bold {_style(view, face.suit)}")


def _hint(view: HanabiView, card: CardView) -> Text:
    """What the holder knows: a suit letter or ?, a rank or ?; dim when never clued."""
    letters = suit_letters(view.suits)
    suit = letters[card.suits[0]] if len(card.suits) == 1 else "?"
    rank = str(card.ranks[0]) if len(card.ranks) == 1 else "?"
    style = "bold" if card.clued else "dim"
    return Text(f"{suit}{rank}" + ("*" if card.clued else " "), style=style)


def _can_be(card: CardView) -> tuple[Face, ...]:
    """What the holder knows the card can still be, at the deepest level this view shows."""
    return card.possible_seen if card.possible_seen is not None else card.possible


def _count(card: CardView) -> Text:
    """How many faces the holder knows the card can still be (empathy)."""
    can_be = _can_be(card)
    return Text(f"{len(can_be)}", style="bold green" if len(can_be) == 1 else "dim")


def _empathy(view: HanabiView, seat: int) -> Text:
    """What the seat's own cards can still be: clues, public cards and the other hands."""
    text = Text(
        f"{view.players[seat]}'s cards can be (clues, the table, the other hands):", style="bold"
    )
    for slot, card in enumerate(view.hands[seat], start=1):
        can_be = _can_be(card)
        text.append(f"\n  slot {slot}: ")
        if len(can_be) > 8:
            text.append(f"{len(can_be)} possibilities", style="dim")
        else:
            text.append_text(Text(" ").join(_face(view, f) for f in can_be) or Text("none"))
    return text


def render(view: HanabiView, title: str) -> RenderableType:
    n = len(view.suits)
    fireworks = Text("Fireworks  ")
    for s in range(n):
        fireworks.append(
            f"{suit_letters(view.suits)[s]}{view.fireworks[s]} ", style=f"bold {_style(view, s)}"
        )
    fireworks.append(f"  score {view.score}", style="bold")
    if view.outcome is None:
        fireworks.append(f" (best reachable {view.max_score})", style="dim")
    tokens = Text()
    tokens.append("Clues ")
    tokens.append("●" * view.clues, style="bold blue")
    tokens.append("○" * (8 - view.clues) + f" {view.clues}/8   ", style="dim")
    tokens.append("Strikes ")
    tokens.append("✗" * view.strikes, style="bold red")
    tokens.append("·" * (3 - view.strikes) + f" {view.strikes}/3   ", style="dim")
    tokens.append(f"Deck {view.deck}")
    if view.final_turns is not None and view.outcome is None:
        tokens.append(f"   final turns left {view.final_turns}", style="yellow")
    measures = Text(
        f"Pace {'-' if view.pace is None else view.pace}   Efficiency "
        f"{'-' if view.efficiency is None else f'{view.efficiency:.2f}'}",
        style="dim",
    )

    hands = Table(show_header=True, box=None, pad_edge=False)
    hands.add_column("player")
    width = max((len(h) for h in view.hands), default=0)
    for slot in range(1, width + 1):
        hands.add_column(f"{slot}", justify="center")
    for seat, hand in enumerate(view.hands):
        name = Text(view.players[seat])
        if seat == view.current and view.outcome is None:
            name.stylize("bold reverse")
        if seat == view.seat:
            name.append(" (you)", style="dim")
        cells = [
            Text.assemble(_face(view, c.face), "\n", _hint(view, c), "\n", _count(c)) for c in hand
        ]
        hands.add_row(name, *cells)

    discards = Text("Discards   ")
    if not view.discards:
        discards.append("none", style="dim")
    for face in sorted(view.discards, key=lambda f: (f.suit, f.rank) if f else (99, 0)):
        discards.append_text(_face(view, face))
        discards.append(" ")

    if view.outcome is None:
        status = Text(f"turn {view.turn}: {view.players[view.current]} to act")
    else:
        status = Text(
            f"game over: {view.outcome}, score {view.score} (fireworks {view.fireworks_sum})",
            style="bold",
        )
    legend = Text(
        "under each card: what its holder knows from clues (* = clued),\n"
        "and how many faces it can still be",
        style="dim",
    )
    parts: list[RenderableType] = [
        status,
        fireworks,
        tokens,
        measures,
        Text(""),
        hands,
        Text(""),
        discards,
        legend,
    ]
    if view.seat is not None and view.outcome is None:
        parts += [Text(""), _empathy(view, view.seat)]
    body = Group(*parts)
    viewer = f" · as {view.players[view.seat]}" if view.seat is not None else ""
    return Panel(body, title=Text(f"Hanabi · {title}{viewer}"), title_align="left", expand=False)
