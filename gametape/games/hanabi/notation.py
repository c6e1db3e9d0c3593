"""Hanabi notation for people: ``play 2``, ``discard 5``, ``clue bob red``, ``clue bob 4``;
at a real table ``p2 r3`` (plays slot 2, it was a red 3), ``c ben r 13`` (red, touching slots 1
and 3) and ``see ben r1 ? y2``.

Slots count from 1, newest card first. See docs/notation.md.
"""

from __future__ import annotations

import re

from gametape.engine.moves import number, seat_named, split_words
from gametape.engine.ruleset import ONLOOKER, NotationError
from gametape.events.base import Event
from gametape.games.hanabi.deck import Deck, rank_mark, suit_letters
from gametape.games.hanabi.events import (
    DEFAULT_SUITS,
    HANABLIVE_SUITS,
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiPlay,
    HanabiSee,
)
from gametape.games.hanabi.state import HanabiState
from gametape.games.hanabi.variants import NO_VARIANT, START_RANK
from gametape.games.hanabi.words import clue_words, face_words
from gametape.messages import Message, Param, many, say, seat_of, term

USAGE = say(
    "hanabi.usage",
    "expected `play SLOT [CARD]`, `discard SLOT [CARD]`, `clue PLAYER SUIT|RANK [SLOTS]` "
    "or `see PLAYER CARD|? ...` (short: `p2 r3`, `d1`, `c ben r 13`)",
)


def canonical(deck: Deck) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """One name per suit in the read model, and the letters: in "No Variant" hanab.live's
    names (purple) read as the published game's (white); a variant's suits are its own
    (there "white" is hanab.live's White, the suit no colour clue touches)."""
    if deck.name == NO_VARIANT and deck.suits == HANABLIVE_SUITS:
        return DEFAULT_SUITS, suit_letters(DEFAULT_SUITS)
    return deck.suits, deck.letters


def card_name(face: Face | None, letters: tuple[str, ...]) -> str:
    """``r3``: the suit's letter and the rank (``rs`` for Up or Down's START; ``??`` for a
    face not known)."""
    if face is None:
        return "??"
    return f"{letters[face.suit]}{rank_mark(face.rank)}"


def slot_of(state: HanabiState, seat: int, order: int) -> int:
    hand = state.hands[seat]
    return len(hand) - hand.index(order)


def _named(names: tuple[str, ...], letters: tuple[str, ...], word: str) -> int | None:
    """A suit or colour by its letter, its name (spaces left out) or a unique prefix of it."""
    if word in letters:
        return letters.index(word)
    squeezed = [n.replace(" ", "") for n in names]
    if word in squeezed:
        return squeezed.index(word)
    starts = [i for i, n in enumerate(squeezed) if n.startswith(word)]
    return starts[0] if len(starts) == 1 else None


def _suit(state: HanabiState, word: str) -> int | None:
    return _named(state.deck.suits, state.deck.letters, word)


def _colour(state: HanabiState, word: str) -> int | None:
    return _named(state.deck.colours, state.deck.colour_letters, word)


def _rank_clue(state: HanabiState, word: str) -> int | None:
    """A rank clue's value: a number, or ``odd``/``even`` in Odds and Evens."""
    if state.deck.odd_even and word in ("odd", "even", "o", "e"):
        return 1 if word[0] == "o" else 2
    return number(word)


_COMPACT = re.compile(r"([pd])([0-9]+)\Z")
VERBS = {
    "play": "play",
    "p": "play",
    "discard": "discard",
    "d": "discard",
    "clue": "clue",
    "c": "clue",
    "hint": "clue",
    "see": "see",
    "s": "see",
}


