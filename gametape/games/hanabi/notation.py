"""Hanabi notation for people: ``play 2``, ``discard 5``, ``clue bob red``, ``clue bob 4``.

Slots count from 1, newest card first. See docs/notation.md.
"""

from __future__ import annotations

from gametape.engine.moves import number, seat_named
from gametape.engine.ruleset import NotationError
from gametape.events.base import Event
from gametape.games.hanabi.events import Face, HanabiClue, HanabiDiscard, HanabiPlay
from gametape.games.hanabi.rules import touched_by
from gametape.games.hanabi.state import HanabiState

USAGE = "expected `play SLOT`, `discard SLOT`, `clue PLAYER SUIT` or `clue PLAYER RANK`"


def suit_letters(suits: tuple[str, ...]) -> tuple[str, ...]:
    """Short suit names for cards (``r3``): first letters, longer where two would clash."""
    for n in range(1, max(map(len, suits)) + 1):
        short = tuple(s[:n].lower() for s in suits)
        if len(set(short)) == len(short):
            return short
    return tuple(s.lower() for s in suits)


def card_name(face: Face | None, suits: tuple[str, ...]) -> str:
    return "??" if face is None else f"{suit_letters(suits)[face.suit]}{face.rank}"


def slot_of(state: HanabiState, seat: int, order: int) -> int:
    hand = state.hands[seat]
    return len(hand) - hand.index(order)


def _suit(state: HanabiState, word: str) -> int | None:
    suits = [s.lower() for s in state.setup.options.suits]
    if word in suits:
        return suits.index(word)
    starts = [i for i, s in enumerate(suits) if s.startswith(word)]
    return starts[0] if len(starts) == 1 else None


def parse(state: HanabiState, text: str, seat: int | None) -> Event:
    words = text.lower().replace(",", " ").split()
    seat = state.current if seat is None else seat
    if not words:
        raise NotationError(f"empty move; {USAGE}")
    verb = words[0]
    if verb in ("play", "discard") and len(words) == 2:
        hand = state.hands[seat]
        slot = number(words[1])
        if slot is None:
            raise NotationError(f"slot {words[1]!r} is not a number; {USAGE}")
        if not 1 <= slot <= len(hand):
            raise NotationError(
                f"no slot {slot}: {state.setup.players[seat]} holds {len(hand)} cards "
                f"(slot 1 is the newest)")
        order = hand[len(hand) - slot]
        kind = HanabiPlay if verb == "play" else HanabiDiscard
        return kind(player=seat, card=order)
    if verb == "clue" and len(words) == 3:
        target = seat_named(state.setup.players, words[1])
        value = words[2]
        rank = number(value)
        if rank is not None:
            return HanabiClue(player=seat, target=target, rank=rank)
        suit = _suit(state, value)
        if suit is None:
            raise NotationError(f"no suit {value!r}; the suits are "
                                f"{', '.join(state.setup.options.suits)}")
        return HanabiClue(player=seat, target=target, suit=suit)
    raise NotationError(f"cannot read {text!r}; {USAGE}")


def notation(state: HanabiState, event: Event) -> str:
    if isinstance(event, HanabiPlay | HanabiDiscard):
        verb = "play" if isinstance(event, HanabiPlay) else "discard"
        return f"{verb} {slot_of(state, event.player, event.card)}"
    if isinstance(event, HanabiClue):
        target = state.setup.players[event.target]
        value = state.setup.options.suits[event.suit] if event.suit is not None else event.rank
        return f"clue {target} {value}"
    raise NotationError(f"not a Hanabi move: {event!r}")


def describe(before: HanabiState, event: Event, after: HanabiState,
             seat: int | None = None) -> str:
    """One line of what changed, e.g. ``bob played r3 from slot 2 → red 3; drew y1``.

    As the drawer sees it, the drawn card is just ``a card``.
    """
    names = before.setup.players
    suits = before.setup.options.suits
    if isinstance(event, HanabiPlay | HanabiDiscard):
        who = names[event.player]
        slot = slot_of(before, event.player, event.card)
        face = after.faces[event.card]
        card = card_name(face, suits)
        if isinstance(event, HanabiDiscard):
            text = f"{who} discarded {card} from slot {slot} → {after.clues} clue tokens"
        elif after.strikes > before.strikes:
            text = f"{who} misplayed {card} from slot {slot} → strike {after.strikes}"
        else:
            text = f"{who} played {card} from slot {slot} → {suits[face.suit]} {face.rank}"  # type: ignore[union-attr]
            if after.clues > before.clues:
                text += " (+1 clue)"
        if after.next_card > before.next_card:
            drawn = ("a card" if seat == event.player
                     else card_name(after.faces[before.next_card], suits))
            text += f"; drew {drawn}"
        if before.final_turns is None and after.final_turns is not None:
            text += f"; deck empty: {after.final_turns} turns left"
    elif isinstance(event, HanabiClue):
        value = suits[event.suit] if event.suit is not None else str(event.rank)
        touched = touched_by(before, event.target, event.suit, event.rank, event.touched)
        slots = ", ".join(str(slot_of(before, event.target, o)) for o in touched)
        text = (f"{names[event.player]} told {names[event.target]} {value}: "
                f"slot{'s' if len(touched) > 1 else ''} {slots}")
    else:
        text = str(event)
    if after.outcome and not before.outcome:
        text += f" — game over: {after.outcome}, {after.score} points"
    return text


def kinds(before: HanabiState, event: Event, after: HanabiState) -> tuple[str, ...]:
    """``play`` (and ``strike`` for a misplay), ``discard``, ``clue`` and ``clue to NAME``."""
    if isinstance(event, HanabiPlay):
        return ("play", "strike") if after.strikes > before.strikes else ("play",)
    if isinstance(event, HanabiDiscard):
        return ("discard",)
    if isinstance(event, HanabiClue):
        return ("clue", f"clue to {before.setup.players[event.target]}")
    return ()
