"""A Hanabi view as a board: fireworks, tokens, every hand (newest card first), discards."""

from __future__ import annotations

from gametape.engine.board import Board, Card, Counter, Zone, seen_as
from gametape.engine.ruleset import ONLOOKER
from gametape.games.hanabi.deck import rank_mark
from gametape.games.hanabi.events import Face
from gametape.games.hanabi.stacks import direction
from gametape.games.hanabi.view import CardView, HanabiView
from gametape.messages import count_of, render, say, seat_of, term

COLOURS = {  # suit names as hanab.live and the published game call them, to the palette
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "white": "white",
    "purple": "violet",
    "pink": "pink",
    "orange": "orange",
    "black": "black",
    "teal": "teal",
    # a suit every colour clue touches (rainbow, prism, omni): drawn in every colour
    **dict.fromkeys(("rainbow", "prism", "omni"), "rainbow"),
    # hanab.live's variant suits, by the last word of their names; a suit's letter tells apart
    # two suits drawn alike (the rainbows and the grey suits)
    "brown": "orange",
    "gray": "grey",
    **dict.fromkeys(("tomato", "mahogany", "carrot", "ruby", "cardinal", "maroon"), "red"),
    **dict.fromkeys(("emerald", "olive", "lime", "jungle", "jade", "geas"), "green"),
    **dict.fromkeys(("berry", "navy", "sky", "ice", "aqua", "ocean", "cobalt", "cyan"), "blue"),
    **dict.fromkeys(("tangerine", "peach", "yam", "gold", "tan", "taupe"), "orange"),
    **dict.fromkeys(("violet", "magenta", "plum", "indigo", "beatnik"), "violet"),
}


def _colour(view: HanabiView, suit: int) -> str:
    return COLOURS.get(view.suits[suit].lower().split()[-1], "grey")


def _face(view: HanabiView, face: Face) -> Card:
    letter = view.letters[face.suit]
    return Card(text=f"{letter}{rank_mark(face.rank)}", colour=_colour(view, face.suit))


def _firework(view: HanabiView, letters: tuple[str, ...], s: int) -> str:
    """A firework by its top card (``r3``; ``r0`` empty); a suit built from 5 down shows its
    top card and an arrow (``w4↓``: the 5 and the 4 are played; ``w↓`` empty). In Up or
    Down an arrow once the way is decided (``r3↑``, ``rs``: its START card); in Sudoku where
    it started and its top card (``r3-5``: 3, 4 and 5 played, then 1 and 2 to come)."""
    if view.stacks:
        stack = view.stacks[s]
        if not stack:
            return f"{letters[s]}0"
        if view.routes == "sudoku":
            return (
                f"{letters[s]}{stack[0]}-{stack[-1]}"
                if len(stack) > 1
                else f"{letters[s]}{stack[0]}"
            )
        way = {1: "↑", -1: "↓"}.get(direction(stack), "")
        return f"{letters[s]}{rank_mark(stack[-1])}{way}"
    height = view.fireworks[s]
    if view.reversed and view.reversed[s]:
        return f"{letters[s]}{6 - height if height else ''}↓"
    return f"{letters[s]}{height}"


def _can_be(card: CardView) -> tuple[Face, ...]:
    """What the holder knows the card can still be, at the deepest level this view shows."""
    return card.possible_seen if card.possible_seen is not None else card.possible


def _note(view: HanabiView, card: CardView) -> str:
    """What the holder knows from clues (a suit letter or ?, a rank or ?, * once clued) and
    how many faces it can still be."""
    letters = view.letters
    suit = letters[card.suits[0]] if len(card.suits) == 1 else "?"
    rank = rank_mark(card.ranks[0]) if len(card.ranks) == 1 else "?"
    return f"{suit}{rank}{'*' if card.clued else ''} {len(_can_be(card))}"


def _hand_card(view: HanabiView, card: CardView, word: str = "") -> Card:
    """A card of a hand; ``word``: its slot, in the viewer's own hand (a move names it so)."""
    marks = tuple(
        m
        for m, on in (
            ("touched", card.touched),
            ("clued", card.clued),
            ("known", len(_can_be(card)) == 1),
        )
        if on
    )
    key = f"card {card.order}"
    if card.face is None:  # its back, in the colour and with the rank the clues told
        colour = _colour(view, card.suits[0]) if len(card.suits) == 1 else ""
        rank = rank_mark(card.ranks[0]) if len(card.ranks) == 1 else ""
        return Card(
            back=True,
            text=rank,
            colour=colour,
            marks=marks,
            note=_note(view, card),
            key=key,
            word=word,
        )
    face = _face(view, card.face)
    return Card(
        text=face.text, colour=face.colour, marks=marks, note=_note(view, card), key=key, word=word
    )