def _slot_order(state: HanabiState, seat: int, word: str) -> int:
    hand = state.hands[seat]
    slot = number(word)
    if slot is None:
        raise NotationError(
            say(
                "hanabi.slot-not-number",
                "slot {word!r} is not a number; {usage}",
                word=word,
                usage=USAGE,
            )
        )
    if not 1 <= slot <= len(hand):
        raise NotationError(
            say(
                "hanabi.no-such-slot",
                "no slot {slot}: {player} holds {cards} cards (slot 1 is the newest)",
                slot=slot,
                player=seat_of(state.setup.players, seat),
                cards=len(hand),
            )
        )
    return hand[len(hand) - slot]


def parse_face(state: HanabiState, word: str) -> Face:
    """``r3``, ``red3``: a suit (a unique prefix of its name) and a rank; in Up or Down
    ``rs`` or ``redstart`` names a START card."""
    deck = state.deck
    start = START_RANK in deck.card_ranks and re.fullmatch(r"([a-z]+?)(?:s|start)", word)
    m = start or re.fullmatch(r"([a-z]+)([0-9])", word)
    suit = _suit(state, m.group(1)) if m else None
    rank = START_RANK if start else number(m.group(2)) if m else None
    if m is None or suit is None or rank is None or not deck.has(suit, rank):
        letters = ", ".join(deck.letters)
        raise NotationError(
            say(
                "hanabi.not-a-card-start",
                "{word!r} is not a card: a suit ({letters}) and a rank 1-5 or s (START), "
                "e.g. r3 or rs",
                word=word,
                letters=letters,
            )
            if START_RANK in deck.card_ranks
            else say(
                "hanabi.not-a-card",
                "{word!r} is not a card: a suit ({letters}) and a rank 1-{top}, e.g. r3",
                word=word,
                letters=letters,
                top=deck.stack_size,
            )
        )
    return Face(suit, rank)


def _slots(state: HanabiState, target: int, words: list[str]) -> tuple[int, ...]:
    """Touched slots, written ``1,3``, ``1 3`` or ``13`` (slots are single digits)."""
    text = "".join(words)
    if not text.isascii() or not text.isdigit():
        raise NotationError(
            say(
                "hanabi.touched-slots",
                "touched slots {slots!r}: write them like 1,3 or 13",
                slots=" ".join(words),
            )
        )
    return tuple(sorted({_slot_order(state, target, ch) for ch in text}))


def parse_move(state: HanabiState, text: str, seat: int | None) -> Event:
    words = split_words(text.lower().replace(",", " "))
    seat = state.current if seat is None else seat
    if not words:
        raise NotationError(say("hanabi.empty-move", "empty move; {usage}", usage=USAGE))
    compact = _COMPACT.match(words[0])
    if compact:
        words = [compact.group(1), compact.group(2), *words[1:]]
    verb = VERBS.get(words[0])
    if verb in ("play", "discard") and len(words) in (2, 3):
        order = _slot_order(state, seat, words[1])
        face = parse_face(state, words[2]) if len(words) == 3 else None
        kind = HanabiPlay if verb == "play" else HanabiDiscard
        return kind(player=seat, card=order, face=face)
    if verb == "clue" and len(words) >= 3:
        target = seat_named(state.setup.players, words[1])
        value = words[2]
        touched = _slots(state, target, words[3:]) if len(words) > 3 else None
        rank = _rank_clue(state, value)
        if rank is not None:
            return HanabiClue(player=seat, target=target, rank=rank, touched=touched)
        colour = _colour(state, value)
        if colour is None:
            deck = state.deck
            can = (
                many(term("hanabi.colour", c) for c in deck.colours)
                if deck.colours
                else say("hanabi.no-colours", "none in this variant")
            )
            raise NotationError(
                say(
                    "hanabi.no-clue-colour",
                    "no colour {value!r}; clue colours: {can}",
                    value=value,
                    can=can,
                )
            )
        return HanabiClue(player=seat, target=target, suit=colour, touched=touched)
    if verb == "see" and len(words) >= 3:
        target = seat_named(state.setup.players, words[1])
        hand = state.hands[target]
        if len(words) - 2 > len(hand):
            raise NotationError(
                say(
                    "hanabi.hand-size",
                    "{target} holds {cards} cards",
                    target=seat_of(state.setup.players, target),
                    cards=len(hand),
                )
            )
        seen = [
            (hand[len(hand) - 1 - i], parse_face(state, w))
            for i, w in enumerate(words[2:])
            if w not in ("?", "-")
        ]
        if not seen:
            raise NotationError(
                say(
                    "hanabi.say-a-face",
                    "say at least one face, slot 1 first (? for a card not seen)",
                )
            )
        return HanabiSee(
            target=target, cards=tuple(c for c, _ in seen), faces=tuple(f for _, f in seen)
        )
    raise NotationError(
        say("hanabi.cannot-read", "cannot read {text!r}; {usage}", text=text, usage=USAGE)
    )


