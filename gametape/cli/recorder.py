"""``gametape record``: an interactive prompt that records a whole game at the table.

The loop reads one line at a time, from a prompt_toolkit line editor on a terminal (history,
completion of move words, players and cards) or from plain standard input otherwise
(``gametape record GAME < moves.txt``). Every accepted move is on disk before the next prompt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from gametape.cli.board import render as draw
from gametape.errors import NOTHING_RECORDED, GametapeError, MachineError, NotationError
from gametape.messages import count_of, many, render, say, text_of
from gametape.usecases import position
from gametape.usecases.record import (
    Recording,
    complete,
    move_forms,
    resumed_at,
    scribes_view,
    told_to,
)

HELP = say(
    "cli.record-help",
    "type a move (`?` lists the legal ones), `undo` takes back the last move, `b` shows the "
    "board, Ctrl-D or `q` leaves (resume with `gametape record GAME`)",
)
QUIT = ("q", "quit", "exit")
LISTED = 8  # a kind of move with more legal moves than this is listed by its first words

Complete = Callable[[str], list[str]]  # the words that may follow what was typed so far
Message = Callable[[], str]  # the prompt, asked again whenever it is drawn
Reader = Callable[[Message, Complete], str]


def prompt_reader(history: Iterable[str] = (), **session: Any) -> Reader:
    """A line editor with history and completion that follows the move being typed: after
    ``clue b`` Tab offers the players starting with b, after ``clue ben`` what can follow."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.history import InMemoryHistory

    class Words(Completer):
        def __init__(self, complete: Complete) -> None:
            self.complete = complete

        def get_completions(self, document: Any, event: Any) -> Any:
            typed = document.text_before_cursor
            partial = "" if not typed or typed[-1].isspace() else typed.split()[-1]
            for word in self.complete(typed):
                shown = f'"{word}"' if " " in word else word
                # a space after it, as a shell's completion: the next word follows at once
                yield Completion(shown + " ", start_position=-len(partial), display=shown)

    past = InMemoryHistory()
    for line in history:
        past.append_string(line)
    prompt: PromptSession[str] = PromptSession(history=past, **session)

    def read(message: Message, complete: Complete) -> str:
        return prompt.prompt(message, completer=Words(complete), complete_while_typing=False)

    def refresh() -> None:
        """Draw the prompt again (a move recorded elsewhere changed whose turn it is)."""
        if prompt.app.is_running:
            prompt.app.invalidate()

    read.refresh = refresh  # type: ignore[attr-defined]
    return read


class PlainReader:
    """Lines from a pipe or a file; each is echoed after its prompt, like a transcript (a
    line too long to be a move is echoed cut short). ``line`` counts the lines read."""

    def __init__(self, stream: IO[str], echo: Console) -> None:
        self.stream = stream
        self.echo = echo
        self.line = 0

    def __call__(self, message: Message, complete: Complete) -> str:
        line = self.stream.readline()
        if not line:
            raise EOFError
        self.line += 1
        shown = line.rstrip("\n")
        if len(shown) > 120:
            shown = f"{shown[:100]}… ({len(shown):,} characters)"
        self.echo.print(Text(message() + shown))
        return line


