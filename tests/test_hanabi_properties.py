"""Hanabi invariants over random legal games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from gametape.engine import simulate as sim
from gametape.games.hanabi import HANABI
from gametape.games.hanabi.state import MAX_CLUES, MAX_STRIKES
from tests.helpers import states

games = st.builds(
    lambda seed, n, bot: sim.play(HANABI, sim.default_players(n), bot, random.Random(seed)),
    st.integers(0, 10**6),
    st.integers(2, 5),
    st.sampled_from(["heuristic", "random"]),
)


@given(games)
def test_every_card_is_in_exactly_one_place(game):
    for s in states(game):
        deck = list(range(s.next_card, len(s.setup.deck)))
        hands = [o for h in s.hands for o in h]
        played = s.moves and [
            o for o in range(s.next_card) if o not in hands and o not in s.discards
        ]
        places = deck + hands + list(s.discards) + list(played or [])
        assert sorted(places) == list(range(50))
        assert len(played or []) == sum(s.fireworks)


@given(games)
def test_tokens_stay_in_bounds(game):
    for s in states(game):
        assert 0 <= s.clues <= MAX_CLUES
        assert 0 <= s.strikes <= MAX_STRIKES
        assert all(0 <= f <= 5 for f in s.fireworks)
        assert sum(s.fireworks) <= s.max_score <= 25


@given(games)
def test_score_is_the_fireworks_sum_unless_struck_out_or_terminated(game):
    res = HANABI.result(game.state)
    if res.outcome in ("strikeout", "terminated"):
        assert res.scores[0] == 0
    else:
        assert res.scores[0] == sum(game.state.fireworks)
    if res.outcome == "perfect":
        assert res.scores[0] == 25


@given(games)
def test_views_hide_exactly_the_viewers_own_cards(game):
    for s in states(game):
        for seat in range(s.n_players):
            v = HANABI.view(s, seat)
            for holder, hand in enumerate(v.hands):
                assert all((c.face is None) == (holder == seat) for c in hand)


@given(st.integers(0, 10**6), st.integers(2, 5))
def test_heuristic_bot_ends_by_deck_out_or_25_not_by_strikeout(seed, n):
    game = sim.play(HANABI, sim.default_players(n), "heuristic", random.Random(seed))
    assert game.result().outcome in ("normal", "perfect")
