"""Hanamikoji invariants over random legal games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from gametape.engine import simulate as sim
from gametape.games.hanamikoji import HANAMIKOJI
from tests.helpers import states

games = st.builds(
    lambda seed, bot: sim.play(HANAMIKOJI, ["alice", "bob"], bot, random.Random(seed)),
    st.integers(0, 10**6),
    st.sampled_from(["greedy", "random"]),
)


@given(games)
def test_each_card_of_each_deck_is_in_exactly_one_place_at_every_step(game):
    for s in states(game):
        for seat in (0, 1):
            places = (
                s.decks[seat]
                + s.displays[seat]
                + s.hands[seat]
                + s.votes[seat]
                + s.hidden[seat]
                + s.sacrificed[seat]
                + s.captures[seat]
                + s.set_aside[seat]
            )
            assert sorted(places) == list(range(1, 15))


@given(games)
def test_hands_hold_six_whenever_a_player_may_act(game):
    for s in states(game):
        for seat in HANAMIKOJI.to_act(s):
            assert len(s.hands[seat]) == 6


@given(games)
def test_scores_and_the_winner_follow_the_formula(game):
    s = game.state
    res = HANAMIKOJI.result(s)
    for seat in (0, 1):
        owned = sum(a + 1 for a, o in enumerate(s.owners) if o == seat)
        assert res.scores[seat] == owned + len(s.votes[seat]) - 3
    assert len(s.hidden[0]) == len(s.hidden[1]) == 3
    if res.scores[0] != res.scores[1]:
        assert res.winners == (max((0, 1), key=lambda i: res.scores[i]),)
    assert sum(1 for o in s.owners if o is not None) <= 6  # one capture per player per round


@given(games)
def test_a_view_never_shows_the_opponents_hand_or_pending_assignment(game):
    for s in states(game):
        for seat in (0, 1):
            other = HANAMIKOJI.view(s, seat).seats[1 - seat]
            assert other.hand is None and other.pending is None
            if s.outcome is None:
                assert other.hidden is None
