"""A replay as one self-contained web page (``gametape export GAME --format html``).

The page holds the frames a seat saw (``Cursor.frame``), and nothing else: secrecy is kept by
what is in the file, not by the page hiding it. Each frame's board is the game's own rich
board, laid out here at a fixed width and stored as runs of (style, text); lines repeat from
frame to frame, so each distinct line is stored once and a frame lists its lines. The page's
script builds the board with text nodes only, so names and moves are never read as markup.
"""

from __future__ import annotations

import html
import io
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.terminal_theme import TerminalTheme

from gametape.errors import Problem
from gametape.replay.cursor import Cursor

WIDTH = 80  # columns a board is laid out in (the page scales it down to fit a phone)

# A dark theme with the suit colours far apart.
THEME = TerminalTheme(
    (22, 22, 29),
    (230, 230, 230),
    [
        (60, 60, 70),
        (255, 92, 92),
        (86, 204, 120),
        (240, 200, 60),
        (96, 156, 255),
        (222, 112, 222),
        (80, 200, 210),
        (200, 200, 200),
    ],
    [
        (120, 120, 130),
        (255, 130, 130),
        (130, 232, 160),
        (255, 230, 120),
        (140, 186, 255),
        (255, 156, 255),
        (136, 232, 242),
        (255, 255, 255),
    ],
)


class PageFrame(msgspec.Struct, frozen=True, omit_defaults=True):
    """One frame in the page: seq, turn, actor, move, change, kinds, the board's lines, and
    the seq of the undo that took this move back (``u``), if any."""

    s: int
    t: int
    b: list[int]
    a: str | None = None
    m: str | None = None
    c: str | None = None
    k: tuple[str, ...] = ()
    u: int | None = None


class PageData(msgspec.Struct, frozen=True):
    game: str
    ruleset: str
    players: tuple[str, ...]
    seat: str | None
    landmark: str | None
    kinds: list[str]
    lines: list[list[int | str]]
    frames: list[PageFrame]
    result: str | None
    problem: str | None
    turn_word: str = "turn"
    learned_later: bool = False  # a table game's faces shown before the event that showed them


def result_text(cursor: Cursor) -> str | None:
    """``win: alice 57, bob 39, cara 47 · alice wins`` (None while the game goes on)."""
    result = cursor.ruleset.result(cursor.states[cursor.last])
    if result is None:
        return None
    players = cursor.players
    scores = ", ".join(f"{p} {s}" for p, s in zip(players, result.scores, strict=False))
    text = f"{result.outcome}: {scores}" if scores else result.outcome
    winners = [players[w] for w in result.winners]
    if winners:
        text += f" · {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
    return text


class _Boards:
    """Lays boards out and keeps each distinct line and style once."""

    def __init__(self) -> None:
        self.console = Console(
            width=WIDTH,
            file=io.StringIO(),
            force_terminal=True,
            color_system="truecolor",
            highlight=False,
            emoji=False,
            markup=False,
        )
        self.styles: dict[str, int] = {"": 0}
        self.lines: dict[tuple[int | str, ...], int] = {}
        self.columns = 0

    def draw(self, board: Any) -> list[int]:
        """The board's lines, as indexes into ``self.lines``."""
        drawn = []
        for line in self.console.render_lines(board, pad=False):
            runs: list[int | str] = []
            width = 0
            for text, style, control in Segment.simplify(line):
                if control or not text:
                    continue
                css = style.get_html_style(THEME) if style else ""
                cls = self.styles.setdefault(css, len(self.styles))
                if runs and runs[-2] == cls:
                    runs[-1] = str(runs[-1]) + text
                else:
                    runs += [cls, text]
                width += cell_len(text)
            while runs and runs[-2] == 0 and not str(runs[-1]).strip():
                width -= cell_len(str(runs[-1]))
                del runs[-2:]
            self.columns = max(self.columns, width)
            drawn.append(self.lines.setdefault(tuple(runs), len(self.lines)))
        return drawn

    def css(self) -> str:
        return "\n".join(f".s{i}{{{css}}}" for css, i in self.styles.items() if css)


class Exported(msgspec.Struct, frozen=True):
    """One log's page, with where its replay stops (``problem``) if it stops early."""

    page: bytes
    last: int
    problem: Problem | None


def page_of_log(path: Path, as_player: str | None = None) -> Exported:
    """The page of the log at ``path`` as ``as_player`` saw it (a worker process can run
    this: it takes and returns plain data)."""
    cursor = Cursor.open(path)
    seat = None if as_player is None else cursor.seat(as_player)
    return Exported(page(cursor, seat).encode(), cursor.last, cursor.problem)


def page(cursor: Cursor, seat: int | None = None) -> str:
    """The whole replay, as ``seat`` saw it (None: the spectator, who sees everything)."""
    rules = cursor.ruleset
    game = str(getattr(cursor.events[0], "game", ""))
    boards = _Boards()
    frames = []
    for seq in range(cursor.last + 1):
        frame = cursor.frame(seq, seat)
        board = rules.board(frame.view, f"{game} · seq {seq}/{cursor.last}")
        frames.append(
            PageFrame(
                s=seq,
                t=frame.turn,
                b=boards.draw(board),
                a=frame.actor,
                m=frame.move,
                c=frame.change,
                k=frame.kinds,
                u=frame.undone_by,
            )
        )
    data = PageData(
        game=game,
        ruleset=rules.name,
        players=tuple(cursor.players),
        seat=None if seat is None else cursor.players[seat],
        landmark=rules.landmark if rules.landmark in cursor.kinds() else None,
        kinds=cursor.kinds(),
        lines=[list(line) for line in boards.lines],
        frames=frames,
        result=result_text(cursor),
        problem=str(cursor.problem) if cursor.problem else None,
        turn_word=rules.turn_word,
        learned_later=seat is None and cursor.learned_later,
    )
    # Inside <script>, "<", ">" and "&" only ever occur in JSON strings, where \u escapes
    # mean the same: the page's text can never close the script element.
    payload = (
        msgspec.json.encode(data)
        .decode()
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )
    title = f"{rules.name} {game}: {', '.join(cursor.players)}"
    if seat is not None:
        title += f" (as {cursor.players[seat]})"
    template = files("gametape.replay").joinpath("replay.html").read_text(encoding="utf-8")
    head, _, tail = template.partition("__DATA__")
    head = head.replace("__STYLES__", boards.css()).replace("__COLUMNS__", str(boards.columns))
    head = head.replace("__TITLE__", html.escape(title))  # user text goes in last
    return head + payload + tail
