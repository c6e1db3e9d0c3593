"""What each player knew: empathy, pace, efficiency, and what an actor knew of a card.

Two levels of empathy, both from the card holder's point of view:

- ``public``: every clue the card received or missed (positive and negative information) and
  every card anyone can see on the table (played fireworks and the discard pile);
- ``seen``: the same, and also the cards in the other players' hands, which the holder sees.

The public level of anyone's card is public knowledge; the seen level of a card is shown only
to its holder (and to the spectator), since it depends on the hands the holder sees.
"""

from __future__ import annotations

from gametape.games.hanabi.deck import Deck
from gametape.games.hanabi.events import Face
from gametape.games.hanabi.stacks import next_ranks, useful
from gametape.games.hanabi.state import CLUED, RANKS, HanabiState

KNOWLEDGE_LEVELS = ("known", "playable", "trash", "clued", "blind")


_FACES: dict[tuple[int, int], tuple[Face, ...]] = {}


def _faces(deck: Deck) -> tuple[Face, ...]:
    """Every face, by its index (``Deck.index``; built once per deck shape)."""
    shape = (len(deck.suits), deck.stride)
    if shape not in _FACES:
        _FACES[shape] = tuple(
            Face(s, r) for s in range(shape[0]) for r in range(1, deck.stride + 1)
        )
    return _FACES[shape]


def seen_by(state: HanabiState, holder: int | None) -> list[int]:
    """How many copies of each face (by index) are still unseen by a player: all but the
    ones on the table, and with ``holder`` also all but the ones in the other hands (as the
    holder sees them: shown, or noted by a recorder)."""
    # The discard pile by face is ``lost``: every discarded or misplayed copy, counted.
    deck = state.deck
    left = [c - gone for c, gone in zip(deck.copies, state.lost, strict=True)]
    for suit, height in enumerate(state.fireworks):
        played = state.stacks[suit] if deck.routes else _played(deck, suit, height)
        for rank in played:
            left[deck.index(suit, rank)] -= 1
    if holder is not None:
        for seat, hand in enumerate(state.hands):
            if seat != holder:
                for order in hand:
                    face = state.seen_face(order)
                    if face is not None:
                        left[deck.index(face.suit, face.rank)] -= 1
    return left


def _played(deck: Deck, suit: int, height: int) -> list[int]:
    """The ranks on a firework of ``height`` whose order is fixed."""
    return [r for r in range(1, RANKS + 1) if deck.position(suit, r) <= height]


def seen_beside_the_hole(state: HanabiState, holder: int | None) -> list[int]:
    """``seen_by`` as a player of Throw It in a Hole knows it while the game goes on: no card
    played is shown, so only the cards discarded count (not those in the hole), and with
    ``holder`` also the other hands and the cards the others put into the hole, which the
    holder saw in their hands."""
    deck = state.deck
    left = list(deck.copies)
    holed = dict(state.hole)
    gone = [o for o in state.discards if o not in holed]
    if holder is not None:
        gone += [o for o, by in state.hole if by != holder]
        gone += [o for seat, hand in enumerate(state.hands) if seat != holder for o in hand]
    for order in gone:
        face = state.seen_face(order)
        if face is not None:
            left[deck.index(face.suit, face.rank)] -= 1
    return left


def possible_given(state: HanabiState, order: int, left: list[int]) -> tuple[Face, ...]:
    """The identities card ``order`` can be: its clues allow them and copies are ``left``."""
    packed = state.knowledge[order]
    faces = _faces(state.deck)
    return tuple(f for i, f in enumerate(faces) if packed >> i & 1 and left[i] > 0)


def possible(
    state: HanabiState, order: int, level: str = "public", holder: int | None = None
) -> tuple[Face, ...]:
    """The identities card ``order`` can still be for its holder, at ``level``."""
    if level == "seen" and holder is None:
        holder = next(s for s, h in enumerate(state.hands) if order in h)
    return possible_given(state, order, seen_by(state, holder if level == "seen" else None))


def is_playable(state: HanabiState, face: Face) -> bool:
    deck = state.deck
    if deck.routes:
        return face.rank in next_ranks(deck, state.stacks, face.suit)
    return state.fireworks[face.suit] == deck.position(face.suit, face.rank) - 1


def is_trash(state: HanabiState, face: Face) -> bool:
    """Never playable again: already played, or a card it needs first is all gone."""
    deck = state.deck
    if deck.routes:
        return face.rank not in useful(deck, state.stacks, state.lost, face.suit)
    pos = deck.position(face.suit, face.rank)
    return pos <= state.fireworks[face.suit] or pos > state.caps[face.suit]


