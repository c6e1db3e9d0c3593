"""Hanabi's rules, as ../shared/rules/hanabi.md states them (docs/rulesets/hanabi.md)."""

from __future__ import annotations

from msgspec.structs import replace

from gametape.engine.hanabi.state import (
    ALL_RANKS,
    MAX_CLUES,
    MAX_STRIKES,
    RANKS,
    HanabiState,
    Knowledge,
    hand_size,
    max_reachable,
)
from gametape.engine.ruleset import RuleViolation
from gametape.events.base import Abandon, Event
from gametape.events.hanabi import Face, HanabiClue, HanabiDiscard, HanabiPlay, HanabiSetup

# The rules quoted by refusals.
R_SEATS = "players are seats 0 to N-1"
R_TURN = "players act one at a time in seat order"
R_OWN_CARD = "a player plays or discards a card from their own hand"
R_CLUE_TOKEN = "a clue needs at least one clue token"
R_CLUE_OTHER = "a clue names another player"
R_CLUE_ONE = "a clue names exactly one suit or one rank"
R_CLUE_TOUCH = "a clue must touch at least one card"
R_DISCARD_8 = "a discard is allowed only when fewer than 8 clue tokens are available"
R_OBSERVED = "what a log observed must match what the rules derive"
R_FACE_KNOWN = "a play or discard of a card whose face is not in the deck must record the face"
R_SETUP = "a setup has 2-5 players, ranks 1-5 and a deck matching the copies per suit"


def start(setup: HanabiSetup) -> HanabiState:
    """Deal in blocks: seat 0 takes cards 0..H-1, seat 1 the next H, and so on."""
    opts = setup.options
    n = len(setup.players)
    n_suits = len(opts.suits)
    if not 2 <= n <= 5:
        raise RuleViolation(f"{n} players", R_SETUP)
    if len(opts.copies) != RANKS or min(opts.copies) < 1:
        raise RuleViolation(f"copies {list(opts.copies)}: need 5 counts of at least 1", R_SETUP)
    if not n_suits:
        raise RuleViolation("no suits", R_SETUP)
    if len(setup.deck) != n_suits * sum(opts.copies):
        raise RuleViolation(
            f"the deck has {len(setup.deck)} cards; {n_suits} suits of "
            f"{sum(opts.copies)} make {n_suits * sum(opts.copies)}", R_SETUP)
    if not 0 <= opts.starting_seat < n:
        raise RuleViolation(f"starting seat {opts.starting_seat}", R_SEATS)
    counts = [0] * (n_suits * RANKS)
    for face in setup.deck:
        if face is not None:
            _check_face(face, n_suits, "deck")
            counts[face.suit * RANKS + face.rank - 1] += 1
    for i, c in enumerate(counts):
        if c > opts.copies[i % RANKS]:
            raise RuleViolation(
                f"the deck holds {c} copies of {opts.suits[i // RANKS]} {i % RANKS + 1}", R_SETUP)
    h = hand_size(n)
    hands = tuple(tuple(range(i * h, (i + 1) * h)) for i in range(n))
    fresh = Knowledge((1 << n_suits) - 1, ALL_RANKS)
    lost = (0,) * (n_suits * RANKS)
    return HanabiState(
        setup=setup,
        faces=setup.deck,
        hands=hands,
        knowledge=(fresh,) * len(setup.deck),
        next_card=n * h,
        fireworks=(0,) * n_suits,
        discards=(),
        lost=lost,
        current=opts.starting_seat,
        final_turns=n if n * h >= len(setup.deck) else None,
        max_score=max_reachable(lost, opts.copies, n_suits),
    )


def apply(state: HanabiState, event: Event) -> HanabiState:
    """The state after ``event``. Raises RuleViolation naming the rule broken."""
    kind = type(event)
    if kind is HanabiPlay:
        return _play(state, event)  # type: ignore[arg-type]
    if kind is HanabiDiscard:
        return _discard(state, event)  # type: ignore[arg-type]
    if kind is HanabiClue:
        return _clue(state, event)  # type: ignore[arg-type]
    if kind is Abandon:
        return replace(state, outcome="terminated")
    raise RuleViolation(f"a {event.__struct_config__.tag} event in a Hanabi game",
                        "a Hanabi log holds only Hanabi events")


