"""An Ohanami view as a board: each garden's three rows, coloured by season, and the scores."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, game_over, seen_as
from gametape.games.ohanami.rules import MARKERS, SEASONS, colour, row_bonus
from gametape.games.ohanami.view import OhanamiView

COLOURS = {"green": "green", "red": "red", "blue": "blue"}


def _card(card: int) -> Card:
    return Card(text=str(card), colour=COLOURS[colour(card)], key=str(card))


def board(view: OhanamiView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    if view.outcome is not None:
        status = game_over(((g.name, g.total) for g in view.gardens), view.outcome)
    elif view.season is None:
        status = "waiting for the first deal"
    else:
        waiting = [g.name for g in view.gardens if not g.picked]
        status = (
            f"{view.season} (round {view.round}), turn {view.turn}: deck {view.deck}; "
            f"waiting for {', '.join(waiting) or 'the deal'}"
        )
    zones = []
    for s, g in enumerate(view.gardens):
        name = g.name + (" (you)" if s == view.seat else "")
        group = f"garden {s}"
        scores = [
            Counter(label=season, value=str(points))
            for season, points in zip(SEASONS, g.round_scores, strict=False)
        ]
        scores.append(Counter(label="total", value=str(g.total), colour="yellow"))
        zones.append(
            Zone(
                title=name,
                counters=tuple(scores),
                seat=s,
                acting=not g.picked and view.outcome is None and view.season is not None,
                group=group,
            )
        )
        for r, row in enumerate(g.rows):
            bonus = row_bonus(len(row))
            zones.append(
                Zone(
                    title=f"row [{MARKERS[r]}]",
                    cards=tuple(_card(c) for c in row),
                    # "5 cards, bonus +2": the count and what a long row earns, said
                    text=f"{len(row)} card{'s' * (len(row) != 1)}"
                    + (f", bonus +{bonus}" if bonus else ""),
                    group=group,
                )
            )
        hand = (
            tuple(_card(c) for c in g.hand)
            if g.hand is not None
            else (Card(back=True),) * g.hand_size
        )
        note = "picked" if g.picked else ""
        if g.pick is not None:
            card, to_row = g.pick
            note = f"picked {card} → {'discard' if to_row is None else f'row {to_row}'}"
        zones.append(Zone(title="hand", cards=hand, text=note, group=group))
    if view.discards:
        zones.append(Zone(title="discards", cards=tuple(_card(c) for c in view.discards)))
    viewer = seen_as(view.players, view.seat)
    return Board(
        title=f"Ohanami · {title}{viewer}",
        status=status,
        zones=tuple(zones),
        notes=(
            "green scores in spring, red in summer, blue in autumn; rows of 5+ cards earn 2, "
            "of 7+ earn 5",
        ),
    )
