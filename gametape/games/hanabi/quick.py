"""Hanabi's fast path for checking logs (``Ruleset.apply_many``): the moves of a dealt game
applied to a mutable scratch copy of the state, and one state built at the end.

``rules`` is the definition: every move taken here is worked out as its handler there works
it out, and anything the fast path does not take (a game at a real table, a recorder's
``see``, a face or touch recorded that may disagree) or that breaks a rule stops it before
that move, so ``rules`` applies it and words the refusal. tests/test_hanabi_quick.py holds
the two to the same states and the same refusals, on every event of a corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from msgspec.structs import replace

from gametape.events.base import Event
from gametape.games.hanabi import cards
from gametape.games.hanabi.cards import deal_problem, learn, place
from gametape.games.hanabi.events import HanabiClue, HanabiDiscard, HanabiPlay
from gametape.games.hanabi.rules import may_be_empty, nothing_playable
from gametape.games.hanabi.state import MAX_STRIKES, RANKS, HanabiState
from gametape.games.hanabi.tally import Tally

# read without a lookup, compiled (mypyc)
CLUE: Final = HanabiClue
PLAY: Final = HanabiPlay
DISCARD: Final = HanabiDiscard


def apply_many(
    state: HanabiState, events: Sequence[Event], tally: Tally | None = None
) -> tuple[HanabiState, int]:
    """The state after the longest run of ``events`` that the fast path takes, and its length;
    ``tally``, if given, is told each move it takes (the read model's facts, in one pass)."""
    deck = state.deck
    # over; at a real table (faces enter the log as they are seen); a hole the reference fold
    # keeps; fireworks whose order the plays decide (Up or Down), orange suits: the reference's
    if state.outcome is not None or state.revealed_at or deck.hole or deck.routes or deck.inverted:
        return state, 0
    faces = state.faces
    dealt, codes = cards.LAST_DEAL  # each card's face index, if the deal just checked is this
    if dealt is not faces:
        wrong, unknown, codes = deal_problem(faces, deck)
        if wrong >= 0 or unknown:
            return state, 0  # a face not known, or wrong: no state that rules.start made
    copies, unit, top = deck.copies, deck.unit, state.max_clues
    colour_masks, rank_masks, clue_ranks = deck.colour_masks, deck.rank_masks, deck.ranks
    reverse = deck.reversed
    n, total = len(state.hands), len(faces)
    end_at_max = state.setup.options.end_at_max_score
    stuck = state.setup.options.end_when_nothing_playable
    hands = [list(h) for h in state.hands]
    knowledge = list(state.knowledge)
    fireworks = list(state.fireworks)
    lost = list(state.lost)
    caps = list(state.caps)
    discards = list(state.discards)
    clues, strikes, current, next_card = state.clues, state.strikes, state.current, state.next_card
    final, max_score, wasted = state.final_turns, state.max_score, state.clues_wasted
    score, perfect = sum(state.fireworks), RANKS * len(state.fireworks)
    given, last_clue, touched = state.clues_given, state.last_clue, state.touched
    outcome: str | None = None
    taken = 0
    if tally is not None:
        tally.watch(hands, knowledge, fireworks, lost, caps, codes)
    for event in events:
        if outcome is not None:
            break
        kind = type(event)
        if kind is CLUE:
            assert isinstance(event, HanabiClue)
            target, colour, rank = event.target, event.suit, event.rank
            if event.player != current or clues < unit or not 0 <= target < n or target == current:
                break
            mask: int
            if colour is not None:
                if rank is not None or not 0 <= colour < len(colour_masks):
                    break
                mask, clue = colour_masks[colour], "colour"
            elif rank is None or rank not in clue_ranks:
                break
            else:
                mask, clue = rank_masks[rank - 1], "rank"
            if deck.alternating and last_clue == clue:
                break
            held = hands[target]
            hit = [o for o in held if mask >> codes[o] & 1]
            if event.touched is not None and set(event.touched) != set(hit):
                break
            if not hit and not may_be_empty(state, colour):
                break
            if tally is not None:
                tally.clue(event, held, hit)
            learn(knowledge, deck, held, hit, mask)
            clues -= unit
            given += 1
            last_clue = clue
            touched = tuple(hit)
            if final is not None:
                final -= 1
                if final == 0:
                    outcome = "normal"
        elif kind is PLAY or kind is DISCARD:
            assert isinstance(event, HanabiPlay | HanabiDiscard)
            card, playing, hand = event.card, kind is PLAY, hands[current]
            if event.player != current or (not playing and clues >= top):
                break
            at = place(hand, card)
            if at < 0:
                break
            if event.face is not None and event.face != faces[card]:
                break
            if tally is not None:
                tally.card_moved(playing, card, len(hand) - at, event.face is not None)
            i = codes[card]
            suit = i // RANKS
            rank = i - suit * RANKS + 1
            pos = RANKS + 1 - rank if reverse and reverse[suit] else rank
            if playing and fireworks[suit] == pos - 1:
                fireworks[suit] = pos
                score += 1
                if pos == RANKS and clues < top:
                    clues += 1
                elif pos == RANKS:
                    wasted += 1
            else:
                if playing:
                    strikes += 1
                else:
                    clues += 1
                discards.append(card)
                lost[i] += 1
                if lost[i] == copies[i] and caps[suit] >= pos:
                    max_score -= caps[suit] - (pos - 1)
                    caps[suit] = pos - 1
            hand.pop(at)
            if final is not None:
                final -= 1
            if next_card < total:
                hand.append(next_card)
                next_card += 1
                if next_card == total:
                    final = n
            if strikes >= MAX_STRIKES:
                outcome = "strikeout"
            elif score == perfect:
                outcome = "perfect"
            elif final == 0 or (end_at_max and score >= max_score):
                outcome = "normal"
            touched = ()
        else:
            break
        if tally is not None:
            tally.after(clues, strikes, next_card, final, max_score, given, wasted)
        current = (current + 1) % n
        taken += 1
        if (
            outcome is None
            and stuck
            and nothing_playable(state, hands, fireworks, caps, final, current)
        ):
            outcome = "normal"
    if not taken:
        return state, 0
    return replace(
        state,
        hands=tuple(map(tuple, hands)),
        knowledge=tuple(knowledge),
        next_card=next_card,
        fireworks=tuple(fireworks),
        discards=tuple(discards),
        lost=tuple(lost),
        caps=tuple(caps),
        clues=clues,
        strikes=strikes,
        current=current,
        moves=state.moves + taken,
        final_turns=final,
        max_score=max_score,
        outcome=outcome,
        applied=state.applied + taken,
        clues_given=given,
        clues_wasted=wasted,
        touched=touched,
        last_clue=last_clue,
    ), taken
