"""An Ohanami view as a board: each garden's three rows, coloured by season, and the scores."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, game_over, seen_as
from gametape.games.ohanami.rules import MARKERS, SEASONS, colour, row_bonus
from gametape.games.ohanami.view import OhanamiView
from gametape.messages import count_of, many, render, say, seat_of, term

COLOURS = {"green": "green", "red": "red", "blue": "blue"}


def _card(card: int) -> Card:
    return Card(text=str(card), colour=COLOURS[colour(card)], key=str(card))


def board(view: OhanamiView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    if view.outcome is not None:
        status = game_over(((g.name, g.total) for g in view.gardens), view.outcome)
    elif view.season is None:
        status = render(say("ohanami.board-first-deal", "waiting for the first deal"))
    else:
        waiting = [seat_of(view.players, s) for s, g in enumerate(view.gardens) if not g.picked]
        status = render(
            say(
                "ohanami.board-status",
                "{season} (round {round}), turn {turn}: deck {deck}; waiting for {waiting}",
                season=term("ohanami.season", view.season),
                round=view.round,
                turn=view.turn,
                deck=view.deck,
                waiting=many(waiting, ", ")
                if waiting
                else say("ohanami.board-the-deal", "the deal"),
            )
        )
    zones = []
    for s, g in enumerate(view.gardens):
        you = say("ohanami.board-you", "{player} (you)", player=seat_of(view.players, s))
        name = render(you) if s == view.seat else g.name
        group = f"garden {s}"
        scores = [
            Counter(label=render(term("ohanami.season", season)), value=str(points))
            for season, points in zip(SEASONS, g.round_scores, strict=False)
        ]
        total = render(say("ohanami.board-total", "total"))
        scores.append(Counter(label=total, value=str(g.total), colour="yellow"))
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
                    title=render(say("ohanami.board-row", "row [{row}]", row=MARKERS[r])),
                    cards=tuple(_card(c) for c in row),
                    # "5 cards, bonus +2": the count and what a long row earns, said
                    text=render(
                        say(
                            "ohanami.board-row-bonus",
                            "{cards}, bonus +{bonus}",
                            cards=count_of(len(row), "card"),
                            bonus=bonus,
                        )
                        if bonus
                        else count_of(len(row), "card")
                    ),
                    group=group,
                )
            )
        hand = (
            tuple(_card(c) for c in g.hand)
            if g.hand is not None
            else (Card(back=True),) * g.hand_size
        )
        note = render(say("ohanami.board-picked", "picked")) if g.picked else ""
        if g.pick is not None:
            card, to_row = g.pick
            note = render(
                say("ohanami.board-picked-discard", "picked {card} → discard", card=card)
                if to_row is None
                else say(
                    "ohanami.board-picked-row", "picked {card} → row {row}", card=card, row=to_row
                )
            )
        hand_word = render(say("ohanami.board-hand", "hand"))
        zones.append(Zone(title=hand_word, cards=hand, text=note, group=group))
    if view.discards:
        discards = render(say("ohanami.board-discards", "discards"))
        zones.append(Zone(title=discards, cards=tuple(_card(c) for c in view.discards)))
    viewer = seen_as(view.players, view.seat)
    return Board(
        title=f"Ohanami · {title}{viewer}",
        status=status,
        zones=tuple(zones),
        notes=(
            render(
                say(
                    "ohanami.board-legend",
                    "green scores in spring, red in summer, blue in autumn; rows of 5+ cards "
                    "earn 2, of 7+ earn 5",
                )
            ),
        ),
    )
