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
from gametape.engine.forms import FIXED, MoveForm
from gametape.engine.game import Game, describe, move_as_value, undone_by
from gametape.errors import GametapeError
from gametape.events.base import actor
from gametape.messages import Many, Message, Term, render, say, seats_of, text_of

if TYPE_CHECKING:
    from gametape.replay.cursor import Cursor, Frame

RECENT = 8  # moves listed under a page's board
BUTTONS = 12  # at most this many moves of one kind as buttons; more become a picker
ROWS = 4  # more moves of a kind than this, differing in two words or more: a row per first word


class Choice(msgspec.Struct, frozen=True):
    """One move as a button: what it says, the notation it sends, and the row it is drawn
    in (``trade blue``: the button then says what follows, ``rest``: ``orange``; empty: a
    row of its own kind)."""

    label: str
    text: str
    group: str = ""
    rest: str = ""  # in a row, what its button says after the row's words
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
    # a picker of known moves: each legal move's open words and its value, which the page
    # sends (``move``) for the words chosen (in either order where lists keep apart)
    offers: tuple[tuple[tuple[str, ...], Any], ...] = ()
    # a picker with blanks that builds its move as a value (MoveForm.value, seat.js): the
    # move's kind and fixed fields, and per word the field it fills and each choice's value
    builds: dict[str, Any] | None = None


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


def _turn(game: Game) -> Message:
    return say(
        "core.turn-now",
        "{unit} {turn}",
        unit=Term("core.turn-word", game.ruleset.turn_word),
        turn=game.turn,
    )


def _acting(game: Game) -> Many:
    return seats_of(game.players, game.to_act(), ", ")


def turn_now(game: Game) -> str:
    """Where a game stands, in the words every front-end shows: ``turn 12``, ``round 2``."""
    return render(_turn(game))


def acting(game: Game) -> str:
    """Who is to act now, by name: ``ann``, ``ann, ben`` (a simultaneous step)."""
    return render(_acting(game))


def to_act_said(game: Game) -> Message:
    """Whose turn it is, under a move in the CLI: ``turn 12: ann to act``."""
    return say("core.to-act", "{turn}: {acting} to act", turn=_turn(game), acting=_acting(game))


def status(game: Game) -> str:
    """The status line: ``turn 12 · ann to act``, ``round 2 · ann, ben to act``, or
    ``game over``."""
    if game.is_over:
        return render(say("core.game-over-status", "game over"))
    return render(
        say(
            "core.status",
            "{turn} · {acting} to act",
            turn=_turn(game),
            acting=_acting(game),
        )
    )


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
        title = render(
            say("core.board-title", "{game} · seq {seq}", game=str(game.setup.game), seq=seq)
            if last is None
            else say(
                "core.board-title-of",
                "{game} · seq {seq}/{last}",
                game=str(game.setup.game),
                seq=seq,
                last=last,
            )
        )
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
    return render(
        say(
            "core.frame-status",
            "seq {seq}/{last}, {unit} {turn}",
            seq=frame.seq,
            last=cursor.last,
            unit=Term("core.turn-word", cursor.ruleset.turn_word),
            turn=frame.turn,
        )
    )


def frame_board(cursor: Cursor, frame: Frame) -> Board:
    """A replay frame's board as its seat saw it, the cards its move brought marked new."""
    return cursor.board(frame.seq, frame.seat)


def _forms(game: Game, seat: int) -> tuple[list[Choice], list[Picker]]:
    """A seat's moves as buttons (a few known moves of a kind) and pickers (a move with
    blanks, or many known moves of a kind: a select per word), built from the forms' data:
    their words, their values and what each blank stands for."""
    rules = game.ruleset
    groups: dict[tuple[str, int, bool], list[MoveForm]] = {}
    for form in rules.move_forms(game.state, seat):
        if not form.shown or not _seats_own(form, seat):
            continue  # a short variant (the recorder completes it), or not the seat's move
        key = (form.words[0][0], len(form.words), form.is_literal)
        groups.setdefault(key, []).append(form)
    buttons, pickers = [], []
    for (_, _, literal), forms in groups.items():
        if literal and len(forms) <= BUTTONS:
            buttons += _rows(forms)
        elif literal:
            pickers.append(_known_picker(forms))
        else:
            pickers += [_blank_picker(f) for f in forms]
    return buttons, pickers


