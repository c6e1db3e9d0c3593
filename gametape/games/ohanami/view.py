"""What one Ohanami player can see: their own hand, every garden and the scores."""

from __future__ import annotations

import msgspec

from gametape.games.ohanami.rules import SEASONS, OhanamiState


class GardenView(msgspec.Struct, frozen=True, kw_only=True):
    """One player: rows of cards (markers 1, 2, 3 implied), hand (None when hidden), scores."""

    name: str
    rows: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...] | None
    hand_size: int
    picked: bool
    pick: tuple[int, int | None] | None
    round_scores: tuple[int, ...]
    total: int


class OhanamiView(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    seat: int | None
    players: tuple[str, ...]
    round: int
    season: str | None
    turn: int
    deck: int
    discards: tuple[int, ...]
    gardens: tuple[GardenView, ...]
    outcome: str | None


def view(state: OhanamiState, seat: int | None) -> OhanamiView:
    gardens = []
    for s, name in enumerate(state.setup.players):
        mine = seat is None or seat == s
        pick = state.pending[s]
        gardens.append(
            GardenView(
                name=name,
                rows=state.rows[s],
                hand=state.hands[s] if mine and 0 not in state.hands[s] else None,
                hand_size=len(state.hands[s]),
                picked=pick is not None,
                pick=(pick.card, pick.row) if pick is not None and mine else None,
                round_scores=tuple(r[s] for r in state.scores),
                total=sum(r[s] for r in state.scores),
            )
        )
    season = SEASONS[state.round - 1] if state.round else None
    return OhanamiView(
        ruleset="ohanami",
        seat=seat,
        players=state.setup.players,
        round=state.round,
        season=season,
        turn=state.turns + 1,
        deck=len(state.deck),
        discards=state.discards,
        gardens=tuple(gardens),
        outcome=state.outcome,
    )
