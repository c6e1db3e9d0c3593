"""Differential test: gametape's Hanabi against DeepMind's Hanabi Learning Environment (HLE),
as shipped in the open_spiel wheel. Games are generated in HLE with an omniscient policy that
reaches perfect games and deck-outs (and, through a few random moves, strikeouts), converted
to gametape events, and both engines must agree on every move's legality, the outcome and
the score."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gametape.engine.game import Game
from gametape.games.hanabi import HANABI
from gametape.games.hanabi.events import (
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiOptions,
    HanabiPlay,
    HanabiSetup,
)

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel (HLE) is a test dependency: pip install -e '.[test]'"
)

COLOURS = "RYGWB"  # HLE's colour order; the gametape games use the same suit order
SUITS = ("red", "yellow", "green", "white", "blue")
GAMES_PER_COUNT = 500
CAREFUL, RECKLESS = 0.03, 0.3  # the share of random moves; every fifth game is reckless


def _card(text: str) -> Face:
    """``(Deal Y3)`` → Face(1, 3)."""
    code = text.strip("()").split()[-1]
    return Face(COLOURS.index(code[0]), int(code[1]))


def hle_game(n: int, seed: int, randomness: float):
    """Play one HLE game; return (dealt faces in order, steps, returns, life tokens left).

    Each step is (seat, HLE legal action strings, the chosen action string).
    """
    rng = random.Random(seed)
    state = pyspiel.load_game("hanabi", {"players": n}).new_initial_state()
    dealt: list[Face] = []
    hands: list[list[int]] = [[] for _ in range(n)]
    fireworks = [0] * 5
    steps = []
    dealing_to = 0
    hand = 5 if n <= 3 else 4
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
            dealt.append(_card(state.action_to_string(action)))
            # initial deal in blocks; afterwards the card goes to the player who just acted
            if len(dealt) <= n * hand:
                dealing_to = (len(dealt) - 1) // hand
            hands[dealing_to].append(len(dealt) - 1)
            state.apply_action(action)
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        names = {a: state.action_to_string(a) for a in legal}
        choice = _policy(rng, names, hands[seat], dealt, fireworks, randomness)
        text = names[choice]
        steps.append((seat, set(names.values()), text))
        kind = text.strip("()").split()
        if kind[0] in ("Play", "Discard"):
            order = hands[seat].pop(int(kind[1]))
            face = dealt[order]
            if kind[0] == "Play" and fireworks[face.suit] == face.rank - 1:
                fireworks[face.suit] += 1
        dealing_to = seat
        state.apply_action(choice)
    lives = int(str(state).split("Life tokens:")[1].split()[0])
    return dealt, steps, state.returns()[0], lives


def _policy(rng, names, hand, dealt, fireworks, randomness: float) -> int:
    """Omniscient: play a playable card, else discard a useless one, else clue, else discard;
    a random legal move with probability ``randomness``."""
    if rng.random() < randomness:
        return rng.choice(list(names))
    by_text = {t: a for a, t in names.items()}
    for i, order in enumerate(hand):
        f = dealt[order]
        if fireworks[f.suit] == f.rank - 1 and f"(Play {i})" in by_text:
            return by_text[f"(Play {i})"]
    for i, order in enumerate(hand):
        f = dealt[order]
        if fireworks[f.suit] >= f.rank and f"(Discard {i})" in by_text:
            return by_text[f"(Discard {i})"]
    clues = [a for t, a in by_text.items() if t.startswith("(Reveal")]
    if clues:
        return rng.choice(clues)
    discards = [a for t, a in by_text.items() if t.startswith("(Discard")]
    return rng.choice(discards or list(names))


def _hle_name(event, seat: int, n: int, hand: tuple[int, ...]) -> str:
    """A gametape move as HLE writes it (hand indices oldest first in both engines)."""
    if isinstance(event, HanabiPlay | HanabiDiscard):
        verb = "Play" if isinstance(event, HanabiPlay) else "Discard"
        return f"({verb} {hand.index(event.card)})"
    offset = (event.target - seat) % n
    if event.suit is not None:
        return f"(Reveal player +{offset} color {COLOURS[event.suit]})"
    return f"(Reveal player +{offset} rank {event.rank})"


def _from_hle(text: str, seat: int, n: int, hand: tuple[int, ...]):
    words = text.strip("()").split()
    if words[0] == "Play":
        return HanabiPlay(player=seat, card=hand[int(words[1])])
    if words[0] == "Discard":
        return HanabiDiscard(player=seat, card=hand[int(words[1])])
    target = (seat + int(words[2].lstrip("+"))) % n
    if words[3] == "color":
        return HanabiClue(player=seat, target=target, suit=COLOURS.index(words[4]))
    return HanabiClue(player=seat, target=target, rank=int(words[4]))


def _full_deck(dealt: list[Face]) -> tuple[Face, ...]:
    left = Counter({Face(s, r): c for s in range(5) for r, c in enumerate((3, 2, 2, 2, 1), 1)})
    left.subtract(dealt)
    return tuple(dealt) + tuple(sorted(left.elements(), key=lambda f: (f.suit, f.rank)))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_gametape_agrees_with_hle_on_legality_outcome_and_score(n):
    outcomes: Counter[str] = Counter()
    for seed in range(GAMES_PER_COUNT):
        randomness = RECKLESS if seed % 5 == 0 else CAREFUL
        dealt, steps, hle_score, lives = hle_game(n, seed * 10 + n, randomness)
        setup = HanabiSetup(
            players=tuple(f"p{i}" for i in range(n)),
            deck=_full_deck(dealt),
            options=HanabiOptions(suits=SUITS),
        )
        game = Game.new(setup)
        for i, (seat, hle_legal, text) in enumerate(steps):
            state = game.state
            assert HANABI.to_act(state) == (seat,), (seed, i)
            hand = state.hands[seat]
            ours = {_hle_name(m, seat, n, hand) for m in HANABI.legal_moves(state, seat)}
            assert ours == hle_legal, (seed, i, ours ^ hle_legal)
            game.push(_from_hle(text, seat, n, hand))
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
