"""Reviewing a game: notes on its moves and cards (gametape.events.notes).

Every front-end adds and takes back notes through these functions, so every note gets the
same checks: the event is there and still in effect, the text is printable and not too
long, the mark is one of PGN's, and a card is one the board shows at that moment.
"""

from __future__ import annotations

import getpass
import os
import re
from pathlib import Path

from gametape.engine.game import undone_by
from gametape.errors import GametapeError, UsageError
from gametape.events import notes
from gametape.events.log import Source, read_log
from gametape.events.notes import Annotation, Note
from gametape.messages import many, say

__all__ = ["Annotation", "add_note", "author", "read_notes", "retract_note"]
from gametape.events.store import GameStore
from gametape.text import clipped
from gametape.usecases.record import open_game

AUTHOR_VAR = "GAMETAPE_AUTHOR"


def author(given: str | None = None) -> str:
    """Who writes a note: ``--by``, else ``$GAMETAPE_AUTHOR``, else the login name."""
    name = given or os.environ.get(AUTHOR_VAR) or _login()
    name = notes.check_text(name.strip(), say("core.the-author", "the author's name"))
    if not name or len(name) > 40:
        raise UsageError(say("core.author-name", "an author's name is 1-40 printable characters "
                             "(--by NAME)"))  # fmt: skip
    return name


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "someone"


def read_notes(store: GameStore, log: Path | Source) -> tuple[list[Annotation], list[str]]:
    """The game's notes in order (retracted ones marked), and what was wrong: a line that
    was skipped, or notes that cannot be read at all (a directory or a FIFO in their place:
    the game is shown without them)."""
    try:
        data = store.notes(log)
    except GametapeError as exc:
        return [], [f"{exc}; the game is shown without its notes"]
    return notes.read(data, f"{log} notes")


def card_key(log: Path | Source, seq: int, spec: str) -> str:
    """The card ``spec`` names on the board after ``seq``: where it lies, as the board shows
    it (``alice 3``: the third card in alice's row, counted from the left), or its number
    in the deck (``17``). A card the board does not show then is a usage error."""
    game = open_game(read_log(log), seq, whole=False)
    board = game.ruleset.board(game.view(None), "")
    rows = [(zone.title, [c.key for c in zone.cards]) for zone in board.zones if zone.cards]
    words = spec.split()
    if len(words) >= 2 and re.fullmatch(r"[0-9]{1,6}", words[-1]):  # a place, not any digits
        title, slot = " ".join(words[:-1]).casefold(), int(words[-1])
        for name, keys in rows:
            if name.casefold() == title and 1 <= slot <= len(keys) and keys[slot - 1]:
                return keys[slot - 1]
    else:
        key = spec if spec.startswith("card ") else f"card {spec}"
        if any(key in keys for _, keys in rows):
            return key
    places = ", ".join(f"{name} 1-{len(keys)}" for name, keys in rows if any(keys))
    if not places:  # a board whose cards are not told apart (the published Hanamikoji's)
        raise UsageError(
            say(
                "core.note-no-card-apart",
                "no card {card} to note: this game's "
                "board tells no card apart from another at seq {seq}; leave out "
                "--card to note the move",
                card=repr(clipped(spec)),
                seq=seq,
            )
        )
    raise UsageError(say("core.note-no-card", "no card {card} on the board at seq {seq}; name one "
                         "by where it lies ({places}) or by its number in the deck",
                         card=repr(clipped(spec)), seq=seq, places=places))  # fmt: skip


def add_note(
    store: GameStore,
    ref: str,
    seq: int,
    text: str = "",
    mark: str | None = None,
    card: str | None = None,
    by: str | None = None,
) -> Annotation:
    """Write a note on the event ``seq`` of the game ``ref``; return it with its number.
    Refused, with nothing written: a seq the game does not have, a move taken back, an
    empty note, a mark that is not PGN's, a card the board does not show then."""
    log = store.resolve(ref)
    read = read_log(log)
    game = open_game(read, whole=False)
    last = len(game.events) - 1
    if not 1 <= seq <= last:
        raise UsageError(
            say("core.note-no-seq", "no seq {seq} to note in {game}: it has seqs 1-{last} (seq 0 "
                "is the setup)", seq=seq, game=log.stem, last=last)
            if last
            else say("core.note-no-moves", "no seq {seq} to note in {game}: it has no moves yet "
                     "(seq 0 is the setup)", seq=seq, game=log.stem)
        )  # fmt: skip
    taken = undone_by(game.events).get(seq)
    if taken is not None:
        raise UsageError(
            say("core.note-taken-back", "seq {seq} was taken back at seq {taken}: a note on it "
                "would be on a move that did not happen", seq=seq, taken=taken),
            hint=say("core.note-taken-back-hint", "note the undo itself (seq {taken}), or a "
                     "branch (gametape branch)", taken=taken),
        )  # fmt: skip
    text = notes.check_text(text)
    if mark is not None and mark not in notes.MARKS:
        raise UsageError(
            say(
                "core.note-mark",
                "unknown mark {mark}; marks: {marks}",
                mark=repr(mark),
                marks=many(notes.MARKS, " "),
            )
        )
    if not text.strip() and mark is None:
        raise UsageError(say("core.note-empty", "say something: a text, a --mark, or both"))
    key = None if card is None else card_key(log, seq, card)
    note = Note(
        ts=notes.now(),
        author=author(by),
        seq=seq,
        text=text,
        mark=mark,
        card=key,
        named=" ".join(card.split()) if card is not None and not card.strip().isdigit() else "",
    )
    store.add_note(log, notes.line(note))
    found, _ = read_notes(store, log)
    return next(a for a in reversed(found) if a.note == note)


def retract_note(store: GameStore, ref: str, n: int, by: str | None = None) -> Annotation:
    """Take back note number ``n`` (it stays in the history, marked); return it."""
    log = store.resolve(ref)
    found, _ = read_notes(store, log)
    by_number = {a.n: a for a in found}
    if n not in by_number:
        numbers = [a.n for a in found if a.retracted_by is None]
        raise UsageError(
            say("core.note-none-of", "no note {n} on {game}; its notes: {numbers}", n=n,
                game=log.stem, numbers=many(numbers))
            if numbers
            else say("core.note-none", "no note {n} on {game}; it has none", n=n, game=log.stem)
        )  # fmt: skip
    if by_number[n].retracted_by is not None:
        raise UsageError(say("core.note-taken-already", "note {n} was taken back already (line "
                             "{line})", n=n, line=by_number[n].retracted_by or 0))  # fmt: skip
    store.add_note(log, notes.line(Note(ts=notes.now(), author=author(by), retract=n)))
    return by_number[n]
