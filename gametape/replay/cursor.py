"""A cursor over a game's states.

Every state is kept once computed (states share their unchanged parts, so a game of a few
hundred events costs little), so a step, a step back or a jump never refolds from the start.
A cursor on a log that is still being written catches up with ``refresh()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from gametape.engine.board import Board, mark_new
from gametape.engine.fold import Fold, IllegalEvent, start
from gametape.engine.game import describe, kinds, notation, redact, undone_by
from gametape.engine.moves import seat_named
from gametape.engine.registry import ruleset_for
from gametape.engine.ruleset import Ruleset
from gametape.errors import GametapeError, NotationError, NotFound, Problem, UsageError, no_seq
from gametape.events.base import Event, Setup, actor
from gametape.events.log import LogRead, Source, read_log
from gametape.messages import Term, current, render, say


class OutOfRange(NotFound):
    """A jump outside the game; the message gives the valid range."""


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """One step of a replay as ``seat`` saw it (None: everything).

    ``event``, ``move`` and ``change`` describe the event that led here (absent at seq 0);
    ``event`` and ``move`` are None when the seat could not see the event itself. A frame
    holds only what was known at its seq (the game's length is the cursor's ``last``).
    """

    seq: int
    turn: int
    seat: int | None
    actor: str | None
    event: Event | None
    move: str | None
    change: str | None
    kinds: tuple[str, ...]
    view: Any
    undone_by: int | None = None  # the seq of the undo that took this move back, if any


class Cursor:
    """Step through a game's states.

    >>> cursor = Cursor.open(path)
    >>> cursor.step(); cursor.frame(seat=1).change
    'alice told bob red: slots 2, 4'
    """

    def __init__(
        self,
        events: Sequence[Event],
        path: Path | Source | None = None,
        read_problem: Problem | None = None,
        *,
        ruleset: Ruleset[Any] | None = None,
    ) -> None:
        if not events or not isinstance(events[0], Setup):
            raise GametapeError("the log does not start with a setup event", path=path, line=1)
        self.ruleset = ruleset or ruleset_for(events[0])
        self.path = path
        self.fold: Fold = start(self.ruleset, events[:1])
        self.players = self.fold.players
        self._kinds: list[tuple[str, ...]] = [()]
        self.problem: Problem | None = None  # why the replay stops before the end of the log
        self._illegal = False  # stopped by the rules: later appends cannot mend that
        self.seq = 0
        self._extend(events[1:], read_problem)

    @classmethod
    def open(cls, path: Path | Source) -> Cursor:
        """A cursor over a log file; it stops before the first bad line or illegal event."""
        read = read_log(path)
        if not read.records:
            if read.error is not None:
                raise read.error
            raise GametapeError("the log holds no events", path=path)
        return cls(read.events, path, _problem(read))

    def __repr__(self) -> str:
        return f"<Cursor {self.ruleset.name} seq {self.seq}/{self.last}>"

    @property
    def events(self) -> list[Event]:
        return self.fold.events

    @property
    def states(self) -> list[Any]:
        return self.fold.states

    def _extend(self, events: Sequence[Event], read_problem: Problem | None) -> int:
        """Walk on through ``events`` (the one walker, ``Fold.walk``), noting each one's kinds;
        stop at the first illegal one, which is then the replay's problem."""
        added = 0
        try:
            for _seq, event, before, after in self.fold.walk(events):
                self._kinds.append(kinds(self.ruleset, before, event, after))
                added += 1
        except IllegalEvent as exc:
            self.problem = exc.problem()
            self._illegal = True
            return added
        self.problem = read_problem
        return added

    def refresh(self) -> int:
        """Catch up with a log still being written; return how many events were added."""
        if self.path is None or self._illegal:
            return 0
        read = read_log(self.path)
        known = len(self.events)
        if len(read.records) < known or read.events[:known] != self.events:
            self.problem = Problem(
                kind="Changed",
                message="the log changed under the replay; reopen it",
                file=str(self.path),
            )
            self._illegal = True
            return 0
        return self._extend(read.events[known:], _problem(read))

    def seat(self, name: str) -> int:
        """The seat of the player ``name`` (a name, a unique prefix or a seat number, as in
        every other command); UsageError names them all."""
        try:
            return seat_named(self.players, name)
        except NotationError as exc:
            raise UsageError(exc.message) from None

    # --- position -----------------------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.events) - 1

    @property
    def state(self) -> Any:
        return self.states[self.seq]

    def state_at(self, seq: int) -> Any:
        self._check(seq)
        return self.states[seq]

    def _check(self, seq: int) -> None:
        if not 0 <= seq <= self.last:
            raise OutOfRange(no_seq(seq, self.last))

    def jump(self, seq: int) -> int:
        self._check(seq)
        self.seq = seq
        return seq

    def step(self, n: int = 1) -> int:
        """Move forward ``n`` events (stopping at the end); return the new seq."""
        self.seq = min(self.seq + n, self.last)
        return self.seq

    def back(self, n: int = 1) -> int:
        self.seq = max(self.seq - n, 0)
        return self.seq

    def start(self) -> int:
        return self.jump(0)

    def end(self) -> int:
        return self.jump(self.last)

    def turn_of(self, seq: int) -> int:
        """The turn (or round) the event at ``seq`` belongs to (seq 0: the first)."""
        return self.fold.turn_of(seq)

    def jump_turn(self, turn: int) -> int:
        """Jump to the first event of ``turn``."""
        for seq in range(1, self.last + 1):
            if self.turn_of(seq) == turn:
                return self.jump(seq)
        first, last = self.turn_of(1 if self.last else 0), self.turn_of(self.last)
        raise OutOfRange(say("core.no-turn", "no turn {turn}: this game has turns {first} to "
                             "{last}", turn=turn, first=first, last=last))  # fmt: skip

    def kind_words(self) -> dict[str, str]:
        """Each kind of event (``kinds``) in the reader's language: the game's own word for
        it (``{game}.kind``), a kind that ends in a player's name (``clue to ann``) through
        the game's word with ``{player}`` in the name's place."""
        game = self.ruleset.name
        said = {}
        for kind in self.kinds():
            named = next((p for p in self.players if kind.endswith(" " + p)), None)
            if named is None:
                said[kind] = render(Term(f"{game}.kind", kind))
            else:
                pattern = Term(f"{game}.kind", kind.removesuffix(named) + "{player}")
                said[kind] = render(pattern).replace("{player}", current().typed(named))
        return said

    def kinds(self) -> list[str]:
        """Every kind of event in the game, in order of first appearance."""
        seen: dict[str, None] = {}
        for ks in self._kinds:
            seen.update(dict.fromkeys(ks))
        return list(seen)

    def find(self, kind: str, forward: bool = True) -> int | None:
        """The seq of the next (or previous) event of ``kind`` from here, if any."""
        seqs = range(self.seq + 1, self.last + 1) if forward else range(self.seq - 1, 0, -1)
        return next((s for s in seqs if kind in self._kinds[s]), None)

    # --- frames -------------------------------------------------------------------------

    def frame(self, seq: int | None = None, seat: int | None = None) -> Frame:
        """The frame at ``seq`` (default: here) as ``seat`` saw it. The spectator (``seat``
        None) of a game recorded at a table also sees every face a later event showed."""
        seq = self.seq if seq is None else seq
        self._check(seq)
        rules = self.ruleset
        after = self.states[seq]
        shown = after if seat is not None else rules.hindsight(after, self.states[-1])
        if seq == 0:
            return Frame(
                seq=0,
                turn=self.fold.turn(0),
                seat=seat,
                actor=None,
                event=None,
                move=None,
                change=None,
                kinds=(),
                view=rules.view(shown, seat),
            )
        before, event = self.states[seq - 1], self.events[seq]
        seen = redact(rules, before, event, seat)
        who = actor(event)
        return Frame(
            seq=seq,
            turn=self.fold.turn_of(seq),
            seat=seat,
            actor=self.players[who] if who is not None else None,
            event=seen,
            move=notation(rules, before, seen) if seen is not None else None,
            change=render(describe(rules, self.players, before, event, after, seat, self.fold)),
            undone_by=undone_by(self.events).get(seq),
            kinds=self._kinds[seq],
            view=rules.view(shown, seat),
        )

    def board(self, seq: int | None = None, seat: int | None = None) -> Board:
        """The board at ``seq`` as ``seat`` saw it, the cards the move brought marked new."""
        seq = self.seq if seq is None else seq
        game = getattr(self.events[0], "game", "")
        title = say(
            "core.board-title-of", "{game} · seq {seq}/{last}", game=game, seq=seq, last=self.last
        )
        here = self.ruleset.board(self.frame(seq, seat).view, render(title))
        if seq == 0:
            return here
        before = self.ruleset.board(self.frame(seq - 1, seat).view, "")
        return mark_new(before, here)

    @property
    def learned_later(self) -> bool:
        """Whether the spectator's frames show faces that later events made known (a game
        recorded at a table): ``frame`` fills them in with ``Ruleset.hindsight``."""
        rules, final = self.ruleset, self.states[-1]
        return any(rules.hindsight(state, final) is not state for state in self.states)


def _problem(read: LogRead) -> Problem | None:
    """A read's error (a damaged line after the good ones) as a problem, if any."""
    return read.error.problem() if read.error is not None else None