def _known_picker(forms: list[MoveForm]) -> Picker:
    """Many known moves of one kind as one picker: per word, the words its moves take."""
    words: list[tuple[str, ...]] = []
    glossed: list[dict[str, str]] = []
    for i in range(len(forms[0].words)):
        words.append(tuple(dict.fromkeys(f.words[i][0] for f in forms)))
        glossed.append(
            {f.words[i][0]: text_of(f.glosses[i]) for f in forms[::-1] if len(f.glosses) > i}
        )
    apart = _apart(words, forms)
    glosses = tuple(tuple(g.get(w, "") for w in ws) for ws, g in zip(words, glossed, strict=True))
    open_words = [tuple(f.words[i][0] for i, ws in enumerate(words) if len(ws) > 1) for f in forms]
    return Picker(
        shown=" ".join(w[0] if len(w) == 1 else "…" for w in words),
        words=tuple(words),
        apart=apart,
        glosses=glosses if any(any(g) for g in glosses) else (),
        moves=() if any(apart) else tuple(open_words),  # apart: either order
        # lists that keep apart take their words in either order: a page finds the move by
        # each group's words as a set (seat.js ``unordered``)
        offers=tuple(
            (w, move_as_value(f.move)) for w, f in zip(open_words, forms, strict=True) if f.move
        ),
    )


def _blank_picker(form: MoveForm) -> Picker:
    """A move with blanks as a picker: a list per blank of the choices it lists (a set of
    slots: a checkbox per slot), labelled with what it stands for."""
    blanks = form.blanks or tuple(FIXED for _ in form.words)
    sets = tuple(b.kind == "slots" for b in blanks)
    builds = (
        {
            "type": form.kind,
            "fixed": form.fixed,
            "fields": [b.field for b in blanks],
            "sets": list(sets),
            "listed": [list(b.listed) for b in blanks],
            "values": [list(b.values) for b in blanks],
        }
        if form.kind
        else None
    )
    return Picker(
        shown=form.shown,
        words=tuple(b.listed if b.kind else w[:1] for w, b in zip(form.words, blanks, strict=True)),
        note=text_of(form.note),
        labels=tuple(render(b.label) if b.label else "" for b in blanks) if form.blanks else (),
        sets=sets if any(sets) else (),
        builds=builds,
    )


def _valued(form: MoveForm, choice: Choice) -> Choice:
    """A button with its move as a value (what ``POST …/move`` takes as JSON)."""
    if form.move is None:
        return choice
    return msgspec.structs.replace(choice, move=move_as_value(form.move))


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


def _rows(forms: list[MoveForm]) -> list[Choice]:
    """One kind's known moves as buttons, each saying how its move reads (``said``, else its
    notation). Past ROWS moves that differ in two words or more (a trade of two geishas, a
    clue of a player and a colour), a row for each value of the first word that differs
    (``trade blue``: ``orange``, ``green``), in the order they come; a row's buttons say the
    words after it. From the forms' words, never from their labels; moves whose words a
    button does not say (glosses: ``place 37 in row A``) keep a button each."""
    words = [tuple(w[0] for w in f.words) for f in forms]
    alike = all(len(w) == len(words[0]) for w in words)
    varying = [i for i in range(len(words[0])) if len({w[i : i + 1] for w in words}) > 1]
    plain = [_valued(f, Choice(label=text_of(f.said) or f.shown, text=f.shown)) for f in forms]
    if len(forms) <= ROWS or len(varying) < 2 or not alike or any(f.glosses for f in forms):
        return plain
    cut = varying[0] + 1
    rows: dict[str, list[Choice]] = {}
    for choice, w in zip(plain, words, strict=True):
        head = " ".join((w[0], w[varying[0]]) if varying[0] else w[:1])
        rest = " ".join(w[cut:])
        rows.setdefault(head, []).append(msgspec.structs.replace(choice, group=head, rest=rest))
    return [choice for row in rows.values() for choice in row]


def _seats_own(form: MoveForm, seat: int) -> bool:
    """Whether a form makes ``seat``'s own move: a known move by its value's mover; a form
    with blanks by what the game says of it (Hanabi's ``see``, a recorder's note of a hand,
    is nobody's: a seat's page does not offer it)."""
    if form.move is not None:
        mover = actor(form.move)
        return mover is None or mover == seat
    return form.own
