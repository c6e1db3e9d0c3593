"""#54: fireworks whose order the plays decide, as hanab.live plays them. Up or Down (a suit
built up from 1 or START, or down from 5 or START) and Sudoku (each suit started at a rank no
other suit started at, built up and round). The expected figures are hanab.live's own test
cases (its ``reversible.test.ts``, ``sudoku.test.ts`` and ``integration.test.ts``)."""

from __future__ import annotations

import pytest

from gametape.engine.fold import walk_live
from gametape.engine.game import Game, describe
from gametape.engine.ruleset import RuleViolation
from gametape.games.hanabi import RULESET
from gametape.games.hanabi import hanablive as hl
from gametape.games.hanabi.deck import Deck, deck_of
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiOptions, HanabiPlay
from gametape.games.hanabi.knowledge import clues_lost, is_playable, is_trash
from gametape.games.hanabi.notation import card_name, parse_face
from gametape.games.hanabi.stacks import best_heights, direction, next_ranks, sudoku_runs, useful
from gametape.games.hanabi.variants import START_RANK
from gametape.messages import render
from tests.conftest import HANABLIVE_EXAMPLES as FIXTURES
from tests.helpers import variant_game

S = START_RANK
UP_OR_DOWN = "Up or Down (5 Suits)"


def _deck(name: str) -> Deck:
    return deck_of(HanabiOptions(variant=name))


def _lost(deck: Deck, suit: int, dead: set[int]) -> list[int]:
    """Every copy of the ranks ``dead`` of ``suit`` lost, nothing else."""
    lost = [0] * len(deck.copies)
    for rank in dead:
        lost[deck.index(suit, rank)] = deck.copies[deck.index(suit, rank)]
    return lost


@pytest.mark.parametrize(
    ("played", "dead", "expected"),
    [
        ((), set(), {1, 2, 3, 4, 5, S}),  # no discard, no play
        ((), {1}, {1, 2, 3, 4, 5, S}),  # ok discards, no play
        ((), {5}, {1, 2, 3, 4, 5, S}),
        ((), {S}, {1, 2, 3, 4, 5, S}),
        ((1, 2, 3), set(), {4, 5}),
        ((5,), {2}, {3, 4}),
        ((), {2, 4}, {1, 5, S}),
        ((S,), {2, 4}, set()),
        ((S,), {2}, {3, 4}),
        ((S,), {3}, {2, 4}),
        ((), {2, 5, S}, {1, S}),
    ],
)
def test_up_or_down_ranks_still_useful_are_hanablive_s(played, dead, expected):
    """hanab.live's reversible.test.ts, case by case."""
    deck = _deck(UP_OR_DOWN)
    stacks = (played, (), (), (), ())
    assert useful(deck, stacks, _lost(deck, 0, dead), 0) == expected


@pytest.mark.parametrize(
    ("name", "dead", "runs"),
    [
        ("Sudoku (5 Suits)", {1}, (0, 4, 3, 2, 1)),
        ("Sudoku (5 Suits)", {2}, (1, 0, 4, 3, 2)),
        ("Sudoku (5 Suits)", {3}, (2, 1, 0, 4, 3)),
        ("Sudoku (5 Suits)", {4}, (3, 2, 1, 0, 4)),
        ("Sudoku (5 Suits)", {5}, (4, 3, 2, 1, 0)),
        ("Sudoku (5 Suits)", {2, 5}, (1, 0, 2, 1, 0)),
        ("Sudoku (5 Suits)", {1, 4}, (0, 2, 1, 0, 1)),
        ("Sudoku (5 Suits)", {1, 2, 5}, (0, 0, 2, 1, 0)),
        ("Sudoku (4 Suits)", {1}, (0, 3, 2, 1)),
        ("Sudoku (4 Suits)", {2}, (1, 0, 3, 2)),
        ("Sudoku (4 Suits)", {3}, (2, 1, 0, 3)),
        ("Sudoku (4 Suits)", {4}, (3, 2, 1, 0)),
        ("Sudoku (4 Suits)", {2, 4}, (1, 0, 1, 0)),
        ("Sudoku (4 Suits)", {1, 4}, (0, 2, 1, 0)),
        ("Sudoku (4 Suits)", {1, 2, 4}, (0, 0, 1, 0)),
    ],
)
def test_sudoku_runs_from_each_start_are_hanablive_s(name, dead, runs):
    """hanab.live's sudoku.test.ts: the cards a suit can take from each start."""
    deck = _deck(name)
    assert sudoku_runs(deck, _lost(deck, 0, dead), 0) == runs