def _empathy(view: HanabiView, seat: int) -> tuple[str, ...]:
    """What the seat's own cards can still be: clues, public cards and the other hands."""
    letters = view.letters
    holder = seat_of(view.players, seat)
    lines = [
        render(
            say(
                "hanabi.board-can-be",
                "{holder}'s cards can be (clues, the table, the other hands):",
                holder=holder,
            )
        )
    ]
    for slot, card in enumerate(view.hands[seat], start=1):
        can_be = _can_be(card)
        if len(can_be) > 8:
            said = say(
                "hanabi.board-slot-count",
                "slot {slot}: {count} possibilities",
                slot=slot,
                count=len(can_be),
            )
        elif can_be:
            faces = " ".join(f"{letters[f.suit]}{rank_mark(f.rank)}" for f in can_be)
            said = say("hanabi.board-slot-faces", "slot {slot}: {faces}", slot=slot, faces=faces)
        else:
            said = say("hanabi.board-slot-none", "slot {slot}: none", slot=slot)
        lines.append("  " + render(said))
    return tuple(lines)


def board(view: HanabiView, title: str) -> Board:
    """The board of one seat's view (or the spectator's)."""
    letters = view.letters
    hole = view.in_hole is not None  # Throw It in a Hole: nothing played is shown yet
    fireworks = Zone(
        title=render(say("hanabi.board-fireworks", "Fireworks")),
        cards=tuple(
            Card(text="?" if hole else _firework(view, letters, s), colour=_colour(view, s))
            for s in range(len(view.suits))
        ),
        text=render(
            say("hanabi.board-score", "score {score}", score=view.score)
            if view.outcome is not None
            else say(
                "hanabi.board-in-the-hole",
                "{count} in the hole: what they were and the score show at the end",
                count=count_of(view.in_hole or 0, "card"),
            )
            if hole
            else say(
                "hanabi.board-score-best",
                "score {score} (best reachable {best})",
                score=view.score,
                best=view.max_score,
            )
        ),
        group="table",
    )
    clues, strikes = say("hanabi.board-clues", "Clues"), say("hanabi.board-strikes", "Strikes")
    counters = [
        Counter(label=render(clues), value=f"{view.clues:g}", of="8", colour="blue"),
        Counter(
            label=render(strikes), value="?" if hole else str(view.strikes), of="3", colour="red"
        ),
        Counter(label=render(say("hanabi.board-deck", "Deck")), value=str(view.deck)),
        Counter(
            label=render(say("hanabi.board-pace", "Pace")),
            value="-" if view.pace is None else str(view.pace),
        ),
        Counter(
            label=render(say("hanabi.board-efficiency", "Efficiency")),
            value="-" if view.efficiency is None else f"{view.efficiency:.2f}",
        ),
    ]
    if view.final_turns is not None and view.outcome is None:
        last = render(say("hanabi.board-final-turns", "Final turns"))
        counters.append(Counter(label=last, value=str(view.final_turns), colour="yellow"))
    hands = tuple(
        Zone(
            title=render(
                say("hanabi.board-you", "{player} (you)", player=seat_of(view.players, seat))
            )
            if seat == view.seat
            else view.players[seat],
            cards=tuple(
                _hand_card(view, c, str(slot) if seat == view.seat else "")
                for slot, c in enumerate(hand, 1)
            ),
            # the viewer's own hand, whose cards it names by slot (play 1 … play 5)
            text=render(say("hanabi.board-slots", "slots 1-{last} from the left", last=len(hand)))
            if seat == view.seat and hand
            else "",
            seat=seat,
            acting=seat == view.current and view.outcome is None,
            group="hands",
        )
        for seat, hand in enumerate(view.hands)
    )
    discards = Zone(
        title=render(say("hanabi.board-discards", "Discards")),
        cards=tuple(
            _face(view, f)
            for f in sorted(
                (f for f in view.discards if f is not None), key=lambda f: (f.suit, f.rank)
            )
        ),
        text="" if view.discards else render(say("hanabi.board-none", "none")),
        group="discards",
    )
    if view.outcome is None:
        status = say(
            "hanabi.board-turn",
            "turn {turn}: {player} to act",
            turn=view.turn,
            player=seat_of(view.players, view.current),
        )
    else:
        status = say(
            "hanabi.board-over",
            "game over: {outcome}, score {score} (fireworks {fireworks})",
            outcome=term("hanabi.outcome", view.outcome),
            score=view.score,
            fireworks=view.fireworks_sum,
        )
    notes: tuple[str, ...] = (
        render(
            say(
                "hanabi.board-legend",
                "under each card: what its holder knows from clues (* = clued), and how many "
                "faces it can still be; ^ the clue just given touched it",
            )
        ),
    )
    if view.seat not in (None, ONLOOKER) and view.outcome is None:
        notes += _empathy(view, view.seat)
    notes += view.notices
    viewer = seen_as(view.players, view.seat)
    return Board(
        title=f"Hanabi · {title}{viewer}",
        status=render(status),
        counters=tuple(counters),
        zones=(fireworks, *hands, discards),
        notes=notes,
    )