def _check_face(face: Face, n_suits: int, where: str) -> None:
    if not (0 <= face.suit < n_suits and 1 <= face.rank <= RANKS):
        raise RuleViolation(f"{where}: no card [{face.suit}, {face.rank}] in this deck", R_SETUP)


def _check_turn(state: HanabiState, seat: int) -> None:
    names = state.setup.players
    if not 0 <= seat < len(names):
        raise RuleViolation(f"no player at seat {seat}", R_SEATS)
    if seat != state.current:
        raise RuleViolation(
            f"out of turn: it is {names[state.current]}'s turn, not {names[seat]}'s", R_TURN)


def _check_own(state: HanabiState, seat: int, card: int) -> None:
    if card not in state.hands[seat]:
        raise RuleViolation(
            f"card #{card} is not in {state.setup.players[seat]}'s hand", R_OWN_CARD)


def _reveal(state: HanabiState, card: int, observed: Face | None) -> tuple[Face, tuple]:
    known = state.faces[card]
    if observed is not None:
        _check_face(observed, len(state.fireworks), f"card #{card}")
        if known is not None and known != observed:
            raise RuleViolation(
                f"card #{card} is [{known.suit}, {known.rank}] in the deck but the log records "
                f"[{observed.suit}, {observed.rank}]", R_OBSERVED)
        if known is None:
            faces = list(state.faces)
            faces[card] = observed
            return observed, tuple(faces)
        return known, state.faces
    if known is None:
        raise RuleViolation(f"the face of card #{card} is unknown", R_FACE_KNOWN)
    return known, state.faces


def _finish(state: HanabiState, seat: int, card: int, **changes: object) -> HanabiState:
    """Remove ``card`` from the hand, draw, advance the turn and check the end."""
    hand = tuple(c for c in state.hands[seat] if c != card)
    next_card = state.next_card
    final = state.final_turns
    if final is not None:
        final -= 1
    if next_card < len(state.setup.deck):
        hand += (next_card,)
        next_card += 1
        if next_card == len(state.setup.deck):
            final = state.n_players  # everyone, the drawer included, takes one more turn
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
    return _end_check(replace(state, hands=hands, next_card=next_card, final_turns=final,
                              **changes))


def _advance(state: HanabiState, **changes: object) -> HanabiState:
    final = state.final_turns
    if final is not None:
        final -= 1
    return _end_check(replace(state, final_turns=final, **changes))


def _end_check(state: HanabiState) -> HanabiState:
    outcome = None
    score = sum(state.fireworks)
    if state.strikes >= MAX_STRIKES:
        outcome = "strikeout"
    elif score == RANKS * len(state.fireworks):
        outcome = "perfect"
    elif state.final_turns == 0 or (state.setup.options.end_at_max_score
                                    and score >= state.max_score):
        outcome = "normal"
    nxt = (state.current + 1) % state.n_players
    return replace(state, current=nxt, moves=state.moves + 1, outcome=outcome)


def _play(state: HanabiState, event: HanabiPlay) -> HanabiState:
    seat, card = event.player, event.card
    _check_turn(state, seat)
    _check_own(state, seat, card)
    face, faces = _reveal(state, card, event.face)
    fireworks = state.fireworks
    if fireworks[face.suit] == face.rank - 1:
        fireworks = fireworks[: face.suit] + (face.rank,) + fireworks[face.suit + 1 :]
        clues = state.clues + 1 if face.rank == RANKS and state.clues < MAX_CLUES else state.clues
        return _finish(state, seat, card, faces=faces, fireworks=fireworks, clues=clues)
    return _finish(state, seat, card, faces=faces, strikes=state.strikes + 1,
                   **_lose(state, card, face))


def _discard(state: HanabiState, event: HanabiDiscard) -> HanabiState:
    seat, card = event.player, event.card
    _check_turn(state, seat)
    if state.clues >= MAX_CLUES:
        raise RuleViolation(f"{state.setup.players[seat]} cannot discard with 8 clue tokens",
                            R_DISCARD_8)
    _check_own(state, seat, card)
    face, faces = _reveal(state, card, event.face)
    return _finish(state, seat, card, faces=faces, clues=state.clues + 1,
                   **_lose(state, card, face))


