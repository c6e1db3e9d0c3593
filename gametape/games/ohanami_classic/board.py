"""The published Ohanami as a board: each player's rows (both ends shown), this step's two
cards, the seat's hand and the hands it held this round, and the round's scores. A card's kind
is its colour and a sign in its text (≈ water, ♣ moss, ▲ stone, ✿ blossom), so it reads
without colour too."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, game_over, seen_as
from gametape.games.ohanami_classic.rules import KINDS, kind, row_name, score_parts
from gametape.games.ohanami_classic.view import ClassicOhanamiView
from gametape.text import plural

COLOURS = {"blue": "blue", "green": "green", "grey": "grey", "pink": "pink"}
SIGNS = {"blue": "≈", "green": "♣", "grey": "▲", "pink": "✿"}
PHASES = {"choose": "choosing", "place": "placing"}


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
        status = f"waiting for round {view.round + 1}'s deal"
    else:
        waiting = [g.name for g in view.gardens if not g.moved]
        status = (
            f"round {view.round} of 3, step {view.step} of 5: {PHASES[view.phase]}, hands pass "
            f"{view.passing}; waiting for {', '.join(waiting)}"
        )
    zones = []
    for s, g in enumerate(view.gardens):
        group = f"garden {s}"
        scores = [
            Counter(label=f"round {r + 1}", value=str(p)) for r, p in enumerate(g.round_scores)
        ]
        scores.append(Counter(label="total", value=str(g.total), colour="yellow"))
        counts = dict.fromkeys(KINDS, 0)
        for row in g.rows:
            for card in row:
                counts[kind(card)] += 1
        tally = " ".join(f"{SIGNS[k]}{counts[k]}" for k in KINDS)
        zones.append(
            Zone(
                title=g.name + (" (you)" if s == view.seat else ""),
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
                    title=f"row {row_name(r)}",
                    cards=_cards(row),
                    text=f"{row[0]} … {row[-1]}, {plural(len(row), 'card')}",
                    group=group,
                )
            )
        if g.chosen is not None:
            shown = view.phase == "place"
            zones.append(
                Zone(
                    title="shown" if shown else "chosen",
                    cards=_cards(g.chosen),
                    text=("to place" if not g.moved else "") if shown else "face down",
                    group=group,
                )
            )
        elif view.phase == "choose" and g.moved:
            zones.append(
                Zone(title="chosen", cards=(Card(back=True),) * 2, text="face down", group=group)
            )
        if g.hand is not None:
            own = s == view.seat
            zones.append(Zone(title="hand", cards=_cards(g.hand, own), group=group))
        elif g.hand_size:
            zones.append(Zone(title="hand", cards=(Card(back=True),) * g.hand_size, group=group))
        for step, held in enumerate(g.held, 1):
            zones.append(
                Zone(
                    title=f"held at step {step}",
                    cards=_cards(held),
                    text="passed on",
                    group=group,
                )
            )
    if view.discards:
        zones.append(Zone(title="discards", cards=_cards(view.discards)))
    pink = "120 from 15 on" if not view.triangle else "16 = 136, ... (the triangle goes on)"
    return Board(
        title=f"Ohanami · {title}{seen_as(view.players, view.seat)}",
        status=status,
        counters=(Counter(label="box", value=str(view.box)),),
        zones=tuple(zones),
        notes=(
            "≈ blue 3 each (every round), ♣ green 4 (rounds 2 and 3), ▲ grey 7 (round 3), "
            f"✿ pink 1, 3, 6, 10, ... for 1, 2, 3, 4, ... cards (round 3; {pink})",
            *view.notices,
        ),
    )


def _worth(rows: tuple[tuple[int, ...], ...], view: ClassicOhanamiView) -> str:
    """What the rows would score if the round ended now."""
    parts = score_parts(rows, max(view.round, 1), view.triangle)
    return f"{sum(parts.values())} if scored now"
