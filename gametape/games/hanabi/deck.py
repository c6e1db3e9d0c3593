"""The deck a Hanabi game is played with, and what each clue touches in it.

Built once per game from its options: the published game (suits named by the ``suits``
option, ``copies`` of each rank) or a hanab.live variant (gametape.games.hanabi.variants).
A face is indexed ``suit * stride + rank - 1`` (``Deck.index``; the stride is 5, or 7 in Up or
Down, whose START cards are rank 7 as in hanab.live); a clue's reach is a mask of face bits, so
what a card's holder knows from clues is one int too (the faces it can still be).
"""

from __future__ import annotations

import functools

import msgspec

from gametape.games.hanabi.events import HanabiOptions
from gametape.games.hanabi.variants import NO_VARIANT, RANKS, START_RANK, Variant, variant

RANK_WORDS_ODD_EVEN = {1: "odd", 2: "even"}
# A clue whose value only its giver knows (Cow & Pig, Duck), as the others are told it: a
# colour clue names HIDDEN_COLOUR ("moo"), a rank clue HIDDEN_RANK ("oink"), and in Duck
# neither ("quack")
HIDDEN_COLOUR, HIDDEN_RANK = -1, 0


class Deck(msgspec.Struct, frozen=True, gc=False):
    """``suits``/``letters``: each suit's name and short name as players write it;
    ``colours``: the colours a clue can name; ``ranks``: the ranks a clue can name;
    ``copies``: copies of each face; ``colour_masks[i]``/``rank_masks[r - 1]``: the faces a clue
    touches; ``empty_colour``/``empty_rank``: whether such a clue may touch no card;
    ``unit``: clue-token units a token is worth (2 in Clue Starved: a discard gives half);
    ``reversed``: per suit, whether it is built from 5 down to 1 (empty: none is);
    ``stride``: faces a suit takes in an index; ``card_ranks``: the ranks printed on cards;
    ``routes``: how a firework is built when plays decide it (gametape.games.hanabi.stacks):
    ``up-or-down`` or ``sudoku``; empty where each suit's order is fixed."""

    name: str
    suits: tuple[str, ...]
    letters: tuple[str, ...]
    colours: tuple[str, ...]
    colour_letters: tuple[str, ...]
    ranks: tuple[int, ...]
    copies: tuple[int, ...]
    colour_masks: tuple[int, ...]
    rank_masks: tuple[int, ...]
    empty_colour: bool = False
    empty_rank: bool = False
    unit: int = 1
    alternating: bool = False
    odd_even: bool = False
    reversed: tuple[bool, ...] = ()  # per suit: built from 5 down to 1
    # Cow & Pig ("kind": a clue is told as Moo or Oink), Duck ("all": as Quack): a clue
    # touches by its value, which only its giver knows; it narrows no card's knowledge
    hidden_clues: str = ""
    # Throw It in a Hole: a played card goes face down into a hole; no player learns what it
    # was or whether it played until the end, and a suit completed gives no clue token
    hole: bool = False
    stride: int = RANKS
    card_ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    routes: str = ""
    stack_size: int = RANKS
    # orange suits (hanab.live's "inverted"), per suit (empty: none): the Play button
    # discards such a card and the Discard button plays it
    inverted: tuple[bool, ...] = ()
    all_faces: int = 0  # every face of the deck, one bit each (``deck_of`` sets it)

    def index(self, suit: int, rank: int) -> int:
        """A face's index (its bit in a knowledge or a clue's mask)."""
        return suit * self.stride + rank - 1

    def has(self, suit: int, rank: int) -> bool:
        """Whether the deck has cards of this face."""
        return 0 <= suit < len(self.suits) and rank in self.card_ranks

    def lands_on_firework(self, suit: int, play_button: bool) -> bool:
        """Whether a card of ``suit`` goes for its firework (a play) when its holder presses
        Play (``play_button``) or Discard: the button's own way, but the other way round for an
        orange suit."""
        return play_button != bool(self.inverted and self.inverted[suit])

    def position(self, suit: int, rank: int) -> int:
        """Where a rank goes in its suit's firework: the rank itself, or 6 - rank in a
        reversed suit (its 5 first). A firework's height is the count of cards played."""
        return RANKS + 1 - rank if self.reversed and self.reversed[suit] else rank

    @property
    def faces(self) -> tuple[tuple[int, int], ...]:
        """Every (suit, rank) the deck has, in index order."""
        return tuple((s, r) for s in range(len(self.suits)) for r in self.card_ranks)

    def mask(self, colour: int | None, rank: int | None) -> int:
        """The faces a clue touches (a colour by index into ``colours``, or a rank)."""
        if colour is not None:
            return self.colour_masks[colour]
        return self.rank_masks[rank - 1]  # type: ignore[operator]

    def rank_word(self, rank: int) -> str:
        """A rank clue as said aloud: ``3``, or ``odd``/``even`` in Odds and Evens."""
        return RANK_WORDS_ODD_EVEN[rank] if self.odd_even else str(rank)

    def clue_word(self, colour: int | None, rank: int | None) -> str:
        """A clue as written (a hidden value as hanab.live says it: moo, oink, quack)."""
        if colour is None and rank is None:
            return "quack"
        if colour == HIDDEN_COLOUR or rank == HIDDEN_RANK:
            return "moo" if colour == HIDDEN_COLOUR else "oink"
        return self.colours[colour] if colour is not None else self.rank_word(rank)  # type: ignore[arg-type]


