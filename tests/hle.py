"""DeepMind's Hanabi Learning Environment (HLE, shipped in the open_spiel wheel): games played
in it by an omniscient policy, and the mapping between its actions and gametape's events.
Used by the differential test and by the store benchmark's reference replay."""

from __future__ import annotations

import random
from collections import Counter

import pyspiel

from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiPlay

COLOURS = "RYGWB"  # HLE's colour order; the gametape games use the same suit order
SUITS = ("red", "yellow", "green", "white", "blue")


def card(text: str) -> Face:
    """``(Deal Y3)`` → Face(1, 3)."""
    code = text.strip("()").split()[-1]
    return Face(COLOURS.index(code[0]), int(code[1]))


def hle_game(n: int, seed: int, randomness: float):
    """Play one HLE game; return (dealt faces in order, steps, returns, life tokens left,
    actions).

    Each step is (seat, HLE legal action strings, the chosen action string); ``actions`` are
    HLE's action ids in order, chance (the deals) included, to replay the game in HLE.
    """
    rng = random.Random(seed)
    state = pyspiel.load_game("hanabi", {"players": n}).new_initial_state()
    dealt: list[Face] = []
    hands: list[list[int]] = [[] for _ in range(n)]
    fireworks = [0] * 5
    steps = []
    actions: list[int] = []
    dealing_to = 0
    hand = 5 if n <= 3 else 4
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
            dealt.append(card(state.action_to_string(action)))
            # initial deal in blocks; afterwards the card goes to the player who just acted
            if len(dealt) <= n * hand:
                dealing_to = (len(dealt) - 1) // hand
            hands[dealing_to].append(len(dealt) - 1)
            state.apply_action(action)
            actions.append(action)
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        names = {a: state.action_to_string(a) for a in legal}
        choice = policy(rng, names, hands[seat], dealt, fireworks, randomness)
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
        actions.append(choice)
    lives = int(str(state).split("Life tokens:")[1].split()[0])
    return dealt, steps, state.returns()[0], lives, actions


def policy(rng, names, hand, dealt, fireworks, randomness: float) -> int:
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


def hle_name(event, seat: int, n: int, hand: tuple[int, ...]) -> str:
    """A gametape move as HLE writes it (hand indices oldest first in both engines)."""
    if isinstance(event, HanabiPlay | HanabiDiscard):
        verb = "Play" if isinstance(event, HanabiPlay) else "Discard"
        return f"({verb} {hand.index(event.card)})"
    offset = (event.target - seat) % n
    if event.suit is not None:
        return f"(Reveal player +{offset} color {COLOURS[event.suit]})"
    return f"(Reveal player +{offset} rank {event.rank})"


def from_hle(text: str, seat: int, n: int, hand: tuple[int, ...]):
    words = text.strip("()").split()
    if words[0] == "Play":
        return HanabiPlay(player=seat, card=hand[int(words[1])])
    if words[0] == "Discard":
        return HanabiDiscard(player=seat, card=hand[int(words[1])])
    target = (seat + int(words[2].lstrip("+"))) % n
    if words[3] == "color":
        return HanabiClue(player=seat, target=target, suit=COLOURS.index(words[4]))
    return HanabiClue(player=seat, target=target, rank=int(words[4]))


def full_deck(dealt: list[Face]) -> tuple[Face, ...]:
    left = Counter({Face(s, r): c for s in range(5) for r, c in enumerate((3, 2, 2, 2, 1), 1)})
    left.subtract(dealt)
    return tuple(dealt) + tuple(sorted(left.elements(), key=lambda f: (f.suit, f.rank)))
