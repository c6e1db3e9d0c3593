"""What one player sees (ruling C5): their own hand, secret and trade-off cards, both sides
of every geisha, the markers, hand and pile sizes, the actions used. Never the removed card or
the opponent's hidden cards."""

from __future__ import annotations

import msgspec

from gametape.engine.ruleset import told_to
from gametape.games.hanamikoji_classic.events import GEISHAS, VALUES
from gametape.games.hanamikoji_classic.rules import Claim, ClassicState, Offer, RoundScore


class SideView(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    hand: tuple[int, ...] | None  # None: hidden from the viewer; -1: not known to the log
    hand_size: int
    secret: int | None  # the kept card, when the viewer may see it (-1: not known)
    has_secret: bool
    traded: tuple[int, ...] | None
    used: tuple[str, ...]
    cards: tuple[int, ...]  # per geisha, this round's cards on this side
    points: int
    geishas: int
    claims: tuple[Claim, ...] = ()  # at a table, the viewer's own names for hidden cards


class ClassicView(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    seat: int | None
    players: tuple[str, ...]
    geishas: tuple[str, ...]
    values: tuple[int, ...]
    round: int
    turn: int
    phase: str
    to_act: tuple[int, ...]
    first: int
    pile: int
    removed: int | None
    markers: tuple[int | None, ...]
    sides: tuple[SideView, ...]
    offer: Offer | None
    history: tuple[RoundScore, ...]
    outcome: str | None
    winner: int | None
    decided_by: str | None
    table: bool = False  # dealt at a real table: a hand is not known to the log
    # at a table, the events that showed each geisha's cards this round (what everyone saw),
    # the events so far, and what the viewer is told of their own claims (C4)
    seen_at: tuple[tuple[int, ...], ...] = ()
    applied: int = 0
    notices: tuple[str, ...] = ()


def view(state: ClassicState, seat: int | None) -> ClassicView:
    from gametape.games.hanamikoji_classic.rules import to_act

    scored = state.phase in ("deal", "over")  # secrets are shown at scoring
    sides = []
    for s in (0, 1):
        mine = seat is None or seat == s
        sides.append(
            SideView(
                name=state.setup.players[s],
                hand=tuple(sorted(state.hands[s])) if mine else None,
                hand_size=len(state.hands[s]),
                secret=state.secret[s] if mine or scored else None,
                has_secret=state.secret[s] is not None,
                traded=tuple(state.traded[s]) if mine else None,
                used=state.used[s],
                cards=state.sides[s],
                points=state.points(s),
                geishas=state.geishas(s),
                claims=tuple(c for c in state.claims if c.seat == s) if mine else (),
            )
        )
    told = told_to(state.notices, seat, state.setup.players)
    return ClassicView(
        ruleset="hanamikoji-classic",
        seat=seat,
        players=state.setup.players,
        geishas=GEISHAS,
        values=VALUES,
        round=state.round,
        turn=state.turn + 1,
        phase=state.phase,
        to_act=to_act(state),
        first=state.first,
        pile=len(state.pile),
        removed=state.removed if seat is None and state.round else None,
        markers=state.markers,
        sides=tuple(sides),
        offer=state.offer,
        history=state.history,
        outcome=state.outcome,
        winner=state.winner,
        decided_by=state.decided_by,
        table=state.at_table,
        seen_at=state.seen_at if state.at_table else (),
        applied=state.applied if state.at_table else 0,
        notices=told if state.at_table else (),
    )
