"""Random games of every mechanism gametape plays: legal moves, knowledge (empathy) against an
independent count, the best score still reachable, and hanab.live files there and back."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gametape.engine.game import Game, describe
from gametape.engine.ruleset import ONLOOKER
from gametape.games.hanabi import RULESET
from gametape.games.hanabi import hanablive as hl
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiPlay
from gametape.games.hanabi.knowledge import possible
from gametape.games.hanabi.state import CLUED
from gametape.games.hanabi.variants import variant
from gametape.messages import render
from tests.helpers import variant_game

# One variant for each mechanism (and some of their combinations).
MECHANISMS = {
    "3 and 6 suits": "6 Suits",
    "one of each": "Black (5 Suits)",
    "every colour": "Rainbow (6 Suits)",
    "no colour": "White (5 Suits)",
    "every rank": "Pink (6 Suits)",
    "no rank": "Brown (5 Suits)",
    "every colour and rank": "Omni (5 Suits)",
    "no clue at all": "Null (6 Suits)",
    "muddy rainbow and light pink": "Muddy Rainbow & Light Pink (6 Suits)",
    "dark suits": "Dark Rainbow & Gray Pink (6 Suits)",
    "prism": "Prism (5 Suits)",
    "suits of shared colours": "Ambiguous & Null (5 Suits)",
    "dual colours": "Dual-Color (6 Suits)",
    "nested colours": "Matryoshka (5 Suits)",
    "special ones": "Rainbow-Ones & Pink (5 Suits)",
    "special fives": "Null-Fives & Brown (6 Suits)",
    "deceptive": "Deceptive-Ones & White (5 Suits)",
    "critical fours": "Critical Fours & Black (6 Suits)",
    "scarce ones": "Scarce Ones & Dark Null (6 Suits)",
    "clue starved": "Clue Starved (6 Suits)",
    "color blind": "Color Blind (5 Suits)",
    "totally blind": "Totally Blind (6 Suits)",
    "color mute": "Color Mute (5 Suits)",
    "number mute": "Number Mute (5 Suits)",
    "alternating clues": "Alternating Clues & Rainbow (5 Suits)",
    "odds and evens": "Odds and Evens & Brown (6 Suits)",
    "synesthesia": "Synesthesia & Brown (5 Suits)",
    "funnels": "Funnels & Pink (5 Suits)",
    "reversed": "White Reversed & Rainbow (5 Suits)",
    "reversed, one of each": "Black Reversed (6 Suits)",
    "chimneys": "Chimneys & Muddy Rainbow (5 Suits)",
    "cow & pig": "Cow & Pig (5 Suits)",
    "duck": "Duck (4 Suits)",
    "throw it in a hole": "Throw It in a Hole (6 Suits)",
    "up or down": "Up or Down (5 Suits)",
    "up or down, every rank": "Up or Down & Pink (6 Suits)",
    "up or down, prism": "Up or Down & Prism (5 Suits)",
    "sudoku": "Sudoku (5 Suits)",
    "sudoku, 4 suits": "Sudoku & Rainbow (4 Suits)",
    "orange": "Orange (5 Suits)",
    "orange, one of each, reversed": "Dark Orange Reversed (6 Suits)",
    "orange in a hole": "Throw It in a Hole & Orange (5 Suits)",
    "orange, up or down": "Up or Down & Orange (5 Suits)",
}
GAMES_EACH = 2  # seeded; each game checks every card of every position


def _play(name: str, seed: int, players: int = 3) -> Game:
    """A game of ``name``: random moves for an even seed (short: they strike out), the
    heuristic bot's for an odd one (long: most of the deck is drawn)."""
    rng = random.Random(seed)
    setup = RULESET.new_setup(
        [f"p{i}" for i in range(players)],
        rng,
        {"variant": name, "end_at_max_score": True, "end_when_nothing_playable": True},
    )
    game = Game.new(setup)
    bot = RULESET.bots["heuristic"]() if seed % 2 else RULESET.bots["random"]()
    while not game.is_over:
        seat = game.state.current
        game.push(bot.choose(game.view(seat), game.legal_moves(seat), rng))
    return game


def _independent(game: Game, name: str) -> list[dict[int, set[Face]]]:
    """For each position, what each card in a hand can be, counted from the variant's own
    clue rule (``Variant.touches``) and the cards on the table: no state, no masks."""
    v = variant(name)
    deck = game.setup.deck
    clues: dict[int, list[tuple[int | None, int | None, bool]]] = {}
    gone: Counter[Face] = Counter()
    out = []
    states = game.fold.states
    for seq in range(len(game.events)):
        state = states[seq]
        if seq:
            event, before = game.events[seq], states[seq - 1]
            if isinstance(event, HanabiClue) and not (v.cow_and_pig or v.duck):
                # (in Cow & Pig and Duck a clue's value is its giver's alone: it narrows
                # nothing)
                for o in before.hands[event.target]:
                    touched = o in state.touched
                    clues.setdefault(o, []).append((event.suit, event.rank, touched))
            elif isinstance(event, HanabiPlay | HanabiDiscard):
                gone[deck[event.card]] += 1
        can: dict[int, set[Face]] = {}
        for hand in state.hands:
            for o in hand:
                can[o] = {
                    Face(s, r)
                    for s in range(len(v.suits))
                    for r in v.card_ranks
                    if v.copies(s, r) > gone[Face(s, r)]
                    and all(v.touches(c, k, s, r) == t for c, k, t in clues.get(o, []))
                }
        out.append(can)
    return out