def _lose(state: HanabiState, card: int, face: Face) -> dict[str, object]:
    i = face.suit * RANKS + face.rank - 1
    lost = state.lost[:i] + (state.lost[i] + 1,) + state.lost[i + 1 :]
    best = max_reachable(lost, state.setup.options.copies, len(state.fireworks))
    return {"discards": (*state.discards, card), "lost": lost, "max_score": best}


def touched_by(state: HanabiState, target: int, suit: int | None, rank: int | None,
               recorded: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """The cards of ``target``'s hand a clue touches (from the faces, or as recorded)."""
    hand = state.hands[target]
    faces = state.faces
    if any(faces[o] is None for o in hand):
        if recorded is None:
            raise RuleViolation(
                f"the faces of {state.setup.players[target]}'s cards are unknown, so the clue "
                "must record the cards it touched", R_OBSERVED)
        stray = [o for o in recorded if o not in hand]
        if stray:
            raise RuleViolation(f"the clue records cards {stray} that are not in the hand",
                                R_OBSERVED)
        return tuple(o for o in hand if o in recorded)
    if suit is not None:
        derived = tuple(o for o in hand if faces[o].suit == suit)  # type: ignore[union-attr]
    else:
        derived = tuple(o for o in hand if faces[o].rank == rank)  # type: ignore[union-attr]
    if recorded is not None and set(recorded) != set(derived):
        raise RuleViolation(f"the clue touches {list(derived)} but the log records "
                            f"{sorted(recorded)}", R_OBSERVED)
    return derived


def _clue(state: HanabiState, event: HanabiClue) -> HanabiState:
    seat, target = event.player, event.target
    names = state.setup.players
    _check_turn(state, seat)
    if state.clues <= 0:
        raise RuleViolation("no clue tokens are left", R_CLUE_TOKEN)
    if not 0 <= target < len(names):
        raise RuleViolation(f"no player at seat {target}", R_SEATS)
    if target == seat:
        raise RuleViolation(f"{names[seat]} cannot clue themselves", R_CLUE_OTHER)
    suit, rank = event.suit, event.rank
    if (suit is None) == (rank is None):
        raise RuleViolation("the clue names both or neither of a suit and a rank", R_CLUE_ONE)
    if suit is not None and not 0 <= suit < len(state.fireworks):
        raise RuleViolation(f"no suit {suit}", R_CLUE_ONE)
    if rank is not None and not 1 <= rank <= RANKS:
        raise RuleViolation(f"no rank {rank}", R_CLUE_ONE)
    touched = touched_by(state, target, suit, rank, event.touched)
    if not touched:
        what = state.setup.options.suits[suit] if suit is not None else str(rank)
        raise RuleViolation(f"{what} touches no card in {names[target]}'s hand", R_CLUE_TOUCH)
    knowledge = list(state.knowledge)
    for o in state.hands[target]:
        k = knowledge[o]
        hit = o in touched
        if suit is not None:
            bit = 1 << suit
            k = Knowledge(bit, k.ranks, True) if hit else Knowledge(k.suits & ~bit, k.ranks,
                                                                    k.clued)
        else:
            bit = 1 << (rank - 1)  # type: ignore[operator]
            k = Knowledge(k.suits, bit, True) if hit else Knowledge(k.suits, k.ranks & ~bit,
                                                                    k.clued)
        knowledge[o] = k
    return _advance(state, knowledge=tuple(knowledge), clues=state.clues - 1)


def legal_moves(state: HanabiState, seat: int) -> list[Event]:
    """Every legal move for ``seat``: plays, discards (below 8 tokens), touching clues."""
    if state.outcome is not None or seat != state.current:
        return []
    hand = state.hands[seat]
    moves: list[Event] = [HanabiPlay(player=seat, card=o) for o in hand]
    if state.clues < MAX_CLUES:
        moves += [HanabiDiscard(player=seat, card=o) for o in hand]
    if state.clues > 0:
        for target in range(state.n_players):
            if target == seat:
                continue
            faces = [state.faces[o] for o in state.hands[target]]
            if any(f is None for f in faces):
                continue
            for s in sorted({f.suit for f in faces}):  # type: ignore[union-attr]
                moves.append(HanabiClue(player=seat, target=target, suit=s))
            for r in sorted({f.rank for f in faces}):  # type: ignore[union-attr]
                moves.append(HanabiClue(player=seat, target=target, rank=r))
    return moves
