"""What one player can see: every hand but their own, and what clues told them."""

from __future__ import annotations

import msgspec

from gametape.engine.ruleset import ONLOOKER, told_to
from gametape.games.hanabi.deck import HIDDEN_COLOUR, HIDDEN_RANK, Deck
from gametape.games.hanabi.events import Face, HanabiClue
from gametape.games.hanabi.knowledge import (
    efficiency,
    pace,
    possible_given,
    seen_beside_the_hole,
    seen_by,
)
from gametape.games.hanabi.state import RANKS, HanabiState, Knowledge


def hide_value(deck: Deck, event: HanabiClue) -> HanabiClue:
    """``event`` as a seat that did not give it is told it, in a variant that hides a clue's
    value: Cow & Pig tells its kind, Duck nothing but that it was given."""
    if deck.hidden_clues == "kind":
        if event.suit is not None:
            return msgspec.structs.replace(event, suit=HIDDEN_COLOUR, rank=None)
        return msgspec.structs.replace(event, suit=None, rank=HIDDEN_RANK)
    return msgspec.structs.replace(event, suit=None, rank=None)


class CardView(msgspec.Struct, frozen=True, kw_only=True):
    """A card in a hand as the viewer sees it. ``face`` is None when hidden from the viewer.

    ``suits``/``ranks`` are what its holder knows from clues (clues are public).
    """

    order: int
    face: Face | None
    clued: bool
    touched: bool  # by the clue that led to this position
    suits: tuple[int, ...]
    ranks: tuple[int, ...]
    # Empathy (gametape.games.hanabi.knowledge): what the holder knows it can still be, from
    # clues and public cards (everyone may see this), and also from the other hands (shown to
    # the holder and the spectator only; None otherwise).
    possible: tuple[Face, ...]
    possible_seen: tuple[Face, ...] | None


class HanabiView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view (``seat`` None: the omniscient view; ``ONLOOKER``: the table's, every
    hand hidden as from its holder). Hands are newest card first."""

    ruleset: str
    seat: int | None
    players: tuple[str, ...]
    suits: tuple[str, ...]
    copies: tuple[int, ...]  # of each face, by its index (suit * stride + rank - 1)
    current: int
    turn: int
    hands: tuple[tuple[CardView, ...], ...]
    fireworks: tuple[int, ...]
    discards: tuple[Face | None, ...]
    clues: int | float  # tokens; halves in Clue Starved
    strikes: int
    deck: int
    score: int
    fireworks_sum: int
    max_score: int
    final_turns: int | None
    outcome: str | None
    pace: int | None  # hanab.live's pace; None once the deck is empty
    efficiency: float | None  # hanab.live's: cards gotten per clue lost
    table: bool = False  # dealt at a real table: a face nobody recorded is unknown, not hidden
    variant: str = "No Variant"
    letters: tuple[str, ...] = ()  # each suit's short name, as cards are written (r3)
    colours: tuple[str, ...] = ()  # what a colour clue can name, by index
    clue_ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    last_clue: str | None = None  # the kind of the last clue (Alternating Clues)
    reversed: tuple[bool, ...] = ()  # per suit, built from 5 down to 1 (empty: none is)
    # Up or Down and Sudoku, where the plays decide each firework's order: the ranks played on
    # each, in order (a START card is rank 7, as in hanab.live), the deck's ``routes`` and
    # the faces' stride in ``copies``
    stacks: tuple[tuple[int, ...], ...] = ()
    routes: str = ""
    stride: int = RANKS
    inverted: tuple[bool, ...] = ()  # per suit, orange (Play discards it; empty: none is)
    notices: tuple[str, ...] = ()  # at a table, what the viewer is told of notes made void
    # Throw It in a Hole, while the game goes on: the cards in the hole (the fireworks,
    # strikes and score are not shown); None where everything is shown
    in_hole: int | None = None


def view(state: HanabiState, seat: int | None) -> HanabiView:
    n_suits = len(state.fireworks)
    # Throw It in a Hole: while the game goes on no player (nor the table) sees what was
    # played, how it played, the strikes or the score
    hole = state.deck.hole and state.outcome is None and seat is not None
    count = seen_beside_the_hole if hole else seen_by
    public = count(state, None)
    private = {h: count(state, h) for h in range(len(state.hands)) if seat in (None, h)}
    memo: dict[tuple[int, int | None], tuple[Face, ...]] = {}
    unpacked: dict[int, Knowledge] = {}

    def can_be(order: int, holder: int | None, left: list[int]) -> tuple[Face, ...]:
        # Cards with the same clue knowledge seen from the same place share an answer.
        key = (state.knowledge[order], holder)
        if key not in memo:
            memo[key] = possible_given(state, order, left)
        return memo[key]

    hands = []
    for holder, hand in enumerate(state.hands):
        cards = []
        for order in reversed(hand):
            packed = state.knowledge[order]
            k = unpacked.get(packed) or unpacked.setdefault(
                packed, Knowledge.of(packed, n_suits, state.deck.stride)
            )
            cards.append(
                CardView(
                    order=order,
                    face=None if holder == seat or seat == ONLOOKER else state.seen_face(order),
                    clued=k.clued,
                    touched=order in state.touched,
                    suits=k.suits,
                    ranks=k.ranks,
                    possible=can_be(order, None, public),
                    possible_seen=can_be(order, holder, private[holder])
                    if seat is None or seat == holder
                    else None,
                )
            )
        hands.append(tuple(cards))
    deck = state.deck
    holed = dict(state.hole) if hole else {}
    return HanabiView(
        ruleset="hanabi",
        seat=seat,
        players=state.setup.players,
        suits=deck.suits,
        copies=deck.copies,
        current=state.current,
        turn=state.moves + 1,
        hands=tuple(hands),
        fireworks=(0,) * n_suits if hole else state.fireworks,
        discards=tuple(state.faces[o] for o in state.discards if o not in holed),
        clues=state.clue_tokens,
        strikes=0 if hole else state.strikes,
        deck=state.deck_left,
        score=0 if hole else state.score,
        fireworks_sum=0 if hole else state.fireworks_sum,
        max_score=deck.stack_size * n_suits if hole else state.max_score,
        final_turns=state.final_turns,
        outcome=state.outcome,
        pace=None if hole else pace(state),
        efficiency=None if hole else efficiency(state),
        table=state.at_table,
        variant=deck.name,
        letters=deck.letters,
        colours=deck.colours,
        clue_ranks=deck.ranks,
        last_clue=state.last_clue,
        reversed=deck.reversed,
        stacks=() if hole else state.stacks,
        routes=deck.routes,
        stride=deck.stride,
        inverted=deck.inverted,
        notices=told_to(state.notices, seat, state.setup.players) if state.notices else (),
        in_hole=len(state.hole) if hole else None,
    )