def test_sudoku_s_best_score_shares_the_free_starts_out():
    """Two suits that lost their 1s both do best started at 2 (2, 3, 4, 5), but only one can
    start there: the best sharing gives 4 + 3, not 4 + 4."""
    deck = _deck("Sudoku (5 Suits)")
    lost = [a + b for a, b in zip(_lost(deck, 0, {1}), _lost(deck, 1, {1}), strict=True)]
    heights = best_heights(deck, ((),) * 5, lost)
    assert sorted(heights[:2]) == [3, 4] and heights[2:] == (5, 5, 5) and sum(heights) == 22
    # a suit started at 2 leaves the other its next best start
    assert best_heights(deck, ((2,), (), (), (), ()), lost)[:2] == (4, 3)


def test_hanablive_s_up_or_down_test_game_has_its_figures():
    """hanab.live's integration test of up_or_down.json: at turn 5 and at the end, its score,
    clue tokens, pace, efficiency, potential clues lost, hands and stack directions."""
    game = hl.to_game(hl.read(FIXTURES / "up_or_down.json"))
    states = [RULESET.start(game.setup)] + [a for _, _, a in walk_live(RULESET, game.events)]
    turn5, end = states[4], states[-1]
    view5 = RULESET.view(turn5, None)
    assert turn5.hands == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 11, 16), (12, 13, 15, 17))
    assert (turn5.score, turn5.clue_tokens, view5.pace, clues_lost(turn5)) == (2, 6, 8, 2)
    assert view5.efficiency == pytest.approx(1.5)
    assert [direction(s) for s in turn5.stacks] == [0, -1, 0, -1, 0]  # undecided, down, ...
    assert end.hands == ((27, 32, 35), (22, 30, 43), (31, 36, 41, 44), (13, 23, 39))
    assert (end.moves, end.score, end.clue_tokens, clues_lost(end)) == (50, 24, 2, 18)
    assert RULESET.view(end, None).efficiency == pytest.approx(1.39, abs=0.005)
    assert end.outcome == "normal" and RULESET.view(end, None).pace is None
    finished = [len(s) == 5 for s in end.stacks]
    assert finished == [True, True, True, False, True] and direction(end.stacks[3]) == -1
    assert end.stacks[0] == (S, 2, 3, 4, 5)  # started by its START card, then built up


def _play(game: Game, seat: int, face: tuple[int, int]) -> None:
    """``seat`` plays its card of ``face``."""
    card = next(o for o in game.state.hands[seat] if game.state.faces[o] == Face(*face))
    game.push(HanabiPlay(player=seat, card=card))


def _pass(game: Game, seat: int) -> None:
    """``seat`` spends its turn on a clue (or a discard without tokens)."""
    legal = [m for m in game.legal_moves(seat) if isinstance(m, HanabiClue)]
    game.push(legal[0] if legal else game.legal_moves(seat)[-1])


def test_up_or_down_a_start_card_leaves_the_way_open_and_the_next_card_chooses_it():
    # red START, red 4, red 3 in ann's hand; red 2 in ben's
    game = variant_game(UP_OR_DOWN, [(0, S), (0, 4), (0, 3), (1, 1), (1, 2), (0, 2), (2, 1)])
    _play(game, 0, (0, S))
    assert game.state.stacks[0] == (S,) and game.state.fireworks[0] == 1
    assert is_playable(game.state, Face(0, 2)) and is_playable(game.state, Face(0, 4))
    assert not is_playable(game.state, Face(0, 1)) and not is_playable(game.state, Face(0, 5))
    assert not is_trash(game.state, Face(0, 1)) and not is_trash(game.state, Face(0, 5))
    _pass(game, 1)
    _play(game, 0, (0, 4))  # down: 3, 2 and 1 to come; the 5 will never play
    assert direction(game.state.stacks[0]) == -1 and game.state.strikes == 0
    assert not is_trash(game.state, Face(0, 2)) and is_trash(game.state, Face(0, 5))
    _play(game, 1, (0, 2))  # a 2 on a stack built down from 4: a strike
    assert game.state.strikes == 1 and game.state.stacks[0] == (S, 4)
    board = RULESET.board(RULESET.view(game.state, None), "t")
    assert any(c.text == "r4↓" for z in board.zones for c in z.cards)


def test_up_or_down_a_stack_starts_with_1_5_or_start_only():
    game = variant_game(UP_OR_DOWN, [(0, 2), (1, 5), (2, 1), (3, S), (4, 3)])
    for face in ((0, 2), (1, 5), (2, 1), (3, S), (4, 3)):
        _play(game, 0, face)
        _pass(game, 1)
    assert game.state.stacks == ((), (5,), (1,), (S,), ())
    assert game.state.strikes == 2  # the red 2 and the white 3
    assert [direction(s) for s in game.state.stacks[1:4]] == [-1, 1, 0]


