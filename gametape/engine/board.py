"""Boards as data: what a position looks like, which every screen draws its own way.

A game describes a view as a ``Board``: zones (a hand, a firework, a garden's row, a pile)
holding cards (a face in a colour, or a back), counters (tokens, favour, scores) and lines of
text, with marks such as "touched by the last clue". It writes no markup of any kind: the
terminal (``gametape.cli.board``) and the HTML replay page draw the same data.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable
from typing import Any

import msgspec

# Colours a card or a counter may name; every screen has a way to draw each.
PALETTE = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "indigo",
    "violet",
    "pink",
    "white",
    "grey",
    "teal",
    "black",
    "rainbow",
)
# Marks a card may carry. "new": it came into this zone with the move that led here (played,
# drawn, placed); "touched": the clue that led here touched it; "clued": a clue touched it at
# some time; "known": its holder knows it; "critical": the last copy of one still needed.
MARKS = ("new", "touched", "clued", "known", "critical", "selected")


class Card(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One card: its face as people write it (``r3``, ``37``, ``red8``) in a colour, or its
    back. ``note`` is what is written under it (what its holder knows); ``key`` says which
    card it is across positions, when the game knows (so a move's new cards can be found).
    ``word`` is how a move names it, where the viewer may name it (their own hand: ``40``, a
    slot ``2``): a phone page lets them tap it to choose it in a move form."""

    text: str = ""
    colour: str = ""
    back: bool = False
    marks: tuple[str, ...] = ()
    note: str = ""
    key: str = ""
    word: str = ""


class Counter(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A named count: clue tokens, strikes, favour, a score. ``of`` is its most, if it has
    one; ``colour`` draws it."""

    label: str
    value: str
    of: str = ""
    colour: str = ""


class Zone(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A place on the table: a title, its cards, its counters and a line of text. ``seat`` is
    the player it belongs to (their hand, their garden), ``acting`` marks that player's turn."""

    title: str
    cards: tuple[Card, ...] = ()
    counters: tuple[Counter, ...] = ()
    text: str = ""
    seat: int | None = None
    acting: bool = False
    group: str = ""  # zones of one group are drawn together (a player's rows, the fireworks)


class Board(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A position: its title, a status line, counters, zones, and notes (a legend)."""

    title: str
    status: str = ""
    counters: tuple[Counter, ...] = ()
    zones: tuple[Zone, ...] = ()
    notes: tuple[str, ...] = ()


def seen_as(players: tuple[str, ...], seat: int | None) -> str:
    """The end of a board's title saying whose view it is: `` · as ann``, `` · as the table``
    for the onlooker, nothing for the all-seeing view."""
    from gametape.messages import render, say, seat_of

    if seat is None:
        return ""
    if seat < 0:
        return " · " + render(say("core.board-as-table", "as the table"))
    return " · " + render(say("core.board-as", "as {player}", player=seat_of(players, seat)))


def game_over(totals: Iterable[tuple[str, int]], outcome: str | None) -> str:
    """A status line for the end of a game scored by totals: ``game over: ann wins with 195;
    ben 164``, or who shares the win; an abandoned game says only its outcome."""
    from gametape.messages import many, render, say

    ranked = sorted(totals, key=lambda t: -t[1])
    if outcome != "finished" or not ranked:
        return render(say("core.board-over-as", "game over ({outcome})", outcome=outcome or ""))
    best = ranked[0][1]
    top = [name for name, total in ranked if total == best]
    said = (
        say("core.board-wins", "game over: {player} wins with {best}", player=top[0], best=best)
        if len(top) == 1
        else say(
            "core.board-share",
            "game over: {players} share the win with {best}",
            players=many(top, "and"),
            best=best,
        )
    )
    rest = [(name, total) for name, total in ranked if total != best]
    if not rest:
        return render(said)
    others = many((say("core.board-total", "{player} {total}", player=n, total=t) for n, t in rest))
    return render(say("core.board-then", "{said}; {others}", said=said, others=others))


def generic(view: Any, title: str) -> Board:
    """A readable board for a game that draws nothing special (what ``Ruleset.board`` gives
    by default): each field of its view as a zone. A field that holds rows (a list of
    lists, one hand per player) or a mapping of lists gives a zone per row, grouped under
    the field's name, with a row of plain values drawn as cards."""
    data = msgspec.to_builtins(view)
    if not isinstance(data, dict):
        return Board(title=title, zones=(Zone(title="position", text=str(data)),))
    zones: list[Zone] = []
    for key, value in data.items():
        if key == "ruleset":
            continue
        rows = _rows(value)
        if rows is None:
            zones.append(Zone(title=str(key), text=_text(value)))
            continue
        zones += (_zone(f"{key} {name}", row, str(key)) for name, row in rows)
    return Board(title=title, zones=tuple(zones))


def _rows(value: Any) -> list[tuple[str, Any]] | None:
    """A field's rows, named (``1``, ``2``, … or a mapping's keys), if it holds nested
    lists or mappings; None for a flat value."""
    if isinstance(value, list | tuple) and value and all(_nested(v) for v in value):
        return [(str(i), v) for i, v in enumerate(value, 1)]
    if isinstance(value, dict) and value and any(_nested(v) for v in value.values()):
        return [(str(k), v) for k, v in value.items()]
    return None


def _nested(value: Any) -> bool:
    return isinstance(value, list | tuple | dict)


def _zone(title: str, row: Any, group: str) -> Zone:
    if isinstance(row, list | tuple) and row and not any(_nested(v) for v in row):
        cards = tuple(Card(text="-" if v is None else str(v)) for v in row)
        return Zone(title=title, cards=cards, group=group)
    return Zone(title=title, text=_text(row), group=group)


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items()) or "-"
    return "-" if value is None else str(value)


def mark_new(before: Board | None, after: Board) -> Board:
    """``after`` with each card that was not in its zone in ``before`` marked ``new`` (what
    the move that led here brought: a card played, drawn, placed). Cards are matched by
    ``key`` where the game gives one, else by face within the zone; backs are never new."""
    if before is None:
        return after
    had: dict[str, Tally[str]] = {}
    for zone in before.zones:
        had.setdefault(zone.title, Tally()).update(_identity(c) for c in zone.cards)
    zones = []
    for zone in after.zones:
        known = had.get(zone.title)
        if known is None:
            zones.append(zone)
            continue
        # a face the zone holds more often than before: its last copies are the new ones
        extra = Tally(_identity(c) for c in zone.cards) - known
        cards = list(zone.cards)
        for i in range(len(cards) - 1, -1, -1):
            card = cards[i]
            key = _identity(card)
            if extra[key] > 0 and not card.back:
                extra[key] -= 1
                if "new" not in card.marks:
                    cards[i] = msgspec.structs.replace(card, marks=(*card.marks, "new"))
        changed = tuple(cards) != zone.cards
        zones.append(msgspec.structs.replace(zone, cards=tuple(cards)) if changed else zone)
    return msgspec.structs.replace(after, zones=tuple(zones))


def _identity(card: Card) -> str:
    return card.key or f"{card.text}|{card.colour}|{card.back}"


def text_of(board: Board) -> Iterable[str]:
    """Every piece of text a board shows, in order (for tests and search)."""
    yield board.title
    yield board.status
    for counter in board.counters:
        yield f"{counter.label} {counter.value}"
    for zone in board.zones:
        yield zone.title
        yield from (c.text for c in zone.cards)
        yield from (c.note for c in zone.cards)
        yield zone.text
    yield from board.notes
