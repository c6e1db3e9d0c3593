"""Ohanami invariants over random legal games with 2-4 players (hypothesis)."""

from __future__ import annotations

import random
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from gametape.engine import simulate as sim
from gametape.games.ohanami import OHANAMI
from gametape.games.ohanami.rules import MARKERS, score_rows
from tests.helpers import states

games = st.builds(
    lambda seed, n, bot: sim.play(OHANAMI, sim.default_players(n), bot, random.Random(seed)),
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.sampled_from(["greedy", "random"]),
)


@given(games)
def test_all_72_cards_are_accounted_for_at_every_step(game):
    for s in states(game):
        places = (
            list(MARKERS)
            + list(s.deck)
            + [c for h in s.hands for c in h]
            + [c for rows in s.rows for row in rows for c in row]
            + list(s.discards)
        )
        assert sorted(places) == list(range(1, 73))


@given(games)
def test_rows_ascend_from_their_markers(game):
    for rows in game.state.rows:
        for marker, row in zip(MARKERS, rows, strict=True):
            values = (marker, *row)
            assert all(a < b for a, b in pairwise(values))


@given(games)
def test_hands_are_equal_while_a_turn_is_open(game):
    for s in states(game):
        if s.in_round:
            assert len({len(h) for h in s.hands}) == 1
            assert 1 <= len(s.hands[0]) <= 3


@given(games)
def test_round_scores_follow_the_rows(game):
    # replay, scoring each round from the rows at its end
    state = OHANAMI.start(game.setup)
    for event in game.events[1:]:
        before = len(state.scores)
        state = OHANAMI.apply(state, event)
        if len(state.scores) > before:
            r = len(state.scores)
            assert state.scores[-1] == tuple(score_rows(rows, r) for rows in state.rows)
    assert len(state.scores) == 3


@given(games)
def test_views_never_show_another_hand_or_pending_pick(game):
    for s in states(game):
        for seat in range(s.n_players):
            v = OHANAMI.view(s, seat)
            for other, garden in enumerate(v.gardens):
                if other != seat:
                    assert garden.hand is None and garden.pick is None