@pytest.mark.parametrize("name", list(MECHANISMS.values()), ids=list(MECHANISMS))
def test_random_games_keep_the_rules_and_knowledge_agrees_with_an_independent_count(name):
    v = variant(name)
    for seed in range(GAMES_EACH):
        game = _play(name, seed)
        states = game.fold.states
        expected = _independent(game, name)
        for seq, state in enumerate(states):
            # card conservation: every card is in the deck, a hand, a firework or the discards
            held = sum(len(h) for h in state.hands)
            assert held + state.deck_left + state.fireworks_sum + len(state.discards) == len(
                game.setup.deck
            )
            assert 0 <= state.clues <= state.max_clues and state.strikes <= 3
            assert state.max_score <= v.max_score
            for order, faces in expected[seq].items():
                assert set(possible(state, order)) == faces, (seed, seq, order)
        for seq in range(1, len(game.events)):
            event, before = game.events[seq], states[seq - 1]
            if isinstance(event, HanabiClue):
                assert (event.suit is None) or 0 <= event.suit < len(v.clue_colours)
                assert (event.rank is None) or event.rank in v.clue_ranks
                if v.alternating_clues and before.last_clue:
                    assert before.last_clue != ("colour" if event.suit is not None else "rank")


@pytest.mark.parametrize("name", list(MECHANISMS.values()), ids=list(MECHANISMS))
def test_a_variant_game_exports_to_hanablive_and_imports_back_the_same(name):
    game = _play(name, 7)
    data = hl.from_events(game.events)
    assert data["options"]["variant"] == name
    again = hl.to_game(hl.parse(hl._encoder.encode(data)))
    assert again.events[1:] == game.events[1:]
    assert again.state.score == game.state.score


def test_a_reversed_suit_is_built_from_5_down_and_its_1_completes_it():
    # Reversed (5 Suits): red yellow green blue, purple reversed (suit 4); 3 fives, 1 one
    game = variant_game(
        "Reversed (5 Suits)", [(4, 5), (4, 1), (0, 1), (0, 2), (0, 3)] + [(1, 1)] * 2
    )
    assert [game.state.deck.copies[4 * 5 + r] for r in range(5)] == [1, 2, 2, 2, 3]
    ann = game.state.hands[0]
    game.push(HanabiPlay(player=0, card=ann[1]))  # the purple 1 first: a strike
    assert game.state.strikes == 1 and game.state.max_score == 24  # the only 1 is gone
    game.push(HanabiClue(player=1, target=0, rank=5))
    game.push(HanabiPlay(player=0, card=ann[0]))  # the purple 5 starts it
    assert game.state.fireworks[4] == 1 and game.state.strikes == 1
    board = RULESET.board(RULESET.view(game.state, None), "t")
    assert any(c.text == "p5↓" for z in board.zones for c in z.cards)


def test_a_reversed_suits_knowledge_and_trash_count_from_the_5():
    game = variant_game(
        "Reversed (5 Suits)", [(4, 5), (4, 4), (0, 1), (0, 2), (0, 3)] + [(1, 1)] * 2
    )
    game.push(HanabiPlay(player=0, card=game.state.hands[0][0]))
    state = game.state
    from gametape.games.hanabi.knowledge import is_playable, is_trash

    assert is_playable(state, Face(4, 4)) and not is_playable(state, Face(4, 1))
    assert is_trash(state, Face(4, 5)) and not is_trash(state, Face(4, 1))


@pytest.mark.parametrize(
    ("name", "told"),
    [("Cow & Pig (5 Suits)", ("moo", "oink")), ("Duck (4 Suits)", ("quack", "quack"))],
)
def test_a_clue_s_value_is_its_giver_s_alone(name, told):
    """hanab.live's Cow & Pig says a colour clue as Moo and a rank clue as Oink, Duck says
    either as Quack: only the giver is told the value; every seat sees the cards it touched,
    and no card's knowledge is narrowed by it."""
    game = next(  # a random game with both kinds of clue
        g
        for g in (_play(name, seed) for seed in range(0, 20, 2))
        if {e.suit is None for e in g.events if isinstance(e, HanabiClue)} == {True, False}
    )
    players = game.fold.players
    last = {
        "colour" if e.suit is not None else "rank": seq
        for seq, e in enumerate(game.events)
        if isinstance(e, HanabiClue)
    }
    for kind, sound in zip(("colour", "rank"), told, strict=True):
        seq = last[kind]
        event, before, after = game.events[seq], game.fold.states[seq - 1], game.fold.states[seq]
        assert isinstance(event, HanabiClue)
        word = before.deck.clue_word(event.suit, event.rank)
        said = {
            who: render(describe(RULESET, players, before, event, after, who))
            for who in (event.player, event.target, ONLOOKER)
        }
        target = players[event.target]
        assert f"told {target} {word}:" in said[event.player]
        assert f"told {target} {sound}:" in said[event.target] == said[ONLOOKER]
        assert after.touched
        for o in before.hands[event.target]:
            assert after.knowledge[o] & ~CLUED == before.knowledge[o] & ~CLUED