def level_of(state: HanabiState, order: int) -> str:
    """What the holder knew of a card at this moment (public empathy): ``known`` (one
    identity), ``playable`` or ``trash`` (every identity it can be is), else ``clued`` if a clue
    touched it, else ``blind``."""
    # possible(state, order), counted without building it: this runs for every play and
    # discard indexed. A face is still possible if its clues allow it and a copy is unseen.
    packed = state.knowledge[order]
    deck = state.deck
    if deck.routes:
        return _level_on_routes(state, packed)
    played, playable, trash = _table(deck, state.fireworks, state.caps)
    copies, lost = deck.copies, state.lost
    can_be = 0
    for i in range(len(copies)):
        bit = 1 << i
        # a copy is unseen: not lost, and not the one on its firework
        if packed & bit and copies[i] - lost[i] - (played >> i & 1) > 0:
            can_be |= bit
    if can_be and not can_be & (can_be - 1):  # one bit: one identity
        return "known"
    if can_be and not can_be & ~playable:
        return "playable"
    if can_be and not can_be & ~trash:
        return "trash"
    return "clued" if packed & CLUED else "blind"


_Key = tuple[int, tuple[int, ...], tuple[int, ...]]
_TABLES: dict[_Key, tuple[Deck, int, int, int]] = {}


def _table(deck: Deck, fireworks: tuple[int, ...], caps: tuple[int, ...]) -> tuple[int, int, int]:
    """The faces (one bit each, as knowledge) played, those that would play now, and those
    that never will (played, or past a card all gone), on fireworks built in a fixed order.
    A firework grows on a play that succeeds, so most moves leave these the same and they
    are worked out once: kept by the deck's identity (an entry holds its deck, so no other
    deck takes that id)."""
    key = (id(deck), fireworks, caps)
    kept = _TABLES.get(key)
    if kept is None or kept[0] is not deck:
        if len(_TABLES) >= 1 << 14:
            _TABLES.clear()
        played = playable = trash = 0
        for suit, height in enumerate(fireworks):
            for rank in range(1, RANKS + 1):
                bit, pos = 1 << (suit * RANKS + rank - 1), deck.position(suit, rank)
                if pos <= height:
                    played |= bit
                if pos == height + 1:
                    playable |= bit
                if pos <= height or pos > caps[suit]:
                    trash |= bit
        kept = _TABLES[key] = (deck, played, playable, trash)
    return kept[1], kept[2], kept[3]


def _level_on_routes(state: HanabiState, packed: int) -> str:
    """``level_of`` where the plays decide the fireworks' order (Up or Down, Sudoku)."""
    deck, left = state.deck, seen_by(state, None)
    can_be = [f for i, f in enumerate(_faces(deck)) if packed >> i & 1 and left[i] > 0]
    if len(can_be) == 1:
        return "known"
    suits = {f.suit for f in can_be}
    nexts = {s: next_ranks(deck, state.stacks, s) for s in suits}
    if can_be and all(f.rank in nexts[f.suit] for f in can_be):
        return "playable"
    wanted = {s: useful(deck, state.stacks, state.lost, s) for s in suits}
    if can_be and all(f.rank not in wanted[f.suit] for f in can_be):
        return "trash"
    return "clued" if packed & CLUED else "blind"


def pace(state: HanabiState) -> int | None:
    """hanab.live's pace: score + cards left in the deck + players - the best score still
    reachable; undefined (None) once the deck is empty and the final turns have begun."""
    if state.final_turns is not None:
        return None
    return state.fireworks_sum + state.deck_left + state.n_players - state.max_score


def gotten(state: HanabiState) -> int:
    """hanab.live's "cards gotten": cards played successfully, plus cards in hands that a
    clue has touched and that the clues do not show to be trash (every suit and rank they
    leave open is already played or out of reach), at most the best score still reachable."""
    knowledge, deck = state.knowledge, state.deck
    if deck.routes:
        wanted = 0  # the faces not yet played and still reachable: one bit each
        for s in range(len(state.fireworks)):
            for r in useful(deck, state.stacks, state.lost, s):
                wanted |= 1 << deck.index(s, r)
    else:
        wanted = deck.all_faces & ~_table(deck, state.fireworks, state.caps)[2]
    count = state.fireworks_sum
    for hand in state.hands:
        for order in hand:
            packed = knowledge[order]
            if packed & CLUED and packed & wanted:
                count += 1
    return min(count, state.max_score)


def clues_lost(state: HanabiState) -> int:
    """hanab.live's "potential clues lost": clues given, plus one per strike, plus one for
    each 5 played at 8 clue tokens (the token it would have given back is lost)."""
    return state.clues_given + state.strikes + state.clues_wasted


def efficiency(state: HanabiState) -> float | None:
    """hanab.live's efficiency: cards gotten per potential clue lost; undefined (None)
    before any clue is lost."""
    lost = clues_lost(state)
    return round(gotten(state) / lost, 4) if lost else None


def critical(before: HanabiState, after: HanabiState) -> bool:
    """Whether a move threw away the last copy of a card still needed (the best score still
    reachable went down)."""
    return after.max_score < before.max_score
