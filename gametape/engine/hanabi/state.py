"""Hanabi's state: an immutable snapshot that ``apply`` replaces, never mutates."""

from __future__ import annotations

import msgspec

from gametape.events.hanabi import Face, HanabiSetup

MAX_CLUES = 8
MAX_STRIKES = 3
RANKS = 5
ALL_RANKS = (1 << RANKS) - 1


class Knowledge(msgspec.Struct, frozen=True, array_like=True):
    """What a card's holder knows from clues: possible suits and ranks as bit masks."""

    suits: int
    ranks: int
    clued: bool = False

    def possible_suits(self, n_suits: int) -> list[int]:
        return [s for s in range(n_suits) if self.suits >> s & 1]

    def possible_ranks(self) -> list[int]:
        return [r for r in range(1, RANKS + 1) if self.ranks >> (r - 1) & 1]


class HanabiState(msgspec.Struct, frozen=True, kw_only=True):
    """One position. Hands hold card orders, oldest first (slot 1 for people is the newest).

    ``faces`` holds every card face known so far, by order (None: not known yet).
    ``lost`` counts discarded or misplayed copies by ``suit * 5 + rank - 1``.
    ``final_turns`` counts the moves left once the deck is empty.
    """

    setup: HanabiSetup
    faces: tuple[Face | None, ...]
    hands: tuple[tuple[int, ...], ...]
    knowledge: tuple[Knowledge, ...]
    next_card: int
    fireworks: tuple[int, ...]
    discards: tuple[int, ...]
    lost: tuple[int, ...]
    clues: int = MAX_CLUES
    strikes: int = 0
    current: int = 0
    moves: int = 0
    final_turns: int | None = None
    max_score: int = 0
    outcome: str | None = None

    @property
    def n_players(self) -> int:
        return len(self.hands)

    @property
    def deck_left(self) -> int:
        return len(self.setup.deck) - self.next_card

    @property
    def fireworks_sum(self) -> int:
        return sum(self.fireworks)

    @property
    def score(self) -> int:
        """The game's score: the fireworks sum, but 0 after a strikeout or abandonment."""
        if self.outcome in ("strikeout", "terminated"):
            return 0
        return sum(self.fireworks)


def hand_size(n_players: int) -> int:
    return 5 if n_players <= 3 else 4


def max_reachable(lost: tuple[int, ...], copies: tuple[int, ...], n_suits: int) -> int:
    """The best score still reachable: per suit, up to the first rank with every copy lost."""
    total = 0
    for s in range(n_suits):
        base = s * RANKS
        for r in range(RANKS):
            if lost[base + r] >= copies[r]:
                break
            total += 1
    return total