def _player(name: str) -> str:
    return f'"{name}"' if " " in name else name


def notation(state: HanabiState, event: Event) -> str:
    letters = state.deck.letters
    if isinstance(event, HanabiPlay | HanabiDiscard):
        verb = "play" if isinstance(event, HanabiPlay) else "discard"
        text = f"{verb} {slot_of(state, event.player, event.card)}"
        return text + (f" {card_name(event.face, letters)}" if event.face is not None else "")
    if isinstance(event, HanabiClue):
        target = _player(state.setup.players[event.target])
        value = state.deck.clue_word(event.suit, event.rank).replace(" ", "")
        text = f"clue {target} {value}"
        if event.touched is not None:
            text += " " + ",".join(
                str(slot_of(state, event.target, o))
                for o in sorted(event.touched, key=lambda o: slot_of(state, event.target, o))
            )
        return text
    if isinstance(event, HanabiSee):
        hand = state.hands[event.target]
        seen = dict(zip(event.cards, event.faces, strict=True))
        last = max(slot_of(state, event.target, o) for o in event.cards)
        faces = [
            card_name(seen[hand[len(hand) - i]], letters) if hand[len(hand) - i] in seen else "?"
            for i in range(1, last + 1)
        ]
        return f"see {_player(state.setup.players[event.target])} {' '.join(faces)}"
    raise NotationError(say("hanabi.not-a-move", "not a Hanabi move: {event}", event=repr(event)))


def _orange(
    before: HanabiState,
    event: HanabiPlay | HanabiDiscard,
    after: HanabiState,
    seat: int | None,
    slot: int,
) -> Message:
    """An orange card's move: Play discarded it, or Discard played it (into the hole, in
    Throw It in a Hole, where no player learns how it played until the end)."""
    who = seat_of(before.setup.players, event.player)
    face = after.faces[event.card]
    said: dict[str, Param] = {
        "player": who,
        "card": card_name(face, before.deck.letters),
        "slot": slot,
    }
    if isinstance(event, HanabiPlay):
        return say(
            "hanabi.played-orange",
            "{player} played {card} from slot {slot}: an orange card, so it is discarded → "
            "{tokens:g} clue tokens",
            tokens=after.clue_tokens,
            **said,
        )
    if before.deck.hole and seat is not None and after.outcome is None:
        return say(
            "hanabi.discarded-into-the-hole",
            "{player} discarded a card from slot {slot}, and it went into the hole",
            player=who,
            slot=slot,
        )
    if after.strikes > before.strikes:
        return say(
            "hanabi.discarded-orange-misplayed",
            "{player} discarded {card} from slot {slot}: an orange card, so it is played, and "
            "misplays → strike {strikes}",
            strikes=after.strikes,
            **said,
        )
    return say(
        "hanabi.discarded-orange",
        "{player} discarded {card} from slot {slot}: an orange card, so it is played → {face}",
        face=face_words(face, before.deck.suits),  # type: ignore[arg-type]
        **said,
    )


