"""Hanabi's state: an immutable snapshot that ``apply`` replaces, never mutates.

Clue knowledge is kept per card as one int (it is rebuilt on every clue, so it must be cheap):
bit ``Deck.index(suit, rank)`` set while the clues allow that face, and bit 48 set once the card
has been touched by a clue. In a variant a clue may touch a face by its suit, its rank or
both (a rainbow card answers every colour, a pink card every rank), so what clues leave open
is a set of faces, not a set of suits times a set of ranks. ``Knowledge.of()`` projects it.
"""

from __future__ import annotations

from typing import Final

import msgspec

from gametape.engine.ruleset import TERMINATED, Notice
from gametape.games.hanabi.deck import Deck
from gametape.games.hanabi.events import Face, HanabiSetup
from gametape.games.hanabi.variants import hand_size as hand_size

# Final: the compiled modules (mypyc) read each as a constant, with no lookup
MAX_CLUES: Final = 8
MAX_STRIKES: Final = 3
RANKS: Final = 5
RANK_SHIFT: Final = 16  # a clue's value in ``clue_log``: a colour index, or 16 + rank - 1
CLUED: Final = 1 << 48  # above every face: 6 suits of 7 (Up or Down's START is rank 7)
MAX_SUITS: Final = 6


def faces_of(packed: int, n_suits: int, stride: int) -> tuple[Face, ...]:
    """The faces a packed knowledge leaves open, suit by suit (``stride``: ``Deck.stride``)."""
    return tuple(
        Face(s, r)
        for s in range(n_suits)
        for r in range(1, stride + 1)
        if packed >> (s * stride + r - 1) & 1
    )


class Knowledge(msgspec.Struct, frozen=True):
    """What a card's holder knows from clues, unpacked: the suits and the ranks of the faces
    the clues leave open, and whether a clue touched it."""

    suits: tuple[int, ...]
    ranks: tuple[int, ...]
    clued: bool

    @classmethod
    def of(cls, packed: int, n_suits: int, stride: int) -> Knowledge:
        faces = faces_of(packed, n_suits, stride)
        return cls(
            tuple(sorted({f.suit for f in faces})),
            tuple(sorted({f.rank for f in faces})),
            bool(packed & CLUED),
        )


class HanabiState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One position. Hands hold card orders, oldest first (slot 1 for people is the newest).

    ``faces``: every card face known so far, by order (None: not known yet).
    ``knowledge``: packed clue knowledge, by order.
    ``lost``: discarded or misplayed copies by ``Deck.index``.
    ``caps``: per suit, the highest rank still reachable; ``max_score`` is their sum.
    ``stacks``: where plays decide a firework's order (``Deck.routes``: Up or Down, Sudoku),
    the ranks played on each, in order (gametape.games.hanabi.stacks); empty elsewhere.
    ``final_turns``: the moves left once the deck is empty.
    ``deck``: the suits, copies and clue reach of the game's deck (its variant).
    ``clues``: clue tokens, in units of ``deck.unit`` (halves in Clue Starved).
    ``applied``: events applied since the setup (to name earlier facts by their seq).
    At a real table (a deck of unknown faces) two more fields keep where facts came from:
    ``revealed_at[order]``, the event that showed a face (0: the setup), and
    ``clue_log[order]``, the clues whose receiver held the card, as (event, value, touched)
    with value a suit index, or 16 + rank - 1 for a rank.
    """

    setup: HanabiSetup
    deck: Deck
    faces: tuple[Face | None, ...]
    hands: tuple[tuple[int, ...], ...]
    knowledge: tuple[int, ...]
    next_card: int
    fireworks: tuple[int, ...]
    discards: tuple[int, ...]
    lost: tuple[int, ...]
    caps: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...] = ()
    clues: int = MAX_CLUES  # set from the deck's unit at the start
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
    last_clue: str | None = None  # "colour" or "rank": in Alternating Clues the next is the other
    revealed_at: tuple[int, ...] = ()
    clue_log: tuple[tuple[tuple[int, int, bool], ...], ...] = ()
    # A recorder's notes at a table (``see``): each a claim that every seat but the hand's
    # holder sees, never a fact (DESIGN: claims and facts). ``noted[order]`` is the face a
    # note saw (None: none, or void), ``noted_at[order]`` its event; ``notices`` the notes
    # that facts made void or that are in dispute.
    # Throw It in a Hole: each card played, and who played it, in the order played
    hole: tuple[tuple[int, int], ...] = ()
    noted: tuple[Face | None, ...] = ()
    noted_at: tuple[int, ...] = ()
    notices: tuple[Notice, ...] = ()

    def seen_face(self, order: int) -> Face | None:
        """A card's face as a seat that may see it knows it: shown, or noted by a recorder
        (a note is every seat's but the holder's)."""
        face = self.faces[order]
        return face if face is not None or not self.noted else self.noted[order]

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
        return Knowledge.of(self.knowledge[order], len(self.fireworks), self.deck.stride)

    @property
    def max_clues(self) -> int:
        return MAX_CLUES * self.deck.unit

    @property
    def clue_tokens(self) -> int | float:
        """Clue tokens as players count them (3.5 in Clue Starved)."""
        unit = self.deck.unit
        return self.clues if unit == 1 else self.clues / unit