class Recorder:
    """The recording loop: prompt, record, show. ``seat`` is whose view the board shows.

    With ``stop_at_refusal`` (moves from a script), the first refused move ends the loop;
    ``refused`` says where it was. Without ``boards`` (moves from a script), the board is
    shown when the loop starts and ends, and on ``b``, not after every move.
    """

    def __init__(
        self,
        recording: Recording,
        console: Console,
        read: Reader,
        seat: int | None = None,
        *,
        stop_at_refusal: bool = False,
        boards: bool = True,
    ) -> None:
        self.recording = recording
        self.boards = boards
        self.console = console
        self.read = read
        self.seat = seat
        self.stop_at_refusal = stop_at_refusal
        self.refused: list[int] = []  # the input lines refused (1 = the first line read)

    @property
    def game(self) -> Any:
        return self.recording.game

    def run(self) -> None:
        game_id = self.game.setup.game or self.recording.path.stem
        game = self.game.ruleset.name
        start = say("cli.record-start", "recording {game} {id}: {help}", game=game, id=game_id,
                    help=HELP)  # fmt: skip
        self.console.print(Text(render(start), style="dim"))
        last = len(self.game.events) - 1
        if self.game.is_over:
            over = say("cli.record-over", "this game is over (at seq {seq}): `undo` takes the "
                       "last move back", seq=last)  # fmt: skip
            self.console.print(Text(render(over)))
        elif resumed_at(self.game) is not None:
            resumed = say("cli.record-resumed", "resumed at seq {seq}", seq=last)
            self.console.print(Text(render(resumed), style="dim"))
        self.show_board()
        while True:
            try:
                line = self.read(self.prompt, self.complete).strip()
            except EOFError:
                if not self.boards:
                    self.show_board()
                said = say("cli.record-left-over", "left the game: it is over")
                if not self.game.is_over:
                    said = say("cli.record-left", "left the game in progress; resume with: "
                               "gametape record {id}", id=game_id)  # fmt: skip
                self.console.print(Text(render(said), style="dim"))
                return
            except KeyboardInterrupt:
                continue
            if not line:
                continue
            if line.lower() in QUIT:
                resume = say("cli.record-resume", "resume with: gametape record {id}", id=game_id)
                self.console.print(Text(render(resume), style="dim"))
                return
            if line in ("?", "help"):
                self.show_legal()
            elif line.lower() in ("b", "board"):
                self.show_board()
            elif not self.record(line):
                self.refused.append(getattr(self.read, "line", 0))
                if self.stop_at_refusal:
                    return

    def prompt(self) -> str:
        game = self.game
        if game.is_over:
            return render(say("cli.record-prompt-over", "game over (undo, or q to leave)")) + " › "
        return f"{position.turn_now(game)} · {position.acting(game)} › "

    def forms(self) -> dict[int, list[Any]]:
        """The shapes of move each seat to act can make now (as ``--as``: that seat's own,
        which depend only on what it sees)."""
        return move_forms(self.game, self.seat)

    def complete(self, typed: str) -> list[str]:
        """Completion: the words that may follow ``typed``."""
        return complete(self.game, typed, self.seat)

    def record(self, line: str) -> bool:
        """Record one move; False (with the reason printed) if it was refused."""
        try:
            done = self.recording.move(line, viewer=self.seat)
        except MachineError:
            raise  # the store, not the move: stop, saying what to do (nothing was recorded)
        except GametapeError as exc:
            refused = render(say("cli.record-refused", "refused"))
            if exc.seq is not None:
                refused += render(say("cli.record-as-seq", " (as seq {seq})", seq=exc.seq))
            self.console.print(Text.assemble((refused, "bold red"), f": {exc.message}"))
            nothing = render(NOTHING_RECORDED)
            hint = exc.hint or ""
            if isinstance(exc, NotationError):  # its hint says nothing was recorded
                said = hint
            else:
                said = f"{hint}; {nothing}" if hint else nothing
            self.console.print(Text(said, style="dim"))
            return False
        seqs = render(
            say("cli.record-seq", "seq {seq}", seq=done.first)
            if done.first == done.last
            else say("cli.record-seqs", "seqs {first}-{last}", first=done.first, last=done.last)
        )
        if self.boards:  # the board first: what the move did (a round's result) stays in
            self.show_board()  # sight above the prompt, never scrolled off by the board
        shown = scribes_view(self.game, self.seat)
        said = done.description if shown == self.seat else told_to(done, shown)
        self.console.print(Text.assemble(("✓ ", "green"), said, (f"  [{seqs}]", "dim")))
        return True

    def show_board(self) -> None:
        # Messages stay whole lines; the board is laid out (and wrapped) to the width.
        shown = scribes_view(self.game, self.seat)
        self.console.print(draw(position.board(self.game, shown)), soft_wrap=False)

    def show_legal(self) -> None:
        """``?``: the moves each seat to act can make, on one screen; at a table, their forms
        and what the table must say for each. Many moves of a kind are listed by their first
        words (``assign ann perform=red8 …  60 moves``), as a phone groups its buttons; Tab
        completes the rest."""
        game = self.game
        seats = self.forms()
        room = max(len(seats) * 2, self.console.size.height - 8)  # the screen, less the help
        for seat, forms in seats.items():
            listed = [f for f in forms if f.shown]
            literal = all(f.is_literal for f in listed)
            n, player = len(listed), game.players[seat]
            what = (
                say("cli.record-legal", "{player}: {moves}", player=player,
                    moves=count_of(n, "legal move"))
                if literal
                else say("cli.record-kinds", "{player}: {kinds} (say what the table saw)",
                         player=player, kinds=count_of(n, "kind of move", "kinds of move"))
            )  # fmt: skip
            self.console.print(Text(render(what), style="bold"))
            lines = legal_lines(listed) if literal else [(f.shown, text_of(f.note)) for f in listed]
            budget = max(1, room // len(seats) - 1)
            if len(lines) > budget:
                more = len(lines) - (budget - 1)
                said = say("cli.record-more", "… {more} more: Tab completes them", more=more)
                lines = [*lines[: budget - 1], (render(said), "")]
            for text, note in lines:
                self.console.print(
                    Text.assemble(f"  {text}", (f"   {note}" if note else "", "dim"))
                )
        examples = position.examples(game)
        if examples:
            like = say("cli.record-like", "written like: {examples}",
                       examples=many(examples, " · "))  # fmt: skip
            self.console.print(Text(render(like), style="dim"))
        self.console.print(Text(render(HELP), style="dim"))


def legal_lines(forms: list[Any]) -> list[tuple[str, str]]:
    """A seat's legal moves as lines of ``?``: each move of a kind with few, else the kind's
    moves by their words up to the first that differs, with how many there are."""
    kinds: dict[tuple[str, int], list[list[str]]] = {}
    for form in forms:
        words = [choices[0] for choices in form.words]  # a literal form: a word each
        kinds.setdefault((words[0], len(words)), []).append(words)
    lines: list[tuple[str, str]] = []
    for moves in kinds.values():
        if len(moves) <= LISTED:
            lines += [(" ".join(words), "") for words in moves]
            continue
        cut = next(i for i in range(len(moves[0])) if len({m[i] for m in moves}) > 1) + 1
        counts: dict[str, int] = {}
        for words in moves:
            key = " ".join(words[:cut])
            counts[key] = counts.get(key, 0) + 1
        lines += [(f"{key} …", render(count_of(count, "move"))) for key, count in counts.items()]
    return lines
