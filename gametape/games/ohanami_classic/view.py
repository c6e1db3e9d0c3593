"""What one player of the published Ohanami sees (ruling O6): their own hand and the hands
they held this round, every shown card, every row and the scores."""

from __future__ import annotations

import msgspec

from gametape.engine.ruleset import told_to
from gametape.games.ohanami_classic.rules import HAND, ClassicOhanamiState, pass_step


class ClassicGardenView(msgspec.Struct, frozen=True, kw_only=True):
    """One player: rows (lowest card first), hand (None when not shown), the hands they held
    earlier this round (shown to them alone), this step's two cards (their own while
    choosing, everyone's once shown), whether they have moved this phase, and scores."""

    name: str
    rows: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...] | None
    hand_size: int
    held: tuple[tuple[int, ...], ...]
    chosen: tuple[int, int] | None
    moved: bool
    round_scores: tuple[int, ...]
    total: int


class ClassicOhanamiView(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str
    seat: int | None
    players: tuple[str, ...]
    round: int
    step: int
    phase: str
    passing: str
    box: int
    discards: tuple[int, ...]
    gardens: tuple[ClassicGardenView, ...]
    triangle: bool
    outcome: str | None
    table: bool = False  # recorded at a real table: a hand is known where it was entered
    notices: tuple[str, ...] = ()  # what the viewer is told of the hands entered (O7b)


def view(state: ClassicOhanamiState, seat: int | None) -> ClassicOhanamiView:
    gardens = []
    for s, name in enumerate(state.setup.players):
        mine = seat is None or seat == s
        hand = state.hands[s]
        chosen = state.chosen[s]
        shown = state.phase == "place" or mine
        if state.phase == "choose":
            moved = chosen is not None
        else:
            moved = state.placed[s] if state.phase == "place" else False
        gardens.append(
            ClassicGardenView(
                name=name,
                rows=state.rows[s],
                hand=hand if mine and hand is not None else None,
                hand_size=len(hand) if hand is not None else _unknown_size(state),
                held=_earlier(state.held[s], hand) if mine else (),
                chosen=chosen if shown and chosen is not None else None,
                moved=moved,
                round_scores=tuple(r[s] for r in state.scores),
                total=sum(r[s] for r in state.scores),
            )
        )
    passing = "left" if pass_step(state.round or 1) > 0 else "right"
    return ClassicOhanamiView(
        ruleset="ohanami-classic",
        seat=seat,
        players=state.setup.players,
        round=state.round,
        step=state.step,
        phase=state.phase,
        passing=passing,
        box=120 - HAND * state.n_players * state.round,
        discards=state.discards,
        gardens=tuple(gardens),
        triangle=state.setup.triangle,
        outcome=state.outcome,
        table=state.at_table,
        notices=told_to(state.notices, seat, state.setup.players),
    )


def _unknown_size(state: ClassicOhanamiState) -> int:
    """How many cards a hand not entered holds now, at a table (none in a dealt game)."""
    if not state.at_table or state.phase not in ("choose", "place"):
        return 0
    return HAND - 2 * (state.step - 1) - (2 if state.phase == "place" else 0)


def _earlier(
    held: tuple[tuple[int, ...], ...], hand: tuple[int, ...] | None
) -> tuple[tuple[int, ...], ...]:
    """The hands held this round before the current one."""
    return held[:-1] if held and held[-1] == hand else held
