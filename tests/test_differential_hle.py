"""Differential test: gametape's Hanabi against DeepMind's Hanabi Learning Environment (HLE),
as shipped in the open_spiel wheel. Games are generated in HLE with an omniscient policy that
reaches perfect games and deck-outs (and, through a few random moves, strikeouts), converted
to gametape events, and both engines must agree on every move's legality, the outcome and
the score."""

from __future__ import annotations

from collections import Counter

import pytest

from gametape.engine.game import Game
from gametape.games.hanabi import HANABI
from gametape.games.hanabi.events import HanabiOptions, HanabiSetup

pytest.importorskip(
    "pyspiel", reason="open_spiel (HLE) is a test dependency: pip install -e '.[test]'"
)
from tests.hle import SUITS, from_hle, full_deck, hle_game, hle_name

GAMES_PER_COUNT = 500
CAREFUL, RECKLESS = 0.03, 0.3  # the share of random moves; every fifth game is reckless


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_gametape_agrees_with_hle_on_legality_outcome_and_score(n):
    outcomes: Counter[str] = Counter()
    for seed in range(GAMES_PER_COUNT):
        randomness = RECKLESS if seed % 5 == 0 else CAREFUL
        dealt, steps, hle_score, lives, _ = hle_game(n, seed * 10 + n, randomness)
        setup = HanabiSetup(
            players=tuple(f"p{i}" for i in range(n)),
            deck=full_deck(dealt),
            options=HanabiOptions(suits=SUITS),
        )
        game = Game.new(setup)
        for i, (seat, hle_legal, text) in enumerate(steps):
            state = game.state
            assert HANABI.to_act(state) == (seat,), (seed, i)
            hand = state.hands[seat]
            ours = {hle_name(m, seat, n, hand) for m in HANABI.legal_moves(state, seat)}
            assert ours == hle_legal, (seed, i, ours ^ hle_legal)
            game.push(from_hle(text, seat, n, hand))
        assert game.is_over, seed
        result = game.result()
        expected = (
            "strikeout" if lives == 0 else "perfect" if game.state.fireworks_sum == 25 else "normal"
        )
        assert result.outcome == expected, seed
        assert result.scores[0] == int(hle_score), seed
        outcomes[result.outcome] += 1
    # the policy reaches every kind of ending, not only strikeouts
    assert outcomes["perfect"] and outcomes["normal"] and outcomes["strikeout"], outcomes
