"""hanab.live's Hanabi variants, as data (docs/variants.md).

A ``Suit`` says which clues touch its cards; a ``Variant`` is its suits and the modifiers that
change the rules. The catalogue is generated from the suits by the rules hanab.live names its
variants by ("Black (6 Suits)", "Rainbow-Ones & Pink (5 Suits)"), filtered as hanab.live
filters it (too few cards, a negative starting pace, or too hard to win). These are gametape's
own definitions, written from those rules; hanab.live's files are test reference only.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator

import msgspec

from gametape.messages import Message, render, say
from gametape.text import clipped

RANKS = 5
START_RANK = 7  # Up or Down's START card, as hanab.live numbers it
NO_VARIANT = "No Variant"
ALL_CLUE_RANKS = (1, 2, 3, 4, 5)


class Suit(msgspec.Struct, frozen=True, kw_only=True):
    """One suit. ``colours``: the clue colours that touch it (ignored when ``all_colours`` or
    ``no_colours``); ``prism``: touched by the clue colour at its rank's position;
    ``one_of_each``: one copy of each rank; ``special``: hanab.live builds variants of it."""

    name: str
    letter: str
    colours: tuple[str, ...] = ()
    all_colours: bool = False
    no_colours: bool = False
    all_ranks: bool = False
    no_ranks: bool = False
    one_of_each: bool = False
    prism: bool = False
    inverted: bool = False  # orange: the Play button discards it and Discard plays it
    reversed: bool = False
    display: str = ""  # the name players see, where the catalogue's carries a qualifier
    special: bool = False

    @property
    def shown(self) -> str:
        return self.display or self.name

    @property
    def traits(self) -> tuple[bool, bool, bool, bool, bool]:
        return (self.all_colours, self.all_ranks, self.no_colours, self.no_ranks, self.prism)


def _suit(name: str, letter: str, colours: str = "", **traits: bool | str) -> Suit:
    """A suit whose clue colours are ``colours`` (comma-separated), by default its own name."""
    if not colours and not any(traits.get(t) for t in ("all_colours", "no_colours", "prism")):
        colours = name
    return Suit(
        name=name,
        letter=letter,
        colours=tuple(c.strip() for c in colours.split(",") if c.strip()),
        **traits,  # type: ignore[arg-type]
    )


_S = True  # a special suit: the catalogue builds variants of it
SUITS: dict[str, Suit] = {
    s.name: s
    for s in (
        _suit("Red", "R"),
        _suit("Yellow", "Y"),
        _suit("Green", "G"),
        _suit("Blue", "B"),
        _suit("Purple", "P"),
        _suit("Teal", "T"),
        _suit("Black", "K", one_of_each=True, special=_S),
        _suit("Rainbow", "M", all_colours=True, special=_S),
        _suit("Pink", "I", all_ranks=True, special=_S),
        _suit("White", "W", no_colours=True, special=_S),
        _suit("Brown", "N", no_ranks=True, special=_S),
        _suit("Omni", "O", all_colours=True, all_ranks=True, special=_S),
        _suit("Null", "U", no_colours=True, no_ranks=True, special=_S),
        _suit("Muddy Rainbow", "M", all_colours=True, no_ranks=True, special=_S),
        _suit("Light Pink", "I", no_colours=True, all_ranks=True, special=_S),
        _suit("Prism", "I", prism=True, special=_S),
        _suit("Orange", "O", inverted=True, special=_S),
        _suit("Dark Rainbow", "M", all_colours=True, one_of_each=True, special=_S),
        _suit("Dark Pink", "I", "Pink", all_ranks=True, one_of_each=True, special=_S),
        _suit("Gray", "A", no_colours=True, one_of_each=True, special=_S),
        _suit("Dark Brown", "N", "Brown", no_ranks=True, one_of_each=True, special=_S),
        _suit("Dark Omni", "O", all_colours=True, all_ranks=True, one_of_each=True, special=_S),
        _suit("Dark Null", "U", no_colours=True, no_ranks=True, one_of_each=True, special=_S),
        _suit("Cocoa Rainbow", "M", all_colours=True, no_ranks=True, one_of_each=True, special=_S),
        _suit("Gray Pink", "I", no_colours=True, all_ranks=True, one_of_each=True, special=_S),
        _suit("Dark Prism", "I", prism=True, one_of_each=True, special=_S),
        _suit("Dark Orange", "O", "Orange", inverted=True, one_of_each=True, special=_S),
        # Suits that share clue colours (Ambiguous, Dual-Color, Matryoshka and the mixes)
        _suit("Tomato", "T", "Red"),
        _suit("Mahogany", "M", "Red"),
        _suit("Carrot", "C", "Red"),
        _suit("Emerald", "E", "Green"),
        _suit("Olive", "O", "Green"),
        _suit("Berry", "B", "Blue"),
        _suit("Navy", "N", "Blue"),
        _suit("Sky", "S", "Blue"),
        _suit("Ice EA", "I", "Blue", display="Ice"),
        _suit("Aqua EA", "A", "Blue", display="Aqua"),
        _suit("Sky EA", "S", "Blue", display="Sky"),
        _suit("Berry EA", "B", "Blue", display="Berry"),
        _suit("Navy EA", "N", "Blue", display="Navy"),
        _suit("Ocean EA", "O", "Blue", display="Ocean"),
        _suit("Tangerine", "T", "Red, Yellow"),
        _suit("Peach", "P", "Red, Yellow"),
        _suit("Ruby", "R", "Red"),
        _suit("Yam", "Y", "Red, Yellow"),
        _suit("Geas", "G", "Red, Yellow, Green"),
        _suit("Beatnik", "B", "Red, Yellow, Green, Blue"),
        _suit("Plum", "P", "Red, Yellow, Green, Blue, Purple"),
        _suit("Taupe", "T", "Red, Yellow, Green, Blue, Purple, Teal"),
        _suit("Gold", "G", "Red, Green"),
        _suit("Violet", "V", "Red, Blue"),
        _suit("Magenta", "M", "Red, Blue"),
        _suit("Cardinal", "C", "Red, Purple"),
        _suit("Maroon", "M", "Red, Black"),
        _suit("Lime", "L", "Yellow, Green"),
        _suit("Jungle", "J", "Yellow, Green"),
        _suit("Jade", "J", "Yellow, Blue"),
        _suit("Tan", "T", "Yellow, Black"),
        _suit("Cyan", "C", "Green, Blue"),
        _suit("Indigo", "I", "Blue, Purple"),
        _suit("Cobalt", "C", "Blue, Black"),
    )
}
REVERSED = " Reversed"


def suit(name: str) -> Suit:
    """A suit by its catalogue name; ``X Reversed`` is X played from 5 down to 1."""
    if name.endswith(REVERSED) and name[: -len(REVERSED)] in SUITS:
        return msgspec.structs.replace(SUITS[name[: -len(REVERSED)]], name=name, reversed=True)
    return SUITS[name]


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """A variant: its suits and the modifiers it sets (each as hanab.live's docs name it)."""

    name: str
    suits: tuple[Suit, ...]
    clue_colours: tuple[str, ...]
    clue_ranks: tuple[int, ...] = ALL_CLUE_RANKS
    special_rank: int | None = None  # "Rainbow-Ones": the ones take the suit's clue rules
    special_all_colours: bool = False
    special_no_colours: bool = False
    special_all_ranks: bool = False
    special_no_ranks: bool = False
    special_deceptive: bool = False  # touched only by the rank clue its suit's position names
    critical_rank: int | None = None  # "Critical Fours": one copy of that rank
    scarce_ones: bool = False  # one 1 fewer in each suit
    clue_starved: bool = False  # a discard or a 5 played gives half a clue token
    colour_blind: bool = False  # colour clues touch nothing (and may be given)
    rank_blind: bool = False
    alternating_clues: bool = False  # colour and rank clues take turns
    odds_and_evens: bool = False  # rank clues are "odd" (1) and "even" (2)
    synesthesia: bool = False  # colour clues also touch ranks by the colours' positions
    funnels: bool = False  # a rank clue touches that rank and every lower one
    chimneys: bool = False  # ... and every higher one
    up_or_down: bool = False
    throw_it_in_a_hole: bool = False
    cow_and_pig: bool = False
    duck: bool = False
    sudoku: bool = False
    stack_size: int = RANKS

    @property
    def max_score(self) -> int:
        return len(self.suits) * self.stack_size

    @property
    def card_ranks(self) -> tuple[int, ...]:
        """The ranks printed on its cards: 1 to the stack size, and START in Up or Down."""
        return tuple(range(1, self.stack_size + 1)) + ((START_RANK,) if self.up_or_down else ())

    def copies(self, s: int, rank: int) -> int:
        """Copies of the card of rank ``rank`` in suit ``s`` (0: no such card)."""
        kind = self.suits[s]
        if rank == START_RANK:
            return 1 if self.up_or_down else 0
        if not 1 <= rank <= self.stack_size:
            return 0
        if kind.one_of_each or self.critical_rank == rank:
            return 1
        if self.sudoku:
            return 2
        if rank == 1:
            if self.up_or_down or kind.reversed:
                return 1
            return 2 if self.scarce_ones else 3
        if rank == RANKS:
            return 3 if kind.reversed else 1
        return 2

    def cards(self) -> int:
        return sum(self.copies(s, r) for s in range(len(self.suits)) for r in self.card_ranks)

    def touches(self, colour: int | None, rank: int | None, s: int, card_rank: int) -> bool:
        """Whether a clue (a colour by its index in ``clue_colours``, or a rank) touches the
        card of rank ``card_rank`` in suit ``s``. The suit's own rules come first, then the
        special rank's, as hanab.live applies them."""
        kind = self.suits[s]
        special = card_rank == self.special_rank
        if colour is not None:
            if self.colour_blind:
                return False
            if kind.all_colours:
                return True
            if kind.no_colours:
                return False
            n = len(self.clue_colours)
            if self.synesthesia and not kind.no_ranks and colour == (card_rank - 1) % n:
                return True
            if special and self.special_all_colours:
                return True
            if special and self.special_no_colours:
                return False
            if kind.prism:  # a START card counts as rank 0: the last colour
                return colour == (n - 1 if card_rank == START_RANK else (card_rank - 1) % n)
            return self.clue_colours[colour] in kind.colours
        assert rank is not None
        if self.rank_blind:
            return False
        if kind.all_ranks:
            return True
        if kind.no_ranks:
            return False
        if self.funnels:
            return card_rank <= rank
        if self.chimneys:
            return card_rank >= rank
        if self.odds_and_evens:
            return card_rank != START_RANK and card_rank % 2 == rank % 2
        if special and self.special_all_ranks:
            return True
        if special and self.special_no_ranks:
            return False
        if special and self.special_deceptive:
            return rank == self.clue_ranks[s % len(self.clue_ranks)]
        return rank == card_rank


def _clue_colours(suits: tuple[Suit, ...]) -> tuple[str, ...]:
    """The colours a variant's clues can name: every colour of its suits, in order."""
    out: list[str] = []
    for k in suits:
        if not k.all_colours:
            out += [c for c in k.colours if c not in out]
    return tuple(out)


def make(name: str, suit_names: tuple[str, ...], **modifiers: object) -> Variant:
    suits = tuple(suit(n) for n in suit_names)
    colours = modifiers.pop("clue_colours", None)
    return Variant(
        name=name,
        suits=suits,
        clue_colours=_clue_colours(suits) if colours is None else colours,  # type: ignore[arg-type]
        **modifiers,  # type: ignore[arg-type]
    )


# --- The catalogue: hanab.live's naming rules -------------------------------------------------

BASIC: dict[int, tuple[str, ...]] = {
    1: ("Red",),
    2: ("Red", "Blue"),
    3: ("Red", "Green", "Blue"),
    4: ("Red", "Yellow", "Green", "Blue"),
    5: ("Red", "Yellow", "Green", "Blue", "Purple"),
    6: ("Red", "Yellow", "Green", "Blue", "Purple", "Teal"),
}
AMOUNTS = (6, 5, 4, 3)
SPECIAL_RANK_WORDS = {1: "Ones", 5: "Fives"}
AMBIGUOUS = {
    2: ("Tomato", "Mahogany"),
    4: ("Tomato", "Mahogany", "Berry", "Navy"),
    6: ("Tomato", "Mahogany", "Emerald", "Olive", "Berry", "Navy"),
}
VERY_AMBIGUOUS = {
    3: ("Berry", "Navy", "Sky"),
    6: ("Tomato", "Mahogany", "Carrot", "Berry", "Navy", "Sky"),
}
EXTREMELY_AMBIGUOUS = ("Ice EA", "Aqua EA", "Sky EA", "Berry EA", "Navy EA", "Ocean EA")
MATRYOSHKA = ("Ruby", "Yam", "Geas", "Beatnik", "Plum", "Taupe")
DUAL_COLOUR = {
    3: ("Tangerine", "Violet", "Jade"),
    5: ("Tangerine", "Lime", "Cyan", "Indigo", "Cardinal"),
    6: ("Tangerine", "Violet", "Maroon", "Jade", "Tan", "Cobalt"),
}
MIXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Special Mix (5 Suits)", ("Black", "Rainbow", "Pink", "White", "Brown")),
    ("Special Mix (6 Suits)", ("Black", "Rainbow", "Pink", "White", "Brown", "Null")),
    ("Ambiguous Mix", ("Tomato", "Mahogany", "Sky", "Navy", "Black", "White")),
    ("Dual-Color Mix", ("Tangerine", "Violet", "Jade", "Black", "Rainbow", "White")),
    ("Ambiguous & Dual-Color Mix", ("Peach", "Tangerine", "Magenta", "Violet", "Lime", "Jungle")),
    ("Candy Corn Mix (5 Suits)", ("Red", "Tangerine", "Yellow", "White", "Brown")),
    ("Candy Corn Mix (6 Suits)", ("Red", "Tangerine", "Yellow", "White", "Brown", "Cocoa Rainbow")),
    ("Holiday Mix (5 Suits)", ("Dark Pink", "Green", "White", "Sky", "Navy")),
    ("Holiday Mix (6 Suits)", ("Light Pink", "Red", "Green", "White", "Sky", "Navy")),
    ("Valentine Mix (5 Suits)", ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow")),
    (
        "Valentine Mix (6 Suits)",
        ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow", "Null"),
    ),
    ("RGB Mix (6 Suits)", ("Red", "Gold", "Green", "Cyan", "Blue", "Violet")),
)
# Suits whose combination with another variant's suits would repeat another variant.
SAME_AS_AMBIGUOUS = {"Rainbow", "Prism", "Dark Prism"}
NEEDS_TWO_CLUEABLE = {"Rainbow", "Prism"}
SAME_AS_SYNESTHESIA = {
    "Prism",
    "Muddy Rainbow",
    "Light Pink",
    "Pink",
    "Omni",
    "Dark Prism",
    "Cocoa Rainbow",
    "Gray Pink",
    "Dark Pink",
    "Dark Omni",
}
# Modifiers that hanab.live combines with one special suit: "Funnels & Rainbow (5 Suits)".
WITH_A_SUIT: tuple[tuple[str, dict[str, object]], ...] = (
    ("Critical Fours", {"critical_rank": 4}),
    ("Scarce Ones", {"scarce_ones": True}),
    ("Clue Starved", {"clue_starved": True}),
)
ALONE: tuple[tuple[str, dict[str, object]], ...] = (
    ("Color Blind", {"colour_blind": True}),
    ("Number Blind", {"rank_blind": True}),
    ("Totally Blind", {"colour_blind": True, "rank_blind": True}),
    ("Color Mute", {"clue_colours": ()}),
    ("Number Mute", {"clue_ranks": ()}),
)
MIN_CARDS = 25
MAX_EFFICIENCY = 1.79
PLAYER_COUNTS = (2, 3, 4, 5, 6)


def _specials() -> list[Suit]:
    return [k for k in SUITS.values() if k.special]


def _one_suit(prefix: str, mods: dict[str, object]) -> Iterator[Variant]:
    """``Prefix (N Suits)`` and ``Prefix & X (N Suits)`` for every special suit X."""
    for n in AMOUNTS:
        yield make(f"{prefix} ({n} Suits)", BASIC[n], **dict(mods))
    for k in _specials():
        for n in AMOUNTS:
            yield make(f"{prefix} & {k.name} ({n} Suits)", (*BASIC[n - 1], k.name), **dict(mods))


def _special_rank_mods(rank: int, k: Suit) -> dict[str, object]:
    mods: dict[str, object] = {"special_rank": rank}
    for trait in ("all_colours", "no_colours", "all_ranks", "no_ranks"):
        if getattr(k, trait):
            mods[f"special_{trait}"] = True
    if k.all_ranks or k.no_ranks:
        mods["clue_ranks"] = tuple(r for r in ALL_CLUE_RANKS if r != rank)
    return mods


def candidates() -> Iterator[Variant]:
    """Every variant hanab.live's naming rules make, before its filter."""
    specials = _specials()
    yield make(NO_VARIANT, BASIC[5])
    for n in (6, 4, 3):
        yield make(f"{n} Suits", BASIC[n])
    for k in specials:
        for n in AMOUNTS:
            yield make(f"{k.name} ({n} Suits)", (*BASIC[n - 1], k.name))
    for i, a in enumerate(specials):
        for b in specials[i + 1 :]:
            if a.traits == b.traits:
                continue  # too alike (Rainbow and Dark Rainbow)
            for n in AMOUNTS:
                if n == 3 and (
                    (a.name in NEEDS_TWO_CLUEABLE and (b.no_colours or b.all_colours))
                    or (b.name in NEEDS_TWO_CLUEABLE and (a.no_colours or a.all_colours))
                ):
                    continue  # with one clueable suit left, it is Ambiguous
                yield make(f"{a.name} & {b.name} ({n} Suits)", (*BASIC[n - 2], a.name, b.name))
    for rank, word in SPECIAL_RANK_WORDS.items():
        for k in specials:
            if k.one_of_each or k.prism or k.inverted:
                continue
            prefix = f"{k.name.replace(' ', '-', 1)}-{word}"
            mods = _special_rank_mods(rank, k)
            for n in AMOUNTS:
                yield make(f"{prefix} ({n} Suits)", BASIC[n], **dict(mods))
            for other in specials:
                for n in AMOUNTS:
                    yield make(
                        f"{prefix} & {other.name} ({n} Suits)",
                        (*BASIC[n - 1], other.name),
                        **dict(mods),
                    )
        deceptive: dict[str, object] = {
            "special_rank": rank,
            "special_deceptive": True,
            "clue_ranks": tuple(r for r in ALL_CLUE_RANKS if r != rank),
        }
        yield from _one_suit(f"Deceptive-{word}", deceptive)
    yield make("Ambiguous (6 Suits)", AMBIGUOUS[6])
    yield make("Ambiguous (4 Suits)", AMBIGUOUS[4])
    for k in specials:
        for n in (4, 2):
            if n + 1 == 3 and k.name in SAME_AS_AMBIGUOUS:
                continue
            yield make(f"Ambiguous & {k.name} ({n + 1} Suits)", (*AMBIGUOUS[n], k.name))
    yield make("Very Ambiguous (6 Suits)", VERY_AMBIGUOUS[6])
    yield make("Very Ambiguous (3 Suits)", VERY_AMBIGUOUS[3])
    for k in specials:
        if k.name not in SAME_AS_AMBIGUOUS:
            yield make(f"Very Ambiguous & {k.name} (4 Suits)", (*VERY_AMBIGUOUS[3], k.name))
    for n in (6, 5, 4):
        yield make(f"Extremely Ambiguous ({n} Suits)", EXTREMELY_AMBIGUOUS[:n])
    for k in specials:
        for n in (5, 4):
            if k.name not in SAME_AS_AMBIGUOUS:
                yield make(
                    f"Extremely Ambiguous & {k.name} ({n + 1} Suits)",
                    (*EXTREMELY_AMBIGUOUS[:n], k.name),
                )
    for n in AMOUNTS:
        yield make(f"Matryoshka ({n} Suits)", MATRYOSHKA[:n])
    for k in specials:
        for n in AMOUNTS:
            yield make(f"Matryoshka & {k.name} ({n} Suits)", (*MATRYOSHKA[: n - 1], k.name))
    for n in (6, 5, 3):
        yield make(f"Dual-Color ({n} Suits)", DUAL_COLOUR[n])
    for k in specials:
        for n in (5, 3):
            yield make(f"Dual-Color & {k.name} ({n + 1} Suits)", (*DUAL_COLOUR[n], k.name))
    for name, suits in MIXES:
        yield make(name, suits)
    for prefix, mods in WITH_A_SUIT:
        yield from _one_suit(prefix, mods)
    for prefix, mods in ALONE:
        for n in AMOUNTS:
            yield make(f"{prefix} ({n} Suits)", BASIC[n], **dict(mods))
    yield from _one_suit("Alternating Clues", {"alternating_clues": True})
    hidden: tuple[tuple[str, dict[str, object]], ...] = (
        ("Cow & Pig", {"cow_and_pig": True}),
        ("Duck", {"duck": True}),
    )
    for prefix, mods in hidden:
        for n in AMOUNTS:
            yield make(f"{prefix} ({n} Suits)", BASIC[n], **dict(mods))
    yield from _one_suit("Odds and Evens", {"odds_and_evens": True, "clue_ranks": (1, 2)})
    synesthesia: dict[str, object] = {"synesthesia": True, "clue_ranks": ()}
    for n in AMOUNTS:
        yield make(f"Synesthesia ({n} Suits)", BASIC[n], **dict(synesthesia))
    for k in specials:
        if k.name not in SAME_AS_SYNESTHESIA:
            for n in AMOUNTS:
                yield make(
                    f"Synesthesia & {k.name} ({n} Suits)",
                    (*BASIC[n - 1], k.name),
                    **dict(synesthesia),
                )
    for n in AMOUNTS:
        yield make(f"Reversed ({n} Suits)", (*BASIC[n][:-1], BASIC[n][-1] + REVERSED))
    for k in specials:
        if not (k.all_ranks or k.no_ranks):
            for n in AMOUNTS:
                name = k.name + REVERSED
                yield make(f"{name} ({n} Suits)", (*BASIC[n - 1], name))
    for n, basic in ((6, BASIC[4]), (5, BASIC[3]), (4, BASIC[2])):
        yield make(f"White Reversed & Rainbow ({n} Suits)", (*basic, "White Reversed", "Rainbow"))
    last: tuple[tuple[str, dict[str, object]], ...] = (
        ("Up or Down", {"up_or_down": True}),
        ("Throw It in a Hole", {"throw_it_in_a_hole": True}),
        ("Funnels", {"funnels": True}),
        ("Chimneys", {"chimneys": True}),
    )
    for prefix, mods in last:
        yield from _one_suit(prefix, mods)
    four: dict[str, object] = {"sudoku": True, "stack_size": 4, "clue_ranks": (1, 2, 3, 4)}
    yield make("Sudoku (4 Suits)", BASIC[4], **dict(four))
    yield make("Sudoku (5 Suits)", BASIC[5], sudoku=True)
    for n in (4, 5):
        for k in specials:
            mods = four if n == 4 else {"sudoku": True}
            yield make(f"Sudoku & {k.name} ({n} Suits)", (*BASIC[n - 1], k.name), **dict(mods))


def hand_size(players: int) -> int:
    """hanab.live's cards a hand: 5 with 2-3 players, 4 with 4-5, 3 with 6."""
    return 5 if players <= 3 else 4 if players <= 5 else 3


def clues_usable(variant: Variant, players: int) -> float:
    """The most clues a team can give and still reach the best score, from the start: the 8
    tokens, one for each discard the pace allows and one for each suit completed before the
    final round (halves in Clue Starved; none for suits in Throw It in a Hole)."""
    deck = variant.cards() - players * hand_size(players)
    need, turns = variant.max_score, players
    per_discard = 0.5 if variant.clue_starved else 1.0
    per_suit = 0.0 if variant.throw_it_in_a_hole else per_discard
    if need <= turns + 1:
        discards = deck - 1
    elif need <= turns + deck:
        discards = turns + deck - need
    else:
        discards = 0
    suits = 0
    if per_suit:
        plays = min(need, turns + deck) - min(need, turns + 1)
        stack = variant.stack_size
        suits = min(len(variant.suits), plays // stack)
    return math.floor(discards * per_discard + suits * per_suit + 8)


def allowed(variant: Variant) -> bool:
    """hanab.live's filter: at least 25 cards, a starting pace of at least 0 and a required
    efficiency of at most 1.79, at every player count from 2 to 6."""
    if variant.cards() < MIN_CARDS:
        return False
    for players in PLAYER_COUNTS:
        deck = variant.cards() - players * hand_size(players)
        if players + deck - variant.max_score < 0:
            return False
        if variant.max_score / clues_usable(variant, players) > MAX_EFFICIENCY:
            return False
    return True


@functools.cache
def catalogue() -> dict[str, Variant]:
    """Every variant by name, as hanab.live lists them (supported or not)."""
    return {v.name: v for v in candidates() if allowed(v)}


class UnknownVariant(ValueError):
    """A variant name that is not in the catalogue; ``said`` says so, as a message."""

    def __init__(self, said: Message) -> None:
        super().__init__(render(said))
        self.said = said


def variant(name: str) -> Variant:
    """The variant called ``name`` (exactly as hanab.live spells it)."""
    found = catalogue().get(name)
    if found is None:
        close = [n for n in catalogue() if n.casefold() == name.casefold()]
        raise UnknownVariant(
            say(
                "hanabi.no-variant-like",
                "no variant {name!r}; did you mean {close!r}?",
                name=clipped(name),
                close=close[0],
            )
            if close
            else say(
                "hanabi.no-variant",
                "no variant {name!r} (`gametape games hanabi variant` lists them)",
                name=clipped(name),
            )
        )
    return found
