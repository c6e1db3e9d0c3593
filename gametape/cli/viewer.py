"""The interactive replay viewer (Textual): step, jump and search through a game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Input, Static

from gametape.cli.frames import render_frame
from gametape.messages import count_of, many, render, say
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
    # Short descriptions: the whole footer fits 80 columns. Each in the reader's language,
    # chosen before this module is imported (``gametape replay`` imports it to open the
    # viewer). Home and End go to the first and last, as everywhere.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,n,space", "step(1)", render(say("cli.key-next", "next"))),
        Binding("left,h,p", "step(-1)", render(say("cli.key-back", "back"))),
        Binding("home,g", "first", render(say("cli.key-first", "first")), show=False),
        Binding("end,G", "last", render(say("cli.key-last", "last")), show=False),
        Binding("colon,j", "ask_jump", render(say("cli.key-jump", "jump"))),
        Binding("k", "cycle_kind", render(say("cli.key-kind", "kind"))),
        Binding("right_square_bracket", "find(True)", render(say("cli.key-next", "next"))),
        Binding("left_square_bracket", "find(False)", render(say("cli.key-prev", "prev"))),
        Binding("s", "switch_seat", render(say("cli.key-seat", "seat"))),
        # Branches (what if): into one leaving this seq, and back up to the line it left.
        Binding("b", "branch", render(say("cli.key-branch", "branch")), show=False),
        Binding("u", "up", render(say("cli.key-up", "up")), show=False),
        Binding("q", "quit", render(say("cli.key-quit", "quit")), priority=True),
        Binding("escape", "back_out", render(say("cli.key-quit", "quit")), show=False),
        # A board taller than the window scrolls (an 80x24 terminal shows part of one).
        Binding("down", "scroll(1)", render(say("cli.key-scroll", "scroll")), show=False),
        Binding("up", "scroll(-1)", render(say("cli.key-scroll", "scroll")), show=False),
        Binding("pagedown", "scroll(10)", render(say("cli.key-scroll", "scroll")), show=False),
        Binding("pageup", "scroll(-10)", render(say("cli.key-scroll", "scroll")), show=False),
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
        asked = say("cli.viewer-jump", "seq number, or t12 for turn 12 — enter to jump, esc to "
                    "cancel")  # fmt: skip
        yield Input(placeholder=render(asked), id="jump")
        yield Footer()

    def on_mount(self) -> None:
        self.show()
        if self.follow and self.cursor.path is not None:
            self.set_interval(1.0, self.poll)

    def show(self) -> None:
        self.frame = frame = self.cursor.frame(seat=self.seat)
        self.query_one("#frame", Static).update(render_frame(self.cursor, frame, self.notes))
        said = (
            say("cli.viewer-kind", "kind: {kind} ([ ] to jump)", kind=self._kind_word())
            if self.kind
            else say("cli.viewer-no-kinds", "no kinds of events yet")
        )
        kind = render(said)
        forks = self._forks()
        if forks:
            what_if = say("cli.viewer-what-if", "↳ b: what if {game}", game=forks[0]["game"])
            kind += "   " + render(what_if)
        if self.above:
            kind += "   " + render(say("cli.viewer-back-up", "u: back up"))
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
            self.message = render(say("cli.viewer-events-now", "{events} now",
                                      events=count_of(self.cursor.last, "event")))  # fmt: skip
            self.show()

    def _kind_word(self) -> str:
        """The kind of event searched for, in the reader's language."""
        return self.cursor.kind_words().get(self.kind or "", self.kind or "")

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
            self.message = render(
                say("cli.viewer-no-branch-here", "no branch leaves here (branches at seq {seqs})",
                    seqs=many(at))
                if at
                else say("cli.viewer-no-branches", "no branches")
            )  # fmt: skip
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
        self.message = render(say("cli.viewer-in-branch", "in the branch {game} (u: back to where "
                                  "it left)", game=forks[0]["game"]))  # fmt: skip
        self.show()

    def action_up(self) -> None:
        """Back to the line this branch left, at its fork."""
        if not self.above:
            self.message = render(say("cli.viewer-main-line", "on the main line"))
        else:
            self.cursor, self.notes, self.seat = self.above.pop()
            self.message = ""
        self.show()

    def action_switch_seat(self) -> None:
        """The next seat's view (everyone's after the last seat): what that player saw."""
        if "branch_as" in getattr(self.cursor.events[0], "meta", {}):
            self.message = render(say("cli.viewer-hypothesis", "a seat's hypothesis is shown only "
                                      "as that seat saw it"))  # fmt: skip
            self.show()
            return
        seats = [None, *range(len(self.cursor.players))]
        self.seat = seats[(seats.index(self.seat) + 1) % len(seats)]
        self.message = render(
            say("cli.viewer-as-everyone", "as everyone (every card) (s: the next seat)")
            if self.seat is None
            else say("cli.viewer-as", "as {player} (s: the next seat)",
                     player=self.cursor.players[self.seat])
        )  # fmt: skip
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
            kind = self._kind_word()
            self.message = render(
                say("cli.viewer-no-later", "no later {kind}", kind=kind)
                if forward
                else say("cli.viewer-no-earlier", "no earlier {kind}", kind=kind)
            )
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
                raise OutOfRange(say("cli.viewer-not-a-seq", "{typed}: type a seq number, or t and "
                                     "a turn number", typed=repr(text)))  # fmt: skip
            self.message = ""
        except OutOfRange as exc:
            self.message = str(exc)
        self.show()

    def _close_jump(self) -> None:
        box = self.query_one("#jump", Input)
        box.remove_class("open")
        self.set_focus(None)
