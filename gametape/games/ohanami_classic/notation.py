"""Notation of the published Ohanami (docs/rulesets/ohanami-classic.md). The phase says which
move is due, so the verb may be left out, and a phone or ``--by`` knows its player:

- ``choose ann 37 52``: two cards face down (short: ``a 37 52``; on ann's phone ``37 52``);
- ``place ann 37a 52n``: 37 into row A, then 52 starts a new row (``new`` too); ``x``
  discards (``d`` and ``discard`` too) (short: ``a37a52n``); the cards are placed in the
  order written (ruling O2);
- ``hand ann 3 8 12 ...``: at a real table, the 10 cards ann was dealt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gametape.engine.moves import number, seat_named, split_words
from gametape.engine.ruleset import NotationError
from gametape.events.base import Event, Move
from gametape.games.ohanami_classic.events import (
    ClassicOhanamiChoose,
    ClassicOhanamiDeal,
    ClassicOhanamiHand,
    ClassicOhanamiPlace,
)
from gametape.games.ohanami_classic.rules import (
    HAND,
    MAX_ROWS,
    ROW_LETTERS,
    STEPS,
    ClassicOhanamiState,
    placed,
    row_name,
    to_act,
)
from gametape.messages import Many, Message, many, say, seat_of, seats_of, term

VERBS = {"choose": "choose", "place": "place"}
USAGE = {
    "choose": say(
        "ohanami-classic.usage-choose", "expected `choose PLAYER CARD CARD` (short: `a 37 52`)"
    ),
    "place": say(
        "ohanami-classic.usage-place",
        "expected `place PLAYER CARDROW CARDROW`, a row A, B or C, n (or new) for a new "
        "row and x (or d, discard) for a discard (short: `a37a52n`)",
    ),
    "hand": say(
        "ohanami-classic.usage-hand",
        "expected `hand PLAYER` and the {cards} cards dealt (`hand ann 3 8 12 ...`)",
        cards=HAND,
    ),
}
_GLUED = re.compile(r"(\D+)(\d.*)\Z")
_PLACES = re.compile(r"(\d+)([a-z]+)")
DISCARD = ("x", "d", "discard")
NEW = ("n", "new")


def parse_move(state: ClassicOhanamiState, text: str, seat: int | None) -> Event:
    words = split_words(text.lower())
    phase = state.phase
    if words and words[0] == "hand":  # at a table, whenever its holder likes (O7b)
        if not state.at_table or phase not in ("choose", "place"):
            raise NotationError(
                say(
                    "ohanami-classic.hand-when",
                    "a hand is entered during its round, in a game recorded at a table",
                )
            )
        player, words = _player(state, words[1:], seat)
        cards = [number(w) for w in words]
        if len(cards) != HAND or None in cards:
            raise NotationError(
                say(
                    "ohanami-classic.cannot-read",
                    "cannot read {text!r}; {usage}",
                    text=text,
                    usage=USAGE["hand"],
                )
            )
        return ClassicOhanamiHand(player=player, cards=tuple(c for c in cards if c is not None))
    if words and words[0] in VERBS:
        if phase in VERBS and VERBS[words[0]] != phase:
            raise NotationError(
                say(
                    "ohanami-classic.not-that-time",
                    "it is time to {phase}, not to {word}; {usage}",
                    phase=term("ohanami-classic.phase", phase),
                    word=words[0],
                    usage=USAGE[phase],
                )
            )
        words = words[1:]
    if phase not in VERBS:
        raise NotationError(
            say("ohanami-classic.game-is-over", "the game is over")
            if state.outcome
            else say("ohanami-classic.being-dealt", "no move now: the round is being dealt")
        )
    player, words = _player(state, words, seat)
    if phase == "choose":
        cards = [number(w) for w in words]
        if len(cards) != 2 or None in cards:
            raise NotationError(
                say(
                    "ohanami-classic.cannot-read",
                    "cannot read {text!r}; {usage}",
                    text=text,
                    usage=USAGE["choose"],
                )
            )
        a, b = (c for c in cards if c is not None)
        return ClassicOhanamiChoose(player=player, cards=(a, b))
    return _place(state, player, "".join(words), text)


def _player(
    state: ClassicOhanamiState, words: list[str], seat: int | None
) -> tuple[int, list[str]]:
    """Who moves, and the rest: a name first (``ann``, ``a``, or glued: ``a37a52n``), else
    the sender (``--by``, a phone), else the one player still to move."""
    players = state.setup.players
    if words and not words[0][0].isdigit():
        first = words[0]
        glued = _GLUED.match(first)
        try:
            return seat_named(players, first, seat), words[1:]
        except NotationError:
            if glued is None:
                raise
        return seat_named(players, glued.group(1), seat), [glued.group(2), *words[1:]]
    if seat is not None:
        return seat, words
    waiting = to_act(state)
    if len(waiting) == 1:
        return waiting[0], words
    raise NotationError(
        say(
            "ohanami-classic.say-whose",
            "say whose move it is first, as in `ann {example}`; the players are {players}",
            example="37a 52n" if state.phase == "place" else "37 52",
            players=seats_of(players, range(len(players)), ", "),
        )
    )


def _place(state: ClassicOhanamiState, player: int, joined: str, text: str) -> Event:
    pairs = _PLACES.findall(joined)
    if len(pairs) != 2 or "".join(c + r for c, r in pairs) != joined:
        raise NotationError(
            say(
                "ohanami-classic.cannot-read",
                "cannot read {text!r}; {usage}",
                text=text,
                usage=USAGE["place"],
            )
        )
    count = len(state.rows[player])  # rows started so far: `n` starts the next
    cards: list[int] = []
    where: list[int | None] = []
    for card_text, dest in pairs:
        card = number(card_text)
        if card is None:
            raise NotationError(
                say(
                    "ohanami-classic.not-a-card-number",
                    "{card!r} is not a card number; {usage}",
                    card=card_text,
                    usage=USAGE["place"],
                )
            )
        row = _row(count, dest)
        if row == count + 1:
            count += 1
        cards.append(card)
        where.append(row)
    return ClassicOhanamiPlace(player=player, cards=(cards[0], cards[1]), rows=(where[0], where[1]))


def _row(count: int, dest: str) -> int | None:
    if dest in DISCARD:
        return None
    if dest in NEW:
        return count + 1
    if len(dest) == 1 and dest in ROW_LETTERS:
        return ROW_LETTERS.index(dest) + 1
    raise NotationError(
        say(
            "ohanami-classic.not-a-place",
            "{dest!r} is not a place: a row A, B or C, n or new (a new row), or x, d or discard "
            "(a discard)",
            dest=dest,
        )
    )


def notation(state: ClassicOhanamiState, event: Event) -> str:
    if isinstance(event, ClassicOhanamiDeal):
        return f"deal round {event.round}"
    if not isinstance(event, Move):
        raise NotationError(
            say(
                "ohanami-classic.not-a-move",
                "not a move of the published Ohanami: {event}",
                event=repr(event),
            )
        )
    name = state.setup.players[event.player].lower()
    name = f'"{name}"' if " " in name else name
    if isinstance(event, ClassicOhanamiHand):  # no cards: as another seat is told of it
        return " ".join(["hand", name, *(str(c) for c in sorted(event.cards))])
    if isinstance(event, ClassicOhanamiChoose):
        return f"choose {name} {event.cards[0]} {event.cards[1]}"
    assert isinstance(event, ClassicOhanamiPlace)
    return f"place {name} " + " ".join(
        f"{card}{place}" for card, place in zip(event.cards, _places(state, event), strict=True)
    )


def prefix(state: ClassicOhanamiState, seat: int) -> str:
    """The fewest letters that name ``seat``'s player (``a`` for ann, ``be`` beside bea)."""
    players = [p.lower() for p in state.setup.players]
    name = players[seat]
    return next(
        name[:k]
        for k in range(1, len(name) + 1)
        if name[:k] == name or sum(p.startswith(name[:k]) for p in players) == 1
    )


