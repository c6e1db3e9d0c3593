"""The published Hanamikoji as a board: the seven geishas with each side's cards this round
and who holds her favour, and each player's hand, secret and trade-off cards."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, seen_as
from gametape.games.hanamikoji_classic.events import GEISHAS
from gametape.games.hanamikoji_classic.rules import geisha
from gametape.games.hanamikoji_classic.view import ClassicView
from gametape.messages import Param, many, render, say, seat_of, seats_of, term

COLOURS = ("violet", "red", "yellow", "blue", "orange", "green", "pink")  # by geisha


POINTS = say("hanamikoji-classic.board-points", "points")
GEISHAS_WORD = say("hanamikoji-classic.board-geishas", "geishas")


def _card(card: int, own: bool = False) -> Card:
    """A card by its geisha; ``own``: in the viewer's hand, which a move names by her name
    (a phone page lets them tap it)."""
    if card < 0:  # at a table: not shown
        return Card(back=True)
    face = render(geisha(card))
    return Card(text=face, colour=COLOURS[card], word=GEISHAS[card] if own else "")


def _cards(cards: tuple[int, ...] | None, count: int, own: bool = False) -> tuple[Card, ...]:
    if cards is None:
        return (Card(back=True),) * count
    return tuple(_card(c, own) for c in cards)


def board(view: ClassicView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    names = view.players
    geishas = []
    for g in range(len(view.geishas)):
        marker = view.markers[g]
        charm = say("hanamikoji-classic.board-charm", "{geisha} {charm}", geisha=geisha(g),
                    charm=view.values[g])  # fmt: skip
        geishas.append(
            Zone(
                title=render(charm),
                cards=(Card(text=render(geisha(g)), colour=COLOURS[g]),),  # her charm: the title
                counters=tuple(
                    Counter(label=side.name, value=str(side.cards[g])) for side in view.sides
                ),
                text=render(
                    say(
                        "hanamikoji-classic.board-favours",
                        "favours {player}",
                        player=seat_of(names, marker),
                    )
                )
                if marker is not None
                else "",
                group="geishas",
            )
        )
    sides = []
    for seat, side in enumerate(view.sides):
        group = f"side {seat}"
        you = say("hanamikoji-classic.board-you", "{player} (you)", player=seat_of(names, seat))
        name = render(you) if seat == view.seat else side.name
        used = (
            render(many((term("hanamikoji-classic.action", a) for a in side.used), ", "))
            if side.used
            else "-"
        )
        sides += [
            Zone(
                title=name,
                cards=_cards(side.hand, side.hand_size, seat == view.seat),
                counters=(
                    Counter(label=render(POINTS), value=str(side.points), colour="yellow"),
                    Counter(label=render(GEISHAS_WORD), value=str(side.geishas)),
                ),
                text=render(say("hanamikoji-classic.board-used", "used: {used}", used=used)),
                seat=seat,
                acting=seat in view.to_act,
                group=group,
            ),
            Zone(
                title=render(say("hanamikoji-classic.board-secret", "secret")),
                cards=_cards((side.secret,), 1)
                if side.secret is not None
                else ((Card(back=True),) if side.has_secret else ()),
                group=group,
            ),
            Zone(
                title=render(say("hanamikoji-classic.board-traded", "traded")),
                cards=_cards(side.traded, 2 if "trade" in side.used else 0),
                group=group,
            ),
        ]
    zones = [*geishas, *sides]
    if view.offer is not None:
        whose = say(
            "hanamikoji-classic.board-offer",
            "{player}'s {action}",
            player=seat_of(names, view.offer.player),
            action=term("hanamikoji-classic.action", view.offer.action),
        )
        options = many((many((geisha(c) for c in o), "+") for o in view.offer.options), "or")
        zones.append(
            Zone(
                title=render(whose),
                cards=tuple(_card(c) for option in view.offer.options for c in option),
                text=render(options),
            )
        )
    if view.outcome is not None:
        said = (
            say(
                "hanamikoji-classic.board-wins",
                "game over: {player} wins by {goal}",
                player=seat_of(names, view.winner),
                goal=term("hanamikoji-classic.goal", str(view.decided_by)),
            )
            if view.winner is not None
            else say(
                "hanamikoji-classic.board-over",
                "game over ({outcome})",
                outcome=term("hanamikoji-classic.outcome", view.outcome),
            )
        )
    elif view.phase == "deal":
        said = say(
            "hanamikoji-classic.board-to-deal", "round {round} is to be dealt", round=view.round + 1
        )
    else:
        acting = seats_of(names, view.to_act)
        turn = min(view.turn, 8)
        at: dict[str, Param] = {"round": view.round, "turn": turn, "acting": acting}
        if view.phase == "choose":
            said = say(
                "hanamikoji-classic.board-to-choose",
                "round {round}, turn {turn} of 8: {acting} to choose",
                **at,
            )
        elif view.phase == "reveal":
            said = say(
                "hanamikoji-classic.board-to-reveal",
                "round {round}, turn {turn} of 8: {acting} to show the secret card",
                **at,
            )
        else:
            said = say(
                "hanamikoji-classic.board-to-act",
                "round {round}, turn {turn} of 8: {acting} to act",
                **at,
            )
    status = render(said)
    viewer = seen_as(view.players, view.seat)
    return Board(
        title=f"Hanamikoji · {title}{viewer}",
        status=status,
        counters=(
            Counter(
                label=render(say("hanamikoji-classic.board-pile", "pile")), value=str(view.pile)
            ),
        ),
        zones=tuple(zones),
        notes=(
            render(
                say(
                    "hanamikoji-classic.board-legend",
                    "beside each geisha: each side's cards this round; the favour she holds",
                )
            ),
            *view.notices,
        ),
    )
