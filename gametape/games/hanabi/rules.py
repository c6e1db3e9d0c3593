"""Hanabi's rules, as ../shared/rules/hanabi.md states them (docs/rulesets/hanabi.md).

Written for speed as well as clarity: each move builds its successor state with one
``replace``; refusals are raised from small helpers off the common path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from msgspec.structs import replace

from gametape.engine.ruleset import Notice, RuleViolation, on
from gametape.events.base import Event
from gametape.games.hanabi.cards import deal_problem, learn
from gametape.games.hanabi.deck import Deck, deck_of
from gametape.games.hanabi.events import (
    DEFAULT_COPIES,
    DEFAULT_SUITS,
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiOptions,
    HanabiPlay,
    HanabiSee,
    HanabiSetup,
)
from gametape.games.hanabi.stacks import best_heights, next_ranks
from gametape.games.hanabi.state import (
    MAX_CLUES,
    MAX_STRIKES,
    MAX_SUITS,
    RANK_SHIFT,
    RANKS,
    HanabiState,
    hand_size,
)
from gametape.games.hanabi.variants import NO_VARIANT, UnknownVariant
from gametape.games.hanabi.words import card_words, clue_words, face_words, rank_word
from gametape.messages import At, Message, Param, many, say, seat_of, term

T = TypeVar("T")

# The rules quoted by refusals.
R_SEATS = say("hanabi.rule.seats", "players are seats 0 to N-1")
R_OWN_CARD = say("hanabi.rule.own-card", "a player plays or discards a card from their own hand")
R_CLUE_TOKEN = say("hanabi.rule.clue-token", "a clue needs at least one clue token")
R_CLUE_OTHER = say("hanabi.rule.clue-other", "a clue names another player")
R_CLUE_ONE = say("hanabi.rule.clue-one", "a clue names exactly one suit or one rank")
R_CLUE_TOUCH = say("hanabi.rule.clue-touch", "a clue must touch at least one card")
R_DISCARD_8 = say(
    "hanabi.rule.discard-8", "a discard is allowed only when fewer than 8 clue tokens are available"
)
R_OBSERVED = say(
    "hanabi.rule.observed",
    "a card has one face: what the log records of it must agree with what it showed",
)
R_FACE_KNOWN = say(
    "hanabi.rule.face-known",
    "at a table the deck is not known: a play or discard says the card's face",
)
R_SETUP = say(
    "hanabi.rule.setup",
    "a setup has 2-6 players and a deck of the game's cards, each face at most as often as the "
    "game has copies of it",
)
R_CLUE_FACTS = say(
    "hanabi.rule.clue-facts",
    "a card's face agrees with every clue its holder received, touched or not",
)
R_COPIES = say("hanabi.rule.copies", "no face is seen more often than the deck holds copies of it")
R_SEE = say("hanabi.rule.see", "a recorder notes faces of cards in one player's hand")
R_VARIANT = say(
    "hanabi.rule.variant", "a variant is one of hanab.live's, by its name, and brings its own suits"
)
R_CLUE_VALUE = say(
    "hanabi.rule.clue-value",
    "a clue names one of the colours or ranks the variant's clues can name",
)
R_ALTERNATING = say(
    "hanabi.rule.alternating", "in Alternating Clues, a colour clue and a rank clue take turns"
)


@cache  # asked for every game started: the options' own rules, checked once per options
def _deck(opts: HanabiOptions) -> Deck:
    """The deck of a game with these options, the suits, copies and variant checked."""
    if len(opts.copies) != RANKS or min(opts.copies) < 1:
        raise RuleViolation(
            say(
                "hanabi.setup-2",
                "copies [{copies}]: need 5 counts of at least 1",
                copies=many(opts.copies),
            ),
            R_SETUP,
        )
    if not 1 <= len(opts.suits) <= MAX_SUITS:
        raise RuleViolation(
            say("hanabi.setup-3", "{n_suits} suits", n_suits=len(opts.suits)), R_SETUP
        )
    try:
        deck = deck_of(opts)
    except UnknownVariant as exc:
        raise RuleViolation(exc.said, R_VARIANT) from None
    if opts.variant != NO_VARIANT and (
        opts.suits != DEFAULT_SUITS or opts.copies != DEFAULT_COPIES
    ):
        raise RuleViolation(
            say(
                "hanabi.variant",
                "variant {variant!r} brings its own suits and copies; the suits and copies "
                "options are for No Variant",
                variant=opts.variant,
            ),
            R_VARIANT,
        )
    return deck


def start(setup: HanabiSetup) -> HanabiState:
    """Deal in blocks: seat 0 takes cards 0..H-1, seat 1 the next H, and so on."""
    opts = setup.options
    n = len(setup.players)
    if not 2 <= n <= 6:
        raise RuleViolation(say("hanabi.setup", "{n} players", n=n), R_SETUP)
    deck = _deck(opts)
    n_suits = len(deck.suits)
    if len(setup.deck) != sum(deck.copies):
        raise RuleViolation(
            say(
                "hanabi.deck-size-variant",
                "the deck has {cards} cards; {variant} has {size}",
                cards=len(setup.deck),
                variant=term("hanabi.variant", deck.name),
                size=sum(deck.copies),
            )
            if opts.variant != NO_VARIANT
            else say(
                "hanabi.deck-size",
                "the deck has {cards} cards; {suits} suits of {copies} make {size}",
                cards=len(setup.deck),
                suits=n_suits,
                copies=sum(opts.copies),
                size=n_suits * sum(opts.copies),
            ),
            R_SETUP,
        )
    if not 0 <= opts.starting_seat < n:
        raise RuleViolation(
            say("hanabi.seats", "starting seat {starting_seat}", starting_seat=opts.starting_seat),
            R_SEATS,
        )
    wrong, at_table, _ = deal_problem(setup.deck, deck)  # compiled: for every game folded
    if wrong >= 0:
        face = setup.deck[wrong]
        assert face is not None
        _check_face(face, deck, say("hanabi.deck", "deck"))  # a face the deck has no card of
        raise RuleViolation(
            say(
                "hanabi.setup-8",
                "the deck holds {c} copies of {suit} {rank}",
                c=setup.deck.count(face),
                suit=deck.suits[face.suit],
                rank=rank_word(face.rank),
            ),
            R_SETUP,
        )
    if opts.one_extra_card and opts.one_less_card:
        raise RuleViolation(
            say("hanabi.setup-4", "one extra card and one less card at once"), R_SETUP
        )
    h = hand_size(n) + opts.one_extra_card - opts.one_less_card
    if at_table != setup.at_table:
        raise RuleViolation(
            say(
                "hanabi.setup-5",
                'the deck has cards of unknown face (null), but the setup does not say "table": '
                "true (a game recorded at a real table)",
            )
            if at_table
            else say(
                "hanabi.setup-6",
                'the setup says "table": true, but the deck names every face: at a real table the '
                "deck is not known (null faces)",
            ),
            R_SETUP,
        )
    return HanabiState(
        setup=setup,
        deck=deck,
        faces=setup.deck,
        hands=dealt(n, h),
        knowledge=(deck.all_faces,) * len(setup.deck),
        next_card=n * h,
        fireworks=(0,) * n_suits,
        discards=(),
        lost=(0,) * (n_suits * deck.stride),
        caps=(deck.stack_size,) * n_suits,
        stacks=((),) * n_suits if deck.routes else (),
        clues=MAX_CLUES * deck.unit,
        current=opts.starting_seat,
        final_turns=n if n * h >= len(setup.deck) else None,
        max_score=deck.stack_size * n_suits,
        revealed_at=(0,) * len(setup.deck) if at_table else (),
        clue_log=((),) * len(setup.deck) if at_table else (),
        noted=(None,) * len(setup.deck) if at_table else (),
        noted_at=(0,) * len(setup.deck) if at_table else (),
    )


@cache  # asked for every game started
def dealt(n: int, h: int) -> tuple[tuple[int, ...], ...]:
    """The hands as dealt in blocks: seat 0 holds cards 0..h-1, seat 1 the next h, ..."""
    return tuple(tuple(range(i * h, (i + 1) * h)) for i in range(n))


def to_act(state: HanabiState) -> tuple[int, ...]:
    return () if state.outcome else (state.current,)


def is_over(state: HanabiState) -> bool:
    return state.outcome is not None


def _check_face(face: Face, deck: Deck, where: Param) -> None:
    if not deck.has(face.suit, face.rank):
        raise RuleViolation(
            say(
                "hanabi.no-such-face",
                "{where}: no card [{suit}, {rank}] in this deck",
                where=where,
                suit=face.suit,
                rank=face.rank,
            ),
            R_SETUP,
        )


def _reveal(
    state: HanabiState, card: int, observed: Face | None
) -> tuple[Face, tuple[Face | None, ...], tuple[int, ...]]:
    """The face of ``card``: from the deck, or as observed (checked against what is known).

    Returns the face, the faces and ``revealed_at`` after it. At a real table a new face is
    checked against the clues its holder received and against the copies the deck holds; a
    contradiction names the earlier event.
    """
    known = state.faces[card]
    if observed is None:
        if known is None:
            raise RuleViolation(
                say(
                    "hanabi.face-known",
                    "say which card it was: the face of {words} is not known yet (e.g. p2 r3)",
                    words=card_words(state, card),
                ),
                R_FACE_KNOWN,
            )
        return known, state.faces, state.revealed_at
    _check_face(observed, state.deck, card_words(state, card))
    suits = state.deck.suits
    if known is not None:
        if known != observed:
            raise RuleViolation(
                say(
                    "hanabi.observed-2",
                    "{card} is recorded as {face}, but seq {at} showed it as {known}",
                    card=card_words(state, card),
                    face=face_words(observed, suits),
                    known=face_words(known, suits),
                    at=At(state.revealed_at[card]),
                )
                if state.at_table and state.revealed_at[card]
                else say(
                    "hanabi.observed-3",
                    "{card} is {known} in the deck, but the log records {face}",
                    card=card_words(state, card),
                    known=face_words(known, suits),
                    face=face_words(observed, suits),
                ),
                R_OBSERVED,
            )
        return known, state.faces, state.revealed_at
    if state.at_table:
        _check_clues(state, card, observed)
        _check_copies(state, observed)
    faces = state.faces[:card] + (observed,) + state.faces[card + 1 :]
    revealed_at = state.revealed_at
    if revealed_at:
        revealed_at = revealed_at[:card] + (state.applied + 1,) + revealed_at[card + 1 :]
    return observed, faces, revealed_at


def _reaches(state: HanabiState, colour: int | None, rank: int | None, face: Face) -> bool:
    deck = state.deck
    return bool(deck.mask(colour, rank) >> deck.index(face.suit, face.rank) & 1)


def _against(
    state: HanabiState, card: int, face: Face
) -> tuple[int, int | None, int | None, Message] | None:
    """The first clue that ``card``'s holder received and ``face`` contradicts: its seq,
    colour, rank, and what it did to the card (touched it, or did not); None if none is."""
    for at, value, touched in state.clue_log[card]:  # a value is a colour, or a rank shifted
        colour, rank = (value, None) if value < RANK_SHIFT else (None, value - RANK_SHIFT + 1)
        if _reaches(state, colour, rank, face) != touched:
            said = (
                say("hanabi.clue-touched", "touched")
                if touched
                else say("hanabi.clue-missed", "did not touch")
            )
            return at, colour, rank, said
    return None


def _check_clues(state: HanabiState, card: int, face: Face) -> None:
    """A face must agree with every clue its holder received, touched or not."""
    against = _against(state, card, face)
    if against is not None:
        at, colour, rank, said = against
        raise RuleViolation(
            say(
                "hanabi.clue-facts",
                "{card} is recorded as {face}, but the {clue} clue at seq {at} {said} it",
                card=card_words(state, card),
                face=face_words(face, state.deck.suits),
                clue=clue_words(state.deck, colour, rank),
                at=At(at),
                said=said,
            ),
            R_CLUE_FACTS,
        )


def _check_copies(state: HanabiState, face: Face, notes: bool = False) -> None:
    """No face is seen more often than the deck holds copies of it: counting the faces
    shown, and with ``notes`` the recorder's notes too (a note is checked by whoever sees
    them all; a card shown is never refused for a note, DESIGN: claims and facts)."""
    copies = state.deck.copies[state.deck.index(face.suit, face.rank)]
    seen = [o for o, f in enumerate(state.faces) if f == face]
    if notes:
        seen += [o for o, f in enumerate(state.noted) if f == face]
    if len(seen) >= copies:
        where = many(
            say("hanabi.at-seq", "seq {at}", at=At(at))
            for at in sorted(state.revealed_at[o] or state.noted_at[o] for o in seen)
        )
        raise RuleViolation(
            say(
                "hanabi.copies",
                "a {face} is recorded, but the deck holds {copies} and {seen} were already seen "
                "(at {where})",
                face=face_words(face, state.deck.suits),
                copies=copies,
                seen=len(seen),
                where=where,
            ),
            R_COPIES,
        )


def _outcome(
    state: HanabiState, strikes: int, fireworks: tuple[int, ...], max_score: int, final: int | None
) -> str | None:
    """How a play or discard that leaves these ends the game, if it does (a game not over
    meets no end, so only what the move changed can end it; hanab.live's end is apart)."""
    if strikes >= MAX_STRIKES:
        return "strikeout"
    score = sum(fireworks)
    if score == state.deck.stack_size * len(fireworks):
        return "perfect"
    if final == 0 or (state.setup.options.end_at_max_score and score >= max_score):
        return "normal"
    return None


@on(HanabiPlay, HanabiDiscard)
def _play_or_discard(state: HanabiState, event: HanabiPlay | HanabiDiscard) -> HanabiState:
    seat, card = event.player, event.card  # the fold saw that it is this seat's turn
    play_button = type(event) is HanabiPlay
    clues, top = state.clues, state.max_clues
    if not play_button and clues >= top:  # the button: its holder may not know the card
        raise RuleViolation(
            say(
                "hanabi.discard-8",
                "{player} cannot discard with 8 clue tokens",
                player=seat_of(state.setup.players, seat),
            ),
            R_DISCARD_8,
        )
    hand = state.hands[seat]
    try:
        slot = hand.index(card)
    except ValueError:
        raise RuleViolation(
            say(
                "hanabi.own-card",
                "the deck's card {card} is not in {player}'s hand",
                card=card + 1,
                player=seat_of(state.setup.players, seat),
            ),
            R_OWN_CARD,
        ) from None
    faces, revealed_at = state.faces, state.revealed_at
    face = faces[card]
    if face is None or event.face is not None:
        face, faces, revealed_at = _reveal(state, card, event.face)
    suit, rank = face.suit, face.rank
    # an orange card goes the other way: Play discards it, Discard plays it
    playing = state.deck.lands_on_firework(suit, play_button)
    fireworks, strikes, wasted = state.fireworks, state.strikes, state.clues_wasted
    discards, lost, caps, max_score = state.discards, state.lost, state.caps, state.max_score
    deck, stacks = state.deck, state.stacks
    if deck.routes:  # the plays decide the order (Up or Down, Sudoku)
        pos = len(stacks[suit]) + 1
        fits = rank in next_ranks(deck, stacks, suit)
    else:
        pos = deck.position(suit, rank)  # the rank, or 6 - rank in a reversed suit
        fits = fireworks[suit] == pos - 1
    hole = (*state.hole, (card, seat)) if playing and deck.hole else state.hole
    if playing and fits:
        fireworks = fireworks[:suit] + (pos,) + fireworks[suit + 1 :]
        if deck.routes:
            stacks = stacks[:suit] + ((*stacks[suit], rank),) + stacks[suit + 1 :]
        if pos == deck.stack_size and deck.hole:
            pass  # into the hole: a suit completed gives no clue token, which would tell it
        elif pos == deck.stack_size and clues < top:  # a suit completed gives a token back
            clues += 1
        elif pos == deck.stack_size:
            wasted += 1
    else:
        if playing:
            strikes += 1
        elif clues < top:  # (only an orange card played at 8 tokens is discarded at 8)
            clues += 1
        discards = discards + (card,)
        i = deck.index(suit, rank)
        lost = lost[:i] + (lost[i] + 1,) + lost[i + 1 :]
        if not deck.routes and lost[i] == deck.copies[i] and caps[suit] >= pos:  # (routes: below)
            max_score -= caps[suit] - (pos - 1)
            caps = caps[:suit] + (pos - 1,) + caps[suit + 1 :]
    if deck.routes:
        caps = best_heights(deck, stacks, lost)
        max_score = sum(caps)
    # draw; once the deck is empty everyone, the drawer included, takes one more turn
    hand = hand[:slot] + hand[slot + 1 :]
    next_card, final = state.next_card, state.final_turns
    if final is not None:
        final -= 1
    if next_card < len(faces):
        hand += (next_card,)
        next_card += 1
        if next_card == len(faces):
            final = len(state.hands)
    outcome = _outcome(state, strikes, fireworks, max_score, final)
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
    after = (seat + 1) % len(hands)
    if outcome is None and nothing_playable(state, hands, fireworks, caps, final, after, stacks):
        outcome = "normal"
    done = replace(
        state,
        faces=faces,
        hands=hands,
        next_card=next_card,
        fireworks=fireworks,
        discards=discards,
        lost=lost,
        caps=caps,
        stacks=stacks,
        clues=clues,
        strikes=strikes,
        current=(seat + 1) % len(state.hands),
        moves=state.moves + 1,
        final_turns=final,
        max_score=max_score,
        outcome=outcome,
        applied=state.applied + 1,
        revealed_at=revealed_at,
        clues_wasted=wasted,
        touched=(),
        hole=hole,
    )
    return _settle_notes(state, done) if revealed_at else done


def touched_by(
    state: HanabiState,
    target: int,
    suit: int | None,
    rank: int | None,
    recorded: tuple[int, ...] | None = None,
) -> tuple[int, ...]:
    """The cards of ``target``'s hand a clue touches (from the faces, or as recorded);
    ``suit`` is the clue's colour (an index into the deck's colours)."""
    hand = state.hands[target]
    faces, deck = state.faces, state.deck
    mask = deck.mask(suit, rank)
    try:
        derived = tuple(
            o
            for o in hand
            if mask >> deck.index(faces[o].suit, faces[o].rank) & 1  # type: ignore[union-attr]
        )
    except AttributeError:  # a face is unknown: trust what the recorder saw
        if recorded is None:
            raise RuleViolation(
                say(
                    "hanabi.observed-4",
                    "the faces of {target}'s cards are unknown, so the clue must record the cards "
                    "it touched",
                    target=seat_of(state.setup.players, target),
                ),
                R_OBSERVED,
            ) from None
        stray = [o for o in recorded if o not in hand]
        if stray:
            raise RuleViolation(
                say(
                    "hanabi.observed-5",
                    "the clue records cards [{stray}] that are not in the hand",
                    stray=many(stray),
                ),
                R_OBSERVED,
            ) from None
        for o in hand:  # faces already seen must agree with what the clue touched
            face = faces[o]
            if face is None:
                continue
            if _reaches(state, suit, rank, face) != (o in recorded):
                suits = state.deck.suits
                said = (
                    say("hanabi.clue-touches", "touches")
                    if o in recorded
                    else say("hanabi.clue-misses", "misses")
                )
                where = (
                    say("hanabi.seq-showed", "seq {at} showed", at=At(state.revealed_at[o]))
                    if state.revealed_at[o]
                    else say("hanabi.deck-has", "the deck has")
                )
                raise RuleViolation(
                    say(
                        "hanabi.clue-against-face",
                        "the {clue} clue {said} {card}, but {where} it as {face}",
                        clue=clue_words(state.deck, suit, rank),
                        said=said,
                        card=card_words(state, o),
                        where=where,
                        face=face_words(face, suits),
                    ),
                    R_CLUE_FACTS,
                ) from None
        return tuple(o for o in hand if o in recorded)
    if recorded is not None and set(recorded) != set(derived):
        raise RuleViolation(
            say(
                "hanabi.observed",
                "the clue touches [{derived}] but the log records [{recorded}]",
                derived=many(derived),
                recorded=many(sorted(recorded)),
            ),
            R_OBSERVED,
        )
    return derived


def nothing_playable(
    state: HanabiState,
    hands: Sequence[Sequence[int]],
    fireworks: Sequence[int],
    caps: Sequence[int],
    final: int | None,
    current: int,
    stacks: Sequence[tuple[int, ...]] = (),
) -> bool:
    """hanab.live's end (option ``end_when_nothing_playable``): the deck is out, and no card
    that could still go on a firework is in the hand of a player with a turn to come. Those
    who took their final turn are the ``n - final`` seats before ``current``, the next to act
    (the one who drew the last card has one turn more). A face not known may be playable."""
    if final is None or not state.setup.options.end_when_nothing_playable:
        return False
    n, faces, deck = len(hands), state.faces, state.deck
    done = {(current - j) % n for j in range(1, n - final + 1)}
    for suit, top in enumerate(fireworks):
        if top >= deck.stack_size or caps[suit] <= top:
            continue  # complete, or its next card is lost
        ranks = (
            next_ranks(deck, stacks, suit)
            if deck.routes
            else (deck.position(suit, top + 1),)  # the rank at the next position
        )
        for seat, hand in enumerate(hands):
            if seat in done:
                continue
            for order in hand:
                face = faces[order]
                if face is None or (face.suit == suit and face.rank in ranks):
                    return False
    return True


def may_be_empty(state: HanabiState, colour: int | None) -> bool:
    """Whether a clue may touch no card: hanab.live's empty-clues option, or a variant whose
    clues of that kind touch nothing (Color Blind, Number Blind)."""
    deck = state.deck
    return state.setup.options.empty_clues or (
        deck.empty_colour if colour is not None else deck.empty_rank
    )


@on(HanabiClue)
def _clue(state: HanabiState, event: HanabiClue) -> HanabiState:
    seat, target, suit, rank = event.player, event.target, event.suit, event.rank
    deck = state.deck
    if state.clues < deck.unit:
        raise RuleViolation(
            say("hanabi.no-clue-tokens", "no clue tokens are left")
            if state.clues <= 0
            else say("hanabi.half-a-clue-token", "half a clue token is left"),
            R_CLUE_TOKEN,
        )
    n = len(state.hands)
    if not 0 <= target < n:
        raise RuleViolation(
            say("hanabi.seats-2", "no player at seat {target}", target=target), R_SEATS
        )
    if target == seat:
        raise RuleViolation(
            say(
                "hanabi.clue-other",
                "{player} cannot clue themselves",
                player=seat_of(state.setup.players, seat),
            ),
            R_CLUE_OTHER,
        )
    if (suit is None) == (rank is None):
        raise RuleViolation(
            say("hanabi.clue-one", "the clue names both or neither of a suit and a rank"),
            R_CLUE_ONE,
        )
    if suit is not None and not 0 <= suit < len(deck.colours):
        variant = term("hanabi.variant", deck.name)
        raise RuleViolation(
            say(
                "hanabi.no-such-colour",
                "no colour {colour}: {variant} has colours 0-{last}",
                colour=suit,
                variant=variant,
                last=len(deck.colours) - 1,
            )
            if deck.colours
            else say(
                "hanabi.no-colour-clues",
                "no colour {colour}: {variant} has no colour clues",
                colour=suit,
                variant=variant,
            ),
            R_CLUE_VALUE,
        )
    if rank is not None and rank not in deck.ranks:
        if not 1 <= rank <= RANKS:
            raise RuleViolation(say("hanabi.clue-one-2", "no rank {rank}", rank=rank), R_CLUE_ONE)
        can = many(term("hanabi.rank", deck.rank_word(r)) for r in deck.ranks)
        raise RuleViolation(
            say(
                "hanabi.no-such-rank-clue",
                "{variant} has no {rank} clue (rank clues: {can})",
                variant=term("hanabi.variant", deck.name),
                rank=rank,
                can=can if deck.ranks else say("hanabi.none", "none"),
            ),
            R_CLUE_VALUE,
        )
    kind = "colour" if suit is not None else "rank"
    if deck.alternating and state.last_clue == kind:
        raise RuleViolation(
            say(
                "hanabi.alternating-rank",
                "the last clue was a colour clue, so this one must be a rank clue",
            )
            if kind == "colour"
            else say(
                "hanabi.alternating-colour",
                "the last clue was a rank clue, so this one must be a colour clue",
            ),
            R_ALTERNATING,
        )
    hand = state.hands[target]
    mask = deck.mask(suit, rank)
    touched = list(touched_by(state, target, suit, rank, event.touched))
    if not touched and not may_be_empty(state, suit):
        raise RuleViolation(
            say(
                "hanabi.clue-touch",
                "{clue} touches no card in {target}'s hand",
                clue=clue_words(deck, suit, rank),
                target=seat_of(state.setup.players, target),
            ),
            R_CLUE_TOUCH,
        )
    knowledge = list(state.knowledge)
    learn(knowledge, deck, list(hand), touched, mask)
    clue_log = state.clue_log
    if clue_log and not deck.hidden_clues:  # a value only its giver knows is no fact
        fact = (state.applied + 1, suit if suit is not None else RANK_SHIFT + rank - 1)  # type: ignore[operator]
        log = list(clue_log)
        for o in hand:
            log[o] = (*log[o], (*fact, o in touched))
        clue_log = tuple(log)
    final = state.final_turns
    if final is not None:
        final -= 1
    # A clue changes no firework, strike or lost card: only the last turn can end the game,
    # or a final turn taken (hanab.live's end, where nothing playable is left to play)
    after = (seat + 1) % n
    ended = final == 0 or nothing_playable(
        state, state.hands, state.fireworks, state.caps, final, after, state.stacks
    )
    done = replace(
        state,
        knowledge=tuple(knowledge),
        clues=state.clues - deck.unit,
        current=after,
        moves=state.moves + 1,
        final_turns=final,
        outcome="normal" if ended else None,
        applied=state.applied + 1,
        clues_given=state.clues_given + 1,
        clue_log=clue_log,
        touched=tuple(touched),
        last_clue=kind,
    )
    return _settle_notes(state, done) if clue_log else done


@on(HanabiSee)
def _see(state: HanabiState, event: HanabiSee) -> HanabiState:
    """Faces a recorder saw in one hand: at a table each is a note, a claim every seat but
    the holder sees (DESIGN: claims and facts), checked against the faces shown, the clues,
    the copies and the notes so far (its enterer sees them all); in a dealt game each is
    checked against the deck."""
    if not 0 <= event.target < len(state.hands):
        raise RuleViolation(
            say("hanabi.seats-3", "no player at seat {target}", target=event.target), R_SEATS
        )
    if len(event.cards) != len(event.faces) or not event.cards:
        raise RuleViolation(say("hanabi.see", "the faces seen do not match the cards named"), R_SEE)
    hand = state.hands[event.target]
    probe = state
    this = state.applied + 1
    for card, face in zip(event.cards, event.faces, strict=True):
        if card not in hand:
            raise RuleViolation(
                say(
                    "hanabi.see-2",
                    "the deck's card {card} is not in {target}'s hand",
                    card=card + 1,
                    target=seat_of(state.setup.players, event.target),
                ),
                R_SEE,
            )
        noted = probe.noted[card] if probe.noted else None
        if probe.faces[card] is not None or not probe.at_table:
            _reveal(probe, card, face)  # a face shown already, or the deck's: the same
            continue
        _check_face(face, state.deck, card_words(state, card))
        if noted is not None and noted != face:
            raise RuleViolation(
                say(
                    "hanabi.noted-2",
                    "{card} is noted as {face}, but the note at seq {at} saw it as {noted}",
                    card=card_words(state, card),
                    face=face_words(face, state.deck.suits),
                    noted=face_words(noted, state.deck.suits),
                    at=At(probe.noted_at[card]),
                ),
                R_OBSERVED,
            )
        if noted is None:
            _check_clues(probe, card, face)
            _check_copies(probe, face, notes=True)
        probe = replace(
            probe,
            noted=_put(probe.noted, card, face),
            noted_at=_put(probe.noted_at, card, this),
        )
    return replace(probe, applied=this)


def _put(values: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return values[:i] + (value,) + values[i + 1 :]


def _settle_notes(before: HanabiState, after: HanabiState) -> HanabiState:
    """After a move at a table: each recorder's note that a fact now contradicts is void
    (the card shown as another face, a clue that touched it or not, every copy of its face
    shown elsewhere), and notes that together claim more copies of a face than are left are
    in dispute; each a notice, told to the seats that saw the note (never its holder). A
    note its card's showing confirms is dropped: the face is a fact now."""
    if not any(after.noted_at):
        return after
    noted, noted_at = list(after.noted), list(after.noted_at)
    notices = list(after.notices)
    names, suits, copies = after.setup.players, after.deck.suits, after.deck.copies
    this = after.applied
    shown = Counter(f for f in after.faces if f is not None)
    for o, face in enumerate(after.noted):
        if face is None:
            continue
        fact = after.faces[o]
        why: Message | None = None
        if fact is not None:
            why = (
                None
                if fact == face
                else say(
                    "hanabi.note-shown",
                    "seq {now} showed it as {fact}",
                    now=At(this),
                    fact=face_words(fact, suits),
                )
            )
        else:
            against = _against(after, o, face)
            if against is not None:
                at, colour, rank, said = against
                why = say(
                    "hanabi.note-clued",
                    "the {clue} clue at seq {at} {said} it",
                    clue=clue_words(after.deck, colour, rank),
                    at=At(at),
                    said=said,
                )
            elif shown[face] >= copies[after.deck.index(face.suit, face.rank)]:
                why = say(
                    "hanabi.note-all-shown",
                    "every {face} was shown elsewhere",
                    face=face_words(face, suits),
                )
            else:
                continue
        noted[o], noted_at[o] = None, 0
        if why is None:
            continue  # confirmed: the card's face is a fact now
        holder = next(s for s, h in enumerate((*before.hands, *after.hands)) if o in h) % len(names)
        named = {"card": card_words(before, o), "face": face_words(face, suits), "why": why}
        notices.append(
            Notice(
                at=this,
                message=say(
                    "hanabi.note-void",
                    "the note at seq {at} saw {card} as {face}, and {why}: the note is void",
                    at=At(after.noted_at[o]),
                    **named,
                ),
                seats=tuple(s for s in range(len(names)) if s != holder),
                told=say(
                    "hanabi.note-void-told",
                    "a note saw {card} as {face}, and {why}: the note no longer counts",
                    **named,
                ),
            )
        )
    by_face: dict[Face, list[int]] = {}
    for o, face in enumerate(noted):
        if face is not None:
            by_face.setdefault(face, []).append(o)
    for face, cards in by_face.items():
        if shown[face] + len(cards) <= copies[after.deck.index(face.suit, face.rank)]:
            continue
        holders = {next(s for s, h in enumerate(after.hands) if o in h) for o in cards}
        dispute = Notice(
            at=this,
            message=say(
                "hanabi.notes-dispute",
                "the notes at {seqs} see more {face} cards than are left: they are in dispute",
                seqs=many(say("hanabi.at-seq", "seq {at}", at=At(noted_at[o])) for o in cards),
                face=face_words(face, suits),
            ),
            seats=tuple(s for s in range(len(names)) if s not in holders),
            told=say(
                "hanabi.notes-dispute-told",
                "notes see more {face} cards than are left: they are in dispute",
                face=face_words(face, suits),
            ),
        )
        if not any(n.message == dispute.message for n in notices):
            notices.append(dispute)
    return replace(after, noted=tuple(noted), noted_at=tuple(noted_at), notices=tuple(notices))


def legal_moves(state: HanabiState, seat: int) -> list[Event]:
    """Every legal move for ``seat``: plays, discards (below 8 tokens), and the clues the
    variant allows that touch a card (or touch none, where an empty clue is allowed)."""
    if state.outcome is not None or seat != state.current:
        return []
    hand = state.hands[seat]
    moves: list[Event] = [HanabiPlay(player=seat, card=o) for o in hand]
    if state.clues < state.max_clues:
        moves += [HanabiDiscard(player=seat, card=o) for o in hand]
    if state.clues < state.deck.unit:
        return moves
    deck = state.deck
    kinds = [k for k in ("colour", "rank") if not (deck.alternating and state.last_clue == k)]
    for target in range(state.n_players):
        if target == seat:
            continue
        faces = [state.faces[o] for o in state.hands[target]]
        if any(f is None for f in faces):
            continue
        held = 0
        for f in faces:
            held |= 1 << deck.index(f.suit, f.rank)  # type: ignore[union-attr]
        if "colour" in kinds:
            for c, mask in enumerate(deck.colour_masks):
                if mask & held or may_be_empty(state, c):
                    moves.append(HanabiClue(player=seat, target=target, suit=c))
        if "rank" in kinds:
            for r in deck.ranks:
                if deck.rank_masks[r - 1] & held or may_be_empty(state, None):
                    moves.append(HanabiClue(player=seat, target=target, rank=r))
    return moves


def hypothesis(events: Sequence[Event], seat: int) -> list[Event] | None:
    """The game as ``seat`` saw it, recorded as at a table: no deck, every card's face as it
    was shown (a play or a discard names it, a clue the cards it touched), and at the end
    the faces the seat sees in the other hands (a recorder's ``see``); the seat's own cards
    in hand stay unknown."""
    from gametape.engine.fold import walk_live
    from gametape.engine.registry import ruleset_for  # the game's own, looked up

    setup = events[0]
    assert isinstance(setup, HanabiSetup)
    rules = ruleset_for(setup)
    deck = deck_of(setup.options)
    if deck.hidden_clues or deck.hole:
        return None  # a clue's value, a card in the hole: a table log would have to name it
    seen: list[Event] = [replace(setup, deck=(None,) * len(setup.deck), table=True)]
    state = rules.start(setup)
    for event, before, after in walk_live(rules, events):
        if isinstance(event, HanabiPlay | HanabiDiscard):
            event = replace(event, face=before.faces[event.card])
        elif isinstance(event, HanabiClue):
            event = replace(event, touched=after.touched)
        elif isinstance(event, HanabiSee):
            continue  # a recorder's note: the faces it saw are noted at the end
        seen.append(event)
        state = after
    for holder, hand in enumerate(state.hands if state.outcome is None else ()):
        faces = tuple(state.faces[o] for o in hand)
        if holder != seat and hand and None not in faces:
            seen.append(HanabiSee(target=holder, cards=hand, faces=faces))  # type: ignore[arg-type]
    return seen
