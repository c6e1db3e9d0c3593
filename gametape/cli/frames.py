"""A replay frame for people: position, the move that led here, what changed, the board."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from gametape.cli.board import render as draw
from gametape.messages import render
from gametape.pagewords import script_message
from gametape.text import visible
from gametape.usecases import position
from gametape.usecases.replaying import Cursor, Frame
from gametape.usecases.review import Annotation


def header(cursor: Cursor, frame: Frame) -> Text:
    """``seq 17/58, turn 12 · bob: play 2`` (the move only when the viewer could see it);
    ``round 2`` in a game played in rounds."""
    text = Text(position.frame_status(cursor, frame), style="bold")
    if frame.seq == 0:
        text.append(" · " + render(script_message("web.js-setup")), style="dim")
    elif frame.move is not None:
        text.append(visible(f" · {frame.actor + ': ' if frame.actor else ''}{frame.move}"))
    elif frame.actor:
        moved = script_message("web.js-moved", player=frame.actor)
        text.append(" · " + render(moved), style="dim")
    if frame.undone_by is not None:
        undone = script_message("web.js-undone-title", seq=frame.undone_by)
        text.append("  ↶ " + render(undone), style="yellow")
    return text


def render_frame(cursor: Cursor, frame: Frame, notes: Sequence[Annotation] = ()) -> RenderableType:
    """A frame, with the notes on its event (``notes``: the game's, from the review) shown
    under what changed; a seat's view shows none (a note may name a card the seat never saw)."""
    parts: list[RenderableType] = [header(cursor, frame)]
    if frame.change:
        # visible() here too: the Textual viewer draws these without the CLI's safe console
        parts.append(Text(visible(f"→ {frame.change}")))
    for a in notes if frame.seat is None else ():
        n = a.note
        if a.retracted_by is None and n.seq == frame.seq:
            about = f" ({n.card_words})" if n.card else ""
            mark = f"{n.mark} " if n.mark else ""
            said = visible(
                f"✎ {mark}{n.author}{about}: {n.text}" if n.text else f"✎ {mark}{n.author}"
            )
            parts.append(Text(said, style="italic cyan"))
    if frame.seq == cursor.last and cursor.problem:
        stops = script_message("web.js-stops", problem=str(cursor.problem))
        parts.append(Text(visible(render(stops)), style="bold red"))
    parts.append(draw(position.frame_board(cursor, frame)))
    return Group(*parts)
