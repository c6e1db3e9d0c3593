"""#54: orange suits (hanab.live's "inverted"), as hanab.live's own planning code plays them
(``hypotheticalPlanning.ts``): the Play button sends an orange card to the discard pile (a
clue token, as any discard: ``getNewClueTokensAfterAction``) and the Discard button sends it to
its firework (a strike if it does not fit). The log records the button, as a hanab.live file
does; what happened is derived. The Discard button is not pressed at 8 clue tokens, whatever
the card (its holder does not know it is orange), and Play may still throw an orange card away
there, for no token. In Throw It in a Hole an orange card discarded goes into the hole, and one
played goes face up to the discards."""

from __future__ import annotations

import random

import pytest

from gametape.engine.game import Game, describe
from gametape.engine.ruleset import ONLOOKER, RuleViolation
from gametape.games.hanabi import RULESET
from gametape.games.hanabi import hanablive as hl
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiPlay
from gametape.messages import render
from tests.helpers import variant_game

ORANGE = 4  # the fifth suit of "Orange (5 Suits)": red yellow green blue orange


def _card(game: Game, seat: int, face: tuple[int, int]) -> int:
    return next(o for o in game.state.hands[seat] if game.state.faces[o] == Face(*face))


def _said(game: Game, seat: int | None = None) -> str:
    before, event, after = game.fold.states[-2], game.events[-1], game.fold.states[-1]
    return render(describe(RULESET, game.fold.players, before, event, after, seat))


def _clue(game: Game, seat: int) -> None:
    game.push(next(m for m in game.legal_moves(seat) if isinstance(m, HanabiClue)))


def test_play_throws_an_orange_card_away_for_a_clue_token():
    game = variant_game("Orange (5 Suits)", [(ORANGE, 1), (0, 1), (0, 2), (0, 3), (0, 4)])
    _clue(game, 0)
    _clue(game, 1)  # 6 tokens
    game.push(HanabiPlay(player=0, card=_card(game, 0, (ORANGE, 1))))
    state = game.state
    assert state.fireworks[ORANGE] == 0 and state.strikes == 0 and state.clue_tokens == 7
    assert state.discards[-1] == 0 and state.lost[ORANGE * 5] == 1
    assert "played o1 from slot 5: an orange card, so it is discarded → 7 clue tokens" in _said(
        game
    )


def test_discard_plays_an_orange_card_and_a_misfit_is_a_strike():
    game = variant_game("Orange (5 Suits)", [(ORANGE, 1), (ORANGE, 3), (0, 1), (0, 2), (0, 3)])
    _clue(game, 0)
    _clue(game, 1)
    game.push(HanabiDiscard(player=0, card=_card(game, 0, (ORANGE, 1))))
    assert game.state.fireworks[ORANGE] == 1 and game.state.clue_tokens == 6
    assert "discarded o1 from slot 5: an orange card, so it is played → orange 1" in _said(game)
    _clue(game, 1)
    game.push(HanabiDiscard(player=0, card=_card(game, 0, (ORANGE, 3))))
    assert game.state.strikes == 1 and game.state.fireworks[ORANGE] == 1
    assert game.state.clue_tokens == 5  # a misplay gives no token
    assert "an orange card, so it is played, and misplays → strike 1" in _said(game)
    assert RULESET.kinds(game.fold.states[-2], game.events[-1], game.state) == (
        "discard",
        "strike",
    )


def test_at_8_tokens_discard_is_refused_even_on_an_orange_card_and_play_throws_it_for_none():
    game = variant_game("Orange (5 Suits)", [(ORANGE, 2), (0, 1), (0, 2), (0, 3), (0, 4)])
    with pytest.raises(RuleViolation, match="cannot discard with 8 clue tokens"):
        game.push(HanabiDiscard(player=0, card=_card(game, 0, (ORANGE, 2))))
    assert not any(isinstance(m, HanabiDiscard) for m in game.legal_moves(0))
    game.push(HanabiPlay(player=0, card=_card(game, 0, (ORANGE, 2))))
    assert game.state.clue_tokens == 8 and game.state.strikes == 0
    assert game.state.discards == (0,)


def test_in_a_hole_an_orange_card_discarded_goes_in_unseen_and_one_played_is_shown():
    name = "Throw It in a Hole & Orange (5 Suits)"
    game = variant_game(name, [(ORANGE, 1), (ORANGE, 4), (0, 1), (0, 2), (0, 3)])
    _clue(game, 0)
    _clue(game, 1)
    game.push(HanabiDiscard(player=0, card=_card(game, 0, (ORANGE, 1))))  # into the hole
    assert game.state.hole == ((0, 0),) and game.state.fireworks[ORANGE] == 1
    for seat in (0, 1, ONLOOKER):
        assert _said(game, seat) == (
            "ann discarded a card from slot 5, and it went into the hole; drew a card"
            if seat in (0, ONLOOKER)
            else "ann discarded a card from slot 5, and it went into the hole; drew "
            + _said(game, None).rsplit("drew ", 1)[1]
        )
        view = RULESET.view(game.state, seat)
        assert view.in_hole == 1 and view.fireworks[ORANGE] == 0 and view.discards == ()
    _clue(game, 1)
    game.push(HanabiPlay(player=0, card=_card(game, 0, (ORANGE, 4))))  # thrown away, seen
    view = RULESET.view(game.state, 1)
    assert view.discards == (Face(ORANGE, 4),) and view.in_hole == 1


@pytest.mark.parametrize("name", ["Orange (5 Suits)", "Throw It in a Hole & Orange (5 Suits)"])
def test_a_hanablive_file_records_the_button_and_imports_back_the_same(name):
    """A hanab.live file's actions are the buttons pressed (as its server stores them); an
    orange card's fate is derived from its face, the same in both directions."""
    rng = random.Random(3)
    setup = RULESET.new_setup(["ann", "ben", "cat"], rng, {"variant": name})
    game = Game.new(setup)
    bot = RULESET.bots["random"]()
    oranges = 0
    while not game.is_over:
        seat = game.state.current
        move = bot.choose(game.view(seat), game.legal_moves(seat), rng)
        card = getattr(move, "card", None)
        oranges += card is not None and game.state.faces[card].suit == ORANGE
        game.push(move)
    assert oranges
    data = hl.from_events(game.events)
    again = hl.to_game(hl.parse(hl._encoder.encode(data)), play_on=True)
    assert again.events[1:] == game.events[1:]
    same = ("fireworks", "discards", "hole", "strikes", "clues", "outcome")
    assert [getattr(again.state, k) for k in same] == [getattr(game.state, k) for k in same]
