"""A Hanamikoji view as a board: the seven artists and their owners, and each player's side."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, seen_as
from gametape.engine.ruleset import TERMINATED
from gametape.games.hanamikoji.events import ARTISTS
from gametape.games.hanamikoji.rules import UNKNOWN, artist_of, card_name, decide
from gametape.games.hanamikoji.view import HanamikojiView, SeatView

COLOURS = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")  # artists 1-7


def _card(card: int | None, note: str = "") -> Card:
    if card is None or card == UNKNOWN:  # hidden from the viewer, or not shown at the table
        return Card(back=True, note=note)
    return Card(text=card_name(card), colour=COLOURS[artist_of(card)], note=note, key=str(card))


def _cards(cards: tuple[int | None, ...] | None, count: int) -> tuple[Card, ...]:
    return tuple(_card(c) for c in cards) if cards is not None else (Card(back=True),) * count


def _side(view: HanamikojiView, seat: int, side: SeatView) -> tuple[Zone, ...]:
    name = side.name + (" (you)" if seat == view.seat else "")
    group = f"seat {seat}"
    pending = side.pending
    hand: tuple[int | None, ...] | None = side.hand
    if hand is not None and pending is not None:  # cards assigned this round leave the hand
        assigned = [pending.perform, pending.hidden, pending.sacrifice, pending.vote]
        left = list(hand)
        for card in assigned:
            if card in left:
                left.remove(card)
        hand = tuple(left)
    hand_size = side.hand_size - (4 if side.assigned else 0)
    counters = [
        Counter(label="deck", value=str(side.deck_size)),
        Counter(label="votes", value=str(len(side.votes))),
    ]
    if side.score is not None:
        counters.append(Counter(label="score", value=str(side.score), colour="yellow"))
    zones = [
        Zone(
            title=name,
            cards=_cards(hand, hand_size),
            counters=tuple(counters),
            text="starts the round" if seat == view.starting and view.outcome is None else "",
            seat=seat,
            acting=not side.assigned and view.outcome is None,
            group=group,
        ),
        Zone(title="display", cards=_cards(side.display, len(side.display)), group=group),
        Zone(
            title="artists",
            cards=tuple(
                Card(text=f"{ARTISTS[a]} {a + 1}", colour=COLOURS[a]) for a in side.artists
            ),
            group=group,
        ),
        Zone(title="votes", cards=_cards(side.votes, 0), group=group),
        Zone(title="hidden", cards=_cards(side.hidden, side.hidden_count), group=group),
        Zone(title="sacrificed", cards=_cards(side.sacrificed, 0), group=group),
    ]
    if pending is not None:
        zones.append(
            Zone(
                title="assigned",
                cards=(
                    _card(pending.perform, "perform"),
                    _card(pending.hidden, "hidden"),
                    _card(pending.sacrifice, "sacrifice"),
                    _card(pending.vote, "vote"),
                ),
                group=group,
            )
        )
    elif side.assigned:
        zones.append(Zone(title="assigned", text="secret until both have assigned", group=group))
    return tuple(zones)


def board(view: HanamikojiView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    artists = Zone(
        title="Artists",
        cards=tuple(
            Card(
                text=f"{name} {a + 1}",
                colour=COLOURS[a],
                note=view.players[o] if (o := view.owners[a]) is not None else "·",
            )
            for a, name in enumerate(ARTISTS)
        ),
    )
    if view.outcome is None:
        waiting = [s.name for s in view.seats if not s.assigned]
        status = f"round {view.round} of 3: waiting for {' and '.join(waiting)}"
    else:
        status = _over(view)
    viewer = seen_as(view.players, view.seat)
    sides = tuple(z for seat, side in enumerate(view.seats) for z in _side(view, seat, side))
    return Board(
        title=f"Hanamikoji · {title}{viewer}",
        status=status,
        zones=(artists, *sides),
        notes=("under each artist: who owns it (·: nobody yet)",),
    )


def _over(view: HanamikojiView) -> str:
    """The end, naming the winner as the rules decide it (score, then artists owned):
    ``game over: ann wins with 8; ben 3``, ``game over: ben wins on artists; both 9``."""
    seats = view.seats
    scores = (seats[0].score or 0, seats[1].score or 0)
    if view.outcome == TERMINATED:
        return f"game over ({view.outcome})"
    artists = (len(seats[0].artists), len(seats[1].artists))
    winner, by = decide(scores, artists, (seats[0].hidden_count, seats[1].hidden_count))
    if winner is None:
        return f"game over: a draw, {scores[0]} each with {artists[0]} artists each"
    loser = 1 - winner
    if by == "score":
        return (
            f"game over: {seats[winner].name} wins with {scores[winner]}; "
            f"{seats[loser].name} {scores[loser]}"
        )
    why = (
        f"more artists ({artists[winner]} to {artists[loser]})"
        if by == "artists"
        else "fewer hidden cards"
    )
    return f"game over: {seats[winner].name} wins on {why}; both {scores[0]}"