def rank_mark(rank: int) -> str:
    """A rank as cards are written: ``3``, or ``s`` for Up or Down's START (``rs``)."""
    return "s" if rank == START_RANK else str(rank)


@functools.cache  # a game's suits never change; this runs for every card named
def suit_letters(suits: tuple[str, ...]) -> tuple[str, ...]:
    """Short suit names for cards (``r3``): first letters, longer where two would clash."""
    for n in range(1, max(map(len, suits)) + 1):
        short = tuple(s[:n].lower() for s in suits)
        if len(set(short)) == len(short):
            return short
    return tuple(s.lower() for s in suits)


def _letters(wanted: tuple[str, ...], names: tuple[str, ...]) -> tuple[str, ...]:
    """Each suit's own letter, or where one is taken the next free letter of its name."""
    taken: list[str] = []
    for letter, name in zip(wanted, names, strict=True):
        options = [letter.lower(), *(c for c in name.lower() if c.isalpha())]
        free = next((c for c in options if c not in taken), None)
        taken.append(free or name.lower().replace(" ", ""))
    return tuple(taken)


COLOUR_LETTERS = {"black": "k", "pink": "i", "brown": "n"}  # hanab.live's, where not the first


def _published(options: HanabiOptions) -> Deck:
    n = len(options.suits)
    faces = range(n * RANKS)
    return Deck(
        name=NO_VARIANT,
        suits=options.suits,
        letters=suit_letters(options.suits),
        colours=options.suits,
        colour_letters=suit_letters(options.suits),
        ranks=(1, 2, 3, 4, 5),
        copies=tuple(options.copies[i % RANKS] for i in faces),
        colour_masks=tuple(sum(1 << (s * RANKS + r) for r in range(RANKS)) for s in range(n)),
        rank_masks=tuple(sum(1 << (s * RANKS + r) for s in range(n)) for r in range(RANKS)),
    )


def _of_variant(v: Variant) -> Deck:
    n = len(v.suits)
    stride = START_RANK if v.up_or_down else RANKS
    faces = [(s, r) for s in range(n) for r in range(1, stride + 1)]

    def mask(colour: int | None, rank: int | None) -> int:
        return sum(
            1 << i
            for i, (s, r) in enumerate(faces)
            if v.copies(s, r) and v.touches(colour, rank, s, r)
        )

    names = tuple(k.shown.lower() for k in v.suits)
    colours = tuple(c.lower() for c in v.clue_colours)
    return Deck(
        name=v.name,
        suits=names,
        letters=_letters(tuple(k.letter for k in v.suits), names),
        colours=colours,
        colour_letters=_letters(tuple(COLOUR_LETTERS.get(c, c[0]) for c in colours), colours),
        ranks=v.clue_ranks,
        copies=tuple(v.copies(s, r) for s, r in faces),
        colour_masks=tuple(mask(i, None) for i in range(len(colours))),
        rank_masks=tuple(mask(None, r) for r in range(1, RANKS + 1)),
        empty_colour=v.colour_blind,
        empty_rank=v.rank_blind,
        unit=2 if v.clue_starved else 1,
        alternating=v.alternating_clues,
        odd_even=v.odds_and_evens,
        reversed=tuple(k.reversed for k in v.suits) if any(k.reversed for k in v.suits) else (),
        hidden_clues="all" if v.duck else "kind" if v.cow_and_pig else "",
        hole=v.throw_it_in_a_hole,
        stride=stride,
        card_ranks=v.card_ranks,
        routes="up-or-down" if v.up_or_down else "sudoku" if v.sudoku else "",
        stack_size=v.stack_size,
        inverted=tuple(k.inverted for k in v.suits) if any(k.inverted for k in v.suits) else (),
    )


@functools.cache
def deck_of(options: HanabiOptions) -> Deck:
    """The deck of a game with these options. Raises UnknownVariant for a variant gametape
    does not know."""
    deck = (
        _published(options)
        if options.variant == NO_VARIANT
        else _of_variant(variant(options.variant))
    )
    every = sum(1 << deck.index(s, r) for s, r in deck.faces)
    return msgspec.structs.replace(deck, all_faces=every)