def describe(
    before: HanabiState, event: Event, after: HanabiState, seat: int | None = None
) -> Message:
    """What changed, e.g. ``bob played r3 from slot 2 → red 3; drew y1``.

    As the drawer sees it, the drawn card is just ``a card``.
    """
    names = before.setup.players
    suits, letters = before.deck.suits, before.deck.letters
    parts: list[Message] = []
    if isinstance(event, HanabiPlay | HanabiDiscard):
        who = seat_of(names, event.player)
        slot = slot_of(before, event.player, event.card)
        face = after.faces[event.card]
        card = card_name(face, letters)
        button = isinstance(event, HanabiPlay)
        if before.deck.lands_on_firework(face.suit, button) != button:  # type: ignore[union-attr]
            # an orange card: it went the other way
            parts.append(_orange(before, event, after, seat, slot))
        elif isinstance(event, HanabiDiscard):
            parts.append(
                say(
                    "hanabi.discarded",
                    "{player} discarded {card} from slot {slot} → {tokens:g} clue tokens",
                    player=who,
                    card=card,
                    slot=slot,
                    tokens=after.clue_tokens,
                )
            )
        elif before.deck.hole and seat is not None and after.outcome is None:
            parts.append(  # no player learns what went into the hole, nor how it played
                say(
                    "hanabi.into-the-hole",
                    "{player} played a card from slot {slot} into the hole",
                    player=who,
                    slot=slot,
                )
            )
        elif after.strikes > before.strikes:
            parts.append(
                say(
                    "hanabi.misplayed",
                    "{player} misplayed {card} from slot {slot} → strike {strikes}",
                    player=who,
                    card=card,
                    slot=slot,
                    strikes=after.strikes,
                )
            )
        else:
            played: dict[str, Param] = {
                "player": who,
                "card": card,
                "slot": slot,
                "face": face_words(face, suits),  # type: ignore[arg-type]
            }
            if after.clues <= before.clues:
                text = say(
                    "hanabi.played", "{player} played {card} from slot {slot} → {face}", **played
                )
            elif after.deck.unit == 1:
                text = say(
                    "hanabi.played-clue",
                    "{player} played {card} from slot {slot} → {face} (+1 clue)",
                    **played,
                )
            else:
                text = say(
                    "hanabi.played-half-clue",
                    "{player} played {card} from slot {slot} → {face} (+½ clue)",
                    **played,
                )
            parts.append(text)
        if after.next_card > before.next_card:
            face = after.faces[before.next_card]
            if seat in (event.player, ONLOOKER) or face is None:
                parts.append(say("hanabi.drew-a-card", "drew a card"))
            else:
                parts.append(say("hanabi.drew", "drew {card}", card=card_name(face, letters)))
        if before.final_turns is None and after.final_turns is not None:
            parts.append(
                say("hanabi.deck-empty", "deck empty: {turns} turns left", turns=after.final_turns)
            )
    elif isinstance(event, HanabiSee):
        whose = seat_of(names, event.target)
        if seat in (event.target, ONLOOKER):
            parts.append(
                say("hanabi.noted", "the recorder noted faces in {holder}'s hand", holder=whose)
            )
        else:
            seen = many(
                say(
                    "hanabi.slot-card",
                    "slot {slot} {card}",
                    slot=slot_of(before, event.target, o),
                    card=card_name(f, letters),
                )
                for o, f in zip(event.cards, event.faces, strict=True)
            )
            parts.append(
                say("hanabi.seen", "seen in {holder}'s hand: {seen}", holder=whose, seen=seen)
            )
    elif isinstance(event, HanabiClue):
        touched = after.touched  # what it touched (its value may be hidden from the seat)
        told: dict[str, Param] = {
            "player": seat_of(names, event.player),
            "target": seat_of(names, event.target),
            "clue": clue_words(before.deck, event.suit, event.rank),
        }
        slots = many(sorted(slot_of(before, event.target, o) for o in touched))
        if not touched:
            parts.append(say("hanabi.told-none", "{player} told {target} {clue}: no card", **told))
        elif len(touched) == 1:
            parts.append(
                say(
                    "hanabi.told-one",
                    "{player} told {target} {clue}: slot {slots}",
                    slots=slots,
                    **told,
                )
            )
        else:
            parts.append(
                say(
                    "hanabi.told",
                    "{player} told {target} {clue}: slots {slots}",
                    slots=slots,
                    **told,
                )
            )
    else:
        parts.append(say("core.move-written", "{move}", move=str(event)))
    text = say("hanabi.then", "{parts}", parts=many(parts, "; "))
    if after.outcome and not before.outcome:
        return say(
            "hanabi.game-over",
            "{what} — game over: {outcome}, {score} points",
            what=text,
            outcome=term("hanabi.outcome", after.outcome),
            score=after.score,
        )
    return text


