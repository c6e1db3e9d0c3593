"""Hanabi's state: an immutable snapshot that ``apply`` replaces, never mutates.

Clue knowledge is kept per card as one int (it is rebuilt on every clue, so it must be cheap):
bits 0-15 the suits still possible, bits 16-20 the ranks still possible, bit 24 set once the
card has been touched by a clue. ``knowledge()`` and ``Knowledge.of()`` translate.
"""

from __future__ import annotations

import msgspec

from gametape.engine.ruleset import TERMINATED
from gametape.games.hanabi.events import Face, HanabiSetup

MAX_CLUES = 8
MAX_STRIKES = 3
RANKS = 5
RANK_SHIFT = 16
CLUED = 1 << 24
ALL_RANKS = ((1 << RANKS) - 1) << RANK_SHIFT
SUIT_BITS = (1 << RANK_SHIFT) - 1


def knowledge(suits: int, ranks: int, clued: bool = False) -> int:
    """Pack masks of possible suits (bit s) and ranks (bit r-1) into one int."""
    return suits | ranks << RANK_SHIFT | (CLUED if clued else 0)


class Knowledge(msgspec.Struct, frozen=True):
    """What a card's holder knows from clues, unpacked."""

    suits: tuple[int, ...]
    ranks: tuple[int, ...]
    clued: bool

    @classmethod
    def of(cls, packed: int, n_suits: int) -> Knowledge:
        return cls(
            tuple(s for s in range(n_suits) if packed >> s & 1),
            tuple(r for r in range(1, RANKS + 1) if packed >> (RANK_SHIFT + r - 1) & 1),
            bool(packed & CLUED),
        )


class HanabiState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position. Hands hold card orders, oldest first (slot 1 for people is the newest).

    ``faces``: every card face known so far, by order (None: not known yet).
    ``knowledge``: packed clue knowledge, by order.
    ``lost``: discarded or misplayed copies by ``suit * 5 + rank - 1``.
    ``caps``: per suit, the highest rank still reachable; ``max_score`` is their sum.
    ``final_turns``: the moves left once the deck is empty.
    ``applied``: events applied since the setup (to name earlier facts by their seq).
    At a real table (a deck of unknown faces) two more fields keep where facts came from:
    ``revealed_at[order]``, the event that showed a face (0: the setup), and
    ``clue_log[order]``, the clues whose receiver held the card, as (event, value, touched)
    with value a suit index, or 16 + rank - 1 for a rank.
    """

    setup: HanabiSetup
    faces: tuple[Face | None, ...]
    hands: tuple[tuple[int, ...], ...]
    knowledge: tuple[int, ...]
    next_card: int
    fireworks: tuple[int, ...]
    discards: tuple[int, ...]
    lost: tuple[int, ...]
    caps: tuple[int, ...]
    clues: int = MAX_CLUES
    strikes: int = 0
    current: int = 0
    moves: int = 0
    final_turns: int | None = None
    max_score: int = 0
    outcome: str | None = None
    applied: int = 0
    clues_given: int = 0
    clues_wasted: int = 0  # 5s played at 8 clue tokens: the token they would give is lost
    touched: tuple[int, ...] = ()  # the cards the clue just given touched (for the board)
    revealed_at: tuple[int, ...] = ()
    clue_log: tuple[tuple[tuple[int, int, bool], ...], ...] = ()

    @property
    def at_table(self) -> bool:
        """Whether faces enter the log as the table sees them (the deck is not known)."""
        return bool(self.revealed_at)

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
        if self.outcome in ("strikeout", TERMINATED):
            return 0
        return sum(self.fireworks)

    def known(self, order: int) -> Knowledge:
        return Knowledge.of(self.knowledge[order], len(self.fireworks))


def hand_size(n_players: int) -> int:
    return 5 if n_players <= 3 else 4