def test_up_or_down_a_finished_suit_gives_a_clue_token_and_takes_no_more():
    game = variant_game(UP_OR_DOWN, [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)])
    _pass(game, 0)
    _pass(game, 1)
    for rank in (1, 2, 3, 4, 5):
        before = game.state.clue_tokens
        _play(game, 0, (0, rank))
        assert game.state.clue_tokens == before + (rank == 5)
        _pass(game, 1)
    assert game.state.stacks[0] == (1, 2, 3, 4, 5) and game.state.caps[0] == 5
    assert next_ranks(game.state.deck, game.state.stacks, 0) == ()
    assert is_trash(game.state, Face(0, S))


def test_up_or_down_the_best_score_counts_the_best_way_left():
    """Red 1 lost: red may still go up from its START. Red START lost too: only down, from
    its 5 to the lost 1 (5, 4, 3, 2: four). Both red 2s lost too: 5, 4, 3."""
    game = variant_game(UP_OR_DOWN, [(0, 1), (0, S), (0, 2), (0, 2), (1, 1)])
    _pass(game, 0)
    for rank, cap in ((1, 5), (S, 4), (2, 4), (2, 3)):
        _pass(game, 1)
        card = next(o for o in game.state.hands[0] if game.state.faces[o] == Face(0, rank))
        game.push(HanabiDiscard(player=0, card=card))
        assert game.state.caps[0] == cap
    assert game.state.max_score == 23


def test_up_or_down_rank_clues_never_touch_a_start_card_but_where_hanablive_s_do():
    plain, pink = _deck(UP_OR_DOWN), _deck("Up or Down & Pink (5 Suits)")
    start = 1 << plain.index(0, S)
    assert not any(mask & start for mask in plain.rank_masks)
    assert plain.colour_masks[0] & start  # red touches the red START
    assert all(mask >> pink.index(4, S) & 1 for mask in pink.rank_masks)  # pink: every rank
    prism = _deck("Up or Down & Prism (5 Suits)")
    last = len(prism.colours) - 1  # a prism START counts as rank 0: the last colour
    assert [c for c, m in enumerate(prism.colour_masks) if m >> prism.index(4, S) & 1] == [last]


def test_a_start_card_is_written_rs_and_named_start():
    game = variant_game(UP_OR_DOWN, [(0, S), (1, 2)])
    assert parse_face(game.state, "rs") == Face(0, S) == parse_face(game.state, "redstart")
    assert card_name(Face(0, S), game.state.deck.letters) == "rs"
    _play(game, 0, (0, S))
    said = render(describe(RULESET, game.fold.players, *_last(game), None))
    assert "red START" in said
    with pytest.raises(Exception, match="a rank 1-5 or s"):
        parse_face(game.state, "r9")
    board = RULESET.board(RULESET.view(game.state, None), "t")
    assert any(c.text == "rs" for z in board.zones for c in z.cards)


def _last(game: Game):
    return game.fold.states[-2], game.events[-1], game.fold.states[-1]


def test_sudoku_a_suit_starts_anywhere_but_at_another_s_start_and_wraps_round():
    name = "Sudoku (5 Suits)"
    game = variant_game(name, [(0, 4), (0, 5), (0, 1), (1, 3), (2, 2), (1, 4)])
    _play(game, 0, (0, 4))
    assert game.state.stacks[0] == (4,) and game.state.strikes == 0
    assert is_playable(game.state, Face(0, 5)) and not is_playable(game.state, Face(1, 4))
    _play(game, 1, (1, 4))  # yellow cannot start at red's 4
    assert game.state.strikes == 1 and game.state.stacks[1] == ()
    _play(game, 0, (0, 5))
    _pass(game, 1)
    _play(game, 0, (0, 1))  # after 5, 1: round
    _pass(game, 1)
    _play(game, 0, (1, 3))
    assert game.state.stacks[0] == (4, 5, 1) and game.state.stacks[1] == (3,)
    assert is_playable(game.state, Face(0, 2)) and is_trash(game.state, Face(0, 4))
    board = RULESET.board(RULESET.view(game.state, None), "t")
    assert any(c.text == "r4-1" for z in board.zones for c in z.cards)


def test_sudoku_four_suits_stacks_hold_four_and_a_score_of_16_is_perfect():
    deck = _deck("Sudoku (4 Suits)")
    assert deck.stack_size == 4 and deck.card_ranks == (1, 2, 3, 4)
    assert sum(deck.copies) == 32 and not any(deck.has(s, 5) for s in range(4))
    game = variant_game("Sudoku (4 Suits)", [(0, 2)])
    assert game.state.max_score == 16
    with pytest.raises(RuleViolation, match="no card"):
        game.push(HanabiPlay(player=0, card=game.state.hands[0][0], face=Face(0, 5)))
