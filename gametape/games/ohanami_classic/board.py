"""The published Ohanami as a board: each player's rows (both ends shown), this step's two
cards, the seat's hand and the hands it held this round, and the round's scores. A card's kind
is its colour and a sign in its text (≈ water, ♣ moss, ▲ stone, ✿ blossom), so it reads
without colour too."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, game_over, seen_as
from gametape.games.ohanami_classic.rules import KINDS, kind, row_name, score_parts
from gametape.games.ohanami_classic.view import ClassicOhanamiView
from gametape.messages import count_of, many, render, say, seat_of, term

COLOURS = {"blue": "blue", "green": "green", "grey": "grey", "pink": "pink"}
SIGNS = {"blue": "≈", "green": "♣", "grey": "▲", "pink": "✿"}
PHASES = {
    "choose": say("ohanami-classic.board-choosing", "choosing"),
    "place": say("ohanami-classic.board-placing", "placing"),
}
CHOSEN = say("ohanami-classic.board-chosen", "chosen")
FACE_DOWN = say("ohanami-classic.board-face-down", "face down")
HAND = say("ohanami-classic.board-hand", "hand")


def _card(card: int, note: str = "", own: bool = False) -> Card:
    """A card by its number and kind; ``own``: in the viewer's hand, which a move names by
    its number (a phone page lets them tap it)."""
    k = kind(card)
    word = str(card) if own else ""
    return Card(text=f"{card}{SIGNS[k]}", colour=COLOURS[k], key=str(card), note=note, word=word)


def _cards(cards: tuple[int, ...], own: bool = False) -> tuple[Card, ...]:
    return tuple(_card(c, own=own) for c in cards)


def board(view: ClassicOhanamiView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    if view.outcome is not None:
        status = game_over(((g.name, g.total) for g in view.gardens), view.outcome)
    elif view.round == 0 or view.phase == "deal":
        status = render(
            say(
                "ohanami-classic.board-deal",
                "waiting for round {round}'s deal",
                round=view.round + 1,
            )
        )
    else:
        waiting = [seat_of(view.players, s) for s, g in enumerate(view.gardens) if not g.moved]
        status = render(
            say(
                "ohanami-classic.board-status",
                "round {round} of 3, step {step} of 5: {phase}, hands pass {passing}; "
                "waiting for {waiting}",
                round=view.round,
                step=view.step,
                phase=PHASES[view.phase],
                passing=term("ohanami-classic.passing", view.passing),
                waiting=many(waiting, ", "),
            )
        )
    zones = []
    for s, g in enumerate(view.gardens):
        group = f"garden {s}"
        scores = [
            Counter(
                label=render(say("ohanami-classic.board-round", "round {round}", round=r + 1)),
                value=str(p),
            )
            for r, p in enumerate(g.round_scores)
        ]
        total = render(say("ohanami-classic.board-total", "total"))
        scores.append(Counter(label=total, value=str(g.total), colour="yellow"))
        counts = dict.fromkeys(KINDS, 0)
        for row in g.rows:
            for card in row:
                counts[kind(card)] += 1
        tally = " ".join(f"{SIGNS[k]}{counts[k]}" for k in KINDS)
        zones.append(
            Zone(
                title=render(
                    say(
                        "ohanami-classic.board-you",
                        "{player} (you)",
                        player=seat_of(view.players, s),
                    )
                )
                if s == view.seat
                else g.name,
                counters=tuple(scores),
                text=f"{tally} · {_worth(g.rows, view)}",
                seat=s,
                acting=not g.moved and view.outcome is None and view.phase in PHASES,
                group=group,
            )
        )
        for r, row in enumerate(g.rows, 1):
            zones.append(
                Zone(
                    title=render(say("ohanami-classic.board-row", "row {row}", row=row_name(r))),
                    cards=_cards(row),
                    text=render(
                        say(
                            "ohanami-classic.board-row-ends",
                            "{low} … {high}, {cards}",
                            low=row[0],
                            high=row[-1],
                            cards=count_of(len(row), "card"),
                        )
                    ),
                    group=group,
                )
            )
        if g.chosen is not None:
            shown = view.phase == "place"
            zones.append(
                Zone(
                    title=render(say("ohanami-classic.board-shown", "shown") if shown else CHOSEN),
                    cards=_cards(g.chosen),
                    text=(
                        (
                            render(say("ohanami-classic.board-to-place", "to place"))
                            if not g.moved
                            else ""
                        )
                        if shown
                        else render(FACE_DOWN)
                    ),
                    group=group,
                )
            )
        elif view.phase == "choose" and g.moved:
            zones.append(
                Zone(
                    title=render(CHOSEN),
                    cards=(Card(back=True),) * 2,
                    text=render(FACE_DOWN),
                    group=group,
                )
            )
        if g.hand is not None:
            own = s == view.seat
            zones.append(Zone(title=render(HAND), cards=_cards(g.hand, own), group=group))
        elif g.hand_size:
            backs = (Card(back=True),) * g.hand_size
            zones.append(Zone(title=render(HAND), cards=backs, group=group))
        for step, held in enumerate(g.held, 1):
            zones.append(
                Zone(
                    title=render(
                        say("ohanami-classic.board-held", "held at step {step}", step=step)
                    ),
                    cards=_cards(held),
                    text=render(say("ohanami-classic.board-passed-on", "passed on")),
                    group=group,
                )
            )
    if view.discards:
        discards = render(say("ohanami-classic.board-discards", "discards"))
        zones.append(Zone(title=discards, cards=_cards(view.discards)))
    pink = (
        say("ohanami-classic.board-pink-flat", "120 from 15 on")
        if not view.triangle
        else say("ohanami-classic.board-pink-triangle", "16 = 136, ... (the triangle goes on)")
    )
    return Board(
        title=f"Ohanami · {title}{seen_as(view.players, view.seat)}",
        status=status,
        counters=(
            Counter(label=render(say("ohanami-classic.board-box", "box")), value=str(view.box)),
        ),
        zones=tuple(zones),
        notes=(
            render(
                say(
                    "ohanami-classic.board-legend",
                    "≈ blue 3 each (every round), ♣ green 4 (rounds 2 and 3), ▲ grey 7 (round 3), "
                    "✿ pink 1, 3, 6, 10, ... for 1, 2, 3, 4, ... cards (round 3; {pink})",
                    pink=pink,
                )
            ),
            *view.notices,
        ),
    )


def _worth(rows: tuple[tuple[int, ...], ...], view: ClassicOhanamiView) -> str:
    """What the rows would score if the round ended now."""
    parts = score_parts(rows, max(view.round, 1), view.triangle)
    return render(
        say("ohanami-classic.board-worth", "{points} if scored now", points=sum(parts.values()))
    )
