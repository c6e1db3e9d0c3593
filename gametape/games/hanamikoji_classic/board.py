"""The published Hanamikoji as a board: the seven geishas with each side's cards this round
and who holds her favour, and each player's hand, secret and trade-off cards."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, seen_as
from gametape.games.hanamikoji_classic.events import GEISHAS
from gametape.games.hanamikoji_classic.view import ClassicView

COLOURS = ("violet", "red", "yellow", "blue", "orange", "green", "pink")  # by geisha


def _card(card: int, own: bool = False) -> Card:
    """A card by its geisha; ``own``: in the viewer's hand, which a move names by her name
    (a phone page lets them tap it)."""
    if card < 0:  # at a table: not shown
        return Card(back=True)
    return Card(text=GEISHAS[card], colour=COLOURS[card], word=GEISHAS[card] if own else "")


def _cards(cards: tuple[int, ...] | None, count: int, own: bool = False) -> tuple[Card, ...]:
    if cards is None:
        return (Card(back=True),) * count
    return tuple(_card(c, own) for c in cards)


def board(view: ClassicView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    names = view.players
    geishas = []
    for g, geisha in enumerate(view.geishas):
        marker = view.markers[g]
        geishas.append(
            Zone(
                title=f"{geisha} {view.values[g]}",
                cards=(Card(text=geisha, colour=COLOURS[g]),),  # her charm is in the title
                counters=tuple(
                    Counter(label=side.name, value=str(side.cards[g])) for side in view.sides
                ),
                text=f"favours {names[marker]}" if marker is not None else "",
                group="geishas",
            )
        )
    sides = []
    for seat, side in enumerate(view.sides):
        group = f"side {seat}"
        name = side.name + (" (you)" if seat == view.seat else "")
        sides += [
            Zone(
                title=name,
                cards=_cards(side.hand, side.hand_size, seat == view.seat),
                counters=(
                    Counter(label="points", value=str(side.points), colour="yellow"),
                    Counter(label="geishas", value=str(side.geishas)),
                ),
                text="used: " + (", ".join(side.used) or "-"),
                seat=seat,
                acting=seat in view.to_act,
                group=group,
            ),
            Zone(
                title="secret",
                cards=_cards((side.secret,), 1)
                if side.secret is not None
                else ((Card(back=True),) if side.has_secret else ()),
                group=group,
            ),
            Zone(
                title="traded",
                cards=_cards(side.traded, 2 if "trade" in side.used else 0),
                group=group,
            ),
        ]
    zones = [*geishas, *sides]
    if view.offer is not None:
        who = names[view.offer.player]
        zones.append(
            Zone(
                title=f"{who}'s {view.offer.action}",
                cards=tuple(_card(c) for option in view.offer.options for c in option),
                text=" or ".join("+".join(GEISHAS[c] for c in o) for o in view.offer.options),
            )
        )
    if view.outcome is not None:
        status = (
            f"game over: {names[view.winner]} wins by {view.decided_by}"
            if view.winner is not None
            else f"game over ({view.outcome})"
        )
    elif view.phase == "deal":
        status = f"round {view.round + 1} is to be dealt"
    else:
        acting = ", ".join(names[s] for s in view.to_act)
        doing = {"act": "to act", "choose": "to choose", "reveal": "to show the secret card"}
        status = (
            f"round {view.round}, turn {min(view.turn, 8)} of 8: {acting} "
            f"{doing.get(view.phase, '')}"
        )
    viewer = seen_as(view.players, view.seat)
    return Board(
        title=f"Hanamikoji · {title}{viewer}",
        status=status,
        counters=(Counter(label="pile", value=str(view.pile)),),
        zones=tuple(zones),
        notes=(
            "beside each geisha: each side's cards this round; the favour she holds",
            *view.notices,
        ),
    )
