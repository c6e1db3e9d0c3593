"""A Hanamikoji view as a board: the seven artists and their owners, and each player's side."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, seen_as
from gametape.engine.ruleset import TERMINATED
from gametape.games.hanamikoji.events import ARTISTS
from gametape.games.hanamikoji.rules import UNKNOWN, artist_of, card_name, decide
from gametape.games.hanamikoji.view import HanamikojiView, SeatView
from gametape.messages import many, render, say, seat_of, term

COLOURS = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")  # artists 1-7


def _card(card: int | None, note: str = "") -> Card:
    if card is None or card == UNKNOWN:  # hidden from the viewer, or not shown at the table
        return Card(back=True, note=note)
    return Card(text=card_name(card), colour=COLOURS[artist_of(card)], note=note, key=str(card))


VOTES = say("hanamikoji.board-votes", "votes")
ASSIGNED = say("hanamikoji.board-assigned", "assigned")


def _cards(cards: tuple[int | None, ...] | None, count: int) -> tuple[Card, ...]:
    return tuple(_card(c) for c in cards) if cards is not None else (Card(back=True),) * count


def _side(view: HanamikojiView, seat: int, side: SeatView) -> tuple[Zone, ...]:
    you = say("hanamikoji.board-you", "{player} (you)", player=seat_of(view.players, seat))
    name = render(you) if seat == view.seat else side.name
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
        Counter(label=render(say("hanamikoji.board-deck", "deck")), value=str(side.deck_size)),
        Counter(label=render(VOTES), value=str(len(side.votes))),
    ]
    if side.score is not None:
        score = render(say("hanamikoji.board-score", "score"))
        counters.append(Counter(label=score, value=str(side.score), colour="yellow"))
    zones = [
        Zone(
            title=name,
            cards=_cards(hand, hand_size),
            counters=tuple(counters),
            text=render(say("hanamikoji.board-starts", "starts the round"))
            if seat == view.starting and view.outcome is None
            else "",
            seat=seat,
            acting=not side.assigned and view.outcome is None,
            group=group,
        ),
        Zone(
            title=render(say("hanamikoji.board-display", "display")),
            cards=_cards(side.display, len(side.display)),
            group=group,
        ),
        Zone(
            title=render(say("hanamikoji.board-artists", "artists")),
            cards=tuple(Card(text=_artist(a), colour=COLOURS[a]) for a in side.artists),
            group=group,
        ),
        Zone(title=render(VOTES), cards=_cards(side.votes, 0), group=group),
        Zone(
            title=render(say("hanamikoji.board-hidden", "hidden")),
            cards=_cards(side.hidden, side.hidden_count),
            group=group,
        ),
        Zone(
            title=render(say("hanamikoji.board-sacrificed", "sacrificed")),
            cards=_cards(side.sacrificed, 0),
            group=group,
        ),
    ]
    if pending is not None:
        zones.append(
            Zone(
                title=render(ASSIGNED),
                cards=(
                    _card(pending.perform, render(say("hanamikoji.form-perform", "perform"))),
                    _card(pending.hidden, render(say("hanamikoji.form-hidden", "hidden"))),
                    _card(pending.sacrifice, render(say("hanamikoji.form-sacrifice", "sacrifice"))),
                    _card(pending.vote, render(say("hanamikoji.form-vote", "vote"))),
                ),
                group=group,
            )
        )
    elif side.assigned:
        secret = render(say("hanamikoji.board-secret", "secret until both have assigned"))
        zones.append(Zone(title=render(ASSIGNED), text=secret, group=group))
    return tuple(zones)


def board(view: HanamikojiView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    artists = Zone(
        title=render(say("hanamikoji.board-all-artists", "Artists")),
        cards=tuple(
            Card(
                text=_artist(a),
                colour=COLOURS[a],
                note=view.players[o] if (o := view.owners[a]) is not None else "·",
            )
            for a in range(len(ARTISTS))
        ),
    )
    if view.outcome is None:
        waiting = [seat_of(view.players, n) for n, s in enumerate(view.seats) if not s.assigned]
        status = render(
            say(
                "hanamikoji.board-waiting",
                "round {round} of 3: waiting for {players}",
                round=view.round,
                players=many(waiting, "and"),
            )
        )
    else:
        status = _over(view)
    viewer = seen_as(view.players, view.seat)
    sides = tuple(z for seat, side in enumerate(view.seats) for z in _side(view, seat, side))
    return Board(
        title=f"Hanamikoji · {title}{viewer}",
        status=status,
        zones=(artists, *sides),
        notes=(
            render(
                say("hanamikoji.board-legend", "under each artist: who owns it (·: nobody yet)")
            ),
        ),
    )


def _over(view: HanamikojiView) -> str:
    """The end, naming the winner as the rules decide it (score, then artists owned):
    ``game over: ann wins with 8; ben 3``, ``game over: ben wins on artists; both 9``."""
    seats = view.seats
    scores = (seats[0].score or 0, seats[1].score or 0)
    if view.outcome == TERMINATED:
        outcome = term("hanamikoji.outcome", view.outcome)
        return render(say("hanamikoji.board-over", "game over ({outcome})", outcome=outcome))
    artists = (len(seats[0].artists), len(seats[1].artists))
    winner, by = decide(scores, artists, (seats[0].hidden_count, seats[1].hidden_count))
    if winner is None:
        return render(
            say(
                "hanamikoji.board-draw",
                "game over: a draw, {score} each with {artists} artists each",
                score=scores[0],
                artists=artists[0],
            )
        )
    loser = 1 - winner
    won, lost = seat_of(view.players, winner), seat_of(view.players, loser)
    if by == "score":
        return render(
            say(
                "hanamikoji.board-wins",
                "game over: {winner} wins with {score}; {loser} {other}",
                winner=won,
                score=scores[winner],
                loser=lost,
                other=scores[loser],
            )
        )
    why = (
        say(
            "hanamikoji.board-more-artists",
            "more artists ({more} to {fewer})",
            more=artists[winner],
            fewer=artists[loser],
        )
        if by == "artists"
        else say("hanamikoji.board-fewer-hidden", "fewer hidden cards")
    )
    return render(
        say(
            "hanamikoji.board-wins-on",
            "game over: {winner} wins on {why}; both {score}",
            winner=won,
            why=why,
            score=scores[0],
        )
    )


def _artist(a: int) -> str:
    """An artist's card: its colour and number (``red 1``), in the reader's words."""
    colour = term("hanamikoji.colour", ARTISTS[a])
    return render(say("hanamikoji.board-artist", "{colour} {number}", colour=colour, number=a + 1))
