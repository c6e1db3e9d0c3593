"""The interactive replay viewer (Textual): step, jump and search through a game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Input, Static

from gametape.cli.frames import render_frame
from gametape.usecases.replaying import Cursor, Frame, OutOfRange
from gametape.usecases.review import Annotation


class ReplayApp(App[None]):
    """Replays one game; the footer lists the keys."""

    TITLE = "gametape replay"
    CSS = """
    #status { height: auto; padding: 0 1; background: $boost; }
    #jump { dock: bottom; display: none; }
    #jump.open { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Short descriptions: the whole footer fits 80 columns.
        Binding("right,l,n,space", "step(1)", "next"),
        Binding("left,h,p", "step(-1)", "back"),
        Binding("home,g", "first", "first", show=False),  # Home and End: as everywhere
        Binding("end,G", "last", "last", show=False),
        Binding("colon,j", "ask_jump", "jump"),
        Binding("k", "cycle_kind", "kind"),
        Binding("right_square_bracket", "find(True)", "next"),
        Binding("left_square_bracket", "find(False)", "prev"),
        Binding("s", "switch_seat", "seat"),
        # Branches (what if): into one leaving this seq, and back up to the line it left.
        Binding("b", "branch", "branch", show=False),
        Binding("u", "up", "up", show=False),
        Binding("q", "quit", "quit", priority=True),
        Binding("escape", "back_out", "quit", show=False),
        # A board taller than the window scrolls (an 80x24 terminal shows part of one).
        Binding("down", "scroll(1)", "scroll", show=False),
        Binding("up", "scroll(-1)", "scroll", show=False),
        Binding("pagedown", "scroll(10)", "scroll", show=False),
        Binding("pageup", "scroll(-10)", "scroll", show=False),
    ]

    def __init__(
        self,
        cursor: Cursor,
        seat: int | None = None,
        follow: bool = True,
        notes: Sequence[Annotation] = (),
        tree: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
        opener: Callable[[str], tuple[Cursor, Sequence[Annotation]]] | None = None,
    ) -> None:
        super().__init__()
        self.cursor = cursor
        self.notes = notes
        self.lines_of = tree or {}  # gametape.usecases.branches.branch_tree
        self.opener = opener
        self.above: list[tuple[Cursor, Sequence[Annotation], int | None]] = []
        self.seat = seat
        self.follow = follow
        kinds = cursor.kinds()
        self.kind: str | None = kinds[0] if kinds else None
        self.message = ""
        self.frame: Frame | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll():
            yield Static(id="frame")
        yield Input(
            placeholder="seq number, or t12 for turn 12 — enter to jump, esc to cancel", id="jump"
        )
        yield Footer()

    def on_mount(self) -> None:
        self.show()
        if self.follow and self.cursor.path is not None:
            self.set_interval(1.0, self.poll)

    def show(self) -> None:
        self.frame = frame = self.cursor.frame(seat=self.seat)
        self.query_one("#frame", Static).update(render_frame(self.cursor, frame, self.notes))
        kind = f"kind: {self.kind} ([ ] to jump)" if self.kind else "no kinds of events yet"
        forks = self._forks()
        if forks:
            kind += f"   ↳ b: what if {forks[0]['game']}"
        if self.above:
            kind += "   u: back up"
        status = f"{kind}   {self.message}".rstrip()
        self.query_one("#status", Static).update(status)

    def poll(self) -> None:
        """A live game: pick up new events; stay at the end if we were there."""
        at_end = self.cursor.seq == self.cursor.last
        if self.cursor.refresh():
            if at_end:
                self.cursor.end()
            if self.kind is None:
                kinds = self.cursor.kinds()
                self.kind = kinds[0] if kinds else None
            self.message = f"{self.cursor.last} events now"
            self.show()

    def action_step(self, n: int) -> None:
        self.message = ""
        (self.cursor.step if n > 0 else self.cursor.back)(abs(n))
        self.show()

    def action_first(self) -> None:
        self.cursor.start()
        self.message = ""
        self.show()

    def action_last(self) -> None:
        self.cursor.end()
        self.message = ""
        self.show()

    def action_cycle_kind(self) -> None:
        kinds = self.cursor.kinds()
        if kinds:
            i = kinds.index(self.kind) if self.kind in kinds else -1
            self.kind = kinds[(i + 1) % len(kinds)]
        self.message = ""
        self.show()

    def _game_id(self) -> str:
        return str(getattr(self.cursor.events[0], "game", ""))

    def _forks(self) -> list[Mapping[str, Any]]:
        """The branches that leave the game at the seq shown."""
        return [b for b in self.lines_of.get(self._game_id(), ()) if b["at"] == self.cursor.seq]

    def action_branch(self) -> None:
        """Into the first branch that leaves this seq, at its first move of its own."""
        forks = self._forks()
        if not forks or self.opener is None:
            at = sorted({b["at"] for b in self.lines_of.get(self._game_id(), ())})
            self.message = f"no branch leaves here (branches at seq {at})" if at else "no branches"
            self.show()
            return
        self.above.append((self.cursor, self.notes, self.seat))
        self.cursor, self.notes = self.opener(forks[0]["game"])
        meta = getattr(self.cursor.events[0], "meta", {})
        forced = meta.get("branch_as")
        self.seat = (
            self.cursor.players.index(forced) if forced in self.cursor.players else self.seat
        )
        self.cursor.jump(min(forks[0]["at"] + 1, self.cursor.last))
        self.message = f"in the branch {forks[0]['game']} (u: back to where it left)"
        self.show()

    def action_up(self) -> None:
        """Back to the line this branch left, at its fork."""
        if not self.above:
            self.message = "on the main line"
        else:
            self.cursor, self.notes, self.seat = self.above.pop()
            self.message = ""
        self.show()

    def action_switch_seat(self) -> None:
        """The next seat's view (everyone's after the last seat): what that player saw."""
        if "branch_as" in getattr(self.cursor.events[0], "meta", {}):
            self.message = "a seat's hypothesis is shown only as that seat saw it"
            self.show()
            return
        seats = [None, *range(len(self.cursor.players))]
        self.seat = seats[(seats.index(self.seat) + 1) % len(seats)]
        who = "everyone (every card)" if self.seat is None else self.cursor.players[self.seat]
        self.message = f"as {who} (s: the next seat)"
        self.show()

    def action_scroll(self, lines: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_back_out(self) -> None:
        """Esc closes the jump prompt when it is open, and quits otherwise."""
        if self.query_one("#jump", Input).has_class("open"):
            self._close_jump()
            self.show()
        else:
            self.exit()

    def action_find(self, forward: bool) -> None:
        if self.kind is None:
            return
        seq = self.cursor.find(self.kind, forward)
        if seq is None:
            self.message = f"no {'later' if forward else 'earlier'} {self.kind}"
        else:
            self.cursor.jump(seq)
            self.message = ""
        self.show()

    def action_ask_jump(self) -> None:
        self.message = ""
        self.show()
        box = self.query_one("#jump", Input)
        box.add_class("open")
        box.value = ""
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip().lower()
        self._close_jump()
        try:
            if text.startswith("t") and text[1:].isdigit():
                self.cursor.jump_turn(int(text[1:]))
            elif text.isdigit():
                self.cursor.jump(int(text))
            else:
                raise OutOfRange(f"{text!r}: type a seq number, or t and a turn number")
            self.message = ""
        except OutOfRange as exc:
            self.message = str(exc)
        self.show()

    def _close_jump(self) -> None:
        box = self.query_one("#jump", Input)
        box.remove_class("open")
        self.set_focus(None)