def short(state: ClassicOhanamiState, event: Move) -> str:
    """The fewest keystrokes ``parse_move`` reads as ``event`` from a recorder who names the
    player (docs/rulesets/ohanami-classic.md): ``a37 52``, ``a37a52n``."""
    who = prefix(state, event.player)
    if isinstance(event, ClassicOhanamiPlace):
        return who + "".join(
            f"{c}{p}" for c, p in zip(event.cards, _places(state, event), strict=True)
        )
    if isinstance(event, ClassicOhanamiChoose):
        return f"{who}{event.cards[0]} {event.cards[1]}"
    return f"{who} " + notation(state, event).split(" ", 2)[2]


def places(state: ClassicOhanamiState, seat: int) -> tuple[str, ...]:
    """Every ``37a``-style word ``seat`` may write for its two shown cards now."""
    chosen = state.chosen[seat] or ()
    rows = len(state.rows[seat])
    letters = [*ROW_LETTERS[:rows], *(["n"] if rows < MAX_ROWS else []), "x"]
    return tuple(f"{card}{letter}" for card in chosen for letter in letters)


def _places(state: ClassicOhanamiState, event: ClassicOhanamiPlace) -> list[str]:
    """Each card's place as written: a row letter, n for a row it starts, x for a discard."""
    rows = len(state.rows[event.player])
    out = []
    for row in event.rows:
        if row is None:
            out.append("x")
        elif row == rows + 1 and rows < MAX_ROWS:
            out.append("n")
            rows += 1
        else:
            out.append(ROW_LETTERS[row - 1] if 1 <= row <= MAX_ROWS else str(row))
    return out