def kinds(before: HanabiState, event: Event, after: HanabiState) -> tuple[str, ...]:
    """``play`` (and ``strike`` for a misplay), ``discard``, ``clue`` and ``clue to NAME``."""
    if isinstance(event, HanabiPlay):
        if after.strikes > before.strikes and not before.deck.hole:  # (a hole hides it)
            return ("play", "strike")
        return ("play",)
    if isinstance(event, HanabiDiscard):  # (an orange card discarded is played, and may strike)
        if after.strikes > before.strikes and not before.deck.hole:
            return ("discard", "strike")
        return ("discard",)
    if isinstance(event, HanabiClue):
        return ("clue", f"clue to {before.setup.players[event.target]}")
    if isinstance(event, HanabiSee):
        return ("see",)
    return ()


# The game's own words that its code names only as data (a suit of the deck, an outcome), so
# that its catalogues list them (gametape.catalogues reads these calls): No Variant's suits
# and clue colours, Odds and Evens' rank words, the outcomes, the kinds of event a replay
# jumps between and the columns of its reports.
GLOSSARY = (
    term("hanabi.suit", "red"),
    term("hanabi.suit", "yellow"),
    term("hanabi.suit", "green"),
    term("hanabi.suit", "blue"),
    term("hanabi.suit", "white"),
    term("hanabi.colour", "red"),
    term("hanabi.colour", "yellow"),
    term("hanabi.colour", "green"),
    term("hanabi.colour", "blue"),
    term("hanabi.colour", "white"),
    term("hanabi.rank", "odd"),
    term("hanabi.rank", "even"),
    term("hanabi.outcome", "normal"),
    term("hanabi.outcome", "perfect"),
    term("hanabi.outcome", "strikeout"),
    term("hanabi.outcome", "terminated"),
    term("hanabi.kind", "play"),
    term("hanabi.kind", "strike"),
    term("hanabi.kind", "discard"),
    term("hanabi.kind", "clue"),
    term("hanabi.kind", "clue to {player}"),
    term("hanabi.kind", "see"),
    term("hanabi.column", "critical_discards"),
    term("hanabi.column", "efficiency"),
    term("hanabi.column", "lowest_pace"),
    term("hanabi.column", "perfect"),
    term("hanabi.column", "variant"),
    term("hanabi.column", "rank"),
    term("hanabi.column", "misplays"),
    term("hanabi.column", "knowledge"),
    term("hanabi.column", "plays"),
    term("hanabi.column", "clues given"),
    term("hanabi.column", "discards"),
    term("hanabi.column", "colour clues"),
    term("hanabi.column", "rank clues"),
    term("hanabi.column", "plays known"),
    term("hanabi.column", "plays playable"),
    term("hanabi.column", "plays trash"),
    term("hanabi.column", "plays clued"),
    term("hanabi.column", "plays blind"),
    term("hanabi.column", "misplays known"),
    term("hanabi.column", "misplays playable"),
    term("hanabi.column", "misplays trash"),
    term("hanabi.column", "misplays clued"),
    term("hanabi.column", "misplays blind"),
    term("hanabi.column", "critical discards"),
    term("hanabi.column", "fireworks sum"),
    term("hanabi.column", "moves past the end left out"),
    term("hanabi.rank", "START"),
)
