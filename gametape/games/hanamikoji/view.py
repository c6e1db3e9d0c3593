"""What one Hanamikoji player can see."""

from __future__ import annotations

import msgspec

from gametape.games.hanamikoji.events import Zones
from gametape.games.hanamikoji.rules import HanamikojiState


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One player's side of the table. ``None`` marks what the viewer cannot see."""

    name: str
    hand: tuple[int, ...] | None
    hand_size: int
    deck_size: int
    display: tuple[int, ...]
    artists: tuple[int, ...]
    votes: tuple[int, ...]
    hidden: tuple[int | None, ...] | None
    hidden_count: int
    sacrificed: tuple[int | None, ...]
    assigned: bool
    pending: Zones | None
    score: int | None


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    starting: int
    zones: tuple[Zones, ...]
    captured: tuple[int | None, ...]


class HanamikojiView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view (``seat`` None: everything). Artists are 0-6; ``owners`` by artist."""

    ruleset: str
    seat: int | None
    players: tuple[str, ...]
    round: int
    starting: int
    owners: tuple[int | None, ...]
    seats: tuple[SeatView, ...]
    rounds: tuple[RoundView, ...]
    outcome: str | None


def _zones(z, show_hidden: bool) -> Zones:
    return Zones(z.perform, z.hidden if show_hidden else None, z.sacrifice, z.vote)


def view(state: HanamikojiState, seat: int | None) -> HanamikojiView:
    over = state.outcome is not None

    def sees(owner: int) -> bool:
        return seat is None or seat == owner

    seats = []
    for s in (0, 1):
        mine = sees(s)
        pending = state.pending[s]
        seats.append(
            SeatView(
                name=state.setup.players[s],
                hand=state.hands[s] if mine else None,
                hand_size=len(state.hands[s]),
                deck_size=len(state.decks[s]),
                display=state.displays[s],
                artists=tuple(a for a, o in enumerate(state.owners) if o == s),
                votes=state.votes[s],
                hidden=state.hidden[s] if mine or over else None,
                hidden_count=len(state.hidden[s]),
                sacrificed=state.sacrificed[s],
                assigned=pending is not None,
                pending=_zones(pending, True) if pending is not None and mine else None,
                score=state.score(s) if over else None,
            )
        )
    rounds = tuple(
        RoundView(
            round=r.round,
            starting=r.starting,
            captured=r.captured,
            zones=tuple(_zones(z, sees(i) or over) for i, z in enumerate(r.zones)),
        )
        for r in state.rounds
    )
    return HanamikojiView(
        ruleset="hanamikoji",
        seat=seat,
        players=state.setup.players,
        round=state.round,
        starting=state.starting,
        owners=state.owners,
        seats=tuple(seats),
        rounds=rounds,
        outcome=state.outcome,
    )