def glossed(card: int, place: str) -> Message:
    """One card's place in words: ``37a`` is "37 in row A", ``37n`` "37 in a new row",
    ``37x`` "discard 37"."""
    if place == "x":
        return say("ohanami-classic.gloss-discard", "discard {card}", card=card)
    if place == "n":
        return say("ohanami-classic.gloss-new-row", "{card} in a new row", card=card)
    return say("ohanami-classic.gloss-row", "{card} in row {row}", card=card, row=place.upper())


def glosses(state: ClassicOhanamiState, event: Event) -> tuple[Message | str, ...]:
    """A placement's words as read (``place``, the player, then each card's place)."""
    assert isinstance(event, ClassicOhanamiPlace)
    places = _places(state, event)
    return ("", "", *(glossed(c, p) for c, p in zip(event.cards, places, strict=True)))


def choice_said(event: Event) -> str:
    """A choice as its own chooser's page writes it, without the chooser's name."""
    assert isinstance(event, ClassicOhanamiChoose)
    return f"choose {event.cards[0]} {event.cards[1]}"


def said(state: ClassicOhanamiState, event: Event) -> Message:
    """A placement in words, for a button (``place 37 in row A, then place 52 in a new
    row``; ``discard 37 and 52``)."""
    assert isinstance(event, ClassicOhanamiPlace)
    places = _places(state, event)
    first, second = event.cards
    if places == ["x", "x"]:
        return say("ohanami-classic.said-discard-both", "discard {first} and {second}",
                   first=first, second=second)  # fmt: skip
    return say(
        "ohanami-classic.said-place",
        "{first}, then {second}",
        first=_placing(first, places[0]),
        second=_placing(second, places[1]),
    )


def _placing(card: int, place: str) -> Message:
    """One card placed, as a button says it: ``place 37 in row A``, ``discard 37``."""
    if place == "x":
        return glossed(card, place)
    if place == "n":
        return say("ohanami-classic.place-new-row", "place {card} in a new row", card=card)
    return say(
        "ohanami-classic.place-in-row", "place {card} in row {row}", card=card, row=place.upper()
    )


