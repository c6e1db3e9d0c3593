"""The position as a requester sees it: the one use case every front-end draws a game from.

The terminal's ``show`` and ``move``, the recorder and the server's pages each take from here
what they draw of a game now: the board as a seat (or the onlooker, or everyone) sees it, the
status line (``turn 12 · ann to act``), who acts, the moves a seat may make (buttons and
pickers, the forms and how a move is written) and the last moves as the viewer was told them.
A past position is a replay cursor's frame: the replay viewer takes its board and its place
from ``frame_board`` and ``frame_status`` here, and the HTML replay page is built from the
same frames (gametape.replay.html). Nothing here is built from what the viewer may not see.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import msgspec

from gametape.engine.board import Board, mark_new
from gametape.engine.forms import MoveForm, slot_sets
from gametape.engine.game import Game, describe, move_as_value, undone_by
from gametape.errors import GametapeError
from gametape.events.base import actor
from gametape.messages import render

if TYPE_CHECKING:
    from gametape.replay.cursor import Cursor, Frame

RECENT = 8  # moves listed under a page's board
BUTTONS = 12  # at most this many moves of one kind as buttons; more become a picker
ROWS = 4  # more moves of a kind than this, differing in two words or more: a row per first word


class Choice(msgspec.Struct, frozen=True):
    """One move as a button: what it says, the notation it sends, and the row it is drawn
    in (``trade blue``: the button then says what follows, ``orange``; empty: a row of its
    own kind)."""

    label: str
    text: str
    group: str = ""
    move: Any = None  # the move as a value (its type and typed fields), for scripts


class Picker(msgspec.Struct, frozen=True):
    """A move with blanks: per word, its choices (one choice: a fixed word), how it is
    written (``play SLOT CARD``), what the table must say for it, per word what it stands
    for (``SLOT``; empty where the form does not say), and per word whether any number of
    its choices may be picked (a set of slots, ``1 3``: its choices are the single slots)."""

    shown: str
    words: tuple[tuple[str, ...], ...]
    note: str = ""
    labels: tuple[str, ...] = ()
    sets: tuple[bool, ...] = ()
    # per word, the group of words that offer choices in common and never the same one in a
    # legal move (Ohanami's two cards: the same card twice is no move); 0: none
    apart: tuple[int, ...] = ()
    # per word, per choice, how it reads to a person ("78 in row A" for ``78a``; "": the word)
    glosses: tuple[tuple[str, ...], ...] = ()
    # a picker of known moves whose lists do not keep apart: each legal move's open words
    # (those of more than one choice), so a page offers only the choices that still make a
    # legal move with those made
    moves: tuple[tuple[str, ...], ...] = ()


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """What a requester sees now: the board as its viewer sees it, the status line, who
    acts, the moves it may make (buttons and pickers, and how a move is written), the last
    moves as its viewer was told them, and ``seq``, the next event's seq (a move is sent
    with it: the expected seq). ``role`` and ``label`` say who looks (``seat`` and ``ann``,
    ``host`` and ``host``)."""

    game: str
    ruleset: str
    players: tuple[str, ...]
    role: str
    seat: int | None
    label: str
    seq: int
    board: Board
    status: str
    buttons: tuple[Choice, ...]
    pickers: tuple[Picker, ...]
    examples: tuple[str, ...]
    recent: tuple[str, ...]
    # beside each of ``recent``: its seq, and the seq of the undo that took it back (0: none)
    recent_seqs: tuple[int, ...] = ()
    recent_undone: tuple[int, ...] = ()
    to_act: tuple[str, ...]
    over: bool
    turn_word: str


def turn_now(game: Game) -> str:
    """Where a game stands, in the words every front-end shows: ``turn 12``, ``round 2``."""
    return f"{game.ruleset.turn_word} {game.turn}"


def acting(game: Game) -> str:
    """Who is to act now, by name: ``ann``, ``ann, ben`` (a simultaneous step)."""
    return ", ".join(game.players[s] for s in game.to_act())


def status(game: Game) -> str:
    """The status line: ``turn 12 · ann to act``, ``round 2 · ann, ben to act``, or
    ``game over``."""
    return "game over" if game.is_over else f"{turn_now(game)} · {acting(game)} to act"


def board(
    game: Game,
    viewer: int | None,
    *,
    last: int | None = None,
    marked: bool = False,
    title: str | None = None,
) -> Board:
    """The board now as ``viewer`` sees it (None: everyone's cards; ``ONLOOKER``: the
    table's), titled ``GAME · seq N`` (``seq N/LAST`` given ``last``; or ``title``). ``marked``:
    the cards the last move brought are marked new."""
    rules, seq = game.ruleset, len(game.events) - 1
    if title is None:
        title = f"{game.setup.game} · seq {seq}" + (f"/{last}" if last is not None else "")
    here = rules.board(game.view(viewer), title)
    if not marked or seq < 1:
        return here
    return mark_new(rules.board(rules.view(game.fold.states[-2], viewer), ""), here)


def shown(game: Game, viewer: int | None) -> dict[str, Any]:
    """The position for a script (``show --json``): the game, the seq, the view, the result."""
    return {
        "game": game.setup.game,
        "seq": len(game.events) - 1,
        "view": game.view(viewer),
        "result": game.result(),
    }


def examples(game: Game) -> tuple[str, ...]:
    """How this game's moves are written, as examples (``play 3``, ``clue bob red``)."""
    return tuple(game.ruleset.move_examples)


def position(
    game: Game, viewer: int | None, *, offer: int | None, role: str, label: str
) -> Position:
    """The game now as ``viewer`` sees it, with the moves seat ``offer`` may make (None: no
    moves offered; the host is offered none, since which clues are legal now, say, would
    tell which cards are in a hand)."""
    rules, players = game.ruleset, game.players
    states = game.fold.states
    seq = len(game.events)
    shown_seqs = range(max(1, seq - RECENT), seq)
    recent = tuple(
        render(
            describe(rules, players, states[s - 1], game.events[s], states[s], viewer, game.fold)
        )
        for s in shown_seqs
    )
    taken = undone_by(game.events)
    buttons: list[Choice] = []
    pickers: list[Picker] = []
    if not game.is_over and offer is not None and offer in game.to_act():
        with contextlib.suppress(GametapeError):  # a name no move can write: type the move
            buttons, pickers = _forms(game, offer)
    return Position(
        game=str(game.setup.game),
        ruleset=rules.name,
        players=tuple(players),
        role=role,
        seat=offer,
        label=label,
        seq=seq,
        board=board(game, viewer, marked=True),
        status=status(game),
        buttons=tuple(buttons),
        pickers=tuple(pickers),
        examples=examples(game),
        recent=tuple(reversed(recent)),
        recent_seqs=tuple(reversed(shown_seqs)),
        recent_undone=tuple(taken.get(s, 0) for s in reversed(shown_seqs)),
        to_act=tuple(players[s] for s in game.to_act()),
        over=game.is_over,
        turn_word=rules.turn_word,
    )


def frame_status(cursor: Cursor, frame: Frame) -> str:
    """A replay frame's place: ``seq 17/58, turn 12`` (``round 2`` in a game of rounds)."""
    return f"seq {frame.seq}/{cursor.last}, {cursor.ruleset.turn_word} {frame.turn}"


def frame_board(cursor: Cursor, frame: Frame) -> Board:
    """A replay frame's board as its seat saw it, the cards its move brought marked new."""
    return cursor.board(frame.seq, frame.seat)


def _forms(game: Game, seat: int) -> tuple[list[Choice], list[Picker]]:
    """A seat's moves as buttons (a few known moves of a kind) and pickers (a move with
    blanks, or many known moves of a kind: a select per word)."""
    rules = game.ruleset
    groups: dict[tuple[str, int, bool], list[MoveForm]] = {}
    for form in rules.move_forms(game.state, seat):
        if not form.shown or not _seats_own(game, form, seat):
            continue  # a short variant (the recorder completes it), or not the seat's move
        key = (form.words[0][0], len(form.words), form.is_literal)
        groups.setdefault(key, []).append(form)
    buttons, pickers = [], []
    for (_, _, literal), forms in groups.items():
        if literal and len(forms) <= BUTTONS:
            name = game.players[seat]
            buttons += _rows([(f.said or _own(f.shown, name), f.shown) for f in forms])
            continue
        if literal:
            words: list[tuple[str, ...]] = []
            glossed: list[dict[str, str]] = []
            for i in range(len(forms[0].words)):
                words.append(tuple(dict.fromkeys(f.words[i][0] for f in forms)))
                glossed.append(
                    {f.words[i][0]: f.glosses[i] for f in forms[::-1] if len(f.glosses) > i}
                )
            joined = " ".join(w[0] if len(w) == 1 else "…" for w in words)
            apart = _apart(words, forms)
            glosses = tuple(
                tuple(g.get(w, "") for w in ws) for ws, g in zip(words, glossed, strict=True)
            )
            pickers.append(
                Picker(
                    shown=_own(joined, game.players[seat]),
                    words=tuple(words),
                    apart=apart,
                    glosses=glosses if any(any(g) for g in glosses) else (),
                    moves=()  # lists that keep apart take their choices in either order
                    if any(apart)
                    else tuple(
                        tuple(f.words[i][0] for i, ws in enumerate(words) if len(ws) > 1)
                        for f in forms
                    ),
                )
            )
        else:
            for f in forms:
                sets = tuple(_slots(w) is not None for w in f.words)
                words = [
                    f.words[0][:1],
                    *(_slots(w) or _unknown_first(_plain(w)) for w in f.words[1:]),
                ]
                said = f.shown.split()
                labels = (
                    tuple(w.lower() if w.isupper() else "" for w in said)
                    if len(said) == len(words)
                    else ()
                )
                pickers.append(
                    Picker(
                        shown=f.shown,
                        words=tuple(words),
                        note=f.note,
                        labels=labels,
                        sets=sets if any(sets) else (),
                    )
                )
    return [_valued(game, seat, c) for c in buttons], pickers


def _valued(game: Game, seat: int, choice: Choice) -> Choice:
    """A button with its move as a value (what ``POST …/move`` takes as JSON)."""
    try:
        event = game.parse(choice.text, seat)
    except GametapeError:  # a form the game gives but cannot read back: words only
        return choice
    return msgspec.structs.replace(choice, move=move_as_value(event))


def _apart(words: list[tuple[str, ...]], forms: list[MoveForm]) -> tuple[int, ...]:
    """For a picker of known moves: per word, a group number shared by words that offer
    choices in common and of which no two take the same one in any legal move (a page then
    lets a choice be made in one of them only); 0 for the others. Every two words of a group
    are apart: a gift of yellow, yellow and violet keeps its second and third lists free
    even where the first is apart from both. From the moves, not their words."""

    def apart(i: int, j: int) -> bool:
        alike = len(set(words[i]) & set(words[j])) > 1  # choices in common
        return alike and all(f.words[i][0] != f.words[j][0] for f in forms)

    groups = [0] * len(words)
    members: dict[int, list[int]] = {}
    for i in range(len(words)):
        joined = next((g for g, ms in members.items() if all(apart(i, m) for m in ms)), None)
        if joined is not None:
            members[joined].append(i)
            groups[i] = joined
        elif any(apart(i, j) for j in range(i + 1, len(words))):
            members[i + 1] = [i]
            groups[i] = i + 1
    for ms in members.values():
        if len(ms) == 1:  # apart from no one that joined it
            groups[ms[0]] = 0
    return tuple(groups) if any(groups) else ()


def _rows(moves: list[tuple[str, str]]) -> list[Choice]:
    """One kind's moves (label, notation) as buttons. Past ROWS moves that differ in two
    words or more (a trade of two geishas, a clue of a player and a colour), a row for each
    first word that differs (``trade blue``: ``orange``, ``green``), in the order they come."""
    said = [label.split() for label, _ in moves]
    varying = [i for i in range(len(said[0])) if len({tuple(w[i : i + 1]) for w in said}) > 1]
    if len(moves) <= ROWS or len(varying) < 2 or any(len(w) != len(said[0]) for w in said):
        return [Choice(label=label, text=text) for label, text in moves]
    cut = varying[0] + 1
    rows: dict[str, list[Choice]] = {}
    for (label, text), words in zip(moves, said, strict=True):
        group = " ".join(words[:cut])
        rows.setdefault(group, []).append(Choice(label=label, text=text, group=group))
    return [choice for row in rows.values() for choice in row]


def _slots(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The single slots of a word that is any set of slots (``slot_sets``: ``1``, ``13``,
    ``245``), a page's checkboxes; None for any other word. A set is sent as its slots
    one word each (``1 3``), which a game that offers ``slot_sets`` reads."""
    n = max((len(w) for w in words), default=0)
    if n < 2 or words != slot_sets(n):
        return None
    return tuple(str(i) for i in range(1, n + 1))


def _plain(words: tuple[str, ...]) -> tuple[str, ...]:
    """A picker's choices without the one-letter short forms a typist uses where the whole
    word is there too ("red" and "r": the list offers "red")."""
    longer = [w for w in words if len(w) > 1]
    return tuple(w for w in words if len(w) > 1 or not any(x.startswith(w) for x in longer))


def _unknown_first(words: tuple[str, ...]) -> tuple[str, ...]:
    """A picker's choices with ``?`` (a card nobody said) first, where it is one of them: a
    page's picker starts at the first choice, and its start is never a face nobody named."""
    return ("?", *(w for w in words if w != "?")) if "?" in words else words


def _own(text: str, name: str) -> str:
    """A move's label on its own seat's page: without the seat's name, which that page need
    not say ("pick 8 row=1" on ann's page for "pick ann 8 row=1")."""
    words = text.split()
    if len(words) > 2 and words[1].casefold() == name.casefold():
        return " ".join([words[0], *words[2:]])
    return text


def _seats_own(game: Game, form: MoveForm, seat: int) -> bool:
    """Whether a form with blanks makes ``seat``'s own move, by its first filling (Hanabi's
    ``see``, a recorder's note of a hand, is nobody's: a seat's page does not offer it). A
    filling the rules cannot read says nothing: the form is kept."""
    if form.is_literal:
        return True
    try:
        event = game.parse(" ".join(words[0] for words in form.words), seat)
    except GametapeError:
        return True
    return actor(event) == seat
