"""Throw It in a Hole (#54), as hanab.live plays it: a played card goes face down into a hole.
No player (nor the table's page) learns what it was or whether it played until the end: not
its face, not the strikes, not the fireworks or the score. A suit completed gives no clue
token, since the token would tell it. The others saw the card in its player's hand, so they
knew it before; its player never does."""

from __future__ import annotations

import random

import msgspec
import pytest

from gametape.engine.fold import Fold
from gametape.engine.game import Game
from gametape.engine.ruleset import ONLOOKER
from gametape.games.hanabi import RULESET, Hanabi
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiPlay
from gametape.testing.secrecy import answers

HOLE = "Throw It in a Hole (5 Suits)"
ANN, BEN = 0, 1


def _game(deck: list[Face], events: list, rules: Hanabi = RULESET) -> Game:
    setup = rules.new_setup(["ann", "ben"], random.Random(0), {"variant": HOLE})
    game = Game(Fold(rules, msgspec.structs.replace(setup, deck=tuple(deck))))
    for event in events:
        game.push(event)
    return game


def _deck(first: dict[int, Face]) -> list[Face]:
    """The variant's deck with the cards at the given orders moved there."""
    setup = RULESET.new_setup(["ann", "ben"], random.Random(0), {"variant": HOLE})
    deck = list(setup.deck)
    for order, face in first.items():
        deck[deck.index(face, order) if face in deck[order:] else deck.index(face)] = deck[order]
        deck[order] = face
    return deck


# ann holds orders 0-4 (slot 1 is order 4), ben 5-9; order 40 is drawn long after
MOVES = [
    HanabiPlay(player=ANN, card=4),  # ann plays her slot 1, which she never saw
    HanabiClue(player=BEN, target=ANN, rank=0),  # the rank of ann's oldest card (below)
    HanabiDiscard(player=ANN, card=0),
]


def _worlds(rules: Hanabi = RULESET) -> tuple[Game, Game]:
    """Two games alike but for ann's slot 1: red 1, which plays; blue 3, a strike."""
    plays = _deck({4: Face(0, 1), 40: Face(3, 3)})
    strikes = list(plays)
    strikes[4], strikes[40] = strikes[40], strikes[4]
    moves = [*MOVES]
    moves[1] = msgspec.structs.replace(MOVES[1], rank=plays[0].rank)  # type: ignore[union-attr]
    return _game(plays, moves, rules), _game(strikes, moves, rules)


def test_what_went_into_the_hole_is_hidden_from_every_player_until_the_end():
    played, struck = _worlds()
    assert played.state.fireworks[0] == 1 and played.state.strikes == 0
    assert struck.state.fireworks[0] == 0 and struck.state.strikes == 1
    for requester in (ANN, ONLOOKER):
        for k in range(1, len(MOVES) + 1):
            a = answers(RULESET, played.fold, k, requester, rng_seed=k)
            b = answers(RULESET, struck.fold, k, requester, rng_seed=k)
            assert a == b, (requester, k, [w for w in a if a[w] != b.get(w)])
    said = answers(RULESET, played.fold, 1, ANN)["description words"]
    assert "ann played a card from slot 1 into the hole" in said


class _ShowsTheStrikes(Hanabi):
    def view(self, state, seat):
        return msgspec.structs.replace(super().view(state, seat), strikes=state.strikes)


def test_a_view_that_shows_the_strikes_tells_ann_how_her_card_played():
    """The comparison above can fail: a view that shows the strikes differs."""
    leaky = _ShowsTheStrikes()
    played, struck = _worlds(leaky)
    a = answers(leaky, played.fold, 1, ANN)
    b = answers(leaky, struck.fold, 1, ANN)
    assert a["view"] != b["view"]


def test_the_board_keeps_the_fireworks_strikes_and_score_for_the_end():
    played, _ = _worlds()
    board = msgspec.json.encode(RULESET.board(RULESET.view(played.state, BEN), "t")).decode()
    assert "1 card in the hole" in board
    spectator = RULESET.view(played.state, None)  # a scribe's view (or the log's): all of it
    assert spectator.fireworks[0] == 1 and spectator.in_hole is None


def test_a_suit_completed_into_the_hole_gives_no_clue_token():
    """hanab.live's getNewClueTokensAfterAction: no token for a completed play stack."""
    reds = {o: Face(0, o + 1) for o in range(5)}  # ann holds red 1 to red 5, oldest first
    moves = []
    for o in range(5):
        moves.append(HanabiPlay(player=ANN, card=o))
        if o < 4:  # ben tells ann red: her reds left
            moves.append(HanabiClue(player=BEN, target=ANN, suit=0))
    game = _game(_deck(reds), moves)
    assert game.state.fireworks[0] == 5
    assert game.state.clue_tokens == 8 - 4  # four clues given, none back for the red 5


@pytest.mark.parametrize("seed", [3])
def test_the_secrecy_kit_passes_throw_it_in_a_hole(seed):
    from gametape.testing.secrecy import check_secrecy

    assert check_secrecy(RULESET, games=2, seed=seed, options={"variant": HOLE}) == []