def describe(
    before: ClassicOhanamiState, event: Event, after: ClassicOhanamiState, seat: int | None = None
) -> Message:
    """What changed, as the requester was shown it (the framework hands the event redacted)."""
    names = before.setup.players
    if isinstance(event, ClassicOhanamiDeal):
        if event.hands is None:
            return say(
                "ohanami-classic.dealt-at-table",
                "round {round} begins: shuffled and dealt at the table, 10 cards each",
                round=event.round,
            )
        return say(
            "ohanami-classic.dealt",
            "round {round} begins: 10 cards dealt to each player",
            round=event.round,
        )
    if isinstance(event, ClassicOhanamiHand):
        who = seat_of(names, event.player)
        if not event.cards:  # as another seat is told of it
            return say("core.hidden-move", "{who} {what}", who=who, what=ClassicOhanamiHand.secret)
        return say(
            "ohanami-classic.entered-hand",
            "{player} entered their hand: {cards}",
            player=who,
            cards=many(sorted(event.cards), " "),
        )
    if isinstance(event, ClassicOhanamiChoose):
        who = seat_of(names, event.player)
        if after.phase == "choose":
            return say(
                "ohanami-classic.chose",
                "{player} chose {first} and {second} face down",
                player=who,
                first=event.cards[0],
                second=event.cards[1],
            )
        shown = [before.chosen[s] or event.cards for s in range(len(names))]
        pairs = many(
            (
                say(
                    "ohanami-classic.pair",
                    "{player} {first} {second}",
                    player=seat_of(names, s),
                    first=a,
                    second=b,
                )
                for s, (a, b) in enumerate(shown)
            ),
            "; ",
        )
        if before.step >= STEPS:  # the fifth step passes nothing (O2b)
            return say(
                "ohanami-classic.shown",
                "step {step}: every choice is shown: {pairs}",
                step=before.step,
                pairs=pairs,
            )
        if after.round == 2:
            return say(
                "ohanami-classic.shown-passed-right",
                "step {step}: every choice is shown: {pairs}; the rest of each hand passed right",
                step=before.step,
                pairs=pairs,
            )
        return say(
            "ohanami-classic.shown-passed-left",
            "step {step}: every choice is shown: {pairs}; the rest of each hand passed left",
            step=before.step,
            pairs=pairs,
        )
    assert isinstance(event, ClassicOhanamiPlace)
    parts: list[Message] = []
    rows = before.rows[event.player]
    for card, row in zip(event.cards, event.rows, strict=True):
        if row is None:
            parts.append(say("ohanami-classic.discarded", "discarded {card}", card=card))
        elif row == len(rows) + 1:
            parts.append(
                say(
                    "ohanami-classic.started-row",
                    "started row {row} with {card}",
                    row=row_name(row),
                    card=card,
                )
            )
        elif card > rows[row - 1][-1]:
            parts.append(
                say(
                    "ohanami-classic.placed-above",
                    "placed {card} above row {row}",
                    card=card,
                    row=row_name(row),
                )
            )
        else:
            parts.append(
                say(
                    "ohanami-classic.placed-below",
                    "placed {card} below row {row}",
                    card=card,
                    row=row_name(row),
                )
            )
        rows = placed(rows, card, row)
    text = say(
        "ohanami-classic.placed",
        "{player} {parts}",
        player=seat_of(names, event.player),
        parts=Many(tuple(parts), "and"),
    )
    if len(after.scores) > len(before.scores):
        text = say(
            "ohanami-classic.round-scored",
            "{what}; round {round} scored: {points}",
            what=text,
            round=before.round,
            points=_points(names, after.scores[-1]),
        )
        if after.outcome:
            text = say(
                "ohanami-classic.game-over",
                "{what} — game over: {totals}",
                what=text,
                totals=_points(names, after.totals()),
            )
    return text


def _points(names: Sequence[str], points: Sequence[int]) -> Many:
    """Each player's points: ``ann 12, ben 9``."""
    return many(
        say("ohanami-classic.points", "{player} {points}", player=seat_of(names, s), points=p)
        for s, p in enumerate(points)
    )


# The game's own words that its code names only as data, so that its catalogues list them
# (gametape.catalogues reads these calls): the phases of a step, the outcomes, the kinds of
# event a replay jumps between and the columns of its reports.
GLOSSARY = (
    term("ohanami-classic.phase", "deal"),
    term("ohanami-classic.phase", "choose"),
    term("ohanami-classic.phase", "place"),
    term("ohanami-classic.passing", "left"),
    term("ohanami-classic.passing", "right"),
    term("ohanami-classic.outcome", "win"),
    term("ohanami-classic.outcome", "shared"),
    term("ohanami-classic.outcome", "terminated"),
    term("ohanami-classic.kind", "deal"),
    term("ohanami-classic.kind", "hand"),
    term("ohanami-classic.kind", "move"),
    term("ohanami-classic.kind", "reveal"),
    term("ohanami-classic.kind", "step"),
    term("ohanami-classic.kind", "round end"),
    term("ohanami-classic.column", "blue"),
    term("ohanami-classic.column", "cards_in_rows"),
    term("ohanami-classic.column", "discards"),
    term("ohanami-classic.column", "green"),
    term("ohanami-classic.column", "grey"),
    term("ohanami-classic.column", "pink"),
    term("ohanami-classic.column", "round"),
    term("ohanami-classic.column", "rows"),
    term("ohanami-classic.column", "total"),
    term("ohanami-classic.column", "round points"),
    term("ohanami-classic.column", "blue points"),
    term("ohanami-classic.column", "green points"),
    term("ohanami-classic.column", "grey points"),
    term("ohanami-classic.column", "pink points"),
    term("ohanami-classic.column", "cards in rows"),
)
